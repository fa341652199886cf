//! `reckon lint` on a study in another domain: which compression codec for a
//! log archive (`tests/fixtures/lint-codecs/`: zstd, lz4 and brotli at four
//! block sizes, five trials each, one CSV; no `[points]` in reckon.toml).
//! Three misreadings a cold trial found, each pinned here:
//! - a repeat marker (`trial`) was taken for the points a sentence without
//!   a point speaks of (`at every block size` → `for all trial`);
//! - `slower` was read as a claim on the paragraph's metric, a compression
//!   ratio — a speed word needs a speed;
//! - `--write` wrapped a whole paragraph, putting a sentence nobody judged
//!   under a claim.

mod common;

use common::{copy_dir, fixtures, Sandbox};
use serde_json::Value;

fn study() -> Sandbox {
    let sb = Sandbox::new();
    copy_dir(&fixtures().join("lint-codecs"), sb.path());
    sb
}

fn all_statements(sb: &Sandbox) -> Vec<Value> {
    let ran = sb.run(&["lint", "--all", "--format", "json", "plan.md"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    v["statements"].as_array().unwrap().clone()
}

/// The one statement read from the sentence starting with `start`.
fn the<'a>(all: &'a [Value], start: &str) -> &'a Value {
    let found: Vec<&Value> = all.iter().filter(|s| s["sentence"].as_str().unwrap().starts_with(start)).collect();
    assert_eq!(found.len(), 1, "`{start}`: {all:#?}");
    found[0]
}

#[test]
fn repeat_markers_are_never_points() {
    let all = all_statements(&study());
    for s in &all {
        assert!(!s["claim"].as_str().unwrap_or("").contains("trial"), "a repeat marker as a point: {s:#}");
    }
    let highest = the(&all, "brotli has the highest compression ratio");
    assert_eq!(highest["claim"], "brotli > others on ratio for all block_kb");
    assert_eq!(highest["status"], "holds");
    // Its neighbour starts with a lower-case name and is its own sentence.
    let higher = the(&all, "zstd has a higher compression ratio than brotli");
    assert_eq!(higher["claim"], "zstd > brotli on ratio for all block_kb");
    assert_eq!(higher["status"], "contradicted");
    // `In trial 3, …` names a repeat, not a point: the number is not judged.
    let trial = the(&all, "In trial 3");
    assert_eq!(trial["status"], "unjudged", "{trial:#}");
}

#[test]
fn a_speed_word_is_judged_on_a_speed_or_not_at_all() {
    let all = all_statements(&study());
    // In the paragraph about the ratio: not a claim on the ratio, and the
    // study measures speed two ways, so lint asks which.
    let slower = the(&all, "zstd is slower than lz4");
    assert_eq!(slower["status"], "unjudged", "{slower:#}");
    assert!(slower["claim"].is_null(), "{slower:#}");
    let why = slower["summary"].as_str().unwrap();
    assert!(why.contains("`slower`") && why.contains("`ratio`") && why.contains("compress_speed_mbps"), "{why}");
    // In the paragraph about compression speed, `faster` takes that metric.
    let faster = the(&all, "lz4 is faster than zstd at every block size");
    assert_eq!(faster["claim"], "lz4 beats zstd on compress_speed_mbps for all block_kb");
    assert_eq!(faster["status"], "holds");
    let wrong = the(&all, "brotli is faster than zstd");
    assert_eq!(wrong["claim"], "brotli beats zstd on compress_speed_mbps for all block_kb");
    assert_eq!(wrong["status"], "contradicted");
    // A latency named in the sentence: faster is lower.
    let latency = the(&all, "zstd is faster than lz4 on decompression latency");
    assert_eq!(latency["claim"], "zstd beats lz4 on decompress_latency_ms for all block_kb");
    assert_eq!(latency["status"], "contradicted");
}

/// The document's text with every HTML comment taken out and whitespace
/// runs made one space: the author's words, whatever markers were added.
fn words(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("<!--") {
        out.push_str(&rest[..at]);
        rest = &rest[at + rest[at..].find("-->").unwrap() + 3..];
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn write_wraps_only_the_sentences_lint_judged() {
    let sb = study();
    let before = sb.read("plan.md");
    let problems: Vec<Value> = all_statements(&sb).into_iter().filter(|s| s["problem"] == true).collect();
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert_eq!(sb.run(&["lint", "--write", "plan.md"]).code, 1);
    let after = sb.read("plan.md");
    assert_eq!(words(&after), words(&before), "only markers were added");
    // Each region holds exactly one reported sentence; the sentences beside
    // them (the unjudged conclusion about lz4 on the ingest path) stay out.
    let bodies: Vec<&str> = after
        .split("<!-- /reckon:claim -->")
        .filter_map(|part| part.rsplit_once("-->").map(|(_, body)| body.trim()))
        .filter(|body| !body.is_empty())
        .collect();
    assert_eq!(bodies.len(), 3, "{after}");
    for (body, s) in bodies.iter().zip(&problems) {
        assert_eq!(words(body), words(s["sentence"].as_str().unwrap()), "{after}");
    }
    assert!(after.contains("<!-- /reckon:claim --> We keep lz4 on the\ningest path anyway"), "{after}");
    // check judges the regions as lint did.
    let ran = sb.run(&["check", "--format", "json", "plan.md"]);
    let v: Value = serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {ran:?}"));
    let claims = v["documents"][0]["claims"].as_array().unwrap();
    assert_eq!(claims.len(), 3, "{claims:#?}");
    for (c, s) in claims.iter().zip(&problems) {
        assert_eq!(c["claim"]["clauses"][0]["statement"], s["claim"], "{c:#}");
        assert_eq!(c["claim"]["verdict"], s["verdict"], "{c:#}");
    }
}
