//! Parser tests for the forms researchers write (issue 20): numbers as
//! written, `others` as a subject, the best setting of the series, trends
//! and diminishing returns. Their round trip is in `tests.rs`'s property
//! test.

use super::*;

fn ok(s: &str) -> Claim {
    parse(s).unwrap_or_else(|e| panic!("{s:?} failed to parse: {e}"))
}

fn err(s: &str) -> ClaimError {
    match parse(s) {
        Ok(c) => panic!("{s:?} parsed as {c:?}"),
        Err(e) => e,
    }
}

fn body(s: &str) -> Body {
    let mut c = ok(s);
    assert_eq!(c.clauses.len(), 1, "{s}");
    c.clauses.remove(0).body
}

fn canonical(s: &str) -> String {
    let first = ok(s).to_string();
    assert_eq!(ok(&first).to_string(), first, "canonical form of {s:?} is not stable");
    first
}

fn target(s: &str) -> f64 {
    match body(s) {
        Body::Value(v) => v.target,
        other => panic!("{s}: not a value claim: {other:?}"),
    }
}

fn points(s: &str) -> PointSet {
    match body(s) {
        Body::Pairwise(p) => p.quantifier.expect("a quantifier").points,
        other => panic!("{s}: not pairwise: {other:?}"),
    }
}

#[test]
fn thousands_separators_in_numbers() {
    assert_eq!(target("lfu on ops at threads = 8 ≈ 12,400"), 12_400.0);
    assert_eq!(target("lfu on ops at threads = 8 ≈ 1,234,567.5 within 2%"), 1_234_567.5);
    assert_eq!(target("lfu on ops at threads = 8 > -12,400"), -12_400.0);
    assert_eq!(target("lfu on ops at threads = 8 in 12,000..13,000"), 12_000.0);
    assert_eq!(canonical("lfu on ops at threads = 8 ≈ 12,400"), "lfu on ops at threads = 8 ≈ 12400");
    // A point's value too.
    assert_eq!(points("a beats b on m for all qps < 1,000"), PointSet::Cmp(Op::Lt, Literal::Num(1000.0)));
    // Inside `in (…)` a comma separates values, as it always has.
    assert_eq!(
        points("a beats b on m for all qps in (1,000)"),
        PointSet::In(vec![Literal::Num(1.0), Literal::Num(0.0)])
    );
    // Misgrouped: said at the number, with how to write it.
    let e = err("lfu on ops at threads = 8 ≈ 12,40");
    assert_eq!(e.offset, "lfu on ops at threads = 8 ≈ ".len());
    assert!(e.msg.starts_with("`12,40` is not a number: a comma groups thousands in threes"), "{}", e.msg);
    let e = err("lfu on ops at threads = 8 ≈ 12,5 ms");
    assert!(e.msg.contains("with a point (`12.4`)"), "{}", e.msg);
    assert!(err("a beats b on m at qps = 1,0000").msg.starts_with("`1,0000` is not a number"));
    assert!(err("lfu on ops at c = 1 ≈ 1234,567").msg.starts_with("`1234,567` is not a number"));
}

#[test]
fn from_and_up_to_are_the_bounds_prose_writes() {
    assert_eq!(points("a beats b on m for all c from 4"), PointSet::Cmp(Op::Ge, Literal::Num(4.0)));
    assert_eq!(canonical("a beats b on m for all c from 4"), "a beats b on m for all c >= 4");
    assert_eq!(points("a beats b on m for all c up to 64"), PointSet::Cmp(Op::Le, Literal::Num(64.0)));
    assert_eq!(points("a beats b on m for all c from 4 to 64"), PointSet::Range(Literal::Num(4.0), Literal::Num(64.0)));
    assert_eq!(canonical("a beats b on m for any c from 4 to 64"), "a beats b on m for any c in 4..64");
    assert_eq!(canonical("crossover(a, b on m over c from 2) = 4"), "crossover(a, b on m over c >= 2) = 4");
    assert!(err("a beats b on m for all c from").msg.starts_with("expected a value after `from`"));
    assert!(err("a beats b on m for all c up 4").msg.starts_with("expected `and` and another claim"));
}

#[test]
fn faster_slower_and_loses_to() {
    use crate::claims::stats::Test;
    use crate::metric::Direction;
    for (text, rel) in
        [("is faster than", Relation::Faster), ("is slower than", Relation::Slower), ("loses to", Relation::LosesTo)]
    {
        let s = format!("sharded {text} unsharded on p99_ms at qps = 500");
        match body(&s) {
            Body::Pairwise(p) => assert_eq!(p.relation, rel, "{text}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(canonical(&s), s);
    }
    // By the metric's direction: faster is better, slower is worse.
    assert_eq!(Relation::Faster.resolve(Direction::Lower), (Test::Beats, Direction::Lower));
    assert_eq!(Relation::Faster.resolve(Direction::Higher), (Test::Beats, Direction::Higher));
    assert_eq!(Relation::Slower.resolve(Direction::Lower), (Test::Beats, Direction::Higher));
    assert_eq!(Relation::LosesTo.resolve(Direction::Higher), (Test::Beats, Direction::Lower));
    assert!(Relation::Faster.is_speed() && !Relation::Beats.is_speed());
    // `is` not followed by a speed stays the start of a peak.
    assert!(matches!(body("a on m is highest at c = 4"), Body::Peak(_)));
    assert!(err("a is quicker than b on m").msg.contains("`beats`, `matches`"));
}

#[test]
fn others_as_the_subject() {
    let p = match body("others beat unsharded on p99_ms for all qps < 1000") {
        Body::Pairwise(p) => p,
        other => panic!("{other:?}"),
    };
    assert!(p.others_first);
    assert_eq!((p.a.text.as_str(), p.relation, &p.b), ("unsharded", Relation::Beats, &Opponents::Others));
    for (verb, rel) in [
        ("beat", Relation::Beats),
        ("match", Relation::Matches),
        ("match or beat", Relation::MatchesOrBeats),
        ("lose to", Relation::LosesTo),
        ("are faster than", Relation::Faster),
        ("are slower than", Relation::Slower),
        ("<", Relation::Lt),
        (">=", Relation::Ge),
    ] {
        let s = format!("others {verb} unsharded on p99_ms at qps = 500");
        assert!(matches!(body(&s), Body::Pairwise(p) if p.relation == rel && p.others_first), "{s}");
        assert_eq!(canonical(&s), s);
    }
    // The singular reads too, printed in the plural.
    assert_eq!(canonical("others beats x on m"), "others beat x on m");
    assert_eq!(canonical("others matches or beats x on m"), "others match or beat x on m");
    // What it names: the one series.
    assert_eq!(body("others beat x on m").series().iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["x"]);
    let e = err("others beat others on m");
    assert!(e.msg.starts_with("`others` on both sides compares nothing"), "{}", e.msg);
    let e = err("others beat a, b on m");
    assert_eq!(e.offset, "others beat a".len());
    assert!(e.msg.contains("one clause per series"), "{}", e.msg);
    let e = err("others win over a on m");
    assert_eq!(e.offset, "others ".len());
    assert!(e.msg.starts_with("expected `beat`, `match`"), "{}", e.msg);
    // A series called `others` is still written quoted.
    assert!(matches!(body("'others' beats a on m"), Body::Pairwise(p) if !p.others_first));
}

#[test]
fn others_in_a_crossover() {
    let c = match body("crossover(others, unsharded on p99_ms over qps) = 250") {
        Body::Crossover(c) => c,
        other => panic!("{other:?}"),
    };
    assert_eq!((c.a, c.b), (Contender::Others, Contender::Series(Name { text: "unsharded".into(), offset: 18 })));
    assert_eq!(
        canonical("crossover( unsharded ,others on p99_ms over qps >= 1000) = 2000"),
        "crossover(unsharded, others on p99_ms over qps >= 1000) = 2000"
    );
    let e = err("crossover(others, others on m over c) = 4");
    assert_eq!(e.offset, "crossover(".len());
    assert!(e.msg.contains("compares nothing"), "{}", e.msg);
    assert!(err("crossover(a on m over c) = 4").msg.starts_with("expected `,` between the two series"));
}

#[test]
fn the_best_setting_of_the_series() {
    for (text, extreme) in [
        ("peaks at", Extreme::Highest),
        ("is highest at", Extreme::Highest),
        ("is lowest at", Extreme::Lowest),
        ("bottoms out at", Extreme::Lowest),
        ("is best at", Extreme::Best),
        ("is worst at", Extreme::Worst),
    ] {
        // Over the series: no series named, the param is the series.
        match body(&format!("p99_ms {text} threads = 8")) {
            Body::Peak(p) => {
                assert_eq!((p.series, p.extreme), (None, extreme), "{text}");
                assert_eq!((p.metric.text.as_str(), p.param.text.as_str()), ("p99_ms", "threads"));
                assert_eq!(p.at, Literal::Num(8.0));
            }
            other => panic!("{text}: {other:?}"),
        }
        // Over a param, as before.
        match body(&format!("lfu on p99_ms {text} threads = 8")) {
            Body::Peak(p) => assert_eq!((p.series.unwrap().text.as_str(), p.extreme), ("lfu", extreme)),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert_eq!(canonical("p99_ms bottoms out at threads = 8"), "p99_ms is lowest at threads = 8");
    assert_eq!(
        canonical("p99_ms is best at threads = 8 where qps = 500"),
        "p99_ms is best at threads = 8 where qps = 500"
    );
    assert_eq!(canonical("lfu on hit_rate is worst at cache = small"), "lfu on hit_rate is worst at cache = small");
    let e = err("p99_ms is lowest threads = 8");
    assert_eq!(e.offset, "p99_ms is lowest ".len());
    assert!(e.msg.starts_with("expected `at PARAM = VALUE` after `is lowest`"), "{}", e.msg);
    assert!(err("p99_ms peaks at threads = 8 for all qps").msg.contains("restrict them with `where`"));
}

#[test]
fn trends_over_a_param_or_the_series() {
    let t = match body("lfu on hit_rate increases with cache_mb") {
        Body::Trend(t) => t,
        other => panic!("{other:?}"),
    };
    assert_eq!((t.series.unwrap().text.as_str(), t.metric.text.as_str()), ("lfu", "hit_rate"));
    assert_eq!(
        (t.way, t.strict, t.param.text.as_str(), t.points, t.step),
        (Way::Increases, true, "cache_mb", PointSet::Every, None)
    );
    for (text, way, strict, printed) in [
        ("rises with", Way::Increases, true, "increases with"),
        ("grows with", Way::Increases, true, "increases with"),
        ("falls with", Way::Decreases, true, "decreases with"),
        ("drops with", Way::Decreases, true, "decreases with"),
        ("improves with", Way::Improves, true, "improves with"),
        ("worsens with", Way::Worsens, true, "worsens with"),
        ("never decreases with", Way::Increases, false, "never decreases with"),
        ("never increases with", Way::Decreases, false, "never increases with"),
        ("never worsens with", Way::Improves, false, "never worsens with"),
        ("never improves with", Way::Worsens, false, "never improves with"),
    ] {
        let s = format!("p99_ms {text} shards");
        match body(&s) {
            Body::Trend(t) => assert_eq!((t.series, t.way, t.strict), (None, way, strict), "{text}"),
            other => panic!("{text}: {other:?}"),
        }
        assert_eq!(canonical(&s), format!("p99_ms {printed} shards"));
    }
    // The points, with the quantifier's words; an order for text values.
    assert_eq!(
        canonical("lfu on hit_rate increases with cache_mb from 64"),
        "lfu on hit_rate increases with cache_mb >= 64"
    );
    assert_eq!(
        canonical("hit_rate increases with cache in (small, medium, large) where trace = zipf"),
        "hit_rate increases with cache in (small, medium, large) where trace = zipf"
    );
    assert_eq!(canonical("a on m increases with c within 2%"), "a on m increases with c within 2%");
    let e = err("lfu on hit_rate increases with cache_mb for all trace");
    assert!(e.msg.starts_with("a trend ranges over its `with cache_mb`"), "{}", e.msg);
    let e = err("lfu on hit_rate increases cache_mb");
    assert_eq!(e.offset, "lfu on hit_rate increases ".len());
    assert!(e.msg.starts_with("expected `with PARAM` after `increases`"), "{}", e.msg);
    let e = err("lfu on hit_rate never rises by less than 1% per step of c");
    assert!(e.msg.contains("takes no `never`"), "{}", e.msg);
    let e = err("hit_rate never stays with c");
    assert!(e.msg.starts_with("expected `increases`, `decreases`"), "{}", e.msg);
}

#[test]
fn diminishing_returns_a_bound_on_each_step() {
    let t = match body("lfu on hit_rate increases by less than 1% per step of cache_kb from 64") {
        Body::Trend(t) => t,
        other => panic!("{other:?}"),
    };
    assert_eq!(t.step, Some(Step { bound: ChangeBound::LessThan, percent: 1.0 }));
    assert_eq!(t.points, PointSet::Cmp(Op::Ge, Literal::Num(64.0)));
    for bound in ["less than", "at most", "more than", "at least"] {
        let s = format!("hit_rate improves by {bound} 2.5% per step of cache_kb");
        assert_eq!(canonical(&s), s);
    }
    assert_eq!(
        canonical("lfu on hit_rate rises by less than 1% per step of cache_kb from 64"),
        "lfu on hit_rate increases by less than 1% per step of cache_kb >= 64"
    );
    let e = err("lfu on hit_rate increases by less than 1% each step of c");
    assert!(e.msg.starts_with("expected `per step of PARAM`"), "{}", e.msg);
    assert!(err("lfu on m increases by 1% per step of c").msg.contains("`at least`, `at most`"));
    assert!(err("lfu on m increases by less than -1% per step of c").msg.contains("at least 0"));
}

#[test]
fn words_left_after_a_claim_are_said_as_what_they_likely_are() {
    // A unit reckon does not know, after the claim's number.
    let e = err("a on m at c = 4 < 300 msec");
    let unknown = "unknown unit `msec` after the number; write a unit reckon knows — time: `ns`";
    assert!(e.msg.starts_with(unknown), "{e:?}");
    assert!(e.msg.contains("`ms`") && e.msg.contains("`tok/s`") && e.msg.contains("`%`"), "{e:?}");
    assert_eq!(e.offset, "a on m at c = 4 < 300 ".len());
    // A region argument written inside the statement.
    let e = err("a beats b on m at c = 4 as_of=2026-11-20");
    assert!(e.msg.starts_with("`as_of` is an argument of the claim region, not a word of its statement"), "{e:?}");
    assert!(e.msg.contains("`<!-- reckon:claim id=ID as_of=2026-11-20 STATEMENT -->`"), "{e:?}");
    // Else what may follow a claim.
    assert!(err("a beats b on m for all c up 4").msg.starts_with("expected `and` and another claim"));
}
