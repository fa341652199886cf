//! False answers of the claims judge that the fifth cold trial (a
//! researcher tuning a key-value store) found, each on invented data
//! written as real log files and named for its finding.

mod common;

use std::fmt::Write as _;

use common::claims::{claim, judged, verdict_of};
use common::Sandbox;

/// A CSV log of `ops_per_sec` by `compaction` and `threads`, three repeats
/// at ±`jitter` (a fraction) around each (series, threads, value).
fn log(rows: &[(&str, u32, f64)], jitter: f64) -> String {
    let mut out = String::from("compaction,threads,repeat,ops_per_sec\n");
    for (series, threads, v) in rows {
        for (repeat, j) in [(1, -jitter), (2, 0.0), (3, jitter)] {
            writeln!(out, "{series},{threads},{repeat},{}", v * (1.0 + j)).expect("writing to a String");
        }
    }
    out
}

/// `crossover(leveled-bloom, fifo …) = 8` was contradicted ("leveled-bloom
/// never beats fifo for good") where leveled-bloom led fifo by ~1% at 8
/// and 16 threads within a 2% margin and ±1.5% noise: whether it beats
/// there is undecided, so where it crosses, if anywhere, is too. Here
/// `close` trails `base` by 1% at 1–4 threads and leads by 1% at 8 and 16,
/// with the same noise; `clear` trails by 20% up to 4 and leads by 20%
/// from 8, with little noise.
#[test]
fn finding_a_crossover_the_data_cannot_place_is_inconclusive_not_contradicted() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"compaction\"\n\n[[source]]\npath = \"logs/*.csv\"\n");
    let mut noisy = Vec::new();
    let mut quiet = Vec::new();
    for (threads, base) in [(1, 1000.0), (2, 2000.0), (4, 4000.0), (8, 8000.0), (16, 12000.0)] {
        let behind = threads < 8;
        noisy.push(("close", threads, base * if behind { 0.99 } else { 1.01 }));
        quiet.push(("base", threads, base));
        quiet.push(("clear", threads, base * if behind { 0.8 } else { 1.2 }));
    }
    s.write("logs/noisy.csv", log(&noisy, 0.015));
    s.write("logs/quiet.csv", log(&quiet, 0.002));
    s.ok(&["ingest"]);
    let got = judged(
        &s,
        &[
            ("undecided", "crossover(close, base on ops_per_sec over threads) = 8"),
            // 2 is ruled out beyond noise: close does not beat base there
            // (its 90% interval lies below the margin) nor at 1 or 4.
            ("ruled-out", "crossover(close, base on ops_per_sec over threads) = 2"),
            ("clear", "crossover(clear, base on ops_per_sec over threads) = 8"),
            ("clear-wrong", "crossover(clear, base on ops_per_sec over threads) = 4"),
            ("never", "crossover(base, clear on ops_per_sec over threads) = 8"),
        ],
    );
    let undecided = verdict_of(&got, "undecided");
    assert_eq!(undecided.verdict, "inconclusive", "{got:?}");
    assert!(
        undecided.summary.contains(
            "the data cannot place the crossover over threads: it may lie at threads = 8, 16, or there may be none; \
             whether close beats base (or falls behind) is within noise at threads = 1, 2, 4, 8, 16"
        ),
        "{got:?}"
    );
    let ruled_out = verdict_of(&got, "ruled-out");
    assert_eq!(ruled_out.verdict, "contradicted", "{got:?}");
    assert!(
        ruled_out.summary.contains("the crossover is not at threads = 2: it may lie at threads = 8, 16"),
        "{got:?}"
    );
    assert_eq!(verdict_of(&got, "clear").verdict, "holds", "{got:?}");
    let wrong = verdict_of(&got, "clear-wrong");
    assert_eq!(wrong.verdict, "contradicted", "{got:?}");
    assert!(wrong.details[0].starts_with("crossover at threads = 8: clear beats base there"), "{got:?}");
    let never = verdict_of(&got, "never");
    assert_eq!(never.verdict, "contradicted", "{got:?}");
    assert!(never.summary.contains("no crossover: base never beats clear for good over threads"), "{got:?}");
}

/// A claim pinned `as_of=2026-11-20` about `leveled-bloom beats leveled`
/// was "no data: leveled-bloom and leveled have no point in common": the
/// real reason was that leveled-bloom's runs all came later (2026-11-27).
/// A series with no run under the claim's date or filter is named, with
/// the date and the filter.
#[test]
fn finding_a_series_with_no_runs_by_the_date_is_named_as_the_reason() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"compaction\"\n\n[[source]]\npath = \"logs/{date}/{compaction}.csv\"\n");
    let runs = |v: f64, cache: u32| {
        let mut out = String::from("threads,repeat,block_cache_mb,ops_per_sec\n");
        for threads in [1, 2] {
            for (repeat, j) in [(1, -0.01), (2, 0.0), (3, 0.01)] {
                writeln!(out, "{threads},{repeat},{cache},{}", v * f64::from(threads) * (1.0 + j)).expect("a String");
            }
        }
        out
    };
    s.write("logs/2026-11-20/old.csv", runs(1000.0, 512));
    s.write("logs/2026-11-27/old.csv", runs(1000.0, 512));
    s.write("logs/2026-11-27/new.csv", runs(1300.0, 4096));
    s.ok(&["ingest"]);
    let doc = "<!-- reckon:claim id=pinned as_of=2026-11-20\n     new beats old on ops_per_sec for all threads -->\nx\n\
               <!-- /reckon:claim -->\n\n"
        .to_string()
        + &claim("filtered", "new beats old on ops_per_sec for all threads where block_cache_mb = 512")
        + &claim("both", "new beats old on ops_per_sec for all threads");
    s.write("plan.md", doc);
    let v = s.run(&["claims", "plan.md", "--format", "json"]).json();
    let summary = |id: &str| {
        let c = v.as_array().unwrap().iter().map(|c| &c["claim"]).find(|c| c["id"] == id).unwrap();
        (c["verdict"].as_str().unwrap().to_string(), c["summary"].as_str().unwrap().to_string())
    };
    let (verdict, said) = summary("pinned");
    assert_eq!(verdict, "no_data", "{said}");
    assert!(said.contains("new has no runs of `ops_per_sec` on or before 2026-11-20"), "{said}");
    let (verdict, said) = summary("filtered");
    assert_eq!(verdict, "no_data", "{said}");
    assert!(said.contains("new has no runs of `ops_per_sec` where block_cache_mb = 512"), "{said}");
    assert_eq!(summary("both").0, "holds");
}
