//! A metric is shown in one unit, whatever unit each log gives it in and
//! whatever the order they came in: each log's values are kept as it gave
//! them and read in the finest unit the logs give the metric in, each
//! converted once (and the ingest says so); a unit that cannot be
//! converted is refused at its line. Before units were kept at all, the
//! store kept the first log's unit and a later log's values under it:
//! hyperfine's `mean` of 11.6 s after criterion's `mean` in ns was stored
//! as 11.6 ns, exit 0; then the later log's values were converted into the
//! first log's unit, so the unit — and a claim stated without one —
//! depended on which log was read first (G18, `tests/ingest_order.rs`).

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

/// The unit of `mean` and the distinct values the source at `path` holds
/// of it in that unit, as `reckon:sql` regions read them (the `run_metric`
/// view), in the order of their lines (hyperfine's repeats share their
/// command's mean).
fn stored(s: &Sandbox, path: &str) -> (Option<String>, Vec<f64>) {
    let c = rusqlite::Connection::open(s.db()).unwrap();
    let unit = c.query_row("SELECT unit FROM metric WHERE name = 'mean'", [], |r| r.get(0)).unwrap();
    let mut q = c
        .prepare(
            "SELECT m.value FROM run_metric m JOIN run ON run.id = m.run_id \
             JOIN source ON source.id = run.source_id WHERE m.metric = 'mean' AND source.path = ?1 \
             ORDER BY run.line, run.id",
        )
        .unwrap();
    let mut values: Vec<f64> = q.query_map([path], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    values.dedup();
    (unit, values)
}

/// `reckon export`'s values of `mean`: source, value and unit of each.
fn exported(s: &Sandbox) -> Vec<String> {
    let out = s.ok(&["export", "--metric", "mean"]).stdout;
    let row = |l: &str| {
        let f: Vec<&str> = l.split(',').collect();
        format!("{} {} {}", f[1], f[f.len() - 3], f[f.len() - 2])
    };
    out.lines().skip(1).map(row).collect()
}

fn sandbox() -> Sandbox {
    let s = Sandbox::new();
    s.fixture(CRITERION, "logs/criterion.json").fixture(HYPERFINE, "logs/hyperfine.json");
    // criterion's benchmark.json beside it names its benchmark (without
    // it, or a `criterion/` folder, the file is refused).
    s.fixture("corpus/criterion/fib20-fast-new-benchmark-null-function-id.json", "logs/benchmark.json");
    s
}

#[test]
fn a_metric_given_in_ns_and_s_is_shown_in_ns_in_either_order() {
    let in_ns: Vec<f64> = hyperfine_means().iter().map(|v| v * 1e9).collect();
    // criterion's ns first: hyperfine's s are read in ns.
    let s = sandbox();
    s.ok(&["ingest", "logs/criterion.json"]);
    let r = s.ok(&["ingest", "logs/hyperfine.json"]);
    assert!(
        r.stderr.contains("converted: 2 values of `mean` given in s read in ns, the finest unit the logs give it in")
            && r.stderr.contains("converted: 2 values of `median` given in s read in ns"),
        "{r:?}"
    );
    // One multiplication each: 11.61481411152 s is 11614814111.52 ns.
    assert_eq!(stored(&s, "logs/hyperfine.json"), (Some("ns".into()), in_ns.clone()));
    assert!((in_ns[0] - 11_614_814_111.52).abs() < 1e-3, "{in_ns:?}");
    assert_eq!(stored(&s, "logs/criterion.json").1, [criterion_mean()]);
    let first = exported(&s);
    // hyperfine's s first: criterion's ns make the metric's unit ns.
    let s = sandbox();
    s.ok(&["ingest", "logs/hyperfine.json"]);
    let r = s.ok(&["ingest", "logs/criterion.json"]);
    assert!(
        r.stderr.contains(
            "converted: `mean` is read in ns now, the finest unit the logs give it in: the values other logs give in \
             s are converted when read"
        ),
        "{r:?}"
    );
    assert_eq!(stored(&s, "logs/hyperfine.json"), (Some("ns".into()), in_ns));
    assert_eq!(stored(&s, "logs/criterion.json").1, [criterion_mean()]);
    assert_eq!(exported(&s), first);
    // Each log's values are kept as it gave them.
    let c = rusqlite::Connection::open(s.db()).unwrap();
    let raw: Vec<(String, String)> = c
        .prepare(
            "SELECT source.path, source_metric.unit FROM source_metric JOIN source ON source.id = source_id \
             JOIN metric ON metric.id = metric_id WHERE metric.name = 'mean' ORDER BY source.path",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(raw, [("logs/criterion.json".into(), "ns".into()), ("logs/hyperfine.json".into(), "s".into())]);
}

#[test]
fn rebuild_and_reingest_give_the_values_an_incremental_ingest_gave() {
    let s = sandbox();
    s.ok(&["ingest", "logs/hyperfine.json"]);
    s.ok(&["ingest", "logs/criterion.json"]);
    let first = (stored(&s, "logs/criterion.json"), stored(&s, "logs/hyperfine.json"));
    let again = s.ok(&["ingest", "logs/criterion.json", "logs/hyperfine.json"]);
    assert!(again.stderr.contains("0 run(s); 2 already present"), "{again:?}");
    assert_eq!((stored(&s, "logs/criterion.json"), stored(&s, "logs/hyperfine.json")), first);
    // A database built afresh, in the other order, holds the same.
    let rebuilt = s.ok(&["ingest", "--rebuild", "logs/criterion.json", "logs/hyperfine.json"]);
    assert!(rebuilt.stderr.contains("converted: 2 values of `mean`"), "{rebuilt:?}");
    assert_eq!((stored(&s, "logs/criterion.json"), stored(&s, "logs/hyperfine.json")), first);
}

#[test]
fn a_replaced_or_removed_log_no_longer_decides_the_unit() {
    // Another log keeps the metric in ns: the replacement's s is read in ns.
    let s = sandbox();
    s.ok(&["ingest", "logs/criterion.json", "logs/hyperfine.json"]);
    s.fixture(HYPERFINE, "logs/criterion.json");
    let r = s.ok(&["ingest", "logs/criterion.json"]);
    assert!(!r.stderr.contains("converted"), "no log gives `mean` in ns any more: {r:?}");
    let (unit, values) = stored(&s, "logs/criterion.json");
    assert_eq!((unit.as_deref(), values), (Some("s"), hyperfine_means()));
    assert_eq!(stored(&s, "logs/hyperfine.json").1, hyperfine_means());
    // The only log giving ns gone: the metric is in s, as a database built
    // from what is left would be.
    let s = sandbox();
    s.ok(&["ingest", "logs/criterion.json", "logs/hyperfine.json"]);
    assert_eq!(stored(&s, "logs/hyperfine.json").0.as_deref(), Some("ns"));
    std::fs::remove_file(s.path().join("logs/criterion.json")).unwrap();
    s.ok(&["ingest", "logs/*.json"]);
    assert_eq!(stored(&s, "logs/hyperfine.json"), (Some("s".into()), hyperfine_means()));
    let fresh = sandbox();
    std::fs::remove_file(fresh.path().join("logs/criterion.json")).unwrap();
    fresh.ok(&["ingest", "logs/*.json"]);
    assert_eq!(exported(&s), exported(&fresh));
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
