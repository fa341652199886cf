//! Claims with units on the LLM serving harnesses' files: the unit a reader
//! states (llmperf's `_s`, vLLM's seconds) is what a claim's number is
//! converted from, and repeats a file holds are the runs a claim rests on.

mod common;

use common::Sandbox;

/// Each claim's one-line summary, by id.
fn summaries(s: &Sandbox, doc: &str) -> Vec<(String, String)> {
    let v = s.ok(&["claims", doc, "--format", "json"]).json();
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| &c["claim"])
        .map(|c| (c["id"].as_str().unwrap().to_string(), c["summary"].as_str().unwrap().to_string()))
        .collect()
}

fn claim(id: &str, text: &str) -> String {
    format!("<!-- reckon:claim id={id}\n     {text} -->\nx\n<!-- /reckon:claim -->\n\n")
}

fn verdict(got: &[(String, String)], id: &str) -> String {
    got.iter().find(|(i, _)| i == id).map_or_else(|| panic!("no claim {id}: {got:?}"), |(_, v)| v.clone())
}

#[test]
fn llmperf_seconds_and_vllm_iterations_take_claims_in_ms() {
    let s = Sandbox::new();
    s.fixture("corpus/llmperf/leaderboard-anyscale-7b-summary.json", "logs/anyscale.json");
    s.fixture("corpus/llmperf/yi34b-vllm-c16-summary.json", "logs/yi34b.json");
    s.fixture("corpus/vllm-bench/latency-llama8b-tp1.json", "logs/latency.json");
    s.ok(&["ingest", "--label", "config=anyscale", "logs/anyscale.json"]);
    s.ok(&["ingest", "--label", "config=yi34b", "logs/yi34b.json"]);
    s.ok(&["ingest", "--label", "config=tp1", "logs/latency.json"]);
    let doc = [
        claim("anyscale", "anyscale on ttft_s_mean < 300 ms"),
        claim("yi34b", "yi34b on ttft_s_mean < 300 ms"),
        claim("yi34b-p99", "yi34b on ttft_s_p99 < 8000 ms"),
        claim("faster", "anyscale beats yi34b on ttft_s_mean"),
        claim("tp1", "tp1 on latency < 7600 ms"),
        claim("tp1-wrong", "tp1 on latency < 7 s"),
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
}
