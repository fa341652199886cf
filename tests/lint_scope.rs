//! What governs a clause beyond its own words (issue 18, cold set's
//! misses): a sentence that sets a point for its whole section, `in both
//! precisions` (each value of the one param with two), the metric an earlier
//! clause of the sentence read, and `faster` with no metric before it (the
//! time taken, the project's one metric kept in time — not a throughput the
//! paragraph names later). A clause naming two values of one param (`going
//! from bf16 to fp8 …`) is no filter on either: unread, never judged.
//! Invented data: two GEMM kernels in two precisions at three sizes.

mod common;

use std::fmt::Write as _;

use common::Sandbox;
use serde_json::Value;

const TOML: &str = r#"series = "kernel"
documents = ["plan.md"]

[[source]]
path = "data/{date}/results.csv"

[aliases]
tflops = ["TFLOPS"]

[metrics.tflops]
direction = "higher"
margin = 0.02
"#;

/// Designed latencies (µs) by kernel, dtype and M; TFLOPS is work over
/// latency.
fn latency(kernel: &str, dtype: &str, m: u32) -> f64 {
    match (kernel, dtype, m) {
        ("fast", "bf16", _) => 10.0,
        ("slow", "bf16", _) => 20.0,
        ("fast", "fp8", _) => 8.0,
        // In fp8 at M=64 the slow kernel is the faster one.
        ("slow", "fp8", 64) => 6.0,
        (_, _, _) => 16.0,
    }
}

fn project(plan: &str) -> Sandbox {
    let sb = Sandbox::new();
    let mut csv = String::from("kernel,dtype,M,repeat,latency_us,tflops\n");
    for kernel in ["fast", "slow"] {
        for dtype in ["bf16", "fp8"] {
            for m in [16, 64, 256] {
                for (r, f) in [0.995, 1.0, 1.005].into_iter().enumerate() {
                    let l = latency(kernel, dtype, m) * f;
                    let _ = writeln!(csv, "{kernel},{dtype},{m},{},{l},{}", r + 1, f64::from(m) / l);
                }
            }
        }
    }
    sb.write("data/2026-05-01/results.csv", csv);
    sb.write("reckon.toml", TOML);
    sb.write("plan.md", plan);
    sb
}

fn statements(sb: &Sandbox) -> Vec<Value> {
    let ran = sb.run(&["lint", "--all", "--format", "json", "plan.md"]);
    assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    v["statements"].as_array().unwrap().clone()
}

/// Each claim read on `line`, with its status.
fn read_on(all: &[Value], line: u64) -> Vec<(String, String)> {
    all.iter()
        .filter(|s| s["line"] == line && s["claim"].is_string())
        .map(|s| (s["claim"].as_str().unwrap().to_string(), s["status"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn in_both_precisions_reads_each_value_of_the_one_param_with_two() {
    let sb = project("# Kernels\n\nFast is the fastest kernel in both precisions.\n");
    let all = statements(&sb);
    let read = read_on(&all, 3);
    assert_eq!(
        read,
        [
            ("fast beats others on latency_us for all M where dtype = bf16".to_string(), "holds".to_string()),
            ("fast beats others on latency_us for all M where dtype = fp8".to_string(), "contradicted".to_string()),
        ],
        "{all:#?}"
    );
}

#[test]
fn a_speed_word_with_no_metric_before_it_speaks_of_the_time_taken() {
    // TFLOPS is named in the paragraph, but only after the sentence.
    let sb = project("# Kernels\n\nIn bf16 fast is the fastest kernel. It delivers about 1.6 TFLOPS at M=16.\n");
    let all = statements(&sb);
    let read = read_on(&all, 3);
    assert_eq!(read[0].0, "fast beats others on latency_us for all M where dtype = bf16", "{all:#?}");
    let sure = all.iter().find(|s| s["claim"] == read[0].0.as_str()).unwrap();
    assert!(sure["confidence"].as_f64().unwrap() < 0.9, "borrowed: less sure than 0.9: {sure:#}");
}

#[test]
fn a_clause_speaks_of_the_metric_the_clause_before_read() {
    let sb = project("# Kernels\n\nAt M=16 in bf16 fast is the fastest kernel, about 2x ahead of slow.\n");
    let all = statements(&sb);
    let read: Vec<String> = read_on(&all, 3).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        read,
        [
            "fast beats others on latency_us at M = 16 where dtype = bf16",
            "slow / fast on latency_us at M = 16 ≈ 2 within 25% where dtype = bf16",
        ],
        "{all:#?}"
    );
}

#[test]
fn two_values_of_one_param_in_a_clause_leave_it_unread() {
    let sb =
        project("# Kernels\n\nSlow is the reference. Going from bf16 to fp8 makes fast about 1.25x faster at M=16.\n");
    let all = statements(&sb);
    let going: Vec<&Value> =
        all.iter().filter(|s| s["sentence"].as_str().is_some_and(|t| t.starts_with("Going"))).collect();
    assert_eq!(going.len(), 1, "{all:#?}");
    assert_eq!(going[0]["status"], "unjudged", "{:#}", going[0]);
    assert!(going[0]["summary"].as_str().unwrap().contains("`fp8`"), "{:#}", going[0]);
}

#[test]
fn a_sentence_about_this_section_sets_its_point_for_the_rest_of_the_section() {
    let plan =
        "# Kernels\n\n## Latency\n\nAll numbers in this section are for fp8. Slow stays under 10 µs at every M.\n\n\
                Fast stays under 9 µs at every M.\n\n## Other\n\nSlow stays under 10 µs at every M.\n";
    let sb = project(plan);
    let all = statements(&sb);
    let claims = |line: u64| read_on(&all, line).into_iter().map(|(c, _)| c).collect::<Vec<_>>();
    assert_eq!(claims(5), ["max(slow on latency_us for all M) < 10 µs where dtype = fp8"], "{all:#?}");
    assert_eq!(claims(7), ["max(fast on latency_us for all M) < 9 µs where dtype = fp8"], "{all:#?}");
    // Another section: the point does not reach it (the precisions pooled
    // are refused, never judged as one).
    assert!(claims(11).iter().all(|c| !c.contains("dtype = fp8")), "{all:#?}");
}

#[test]
fn a_race_word_with_no_metric_anywhere_is_of_the_time_taken_never_dropped() {
    // No metric in the sentence, its paragraph or its headings: `trails`
    // was dropped unsaid, even under --all.
    let sb = project("# Kernels\n\nIn bf16 slow trails fast by 80% to 120% at every M.\n");
    let all = statements(&sb);
    let read = read_on(&all, 3);
    assert_eq!(read.len(), 1, "{all:#?}");
    assert_eq!(read[0].0, "slow / fast on latency_us in 1.8..2.2 for all M where dtype = bf16", "{all:#?}");
    assert_eq!(read[0].1, "holds", "{all:#?}");
}
