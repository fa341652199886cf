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
