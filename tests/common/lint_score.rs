//! Strict scoring of `reckon lint` on a labelled set written cold
//! (`tests/fixtures/lint-cold/`, `tests/fixtures/lint-holdout/`): each set
//! is folders of projects, each with `plan.md`, `labels.tsv` and its data,
//! and a README whose table names each folder's written-after sweep in
//! bold. Per folder the project is copied into a sandbox and linted twice:
//! on all its data (each cell from its newest sweep) and on the data as of
//! the sweep the plan was written after (later data folders removed). A
//! finding counts when lint reports it (contradicted or stale, at the
//! default confidence). On the newest data a finding is a true positive
//! only when its sentence holds a labelled statement whose
//! `verdict_newest` is contradicted **and** lint read it as the label's
//! reading: both are parsed with the library's claim parser and printed
//! canonically, clause by clause (each clause of the finding must be one of
//! the label's; a number's time unit is converted to the unit its metric is
//! stored in, a unit the metric's name carries — `32 tok/s` on
//! `decode_tok_s` — is the number alone, and a `within` lint added for the
//! number's stated precision is left out when the label has none). Any
//! other finding — the right verdict on the wrong reading included — is a
//! false positive. On the written-after data every statement held, so
//! every finding is false.

use std::collections::BTreeSet;
use std::path::Path;

use super::{copy_dir, fixtures, Sandbox};

pub(crate) struct Label {
    pub(crate) domain: &'static str,
    pub(crate) sentence: String,
    pub(crate) reading: String,
    pub(crate) verdict_newest: String,
}

/// One reported finding: its sentence and what lint read it as.
pub(crate) struct Reported {
    pub(crate) sentence: String,
    pub(crate) claim: String,
    pub(crate) status: String,
}

pub(crate) fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").trim_end_matches('.').to_string()
}

pub(crate) fn labels_of(set: &str, domain: &'static str) -> Vec<Label> {
    let dir = fixtures().join(set).join(domain);
    let tsv = std::fs::read_to_string(dir.join("labels.tsv")).unwrap();
    tsv.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert!(cols.len() >= 4, "{domain}: a label line needs 4 columns: {line}");
            Label {
                domain,
                sentence: cols[0].to_string(),
                reading: cols[1].to_string(),
                verdict_newest: cols[2].to_string(),
            }
        })
        .collect()
}

/// Each domain's written-after sweep: the bold date of its row in the set's
/// README table.
fn written_after(set: &str, domain: &str) -> String {
    let readme = std::fs::read_to_string(fixtures().join(set).join("README.md")).unwrap();
    let row = readme.lines().find(|l| l.starts_with(&format!("| `{domain}/`"))).unwrap();
    let (_, rest) = row.split_once("**").unwrap();
    rest.split_once("**").unwrap().0.to_string()
}

/// What lint reports on one domain, with its data folders dated after
/// `before` (if given) removed.
fn lint(set: &str, domain: &str, after: Option<&str>) -> Vec<Reported> {
    let sb = Sandbox::new();
    copy_dir(&fixtures().join(set).join(domain), sb.path());
    if let Some(date) = after {
        for e in std::fs::read_dir(sb.path().join("data")).unwrap() {
            let e = e.unwrap();
            if e.file_name().to_string_lossy().as_ref() > date {
                std::fs::remove_dir_all(e.path()).unwrap();
            }
        }
    }
    let ran = sb.run(&["lint", "--format", "json", "plan.md"]);
    assert!(ran.code == 0 || ran.code == 1, "{domain}: {ran:?}");
    let v: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    v["statements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| matches!(s["status"].as_str(), Some("contradicted" | "stale")) && s["problem"] == true)
        .map(|s| Reported {
            sentence: s["sentence"].as_str().unwrap().to_string(),
            claim: s["claim"].as_str().unwrap_or("").to_string(),
            status: s["status"].as_str().unwrap().to_string(),
        })
        .collect()
}

/// A claim as the library's parser reads it and its printer writes it,
/// clause by clause, each number's time unit converted to its metric's.
/// Text that does not parse stays as written (whitespace normalised).
fn canonical(claim: &str) -> Vec<String> {
    let text = format!("<!-- reckon:claim id=x {claim} -->\nx\n<!-- /reckon:claim -->\n");
    let printed = reckon::doc::parse(Path::new("label.md"), &text)
        .ok()
        .and_then(|d| reckon::review::claim::parse_region(&d, &text, d.regions.first()?).ok())
        .map_or_else(|| normalize(claim), |(_, _, c)| c.to_string());
    printed.split(" and ").map(in_stored_units).collect()
}

/// `… on p99_itl_ms … <= 45 ms` → `… <= 45`: a time unit after a number,
/// converted to the unit the clause's metric is stored in (from its name).
fn in_stored_units(clause: &str) -> String {
    let secs = |u: &str| match u {
        "ns" => Some(1e-9),
        "us" | "µs" | "μs" => Some(1e-6),
        "ms" => Some(1e-3),
        "s" => Some(1.0),
        "min" => Some(60.0),
        "h" => Some(3600.0),
        _ => None,
    };
    let words: Vec<&str> = clause.split(' ').collect();
    let stored = words
        .windows(2)
        .find(|w| w[0] == "on")
        .and_then(|w| reckon::metric::unit_from_name(w[1].trim_start_matches('(')))
        .and_then(secs);
    // `≈ 78.8 GB` on `peak_mem_gb`: a size in the unit the name ends with.
    let suffix = words.windows(2).find(|w| w[0] == "on").and_then(|w| w[1].rsplit_once('_')).map(|(_, u)| u);
    // `≈ 32 tok/s` on `decode_tok_s`: a rate the name ends with.
    let metric = words.windows(2).find(|w| w[0] == "on").map(|w| w[1].trim_start_matches('(').to_ascii_lowercase());
    let named = |w: &str| {
        w.contains('/') && metric.as_ref().is_some_and(|m| m.ends_with(&w.to_ascii_lowercase().replace('/', "_")))
    };
    let mut out: Vec<String> = Vec::new();
    for w in &words {
        if named(w) && out.last().is_some_and(|p| p.parse::<f64>().is_ok()) {
            continue;
        }
        let size = ["b", "kb", "mb", "gb", "kib", "mib", "gib"].contains(&w.to_ascii_lowercase().as_str());
        if size
            && suffix.is_some_and(|u| u.eq_ignore_ascii_case(w))
            && out.last().is_some_and(|p| p.parse::<f64>().is_ok())
        {
            continue;
        }
        if let (Some(stored), Some(unit), Some(prev)) = (stored, secs(w), out.last()) {
            if let Ok(v) = prev.trim_end_matches(')').parse::<f64>() {
                let closing = if prev.ends_with(')') { ")" } else { "" };
                *out.last_mut().unwrap() = format!("{}{closing}", reckon::metric::format_number(v * unit / stored));
                continue;
            }
        }
        out.push((*w).to_string());
    }
    out.join(" ")
}

/// Whether every clause lint read is one of the label's (a `within` lint
/// added for stated precision ignored where the label has none).
pub(crate) fn reads_as(found: &str, label: &str) -> bool {
    let expected = canonical(label);
    let strip = |c: &str| match c.find(" within ") {
        Some(i) if c[i + 8..].trim_end_matches('%').parse::<f64>().is_ok() && !c[i + 8..].contains(' ') => {
            c[..i].to_string()
        }
        _ => c.to_string(),
    };
    canonical(found).iter().all(|f| expected.iter().any(|e| e == f || (!e.contains(" within ") && *e == strip(f))))
}

/// A set's strict score, with what it printed.
pub(crate) struct Score {
    pub(crate) statements: usize,
    pub(crate) positives: usize,
    /// Contradicted statements found with their reading.
    pub(crate) true_positives: usize,
    pub(crate) precision: f64,
    pub(crate) written_after_findings: usize,
}

/// Scores lint on the folders `domains` of the labelled set `set`,
/// printing each finding (right, false, missed) and the totals.
pub(crate) fn score(set: &str, name: &str, domains: &[&'static str]) -> Score {
    let mut labels: Vec<Label> = Vec::new();
    let (mut fps, mut written_after_findings) = (Vec::new(), Vec::new());
    let mut found: BTreeSet<(&str, usize)> = BTreeSet::new();
    let mut true_findings = 0;
    for &domain in domains {
        let own = labels_of(set, domain);
        let plan = std::fs::read_to_string(fixtures().join(set).join(domain).join("plan.md")).unwrap();
        for l in &own {
            assert_eq!(plan.matches(&l.sentence).count(), 1, "{domain}: `{}` must occur once in plan.md", l.sentence);
        }
        let offset = labels.len();
        labels.extend(own);
        for r in lint(set, domain, None) {
            let n = normalize(&r.sentence);
            let hit = (offset..labels.len()).find(|&i| {
                let l = &labels[i];
                let s = normalize(&l.sentence);
                (n.contains(&s) || s.contains(&n))
                    && l.verdict_newest == "contradicted"
                    && reads_as(&r.claim, &l.reading)
            });
            match hit {
                Some(i) => {
                    println!("found ({domain}, {}): {}\n    read as: {}", r.status, r.sentence, r.claim);
                    true_findings += 1;
                    found.insert((domain, i));
                }
                None => fps.push((domain, r)),
            }
        }
        let date = written_after(set, domain);
        for r in lint(set, domain, Some(&date)) {
            written_after_findings.push((domain, date.clone(), r));
        }
    }
    let positives = labels.iter().filter(|l| l.verdict_newest == "contradicted").count();
    let tp = found.len();
    let reported = true_findings + fps.len();
    let precision = if reported == 0 { 1.0 } else { true_findings as f64 / reported as f64 };
    let recall = tp as f64 / positives as f64;
    for (domain, r) in &fps {
        println!("false positive ({domain}, {}): {}\n    read as: {}", r.status, r.sentence, r.claim);
    }
    for (i, l) in labels.iter().enumerate().filter(|(_, l)| l.verdict_newest == "contradicted") {
        if !found.contains(&(l.domain, i)) {
            println!("missed ({}): {}\n    expected: {}", l.domain, l.sentence, l.reading);
        }
    }
    for (domain, date, r) in &written_after_findings {
        println!("on the {date} sweep ({domain}, {}): {}\n    read as: {}", r.status, r.sentence, r.claim);
    }
    println!(
        "lint on the {name}: {} statements, {positives} contradicted; {reported} findings, {true_findings} right \
         ({tp} statements found)",
        labels.len()
    );
    println!(
        "precision {:.1}%  recall {:.1}%  findings on the written-after sweeps {}",
        100.0 * precision,
        100.0 * recall,
        written_after_findings.len()
    );
    Score {
        statements: labels.len(),
        positives,
        true_positives: tp,
        precision,
        written_after_findings: written_after_findings.len(),
    }
}
