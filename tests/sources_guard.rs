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
