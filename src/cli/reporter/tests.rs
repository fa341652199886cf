use serde::Serialize;

use super::check::NOTHING_CHECKED;
use super::json::{self, JsonReport, Keys};
use super::query::PivotReport;
use crate::query::{Agg, Dataset, Filter, Query};
use crate::run::Value;
use crate::store::builder::StoreBuilder;

#[derive(Serialize)]
struct Later {
    zeta: u8,
    alpha: Nested,
}

#[derive(Serialize)]
struct Nested {
    y: f64,
    x: Option<u8>,
}

struct Sorted(Later);

impl Serialize for Sorted {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl JsonReport for Sorted {
    const KEYS: Keys = Keys::Sorted;
}

impl JsonReport for Later {
    const KEYS: Keys = Keys::Declared;
}

fn later() -> Later {
    Later { zeta: 1, alpha: Nested { y: 30.0, x: None } }
}

#[test]
fn sorted_reports_write_their_keys_alphabetically_at_every_depth() {
    // If serde_json's `preserve_order` feature were ever turned on (by any
    // dependency), the outputs written through `serde_json::Value` would
    // change order: this fails first.
    assert_eq!(
        json::pretty(&Sorted(later())).unwrap(),
        "{\n  \"alpha\": {\n    \"x\": null,\n    \"y\": 30.0\n  },\n  \"zeta\": 1\n}\n"
    );
    let mut out = String::new();
    json::line(&Sorted(later()), &mut out).unwrap();
    json::line(&Sorted(later()), &mut out).unwrap();
    assert_eq!(out, "{\"alpha\":{\"x\":null,\"y\":30.0},\"zeta\":1}\n".repeat(2));
}

#[test]
fn declared_reports_keep_their_fields_order() {
    assert_eq!(
        json::pretty(&later()).unwrap(),
        "{\n  \"zeta\": 1,\n  \"alpha\": {\n    \"y\": 30.0,\n    \"x\": null\n  }\n}\n"
    );
    assert_eq!(json::pretty([later()].as_slice()).unwrap().lines().nth(2), Some("    \"zeta\": 1,"));
}

#[test]
fn nothing_checked_is_a_check_report_without_documents() {
    let v: serde_json::Value = serde_json::from_str(NOTHING_CHECKED).unwrap();
    assert_eq!(v, serde_json::json!({"ok": true, "documents": []}));
    assert!(NOTHING_CHECKED.ends_with("}\n"));
}

/// Baseline at concurrency 30 on two sweeps (the newer one's three runs
/// supersede the older two), at concurrency 1 once, and eagle-topk1-v2 on
/// the newer sweep only.
fn pivot(rows: &[&str], cols: &[&str]) -> crate::query::Pivot {
    let t = |s: &str| Value::Text(s.into());
    let base = [("config", t("baseline")), ("concurrency", Value::Num(30.0))];
    let c1 = [("config", t("baseline")), ("concurrency", Value::Num(1.0))];
    let eagle = [("config", t("eagle-topk1-v2")), ("concurrency", Value::Num(30.0))];
    let store = StoreBuilder::new()
        .source("old", "2026-11-20T09:00:00Z", &[(&base[..], 700.0), (&base[..], 710.0)])
        .source(
            "new",
            "2026-11-29T14:02:11Z",
            &[(&base[..], 690.1), (&base[..], 689.4), (&base[..], 688.0), (&c1[..], 92.7), (&eagle[..], 759.3)],
        )
        .build();
    let q = Query {
        metric: "output_throughput".into(),
        rows: rows.iter().map(ToString::to_string).collect(),
        cols: cols.iter().map(ToString::to_string).collect(),
        filter: Filter::parse("").unwrap(),
        agg: Agg::Median,
    };
    Dataset::load(&store).unwrap().evaluate(&q).unwrap()
}

#[test]
fn a_pivot_lists_its_cells_with_their_keys_in_query_order() {
    let p = pivot(&["concurrency"], &["config"]);
    let text = json::pretty(&PivotReport::of(&p)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["metric"], "output_throughput");
    assert_eq!(json["agg"], "median");
    // concurrency 1 has no eagle-topk1-v2 run: that cell is absent.
    assert_eq!(json["cells"].as_array().unwrap().len(), 3, "{text}");
    let cell = &json["cells"][1];
    assert_eq!(cell["key"], serde_json::json!({"concurrency": 30.0, "config": "baseline"}));
    assert_eq!(cell["value"], 689.4);
    assert_eq!(cell["runs"], 3);
    assert_eq!(cell["superseded"], 2);
    assert_eq!(cell["sweeps"], serde_json::json!(["2026-11-29"]));
    // Keys as declared, and a cell's key rows params before cols params.
    assert!(text.starts_with("{\n  \"metric\": \"output_throughput\",\n  \"unit\": "), "{text}");
    assert!(text.contains("\"key\": {\n        \"concurrency\": 30.0,\n        \"config\": \"baseline\""), "{text}");
    let text = json::pretty(&PivotReport::of(&pivot(&["config"], &["concurrency"]))).unwrap();
    assert!(text.contains("\"key\": {\n        \"config\": \"baseline\",\n        \"concurrency\": 1.0"), "{text}");
}
