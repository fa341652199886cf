//! Trial 4's G14: "Going from FP16 to INT8 raises offline throughput by
//! at least 50%" was read `fp16 raises int8 …` — the series named first
//! taken as the subject — and reported contradicted at confidence 0.90
//! where the data bear it out (int8 is 1.57x fp16). A change from one
//! series to another is unread, said under `--all` with the phrase, never
//! judged the wrong way round.
//! Invented data: two precisions of one model, tokens per second.

mod common;

use std::fmt::Write as _;

use common::Sandbox;
use serde_json::Value;

const TOML: &str = r#"series = "precision"
documents = ["plan.md"]

[[source]]
path = "data/{date}/bench.csv"

[aliases]
fp16 = ["FP16"]
int8 = ["INT8"]
tokens_per_second = ["throughput"]

[metrics.tokens_per_second]
direction = "higher"
"#;

fn lint(plan: &str, all: bool) -> Vec<Value> {
    let sb = Sandbox::new();
    let mut csv = String::from("precision,repeat,tokens_per_second\n");
    for (p, v) in [("fp16", 3000.0), ("int8", 4700.0)] {
        for (r, f) in [0.997, 1.0, 1.003].into_iter().enumerate() {
            let _ = writeln!(csv, "{p},{},{}", r + 1, v * f);
        }
    }
    sb.write("data/2026-11-26/bench.csv", csv);
    sb.write("reckon.toml", TOML);
    sb.write("plan.md", plan);
    let mut args = vec!["lint", "--format", "json"];
    if all {
        args.push("--all");
    }
    args.push("plan.md");
    let ran = sb.run(&args);
    assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    v["statements"].as_array().unwrap().clone()
}

#[test]
fn finding_g14_a_change_from_one_series_to_another_is_never_read_the_wrong_way_round() {
    for sentence in [
        "Going from FP16 to INT8 raises throughput by at least 50%.",
        "Switching from FP16 to INT8 raises throughput by 57%.",
        "Moving from FP16 to INT8 makes throughput about 1.6x higher.",
    ] {
        let plan = format!("# Quantization\n\n{sentence}\n");
        let reported = lint(&plan, false);
        assert!(
            reported.iter().all(|s| !matches!(s["status"].as_str(), Some("contradicted" | "stale"))),
            "{sentence}: {reported:#?}"
        );
        let all = lint(&plan, true);
        let s = all.iter().find(|s| s["line"] == 3).unwrap_or_else(|| panic!("{sentence}: said: {all:#?}"));
        assert_eq!(s["status"], "unjudged", "{sentence}: {s:#}");
        assert!(s["summary"].as_str().unwrap().contains("`from FP16 to INT8`"), "{sentence}: {s:#}");
    }
}

#[test]
fn two_series_compared_the_usual_way_are_still_read() {
    let all = lint("# Quantization\n\nINT8 raises throughput over FP16 by at least 50%.\n", true);
    let read: Vec<&str> = all.iter().filter_map(|s| s["claim"].as_str()).collect();
    assert!(read.iter().any(|c| c.starts_with("int8 ")), "{all:#?}");
}
