//! Two false verdicts the cold trial 7 found on real files, each on those
//! files (tests/fixtures/trial7, SOURCES.md there) and on invented data
//! that isolates the rule.
//!
//! F3: `for all P` held while the opponent had no run at a point the
//! subject ran: a point of a range one side ran at and the other did not
//! is a point the clause could not judge. Points neither side ran at (other
//! benchmark families' sizes) are not the clause's and are not said.
//!
//! F2: a value claim on a single run ignored the standard error the run
//! logged beside its metric (`acc_stderr`, criterion's
//! `mean_change_standard_error`) and said "holds" on the point estimate.

use std::fmt::Write as _;

mod common;

use common::claims::{judged, verdict_of};
use common::Sandbox;

fn kokkos() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"family\"\n");
    s.fixture("trial7/kokkos/kokkos-Benchmark-2026-05-05.json", "logs/kokkos.json");
    s.ok(&["ingest", "logs/kokkos.json"]);
    s
}

fn lm() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"model\"\n\n[[source]]\npath = \"logs/*.json\"\n");
    for f in [
        "meta-llama_Meta-Llama-3-8B_openllm_truthfulqa.json",
        "meta-llama_Meta-Llama-3-8B_openllm_hellaswag.json",
        "meta-llama_Meta-Llama-3-8B-Instruct_openllm_hellaswag.json",
    ] {
        s.fixture(&format!("trial7/lm/{f}"), &format!("logs/{f}"));
    }
    s.ok(&["ingest"]);
    s
}

const RAW: &str = "'ViewFill_Raw<Kokkos::LayoutRight>'";

#[test]
fn f3_kokkos_for_all_n_cannot_hold_where_the_opponent_has_no_run() {
    let s = kokkos();
    let got = judged(
        &s,
        &[
            ("implicit", &format!("StreamSet beats {RAW} on real_time for all N")),
            ("named", &format!("StreamSet beats {RAW} on real_time for all N in (9, 10)")),
        ],
    );
    for id in ["implicit", "named"] {
        let j = verdict_of(&got, id);
        assert_eq!(j.verdict, "inconclusive", "{j:?}");
        assert!(j.summary.contains("no runs of ViewFill_Raw<Kokkos::LayoutRight> at N=9"), "{j:?}");
        // Sizes only other families ran are no point of this comparison.
        assert!(!j.summary.contains("no runs of StreamSet"), "{j:?}");
        assert!(!j.summary.contains("N=16"), "{j:?}");
    }
}

#[test]
fn f3_lm_eval_for_all_task_cannot_hold_where_the_opponent_has_no_run() {
    let s = lm();
    let got = judged(
        &s,
        &[(
            "base-beats-all",
            "'meta-llama/Meta-Llama-3-8B' beats 'meta-llama/Meta-Llama-3-8B-Instruct' on acc for all task",
        )],
    );
    let j = verdict_of(&got, "base-beats-all");
    assert_eq!(j.verdict, "inconclusive", "{j:?}");
    assert!(j.summary.contains("no runs of meta-llama/Meta-Llama-3-8B-Instruct at task=truthfulqa_mc1"), "{j:?}");
}

/// a and b ran at n = 1, 2, 3 except b at n = 3; c is another family, run
/// only at n = 10, 20.
fn gap() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"config\"\n");
    let mut csv = String::from("config,n,repeat,tput\n");
    for r in 0..3 {
        let jitter = f64::from(r);
        for n in [1, 2, 3] {
            writeln!(csv, "a,{n},{r},{}", 200.0 + jitter).expect("writing to a String");
        }
        for n in [1, 2] {
            writeln!(csv, "b,{n},{r},{}", 100.0 + jitter).expect("writing to a String");
        }
        for n in [10, 20] {
            writeln!(csv, "c,{n},{r},{}", 50.0 + jitter).expect("writing to a String");
        }
    }
    s.write("logs/run.csv", csv);
    s.ok(&["ingest", "logs/run.csv"]);
    s
}

#[test]
fn f3_a_point_one_side_ran_at_weighs_in_every_range_form() {
    let s = gap();
    let got = judged(
        &s,
        &[
            ("all", "a beats b on tput for all n"),
            ("all-range", "a beats b on tput for all n >= 2"),
            ("named", "a beats b on tput for all n in (1, 2)"),
            ("any", "b beats a on tput for any n"),
            ("others-first", "others lose to a on tput for all n <= 3"),
            ("ratio", "min(a / b on tput for all n) > 1.5"),
            ("level", "a on tput > 150 for all n"),
            ("others", "a beats others on tput for all n"),
        ],
    );
    let lacks = "no runs of b at n=3";
    for id in ["all", "all-range", "ratio"] {
        let j = verdict_of(&got, id);
        assert_eq!(j.verdict, "inconclusive", "{j:?}");
        assert!(j.summary.contains(lacks), "{j:?}");
        assert!(!j.summary.contains("n=10") && !j.summary.contains("no runs of a"), "{j:?}");
    }
    // Where both ran at every point it names, it holds.
    assert_eq!(verdict_of(&got, "named").verdict, "holds");
    // `for any`: b loses at every point it ran, but not at n = 3.
    let any = verdict_of(&got, "any");
    assert_eq!(any.verdict, "inconclusive", "{any:?}");
    assert!(any.summary.contains(lacks), "{any:?}");
    let first = verdict_of(&got, "others-first");
    assert_eq!(first.verdict, "inconclusive", "{first:?}");
    // c is another series, as `others` reads the data (and a table's
    // `highlight=best`): it ran at no point a did, so none holds.
    assert!(first.summary.contains(lacks) && first.summary.contains("no runs of c at n=1"), "{first:?}");
    // One series: a point it did not run at is no point of its curve.
    let level = verdict_of(&got, "level");
    assert_eq!(level.verdict, "holds", "{level:?}");
    assert!(!level.summary.contains("no runs"), "{level:?}");
    // `others` over every n: c ran where a did not, and not where a did;
    // the points only c ran at are said as a's.
    let others = verdict_of(&got, "others");
    assert_eq!(others.verdict, "inconclusive", "{others:?}");
    assert!(others.summary.contains("no runs of a at n=10"), "{others:?}");
}

#[test]
fn f2_lm_eval_value_claims_take_the_logged_stderr_as_the_spread() {
    let s = lm();
    let base = "'meta-llama/Meta-Llama-3-8B'";
    let got = judged(
        &s,
        &[
            ("in", &format!("{base} on acc at task = truthfulqa_mc1 in 0.265..0.27")),
            ("above", &format!("{base} on acc at task = truthfulqa_mc1 > 0.26")),
            ("bleu", &format!("{base} on bleu_diff at task = truthfulqa_gen > 0")),
            ("approx", &format!("{base} on acc at task = truthfulqa_mc2 ≈ 0.44 within 2%")),
            // Far beyond the noise: still holds.
            ("clear", &format!("{base} on acc at task = hellaswag > 60%")),
        ],
    );
    for id in ["in", "above", "bleu", "approx"] {
        let j = verdict_of(&got, id);
        assert_eq!(j.verdict, "inconclusive", "{j:?}");
        assert!(j.summary.contains("a single run's spread is the standard error it logged beside"), "{j:?}");
        assert!(!j.summary.contains("no interval"), "{j:?}");
    }
    // acc 0.268, acc_stderr 0.0155: the 90% normal interval.
    assert!(verdict_of(&got, "in").summary.contains("90% interval 0.243 to 0.294"), "{got:?}");
    assert_eq!(verdict_of(&got, "clear").verdict, "holds", "{got:?}");
}

#[test]
fn f2_criterion_mean_change_takes_its_standard_error() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"benchmark\"\n\n[[source]]\npath = \"target/criterion/*/*/estimates.json\"\n");
    for b in ["consecutive for", "consecutive iter"] {
        s.fixture(
            &format!("trial7/criterion/{b}/change/estimates.json"),
            &format!("target/criterion/{b}/change/estimates.json"),
        );
    }
    s.ok(&["ingest"]);
    let got = judged(
        &s,
        &[
            // -0.0467 ± 0.00463: criterion's own 95% interval is
            // [-0.0557, -0.0373], across the bound.
            ("improved", "'consecutive for' on mean_change < -0.04"),
            ("regressed", "'consecutive iter' on mean_change > 0"),
        ],
    );
    let j = verdict_of(&got, "improved");
    assert_eq!(j.verdict, "inconclusive", "{j:?}");
    assert!(j.summary.contains("(`mean_change_standard_error`)"), "{j:?}");
    assert_eq!(verdict_of(&got, "regressed").verdict, "holds", "{got:?}");
}

/// Invented: one run per series with a logged `score_stderr`, and the same
/// values without one.
#[test]
fn f2_a_logged_standard_error_widens_a_single_runs_value_and_nothing_else_does() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"config\"\n");
    s.write("logs/run.csv", "config,task,score,score_stderr,plain\na,t,0.50,0.02,0.50\nb,t,0.40,0.02,0.40\n");
    s.ok(&["ingest", "logs/run.csv"]);
    let got = judged(
        &s,
        &[
            ("level", "a on score at task = t > 0.48"),
            ("level-far", "a on score at task = t > 0.40"),
            ("ratio", "a / b on score at task = t > 1.15"),
            ("difference", "a - b on score at task = t > 0.05"),
            ("plain", "a on plain at task = t > 0.48"),
        ],
    );
    for id in ["level", "ratio", "difference"] {
        assert_eq!(verdict_of(&got, id).verdict, "inconclusive", "{got:?}");
    }
    assert_eq!(verdict_of(&got, "level-far").verdict, "holds", "{got:?}");
    // No logged error, no repeats: the README's single-run rule, unchanged.
    let plain = verdict_of(&got, "plain");
    assert_eq!(plain.verdict, "holds", "{plain:?}");
    assert!(plain.summary.contains("no interval"), "{plain:?}");
}
