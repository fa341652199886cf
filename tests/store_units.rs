//! A metric keeps one unit in the store, whatever unit a later log gives
//! it in: values of another unit of the same dimension are converted to
//! the stored one (and the ingest says so), a unit that cannot be
//! converted is refused at its line. Before, the store kept the first
//! log's unit and a later log's values under it: hyperfine's `mean` of
//! 11.6 s after criterion's `mean` in ns was stored as 11.6 ns, exit 0.

mod common;
use common::Sandbox;

const CRITERION: &str = "corpus/criterion/fib20-fast-new-estimates.json";
const HYPERFINE: &str = "corpus/hyperfine/1brc-two-commands.json";

fn json(fixture: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(common::fixtures().join(fixture)).unwrap()).unwrap()
}

/// hyperfine's `mean` of each command, in seconds as its JSON gives them.
fn hyperfine_means() -> Vec<f64> {
    json(HYPERFINE)["results"].as_array().unwrap().iter().map(|r| r["mean"].as_f64().unwrap()).collect()
}

/// criterion's point estimate of the mean, in ns as its JSON gives it.
fn criterion_mean() -> f64 {
    json(CRITERION)["mean"]["point_estimate"].as_f64().unwrap()
}

/// The stored unit of `mean` and the distinct values the source at `path`
/// holds of it, in the order of their lines (hyperfine's repeats share
/// their command's mean).
fn stored(s: &Sandbox, path: &str) -> (Option<String>, Vec<f64>) {
    let c = rusqlite::Connection::open(s.db()).unwrap();
    let unit = c.query_row("SELECT unit FROM metric WHERE name = 'mean'", [], |r| r.get(0)).unwrap();
    let mut q = c
        .prepare(
            "SELECT m.value FROM measurement m JOIN metric ON metric.id = m.metric_id JOIN run ON run.id = m.run_id \
             JOIN source ON source.id = run.source_id WHERE metric.name = 'mean' AND source.path = ?1 \
             ORDER BY run.line, run.id",
        )
        .unwrap();
    let mut values: Vec<f64> = q.query_map([path], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    values.dedup();
    (unit, values)
}

fn sandbox() -> Sandbox {
    let s = Sandbox::new();
    s.fixture(CRITERION, "logs/criterion.json").fixture(HYPERFINE, "logs/hyperfine.json");
    s
}

#[test]
fn a_metric_given_in_s_after_ns_is_stored_in_ns_converted_exactly() {
    let s = sandbox();
    s.ok(&["ingest", "logs/criterion.json"]);
    let r = s.ok(&["ingest", "logs/hyperfine.json"]);
    assert!(
        r.stderr.contains("converted: 2 values of `mean` given in s stored in ns, the unit earlier logs gave it in")
            && r.stderr.contains("converted: 2 values of `median` given in s stored in ns"),
        "{r:?}"
    );
    let (unit, values) = stored(&s, "logs/hyperfine.json");
    assert_eq!(unit.as_deref(), Some("ns"));
    // One multiplication each: 11.61481411152 s is 11614814111.52 ns.
    assert_eq!(values, hyperfine_means().iter().map(|v| v * 1e9).collect::<Vec<_>>());
    assert!((values[0] - 11_614_814_111.52).abs() < 1e-3, "{values:?}");
    assert_eq!(stored(&s, "logs/criterion.json").1, [criterion_mean()]);
}

#[test]
fn a_metric_given_in_ns_after_s_is_stored_in_s() {
    let s = sandbox();
    s.ok(&["ingest", "logs/hyperfine.json"]);
    let r = s.ok(&["ingest", "logs/criterion.json"]);
    assert!(r.stderr.contains("converted: 1 value of `mean` given in ns stored in s"), "{r:?}");
    let (unit, values) = stored(&s, "logs/criterion.json");
    assert_eq!(unit.as_deref(), Some("s"));
    assert_eq!(values, [criterion_mean() / 1e9]);
    assert_eq!(stored(&s, "logs/hyperfine.json").1, hyperfine_means());
}

#[test]
fn rebuild_and_reingest_give_the_values_an_incremental_ingest_gave() {
    let s = sandbox();
    s.ok(&["ingest", "logs/criterion.json"]);
    s.ok(&["ingest", "logs/hyperfine.json"]);
    let first = (stored(&s, "logs/criterion.json"), stored(&s, "logs/hyperfine.json"));
    let again = s.ok(&["ingest", "logs/criterion.json", "logs/hyperfine.json"]);
    assert!(again.stderr.contains("0 run(s); 2 already present"), "{again:?}");
    assert_eq!((stored(&s, "logs/criterion.json"), stored(&s, "logs/hyperfine.json")), first);
    // A database built afresh reads the files in the command's order.
    let rebuilt = s.ok(&["ingest", "--rebuild", "logs/criterion.json", "logs/hyperfine.json"]);
    assert!(rebuilt.stderr.contains("converted: 2 values of `mean`"), "{rebuilt:?}");
    assert_eq!((stored(&s, "logs/criterion.json"), stored(&s, "logs/hyperfine.json")), first);
}

#[test]
fn a_source_replaced_in_another_unit_is_converted_or_takes_its_unit() {
    // Another log keeps the metric in ns: the replacement's s is converted.
    let s = sandbox();
    s.ok(&["ingest", "logs/criterion.json", "logs/hyperfine.json"]);
    s.fixture(HYPERFINE, "logs/criterion.json");
    let r = s.ok(&["ingest", "logs/criterion.json"]);
    assert!(r.stderr.contains("converted: 2 values of `mean` given in s stored in ns"), "{r:?}");
    let (unit, values) = stored(&s, "logs/criterion.json");
    assert_eq!((unit.as_deref(), values), (Some("ns"), hyperfine_means().iter().map(|v| v * 1e9).collect()));
    // The only log giving the metric, replaced by one in another unit: the
    // metric takes the new unit, as a database built from that file alone.
    let s = sandbox();
    s.ok(&["ingest", "logs/criterion.json"]);
    s.fixture(HYPERFINE, "logs/criterion.json");
    let r = s.ok(&["ingest", "logs/criterion.json"]);
    assert!(!r.stderr.contains("converted"), "{r:?}");
    let (unit, values) = stored(&s, "logs/criterion.json");
    assert_eq!((unit.as_deref(), values), (Some("s"), hyperfine_means()));
}

#[test]
fn a_metric_without_a_unit_where_the_store_has_one_is_refused_at_its_line() {
    // pytest-benchmark's JSON gives `min` in seconds; its `compare --csv`
    // export gives the same column without a unit.
    let s = Sandbox::new();
    s.fixture("corpus/pytest-benchmark/v2.5.0-storage-0030-params-null-no-ops.json", "logs/saved.json")
        .fixture("corpus/pytest-benchmark/v2.5.0-storage-0030-compare.derived.csv", "logs/compare.csv");
    s.ok(&["ingest", "logs/saved.json"]);
    let before = s.counts();
    let r = s.run(&["ingest", "logs/compare.csv"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("logs/compare.csv:1: metric `min` is given without a unit here, but the store holds it in s")
            && r.stderr.contains("cannot tell whether its values are in s")
            && r.stderr.contains("rename the metric in one of the logs"),
        "{r:?}"
    );
    assert_eq!(s.counts(), before, "nothing of the refused log is stored");
}

#[test]
fn sglang_stdout_gives_duration_in_s_as_its_jsonl_does() {
    // `Benchmark duration (s)` was `duration` without a unit, so a project
    // of both kinds of log had the stdout ones refused.
    let s = Sandbox::new();
    s.fixture("corpus/sglang/benchmaq-output-details-ttfts-itls-texts.jsonl", "logs/a.jsonl")
        .fixture("corpus/sglang/benchmaq-stdout-with-namespace-tqdm.txt", "logs/b.txt");
    let r = s.ok(&["ingest", "logs/a.jsonl", "logs/b.txt"]);
    assert!(r.stderr.contains("0 failed") && !r.stderr.contains("converted"), "{r:?}");
    let c = rusqlite::Connection::open(s.db()).unwrap();
    let unit: Option<String> =
        c.query_row("SELECT unit FROM metric WHERE name = 'duration'", [], |r| r.get(0)).unwrap();
    assert_eq!(unit.as_deref(), Some("s"));
}
