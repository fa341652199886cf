//! How the comparisons of a claim over several points (or opponents) fold
//! into its verdict, each side of the verdict at family-wise level α:
//!
//! - `for all` (and `at`) holds when every comparison holds at α (an
//!   intersection–union test); it is contradicted when some comparison is
//!   contradicted under Holm's correction;
//! - `for any` holds when some comparison holds under Holm's correction; it
//!   is contradicted when every comparison is contradicted at α (an
//!   intersection–union test).
//!
//! A verdict that needs *every* component is an intersection–union test
//! (Berger 1982; Berger & Hsu 1996): it is wrong only when some component
//! is, and each component's own test is at α, so its size is α with no
//! correction. A verdict that rests on *any one* component is a union of
//! tests and needs Holm's step-down correction to stay at α.

use super::holm;
use super::ALPHA;

/// Which points a clause speaks of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quantifier {
    /// Every point (`for all`, `at`).
    All,
    /// Some point (`for any`).
    Any,
}

/// The folded verdict's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Folded {
    Holds,
    Contradicted,
    Inconclusive,
}

/// The level each comparison's two tests were decided at, and what each
/// decided.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fold {
    pub verdict: Folded,
    /// Per comparison: the claimed relation is shown at its level.
    pub holds: Vec<bool>,
    /// Per comparison: the opposite is shown at its level.
    pub contradicted: Vec<bool>,
    /// Per comparison, the level its hold test was compared with: α
    /// uncorrected, or its Holm step α/(m − rank).
    pub holds_level: Vec<f64>,
    /// The same for its contradiction test.
    pub contradicted_level: Vec<f64>,
}

/// Holm's step levels: the i-th smallest p (0-based) is compared with
/// α/(m − i).
fn holm_levels(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let mut level = vec![ALPHA; m];
    for (rank, &i) in order.iter().enumerate() {
        level[i] = ALPHA / (m - rank) as f64;
    }
    level
}

/// Each comparison's test at α on its own.
fn each(p: &[f64]) -> (Vec<bool>, Vec<f64>) {
    (p.iter().map(|&x| x <= ALPHA).collect(), vec![ALPHA; p.len()])
}

/// Holm's correction over the comparisons.
fn corrected(p: &[f64]) -> (Vec<bool>, Vec<f64>) {
    (holm(p, ALPHA), holm_levels(p))
}

/// Folds comparisons given, per comparison, the p-value of the claimed
/// relation (`p_holds`) and of its opposite (`p_contradicts`), each scaled
/// so that a single comparison decides at p ≤ α. No comparisons fold to
/// inconclusive (the caller reports no data).
pub(crate) fn fold(p_holds: &[f64], p_contradicts: &[f64], quantifier: Quantifier) -> Fold {
    let ((holds, holds_level), (contradicted, contradicted_level)) = match quantifier {
        Quantifier::All => (each(p_holds), corrected(p_contradicts)),
        Quantifier::Any => (corrected(p_holds), each(p_contradicts)),
    };
    let nonempty = !holds.is_empty();
    let verdict = match quantifier {
        Quantifier::All if contradicted.contains(&true) => Folded::Contradicted,
        Quantifier::All if nonempty && holds.iter().all(|&h| h) => Folded::Holds,
        Quantifier::Any if holds.contains(&true) => Folded::Holds,
        Quantifier::Any if nonempty && contradicted.iter().all(|&c| c) => Folded::Contradicted,
        _ => Folded::Inconclusive,
    };
    Fold { verdict, holds, contradicted, holds_level, contradicted_level }
}

/// The level of the interval a test decided with at `threshold` (α, or a
/// Holm step α/k), for a rule whose uncorrected interval is at
/// `uncorrected` (0.95 for the two-sided rules, 0.90 for TOST and
/// non-inferiority): a rule that fires at p ≤ α with a level-L interval
/// fires at p ≤ t with a 1 − (1 − L)·t/α one.
pub(crate) fn decided_level(uncorrected: f64, threshold: f64) -> f64 {
    1.0 - (1.0 - uncorrected) * threshold / ALPHA
}

#[cfg(test)]
#[path = "fold_tests.rs"]
pub(super) mod tests;
