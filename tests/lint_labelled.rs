//! Precision and recall of `reckon lint` on the labelled set in
//! `tests/fixtures/lint-set/` (three domains, sentences labelled from the
//! data before the linter existed): a statement is a positive when labelled
//! contradicted or stale; lint's positives are the statements it reports as
//! contradicted or stale with its default confidence threshold. Any reported
//! statement outside a labelled sentence counts against precision.
#![allow(clippy::struct_field_names, clippy::too_many_lines)] // floor-plan debt (issue 7): fix these and delete this line

mod common;

use common::{copy_dir, fixtures, Sandbox};

struct Label {
    domain: &'static str,
    label: String,
    sentence: String,
}

fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").trim_end_matches('.').to_string()
}

#[test]
fn lint_precision_and_recall_on_the_labelled_set() {
    let mut labels: Vec<Label> = Vec::new();
    // (domain, reported sentence, status)
    let mut reported: Vec<(&'static str, String, String)> = Vec::new();
    let mut ambiguous_reported: Vec<(&'static str, String)> = Vec::new();
    for domain in ["serving", "kernels", "caches"] {
        let dir = fixtures().join("lint-set").join(domain);
        let tsv = std::fs::read_to_string(dir.join("labels.tsv")).unwrap();
        let plan = std::fs::read_to_string(dir.join("plan.md")).unwrap();
        for line in tsv.lines().filter(|l| !l.trim().is_empty()) {
            let (label, sentence) = line.split_once('\t').unwrap();
            assert_eq!(plan.matches(sentence).count(), 1, "{domain}: `{sentence}` must occur once in plan.md");
            labels.push(Label { domain, label: label.to_string(), sentence: sentence.to_string() });
        }
        let sb = Sandbox::new();
        copy_dir(&dir, sb.path());
        let ran = sb.run(&["lint", "--format", "json", "plan.md"]);
        assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
        let v: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
        for s in v["statements"].as_array().unwrap() {
            let sentence = s["sentence"].as_str().unwrap().to_string();
            match s["status"].as_str().unwrap() {
                "contradicted" | "stale" if s["problem"].as_bool().unwrap() => {
                    reported.push((domain, sentence, s["status"].as_str().unwrap().to_string()));
                }
                "ambiguous" => ambiguous_reported.push((domain, sentence)),
                _ => {}
            }
        }
    }
    let find = |domain: &str, sentence: &str| {
        let n = normalize(sentence);
        labels.iter().position(|l| {
            l.domain == domain && (normalize(&l.sentence).contains(&n) || n.contains(&normalize(&l.sentence)))
        })
    };
    let positive = |l: &Label| l.label == "contradicted" || l.label == "stale";
    let mut flagged: Vec<Option<usize>> = Vec::new();
    let mut kind_agrees = 0;
    for (domain, sentence, status) in &reported {
        let at = find(domain, sentence);
        if !flagged.contains(&at) || at.is_none() {
            flagged.push(at);
            if at.is_some_and(|i| labels[i].label == *status) {
                kind_agrees += 1;
            }
        }
        if at.is_none_or(|i| !positive(&labels[i])) {
            eprintln!("false positive ({domain}): {sentence}");
        }
    }
    let tp = flagged.iter().filter(|at| at.is_some_and(|i| positive(&labels[i]))).count();
    let positives = labels.iter().filter(|l| positive(l)).count();
    for (i, l) in labels.iter().enumerate().filter(|(_, l)| positive(l)) {
        if !flagged.contains(&Some(i)) {
            eprintln!("missed ({}, {}): {}", l.domain, l.label, l.sentence);
        }
    }
    let ambiguous = labels.iter().filter(|l| l.label == "ambiguous").count();
    let ambiguous_found = labels
        .iter()
        .filter(|l| l.label == "ambiguous")
        .filter(|l| {
            ambiguous_reported
                .iter()
                .any(|(d, s)| *d == l.domain && find(d, s).is_some_and(|i| labels[i].sentence == l.sentence))
        })
        .count();
    let precision = if flagged.is_empty() { 1.0 } else { tp as f64 / flagged.len() as f64 };
    let recall = tp as f64 / positives as f64;
    println!(
        "lint on the labelled set: {} sentences, {} contradicted or stale; reported {}, of which {} right",
        labels.len(),
        positives,
        flagged.len(),
        tp
    );
    println!("precision {:.1}%  recall {:.1}%", 100.0 * precision, 100.0 * recall);
    println!("reported with the labelled kind (contradicted vs stale): {kind_agrees} of {tp}");
    println!("ambiguous names reported as ambiguous: {ambiguous_found} of {ambiguous}");
    assert!(labels.len() >= 80 && positives >= 20);
    assert!(precision >= 0.95, "precision {precision:.3}");
    assert!(recall >= 0.90, "recall {recall:.3}");
}
