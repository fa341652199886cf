//! A check's scan of the logs settles each unchanged log as the template
//! finds it, before its labels are built (issue 25). What it settles must be
//! exactly what a fresh database would hold: after each change below —
//! labels given by reckon.toml changed, a log moved to another path, a log
//! rewritten within the second of its ingest, a `sweep` label set, a log
//! deleted, appended to or added among many settled ones — the kept
//! database holds what one built from nothing holds. `--no-ingest`
//! trusts the database and looks at no log.

mod common;

use std::path::Path;
use std::time::{Duration, SystemTime};

use common::Sandbox;

const TOML: &str = "database = \"db/reckon.sqlite\"
documents = [\"plan.md\"]

[[source]]
path = \"results/{date}/{kernel}-{batch}.csv\"
labels = { gpu = \"h100\" }
";

fn results(tflops: u32) -> String {
    format!("m,tflops\n1024,{tflops:06}\n2048,{:06}\n", tflops + 1)
}

fn set_mtime(path: &Path, t: SystemTime) {
    std::fs::File::options().write(true).open(path).unwrap().set_modified(t).unwrap();
}

/// Every run with its source, labels, time, params and values, without ids.
fn content(db: &Path) -> Vec<String> {
    let c = rusqlite::Connection::open(db).unwrap();
    let mut stmt = c
        .prepare(
            "SELECT s.path, s.labels, r.line, r.time, r.time_origin, r.sweep, p.params, m.name, v.value
             FROM run r JOIN source s ON s.id = r.source_id JOIN param_set p ON p.id = r.param_set_id
             JOIN measurement v ON v.run_id = r.id JOIN metric m ON m.id = v.metric_id
             ORDER BY s.path, r.line, m.name",
        )
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            let text = |i| r.get::<_, String>(i);
            Ok(format!(
                "{} {} {} {} {} {} {} {}={}",
                text(0)?,
                text(1)?,
                r.get::<_, i64>(2)?,
                text(3)?,
                text(4)?,
                text(5)?,
                text(6)?,
                text(7)?,
                r.get::<_, f64>(8)?
            ))
        })
        .unwrap();
    rows.map(Result::unwrap).collect()
}

/// Runs `check` on the kept database, then builds a fresh one from the same
/// files, and compares them.
fn check_like_fresh(s: &Sandbox, after: &str) {
    let r = s.run(&["check"]);
    assert!(r.code == 0 || r.code == 1, "{r:?}");
    let fresh = s.path().join("fresh.sqlite");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", fresh.display()));
    }
    s.ok(&["--db", fresh.to_str().unwrap(), "ingest", "--quiet"]);
    let (kept, built) = (content(&s.db()), content(&fresh));
    assert!(!built.is_empty());
    assert_eq!(kept, built, "after {after}, the kept database differs from a fresh one");
}

/// A project whose logs were written an hour ago (past the racy window).
fn project() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", TOML);
    s.write("plan.md", "# Kernels\n\nWhere the GEMM time goes.\n");
    let an_hour_ago = SystemTime::now() - Duration::from_secs(3600);
    for (rel, t) in [("2026-11-20/gemm-8", 180), ("2026-11-20/conv-8", 90), ("2026-11-21/gemm-16", 185)] {
        let p = s.write(&format!("results/{rel}.csv"), results(t));
        set_mtime(&p, an_hour_ago);
    }
    s
}

#[test]
fn a_check_settles_only_logs_the_store_holds_with_their_labels_and_time() {
    let s = project();
    check_like_fresh(&s, "the first ingest");
    check_like_fresh(&s, "nothing changed");

    // The labels reckon.toml gives change: every log is relabelled.
    s.write("reckon.toml", TOML.replace("h100", "b200"));
    check_like_fresh(&s, "a label of the source changed");
    assert!(content(&s.db()).iter().all(|r| r.contains("\"gpu\":\"b200\"")));

    // A label of the source now given for a name the path captures: the
    // label wins over the capture.
    s.write("reckon.toml", TOML.replace("gpu = \"h100\"", "gpu = \"h100\", batch = \"32\""));
    check_like_fresh(&s, "a label over a capture");
    assert!(content(&s.db()).iter().all(|r| r.contains("\"batch\":32")));

    // A sweep label fixes every log's time.
    s.write("reckon.toml", TOML.replace("gpu = \"h100\"", "gpu = \"h100\", sweep = \"2026-12\""));
    check_like_fresh(&s, "a sweep label");
    s.write("reckon.toml", TOML);
    check_like_fresh(&s, "the sweep label gone");

    // A log moved to another path the template reads, its bytes and mtime
    // kept: the old path is gone, the new one is new.
    let from = s.path().join("results/2026-11-20/conv-8.csv");
    let to = s.path().join("results/2026-11-22/conv-8.csv");
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::rename(&from, &to).unwrap();
    check_like_fresh(&s, "a log moved to another date");
    assert!(content(&s.db()).iter().any(|r| r.starts_with("results/2026-11-22/conv-8.csv")));

    // A log written, checked, and rewritten within the same second with the
    // same size, its mtime put back: still read again.
    let racy = s.write("results/2026-11-23/attn-8.csv", results(70));
    s.run(&["check"]);
    let written = std::fs::metadata(&racy).unwrap().modified().unwrap();
    std::fs::write(&racy, results(71)).unwrap();
    set_mtime(&racy, written);
    check_like_fresh(&s, "a rewrite within the second of its ingest");
    assert!(content(&s.db()).iter().any(|r| r.starts_with("results/2026-11-23/attn-8.csv") && r.ends_with("=71")));
}

#[test]
fn check_no_ingest_trusts_the_database_and_looks_at_no_log() {
    let s = project();
    s.ok(&["ingest", "--quiet"]);
    let before = s.counts();
    std::fs::remove_file(s.path().join("results/2026-11-21/gemm-16.csv")).unwrap();
    let r = s.run(&["check", "--no-ingest"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("gone"), "{r:?}");
    assert_eq!(s.counts(), before, "--no-ingest leaves the database as it is");
    let r = s.run(&["check"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(s.counts().0, before.0 - 1, "a check without --no-ingest forgets the gone log");
}

#[test]
fn one_check_among_many_settled_logs_catches_each_change_and_only_those() {
    let s = project();
    let an_hour_ago = SystemTime::now() - Duration::from_secs(3600);
    // Many logs a folder, many folders: their captures read a folder at a time.
    for date in ["2026-11-24", "2026-11-25", "2026-11-26"] {
        for (kernel, t) in [("gemm", 100), ("conv", 50), ("attn", 30)] {
            for batch in [8, 16] {
                let p = s.write(&format!("results/{date}/{kernel}-{batch}.csv"), results(t + batch));
                set_mtime(&p, an_hour_ago);
            }
        }
    }
    check_like_fresh(&s, "the first ingest");
    let before = s.counts();
    // In one check: a log deleted, one appended to, one new, the rest as
    // they were.
    std::fs::remove_file(s.path().join("results/2026-11-25/conv-8.csv")).unwrap();
    let appended = s.path().join("results/2026-11-24/attn-16.csv");
    let mut text = std::fs::read_to_string(&appended).unwrap();
    text.push_str("4096,000077\n");
    std::fs::write(&appended, text).unwrap();
    set_mtime(&appended, an_hour_ago + Duration::from_secs(60));
    s.write("results/2026-11-26/norm-8.csv", results(12));
    check_like_fresh(&s, "a deletion, an append and a new log among settled ones");
    // Each change counted once: one log less and one more; two runs gone
    // with the deleted log, two new, one appended.
    let after = s.counts();
    assert_eq!((after.0, after.1), (before.0, before.1 + 1), "{before:?} then {after:?}");
    check_like_fresh(&s, "nothing changed since");
    assert_eq!(s.counts(), after, "a check of nothing changed changes nothing");
}
