//! A bound on what each step of a curve changes: the log ratio of the next
//! point to the previous one, in the trend's way, against ln(1 + bound).

use super::{p_above, p_below, Comparison};

/// The two scaled p-values of a step against its bound, each deciding at
/// p ≤ α as the rest of the comparisons do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct StepTest {
    /// For the stated bound: `less than` (`more than`) holds when the 95%
    /// interval of the change lies below (above) it, `at most` (`at least`)
    /// when the 90% interval does (one-sided at 5%, as `<=` against a
    /// number).
    pub p_holds: f64,
    /// For the opposite beyond noise: the 95% interval on the other side.
    pub p_contradicts: f64,
    /// The level of the interval the hold rule looks at.
    pub holds_level: f64,
    /// How far the change lies on the stated side of the bound (in logs),
    /// negative past it.
    pub lead: f64,
}

/// Tests a comparison of the next point with the previous (d > 0: the
/// change goes the trend's way) against `bound` (a fraction: 0.01 = 1%):
/// `below` for `less than`/`at most`, `strict` for `less than`/`more than`.
pub(crate) fn step_bound(c: &Comparison, bound: f64, below: bool, strict: bool) -> StepTest {
    let b = (1.0 + bound).ln();
    let (toward, away) = if below { (p_below(c, b), p_above(c, b)) } else { (p_above(c, b), p_below(c, b)) };
    let p_holds = if strict { (2.0 * toward).min(1.0) } else { toward };
    StepTest {
        p_holds,
        p_contradicts: (2.0 * away).min(1.0),
        holds_level: if strict { 0.95 } else { 0.90 },
        lead: if below { b - c.d } else { c.d - b },
    }
}

#[cfg(test)]
mod tests {
    use super::super::compare;
    use super::*;
    use crate::metric::Direction;

    #[test]
    fn a_step_under_its_bound_holds_and_one_over_it_contradicts() {
        // +0.3% with 0.1% noise against a 1% bound: under it.
        let prev = [100.0, 100.1, 99.9];
        let small = [100.3, 100.4, 100.2];
        let c = compare(&small, &prev, Direction::Higher, 0.0, None).unwrap();
        let t = step_bound(&c, 0.01, true, true);
        assert!(t.p_holds <= 0.05 && t.p_contradicts > 0.05, "{t:?}");
        // +5%: over it.
        let big = [105.0, 105.1, 104.9];
        let c = compare(&big, &prev, Direction::Higher, 0.0, None).unwrap();
        let t = step_bound(&c, 0.01, true, true);
        assert!(t.p_holds > 0.05 && t.p_contradicts <= 0.05, "{t:?}");
        // `at least 1%` the other way round.
        let t = step_bound(&c, 0.01, false, false);
        assert!(t.p_holds <= 0.05 && t.holds_level == 0.90, "{t:?}");
        // A fall is under any bound on a rise.
        let fall = [95.0, 95.1, 94.9];
        let c = compare(&fall, &prev, Direction::Higher, 0.0, None).unwrap();
        assert!(step_bound(&c, 0.01, true, true).p_holds <= 0.05);
    }
}

#[cfg(test)]
#[path = "step_null_tests.rs"]
mod null;
