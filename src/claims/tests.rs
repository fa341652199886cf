//! Verdict folding on the scenario's data: the conclusions of
//! `eagle-fast-verify.md` judged point by point with the statistics, as an
//! evaluator will do once it reads the cells from the store.

use super::stats::{compare, Comparison, PointOutcome, Test};
use super::*;
use crate::metric::Direction;

// Output throughput runs (tok/s) of the 2026-11-29 sweep, three per
// concurrency, copied from notebooks/logs/2026-11-29/*.jsonl
// (`output_throughput` by `max_concurrency`).
const BASELINE: [(f64, [f64; 3]); 11] = [
    (1.0, [92.3236, 92.7, 93.1614]),
    (2.0, [173.7167, 175.0, 176.2774]),
    (4.0, [316.5255, 318.2, 320.0269]),
    (8.0, [459.9127, 462.5, 465.5624]),
    (16.0, [594.9569, 598.3, 601.0139]),
    (30.0, [685.2673, 689.4, 692.6957]),
    (50.0, [726.0565, 731.6, 737.6153]),
    (100.0, [767.0366, 773.0, 778.1296]),
    (150.0, [761.6323, 765.2, 768.6732]),
    (200.0, [736.3778, 741.0, 745.9191]),
    (250.0, [715.2173, 718.1, 720.9751]),
];
const EAGLE_TOPK1_V2: [(f64, [f64; 3]); 11] = [
    (1.0, [86.3536, 86.8, 87.1442]),
    (2.0, [174.6301, 176.1, 177.2536]),
    (4.0, [327.732, 329.5, 331.7161]),
    (8.0, [486.7842, 489.0, 491.2893]),
    (16.0, [637.5818, 642.7, 646.4339]),
    (30.0, [753.5356, 759.3, 765.5786]),
    (50.0, [761.9276, 768.4, 773.866]),
    (100.0, [772.0547, 775.2, 778.4213]),
    (150.0, [765.032, 771.0, 777.555]),
    (200.0, [757.6208, 762.8, 768.8418]),
    (250.0, [750.3157, 754.4, 759.5019]),
];
const EAGLE_TOPK4_V1: [(f64, [f64; 3]); 11] = [
    (1.0, [95.7248, 96.4, 96.8732]),
    (2.0, [151.4863, 152.3, 152.9596]),
    (4.0, [222.6942, 224.0, 225.0554]),
    (8.0, [285.7511, 287.9, 289.4366]),
    (16.0, [319.3413, 321.9, 323.8906]),
    (30.0, [339.1682, 341.0, 343.1208]),
    (50.0, [348.3305, 349.8, 351.4127]),
    (100.0, [350.965, 353.2, 355.9686]),
    (150.0, [349.7868, 352.6, 354.7404]),
    (200.0, [348.7526, 351.9, 355.3318]),
    (250.0, [347.9345, 350.4, 352.9475]),
];

// The 2026-11-20 sweep, one run per concurrency, from the "Output token
// throughput (tok/s):" lines of notebooks/logs/2026-11-20/*.log.
const OLD_BASELINE: [(f64, f64); 11] = [
    (1.0, 93.1),
    (2.0, 174.2),
    (4.0, 316.0),
    (8.0, 458.9),
    (16.0, 592.4),
    (30.0, 641.8),
    (50.0, 690.3),
    (100.0, 735.6),
    (150.0, 773.0),
    (200.0, 769.4),
    (250.0, 757.2),
];
const OLD_TOPK4: [(f64, f64); 11] = [
    (1.0, 96.0),
    (2.0, 150.4),
    (4.0, 219.8),
    (8.0, 286.5),
    (16.0, 317.6),
    (30.0, 329.5),
    (50.0, 334.9),
    (100.0, 335.8),
    (150.0, 336.1),
    (200.0, 335.2),
    (250.0, 333.0),
];

const NEW: &str = "2026-11-29";
const OLD: &str = "2026-11-20";

fn cells(series: &[(f64, [f64; 3]); 11], keep: impl Fn(f64) -> bool) -> Vec<(f64, Vec<f64>)> {
    series.iter().filter(|(c, _)| keep(*c)).map(|(c, runs)| (*c, runs.to_vec())).collect()
}

fn old_cells(series: &[(f64, f64); 11], keep: impl Fn(f64) -> bool) -> Vec<(f64, Vec<f64>)> {
    series.iter().filter(|(c, _)| keep(*c)).map(|(c, v)| (*c, vec![*v])).collect()
}

/// Judges "A <test> B on `output_throughput`" at every common concurrency,
/// the way an evaluator would.
fn points(a: (&str, &[(f64, Vec<f64>)]), b: (&str, &[(f64, Vec<f64>)]), test: Test, date: &str) -> Vec<Point> {
    a.1.iter()
        .zip(b.1)
        .map(|((c, ra), (cb, rb))| {
            assert_eq!(c, cb);
            let cmp = compare(ra, rb, Direction::Higher, 0.02, None).unwrap();
            Point::from_comparison(
                format!("concurrency={c}"),
                a.0,
                b.0,
                &cmp,
                test,
                [Drawn::of_sweep(date), Drawn::of_sweep(date)],
            )
        })
        .collect()
}

#[test]
fn baseline_strictly_superior_is_contradicted_by_the_new_sweep() {
    // "baseline beats eagle-topk1-v2 on output_throughput for all
    // concurrency >= 30"
    let base = cells(&BASELINE, |c| c >= 30.0);
    let topk1 = cells(&EAGLE_TOPK1_V2, |c| c >= 30.0);
    let pts = points(("baseline", &base), ("eagle-topk1-v2", &topk1), Test::Beats, NEW);
    let Judgement { verdict: v, evidence: ev } = combine_all(&pts);
    assert_eq!(v, Verdict::Contradicted);
    // eagle-topk1-v2 beats baseline beyond noise at C = 30, 50, 250 (the
    // 95% intervals lie below −ln 1.02 there; at 200 the interval is too
    // wide with three runs, at 100 and 150 they match).
    assert_eq!((ev.contradicted, ev.held, ev.inconclusive, ev.points), (3, 0, 3, 6));
    let ex = ev.example.clone().unwrap();
    assert_eq!(ex.point, "concurrency=30");
    // The claim's subject first, as the breakdown lists it.
    assert_eq!((ex.first.name.as_str(), ex.first.value), ("baseline", 689.4));
    assert_eq!((ex.second.name.as_str(), ex.second.value), ("eagle-topk1-v2", 759.3));
    assert_eq!(
        ev.summary(v),
        "contradicted at 3 of 6 points; worst at concurrency=30: baseline 689.4 vs eagle-topk1-v2 759.3 \
         (-9.2%; 95% interval -10.7% to -7.8% (Holm-corrected over 6 comparisons: 99.17% interval -11.9% to \
         -6.5%), margin 2%), 3 runs each, sweep 2026-11-29"
    );
    assert!(!ev.single_runs);
    assert_eq!((ev.min_runs, ev.max_runs, ev.runs_a, ev.runs_b), (3, 3, 3, 3));
}

#[test]
fn baseline_beats_topk4_held_on_the_old_sweep_and_still_does() {
    // "baseline beats eagle-topk4-v1 on output_throughput for all
    // concurrency >= 30", as of 2026-11-20 (single runs) …
    let base = old_cells(&OLD_BASELINE, |c| c >= 30.0);
    let topk4 = old_cells(&OLD_TOPK4, |c| c >= 30.0);
    let pts = points(("baseline", &base), ("eagle-topk4-v1", &topk4), Test::Beats, OLD);
    let Judgement { verdict: v, evidence: ev } = combine_all(&pts);
    assert_eq!(v, Verdict::Holds);
    assert_eq!((ev.held, ev.points), (6, 6));
    assert!(ev.single_runs);
    // The closest call is the smallest gap: C=30, 641.8 vs 329.5.
    assert_eq!(
        ev.summary(v),
        "holds (6 of 6 points hold); closest at concurrency=30: baseline 641.8 vs eagle-topk4-v1 329.5 \
         (+94.8%; no interval: single runs and no repeats to measure the noise, margin 2%), 1 run each, \
         sweep 2026-11-20; rests on single runs"
    );
    // … and on 2026-11-29.
    let base = cells(&BASELINE, |c| c >= 30.0);
    let topk4 = cells(&EAGLE_TOPK4_V1, |c| c >= 30.0);
    let v = combine_all(&points(("baseline", &base), ("eagle-topk4-v1", &topk4), Test::Beats, NEW)).verdict;
    assert_eq!(v, Verdict::Holds);
}

#[test]
fn topk1_matches_or_beats_baseline_from_2_to_250() {
    // "eagle-topk1-v2 matches or beats baseline on output_throughput for
    // all concurrency in 2..250": every point is not worse beyond noise,
    // and Holm's correction over the ten points keeps them all.
    let topk1 = cells(&EAGLE_TOPK1_V2, |c| (2.0..=250.0).contains(&c));
    let base = cells(&BASELINE, |c| (2.0..=250.0).contains(&c));
    let pts = points(("eagle-topk1-v2", &topk1), ("baseline", &base), Test::MatchesOrBeats, NEW);
    let Judgement { verdict: v, evidence: ev } = combine_all(&pts);
    assert_eq!(v, Verdict::Holds);
    assert_eq!((ev.held, ev.points), (10, 10));
    // Including C=1 it is contradicted: 86.8 vs 92.7.
    let topk1 = cells(&EAGLE_TOPK1_V2, |_| true);
    let base = cells(&BASELINE, |_| true);
    let pts = points(("eagle-topk1-v2", &topk1), ("baseline", &base), Test::MatchesOrBeats, NEW);
    let Judgement { verdict: v, evidence: ev } = combine_all(&pts);
    assert_eq!(v, Verdict::Contradicted);
    let ex = ev.example.unwrap();
    assert_eq!(ex.point, "concurrency=1");
    assert_eq!((ex.first.name.as_str(), ex.first.value, ex.second.value), ("eagle-topk1-v2", 86.8, 92.7));
}

#[test]
fn point_outcomes_against_the_scenario_table() {
    // eagle-topk1-v2 vs baseline per point, 2026-11-29: beats at 4, 8, 16,
    // 30, 50, 250; matches (TOST) at 2 and 100; loses at 1; at 150 and 200
    // three runs leave the 95%/90% interval across the margin.
    use super::stats::Outcome::*;
    let expected = [
        (1.0, Worse),
        (2.0, Equivalent),
        (4.0, Better),
        (8.0, Better),
        (16.0, Better),
        (30.0, Better),
        (50.0, Better),
        (100.0, Equivalent),
        (150.0, Inconclusive),
        (200.0, Inconclusive),
        (250.0, Better),
    ];
    for ((c, a), ((_, b), (ec, eo))) in EAGLE_TOPK1_V2.iter().zip(BASELINE.iter().zip(expected)) {
        assert_eq!(*c, ec);
        let cmp = compare(a, b, Direction::Higher, 0.02, None).unwrap();
        assert_eq!(cmp.outcome, eo, "concurrency {c}");
    }
}

/// The crossover of the comparisons at each point, when the data decide it.
fn crossover(points: &[(f64, Comparison)]) -> Option<f64> {
    use judge::crossing::{crossing, Step};
    let steps: Vec<Step> = points.iter().map(|(x, c)| Step::of(*x, &[c])).collect();
    crossing(&steps).found
}

#[test]
fn crossover_is_4() {
    // "crossover(eagle-topk1-v2, baseline on output_throughput over
    // concurrency) = 4": loses at 1, matches at 2, beats at 4 and is never
    // worse after.
    let pts: Vec<(f64, Comparison)> = EAGLE_TOPK1_V2
        .iter()
        .zip(&BASELINE)
        .map(|((c, a), (_, b))| (*c, compare(a, b, Direction::Higher, 0.02, None).unwrap()))
        .collect();
    assert_eq!(crossover(&pts), Some(4.0));
    // Against eagle-topk4-v1 baseline is ahead from C=2 on.
    let pts: Vec<(f64, Comparison)> = BASELINE
        .iter()
        .zip(&EAGLE_TOPK4_V1)
        .map(|((c, a), (_, b))| (*c, compare(a, b, Direction::Higher, 0.02, None).unwrap()))
        .collect();
    assert_eq!(crossover(&pts), Some(2.0));
    assert_eq!(crossover(&[]), None);
}

#[test]
fn single_point_claims() {
    // "eagle-topk4-v1 beats baseline on output_throughput at concurrency = 1"
    // (the plan's "96 vs 93"): 96.4 vs 92.7 on 2026-11-29.
    let c = compare(&EAGLE_TOPK4_V1[0].1, &BASELINE[0].1, Direction::Higher, 0.02, None).unwrap();
    let p = Point::from_comparison(
        "concurrency=1",
        "eagle-topk4-v1",
        "baseline",
        &c,
        Test::Beats,
        [Drawn::of_sweep(NEW), Drawn::of_sweep(NEW)],
    );
    let Judgement { verdict: v, evidence: ev } = combine_all(&[p]);
    assert_eq!(v, Verdict::Holds);
    assert_eq!(
        ev.summary(v),
        "holds; closest at concurrency=1: eagle-topk4-v1 96.4 vs baseline 92.7 (+4%; 95% interval +2.6% to \
            +5.2%, margin 2%), 3 runs each, sweep 2026-11-29"
    );
}

#[test]
fn inconclusive_says_how_many_runs_would_decide() {
    // "eagle-topk1-v2 beats baseline at concurrency = 200": ahead by 2.9%,
    // but three runs leave the 95% interval below ln(1.02).
    let c = compare(&EAGLE_TOPK1_V2[9].1, &BASELINE[9].1, Direction::Higher, 0.02, None).unwrap();
    let p = Point::from_comparison(
        "concurrency=200",
        "eagle-topk1-v2",
        "baseline",
        &c,
        Test::Beats,
        [Drawn::of_sweep(NEW), Drawn::of_sweep(NEW)],
    );
    let Judgement { verdict: v, evidence: ev } = combine_all(&[p]);
    assert_eq!(v, Verdict::Inconclusive);
    let n = ev.runs_needed.unwrap();
    assert!(n >= 1);
    assert!(ev
        .summary(v)
        .ends_with(&format!("about {n} more run{} per side would decide", if n == 1 { "" } else { "s" })));
    assert!(ev.summary(v).starts_with(
        "inconclusive; weakest at concurrency=200: eagle-topk1-v2 762.8 vs baseline 741 (+2.9%; 95% interval "
    ));
}

#[test]
fn for_any_and_no_data() {
    // "eagle-topk1-v2 beats baseline for any concurrency": yes, e.g. C=30.
    let topk1 = cells(&EAGLE_TOPK1_V2, |_| true);
    let base = cells(&BASELINE, |_| true);
    let pts = points(("eagle-topk1-v2", &topk1), ("baseline", &base), Test::Beats, NEW);
    let Judgement { verdict: v, evidence: ev } = combine_any(&pts);
    assert_eq!(v, Verdict::Holds);
    assert_eq!(ev.example.unwrap().point, "concurrency=30");
    // "eagle-topk4-v1 beats baseline for any concurrency >= 30": it loses
    // everywhere, beyond noise.
    let topk4 = cells(&EAGLE_TOPK4_V1, |c| c >= 30.0);
    let base = cells(&BASELINE, |c| c >= 30.0);
    let v = combine_any(&points(("eagle-topk4-v1", &topk4), ("baseline", &base), Test::Beats, NEW)).verdict;
    assert_eq!(v, Verdict::Contradicted);
    assert_eq!(combine_all(&[]).verdict, Verdict::NoData);
    assert_eq!(combine_any(&[]).verdict, Verdict::NoData);
    assert_eq!(combine_all(&[]).summary(), "no data");
}

#[test]
fn and_folds_clauses() {
    use Verdict::*;
    assert_eq!(combine_and(&[Holds, Holds]), Holds);
    assert_eq!(combine_and(&[Holds, Contradicted, Inconclusive]), Contradicted);
    assert_eq!(combine_and(&[Holds, Inconclusive, NoData]), Inconclusive);
    assert_eq!(combine_and(&[Holds, NoData]), NoData);
    assert_eq!(combine_and(&[]), NoData);
}

#[test]
fn value_points_from_checks() {
    // "max(eagle-topk4-v1 on output_throughput for all concurrency >= 50)
    // ≈ 336 within 3%" on 2026-11-29: the max is 353.2 (C=100).
    let p = Point::from_check(
        "concurrency=100",
        Side { runs: 3, ..Side::stated("max(eagle-topk4-v1)", 353.2) },
        Side::stated("stated", 336.0),
        PointOutcome::Contradicted,
        false,
        vec![NEW.into()],
        None,
    );
    let Judgement { verdict: v, evidence: ev } = combine_all(&[p]);
    assert_eq!(v, Verdict::Contradicted);
    assert_eq!(
        ev.summary(v),
        "contradicted at concurrency=100: max(eagle-topk4-v1) 353.2 vs stated 336 (+5.1%), 3 runs, sweep 2026-11-29"
    );
}

#[test]
fn verdicts_serialize_for_json_output() {
    let c = compare(&EAGLE_TOPK1_V2[5].1, &BASELINE[5].1, Direction::Higher, 0.02, None).unwrap();
    let p = Point::from_comparison(
        "concurrency=30",
        "eagle-topk1-v2",
        "baseline",
        &c,
        Test::Beats,
        [Drawn::of_sweep(NEW), Drawn::of_sweep(NEW)],
    );
    let Judgement { verdict: v, evidence: ev } = combine_all(&[p]);
    assert_eq!(serde_json::to_string(&v).unwrap(), "\"holds\"");
    assert_eq!(serde_json::to_string(&Verdict::NoData).unwrap(), "\"no_data\"");
    let json = serde_json::to_value(&ev).unwrap();
    assert_eq!(json["held"], 1);
    assert_eq!(json["example"]["first"]["name"], "eagle-topk1-v2");
    assert_eq!(json["example"]["outcome"], "holds");
    assert_eq!(json["dates"][0], "2026-11-29");
}

/// Issue 9: when the estimated difference lies inside the margin, no number
/// of runs makes `beats` hold: the evidence says so instead of promising
/// that more runs would decide.
#[test]
fn beats_inside_the_margin_says_why_more_runs_cannot_decide() {
    // C=150: eagle-topk1-v2 771.0 vs baseline 765.2 (+0.8%) against a 2%
    // margin.
    let c = compare(&EAGLE_TOPK1_V2[8].1, &BASELINE[8].1, Direction::Higher, 0.02, None).unwrap();
    assert!(c.beyond_reach(Test::Beats));
    assert_eq!(c.runs_needed_for(Test::Beats), None);
    // `matches` can still be decided by more runs (its 90% interval pokes
    // just past ln 1.02).
    assert!(c.runs_needed_for(Test::Matches).is_some());
    let p = Point::from_comparison(
        "concurrency=150",
        "eagle-topk1-v2",
        "baseline",
        &c,
        Test::Beats,
        [Drawn::of_sweep(NEW), Drawn::of_sweep(NEW)],
    );
    let Judgement { verdict: v, evidence: ev } = combine_all(&[p]);
    assert_eq!(v, Verdict::Inconclusive);
    let s = ev.summary(v);
    assert!(
        s.ends_with(
            "the difference (+0.8%) is smaller than the 2% margin, so no number of runs makes \
        `beats` hold; a `matches` statement would hold"
        ),
        "{s}"
    );
    assert!(!s.contains("more run"), "{s}");
}

/// A kernel claim over three matrix sizes (TFLOPS, three repeats): the
/// weakest point (M=1024, noisy) is shown, and the reason more runs cannot
/// help is of another point (M=2048, inside the margin). The reason names
/// that point and its own numbers, and advises `matches` only for a
/// one-point claim (at M=4096 a `matches` would be contradicted). Cold trial:
/// "weakest at M=1024: … (+8.1%) …; the difference (-2.1%) is smaller than
/// the 2% margin …; a `matches` statement would hold".
#[test]
fn the_reason_more_runs_cannot_decide_is_of_the_point_it_names() {
    let cells = [
        ("M=1024", [35.4, 33.0, 39.0], [38.2, 37.9, 38.5]),
        ("M=2048", [99.5, 99.9, 99.2], [100.0, 100.4, 99.8]),
        ("M=4096", [220.0, 221.0, 219.5], [200.0, 201.0, 199.0]),
    ];
    let points: Vec<Point> = cells
        .iter()
        .map(|(label, cutlass, cublas)| {
            let c = compare(cutlass, cublas, Direction::Higher, 0.02, None).unwrap();
            Point::from_comparison(
                *label,
                "cutlass",
                "cublas",
                &c,
                Test::Beats,
                [Drawn::of_sweep(NEW), Drawn::of_sweep(NEW)],
            )
        })
        .collect();
    let Judgement { verdict: v, evidence: ev } = combine_all(&points);
    assert_eq!(v, Verdict::Inconclusive);
    let s = ev.summary(v);
    assert!(s.contains("weakest at M=1024: cutlass 35.4 vs cublas 38.2 (-7.3%;"), "{s}");
    assert!(
        s.ends_with(
            "; at M=2048 (cutlass vs cublas) the difference (-0.5%) is smaller than the 2% margin, so no number of \
             runs makes `beats` hold there"
        ),
        "{s}"
    );
    // The breakdown shows M=2048 with the same number.
    assert_eq!(percent(ev.breakdown[1].rel_diff), "-0.5%");

    // One skewed cell: the medians differ by more than the margin, the
    // geometric means (what the rule looks at) by less; the reason quotes
    // the latter and says so, rather than "+2.6% is smaller than 2%" (both
    // of cutlass over cublas: the claim's subject first).
    let c = compare(&[102.6, 102.6, 93.0], &[100.0, 100.0, 100.0], Direction::Higher, 0.02, Some(0.01)).unwrap();
    assert!(c.beyond_reach(Test::Beats), "{c:?}");
    let p = Point::from_comparison(
        "M=8192",
        "cutlass",
        "cublas",
        &c,
        Test::Beats,
        [Drawn::of_sweep(NEW), Drawn::of_sweep(NEW)],
    );
    let Judgement { verdict: v, evidence: ev } = combine_all(&[p]);
    let s = ev.summary(v);
    assert!(s.contains("cutlass 102.6 vs cublas 100 (+2.6%;"), "{s}");
    assert!(s.contains("the difference of the runs' geometric means (-0.7%) is smaller than the 2% margin"), "{s}");
}

/// Issue 9: counts name points and opponents separately.
#[test]
fn counts_name_points_and_opponents() {
    let topk1 = cells(&EAGLE_TOPK1_V2, |c| c == 100.0);
    let topk4 = cells(&EAGLE_TOPK4_V1, |c| c == 100.0);
    let base = cells(&BASELINE, |c| c == 100.0);
    // One point, two opponents: "against 1 of 2 opponents".
    let mut pts = Vec::new();
    for (name, other) in [("eagle-topk4-v1", &topk4), ("eagle-topk1-v2", &topk1)] {
        let c = compare(&base[0].1, &other[0].1, Direction::Higher, 0.02, None).unwrap();
        pts.push(Point::from_comparison(
            "concurrency=100",
            "baseline",
            name,
            &c,
            Test::Beats,
            [Drawn::of_sweep(NEW), Drawn::of_sweep(NEW)],
        ));
    }
    let Judgement { verdict: v, evidence: ev } = combine_all(&pts);
    assert_eq!((ev.distinct_points, ev.opponents), (1, 2));
    assert!(ev.summary(v).starts_with(&format!("{v} (holds against 1 of 2 opponents)")), "{}", ev.summary(v));
    assert_eq!(ev.breakdown.len(), 2);
    assert_eq!(ev.breakdown[0].first.name, "baseline");
}

/// Comparisons that each hold on their own: a `for all` holds (an
/// intersection–union test needs no correction); a `for any`, which rests
/// on any one of them, is Holm-corrected, and when the correction leaves
/// them undecided it says so.
#[test]
fn holm_undecided_points_are_explained() {
    let point = |label: &str, p: f64| {
        let mut pt = Point::from_check(
            label,
            Side { runs: 3, ..Side::stated("lion", 103.6) },
            Side { runs: 3, ..Side::stated("adamw", 100.0) },
            PointOutcome::Holds,
            false,
            vec![NEW.into()],
            None,
        );
        // Each alone below α = 0.05, none below α/3 (Holm's first step).
        pt.p_holds = p;
        pt.p_contradicts = 1.0;
        pt
    };
    let pts = [point("batch=8", 0.03), point("batch=16", 0.031), point("batch=32", 0.032)];
    let all = combine_all(&pts);
    assert_eq!(all.verdict, Verdict::Holds);
    assert_eq!((all.evidence.held, all.evidence.undecided_by_holm), (3, 0));
    let Judgement { verdict: v, evidence: ev } = combine_any(&pts);
    assert_eq!(v, Verdict::Inconclusive);
    assert_eq!(ev.undecided_by_holm, 3);
    assert!(
        ev.summary(v).ends_with(
            "3 comparisons decided on their own are undecided after Holm's correction \
        over 3 comparisons (the claims command lists each with its corrected interval)"
        ),
        "{}",
        ev.summary(v)
    );
}
