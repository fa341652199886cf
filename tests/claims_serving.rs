//! Claims with units on the LLM serving harnesses' files: the unit a reader
//! states is what a claim's number is converted from (llmperf's `_s`, vLLM's seconds, guidellm's ms and s), and
//! repeats a file holds are the runs a claim rests on.

mod common;

use common::claims::{claim, summaries};
use common::Sandbox;

fn verdict(got: &[(String, String)], id: &str) -> String {
    got.iter().find(|(i, _)| i == id).map_or_else(|| panic!("no claim {id}: {got:?}"), |(_, v)| v.clone())
}

#[test]
fn serving_harness_units_take_claims_in_other_units() {
    let s = Sandbox::new();
    s.fixture("corpus/llmperf/leaderboard-anyscale-7b-summary.json", "logs/anyscale.json");
    s.fixture("corpus/llmperf/yi34b-vllm-c16-summary.json", "logs/yi34b.json");
    s.fixture("corpus/vllm-bench/latency-llama8b-tp1.json", "logs/latency.json");
    s.ok(&["ingest", "--label", "config=anyscale", "logs/anyscale.json"]);
    s.ok(&["ingest", "--label", "config=yi34b", "logs/yi34b.json"]);
    s.ok(&["ingest", "--label", "config=tp1", "logs/latency.json"]);
    s.fixture("corpus/guidellm/qwen3-30b-tp4-fp8-synchronous-benchmarks.derived.yaml", "logs/guidellm.yaml");
    s.ok(&["ingest", "--label", "config=qwen3", "logs/guidellm.yaml"]);
    let doc = [
        claim("anyscale", "anyscale on ttft_s_mean < 300 ms"),
        claim("yi34b", "yi34b on ttft_s_mean < 300 ms"),
        claim("yi34b-p99", "yi34b on ttft_s_p99 < 8000 ms"),
        claim("faster", "anyscale beats yi34b on ttft_s_mean"),
        claim("tp1", "tp1 on latency < 7600 ms"),
        claim("tp1-wrong", "tp1 on latency < 7 s"),
        claim("qwen3-ttft", "qwen3 on time_to_first_token_ms_p99 < 0.1 s"),
        claim("qwen3-latency", "qwen3 on request_latency_median > 40000 ms at strategy = synchronous"),
    ]
    .concat();
    s.write("notes.md", doc);
    let got = summaries(&s, "notes.md");
    assert!(verdict(&got, "anyscale").starts_with("holds"), "{got:?}");
    assert!(verdict(&got, "yi34b").starts_with("contradicted"), "{got:?}");
    assert!(verdict(&got, "yi34b-p99").starts_with("holds"), "{got:?}");
    assert!(verdict(&got, "faster").starts_with("holds"), "lower is better for a latency: {got:?}");
    assert!(verdict(&got, "tp1").starts_with("holds"), "{got:?}");
    assert!(verdict(&got, "tp1").contains("15 runs"), "every iteration a run: {got:?}");
    assert!(verdict(&got, "tp1-wrong").starts_with("contradicted"), "{got:?}");
    assert!(verdict(&got, "qwen3-ttft").starts_with("holds"), "72.8 ms < 100 ms: {got:?}");
    assert!(verdict(&got, "qwen3-latency").starts_with("holds"), "40.018 s: {got:?}");
}
