//! Lint reads prose into the curve forms of the claim language (issue 20):
//! the best setting of the series, trends along a param or across the
//! series, diminishing returns. Each on an invented study written as a real
//! CSV log: the reading, its verdict, and `lint --write` then `check`
//! judging the claims it wrote as lint did. A sentence whose words a
//! reading does not all account for stays unread.

mod common;

use std::fmt::Write as _;

use common::Sandbox;
use serde_json::Value;

/// Three repeats at ±`jitter` (a fraction) around each value.
fn log(header: &str, rows: &[(String, f64)], jitter: f64) -> String {
    let mut out = format!("{header},repeat,value\n");
    for (key, v) in rows {
        for (repeat, j) in [(1, -jitter), (2, 0.0), (3, jitter)] {
            writeln!(out, "{key},{repeat},{}", v * (1.0 + j)).expect("writing to a String");
        }
    }
    out
}

/// A queue at 1 to 16 consumer threads (the series): p99 is lowest at 8
/// threads and worse at 16; messages/s climbs to 8 and is flat after.
fn consumers() -> Sandbox {
    let s = Sandbox::new();
    s.write(
        "reckon.toml",
        "series = \"threads\"\n\n[[source]]\npath = \"logs/*.csv\"\n\n[aliases]\np99_ms = [\"p99\", \"tail \
         latency\"]\nmsgs_per_sec = [\"throughput\"]\n",
    );
    let rows = |v: &[(u32, f64)]| v.iter().map(|(t, x)| (format!("{t}"), *x)).collect::<Vec<_>>();
    let p99 = [(1, 20.0), (2, 14.0), (4, 9.0), (8, 7.5), (16, 11.0)];
    let tput = [(1, 800.0), (2, 1500.0), (4, 2700.0), (8, 4100.0), (16, 4090.0)];
    s.write("logs/p99.csv", log("threads", &rows(&p99), 0.005).replace(",value\n", ",p99_ms\n"));
    s.write("logs/tput.csv", log("threads", &rows(&tput), 0.002).replace(",value\n", ",msgs_per_sec\n"));
    s.ok(&["ingest"]);
    s
}

/// Two admission policies (the series) at cache sizes that double from
/// 32 MB: ARC's hit rate climbs and levels off past 128 MB.
fn admission() -> Sandbox {
    let s = Sandbox::new();
    s.write(
        "reckon.toml",
        "series = \"policy\"\n\n[[source]]\npath = \"logs/hits.csv\"\n\n[aliases]\ncache_mb = [\"cache\"]\nhit_rate \
         = [\"hit rate\"]\narc = [\"ARC\"]\nclock = [\"CLOCK\"]\n",
    );
    let mut rows = Vec::new();
    for (mb, clock, arc) in
        [(32, 0.41, 0.47), (64, 0.49, 0.58), (128, 0.52, 0.640), (256, 0.55, 0.643), (512, 0.58, 0.645)]
    {
        rows.push((format!("clock,{mb}"), clock));
        rows.push((format!("arc,{mb}"), arc));
    }
    s.write("logs/hits.csv", log("policy,cache_mb", &rows, 0.001).replace(",value\n", ",hit_rate\n"));
    s.ok(&["ingest"]);
    s
}

/// Every statement lint found, with its reading and status, by line.
fn statements(s: &Sandbox, doc: &str) -> Vec<(u64, String, String)> {
    s.write("notes.md", doc);
    let ran = s.run(&["lint", "--no-ingest", "--all", "--format", "json", "notes.md"]);
    assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    v["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let text = |k: &str| f[k].as_str().unwrap_or("").to_string();
            (f["line"].as_u64().unwrap(), text("claim"), text("status"))
        })
        .collect()
}

fn on(found: &[(u64, String, String)], line: u64) -> (&str, &str) {
    let (_, claim, status) = found.iter().find(|f| f.0 == line).unwrap_or_else(|| panic!("line {line}: {found:#?}"));
    (claim, status)
}

#[test]
fn the_best_setting_of_the_series_and_trends_across_it() {
    let s = consumers();
    let found = statements(
        &s,
        "# Consumers\n\n\
         Tail latency bottoms out at 8 threads.\n\n\
         Throughput peaks at 4 threads.\n\n\
         Throughput rises with every doubling of the threads up to 8 threads.\n\n\
         p99 worsens with each extra thread from 8 threads.\n\n\
         p99 improves with each extra thread.\n",
    );
    assert_eq!(on(&found, 3), ("p99_ms is lowest at threads = 8", "holds"), "{found:#?}");
    assert_eq!(on(&found, 5), ("msgs_per_sec peaks at threads = 4", "contradicted"), "{found:#?}");
    assert_eq!(on(&found, 7), ("msgs_per_sec increases with threads <= 8", "holds"), "{found:#?}");
    assert_eq!(on(&found, 9), ("p99_ms worsens with threads >= 8", "holds"), "{found:#?}");
    assert_eq!(on(&found, 11), ("p99_ms improves with threads", "contradicted"), "{found:#?}");
}

#[test]
fn a_trend_along_a_param_and_diminishing_returns_past_a_point() {
    let s = admission();
    let found = statements(
        &s,
        "# Admission\n\n\
         ARC's hit rate rises with every doubling of the cache.\n\n\
         CLOCK's hit rate rises with every doubling of the cache, but past 128 MB each doubling buys less than \
         1%.\n\n\
         ARC's hit rate rises with every doubling of the cache, but past 128 MB each doubling buys less than 1%.\n",
    );
    assert_eq!(on(&found, 3), ("arc on hit_rate increases with cache_mb", "holds"), "{found:#?}");
    let clock: Vec<_> = found.iter().filter(|f| f.0 == 5).map(|f| (f.1.as_str(), f.2.as_str())).collect();
    assert_eq!(
        clock,
        [
            ("clock on hit_rate increases with cache_mb", "holds"),
            ("clock on hit_rate improves by less than 1% per step of cache_mb >= 128", "contradicted")
        ],
        "{found:#?}"
    );
    let arc: Vec<_> = found.iter().filter(|f| f.0 == 7).map(|f| f.2.as_str()).collect();
    assert_eq!(arc, ["holds", "holds"], "{found:#?}");
}

/// Precision first: a word the reading does not take leaves the sentence
/// unread, and `every doubling` over points that are not doublings is not
/// read as their adjacent steps.
#[test]
fn a_curve_reading_accounts_for_the_whole_clause() {
    let s = consumers();
    let found = statements(
        &s,
        "# Consumers\n\nThroughput rises sharply with every doubling of the threads.\n\n\
         Tail latency never bottoms out at 8 threads.\n",
    );
    for f in &found {
        assert!(!f.1.contains("increases with") && !f.1.contains("is lowest at"), "read: {found:#?}");
    }
    let s = Sandbox::new();
    s.write(
        "reckon.toml",
        "series = \"policy\"\n\n[[source]]\npath = \"h.csv\"\n\n[aliases]\ncache_mb = [\"cache\"]\n",
    );
    let rows: Vec<(String, f64)> =
        [(16, 0.4), (24, 0.45), (40, 0.5)].iter().map(|(mb, v)| (format!("lru,{mb}"), *v)).collect();
    s.write("h.csv", log("policy,cache_mb", &rows, 0.001).replace(",value\n", ",hit_rate\n"));
    s.ok(&["ingest"]);
    let found = statements(&s, "# Sizes\n\nlru's hit_rate rises with every doubling of the cache.\n");
    assert!(found.iter().all(|f| !f.1.contains("increases")), "{found:#?}");
}

/// What `lint --write` wraps, `check` judges as lint did.
#[test]
fn lint_write_then_check_agrees_on_the_curve_forms() {
    let s = consumers();
    let doc = "# Consumers\n\nThroughput peaks at 4 threads.\n\np99 improves with each extra thread.\n";
    let found = statements(&s, doc);
    let problems: Vec<&(u64, String, String)> = found.iter().filter(|f| f.2 == "contradicted").collect();
    assert_eq!(problems.len(), 2, "{found:#?}");
    assert_eq!(s.run(&["lint", "--no-ingest", "--write", "notes.md"]).code, 1);
    let check = s.run(&["check", "--no-ingest", "--format", "json", "notes.md"]);
    assert_eq!(check.code, 1, "{check:?}");
    let judged: Value = serde_json::from_str(&check.stdout).unwrap();
    let claims = judged["documents"][0]["claims"].as_array().unwrap();
    assert_eq!(claims.len(), 2, "{claims:#?}");
    for (claim, problem) in claims.iter().zip(&problems) {
        assert_eq!(claim["claim"]["clauses"][0]["statement"], problem.1.as_str(), "{claim:#}");
        assert_eq!(claim["claim"]["verdict"], "contradicted", "{claim:#}");
    }
}
