//! `across the board` ranges over the param the sentence's metric is swept
//! over. A cold trial (vLLM throughput runs at two `max_num_seqs`, latency
//! runs at two batch sizes, each source with constant labels `input_len`
//! and `output_len`) wrote "FP8 beats BF16 on throughput across the board":
//! lint read `for all output_len` — a label constant over every throughput
//! run, chosen because it has two values over the whole project — and the
//! claim engine refused it for pooling `max_num_seqs`. Now the param is
//! chosen among those that vary over the metric's own runs.

mod common;

use common::{copy_dir, fixtures, Sandbox};
use serde_json::Value;

const NOTES: &str = "# Notes

FP8 beats BF16 on throughput across the board.

FP8 beats BF16 on TTFT across the board.
";

#[test]
fn finding_trial_across_the_board_ranges_over_the_swept_param_not_a_constant_label() {
    let sb = Sandbox::new();
    copy_dir(&fixtures().join("trial-llm"), sb.path());
    sb.write("notebooks/notes.md", NOTES);
    let ran = sb.run(&["lint", "--all", "--format", "json", "notebooks/notes.md"]);
    assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    let all = v["statements"].as_array().unwrap();
    let on = |line: u64| all.iter().find(|s| s["line"] == line).unwrap_or_else(|| panic!("line {line}: {all:#?}"));
    // Throughput is measured at two `max_num_seqs`; `output_len` is 256 on
    // every one of its runs.
    assert_eq!(on(3)["claim"], "fp8 beats bf16 on tokens_per_second for all max_num_seqs", "{:#}", on(3));
    assert_eq!(on(3)["status"], "contradicted", "{:#}", on(3));
    // TTFT comes from llmperf, swept over concurrency.
    assert_eq!(on(5)["claim"], "fp8 beats bf16 on ttft_s_mean for all num_concurrent_requests", "{:#}", on(5));
    for s in all {
        assert!(!s["claim"].as_str().unwrap_or("").contains("_len"), "a constant label as the sweep: {s:#}");
    }
}
