//! Lint reads a number's unit with it. A cold trial (Google Benchmark JSON,
//! `bytes_per_second` kept in B/s) wrote "zstd's throughput is 300 MB/s":
//! lint dropped `MB/s`, judged 300 against 302,565,425 B/s and reported the
//! sentence contradicted — in `check --format github` too. A unit of the
//! metric's dimension converts; one reckon does not know leaves the clause
//! unread, said under `--all`, never judged; a statement no form reads is
//! said, never dropped.

mod common;

use common::{copy_dir, fixtures, Sandbox};
use serde_json::Value;

const NOTES: &str = "# Codec notes

- With 4 KiB blocks, zstd's throughput is 300 MB/s.
- With 4 KiB blocks, zstd's throughput is 900 MB/s.
- With 4 KiB blocks, zstd's throughput is 300 img/s.
- zlib's throughput stays under 120,000,000 B/s at every block size.
";

fn codecs() -> Sandbox {
    let sb = Sandbox::new();
    copy_dir(&fixtures().join("trial-units"), sb.path());
    sb.write("notebooks/notes.md", NOTES);
    sb
}

fn statements(sb: &Sandbox) -> Vec<Value> {
    let ran = sb.run(&["lint", "--all", "--format", "json", "notebooks/notes.md"]);
    assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    v["statements"].as_array().unwrap().clone()
}

fn on_line(all: &[Value], line: u64) -> &Value {
    all.iter().find(|s| s["line"] == line).unwrap_or_else(|| panic!("no statement on line {line}: {all:#?}"))
}

#[test]
fn finding_trial_a_rate_in_mb_per_s_is_converted_to_the_metrics_b_per_s() {
    let sb = codecs();
    let all = statements(&sb);
    // 300 MB/s is the 302,565,425 B/s measured: holds, read in B/s.
    let right = on_line(&all, 3);
    assert_eq!(right["status"], "holds", "{right:#}");
    assert!(right["claim"].as_str().unwrap().ends_with("≈ 300000000"), "{right:#}");
    // 900 MB/s is not: contradicted, by −66%, not by a factor of a million.
    let wrong = on_line(&all, 4);
    assert_eq!(wrong["status"], "contradicted", "{wrong:#}");
    assert!(wrong["claim"].as_str().unwrap().ends_with("≈ 900000000"), "{wrong:#}");
    // A bound in B/s on a higher-is-better metric reads as the bound it states.
    let bound = on_line(&all, 6);
    assert_eq!(bound["claim"], "max(BM_Zlib1 on bytes_per_second for all arg1) < 120000000", "{bound:#}");
    assert_eq!(bound["status"], "stale", "{bound:#}");
}

#[test]
fn finding_trial_a_unit_reckon_does_not_know_leaves_the_sentence_unread_never_judged() {
    let sb = codecs();
    let all = statements(&sb);
    let unknown = on_line(&all, 5);
    assert_eq!(unknown["status"], "unjudged", "{unknown:#}");
    assert!(unknown["summary"].as_str().unwrap().contains("`img/s`"), "{unknown:#}");
    // And in CI only the one real contradiction and the broken bound are problems.
    let ran = sb.run(&["lint", "--format", "github", "notebooks/notes.md"]);
    let problems: Vec<&str> = ran.stdout.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(problems.len(), 2, "{ran:?}");
    assert!(problems.iter().all(|l| !l.contains("line=5,")), "{ran:?}");
}
