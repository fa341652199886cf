//! The cold trial's findings (trial 5): a `RocksDB` `db_bench` sweep of
//! compaction styles by thread count, leveled and universal as CSV and
//! FIFO as JSON lines, copied (trimmed) into `tests/fixtures/trial5/kv`.

mod common;

use common::Sandbox;
use serde_json::Value;

/// The kv project, ingested.
fn kv() -> Sandbox {
    let sb = Sandbox::new();
    sb.fixture("trial5/kv", "");
    sb.ok(&["ingest"]);
    sb
}

/// The diff's cell of `metric` at `compaction`, `threads`.
fn diff_cell(json: &Value, metric: &str, compaction: &str, threads: &str) -> Value {
    json["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            let cell = c["cell"].as_array().unwrap();
            c["metric"] == metric
                && cell.iter().any(|kv| kv[0] == "compaction" && kv[1] == compaction)
                && cell.iter().any(|kv| kv[0] == "threads" && kv[1] == threads)
        })
        .unwrap_or_else(|| panic!("no cell {metric} {compaction} {threads}: {json}"))
        .clone()
}

#[test]
fn finding_trial5_2_a_median_latency_gets_the_latency_margin_not_the_tails() {
    let sb = kv();
    let json = sb.ok(&["diff", "--format", "json"]).json();
    let p50 = diff_cell(&json, "p50_us", "fifo", "1");
    assert_eq!(p50["margin"], 0.05, "{p50}");
    // Its interval reaches below −5%: not the same within the margin, only
    // within noise.
    assert_eq!(p50["movement"], "within_noise", "{p50}");
    let p99 = diff_cell(&json, "p99_us", "fifo", "1");
    assert_eq!(p99["margin"], 0.1, "{p99}");
    let text = sb.ok(&["diff"]).stdout;
    let row = text.lines().find(|l| l.starts_with("p50_us") && l.contains("compaction=fifo threads=1 ")).unwrap();
    assert!(row.ends_with("within noise"), "{text}");
}
