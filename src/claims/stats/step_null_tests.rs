//! The trend and step rules under their least favourable nulls, as the
//! shape judge applies them (`judge/shape.rs`): a curve of five points,
//! each three log-normal runs, each adjacent pair compared with the noise
//! rule — the pairs share their runs, each point compared with both
//! neighbours — and the pairs folded as `for all`. Thousands of fixed seeds;
//! each wrong verdict's rate is at most α. The holds side is an
//! intersection–union test, least favourable with one pair at its edge
//! and the others surely holding; the contradicted side is Holm's, least
//! favourable with every pair at the edge of the opposite.

use proptest::test_runner::{RngAlgorithm, TestRng};

use super::super::fold::tests::normal;
use super::super::{compare, fold, Folded, Quantifier, Test, ALPHA};
use super::step_bound;
use crate::metric::Direction;

/// Simulated curves per rule.
const SEEDS: usize = 3000;
/// Points of each curve.
const POINTS: usize = 5;
/// Runs per point.
const RUNS: usize = 3;
/// Per-run log sd.
const NOISE: f64 = 0.02;
/// A step the noise cannot hide (about 12 standard errors).
const SURE: f64 = 0.2;

/// How a pair is judged: a trend's test and margin, or a step bound
/// (`below`, `strict`, the bound as a fraction).
#[derive(Clone, Copy)]
enum Rule {
    Trend(Test, f64),
    Step { bound: f64, below: bool, strict: bool },
}

/// How often `wrong` is the folded verdict over curves whose log means
/// go up by `steps` from point to point.
fn rate(steps: &[f64], rule: Rule, wrong: Folded) -> f64 {
    assert_eq!(steps.len(), POINTS - 1);
    let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let hits = (0..SEEDS)
        .filter(|_| {
            let mut mean = 0.0;
            let points: Vec<Vec<f64>> = (0..POINTS)
                .map(|i| {
                    mean += if i == 0 { 0.0 } else { steps[i - 1] };
                    (0..RUNS).map(|_| (mean + NOISE * normal(&mut rng)).exp()).collect()
                })
                .collect();
            let (mut ph, mut pc) = (Vec::new(), Vec::new());
            for pair in points.windows(2) {
                let margin = if let Rule::Trend(_, m) = rule { m } else { 0.0 };
                let c = compare(&pair[1], &pair[0], Direction::Higher, margin, None).expect("positive runs");
                let (h, x) = match rule {
                    Rule::Trend(test, _) => (c.p_holds(test), c.p_contradicts(test)),
                    Rule::Step { bound, below, strict } => {
                        let t = step_bound(&c, bound, below, strict);
                        (t.p_holds, t.p_contradicts)
                    }
                };
                ph.push(h);
                pc.push(x);
            }
            fold(&ph, &pc, Quantifier::All).verdict == wrong
        })
        .count();
    let r = hits as f64 / SEEDS as f64;
    // `RECKON_NULL_RATES=1 cargo test --lib step_null_tests` prints each rate.
    let rule_text = match rule {
        Rule::Trend(test, m) => format!("trend ({test:?}, margin {m})"),
        Rule::Step { bound, below, strict } => format!("step bound {bound} (below {below}, strict {strict})"),
    };
    if std::env::var_os("RECKON_NULL_RATES").is_some() {
        say!("{rule_text}, steps {steps:?}: {wrong:?} in {r:.4} of {SEEDS} seeds (α = {ALPHA})");
    }
    r
}

/// Steps: the first `first`, the rest `rest`.
fn steps(first: f64, rest: f64) -> [f64; POINTS - 1] {
    let mut s = [rest; POINTS - 1];
    s[0] = first;
    s
}

#[test]
fn a_strict_trend_holds_falsely_at_most_alpha_and_spends_it() {
    // `increases with`: one pair flat (the edge of `beats` with no
    // margin), the others surely rising.
    let rule = Rule::Trend(Test::Beats, 0.0);
    let r = rate(&steps(0.0, SURE), rule, Folded::Holds);
    assert!(r <= ALPHA, "false holds {r}");
    // One-sided 2.5% for that pair: no hidden correction.
    assert!(r > ALPHA / 4.0, "{r}");
    // And a clear rise everywhere holds.
    assert!(rate(&steps(SURE, SURE), rule, Folded::Holds) > 0.99);
}

#[test]
fn a_strict_trend_is_contradicted_falsely_at_most_alpha() {
    // Flat everywhere: no pair falls, each at the edge of falling.
    let r = rate(&steps(0.0, 0.0), Rule::Trend(Test::Beats, 0.0), Folded::Contradicted);
    assert!(r <= ALPHA, "false contradicted {r}");
}

#[test]
fn a_trend_not_strictly_holds_and_is_contradicted_falsely_at_most_alpha() {
    // `never decreases` (not behind beyond the 2% margin): one pair at
    // −2%, the others surely rising; then every pair at −2%.
    let margin = 0.02;
    let edge = -(1.0f64 + margin).ln();
    let rule = Rule::Trend(Test::MatchesOrBeats, margin);
    let holds = rate(&steps(edge, SURE), rule, Folded::Holds);
    assert!(holds <= ALPHA && holds > ALPHA / 2.0, "false holds {holds}");
    let contradicted = rate(&steps(edge, edge), rule, Folded::Contradicted);
    assert!(contradicted <= ALPHA, "false contradicted {contradicted}");
}

#[test]
fn steps_at_their_bound_are_said_under_or_over_it_at_most_alpha() {
    // `… by less than 10% per step`: one step at +10%, the others falling
    // (surely under); then every step at +10%.
    let edge = 0.10f64.ln_1p();
    for (below, strict) in [(true, true), (true, false)] {
        let rule = Rule::Step { bound: 0.10, below, strict };
        let holds = rate(&steps(edge, -SURE), rule, Folded::Holds);
        let floor = if strict { ALPHA / 4.0 } else { ALPHA / 2.0 };
        assert!(holds <= ALPHA && holds > floor, "less than / at most ({strict}): false holds {holds}");
        let contradicted = rate(&steps(edge, edge), rule, Folded::Contradicted);
        assert!(contradicted <= ALPHA, "false contradicted {contradicted}");
    }
    // `… by more than 10%` (at least): one step at +10%, the others
    // surely over; then every step at +10%.
    for strict in [true, false] {
        let rule = Rule::Step { bound: 0.10, below: false, strict };
        let holds = rate(&steps(edge, 2.0 * SURE), rule, Folded::Holds);
        assert!(holds <= ALPHA, "more than / at least ({strict}): false holds {holds}");
        let contradicted = rate(&steps(edge, edge), rule, Folded::Contradicted);
        assert!(contradicted <= ALPHA, "false contradicted {contradicted}");
    }
    // And flat steps, clearly under the bound, mostly hold (0.85 with
    // these seeds: four 95% intervals on two degrees of freedom or so).
    assert!(rate(&[0.0; POINTS - 1], Rule::Step { bound: 0.10, below: true, strict: true }, Folded::Holds) > 0.8);
}
