//! End-to-end: sweeps of data that carry no time of their own (a GEMM
//! kernel study in CSV, measured in September and October), and the one
//! rule that types generic CSV columns.
//!
//! `tests/fixtures/gemm/` holds the study: two kernels, four shapes
//! (M × N × K), five repeats each, latency in µs and TFLOP/s, one file per
//! month with no date anywhere in it.

mod common;
use common::{fixtures, Sandbox};

fn gemm(s: &Sandbox, to: &str, month: &str) {
    let from = fixtures().join(format!("gemm/gemm-{month}.csv"));
    s.write(to, std::fs::read(from).unwrap());
}

fn csv_table(out: &str) -> Vec<Vec<String>> {
    out.lines().map(|l| l.split(',').map(str::to_string).collect()).collect()
}

fn query(s: &Sandbox, metric: &str, extra: &[&str]) -> Vec<Vec<String>> {
    let mut args = vec!["query", "--metric", metric, "--rows", "M", "--cols", "kernel", "--format", "csv"];
    args.extend_from_slice(extra);
    csv_table(&s.ok(&args).stdout)
}

#[test]
fn files_with_different_sweep_labels_never_merge() {
    let s = Sandbox::new();
    gemm(&s, "sep.csv", "sep");
    gemm(&s, "oct.csv", "oct");
    s.ok(&["ingest", "--label", "sweep=2026-09", "sep.csv"]);
    s.ok(&["ingest", "--label", "sweep=2026-10", "oct.csv"]);

    // Five repeats per cell in the newest sweep, not the ten of both months.
    let counts = query(&s, "latency_us", &["--where", "N = 1024 and K = 1024", "--agg", "count"]);
    assert_eq!(counts, [["M", "cublas", "triton-tiled"], ["1024", "5", "5"]]);
    // The newest sweep is October's: its medians (gemm-oct.csv, lines 2-6
    // and 22-26), and September's when the filter names it.
    let oct = query(&s, "latency_us", &["--where", "N = 1024 and K = 1024"]);
    assert_eq!(oct[1], ["1024", "22.34", "21.81"]);
    let sep = query(&s, "latency_us", &["--where", "N = 1024 and K = 1024 and date = 2026-09"]);
    assert_eq!(sep[1], ["1024", "22.34", "27.1"]);
    // Sweep names compare as text, which orders them in time; a month
    // comes before the days within it.
    let before = query(&s, "latency_us", &["--where", "N = 1024 and K = 1024 and date < 2026-10"]);
    assert_eq!(before[1], ["1024", "22.34", "27.1"]);
    let october = query(&s, "latency_us", &["--where", "N = 1024 and K = 1024 and date ~ '2026-10*'"]);
    assert_eq!(october[1], ["1024", "22.34", "21.81"]);
    let runs_in =
        |filter: &str| s.ok(&["runs", "--limit", "0", "--where", filter, "--format", "csv"]).stdout.lines().count() - 1;
    assert_eq!(runs_in("date < 2026-10-01"), 80, "the month 2026-10 sorts before its first day");

    let runs: serde_json::Value =
        serde_json::from_str(&s.ok(&["runs", "--limit", "0", "--format", "json"]).stdout).unwrap();
    let first = &runs[0];
    assert_eq!((first["sweep"].as_str(), first["time_origin"].as_str()), (Some("2026-09"), Some("label")));
    assert_eq!(first["time"], "2026-09-01T00:00:00Z");
    assert!(first["params"].get("sweep").is_none(), "the sweep is the run's sweep, not a param: {first}");
    let table = s.ok(&["runs", "--limit", "1"]).stdout;
    assert!(table.contains("2026-10-01T00:00:00Z (label, sweep 2026-10)"), "{table}");

    // `reckon diff` compares the months cell by cell, the five repeats of
    // each cell against the other month's five (not repeat by repeat).
    let d = s.ok(&["diff", "--no-ingest", "--metric", "latency_us", "--format", "json"]).stdout;
    let d: serde_json::Value = serde_json::from_str(&d).unwrap();
    assert_eq!((d["from"].as_str(), d["to"].as_str()), (Some("2026-09"), Some("2026-10")), "{d}");
    assert_eq!(d["by"], serde_json::json!(["K", "M", "N", "kernel"]), "{d}");
    assert_eq!((d["from_runs"].clone(), d["to_runs"].clone()), (serde_json::json!([5, 5]), serde_json::json!([5, 5])));

    // The same path again under another sweep is relabelled, as an empty
    // database would hold it: its runs move, none are added.
    let total = s.counts().1;
    let r = s.ok(&["ingest", "--label", "sweep=2026-11", "sep.csv"]);
    assert!(r.stderr.contains("sep.csv: 40 runs"), "{r:?}");
    assert_eq!(s.counts().1, total);
    assert_eq!(runs_in("date = 2026-11"), 40);
    // The same bytes under another path are a source of their own, in the
    // sweep labelled for it.
    std::fs::copy(s.path().join("sep.csv"), s.path().join("sep-copy.csv")).unwrap();
    let r = s.ok(&["ingest", "--label", "sweep=2026-12", "sep-copy.csv"]);
    assert!(r.stderr.contains("sep-copy.csv: 40 runs"), "{r:?}");
    assert_eq!(runs_in("date = 2026-12"), 40);
    assert_eq!(runs_in("date = 2026-11"), 40);
}

#[test]
fn year_month_dates_in_paths_and_sweep_labels_in_reckon_toml() {
    let s = Sandbox::new();
    gemm(&s, "logs/2026-09/gemm.csv", "sep");
    gemm(&s, "logs/2026-10/gemm.csv", "oct");
    s.ok(&["ingest", "logs/{date}/gemm.csv"]);
    let runs: serde_json::Value =
        serde_json::from_str(&s.ok(&["runs", "--limit", "0", "--format", "json"]).stdout).unwrap();
    let sweeps: std::collections::BTreeSet<(&str, &str)> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["sweep"].as_str().unwrap(), r["time_origin"].as_str().unwrap()))
        .collect();
    assert_eq!(sweeps, [("2026-09", "path"), ("2026-10", "path")].into());
    let counts = query(&s, "tflops", &["--where", "N = 4096", "--agg", "count"]);
    assert_eq!(counts[1], ["4096", "5", "5"]);

    // The same study named by `labels = { sweep = … }` in reckon.toml.
    let t = Sandbox::new();
    gemm(&t, "a/gemm.csv", "sep");
    gemm(&t, "b/gemm.csv", "oct");
    t.write(
        "reckon.toml",
        "series = \"kernel\"\n\n\
         [[source]]\npath = \"a/gemm.csv\"\nlabels = { sweep = \"2026-09\" }\n\n\
         [[source]]\npath = \"b/gemm.csv\"\nlabels = { sweep = \"2026-10\" }\n",
    );
    t.ok(&["ingest"]);
    let counts = query(&t, "tflops", &["--where", "N = 4096", "--agg", "count"]);
    assert_eq!(counts[1], ["4096", "5", "5"]);
    let sep = query(&t, "tflops", &["--where", "N = 4096 and sweep = 2026-09"]);
    assert_eq!(sep[1], ["4096", "197.8", "171.1"]);
}

#[test]
fn labels_that_would_hide_built_ins_are_refused_and_nothing_goes_in() {
    let s = Sandbox::new();
    gemm(&s, "sep.csv", "sep");
    for (label, says) in [
        (
            "date=2026-09",
            "the label `date` would hide reckon's built-in `date` (each run's sweep); \
             to set the sweep, label it `sweep` instead",
        ),
        ("time=now", "the label `time` would hide reckon's built-in `time`"),
        ("source=lab", "the label `source` would hide reckon's built-in `source`"),
        ("sweep=september", "the label `sweep` is `september`, which is not a date"),
    ] {
        let r = s.run(&["ingest", "--label", label, "sep.csv"]);
        assert_eq!(r.code, 2, "{label}: {r:?}");
        assert!(r.stderr.contains(says), "{label}: {r:?}");
    }
    assert!(!s.db().exists() || s.counts() == (0, 0, 0));

    // In reckon.toml and in path captures too.
    s.write("reckon.toml", "[[source]]\npath = \"sep.csv\"\nlabels = { date = \"2026-09\" }\n");
    let r = s.run(&["ingest"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("would hide reckon's built-in `date`"), "{r:?}");
    gemm(&s, "runs/lab-a/gemm.csv", "sep");
    let r = s.run(&["ingest", "runs/{source}/gemm.csv"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("would hide reckon's built-in `source`"), "{r:?}");
    assert!(!s.db().exists() || s.counts() == (0, 0, 0));
}

#[test]
fn known_params_are_listed_once() {
    // A CSV with its own `sweep` column: the pseudo-param of that name is
    // not listed a second time.
    let s = Sandbox::new();
    s.write("r.csv", "kernel,sweep,latency_us\na,warm,1.5\nb,cold,2.5\n");
    s.ok(&["ingest", "r.csv"]);
    let r = s.run(&["query", "--metric", "latency_us", "--rows", "nope"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("known params: `kernel`, `sweep`, `date`, `time`, `source`"), "{r:?}");
}

#[test]
fn generic_csv_columns_follow_one_rule() {
    let s = Sandbox::new();
    gemm(&s, "sep.csv", "sep");
    s.write("reckon.toml", "series = \"kernel\"\n");
    s.ok(&["ingest", "sep.csv"]);
    // M, N and K are all params (the grid), `repeat` too; the latency and
    // TFLOP/s are metrics. (Counted: a median by one of them alone would
    // pool the others' points, and is refused.)
    for p in ["M", "N", "K"] {
        let args = ["query", "--metric", "tflops", "--rows", p, "--agg", "count", "--format", "csv"];
        let t = csv_table(&s.ok(&args).stdout);
        assert_eq!(t[0], [p, "cublas", "triton-tiled"]);
    }
    let r = s.run(&["query", "--metric", "M", "--rows", "kernel"]);
    assert!(r.stderr.contains("unknown metric `M`"), "{r:?}");
    // The repeats of one shape are one point: a value there is their median,
    // not refused as runs "at several `repeat` values".
    s.write(
        "doc.md",
        "cuBLAS at 1024³: <!-- reckon:value metric=latency_us kernel=cublas M=1024 N=1024 digits=2 -->\
         <!-- /reckon:value --> µs.\n",
    );
    let r = s.run(&["update", "--write", "doc.md"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(s.read("doc.md").contains("-->22.34<!--"), "{}", s.read("doc.md"));
    // … while a value over several shapes still asks which.
    s.write("doc2.md", "<!-- reckon:value metric=latency_us kernel=cublas M=4096 --><!-- /reckon:value -->\n");
    let r = s.run(&["update", "doc2.md"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("differ in `N` (1024, 4096)"), "{r:?}");
}

#[test]
fn a_sweep_label_names_the_sweep_of_logs_with_their_own_time() {
    // vLLM writes each run's `date`; the label still decides the sweep, and
    // the log's time stays the run's time.
    let s = Sandbox::new();
    s.write(
        "s.json",
        std::fs::read(fixtures().join("corpus/vllm/er0080-v0.25.1-sweep-summary-json-array.json")).unwrap(),
    );
    s.ok(&["ingest", "--label", "sweep=2026-09", "s.json"]);
    let runs: serde_json::Value =
        serde_json::from_str(&s.ok(&["runs", "--limit", "0", "--format", "json"]).stdout).unwrap();
    for r in runs.as_array().unwrap() {
        assert_eq!((r["sweep"].as_str(), r["time_origin"].as_str()), (Some("2026-09"), Some("log")), "{r}");
        assert!(r["time"].as_str().unwrap().starts_with("2026-08-18T"), "{r}");
    }
    // `run_number` marks vLLM's repeats: a value over both runs is their
    // median, not refused as runs at several `run_number` values.
    s.write("doc.md", "<!-- reckon:value metric=completed request_rate=inf --><!-- /reckon:value -->\n");
    let r = s.run(&["update", "--write", "doc.md"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(s.read("doc.md").contains("-->8<!--"), "{}", s.read("doc.md"));
}
