//! `reckon lint` on a training study (`tests/fixtures/lint-training/`: FP8
//! against BF16 by micro-batch size, three seeds, two sweeps of JSONL; the
//! logs keep peak memory as a whole number per setting, which the generic
//! reader stores as a param). What a cold trial of lint on it showed, pinned:
//! a sentence opening with `It`, a peak stated without its unit after one
//! the sentence gave, `N unit for X vs M unit for Y`, and a measurement
//! stored as a param taken for the swept one.

mod common;

use common::{copy_dir, fixtures, Sandbox};
use serde_json::Value;

fn study() -> Sandbox {
    let sb = Sandbox::new();
    copy_dir(&fixtures().join("lint-training"), sb.path());
    sb
}

fn statements() -> Vec<(String, String, String)> {
    let sb = study();
    let ran = sb.run(&["lint", "--all", "--format", "json", "plan.md"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    v["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let text = |k: &str| s[k].as_str().unwrap_or("").to_string();
            (text("sentence"), text("claim"), text("status"))
        })
        .collect()
}

fn claims_of(all: &[(String, String, String)], start: &str) -> Vec<(String, String)> {
    all.iter().filter(|(s, _, _)| s.starts_with(start)).map(|(_, c, v)| (c.clone(), v.clone())).collect()
}

#[test]
fn it_speaks_of_the_sentence_before_and_a_bare_peak_takes_the_sentence_unit() {
    let all = statements();
    assert_eq!(
        claims_of(&all, "It reaches 282k"),
        [
            // 282k was right in the first sweep; the upgrade made FP8 faster.
            ("fp8 on tokens_per_s at micro_batch = 64 ≈ 282000".to_string(), "stale".to_string()),
            ("max(bf16 on tokens_per_s for all micro_batch) ≈ 210000".to_string(), "inconclusive".to_string()),
        ]
    );
}

#[test]
fn numbers_for_each_series_and_the_swept_param() {
    let all = statements();
    assert_eq!(
        claims_of(&all, "At batch 32 the throughput is"),
        [(
            "fp8 on tokens_per_s at micro_batch = 32 ≈ 178000 and bf16 on tokens_per_s at micro_batch = 32 ≈ 140000"
                .to_string(),
            "stale".to_string()
        )]
    );
    // Without a point, the comparison speaks of every micro-batch size: the
    // param every series shares the values of, not the peak memory each
    // setting logged.
    assert_eq!(
        claims_of(&all, "FP8 ends 0.02 higher"),
        [("fp8 > bf16 on val_loss for all micro_batch".to_string(), "holds".to_string())]
    );
    assert_eq!(claims_of(&all, "FP8 is slower to converge"), [(String::new(), "unjudged".to_string())]);
}

/// `--write` wraps a reported sentence with everything lint judged in it:
/// the BF16 peak beside the stale FP8 number is checked by the same region.
#[test]
fn a_region_checks_all_its_sentence_says() {
    let sb = study();
    assert_eq!(sb.run(&["lint", "--write", "plan.md"]).code, 1);
    let after = sb.read("plan.md");
    let region = after
        .split("<!-- reckon:claim ")
        .find(|r| r.contains("282k"))
        .unwrap_or_else(|| panic!("the sentence is wrapped: {after}"));
    assert!(
        region.starts_with(
            "id=lint-9-2 fp8 on tokens_per_s at micro_batch = 64 ≈ 282000 and max(bf16 on tokens_per_s for all \
             micro_batch) ≈ 210000 -->It reaches 282k"
        ),
        "{region}"
    );
    let ran = sb.run(&["check", "--format", "json", "plan.md"]);
    let v: Value = serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {ran:?}"));
    let claims = v["documents"][0]["claims"].as_array().unwrap();
    let c = claims.iter().find(|c| c["claim"]["id"] == "lint-9-2").unwrap_or_else(|| panic!("{claims:#?}"));
    let verdicts: Vec<&str> =
        c["claim"]["clauses"].as_array().unwrap().iter().map(|k| k["verdict"].as_str().unwrap()).collect();
    // As lint judged them: stale is contradicted now; the peak within noise.
    assert_eq!(verdicts, ["contradicted", "inconclusive"]);
}
