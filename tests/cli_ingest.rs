//! End-to-end: `reckon ingest`, `runs` and `query` on the scenario's real
//! logs, and every kind of bad input refused cleanly with nothing half-done.

mod common;
use common::Sandbox;

const SCENARIO: [&str; 2] = ["logs/{date}/{config}.jsonl", "logs/{date}/{config}.log"];

fn query_csv(s: &Sandbox, extra: &[&str]) -> Vec<Vec<String>> {
    let mut args = vec![
        "query",
        "--metric",
        "output_throughput",
        "--rows",
        "max_concurrency",
        "--cols",
        "config",
        "--format",
        "csv",
    ];
    args.extend_from_slice(extra);
    let out = s.ok(&args).stdout;
    out.lines().map(|l| l.split(',').map(str::to_string).collect()).collect()
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

#[test]
fn scenario_ingests_into_two_sweeps_and_reproduces_the_new_table() {
    let s = Sandbox::with_scenario();
    let r = s.ok(&["ingest", SCENARIO[0], SCENARIO[1]]);
    assert!(r.stderr.contains("ingested 5 file(s), 121 run(s)"), "{r:?}");
    assert_eq!(s.counts().0, 5);
    assert_eq!(s.counts().1, 3 * 33 + 2 * 11);

    // The 2026-11-29 table of the scenario README: medians of three repeats.
    let expected: [(f64, [f64; 3]); 11] = [
        (1.0, [92.7, 86.8, 96.4]),
        (2.0, [175.0, 176.1, 152.3]),
        (4.0, [318.2, 329.5, 224.0]),
        (8.0, [462.5, 489.0, 287.9]),
        (16.0, [598.3, 642.7, 321.9]),
        (30.0, [689.4, 759.3, 341.0]),
        (50.0, [731.6, 768.4, 349.8]),
        (100.0, [773.0, 775.2, 353.2]),
        (150.0, [765.2, 771.0, 352.6]),
        (200.0, [741.0, 762.8, 351.9]),
        (250.0, [718.1, 754.4, 350.4]),
    ];
    let table = query_csv(&s, &[]);
    assert_eq!(table[0], ["max_concurrency", "baseline", "eagle-topk1-v2", "eagle-topk4-v1"]);
    assert_eq!(table.len(), 12, "{table:?}");
    for (row, (c, vals)) in table[1..].iter().zip(expected) {
        assert_eq!(num(&row[0]), c);
        for (cell, v) in row[1..].iter().zip(vals) {
            assert_eq!(num(cell), v, "concurrency {c}: {row:?}");
        }
    }

    // The old sweep, selected by its date: one run per cell, from stdout logs.
    let old = query_csv(&s, &["--where", "date = 2026-11-20"]);
    assert_eq!(old[0], ["max_concurrency", "baseline", "eagle-topk4-v1"]);
    let old_expected: [(f64, f64, f64); 11] = [
        (1.0, 93.10, 96.00),
        (2.0, 174.20, 150.40),
        (4.0, 316.00, 219.80),
        (8.0, 458.90, 286.50),
        (16.0, 592.40, 317.60),
        (30.0, 641.80, 329.50),
        (50.0, 690.30, 334.90),
        (100.0, 735.60, 335.80),
        (150.0, 773.00, 336.10),
        (200.0, 769.40, 335.20),
        (250.0, 757.20, 333.00),
    ];
    for (row, (c, b, e)) in old[1..].iter().zip(old_expected) {
        assert_eq!((num(&row[0]), num(&row[1]), num(&row[2])), (c, b, e));
    }
}

#[test]
fn the_same_bytes_twice_add_nothing() {
    let s = Sandbox::with_scenario();
    s.ok(&["ingest", SCENARIO[0]]);
    let before = s.counts();
    let r = s.ok(&["ingest", SCENARIO[0], "logs/2026-11-29/baseline.jsonl"]);
    assert!(r.stderr.contains("already ingested"), "{r:?}");
    assert!(r.stderr.contains("ingested 0 file(s), 0 run(s); 4 already present"), "{r:?}");
    assert_eq!(s.counts(), before);
}

#[test]
fn runs_say_where_their_time_came_from() {
    let s = Sandbox::with_scenario();
    s.ok(&["ingest", SCENARIO[0]]);
    let r = s.ok(&["runs", "--limit", "0", "--format", "json"]);
    let runs: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(runs.as_array().unwrap().len(), 99);
    assert_eq!(runs[0]["time_origin"], "path");
    assert_eq!(runs[0]["sweep"], "2026-11-29");
    assert_eq!(runs[0]["params"]["config"], "baseline");
    let table = s.ok(&["runs", "--limit", "3"]).stdout;
    assert!(table.contains("2026-11-29T00:00:00Z (path)"), "{table}");
    assert_eq!(table.lines().count(), 4, "{table}");
}

#[test]
fn a_truncated_line_refuses_the_whole_file_and_keeps_the_others() {
    let s = Sandbox::with_scenario();
    let good = s.read("logs/2026-11-29/baseline.jsonl");
    let mut lines: Vec<&str> = good.lines().collect();
    let cut = &lines[4][..lines[4].len() / 2].to_string();
    lines[4] = cut;
    s.write("bad/truncated.jsonl", lines.join("\n"));
    let r = s.run(&["ingest", "bad/truncated.jsonl", "logs/2026-11-29/eagle-topk1-v2.jsonl"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("bad/truncated.jsonl:5:"), "{r:?}");
    let (sources, runs, _) = s.counts();
    assert_eq!((sources, runs), (1, 33), "only the good file went in");
    let r = s.run(&["ingest", "--fail-fast", "bad/truncated.jsonl", "logs/2026-11-29/baseline.jsonl"]);
    assert_eq!(r.code, 2);
    assert_eq!(s.counts().0, 1, "--fail-fast stops at the first bad file");
}

#[test]
fn bad_inputs_get_clear_errors_and_change_nothing() {
    let s = Sandbox::with_scenario();
    s.ok(&["ingest", "logs/2026-11-29/baseline.jsonl"]);
    let before = s.counts();
    s.write("notes.txt", "Meeting notes: we should try EAGLE-3 next week.\nNothing to see here.\n");
    s.write("empty.jsonl", "");
    s.write("blob.bin", [0u8, 159, 146, 150, 0, 1, 2, 3, 255, 254].repeat(100));
    std::fs::create_dir_all(s.path().join("adir")).unwrap();
    let cases: [(&str, &str); 6] = [
        ("notes.txt", "notes.txt"),
        ("empty.jsonl", "empty"),
        ("blob.bin", "blob.bin"),
        ("adir", "is a directory"),
        ("missing.jsonl", "no such file"),
        ("logs/{date}/{config}.csv", "matched no file"),
    ];
    for (arg, needle) in cases {
        let r = s.run(&["ingest", arg]);
        assert_eq!(r.code, 2, "{arg}: {r:?}");
        assert!(r.stderr.contains(needle), "{arg}: expected {needle:?} in\n{r:?}");
        assert!(r.stderr.starts_with("error: "), "{arg}: {r:?}");
        assert_eq!(s.counts(), before, "{arg} changed the database");
    }
}

#[test]
fn a_database_that_is_not_sqlite_is_refused_and_left_alone() {
    let s = Sandbox::with_scenario();
    let junk = "this is my thesis draft, not a database\n".repeat(50);
    s.write("db/reckon.sqlite", &junk);
    let r = s.run(&["ingest", SCENARIO[0]]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("not a SQLite database"), "{r:?}");
    assert_eq!(s.read("db/reckon.sqlite"), junk);
}

#[test]
fn a_read_only_database_is_refused_and_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let s = Sandbox::with_scenario();
    s.ok(&["ingest", "logs/2026-11-29/baseline.jsonl"]);
    let before = s.counts();
    std::fs::set_permissions(s.db(), std::fs::Permissions::from_mode(0o444)).unwrap();
    let r = s.run(&["ingest", "logs/2026-11-29/eagle-topk1-v2.jsonl"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("read-only"), "{r:?}");
    std::fs::set_permissions(s.db(), std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(s.counts(), before);
}

#[test]
fn two_concurrent_ingests_lose_nothing_and_duplicate_nothing() {
    let s = Sandbox::with_scenario();
    // Many small files so the two processes interleave.
    let base = s.read("logs/2026-11-29/baseline.jsonl");
    for (i, line) in base.lines().enumerate() {
        s.write(&format!("many/2026-11-29/c{i:02}.jsonl"), format!("{line}\n"));
    }
    let a = s.command(&["ingest", "-q", "many/{date}/{config}.jsonl", SCENARIO[0]]).spawn().unwrap();
    let b = s.command(&["ingest", "-q", SCENARIO[0], "many/{date}/{config}.jsonl", SCENARIO[1]]).spawn().unwrap();
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    // The 33 one-line files repeat lines of baseline.jsonl but are other bytes, so they count.
    assert_eq!(s.counts().0, 33 + 5);
    assert_eq!(s.counts().1, 33 + 121);
    let again = s.ok(&["ingest", "many/{date}/{config}.jsonl", SCENARIO[0], SCENARIO[1]]);
    assert!(again.stderr.contains("ingested 0 file(s)"), "{again:?}");
}

#[test]
fn labels_come_from_the_command_line_and_reckon_toml() {
    let s = Sandbox::with_scenario();
    s.ok(&["ingest", "--label", "config=baseline", "--label", "gpu=rtx-pro-6000", "logs/2026-11-29/baseline.jsonl"]);
    let r = s.ok(&["runs", "--limit", "1", "--format", "json"]);
    let runs: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(runs[0]["params"]["gpu"], "rtx-pro-6000");
    assert_eq!(runs[0]["params"]["config"], "baseline");

    let t = Sandbox::with_scenario();
    t.write(
        "reckon.toml",
        "[[source]]\npath = \"logs/{date}/{config}.jsonl\"\nlabels = { model = \"kimi-k2.5\" }\n\n\
         [[source]]\npath = \"logs/{date}/{config}.log\"\nlabels = { model = \"kimi-k2.5\" }\n",
    );
    std::fs::create_dir_all(t.path().join("sub/dir")).unwrap();
    let r = Sandbox::run_in(&t, "sub/dir", &["ingest"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(t.counts().1, 121, "reckon.toml found from a subfolder, sources resolved from its folder");
    let r = t.ok(&["runs", "--limit", "1", "--format", "json"]);
    assert!(r.stdout.contains("\"model\": \"kimi-k2.5\""), "{r:?}");
}

impl Sandbox {
    fn run_in(&self, sub: &str, args: &[&str]) -> common::Ran {
        let mut c = self.command(args);
        c.current_dir(self.path().join(sub));
        let out = c.output().unwrap();
        common::Ran {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into(),
            stderr: String::from_utf8_lossy(&out.stderr).into(),
        }
    }
}

#[test]
fn re_ingesting_a_path_with_other_labels_relabels_it_and_a_copy_elsewhere_is_a_source_of_its_own() {
    let s = Sandbox::with_scenario();
    s.ok(&["ingest", "logs/2026-11-29/baseline.jsonl"]);
    let before = s.counts();
    // The path's runs are replaced with the labels given now, as an empty
    // database would hold them: nothing is added beside them.
    s.ok(&["ingest", "--label", "config=baseline", "logs/2026-11-29/baseline.jsonl"]);
    assert_eq!(s.counts(), before);
    let r = s.ok(&["runs", "--limit", "0", "--where", "config = baseline", "--format", "json"]);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&r.stdout).unwrap().as_array().unwrap().len(), 33);
    // The same labels again: nothing to say beyond "already ingested".
    let r = s.ok(&["ingest", "-q", "--label", "config=baseline", "logs/2026-11-29/baseline.jsonl"]);
    assert_eq!(r.stderr, "", "{r:?}");
    // The same bytes under another path are a source of their own, with
    // the labels given for it (a re-run that printed the same numbers).
    std::fs::copy(s.path().join("logs/2026-11-29/baseline.jsonl"), s.path().join("copy.jsonl")).unwrap();
    let r = s.ok(&["ingest", "--label", "config=other", "copy.jsonl"]);
    assert!(r.stderr.contains("copy.jsonl: 33 runs"), "{r:?}");
    assert_eq!(s.counts(), (before.0 + 1, before.1 + 33, before.2 * 2));
    let r = s.ok(&["runs", "--limit", "0", "--where", "config = other", "--format", "json"]);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&r.stdout).unwrap().as_array().unwrap().len(), 33);
}

#[test]
fn a_csv_with_a_short_row_is_refused_at_that_row() {
    let s = Sandbox::new();
    s.write(
        "sweep.csv",
        "config,concurrency,tput\nbaseline,1,92.7\nbaseline,2,175.0\nbaseline,4\nbaseline,8,462.5\nbaseline,16,598.3\n",
    );
    let r = s.run(&["ingest", "sweep.csv"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("error: sweep.csv:4: this row has 2 fields but the header has 3"), "{r:?}");
    assert_eq!(s.counts().1, 0);
}

#[test]
fn a_template_with_a_character_set_keeps_the_labels_it_captures() {
    let s = Sandbox::new();
    let csv = |tput: &str| format!("concurrency,tput\n1,{tput}\n");
    s.write("logs/run1/baseline.csv", csv("92.7"));
    s.write("logs/run2/eagle.csv", csv("96.4"));
    s.write("logs/run3/other.csv", csv("90.0"));
    let r = s.ok(&["ingest", "./logs/run[12]/{config}.csv"]);
    assert!(r.stderr.contains("ingested 2 file(s), 2 run(s)"), "{r:?}");
    let r = s.ok(&["runs", "--format", "json"]);
    let runs: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let mut configs: Vec<(String, String)> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|run| (run["source"].as_str().unwrap().to_owned(), run["params"]["config"].to_string()))
        .collect();
    configs.sort();
    assert_eq!(
        configs,
        [
            ("logs/run1/baseline.csv".to_owned(), "\"baseline\"".to_owned()),
            ("logs/run2/eagle.csv".to_owned(), "\"eagle\"".to_owned())
        ]
    );
    let r = s.run(&["ingest", "logs/run[12/{config}.csv"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("`[` opens a set of characters that must be closed by `]`"), "{r:?}");
}

#[test]
fn a_row_that_is_not_utf8_and_a_metric_named_twice_say_where_and_what_to_do() {
    let s = Sandbox::new();
    s.write("bad.csv", b"config,tput_ms\nbase,1.5\n\xff\xfe,2.5\n");
    let r = s.run(&["ingest", "--format", "csv", "bad.csv"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("error: bad.csv:3: this row is not valid UTF-8 text; save the log as UTF-8"), "{r:?}");
    // A dotted key and a nested object flatten to the same metric name.
    s.write("dup.jsonl", "{\"cfg\": \"a\", \"t.p_ms\": 2.5, \"t\": {\"p_ms\": 3.5}}\n");
    let r = s.run(&["ingest", "dup.jsonl"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("error: dup.jsonl:1: metric `t.p_ms` appears twice in one record; a run has one value"),
        "{r:?}"
    );
    assert_eq!(s.counts().1, 0);
}

/// A folder of one tool's logs skips the same parts of each: said in full
/// for the first file, and for each file after it as one line naming it —
/// every file still says it left something, none repeats the list.
#[test]
fn the_same_skipped_parts_are_said_in_full_once() {
    let s = Sandbox::new();
    let log = "corpus/gbench/kalman-100-repetitions-aggregates.json";
    s.fixture(log, "logs/a.json").fixture(log, "logs/b.json").fixture(log, "logs/c.json");
    s.write("reckon.toml", "[[source]]\npath = \"logs/{label}.json\"\n");
    let ran = s.ok(&["ingest"]);
    let full: Vec<&str> = ran
        .stderr
        .lines()
        .skip_while(|l| !l.starts_with("logs/a.json"))
        .skip(1)
        .take_while(|l| l.starts_with("  skipped: "))
        .collect();
    assert!(full.len() >= 2, "{ran:?}");
    for later in ["logs/b.json", "logs/c.json"] {
        let at = ran.stderr.find(&format!("{later}: ")).unwrap_or_else(|| panic!("{later} not said: {ran:?}"));
        let next: Vec<&str> = ran.stderr[at..].lines().skip(1).take_while(|l| l.starts_with("  ")).collect();
        assert_eq!(next, [format!("  skipped: the same {} parts as logs/a.json", full.len())], "{ran:?}");
    }
}
