//! What the fourth cold trial found reckon reading wrong in real logs of
//! its tools, each on real files (`tests/fixtures/trial4/`, and loadgen
//! logs of a public repository in `tests/fixtures/trial4/loadgen/`, see its
//! SOURCES.md).

mod common;

use common::{Ran, Sandbox};

fn said(r: &Ran) -> String {
    format!("{}{}", r.stdout, r.stderr)
}

fn claim(id: &str, text: &str) -> String {
    format!("<!-- reckon:claim id={id}\n     {text} -->\nSaid.\n<!-- /reckon:claim -->\n\n")
}

/// The trial's study with its `[[source]]` of loadgen logs widened to
/// `{scenario_dir}/NAME`.
fn llmq(name: &str) -> Sandbox {
    let s = Sandbox::new();
    s.fixture("trial4/llmq", ".");
    let toml = s.read("reckon.toml");
    let summary = "{scenario_dir}/mlperf_log_summary.txt";
    assert!(toml.contains(summary));
    s.write("reckon.toml", toml.replace(summary, &format!("{{scenario_dir}}/{name}")));
    s
}

/// `mlperf/{date}/{precision}/{scenario_dir}/*.txt` read loadgen's summary
/// and detail log of each test as two runs: `int8 beats fp16` rested on
/// "2 runs each" with "no spread: the repeated runs logged the same value".
/// The detail log beside a summary the ingest reads is refused, naming
/// both and what to do; each test is one run.
#[test]
fn finding_g3_a_loadgen_tests_summary_and_detail_log_are_one_run() {
    let s = llmq("*.txt");
    let r = s.test().arg("ingest").status(2).run();
    let out = said(&r);
    for at in ["2026-11-12/fp16/Server", "2026-11-26/int8/Offline"] {
        let detail = format!("mlperf/{at}/mlperf_log_detail.txt:1:");
        assert!(out.contains(&detail), "{at}: {r:?}");
        assert!(out.contains(&format!("`mlperf/{at}/mlperf_log_summary.txt` beside it")), "{at}: {r:?}");
    }
    assert!(out.contains("one test two runs") && out.contains("narrow the [[source]] path"), "{r:?}");
    assert!(out.contains("8 failed"), "{r:?}");
    // 8 loadgen tests and 8 lm-eval runs (4 tasks and filters × 2 models).
    assert_eq!(s.counts().1, 16);
    s.write("t.md", claim("c", "int8 beats fp16 on completed_tokens_per_second at scenario_dir = Server"));
    s.test().args(["claims", "t.md"]).status(2).stdout_has("1 run each").stdout_lacks("2 runs each").run();

    // The detail logs alone are read, with the test's time.
    let d = llmq("mlperf_log_detail.txt");
    d.ok(&["ingest"]);
    assert_eq!(d.counts().1, 16);
    let runs = d.ok(&["runs", "--where", "scenario_dir=Server"]);
    assert!(runs.stdout.contains("2026-11-12T03:41:07Z"), "{runs:?}");
    // Widened to both later, the detail logs' runs go: a fresh database
    // would not hold them.
    let toml = d.read("reckon.toml").replace("mlperf_log_detail.txt", "*.txt");
    d.write("reckon.toml", toml);
    let r = d.test().arg("ingest").status(2).stderr_has("the runs an earlier ingest took from it are removed").run();
    assert!(said(&r).contains("8 failed"), "{r:?}");
    assert_eq!(d.counts().1, 16);
    d.test().args(["runs", "--where", "scenario_dir=Server"]).stdout_lacks("mlperf_log_detail.txt").run();
}

/// A loadgen test whose `Result is : INVALID` (its latency constraints not
/// met) was judged as a measurement: `fp16 beats int4` and `int4 … > 40`
/// held on it. Its runs are left out of a claim's statistics and said,
/// unless the claim's `where` asks for them.
#[test]
fn finding_g5_an_invalid_loadgen_result_is_no_measurement_unless_asked_for() {
    let s = llmq("mlperf_log_summary.txt");
    s.fixture(
        "trial4/loadgen/server-invalid-mlperf_log_summary.txt",
        "mlperf/2026-11-26/int4/Server/mlperf_log_summary.txt",
    );
    // loadgen's advice and warning are prose, not params of the test.
    s.test().arg("ingest").stderr_has("recommendations and warnings (prose) are not stored").run();
    let runs = s.ok(&["runs", "--where", "precision=int4"]);
    assert!(runs.stdout.contains("result=INVALID") && !runs.stdout.contains("ttft_constrain"), "{runs:?}");
    let said = "1 of 1 runs of int4 at scenario_dir=Server are `result=INVALID` by their tool's own judgement";
    for (id, text) in [
        ("beats", "fp16 beats int4 on completed_tokens_per_second at scenario_dir = Server"),
        ("level", "int4 on completed_tokens_per_second at scenario_dir = Server > 40"),
    ] {
        s.write("t.md", claim(id, text));
        s.test()
            .args(["claims", "t.md"])
            .stdout_has(said)
            .stdout_has("`where result = INVALID` judges them")
            .stdout_lacks(&format!("claim `{id}` holds"))
            .run();
    }
    // Asked for, the invalid runs are judged; valid ones are untouched.
    s.write(
        "t.md",
        claim("w", "int4 on completed_tokens_per_second at scenario_dir = Server > 40 where result = INVALID"),
    );
    s.test().args(["claims", "t.md"]).stdout_has("claim `w` holds").stdout_lacks("left out").run();
    s.write("t.md", claim("v", "int8 beats fp16 on completed_tokens_per_second at scenario_dir = Server"));
    s.test().args(["claims", "t.md"]).stdout_has("claim `v` holds").stdout_lacks("INVALID").run();
}

/// An `AccuracyOnly` test has no performance result (loadgen issues each
/// sample once for the accuracy script): its detail log is refused, saying
/// which logs to ingest, not read as a run (nor as a test that "did not
/// finish").
#[test]
fn finding_g5_an_accuracy_only_loadgen_log_gives_no_performance_metrics() {
    let s = Sandbox::new();
    s.write("reckon.toml", "database = \"db/reckon.sqlite\"\n");
    s.fixture("trial4/loadgen/server-accuracy-mlperf_log_detail.txt", "accuracy/mlperf_log_detail.txt");
    let r = s.test().args(["ingest", "--label", "precision=fp16", "accuracy/mlperf_log_detail.txt"]).status(2).run();
    let out = said(&r);
    assert!(out.contains("accuracy/mlperf_log_detail.txt:44:"), "{r:?}");
    assert!(out.contains("AccuracyOnly mode, which measures no performance"), "{r:?}");
    assert!(out.contains("Ingest the logs of the PerformanceOnly test") && !out.contains("did not finish"), "{r:?}");
    assert_eq!(s.counts().1, 0);
}

/// criterion's files copied out of `target/criterion/` into
/// `results/{date}/` lost their benchmark's name: `fib 20 - fast` (4.9 ns)
/// and `fib 20 - slow` (18 µs) pooled into one cell, `mean` 8995.89. The
/// names come from criterion's `benchmark.json` beside each file (for
/// `change/`, the one in `new/`); a file whose benchmark cannot be told is
/// refused, saying what to do, unless a label names it.
#[test]
fn finding_g13_criterion_files_outside_a_criterion_folder_keep_their_benchmark_or_are_refused() {
    let s = Sandbox::new();
    s.fixture("trial4/criterion-copied", ".");
    let source = "[[source]]\npath = \"results/{date}/**/estimates.json\"\n";
    s.write("reckon.toml", format!("database = \"db/reckon.sqlite\"\n{source}"));
    s.ok(&["ingest"]);
    s.test()
        .args(["query", "--metric", "mean", "--rows", "benchmark"])
        .stdout_has("fib 20 - fast   4.8577")
        .stdout_has("fib 20 - slow  17986.9")
        .run();
    s.test()
        .args(["runs", "--where", "baseline=change"])
        .stdout_has("benchmark=fib 20 - fast")
        .stdout_has("benchmark=fib 20 - slow")
        .run();

    // Without benchmark.json, the folders above `new/` say nothing sure.
    let bare = Sandbox::new();
    for b in ["fib 20 - fast", "fib 20 - slow"] {
        let from = format!("trial4/criterion-copied/results/2026-12-01/{b}/new/estimates.json");
        bare.fixture(&from, &format!("results/2026-12-01/{b}/new/estimates.json"));
    }
    bare.write("reckon.toml", format!("database = \"db/reckon.sqlite\"\n{source}"));
    let r = bare.test().arg("ingest").status(2).run();
    let out = said(&r);
    assert!(out.contains("results/2026-12-01/fib 20 - fast/new/estimates.json:1:"), "{r:?}");
    assert!(out.contains("which criterion benchmark this file is of cannot be told"), "{r:?}");
    assert!(out.contains("results/{date}/{group}/{function}/new/estimates.json"), "{r:?}");
    assert_eq!(bare.counts().1, 0, "runs of unknown benchmarks went in");
    // A path template that captures the name reads them, one cell each.
    let named = "[[source]]\npath = \"results/{date}/{benchmark}/new/estimates.json\"\n";
    bare.write("reckon.toml", format!("database = \"db/reckon.sqlite\"\n{named}"));
    bare.ok(&["ingest"]);
    bare.test()
        .args(["query", "--metric", "mean", "--rows", "benchmark"])
        .stdout_has("fib 20 - fast   4.8577")
        .stdout_has("fib 20 - slow  17986.9")
        .run();
}

/// lm-eval's cells were keyed by `start_time` and `end_time`, the process
/// clock, so no two sweeps could pair. (Loadgen's `target_qps`, moved per
/// run until a test passes, still keys its cells: a setting that differs
/// between two sweeps is a different configuration until reckon can say so
/// beside the comparison, and pairing the cells silently would report a
/// move the setting may have made.)
#[test]
fn finding_g12_clocks_key_no_cell() {
    let s = llmq("mlperf_log_summary.txt");
    s.ok(&["ingest"]);
    let all = s.ok(&["diff"]);
    assert!(all.stdout.contains("only in 2026-11-12"), "{all:?}");
    // The tuned setting is a param, and found.
    s.test().args(["runs", "--where", "target_qps=7.7"]).stdout_has("2026-11-26/fp16/Server").run();

    // lm-eval's clocks are times of the run, not params.
    let r = s
        .test()
        .args(["ingest", "--rebuild"])
        .stderr_has("`end_time`, `start_time`, `total_evaluation_time_seconds`")
        .run();
    assert!(said(&r).contains("not stored"), "{r:?}");
    s.test().args(["runs", "--where", "task=gsm8k"]).stdout_lacks("start_time").stdout_lacks("end_time").run();
    s.test().arg("diff").stdout_lacks("start_time").stdout_lacks("total_evaluation_time_seconds").run();
}
