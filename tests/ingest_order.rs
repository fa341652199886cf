//! What reckon answers must not depend on the order logs were ingested in
//! (trial finding G18). Before, the first log to give a metric fixed the
//! unit it was stored in and the later logs' values were converted into
//! it: criterion's `mean` in ns then hyperfine's in s kept `mean` in ns,
//! the other order in s, so `export`, `query` and a claim's evidence
//! differed — and a claim stated without a unit (`… on mean < 12`) held in
//! one order and was contradicted in the other. Each set below is real
//! logs of different tools sharing metrics in different units, ingested
//! in every order into fresh projects; every output must be the same
//! bytes (the run ids `export` prints aside: they number runs in the order
//! they were stored).

use std::fmt::Write as _;

mod common;
use common::Sandbox;

/// Logs sharing metrics in different units, a project to read them with,
/// and what to ask of them.
struct Set {
    /// (fixture under tests/fixtures, its name in the project's
    /// `logs/2026-11-29/`).
    logs: &'static [(&'static str, &'static str)],
    toml: &'static str,
    /// The claim document, `claims.md`.
    doc: &'static str,
    /// Each a `reckon query` command's arguments.
    queries: &'static [&'static [&'static str]],
}

const HYPERFINE: &str = "corpus/hyperfine/1brc-two-commands.json";

/// `mean`, `median`, `min`, `max`, `stddev`: criterion's estimates in ns,
/// hyperfine's and pytest-benchmark's summaries in s.
const SUMMARIES: Set = Set {
    logs: &[
        ("corpus/criterion/fib20-fast-new-estimates.json", "estimates.json"),
        (HYPERFINE, "hyperfine.json"),
        ("corpus/pytest-benchmark/v2.5.0-storage-0030-params-null-no-ops.json", "pytest.json"),
    ],
    toml: "series = \"command\"\n",
    doc: "# 1brc\n\n\
          <!-- reckon:claim id=bare\n     'cargo run --release --bin 1brc \
          measurements_1000000000.txt' on mean < 12 -->\n\
          Under twelve.\n<!-- /reckon:claim -->\n\n\
          <!-- reckon:claim id=seconds\n     'cargo run --release --bin 1brc \
          measurements_1000000000.txt' on mean < 12 s -->\n\
          Under twelve seconds.\n<!-- /reckon:claim -->\n\n\
          <!-- reckon:claim id=median\n     'cargo run --release --bin 1brc \
          measurements_1000000000.txt' on median ≈ 11.8 s -->\n\
          About 11.8 s.\n<!-- /reckon:claim -->\n",
    queries: &[
        &["--metric", "mean", "--rows", "command"],
        &["--metric", "median", "--rows", "command", "--format", "csv"],
        &["--metric", "min", "--rows", "name", "--format", "json"],
    ],
};

/// `time`: criterion's samples in ns per iteration, hyperfine's repeats
/// and asv's results in s.
const TIMES: Set = Set {
    logs: &[
        ("corpus/criterion/fib20-fast-new-sample.json", "sample.json"),
        (HYPERFINE, "hyperfine.json"),
        ("corpus/asv/blas-graviton-results.json", "asv.json"),
    ],
    toml: "series = \"command\"\n",
    doc: "# repeats\n\n\
          <!-- reckon:claim id=bare\n     'cargo run --release --bin 1brc \
          measurements_1000000000.txt' on time < 12 -->\n\
          Under twelve.\n<!-- /reckon:claim -->\n\n\
          <!-- reckon:claim id=ms\n     'cargo run --release --bin 1brc \
          measurements_1000000000.txt' on time < 20000 ms -->\n\
          Under twenty seconds.\n<!-- /reckon:claim -->\n",
    queries: &[&["--metric", "time", "--rows", "command"], &["--metric", "time", "--agg", "all", "--format", "csv"]],
};

/// `cpu_time`: Google Benchmark's in ns, nvbench's in s.
const CPU_TIMES: Set = Set {
    logs: &[
        ("corpus/gbench/kalman-100-repetitions-aggregates.json", "gbench.json"),
        ("corpus/nvbench/nvidia-axes-example-test-ref.json", "nvbench.json"),
    ],
    toml: "series = \"benchmark\"\n",
    doc: "# kalman\n\n\
          <!-- reckon:claim id=bare\n     'baseline/repeats:100/manual_time' on cpu_time < 70 -->\n\
          Under 70.\n<!-- /reckon:claim -->\n\n\
          <!-- reckon:claim id=us\n     'baseline/repeats:100/manual_time' on cpu_time < 1 us -->\n\
          Under a microsecond.\n<!-- /reckon:claim -->\n",
    queries: &[&["--metric", "cpu_time", "--rows", "benchmark", "--format", "csv"]],
};

/// `request_latency_max`, `_p50`, …: guidellm's in s, GenAI-Perf's (CSV and
/// JSON) in ms.
const SERVING: Set = Set {
    logs: &[
        ("corpus/guidellm/qwen3-30b-tp4-fp8-synchronous-benchmarks.json", "guidellm.json"),
        ("corpus/genai-perf/profile-export-exporter-test.fixture.csv", "genai.csv"),
        ("corpus/genai-perf/profile-export-genai-perf-json-exporter-test.fixture.json", "genai.json"),
    ],
    toml: "series = \"model\"\n",
    doc: "# serving\n\n\
          <!-- reckon:claim id=bare\n     'Qwen/Qwen3-30B-A3B' on request_latency_max < 41 -->\n\
          Under 41.\n<!-- /reckon:claim -->\n\n\
          <!-- reckon:claim id=s\n     'Qwen/Qwen3-30B-A3B' on request_latency_max < 41 s -->\n\
          Under 41 s.\n<!-- /reckon:claim -->\n",
    queries: &[
        &["--metric", "request_latency_max", "--agg", "all", "--format", "csv"],
        &["--metric", "request_latency_p50", "--agg", "max"],
    ],
};

/// Every order of `0..n`.
fn orders(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for rest in orders(n - 1) {
        for at in 0..=rest.len() {
            let mut order = rest.clone();
            order.insert(at, n - 1);
            out.push(order);
        }
    }
    out
}

/// `export`'s CSV without its run ids (the first column).
fn without_run_ids(csv: &str) -> String {
    csv.lines().map(|line| line.split_once(',').map_or(line, |(_, rest)| rest)).collect::<Vec<_>>().join("\n")
}

/// What a project holding the set's logs, ingested one command each in
/// `order`, answers: each command with its exit code and output.
fn answers(set: &Set, order: &[usize]) -> Vec<(String, String)> {
    let s = Sandbox::new();
    s.write("reckon.toml", set.toml);
    s.write("claims.md", set.doc);
    for &(fixture, name) in set.logs {
        s.fixture(fixture, &format!("logs/2026-11-29/{name}"));
        if fixture.starts_with("corpus/criterion/") {
            // criterion's file naming the benchmark, as it writes it beside
            // its estimates and samples (a lone one is refused: its runs
            // would pool with other benchmarks').
            s.fixture(
                "corpus/criterion/fib20-fast-new-benchmark-null-function-id.json",
                "logs/2026-11-29/benchmark.json",
            );
        }
    }
    for &i in order {
        // The run time from the path: the same in every project.
        s.ok(&["ingest", &format!("logs/{{date}}/{}", set.logs[i].1)]);
    }
    let mut out = Vec::new();
    let mut ask = |args: Vec<&str>, shown: fn(&str) -> String| {
        let r = s.run(&args);
        let said = format!("exit {}\n{}\n--- stderr\n{}", r.code, shown(&r.stdout), r.stderr);
        out.push((args.join(" "), said));
    };
    ask(vec!["export"], without_run_ids);
    for q in set.queries {
        ask([&["query"], *q].concat(), str::to_owned);
    }
    ask(vec!["claims", "claims.md"], str::to_owned);
    ask(vec!["claims", "--format", "json", "claims.md"], str::to_owned);
    ask(vec!["check", "claims.md"], str::to_owned);
    out
}

/// Every order gives the first order's answers, byte for byte.
fn same_in_every_order(set: &Set) -> Vec<(String, String)> {
    let all = orders(set.logs.len());
    let first = answers(set, &all[0]);
    for order in &all[1..] {
        let names: Vec<&str> = order.iter().map(|&i| set.logs[i].1).collect();
        let first_names: Vec<&str> = all[0].iter().map(|&i| set.logs[i].1).collect();
        for ((command, a), (_, b)) in first.iter().zip(answers(set, order)) {
            assert!(
                *a == b,
                "`reckon {command}` differs between ingesting {first_names:?} and {names:?}:\n{}",
                apart(a, &b)
            );
        }
    }
    first
}

/// The lines where `a` and `b` differ (the first few), each side by side.
fn apart(a: &str, b: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let n = a.len().max(b.len());
    let line = |v: &[&str], i: usize| v.get(i).copied().unwrap_or("(none)").to_owned();
    let mut out = String::new();
    for i in (0..n).filter(|&i| a.get(i) != b.get(i)).take(6) {
        let _ = writeln!(out, "- {}\n+ {}", line(&a, i), line(&b, i));
    }
    out
}

/// The verdict of the claim `id` in `claims --format json`'s output.
fn verdict(answers: &[(String, String)], id: &str) -> String {
    let (_, said) = answers.iter().find(|(c, _)| c == "claims --format json claims.md").unwrap();
    let json = said.split_once('\n').unwrap().1.rsplit_once("\n--- stderr").unwrap().0;
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let claims = v.as_array().unwrap_or_else(|| panic!("{v}"));
    let claim = claims.iter().map(|c| &c["claim"]).find(|c| c["id"] == id).unwrap_or_else(|| panic!("{id}: {v}"));
    claim["verdict"].as_str().unwrap().to_owned()
}

#[test]
fn summaries_in_ns_and_s_read_the_same_in_every_order() {
    let a = same_in_every_order(&SUMMARIES);
    // `mean` is shown in ns, the finest unit its logs give, in every order:
    // a number stated without a unit is in ns too.
    assert_eq!(verdict(&a, "bare"), "contradicted", "{a:?}");
    let export = &a[0].1;
    assert!(
        export.contains("mean,11614814111.519999,ns,lower"),
        "hyperfine's 11.61481411152 s, times 1e9 once\n{export}"
    );
    assert!(export.contains("mean,4.8576958822770795,ns,lower"), "criterion's mean as its log gives it\n{export}");
    // Stated with a unit, the claim holds whatever the metric is shown in.
    assert_eq!(verdict(&a, "seconds"), "holds", "{a:?}");
    assert_eq!(verdict(&a, "median"), "holds", "{a:?}");
}

#[test]
fn repeats_in_ns_and_s_read_the_same_in_every_order() {
    let a = same_in_every_order(&TIMES);
    assert_eq!(verdict(&a, "ms"), "holds", "{a:?}");
}

#[test]
fn cpu_times_in_ns_and_s_read_the_same_in_every_order() {
    let a = same_in_every_order(&CPU_TIMES);
    assert_eq!(verdict(&a, "us"), "holds", "{a:?}");
}

#[test]
fn serving_latencies_in_ms_and_s_read_the_same_in_every_order() {
    let a = same_in_every_order(&SERVING);
    assert_eq!(verdict(&a, "s"), "holds", "{a:?}");
}
