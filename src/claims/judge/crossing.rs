//! Where a crossover lies as far as the data decide it. A crossover is the
//! smallest point where A beats B and is not worse at any larger point; at
//! each point both findings are *yes*, *no* or *undecided* (within noise),
//! and the crossover is judged in three-valued logic over them, so a
//! crossover the data cannot place is undecided, never "none".

use crate::claims::stats::{Comparison, Test};

/// One finding at one point, as far as the data decide it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Known {
    Yes,
    No,
    Undecided,
}

use Known::{No, Undecided, Yes};

impl Known {
    fn of(shown: bool, refuted: bool) -> Self {
        match (shown, refuted) {
            (true, _) => Yes,
            (false, true) => No,
            (false, false) => Undecided,
        }
    }

    fn and(self, other: Self) -> Self {
        match (self, other) {
            (No, _) | (_, No) => No,
            (Yes, Yes) => Yes,
            _ => Undecided,
        }
    }

    fn not(self) -> Self {
        match self {
            Yes => No,
            No => Yes,
            Undecided => Undecided,
        }
    }

    fn or(self, other: Self) -> Self {
        self.not().and(other.not()).not()
    }
}

/// What one point of the param says about a crossover of every pair at
/// once: whether each pair's A beats its B there (beyond the margin; *no*
/// when the 90% interval lies below it — a match or A behind), and whether
/// A is not worse there (*no* when B beats A beyond noise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Step {
    pub x: f64,
    pub beats: Known,
    pub not_worse: Known,
}

impl Step {
    /// The findings of every pair's comparison at `x`, joined: every pair
    /// must beat (be not worse) for the point to.
    pub(crate) fn of(x: f64, pairs: &[&Comparison]) -> Self {
        let (mut beats, mut not_worse) = (Yes, Yes);
        for c in pairs {
            beats = beats.and(Known::of(c.holds(Test::Beats), c.not_better()));
            not_worse = not_worse.and(Known::of(c.holds(Test::MatchesOrBeats), c.contradicts(Test::MatchesOrBeats)));
        }
        Self { x, beats, not_worse }
    }

    fn decided(&self) -> bool {
        self.beats != Undecided && self.not_worse != Undecided
    }
}

/// Where the crossover may lie.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Crossing {
    /// The crossover, when the data decide it.
    pub found: Option<f64>,
    /// Every point the crossover may lie at (only `found` when decided).
    pub possible: Vec<f64>,
    /// Whether there may be no crossover at all.
    pub maybe_none: bool,
    /// The points where some finding is undecided.
    pub undecided: Vec<f64>,
}

impl Crossing {
    /// Whether the data rule out every point `accepts` takes (a crossover
    /// that may be nowhere does not satisfy a stated point either).
    pub(crate) fn rules_out(&self, accepts: impl Fn(f64) -> bool) -> bool {
        !self.possible.iter().any(|x| accepts(*x))
    }
}

/// The crossover of `steps` (in any order). The crossover is at a point
/// when A beats there, is not worse at every larger point, and at every
/// smaller point either does not beat or falls behind somewhere between
/// that point and this one. Each of these is evaluated in Kleene's three-valued logic,
/// which never says *yes* or *no* where some completion of the undecided
/// findings says otherwise, so `found` and the points ruled out are
/// decided by the data. Quadratic in the points of the param (a crossover
/// has tens of them).
pub(crate) fn crossing(steps: &[Step]) -> Crossing {
    let mut steps = steps.to_vec();
    steps.sort_by(|a, b| a.x.total_cmp(&b.x));
    let n = steps.len();
    // Not worse at every point after i.
    let mut after = vec![Yes; n];
    for i in (0..n.saturating_sub(1)).rev() {
        after[i] = after[i + 1].and(steps[i + 1].not_worse);
    }
    let mut found = None;
    let mut possible = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let mut here = step.beats.and(after[i]);
        // A fall behind somewhere in (x_k, x_i), k walking down from i.
        let mut fell = No;
        for k in (0..i).rev() {
            here = here.and(steps[k].beats.not().or(fell));
            fell = fell.or(steps[k].not_worse.not());
        }
        match here {
            Yes => {
                found = Some(step.x);
                possible.push(step.x);
            }
            Undecided => possible.push(step.x),
            No => {}
        }
    }
    // No crossover: every point either does not beat or is followed by a
    // fall behind.
    let mut none = Yes;
    let mut fell = No;
    for step in steps.iter().rev() {
        none = none.and(step.beats.not().or(fell));
        fell = fell.or(step.not_worse.not());
    }
    let undecided = steps.iter().filter(|s| !s.decided()).map(|s| s.x).collect();
    Crossing { found, possible, maybe_none: none != No, undecided }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(findings: &[(f64, Known, Known)]) -> Vec<Step> {
        findings.iter().map(|&(x, beats, not_worse)| Step { x, beats, not_worse }).collect()
    }

    #[test]
    fn decided_findings_place_the_crossover() {
        // Loses at 1, matches at 2, beats from 4 on.
        let got = crossing(&steps(&[(1.0, No, No), (2.0, No, Yes), (4.0, Yes, Yes), (8.0, Yes, Yes)]));
        assert_eq!(got.found, Some(4.0));
        assert_eq!(got.possible, vec![4.0]);
        assert!(!got.maybe_none);
        assert!(got.undecided.is_empty());
        // Beats at 2, falls behind at 4, beats again from 8: the crossover
        // is 8, whatever happened before the fall.
        let got = crossing(&steps(&[(2.0, Yes, Yes), (4.0, No, No), (8.0, Yes, Yes)]));
        assert_eq!(got.found, Some(8.0));
        // Never beats: decidedly no crossover.
        let got = crossing(&steps(&[(1.0, No, Yes), (2.0, No, No)]));
        assert_eq!((got.found, got.possible.len(), got.maybe_none), (None, 0, true));
    }

    #[test]
    fn undecided_findings_leave_the_crossover_open() {
        // The trial's leveled-bloom against fifo: ahead by ~1% within a 2%
        // margin at 8 and 16, within noise below. Where it crosses, if
        // anywhere, the data cannot say; nothing is ruled out but 1..4
        // (a later point's undecided lead could still be the crossover).
        let got = crossing(&steps(&[
            (1.0, Undecided, Undecided),
            (2.0, Undecided, Undecided),
            (4.0, Undecided, Undecided),
            (8.0, Undecided, Yes),
            (16.0, Undecided, Yes),
        ]));
        assert_eq!(got.found, None);
        assert_eq!(got.possible, vec![1.0, 2.0, 4.0, 8.0, 16.0]);
        assert!(got.maybe_none);
        assert_eq!(got.undecided, vec![1.0, 2.0, 4.0, 8.0, 16.0]);
        assert!(!got.rules_out(|x| x == 8.0));
        // A decided beat at 4 and after, undecided at 2: the crossover is 2
        // or 4, and 8 is ruled out beyond noise.
        let got = crossing(&steps(&[(1.0, No, No), (2.0, Undecided, Yes), (4.0, Yes, Yes), (8.0, Yes, Yes)]));
        assert_eq!((got.found, got.possible.clone(), got.maybe_none), (None, vec![2.0, 4.0], false));
        assert!(got.rules_out(|x| x == 8.0));
        // Beats at 8, undecided at 16: if A falls behind at 16 there is no
        // crossover, else it is 8 — never 16, which would need A not to
        // beat at 8.
        let got = crossing(&steps(&[(4.0, No, Yes), (8.0, Yes, Yes), (16.0, Undecided, Undecided)]));
        assert_eq!((got.found, got.possible.clone(), got.maybe_none), (None, vec![8.0], true));
    }
}
