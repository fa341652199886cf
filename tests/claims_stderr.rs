//! lm-eval's `…_stderr` is the noise of its metric: a claim comparing two
//! models' scores, one run per side, takes each run's logged standard
//! error as that side's spread. A difference within it is inconclusive —
//! it held on the point estimates alone, with no spread at all — and a
//! clear one holds.

mod common;

use common::claims::{claim, summaries};
use common::corpus::fixture;
use common::Sandbox;
use serde_json::{json, Value as Json};

/// The corpus's lm-eval results file (Llama-3-8B-Instruct on
/// `arc_challenge`), as another model's run with the scores given: `(task,
/// acc, acc_stderr)`.
fn results(model: &str, scores: &[(&str, f64, f64)]) -> String {
    let path = fixture("corpus/lm-eval/llama3-8b-instruct-arc.json");
    let mut doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["config"]["model_args"] = json!(format!("pretrained={model},dtype=auto"));
    let mut results = serde_json::Map::new();
    for &(task, acc, stderr) in scores {
        results.insert(task.into(), json!({"acc,none": acc, "acc_stderr,none": stderr, "alias": task}));
        doc["n-shot"][task] = json!(25);
        doc["versions"][task] = json!(1.0);
    }
    doc["results"] = Json::Object(results);
    serde_json::to_string_pretty(&doc).unwrap()
}

fn verdicts(s: &Sandbox, claims: &[(&str, &str)]) -> Vec<(String, String)> {
    let doc: String = claims.iter().map(|(id, text)| claim(id, text)).collect();
    s.write("notes.md", doc);
    summaries(s, "notes.md")
}

fn verdict<'a>(got: &'a [(String, String)], id: &str) -> &'a str {
    got.iter().find(|(i, _)| i == id).map(|(_, v)| v.as_str()).unwrap()
}

#[test]
fn lm_eval_stderr_is_the_spread_of_a_single_run_per_side() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"model\"\n");
    let a = [("arc_challenge", 0.62, 0.014), ("arc_easy", 0.80, 0.008)];
    // Beyond the 2% margin on the point estimates, within each score's noise.
    let near = [("arc_challenge", 0.60, 0.014), ("arc_easy", 0.78, 0.008)];
    // Beyond both.
    let far = [("arc_challenge", 0.52, 0.0146), ("arc_easy", 0.71, 0.009)];
    s.write("logs/a.json", results("org/model-a", &a));
    s.write("logs/near.json", results("org/model-near", &near));
    s.write("logs/far.json", results("org/model-far", &far));
    s.ok(&["ingest", "logs/a.json", "logs/near.json", "logs/far.json"]);
    let got = verdicts(
        &s,
        &[
            ("near", "'org/model-a' beats 'org/model-near' on acc for all task"),
            ("far", "'org/model-a' beats 'org/model-far' on acc for all task"),
            ("far-reversed", "'org/model-far' beats 'org/model-a' on acc for all task"),
        ],
    );
    assert!(verdict(&got, "near").starts_with("inconclusive"), "{got:?}");
    assert!(verdict(&got, "far").starts_with("holds"), "{got:?}");
    assert!(verdict(&got, "far-reversed").starts_with("contradicted"), "{got:?}");
    // The evidence says where the spread came from.
    let out = s.ok(&["claims", "notes.md", "--format", "json"]).stdout;
    assert!(out.contains("the standard error it logged beside acc (`acc_stderr`)"), "{out}");
}

/// The corpus file itself against two invented models: its 0.5853 ±
/// 0.0144 on `arc_challenge` ties a 0.57 within noise and beats a 0.50.
#[test]
fn lm_eval_corpus_score_against_models_within_and_beyond_its_stderr() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"model\"\n");
    s.fixture("corpus/lm-eval/llama3-8b-instruct-arc.json", "logs/llama.json");
    s.write("logs/close.json", results("org/close", &[("arc_challenge", 0.57, 0.0145)]));
    s.write("logs/behind.json", results("org/behind", &[("arc_challenge", 0.50, 0.0146)]));
    s.ok(&["ingest", "logs/llama.json", "logs/close.json", "logs/behind.json"]);
    let llama = "'meta-llama/Meta-Llama-3-8B-Instruct'";
    let got = verdicts(
        &s,
        &[
            ("close", &format!("{llama} beats 'org/close' on acc for all task")),
            ("behind", &format!("{llama} beats 'org/behind' on acc for all task")),
        ],
    );
    assert!(verdict(&got, "close").starts_with("inconclusive"), "{got:?}");
    assert!(verdict(&got, "behind").starts_with("holds"), "{got:?}");
}
