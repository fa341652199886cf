//! Trial 8 (a researcher's cold try on Google Benchmark, nvbench, lm-eval
//! 0.4 and `MLPerf` files) found evidence that said more than the data do.
//! Each test is one finding, on the corpus file it was found on:
//!
//! - lm-eval's two gsm8k filters, two results at one line of the file,
//!   were called "2 repeats per record from the log's per-repeat lists";
//! - a single Kokkos run took a 95% interval from the Kalman benchmarks'
//!   100 repetitions, and the evidence did not say where it came from;
//! - a subject of 100 runs against single-run opponents "rests on single
//!   runs", as if it did too;
//! - a logged `MLPerf` summary, not committed and with no time of its own,
//!   was dated by its copy, and ingest said nothing;
//! - lint's `--all` left out a clause naming a metric with a time in it.

mod common;

use common::claims::{judged, verdict_of};
use common::Sandbox;

fn gbench() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"family\"\n");
    for f in ["kalman-100-repetitions-aggregates", "kokkos-mempool-user-counters-time-unit-s"] {
        s.fixture(&format!("corpus/gbench/{f}.json"), &format!("logs/{f}.json"));
    }
    s.ok(&[
        "ingest",
        "logs/kalman-100-repetitions-aggregates.json",
        "logs/kokkos-mempool-user-counters-time-unit-s.json",
    ]);
    s
}

#[test]
fn two_filters_of_one_lm_eval_result_are_not_repeats() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"task\"\n");
    s.fixture("corpus/lm-eval/llama3-8b-instruct-gsm8k.json", "logs/gsm8k.json");
    s.ok(&["ingest", "logs/gsm8k.json"]);
    let got = judged(&s, &[("both", "gsm8k on exact_match > 0.7 for all filter")]);
    let j = verdict_of(&got, "both");
    assert_eq!(j.verdict, "holds", "{j:?}");
    assert!(!j.summary.contains("repeats"), "{j:?}");
    // The spread is still the standard error lm-eval logged.
    assert!(j.summary.contains("the standard error it logged beside exact_match"), "{j:?}");
}

#[test]
fn a_single_runs_borrowed_spread_says_where_it_came_from() {
    let s = gbench();
    let got = judged(&s, &[("fill", "Mempool_Fill on real_time < 400 µs")]);
    let j = verdict_of(&got, "fill");
    assert_eq!(j.verdict, "holds", "{j:?}");
    assert!(j.summary.contains("rests on single runs"), "{j:?}");
    // The five Kalman families each ran 100 repetitions.
    assert!(
        j.summary.contains(
            "a single run's spread is the per-run spread of real_time pooled over the repeated runs of 5 cells \
             of `baseline`"
        ),
        "{j:?}"
    );
}

#[test]
fn a_subject_with_repeats_is_not_said_to_rest_on_single_runs() {
    let s = gbench();
    let got = judged(&s, &[("all", "baseline beats others on real_time")]);
    let j = verdict_of(&got, "all");
    assert!(
        j.summary.contains("rests on single runs on the opponents' side (the subject has at least 100 runs)"),
        "{j:?}"
    );
    // A subject of one run against repeated ones names the subject.
    let got = judged(&s, &[("fill", "Mempool_Fill beats baseline on real_time")]);
    let j = verdict_of(&got, "fill");
    assert!(j.summary.contains("rests on single runs of Mempool_Fill"), "{j:?}");
}

#[test]
fn ingest_says_which_logs_are_dated_by_their_modification_time() {
    let s = Sandbox::new();
    s.fixture("corpus/mlperf/sdxl-offline-mlperf_log_summary.txt", "logs/mlperf_log_summary.txt");
    let out = s.ok(&["ingest", "logs/mlperf_log_summary.txt"]);
    let said = format!("{}{}", out.stdout, out.stderr);
    assert!(
        said.contains(
            "note: 1 log gives no time of its own and is not committed to git (logs/mlperf_log_summary.txt): its runs \
             are dated by the file's modification time"
        ),
        "{said}"
    );
    // A log with its own time is not named.
    s.fixture("corpus/lm-eval/llama3-8b-instruct-gsm8k.json", "logs/gsm8k.json");
    let out = s.ok(&["ingest", "logs/gsm8k.json"]);
    assert!(!format!("{}{}", out.stdout, out.stderr).contains("modification time"), "{}", out.stdout);
    // Quiet, as in a check, nothing is said.
    s.fixture("corpus/mlperf/sdxl-offline-mlperf_log_summary.txt", "other/mlperf_log_summary.txt");
    let out = s.ok(&["ingest", "--quiet", "other/mlperf_log_summary.txt"]);
    assert!(!format!("{}{}", out.stdout, out.stderr).contains("modification time"), "{}", out.stdout);
}

#[test]
fn lint_lists_a_metrics_clause_with_a_time_in_it() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"scenario\"\n\n[aliases]\np50_latency_ns = [\"p50 latency\"]\n");
    s.fixture("corpus/mlperf/sdxl-offline-mlperf_log_summary.txt", "logs/mlperf_log_summary.txt");
    s.ok(&["ingest", "logs/mlperf_log_summary.txt"]);
    s.write("notes.md", "# Notes\n\nThe p50 latency is 36.4 s.\n");
    let out = s.run(&["lint", "--all", "notes.md"]);
    assert!(out.stdout.contains("notes.md:3:1: unjudged: unread"), "{}", out.stdout);
}
