//! `reckon lint` on a training study (`tests/fixtures/lint-training/`: FP8
//! against BF16 by micro-batch size, three seeds, two sweeps of JSONL; the
//! logs keep peak memory as a whole number per setting, which its
//! reckon.toml makes a param). What a cold trial of lint on it showed, pinned:
//! a sentence opening with `It`, a peak stated without its unit after one
//! the sentence gave, `N unit for X vs M unit for Y`, and a measurement
//! stored as a param taken for the swept one; and a pair of numbers whose
//! point is named in words reckon does not know.

use std::fmt::Write as _;

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
    // setting logged. It says by how much, too (`0.02 higher`), which lint
    // does not read: the comparison alone is no reading of the sentence, so
    // it is left unread, with what lint understood and what not.
    let ends = all.iter().find(|(s, _, _)| s.starts_with("FP8 ends 0.02 higher")).unwrap();
    assert_eq!((ends.1.as_str(), ends.2.as_str()), ("", "unjudged"));
    let sb = study();
    let ran = sb.run(&["lint", "--all", "--format", "json", "plan.md"]);
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    let summary = v["statements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["sentence"].as_str().unwrap().starts_with("FP8 ends 0.02 higher"))
        .unwrap()["summary"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        summary.contains("`0.02`") && summary.contains("`fp8 > bf16 on val_loss for all micro_batch`"),
        "{summary}"
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

/// An optimizer study by sequence length, whose notes name the point of a
/// pair of numbers in words reckon does not know ("the warm-up runs"). The
/// pair and the comparison it backs are values at one point: without a
/// `[points]` entry they are left unjudged with a hint to add one, never
/// widened to every sequence length (where Lion loses at 2048 and 4096).
#[test]
fn a_stated_pair_without_a_known_point_asks_for_a_points_entry() {
    let sb = Sandbox::new();
    let toml = "series = \"optimizer\"\n\n[[source]]\npath = \"logs/{date}/runs.csv\"\n\n[aliases]\nlion = \
                [\"Lion\"]\nadamw = [\"AdamW\"]\ntokens_per_s = [\"tokens/s\", \"throughput\"]\n";
    sb.write("reckon.toml", toml);
    let mut csv = String::from("optimizer,seq_len,seed,tokens_per_s\n");
    for (optimizer, rates) in
        [("adamw", [98000.0, 90000.0, 76000.0, 52000.0]), ("lion", [101000.0, 88000.0, 71000.0, 47000.0])]
    {
        for (seq_len, rate) in [512, 1024, 2048, 4096].iter().zip(rates) {
            for (seed, jitter) in [(0, 0.997), (1, 1.0), (2, 1.003)] {
                let _ = writeln!(csv, "{optimizer},{seq_len},{seed},{:.1}", rate * jitter);
            }
        }
    }
    sb.write("logs/2026-05-04/runs.csv", csv);
    sb.write(
        "notes.md",
        "# Lion vs AdamW on the 350M model\n\n## Throughput\n\nFor the warm-up runs, Lion is slightly faster than \
         AdamW (101k vs 98k tokens/s).\n",
    );
    let lint = |sb: &Sandbox| {
        let ran = sb.run(&["lint", "--all", "--format", "json", "notes.md"]);
        let v: Value = serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {ran:?}"));
        let found: Vec<(String, String, String)> = v["statements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let text = |k: &str| s[k].as_str().unwrap_or("").to_string();
                (text("claim"), text("status"), text("summary"))
            })
            .collect();
        (ran.code, found)
    };
    let (code, found) = lint(&sb);
    assert_eq!(code, 0, "nothing is reported: {found:#?}");
    let claims: Vec<&str> = found.iter().map(|(c, _, _)| c.as_str()).collect();
    assert_eq!(
        claims,
        ["lion on tokens_per_s ≈ 101000 and adamw on tokens_per_s ≈ 98000", "lion beats adamw on tokens_per_s"],
        "the comparison is not widened to every sequence length: {found:#?}"
    );
    for (_, status, summary) in &found {
        assert_eq!(status, "unjudged", "{found:#?}");
        assert!(summary.contains("add them to [points] in reckon.toml"), "{summary}");
        assert!(summary.contains("\"seq_len = …\""), "{summary}");
    }
    // With the phrase in [points], both are judged at that point and hold.
    sb.write("reckon.toml", format!("{toml}\n[points]\n\"warm-up runs\" = \"seq_len = 512\"\n"));
    let (code, found) = lint(&sb);
    assert_eq!(code, 0, "{found:#?}");
    let judged: Vec<(&str, &str)> = found.iter().map(|(c, s, _)| (c.as_str(), s.as_str())).collect();
    assert_eq!(
        judged,
        [
            (
                "lion on tokens_per_s at seq_len = 512 ≈ 101000 and adamw on tokens_per_s at seq_len = 512 ≈ 98000",
                "holds"
            ),
            ("lion beats adamw on tokens_per_s at seq_len = 512", "holds")
        ]
    );
}

/// With no document named, lint reads the `documents` of reckon.toml, as
/// `check`, `update` and `claims` do (cold trial: it refused with a usage
/// error instead), and says what to do when there are none.
#[test]
fn lint_without_a_document_reads_the_documents_of_reckon_toml() {
    let sb = study();
    let named = sb.run(&["lint", "plan.md"]);
    let bare = sb.run(&["lint"]);
    assert_eq!(bare.code, 2, "no documents anywhere: {bare:?}");
    assert!(bare.stderr.contains("documents = ["), "{bare:?}");
    let toml = sb.read("reckon.toml");
    sb.write("reckon.toml", format!("documents = [\"*.md\"]\n{toml}"));
    let bare = sb.run(&["lint"]);
    assert_eq!((bare.code, &bare.stdout), (named.code, &named.stdout), "{bare:?}");
    assert!(named.stdout.contains("plan.md:"), "{named:?}");
}
