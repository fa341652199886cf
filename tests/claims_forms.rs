//! The forms researchers write (issue 20), judged end to end on invented
//! studies written as real log files: numbers as written (`≈ 12,400`,
//! `from 4`), `is faster than`, `others` as the subject, the best setting
//! of the series, trends and diminishing returns.

mod common;

use std::fmt::Write as _;

use common::claims::{claim, judged, verdict_of};
use common::Sandbox;

/// A key-value store, unsharded and sharded two and four ways, at four
/// loads: sharding cuts p99 at every load up to 1,000 QPS, and beyond it
/// unsharded saturates less (its p99 is lower at 2,000 QPS).
fn sharding() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"setup\"\n\n[[source]]\npath = \"logs/kv.csv\"\n");
    let mut rows = Vec::new();
    for (qps, unsharded, two, four, ops) in [
        (250.0, 4.0, 3.0, 2.8, 12_400.0),
        (500.0, 6.0, 4.0, 3.6, 12_400.0),
        (1000.0, 11.0, 7.0, 6.0, 12_400.0),
        (2000.0, 20.0, 26.0, 30.0, 12_400.0),
    ] {
        rows.push(("unsharded", qps, unsharded, ops));
        rows.push(("sharded-2", qps, two, ops * 1.5));
        rows.push(("sharded-4", qps, four, ops * 2.0));
    }
    let mut log = String::from("setup,qps,repeat,p99_ms,ops_per_sec,completed\n");
    for (setup, qps, p99, ops) in rows {
        for (repeat, jitter) in [(1, -0.005), (2, 0.0), (3, 0.005)] {
            let j = 1.0 + jitter;
            writeln!(log, "{setup},{qps},{repeat},{},{},{}", p99 * j, ops * j, 1000 + repeat).expect("a String");
        }
    }
    s.write("logs/kv.csv", log);
    s.ok(&["ingest"]);
    s
}

#[test]
fn numbers_are_read_as_written() {
    let s = sharding();
    let got = judged(
        &s,
        &[
            ("grouped", "unsharded on ops_per_sec at qps = 500 ≈ 12,400"),
            ("grouped-range", "sharded-4 on ops_per_sec at qps = 500 in 24,000..25,600"),
            ("from", "sharded-2 beats unsharded on p99_ms for all qps from 250 to 1,000"),
            ("from-open", "unsharded beats sharded-2 on p99_ms for all qps from 2000"),
            ("up-to", "sharded-4 beats unsharded on p99_ms for all qps up to 1,000"),
        ],
    );
    for id in ["grouped", "grouped-range", "from", "from-open", "up-to"] {
        assert_eq!(verdict_of(&got, id).verdict, "holds", "{id}: {got:?}");
    }
    // `from 250 to 1,000` is three points, and `up to` includes 1,000.
    assert!(verdict_of(&got, "from").summary.contains("(3 of 3 points hold)"), "{got:?}");
    assert!(verdict_of(&got, "up-to").summary.contains("(3 of 3 points hold)"), "{got:?}");
}

#[test]
fn faster_and_slower_follow_the_metrics_direction() {
    let s = sharding();
    let got = judged(
        &s,
        &[
            // p99 is a latency: lower is faster.
            ("faster-latency", "sharded-2 is faster than unsharded on p99_ms at qps = 500"),
            // ops/s is a rate: higher is faster.
            ("faster-rate", "sharded-2 is faster than unsharded on ops_per_sec at qps = 500"),
            ("slower", "unsharded is slower than sharded-4 on p99_ms at qps = 500"),
            ("slower-wrong", "sharded-4 is slower than unsharded on p99_ms at qps = 500"),
            ("loses", "sharded-4 loses to unsharded on p99_ms at qps = 2000"),
        ],
    );
    for id in ["faster-latency", "faster-rate", "slower", "loses"] {
        assert_eq!(verdict_of(&got, id).verdict, "holds", "{id}: {got:?}");
    }
    assert_eq!(verdict_of(&got, "slower-wrong").verdict, "contradicted", "{got:?}");
    // The evidence names the subject first, as written.
    assert!(verdict_of(&got, "slower").summary.contains(": unsharded 6 vs sharded-4 3.6"), "{got:?}");
}

#[test]
fn faster_on_a_metric_without_a_direction_is_refused_at_its_place() {
    let s = sharding();
    s.write("plan.md", claim("count", "sharded-2 is faster than unsharded on completed at qps = 500"));
    let r = s.run(&["claims", "plan.md"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("plan.md:2:6"), "{}", r.stderr);
    assert!(r.stderr.contains("`completed` has no better direction"), "{}", r.stderr);
    assert!(r.stderr.contains("write `>` or `<`"), "{}", r.stderr);
}

#[test]
fn a_misgrouped_number_is_refused_at_its_column() {
    let s = sharding();
    s.write("plan.md", claim("bad", "unsharded on ops_per_sec at qps = 500 ≈ 12,40"));
    let r = s.run(&["claims", "plan.md"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let col = "     unsharded on ops_per_sec at qps = 500 ≈ ".chars().count() + 1;
    assert!(r.stderr.contains(&format!("plan.md:2:{col}")), "{}", r.stderr);
    assert!(r.stderr.contains("`12,40` is not a number"), "{}", r.stderr);
}

#[test]
fn others_as_the_subject_each_other_series_must_beat_it() {
    let s = sharding();
    let got = judged(
        &s,
        &[
            // "Sharding wins below 1k QPS."
            ("below-1k", "others beat unsharded on p99_ms for all qps < 1,000"),
            ("everywhere", "others beat unsharded on p99_ms for all qps"),
            // Each other series, not the best of them: unsharded does not
            // beat sharded-2 on throughput, though sharded-4 does.
            ("each", "others beat sharded-2 on ops_per_sec at qps = 500"),
            ("faster", "others are faster than unsharded on p99_ms at qps = 250"),
        ],
    );
    assert_eq!(verdict_of(&got, "below-1k").verdict, "holds", "{got:?}");
    assert!(
        verdict_of(&got, "below-1k").summary.contains("(4 of 4 comparisons hold: 2 points × 2 opponents)"),
        "{got:?}"
    );
    let everywhere = verdict_of(&got, "everywhere");
    assert_eq!(everywhere.verdict, "contradicted", "{got:?}");
    // The other series is named first, as the claim reads.
    assert!(everywhere.summary.contains("worst at qps=2000: sharded-4 30 vs unsharded 20"), "{got:?}");
    let each = verdict_of(&got, "each");
    assert_eq!(each.verdict, "contradicted", "{got:?}");
    assert!(each.summary.contains("against 1 of 2 opponents"), "{got:?}");
    assert!(each.summary.contains("unsharded 12400 vs sharded-2 18600"), "{got:?}");
    assert_eq!(verdict_of(&got, "faster").verdict, "holds", "{got:?}");
}

#[test]
fn others_in_a_crossover_every_pair_crosses() {
    let s = sharding();
    let got = judged(
        &s,
        &[
            ("unsharded-takes-over", "crossover(unsharded, others on p99_ms over qps) = 2000"),
            ("sharding-below", "crossover(others, unsharded on p99_ms over qps <= 1000) = 250"),
            ("sharding-for-good", "crossover(others, unsharded on p99_ms over qps) = 250"),
        ],
    );
    assert_eq!(verdict_of(&got, "unsharded-takes-over").verdict, "holds", "{got:?}");
    assert_eq!(verdict_of(&got, "sharding-below").verdict, "holds", "{got:?}");
    let never = verdict_of(&got, "sharding-for-good");
    assert_eq!(never.verdict, "contradicted", "{got:?}");
    assert!(
        never.summary.contains("no crossover: others never beats unsharded (every pair) for good over qps"),
        "{got:?}"
    );
}

/// A CSV log of `metric` by `series` (and `param`), three repeats at
/// ±`jitter` (a fraction) around each value.
fn log(header: &str, rows: &[(String, f64)], jitter: f64) -> String {
    let mut out = format!("{header},repeat,value\n");
    for (key, v) in rows {
        for (repeat, j) in [(1, -jitter), (2, 0.0), (3, jitter)] {
            writeln!(out, "{key},{repeat},{}", v * (1.0 + j)).expect("writing to a String");
        }
    }
    out
}

/// A server at 1 to 16 worker threads (the series): p99 bottoms out at 8
/// threads, ops/s climbs to 8 and is flat (−0.2%) at 16.
fn threads() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"threads\"\n\n[[source]]\npath = \"logs/*.csv\"\n");
    let p99 = [(1, 10.0), (2, 7.0), (4, 5.0), (8, 4.0), (16, 6.0)];
    let ops = [(1, 1000.0), (2, 1900.0), (4, 3600.0), (8, 6000.0), (16, 5990.0)];
    let rows = |v: &[(u32, f64)]| v.iter().map(|(t, x)| (format!("{t}"), *x)).collect::<Vec<_>>();
    s.write("logs/p99.csv", log("threads", &rows(&p99), 0.005).replace(",value\n", ",p99_ms\n"));
    s.write("logs/ops.csv", log("threads", &rows(&ops), 0.001).replace(",value\n", ",ops_per_sec\n"));
    s.ok(&["ingest"]);
    s
}

#[test]
fn the_best_setting_of_the_series_is_where_the_curve_across_the_series_peaks() {
    let s = threads();
    let got = judged(
        &s,
        &[
            // "Latency bottoms out at 8 threads."
            ("bottoms", "p99_ms bottoms out at threads = 8"),
            ("best", "p99_ms is best at threads = 8"),
            ("best-ops", "ops_per_sec is best at threads = 8"),
            ("wrong", "p99_ms is lowest at threads = 4"),
        ],
    );
    for id in ["bottoms", "best", "best-ops"] {
        assert_eq!(verdict_of(&got, id).verdict, "holds", "{id}: {got:?}");
    }
    assert!(verdict_of(&got, "bottoms").summary.contains("(4 of 4 points hold)"), "{got:?}");
    let wrong = verdict_of(&got, "wrong");
    assert_eq!(wrong.verdict, "contradicted", "{got:?}");
    assert!(wrong.summary.contains("worst at threads=8: threads=4 5 vs threads=8 4"), "{got:?}");
}

#[test]
fn a_trend_across_the_series_is_judged_pair_by_adjacent_pair() {
    let s = threads();
    let got = judged(
        &s,
        &[
            ("up-to-8", "ops_per_sec increases with threads up to 8"),
            // 8 → 16 is −0.2%: not a rise beyond noise, not a fall beyond
            // the 2% margin.
            ("strict", "ops_per_sec increases with threads"),
            ("not-strict", "ops_per_sec never decreases with threads"),
            ("improves", "p99_ms improves with threads"),
            ("worsens", "p99_ms worsens with threads from 8"),
        ],
    );
    assert_eq!(verdict_of(&got, "up-to-8").verdict, "holds", "{got:?}");
    assert!(verdict_of(&got, "up-to-8").summary.contains("(3 of 3 points hold)"), "{got:?}");
    let strict = verdict_of(&got, "strict");
    assert_eq!(strict.verdict, "inconclusive", "{got:?}");
    assert!(strict.summary.contains("weakest at threads 8→16: threads=16 5990 vs threads=8 6000"), "{got:?}");
    assert_eq!(verdict_of(&got, "not-strict").verdict, "holds", "{got:?}");
    let improves = verdict_of(&got, "improves");
    assert_eq!(improves.verdict, "contradicted", "{got:?}");
    assert!(improves.summary.contains("at 1 of 4 points; worst at threads 8→16"), "{got:?}");
    assert_eq!(verdict_of(&got, "worsens").verdict, "holds", "{got:?}");
}

#[test]
fn diminishing_returns_bound_each_step() {
    let s = threads();
    let got = judged(
        &s,
        &[
            // "Past 8 threads, each doubling buys less than 1%."
            ("past-8", "ops_per_sec increases by less than 1% per step of threads from 8"),
            ("everywhere", "ops_per_sec increases by less than 1% per step of threads"),
            ("at-least", "ops_per_sec increases by at least 50% per step of threads up to 8"),
        ],
    );
    assert_eq!(verdict_of(&got, "past-8").verdict, "holds", "{got:?}");
    let everywhere = verdict_of(&got, "everywhere");
    assert_eq!(everywhere.verdict, "contradicted", "{got:?}");
    assert!(
        everywhere.summary.contains("at 3 of 4 points; worst at threads 1→2: threads=2 1900 vs threads=1 1000"),
        "{got:?}"
    );
    assert_eq!(verdict_of(&got, "at-least").verdict, "holds", "{got:?}");
}

/// Three eviction policies (the series) at five cache sizes.
fn caches() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"policy\"\n\n[[source]]\npath = \"logs/hits.csv\"\n");
    let mut rows = Vec::new();
    for (mb, fifo, lru, lfu) in [
        (16, 0.40, 0.45, 0.50),
        (32, 0.48, 0.53, 0.60),
        (64, 0.55, 0.60, 0.680),
        (128, 0.58, 0.63, 0.684),
        (256, 0.60, 0.64, 0.686),
    ] {
        for (policy, v) in [("fifo", fifo), ("lru", lru), ("lfu", lfu)] {
            rows.push((format!("{policy},{mb}"), v));
        }
    }
    s.write("logs/hits.csv", log("policy,cache_mb", &rows, 0.001).replace(",value\n", ",hit_rate\n"));
    s.ok(&["ingest"]);
    s
}

#[test]
fn trends_of_one_series_along_a_param() {
    let s = caches();
    let got = judged(
        &s,
        &[
            ("rises", "lfu on hit_rate rises with cache_mb"),
            ("diminishing", "lfu on hit_rate increases by less than 1% per step of cache_mb from 64"),
            ("not-yet", "lfu on hit_rate increases by less than 1% per step of cache_mb"),
            ("peak", "lfu on hit_rate peaks at cache_mb = 256"),
            ("order", "hit_rate increases with policy in (fifo, lru, lfu) where cache_mb = 64"),
        ],
    );
    for id in ["rises", "diminishing", "peak", "order"] {
        assert_eq!(verdict_of(&got, id).verdict, "holds", "{id}: {got:?}");
    }
    assert_eq!(verdict_of(&got, "not-yet").verdict, "contradicted", "{got:?}");
    assert!(verdict_of(&got, "diminishing").summary.contains("(2 of 2 points hold)"), "{got:?}");
}

#[test]
fn malformed_and_misplaced_trends_are_refused_at_their_place() {
    let s = caches();
    for (text, says) in [
        // The series' names are not numbers: their order must be given.
        ("hit_rate increases with policy where cache_mb = 64", "is not a number, so the points have no order"),
        // Over the series, the cells must each be one point.
        ("hit_rate increases with policy in (fifo, lru, lfu)", "several `cache_mb` values"),
        ("hit_rate is best at policy = lfu", "say which with `where cache_mb = …` after the claim"),
        ("lfu on hit_rate increases with policy", "`policy` is the series"),
        ("hit_rate increases with cache_mb", "`cache_mb` is not the series (`policy`)"),
        ("lfu on hit_rate increases cache_mb", "expected `with PARAM` after `increases`"),
    ] {
        s.write("plan.md", claim("t", text));
        let r = s.run(&["claims", "plan.md"]);
        assert_eq!(r.code, 2, "{text}: {}", r.stderr);
        assert!(r.stderr.contains("plan.md:2:"), "{text}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{text}: {}", r.stderr);
    }
}
