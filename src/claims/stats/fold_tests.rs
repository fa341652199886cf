//! The four fold rules under their least favourable nulls: data generated at
//! the margin (log-normal runs, three per side), thousands of fixed seeds;
//! each wrong verdict's rate is at most α. And the power the
//! intersection–union rule gains over Holm's correction on the holds side.

use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};

use super::super::{compare, holm, Test, ALPHA};
use super::{fold, Folded, Quantifier};
use crate::metric::Direction;

/// Simulated claims per rule.
const SEEDS: usize = 4000;
/// Runs per side of each comparison.
const RUNS: usize = 3;
/// Per-run log sd.
const NOISE: f64 = 0.02;
/// The practical margin δ.
const MARGIN: f64 = 0.05;

/// A standard normal deviate (Box–Muller on two uniform doubles).
pub(crate) fn normal(rng: &mut TestRng) -> f64 {
    let uniform = |rng: &mut TestRng| -> f64 { ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64 };
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// Runs of one side whose log mean is `mu`.
fn side(rng: &mut TestRng, mu: f64, sd: f64) -> Vec<f64> {
    (0..RUNS).map(|_| (mu + sd * normal(rng)).exp()).collect()
}

/// One simulated claim: comparisons whose true log differences and per-run
/// log sds are `ds`, judged with `test`; the p-values of the claimed
/// relation and of its opposite per comparison.
fn claim(rng: &mut TestRng, ds: &[(f64, f64)], test: Test) -> (Vec<f64>, Vec<f64>) {
    let mut ph = Vec::new();
    let mut pc = Vec::new();
    for &(d, sd) in ds {
        let a = side(rng, d, sd);
        let b = side(rng, 0.0, sd);
        let c = compare(&a, &b, Direction::Higher, MARGIN, None).expect("positive runs");
        ph.push(c.p_holds(test));
        pc.push(c.p_contradicts(test));
    }
    (ph, pc)
}

/// How often `wrong` is the verdict over [`SEEDS`] claims.
fn rate(ds: &[(f64, f64)], test: Test, quantifier: Quantifier, wrong: Folded) -> f64 {
    let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let hits = (0..SEEDS)
        .filter(|_| {
            let (ph, pc) = claim(&mut rng, ds, test);
            fold(&ph, &pc, quantifier).verdict == wrong
        })
        .count();
    let r = hits as f64 / SEEDS as f64;
    // `RECKON_NULL_RATES=1 cargo test --lib fold_tests` prints each rate.
    if std::env::var_os("RECKON_NULL_RATES").is_some() {
        say!("{test:?}, {quantifier:?}, {} comparisons: {wrong:?} in {r:.4} of {SEEDS} seeds (α = {ALPHA})", ds.len());
    }
    r
}

/// ln(1+δ): the edge of the margin.
fn edge() -> f64 {
    (1.0 + MARGIN).ln()
}

/// A comparison at the margin's edge (`sign` +1) or the opposite edge
/// (−1), with the study's noise.
fn at_edge(sign: f64) -> (f64, f64) {
    (sign * edge(), NOISE)
}

/// A comparison whose outcome is sure: true difference `d`, little noise.
fn sure(d: f64) -> (f64, f64) {
    (d, NOISE / 20.0)
}

#[test]
fn for_all_holds_is_an_intersection_union_test_of_size_alpha() {
    // Least favourable: one comparison exactly at the edge, the others
    // surely holding. The claim is false; it may hold only when that one
    // comparison's own test errs, at most α.
    let ahead = sure(2.0 * edge());
    let beats = rate(&[at_edge(1.0), ahead, ahead, ahead, ahead, ahead], Test::Beats, Quantifier::All, Folded::Holds);
    let level = sure(0.0);
    let matches =
        rate(&[at_edge(1.0), level, level, level, level, level], Test::Matches, Quantifier::All, Folded::Holds);
    assert!(beats <= ALPHA, "for all beats: false holds {beats}");
    assert!(matches <= ALPHA, "for all matches: false holds {matches}");
    // And not far below each test's own size (2.5% one-sided for `beats`,
    // 5% for TOST): the rule spends its level, no hidden correction.
    assert!(beats > ALPHA / 4.0 && matches > ALPHA / 2.0, "{beats} {matches}");
}

#[test]
fn for_all_contradicted_is_holm_corrected() {
    // Every comparison at the edge of the opposite: none is contradicted,
    // and the claim is called contradicted at most α of the time.
    let beats = rate(&[at_edge(-1.0); 6], Test::Beats, Quantifier::All, Folded::Contradicted);
    let matches = rate(&[at_edge(1.0); 6], Test::Matches, Quantifier::All, Folded::Contradicted);
    assert!(beats <= ALPHA, "for all beats: false contradicted {beats}");
    assert!(matches <= ALPHA, "for all matches: false contradicted {matches}");
}

#[test]
fn for_any_holds_is_holm_corrected() {
    let beats = rate(&[at_edge(1.0); 6], Test::Beats, Quantifier::Any, Folded::Holds);
    let matches = rate(&[at_edge(1.0); 6], Test::Matches, Quantifier::Any, Folded::Holds);
    assert!(beats <= ALPHA, "for any beats: false holds {beats}");
    assert!(matches <= ALPHA, "for any matches: false holds {matches}");
}

#[test]
fn for_any_contradicted_is_an_intersection_union_test_of_size_alpha() {
    // One comparison at the edge of the opposite, the others surely
    // contradicted: the claim holds at that one, and is called
    // contradicted only when its own test errs.
    let behind = sure(-2.0 * edge());
    let beats = rate(
        &[at_edge(-1.0), behind, behind, behind, behind, behind],
        Test::Beats,
        Quantifier::Any,
        Folded::Contradicted,
    );
    // `matches` is contradicted by either side beating the other.
    let apart = sure(2.0 * edge());
    let matches =
        rate(&[at_edge(1.0), apart, apart, apart, apart, apart], Test::Matches, Quantifier::Any, Folded::Contradicted);
    assert!(beats <= ALPHA, "for any beats: false contradicted {beats}");
    assert!(matches <= ALPHA, "for any matches: false contradicted {matches}");
    assert!(beats > ALPHA / 4.0 && matches > ALPHA / 4.0, "{beats} {matches}");
}

/// A 24-comparison equivalence (three runs per side, true differences
/// within ±1%, 5% margin, 0.9% per-run noise: most 90% intervals within
/// about ±3%): the intersection–union rule holds nearly nine times in ten;
/// Holm's correction on the holds side (the old rule: 24 TOSTs at α/24 on
/// Welch's few degrees of freedom) almost never does.
#[test]
fn the_intersection_union_rule_has_the_power_holm_everywhere_lacked() {
    let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let ds: Vec<(f64, f64)> = (0..24).map(|i| (0.01 * (f64::from(i) / 23.0 * 2.0 - 1.0), 0.009)).collect();
    let (mut iut, mut holm_everywhere) = (0usize, 0usize);
    let claims = 1000;
    for _ in 0..claims {
        let (ph, pc) = claim(&mut rng, &ds, Test::Matches);
        iut += usize::from(fold(&ph, &pc, Quantifier::All).verdict == Folded::Holds);
        holm_everywhere += usize::from(holm(&ph, ALPHA).iter().all(|&h| h));
    }
    let (iut, holm_everywhere) = (iut as f64 / f64::from(claims), holm_everywhere as f64 / f64::from(claims));
    if std::env::var_os("RECKON_NULL_RATES").is_some() {
        say!(
            "24-comparison equivalence, {claims} claims: holds {iut:.3} (intersection–union), \
             {holm_everywhere:.3} (Holm everywhere)"
        );
    }
    // Measured with these seeds: 0.893 and 0.07.
    assert!(iut >= 0.85, "intersection–union power {iut}");
    assert!(holm_everywhere <= 0.15, "Holm-everywhere power {holm_everywhere}");
}

#[test]
fn levels_are_alpha_or_holm_steps() {
    let f = fold(&[0.5, 0.2], &[0.03, 0.004], Quantifier::All);
    assert_eq!(f.holds, vec![false, false]);
    assert_eq!(f.holds_level, vec![ALPHA, ALPHA]);
    // Holm over p_contradicts: 0.004 ≤ 0.05/2 rejects, then 0.03 ≤ 0.05.
    assert_eq!(f.contradicted, vec![true, true]);
    assert_eq!(f.contradicted_level, vec![ALPHA, ALPHA / 2.0]);
    assert_eq!(f.verdict, Folded::Contradicted);
    let any = fold(&[0.03, 0.04], &[0.01, 0.02], Quantifier::Any);
    // Holm: 0.03 > 0.05/2, nothing holds; every comparison contradicted at α.
    assert_eq!(any.verdict, Folded::Contradicted);
    assert_eq!(fold(&[], &[], Quantifier::All).verdict, Folded::Inconclusive);
}
