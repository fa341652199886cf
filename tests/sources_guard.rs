//! Which files an ingest reads and what it does to the store when it
//! refuses a request, in the form a reliability pass found them (issue 21):
//! templates refused before the store is touched, symlinks out of the
//! project, loops under `**`, the same bytes at two paths, a configured log
//! ingested by hand, a damaged database.
#![cfg(unix)]

mod common;

use common::Sandbox;

/// One `SGLang` JSONL record with this throughput.
fn line(throughput: f64) -> String {
    format!("{{\"backend\":\"sglang\",\"max_concurrency\":1,\"completed\":16,\"output_throughput\":{throughput}}}\n")
}

#[test]
fn finding_10_a_refused_template_removes_nothing() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"config\"\n[[source]]\npath = \"logs/{config}.jsonl\"\n");
    s.write("logs/a1.jsonl", line(1.0));
    s.write("logs/b2.jsonl", line(2.0));
    s.ok(&["ingest"]);
    assert_eq!(s.counts().1, 2);
    let r = s.run(&["ingest", "logs/{a}{b}.jsonl"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("`{a}` and `{b}` are side by side"), "{r:?}");
    assert!(!r.stderr.contains("position"), "no position in an internal glob: {r:?}");
    assert!(!r.stderr.contains("removed"), "{r:?}");
    assert_eq!(s.counts().1, 2, "both logs are still on disk: their runs stay");
    // Nor does one refused for its labels, or for a capture beside a `*`,
    // even when a file it covers is gone meanwhile.
    std::fs::remove_file(s.path().join("logs/b2.jsonl")).unwrap();
    let r = s.run(&["ingest", "logs/{config}.jsonl", "--label", "time=x"]);
    assert_eq!(r.code, 2, "{r:?}");
    let r = s.run(&["ingest", "logs/{config}*.jsonl"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("`{config}` and `*` are side by side"), "{r:?}");
    assert_eq!(s.counts().1, 2, "a refused command leaves the store as it was");
}

#[test]
fn finding_15_a_damaged_database_says_to_rebuild_and_rebuild_replaces_it() {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    s.ok(&["ingest"]);
    let query = ["query", "--metric", "output_throughput", "--rows", "max_concurrency", "--cols", "config"];
    let good = s.ok(&query).stdout;
    // A copy cut short: every page past the middle is gone.
    let c = rusqlite::Connection::open(s.db()).unwrap();
    c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())).unwrap();
    drop(c);
    let size = std::fs::metadata(s.db()).unwrap().len();
    std::fs::OpenOptions::new().write(true).open(s.db()).unwrap().set_len(size / 2).unwrap();
    for args in [&["check", "notebooks/eagle-fast-verify.md"][..], &query[..]] {
        let r = s.run(args);
        assert_eq!(r.code, 2, "{r:?}");
        assert!(r.stderr.contains("is damaged (database disk image is malformed)"), "{r:?}");
        assert!(r.stderr.contains("run `reckon ingest --rebuild`"), "{r:?}");
    }
    let r = s.ok(&["ingest", "--rebuild", "--quiet"]);
    assert!(!r.stderr.contains("damaged"), "{r:?}");
    assert_eq!(s.ok(&query).stdout, good, "the rebuilt cache answers as before");
    let c = rusqlite::Connection::open(s.db()).unwrap();
    let ok: String = c.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(ok, "ok");
    let left: Vec<_> = std::fs::read_dir(s.path().join("db")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().contains("rebuild")), "no temporary file left: {left:?}");
}

#[test]
fn finding_03_a_source_never_reads_outside_the_project() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("config.json");
    std::fs::write(&secret, "{\n\t\"auths\": {\"ghcr.io\": {\"auth\": \"dXNlcjpnaHBfU0VDUkVU\"}}\n}\n").unwrap();
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"config\"\n[[source]]\npath = \"logs/{name}.jsonl\"\n");
    s.write("logs/a.jsonl", line(1.0));
    std::os::unix::fs::symlink(&secret, s.path().join("logs/bench.jsonl")).unwrap();
    // A link that stays inside the project is followed.
    s.write("archive/old.jsonl", line(2.0));
    std::os::unix::fs::symlink("../archive/old.jsonl", s.path().join("logs/old.jsonl")).unwrap();
    s.write("doc.md", "<!-- reckon:sql query=\"select params from param_set\" -->\n<!-- /reckon:sql -->\n");
    let r = s.run(&["check", "doc.md"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(!r.stdout.contains("dXNlcjpnaHBfU0VDUkVU") && !r.stderr.contains("dXNlcjpnaHBfU0VDUkVU"), "{r:?}");
    let link = format!("logs/bench.jsonl: is a symlink to {}, outside the project", secret.display());
    assert!(r.stderr.contains(&link), "{r:?}");
    assert_eq!(s.counts().0, 2, "a.jsonl and old.jsonl");
    // Named by itself (a path, not a glob) it is refused too.
    let r = s.run(&["ingest", "logs/bench.jsonl"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("outside the project"), "{r:?}");
    // reckon.toml's sources stay inside the project.
    for path in ["../outside/{x}.json", "/etc/{x}"] {
        s.write("reckon.toml", format!("series = \"config\"\n[[source]]\npath = \"{path}\"\n"));
        let r = s.run(&["ingest"]);
        assert_eq!(r.code, 2, "{r:?}");
        assert!(r.stderr.contains(&format!("source `{path}`: a source is a path inside the project")), "{r:?}");
    }
    // A log outside the project named on the command line is the
    // researcher's choice.
    std::fs::write(outside.path().join("run.jsonl"), line(5.0)).unwrap();
    s.write("reckon.toml", "series = \"config\"\n");
    s.ok(&["ingest", outside.path().join("run.jsonl").to_str().unwrap()]);
}

#[test]
fn finding_20_a_symlink_loop_under_double_star_is_walked_once() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"config\"\n[[source]]\npath = \"logs/**/{config}.jsonl\"\n");
    s.write("logs/a/x.jsonl", line(1.0));
    for l in ["l1", "l2", "l3"] {
        std::os::unix::fs::symlink("..", s.path().join("logs/a").join(l)).unwrap();
    }
    let r = s.test().args(["ingest"]).within(std::time::Duration::from_secs(20)).output();
    assert_eq!(r.code, 0, "{r:?}");
    let c = rusqlite::Connection::open(s.db()).unwrap();
    let paths: Vec<String> = c
        .prepare("SELECT path FROM source")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(paths, ["logs/a/x.jsonl"]);
}

#[test]
fn finding_09_the_same_bytes_at_two_labelled_paths_are_two_sources_in_any_order() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"config\"\n[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n");
    s.write("logs/2026-11-01/a.jsonl", line(100.0));
    s.write("logs/2026-11-08/a.jsonl", line(100.0));
    s.write("logs/2026-11-01/b.jsonl", line(50.0));
    s.write("logs/2026-11-08/b.jsonl", line(150.0));
    let sweeps = |s: &Sandbox| {
        let c = rusqlite::Connection::open(s.db()).unwrap();
        let sql = "SELECT r.sweep || ' ' || s.path FROM run r JOIN source s ON s.id = r.source_id ORDER BY 1";
        let rows: Vec<String> =
            c.prepare(sql).unwrap().query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
        rows
    };
    let r = s.ok(&["ingest"]);
    assert!(!r.stderr.contains("already ingested"), "{r:?}");
    let all = [
        "2026-11-01 logs/2026-11-01/a.jsonl",
        "2026-11-01 logs/2026-11-01/b.jsonl",
        "2026-11-08 logs/2026-11-08/a.jsonl",
        "2026-11-08 logs/2026-11-08/b.jsonl",
    ];
    assert_eq!(sweeps(&s), all);
    // Another order of ingest, into a fresh database, answers the same.
    std::fs::remove_dir_all(s.path().join("db")).unwrap();
    s.ok(&["ingest", "logs/2026-11-08/a.jsonl"]);
    s.ok(&["ingest"]);
    assert_eq!(sweeps(&s), all);
}

#[test]
fn finding_04_a_document_symlinked_out_of_the_project_is_neither_read_nor_written() {
    let s = Sandbox::example("", &["2026-11-29"]);
    let outside = tempfile::tempdir().unwrap();
    let notes = outside.path().join("notes.txt");
    std::fs::write(&notes, "user: alice\npassword = hunter2-OUTSIDE\n").unwrap();
    let plan = outside.path().join("plan.md");
    let table =
        "<!-- reckon:table metric=output_throughput rows=max_concurrency cols=config -->\n<!-- /reckon:table -->\n";
    std::fs::write(&plan, table).unwrap();
    std::os::unix::fs::symlink(&notes, s.path().join("notebooks/notes.md")).unwrap();
    std::os::unix::fs::symlink(&plan, s.path().join("notebooks/plan.md")).unwrap();
    // A link that stays inside the project is a document like any other.
    s.write("drafts/inside.md", table);
    std::os::unix::fs::symlink("../drafts/inside.md", s.path().join("notebooks/inside.md")).unwrap();
    let r = s.run(&["report", "notebooks/notes.md", "--out", "site/"]);
    assert_eq!(r.code, 2, "{r:?}");
    let link = format!("notebooks/notes.md: is a symlink to {}, outside the project", notes.display());
    assert!(r.stderr.contains(&link), "{r:?}");
    assert!(!s.path().join("site/notes.html").exists(), "{r:?}");
    let r = s.run(&["update", "--write"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("notebooks/plan.md: is a symlink to"), "{r:?}");
    assert_eq!(std::fs::read_to_string(&plan).unwrap(), table, "another project's file is left as it was");
    assert!(s.read("drafts/inside.md").contains("| 1 "), "the link inside the project is written through");
    for command in ["claims", "lint"] {
        let r = s.run(&[command, "notebooks/notes.md"]);
        assert_eq!(r.code, 2, "{r:?}");
        assert!(r.stderr.contains(&link) && !r.stdout.contains("hunter2"), "{r:?}");
    }
}

#[test]
fn finding_12_a_configured_log_ingested_by_its_path_keeps_its_sources_labels() {
    let s = Sandbox::new();
    common::copy_dir(&common::scenario_logs().join("2026-11-29"), &s.path().join("logs/2026-11-29"));
    s.write("reckon.toml", "series = \"config\"\n[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n");
    s.ok(&["ingest"]);
    let query =
        ["query", "--metric", "output_throughput", "--rows", "max_concurrency", "--cols", "config", "--format", "csv"];
    let before = s.ok(&query).stdout;
    assert!(before.starts_with("max_concurrency,baseline,"), "{before}");
    let runs = s.counts();
    // Touched (so it is read again), then ingested by its path, alone.
    let log = s.path().join("logs/2026-11-29/baseline.jsonl");
    let bytes = std::fs::read(&log).unwrap();
    std::fs::write(&log, &bytes).unwrap();
    s.ok(&["ingest", "logs/2026-11-29/baseline.jsonl"]);
    assert_eq!(s.ok(&query).stdout, before, "the log keeps its config and its sweep");
    assert_eq!(s.counts(), runs);
    // A label for it is refused, saying where its labels come from.
    let r = s.run(&["ingest", "--label", "config=other", "logs/2026-11-29/baseline.jsonl"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("is a log of the source `logs/{date}/{config}.jsonl` in reckon.toml"), "{r:?}");
    assert_eq!(s.ok(&query).stdout, before);
}
