//! What the fourth cold trial found ingest taking without a word: a
//! truncated loadgen summary stored as complete (G6), another tool's log
//! under a loadgen name (G20), a `{date}` the log's own time overrides
//! (G23), a narrowed `[[source]]` glob whose old logs kept their runs (G8),
//! and `ingest -q` printing what its help said it would not (G21).

mod common;

use common::{Ran, Sandbox};

fn said(r: &Ran) -> String {
    format!("{}{}", r.stdout, r.stderr)
}

const DB: &str = "database = \"db/reckon.sqlite\"\n";

/// A summary cut inside `Tokens per second: 2993.01` is refused at its
/// last line, not stored as 29 tok/s; so is one cut before its additional
/// stats, and nothing goes in.
#[test]
fn finding_g6_a_truncated_mlperf_summary_is_refused_not_stored() {
    for (fixture, last_line) in [("trial4/cut_number_summary.txt", 8), ("trial4/cut_after_result.txt", 12)] {
        let s = Sandbox::new();
        s.write("reckon.toml", DB);
        s.fixture(fixture, "cut/mlperf_log_summary.txt");
        let r = s.test().args(["ingest", "--label", "precision=x", "cut/mlperf_log_summary.txt"]).status(2).run();
        let at = format!("cut/mlperf_log_summary.txt:{last_line}:");
        assert!(said(&r).contains(&at) && said(&r).contains("cut short"), "{fixture}: {r:?}");
        assert_eq!(s.counts().1, 0, "{fixture}: runs went in");
    }
}

/// criterion's estimates saved as `mlperf_log_summary.txt` under a loadgen
/// template: refused, naming both tools, not read as criterion's (the real
/// result would fall back to an older sweep unsaid).
#[test]
fn finding_g20_another_tools_log_under_a_loadgen_name_is_refused_naming_both() {
    let s = Sandbox::new();
    let source = "[[source]]\npath = \"mlperf/{date}/{precision}/{scenario}/mlperf_log_summary.txt\"\n";
    s.write("reckon.toml", format!("{DB}{source}"));
    s.fixture("corpus/criterion/fib20-fast-new-estimates.json", "mlperf/2026-11-26/fp16/Server/mlperf_log_summary.txt");
    let r = s.test().arg("ingest").status(2).run();
    let out = said(&r);
    assert!(out.contains("mlperf/2026-11-26/fp16/Server/mlperf_log_summary.txt"), "{r:?}");
    assert!(out.contains("mlperf-summary") && out.contains("criterion-json"), "{r:?}");
    assert_eq!(s.counts().1, 0);
    // Named, it is read as what it is (its benchmark named by criterion's
    // benchmark.json beside it: no `criterion/` folder says which it is).
    s.fixture(
        "corpus/criterion/fib20-fast-new-benchmark-null-function-id.json",
        "mlperf/2026-11-26/fp16/Server/benchmark.json",
    );
    s.test()
        .args(["ingest", "--format", "criterion-json", "mlperf/2026-11-26/fp16/Server/mlperf_log_summary.txt"])
        .run();
}

/// An lm-eval results file under `evals/2026-11-26/` whose own `date` is a
/// year earlier: its runs take the log's time (the README's order), and
/// ingest says so, naming both days.
#[test]
fn finding_g23_a_log_time_far_from_the_paths_date_is_said() {
    let s = Sandbox::new();
    let source = "[[source]]\npath = \"evals/{date}/{precision}/results_*.json\"\n";
    s.write("reckon.toml", format!("{DB}series = \"precision\"\n{source}"));
    s.fixture("trial4/mmlu/results_2026-11-26T14-00-00.json", "evals/2026-11-26/fp16/results_2026-11-26T14-00-00.json");
    let r = s.test().arg("ingest").stderr_has("2025-11-26").stderr_has("{date} 2026-11-26").run();
    assert!(r.stderr.contains("note:"), "{r:?}");
    // Quiet, it is still said.
    s.test().args(["ingest", "--rebuild", "-q"]).stderr_has("{date} 2026-11-26").run();
}

/// The example's two sweeps ingested, then the `.jsonl` source taken out of
/// reckon.toml: the 2026-11-29 logs, still on disk under
/// `notebooks/logs/`, lose their runs at the next ingest or check, as a
/// fresh database would not hold them; a log named on the command line
/// elsewhere keeps its runs.
#[test]
fn finding_g8_logs_a_narrowed_source_no_longer_matches_lose_their_runs() {
    for command in ["ingest", "check"] {
        let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
        s.ok(&["ingest"]);
        s.write("elsewhere/extra.jsonl", s.read("notebooks/logs/2026-11-29/baseline.jsonl"));
        s.ok(&["ingest", "--label", "config=extra", "elsewhere/extra.jsonl"]);
        let (sources, _, _) = s.counts();
        assert_eq!(sources, 6);
        let toml = s.read("reckon.toml");
        let jsonl = "[[source]]\npath = \"notebooks/logs/{date}/{config}.jsonl\"\nlabels = { model = \"kimi-k2.5\" }\n";
        assert!(toml.contains(jsonl));
        s.write("reckon.toml", toml.replacen(jsonl, "", 1));
        let r = s.test().arg(command).output();
        assert!(r.code != 2 && said(&r).contains("no [[source]] of reckon.toml matches it"), "{command}: {r:?}");
        assert_eq!(s.counts().0, 3, "{command}: the unmatched logs kept their runs");
        let kept = s.counts();
        s.ok(&["ingest", "--rebuild"]);
        s.ok(&["ingest", "--label", "config=extra", "elsewhere/extra.jsonl"]);
        assert_eq!(s.counts(), kept, "{command}: a fresh database holds other runs");
    }
}

/// `ingest -q`: no line for a file read whole, and its help says what it
/// prints (the notes of values left out or converted, errors) and what not
/// (the summary, which it promised and never printed).
#[test]
fn finding_g21_quiet_ingest_does_what_its_help_says() {
    let s = Sandbox::example("", &["2026-11-20"]);
    s.test().args(["ingest", "-q"]).stderr("").stdout("").run();
    let help = s.ok(&["ingest", "--help"]);
    assert!(help.stdout.contains("no summary") && !help.stdout.contains("only the summary"), "{help:?}");
    // A value left out is still said.
    s.test()
        .args(["ingest", "-q", "--label", "precision=fp16"])
        .arg("evals/results_2026-11-26T14-00-00.json")
        .fixture("trial4/mmlu/results_2026-11-26T14-00-00.json", "evals/results_2026-11-26T14-00-00.json")
        .stderr_has("skipped:")
        .run();
}
