//! What the fourth cold trial found reckon reading wrong in real logs of
//! its tools, each on real files (`tests/fixtures/trial4/`, and loadgen
//! logs of a public repository in `tests/fixtures/mlperf-trial4/`, see its
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
