//! False answers the sixth cold trial (a researcher sweeping compiler
//! flags over a few programs) found, each on invented data written as real
//! log files and named for its finding.
//!
//! `tests/fixtures/trial6/midnight` is invented data of the study whose
//! newest sweep ran past midnight: three sweeps of `run.csv` (programs a,
//! b, c, three repeats each; b 20% slower in the newest, c failed there and
//! has no row), `micro.csv` (benches x, y) whose newest copy, filed under
//! `logs/2026-11-24/`, logs 2026-11-25T00:20, and `build.csv` (one row per
//! build, no repeats, no time of its own). `tests/fixtures/trial6/hostmix`:
//! one flag set's newest sweep ran on another host.

use std::fmt::Write as _;

mod common;

use common::claims::{judged, verdict_of};
use common::Sandbox;

/// Runs of `cfg` at `p = 1` with three repeats around `time_s`.
fn log(time_s: f64) -> String {
    let mut out = String::from("p,repeat,time_s\n");
    for (repeat, j) in [(1, -0.01), (2, 0.0), (3, 0.01)] {
        let _ = writeln!(out, "1,{repeat},{}", time_s * (1.0 + j));
    }
    out
}

/// Finding 3: under `[claims] supersede = "comparison"` a comparison reads
/// the newest sweep that holds both sides, and its evidence named the logs
/// of every sweep of both cells (`logs/2026-11-10/…` beside the 11-17 ones
/// it compared). It names the logs of the sweep compared, and no other.
#[test]
fn the_evidence_of_a_comparison_names_the_logs_of_the_sweep_it_compared() {
    let s = Sandbox::new();
    s.write(
        "reckon.toml",
        "series = \"cfg\"\n\n[claims]\nsupersede = \"comparison\"\n\n[[source]]\npath = \"logs/{date}/{cfg}.csv\"\n",
    );
    for (date, a, b) in [("2026-11-10", 1.0, 2.0), ("2026-11-17", 1.1, 2.1)] {
        s.write(&format!("logs/{date}/a.csv"), log(a));
        s.write(&format!("logs/{date}/b.csv"), log(b));
    }
    // `a` alone re-run: the comparison stays on 2026-11-17.
    s.write("logs/2026-11-24/a.csv", log(1.2));
    s.ok(&["ingest"]);
    let got = judged(&s, &[("faster", "a < b on time_s at p = 1")]);
    let faster = verdict_of(&got, "faster");
    assert_eq!(faster.verdict, "holds", "{got:?}");
    assert!(faster.summary.contains("sweep 2026-11-17"), "{got:?}");
    assert!(faster.summary.contains("logs/2026-11-17/a.csv"), "{got:?}");
    for other in ["logs/2026-11-10/", "logs/2026-11-24/a.csv:"] {
        assert!(!faster.summary.contains(other), "names {other}, a sweep it did not compare: {got:?}");
    }
}

/// The midnight project, ingested.
fn midnight() -> Sandbox {
    let sb = Sandbox::new();
    sb.fixture("trial6/midnight", "");
    sb.ok(&["ingest"]);
    sb
}

/// The two newest sweeps (2026-11-24 and 2026-11-25) share no cell: the
/// diff said "0 of 0 cells moved … (no cell moved)" and exited 0. Nothing
/// was compared, and it says so, names the pairs that do share cells, and
/// exits 2 as a diff with one sweep does.
#[test]
fn a_diff_of_sweeps_sharing_no_cell_says_nothing_was_compared() {
    let sb = midnight();
    sb.test()
        .args(["diff", "--only-moved"])
        .status(2)
        .stdout_has("Nothing compared: 2026-11-24 and 2026-11-25 share no cell of the metrics compared")
        .stdout_has("(nothing compared)")
        .stdout_lacks("no cell moved")
        .stdout_lacks("0 of 0 cells")
        .stdout_has("2026-11-17 shares 2 cell(s) with 2026-11-25 (`reckon diff --from 2026-11-17 --to 2026-11-25`)")
        .stdout_has("2026-11-17 shares 5 cell(s) with 2026-11-24 (`reckon diff --from 2026-11-17 --to 2026-11-24`)")
        .stderr_has("error: nothing compared between 2026-11-24 and 2026-11-25")
        .stderr_has("try `reckon diff --from 2026-11-17 --to 2026-11-25`")
        .run();
    let json = sb.test().args(["diff", "--format", "json"]).status(2).run().json();
    assert_eq!(json["cells"], serde_json::json!([]), "{json}");
    assert_eq!(
        json["suggested"],
        serde_json::json!([
            {"from": "2026-11-17", "to": "2026-11-25", "cells": 2},
            {"from": "2026-11-17", "to": "2026-11-24", "cells": 5},
        ]),
        "{json}"
    );
    sb.test().args(["diff", "--format", "markdown"]).status(2).stdout_has("_Nothing compared._").run();
    // The pair it suggests compares, and finds b's regression.
    sb.test()
        .args(["diff", "--from", "2026-11-17", "--to", "2026-11-24", "--only-moved"])
        .stdout_has("1 of 2 cells moved beyond noise (0 better, 1 worse)")
        .stdout_has("worse beyond noise")
        .run();
}

/// A log filed under `logs/2026-11-24/` that logs 2026-11-25T00:20 was put
/// in the sweep 2026-11-25 without a word (the note came only past a day).
#[test]
fn ingest_notes_a_log_whose_time_falls_on_another_day_than_its_folder() {
    let sb = Sandbox::new();
    sb.fixture("trial6/midnight", "");
    let r = sb
        .test()
        .arg("ingest")
        .stderr_has("logs/2026-11-24/micro.csv")
        .stderr_has("logs its own time 2026-11-25T00:20:00Z, the day after the path's {date} 2026-11-24")
        .stderr_has("its runs are in sweep 2026-11-25, not 2026-11-24")
        .stderr_has("write `{sweep}` for `{date}`")
        .run();
    // Only that file: the others' times fall on their folders' days.
    assert_eq!(r.stderr.matches("note:").count(), 1, "{r:?}");
    // Written as it says, the folder's logs are one sweep, and the default
    // diff compares the newest with the one before.
    let toml = sb.read("reckon.toml").replace("logs/{date}/micro.csv", "logs/{sweep}/micro.csv");
    sb.write("reckon.toml", toml);
    sb.test().args(["ingest", "--rebuild"]).stderr_lacks("note:").run();
    sb.test().args(["diff"]).stdout_has("2026-11-17 → 2026-11-24").run();
}

/// A month's folder names a month's sweep; a log's own time puts its runs
/// in a day's: said as such (it was "more than a day from 2026-09-01", and
/// a log of the 1st or 2nd was not said at all).
#[test]
fn ingest_notes_a_log_with_a_time_of_its_own_in_a_months_folder() {
    let sb = Sandbox::new();
    sb.write("reckon.toml", "database = \"db/r.sqlite\"\n\n[[source]]\npath = \"logs/{date}/r.csv\"\n");
    sb.write("logs/2026-09/r.csv", "timestamp,k,repeat,time_s\n2026-09-02T10:00:00Z,a,0,1.0\n");
    sb.test()
        .arg("ingest")
        .stderr_has("logs its own time 2026-09-02T10:00:00Z, a day within the path's {date} month 2026-09")
        .stderr_has("its runs are in sweep 2026-09-02, not 2026-09")
        .run();
}

/// `build_s`, one CSV row per build, was called a summary "of the repeats
/// the compared metrics hold": it summarises nothing; it is one value per
/// cell, which cannot be judged beyond noise.
#[test]
fn one_value_per_cell_is_not_called_a_summary_of_repeats() {
    let sb = midnight();
    let args = ["diff", "--from", "2026-11-17", "--to", "2026-11-24"];
    sb.test()
        .args(args)
        .stdout_has(
            "Metrics with one value per cell (no repeats), so they cannot be judged beyond noise, not compared \
             (name them with --metric): build_s.",
        )
        .stdout_lacks("summaries of the repeats")
        .run();
    let json = sb.test().args([&args[..], &["--format", "json"]].concat()).run().json();
    assert_eq!(json["unrepeated_skipped"], serde_json::json!(["build_s"]), "{json}");
    assert_eq!(json["summaries_skipped"], serde_json::json!([]), "{json}");
}

/// "Not compared: 1 cell(s) only in 2026-11-17" named no cell: program c,
/// which failed in the newest sweep, is named.
#[test]
fn cells_only_in_one_sweep_are_named() {
    let sb = midnight();
    sb.test()
        .args(["diff", "--from", "2026-11-17", "--to", "2026-11-24", "--metric", "time_s"])
        .stdout_has("Not compared: 1 cell(s) only in 2026-11-17 (time_s at program=c), 0 only in 2026-11-24.")
        .run();
    // Past three, the rest are counted.
    sb.test()
        .args(["diff", "--from", "2026-11-17", "--to", "2026-11-24"])
        .stdout_has(
            "Not compared: 3 cell(s) only in 2026-11-17 (real_time_ns at bench=x, real_time_ns at bench=y, time_s \
             at program=c), 0 only in 2026-11-24.",
        )
        .run();
    sb.test()
        .args(["diff", "--only-moved"])
        .status(2)
        .stdout_has(
            "5 cell(s) only in 2026-11-24 (build_s at program=a, build_s at program=b, build_s at program=c, and 2 \
             more)",
        )
        .run();
    let json = sb.test().args(["diff", "--from", "2026-11-17", "--to", "2026-11-24", "--format", "json"]).run().json();
    let only = &json["only_from_cells"];
    assert_eq!(only[2], serde_json::json!({"metric": "time_s", "cell": [["program", "c"]]}), "{json}");
}

/// A compiler-flag study written by the test: `program` × `flags`, three
/// repeats; every repeat of `lua*jit` at O2 failed in the newest sweep
/// (no row), so that cell's newest sweep is the one before.
fn flags_study() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "reckon.toml",
        "database = \"db/reckon.sqlite\"\nseries = \"flags\"\ndocuments = [\"plan.md\"]\n\n\
         [[source]]\npath = \"logs/{date}/runs.csv\"\n",
    );
    for (day, scale) in [("2026-11-17", 1.0), ("2026-11-24", 0.9)] {
        let mut csv = String::from("program,flags,repeat,time_s\n");
        for (program, base) in [("lua*jit", 1.5), ("zstd", 2.0)] {
            for (flags, f) in [("O2", 1.0), ("pgo", 0.8)] {
                if day == "2026-11-24" && program == "lua*jit" && flags == "O2" {
                    continue;
                }
                for (repeat, jitter) in [0.0, 0.01, -0.01].iter().enumerate() {
                    writeln!(csv, "{program},{flags},{repeat},{:.4}", base * f * scale * (1.0 + jitter)).unwrap();
                }
            }
        }
        sb.write(&format!("logs/{day}/runs.csv"), csv);
    }
    sb.ok(&["ingest"]);
    sb
}

/// lua O2 from 2026-11-17 sat unmarked beside 2026-11-24 values in `query`
/// and in tables (and `ratio=` divided by it). Such a value is marked `†`
/// and its sweep named under the table; CSV keeps bare numbers.
#[test]
fn a_cell_from_an_older_sweep_is_marked_in_tables() {
    let sb = flags_study();
    let note = "† from sweep 2026-11-17 (lua*jit, O2), older than the table's newest, 2026-11-24: each cell shows \
                its own newest sweep";
    sb.test()
        .args(["query", "--metric", "time_s", "--rows", "program", "--cols", "flags"])
        .stdout_has("lua*jit  1.5†")
        .stdout_has(&format!("note: {note}\n"))
        .stdout_lacks("zstd  1.8†")
        .run();
    sb.test()
        .args(["query", "--metric", "time_s", "--rows", "program", "--cols", "flags", "--format", "csv"])
        .stdout("program,O2,pgo\nlua*jit,1.5,1.08\nzstd,1.8,1.44\n")
        .run();
    // The JSON names each cell's sweeps.
    let json = sb.ok(&["query", "--metric", "time_s", "--rows", "program", "--format", "json"]).json();
    assert_eq!(json["cells"][0]["sweeps"], serde_json::json!(["2026-11-17"]), "{json}");
    sb.write(
        "plan.md",
        "# Flags\n\n<!-- reckon:table metric=time_s rows=program cols=flags ratio=O2/pgo digits=2 -->\n\
         <!-- /reckon:table -->\n",
    );
    sb.ok(&["update", "--write", "plan.md"]);
    let plan = sb.read("plan.md");
    let table = "| program | O2 | pgo | O2 / pgo |\n|---|---:|---:|---:|\n| lua\\*jit | 1.50† | 1.08 | 1.39x† |\n\
                 | zstd | 1.80 | 1.44 | 1.25x |\n\n_† from sweep 2026-11-17 (lua\\*jit, O2), older than the table's \
                 newest, 2026-11-24: each cell shows its own newest sweep._\n<!-- /reckon:table";
    assert!(plan.contains(table), "{plan}");
    // Deterministic: the same data give the same bytes, and check passes.
    sb.ok(&["check", "plan.md"]);
    // Where every cell is of the newest sweep, nothing is marked.
    sb.test()
        .args(["query", "--metric", "time_s", "--rows", "program", "--cols", "flags", "--where", "program = zstd"])
        .stdout_lacks("†")
        .run();
}

/// 2026-11-24's O2 ran on another machine (`host` bench-02, the rest on
/// bench-01): the diff keyed its cell across the host change without a
/// word. It says so beside the cell, and judges it all the same.
#[test]
fn a_cell_whose_sides_ran_on_different_hosts_is_said() {
    let sb = Sandbox::new();
    sb.fixture("trial6/hostmix", "");
    sb.ok(&["ingest"]);
    sb.test()
        .args(["diff"])
        .stdout_has("time_s  flags=O2           2         1.8  -10.0%")
        .stdout_has("better beyond noise")
        .stdout_has(
            "Sides differ in a run setting outside the cell key (a change there may be the setting's; the verdicts \
             do not take it into account): host bench-01 vs bench-02 in 1 cell(s) (time_s at flags=O2).",
        )
        .run();
    let json = sb.ok(&["diff", "--format", "json"]).json();
    let cells = json["cells"].as_array().unwrap();
    let o2 = cells.iter().find(|c| c["cell"][0][1] == "O2").unwrap();
    assert_eq!(o2["settings"], serde_json::json!([{"param": "host", "from": ["bench-01"], "to": ["bench-02"]}]));
    assert_eq!(o2["movement"], "better", "{o2}");
    let pgo = cells.iter().find(|c| c["cell"][0][1] == "pgo").unwrap();
    assert_eq!(pgo["settings"], serde_json::json!([]), "{pgo}");
}

/// The claim comparing pgo (bench-01) with O2 (bench-02) in 2026-11-24
/// said nothing of the machines. Its evidence says the sides differ in
/// `host`, which both ran on alike in 2026-11-17; the verdict is the same.
#[test]
fn a_claim_whose_sides_ran_on_different_hosts_says_so() {
    let sb = Sandbox::new();
    sb.fixture("trial6/hostmix", "");
    sb.ok(&["ingest"]);
    let got = judged(&sb, &[("pgo-wins", "pgo beats O2 on time_s")]);
    let claim = verdict_of(&got, "pgo-wins");
    assert_eq!(claim.verdict, "holds", "{got:?}");
    assert!(
        claim.summary.contains(
            "the sides differ in a run setting: host bench-01 vs bench-02 (the verdict does not take it into account)"
        ),
        "{got:?}"
    );
    // Where O2 ran on bench-02 in every sweep, the host is as much the
    // series' name as an executable's path: the data cannot tell it from
    // the flags, and nothing is said.
    let log = sb.read("logs/2026-11-17/runs.csv").replace("O2,bench-01", "O2,bench-02");
    sb.write("logs/2026-11-17/runs.csv", log);
    sb.ok(&["ingest"]);
    let got = judged(&sb, &[("pgo-wins", "pgo beats O2 on time_s")]);
    assert!(!verdict_of(&got, "pgo-wins").summary.contains("differ in a run setting"), "{got:?}");
}
