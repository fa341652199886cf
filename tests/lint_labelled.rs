//! Precision and recall of `reckon lint` on the labelled set in
//! `tests/fixtures/lint-set/` (three domains, sentences labelled from the
//! data before the linter existed): a statement is a positive when labelled
//! contradicted or stale; lint's positives are the statements it reports as
//! contradicted or stale with its default confidence threshold. Any reported
//! statement outside a labelled sentence counts against precision.

mod common;

use common::{copy_dir, fixtures, Sandbox};

struct Label {
    domain: &'static str,
    /// contradicted, stale, holds, history, plan, unchecked or ambiguous.
    expected: String,
    sentence: String,
}

fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").trim_end_matches('.').to_string()
}

/// The labelled sentences of one domain, each found once in its plan.
fn labels_of(domain: &'static str) -> Vec<Label> {
    let dir = fixtures().join("lint-set").join(domain);
    let tsv = std::fs::read_to_string(dir.join("labels.tsv")).unwrap();
    let plan = std::fs::read_to_string(dir.join("plan.md")).unwrap();
    let mut labels = Vec::new();
    for line in tsv.lines().filter(|l| !l.trim().is_empty()) {
        let (label, sentence) = line.split_once('\t').unwrap();
        assert_eq!(plan.matches(sentence).count(), 1, "{domain}: `{sentence}` must occur once in plan.md");
        labels.push(Label { domain, expected: label.to_string(), sentence: sentence.to_string() });
    }
    labels
}

/// What lint reports on one domain's plan: (sentence, status) of each
/// problem (contradicted or stale at the default confidence) and each
/// ambiguous name.
fn lint_domain(domain: &str) -> Vec<(String, String)> {
    let sb = Sandbox::new();
    copy_dir(&fixtures().join("lint-set").join(domain), sb.path());
    let ran = sb.run(&["lint", "--format", "json", "plan.md"]);
    assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
    let v: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    let mut out = Vec::new();
    for s in v["statements"].as_array().unwrap() {
        let sentence = s["sentence"].as_str().unwrap().to_string();
        let status = s["status"].as_str().unwrap();
        let problem = matches!(status, "contradicted" | "stale") && s["problem"].as_bool().unwrap();
        if problem || status == "ambiguous" {
            out.push((sentence, status.to_string()));
        }
    }
    out
}

#[test]
fn lint_precision_and_recall_on_the_labelled_set() {
    let mut labels: Vec<Label> = Vec::new();
    // (domain, reported sentence, status)
    let mut reported: Vec<(&'static str, String, String)> = Vec::new();
    let mut ambiguous_reported: Vec<(&'static str, String)> = Vec::new();
    for domain in ["serving", "kernels", "caches"] {
        labels.extend(labels_of(domain));
        for (sentence, status) in lint_domain(domain) {
            match status.as_str() {
                "ambiguous" => ambiguous_reported.push((domain, sentence)),
                _ => reported.push((domain, sentence, status)),
            }
        }
    }
    let find = |domain: &str, sentence: &str| {
        let n = normalize(sentence);
        labels.iter().position(|l| {
            l.domain == domain && (normalize(&l.sentence).contains(&n) || n.contains(&normalize(&l.sentence)))
        })
    };
    let positive = |l: &Label| l.expected == "contradicted" || l.expected == "stale";
    let mut flagged: Vec<Option<usize>> = Vec::new();
    let mut kind_agrees = 0;
    for (domain, sentence, status) in &reported {
        let at = find(domain, sentence);
        if !flagged.contains(&at) || at.is_none() {
            flagged.push(at);
            if at.is_some_and(|i| labels[i].expected == *status) {
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
            eprintln!("missed ({}, {}): {}", l.domain, l.expected, l.sentence);
        }
    }
    let ambiguous = labels.iter().filter(|l| l.expected == "ambiguous").count();
    let ambiguous_found = labels
        .iter()
        .filter(|l| l.expected == "ambiguous")
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
