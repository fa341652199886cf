//! Strict scoring of `reckon lint` on the cold labelled set in
//! `tests/fixtures/lint-cold/` (six domains written from the README by a
//! helper who never read lint's code; its labels are never edited).
//!
//! Per domain the project is copied into a sandbox and linted twice: on
//! all its data (each cell from its newest sweep) and on the data as of the
//! sweep the plan was written after (the bold date of the set's README:
//! later data folders removed). A finding counts when lint reports it
//! (contradicted or stale, at the default confidence). On the newest data a
//! finding is a true positive only when its sentence holds a labelled
//! statement whose `verdict_newest` is contradicted **and** lint read it as
//! the label's reading: both are parsed with the library's claim parser and
//! printed canonically, clause by clause (each clause of the finding must
//! be one of the label's; a number's time unit is converted to the unit its
//! metric is stored in, and a `within` lint added for the number's stated
//! precision is left out when the label has none). Any other finding — the
//! right verdict on the wrong reading included — is a false positive. On the
//! written-after data every statement held, so every finding is false.
//!
//! The targets are precision ≥ 95%, recall ≥ 80% and no finding on the
//! written-after data. Precision and the written-after sweeps are met and
//! asserted as targets. Recall is not yet: until it is, this test is a
//! ratchet on the true positives — the figure reached so far is a floor,
//! and each commit that improves lint raises it to what it reaches. Never
//! lower it.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{copy_dir, fixtures, Sandbox};

/// The ratchet: true positives at least (recall's floor until it reaches
/// 80%).
const TRUE_POSITIVES_AT_LEAST: usize = 51;

const DOMAINS: [&str; 6] = ["serving", "kernels", "caches", "training", "compilers", "storage"];

struct Label {
    domain: &'static str,
    sentence: String,
    reading: String,
    verdict_newest: String,
}

/// One reported finding: its sentence and what lint read it as.
struct Reported {
    sentence: String,
    claim: String,
    status: String,
}

fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").trim_end_matches('.').to_string()
}

fn labels_of(domain: &'static str) -> Vec<Label> {
    let dir = fixtures().join("lint-cold").join(domain);
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
fn written_after(domain: &str) -> String {
    let readme = std::fs::read_to_string(fixtures().join("lint-cold/README.md")).unwrap();
    let row = readme.lines().find(|l| l.starts_with(&format!("| `{domain}/`"))).unwrap();
    let (_, rest) = row.split_once("**").unwrap();
    rest.split_once("**").unwrap().0.to_string()
}

/// What lint reports on one domain, with its data folders dated after
/// `before` (if given) removed.
fn lint(domain: &str, after: Option<&str>) -> Vec<Reported> {
    let sb = Sandbox::new();
    copy_dir(&fixtures().join("lint-cold").join(domain), sb.path());
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
    let mut out: Vec<String> = Vec::new();
    for w in &words {
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
fn reads_as(found: &str, label: &str) -> bool {
    let expected = canonical(label);
    let strip = |c: &str| match c.find(" within ") {
        Some(i) if c[i + 8..].trim_end_matches('%').parse::<f64>().is_ok() && !c[i + 8..].contains(' ') => {
            c[..i].to_string()
        }
        _ => c.to_string(),
    };
    canonical(found).iter().all(|f| expected.iter().any(|e| e == f || (!e.contains(" within ") && *e == strip(f))))
}

#[test]
fn lint_strictly_scored_on_the_cold_set() {
    let mut labels: Vec<Label> = Vec::new();
    let (mut fps, mut written_after_findings) = (Vec::new(), Vec::new());
    let mut found: BTreeSet<(&str, usize)> = BTreeSet::new();
    let mut true_findings = 0;
    for domain in DOMAINS {
        let own = labels_of(domain);
        let plan = std::fs::read_to_string(fixtures().join("lint-cold").join(domain).join("plan.md")).unwrap();
        for l in &own {
            assert_eq!(plan.matches(&l.sentence).count(), 1, "{domain}: `{}` must occur once in plan.md", l.sentence);
        }
        let offset = labels.len();
        labels.extend(own);
        for r in lint(domain, None) {
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
        let date = written_after(domain);
        for r in lint(domain, Some(&date)) {
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
        "lint on the cold set: {} statements, {positives} contradicted; {reported} findings, {true_findings} right \
         ({tp} statements found)",
        labels.len()
    );
    println!(
        "precision {:.1}%  recall {:.1}%  findings on the written-after sweeps {}",
        100.0 * precision,
        100.0 * recall,
        written_after_findings.len()
    );
    assert!(labels.len() >= 150 && positives >= 50);
    assert!(tp >= TRUE_POSITIVES_AT_LEAST, "true positives {tp} < {TRUE_POSITIVES_AT_LEAST}");
    assert!(precision >= 0.95, "precision {:.1}% below 95%", 100.0 * precision);
    assert!(
        written_after_findings.is_empty(),
        "findings on the written-after sweeps: {}",
        written_after_findings.len()
    );
}

/// Each finding lint would report at any confidence: sentence, claim, the
/// confidence it was read with, and whether it borrowed from its context.
fn findings_at_any_confidence(set: &str, domain: &str) -> Vec<(String, String, f64, bool)> {
    let sb = Sandbox::new();
    copy_dir(&fixtures().join(set).join(domain), sb.path());
    let ran = sb.run(&["lint", "--format", "json", "--min-confidence", "0", "plan.md"]);
    assert!(ran.code == 0 || ran.code == 1, "{domain}: {ran:?}");
    let v: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    v["statements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| matches!(s["status"].as_str(), Some("contradicted" | "stale")))
        .map(|s| {
            let text = |k: &str| s[k].as_str().unwrap_or("").to_string();
            let borrowed = s["notes"].as_array().is_some_and(|n| !n.is_empty());
            (text("sentence"), text("claim"), s["confidence"].as_f64().unwrap(), borrowed)
        })
        .collect()
}

/// Whether `sentence` is (in) a labelled one `right` accepts.
fn labelled(labels: &[(String, String, String)], sentence: &str, right: impl Fn(&str, &str) -> bool) -> bool {
    let n = normalize(sentence);
    labels.iter().any(|(kind, s, reading)| {
        let s = normalize(s);
        (n.contains(&s) || s.contains(&n)) && right(kind, reading)
    })
}

/// Issue 18 item 5: what a reported finding's confidence means, measured
/// on both labelled sets at every confidence (`--min-confidence 0`). A
/// cold-set finding is right as the scorer above counts it (a
/// contradicted statement read as its label reads it); a finding of the
/// older set in `tests/fixtures/lint-set/` when its sentence is labelled
/// contradicted or stale. Printed: each confidence bucket with its
/// precision, and the precision of what a threshold reports; the
/// calibrated threshold is the lowest at which what is reported is right
/// at least 95% of the time on each set, among those the sets hold
/// findings down to (below the least confident finding nothing is
/// measured). What the default (`[lint] min_confidence`, 0.5) reports must
/// be right at least 95% of the time on each set, and a reading that
/// borrowed from its context is less sure than the 0.9 of one that did not.
#[test]
fn confidence_calibrated_on_both_labelled_sets() {
    // (set, confidence, right)
    let mut found: Vec<(&str, f64, bool)> = Vec::new();
    let mut borrowed: Vec<f64> = Vec::new();
    for domain in DOMAINS {
        let labels: Vec<(String, String, String)> =
            labels_of(domain).into_iter().map(|l| (l.verdict_newest, l.sentence, l.reading)).collect();
        for (sentence, claim, confidence, lent) in findings_at_any_confidence("lint-cold", domain) {
            borrowed.extend(lent.then_some(confidence));
            let right =
                labelled(&labels, &sentence, |kind, reading| kind == "contradicted" && reads_as(&claim, reading));
            found.push(("cold", confidence, right));
        }
    }
    for domain in ["serving", "kernels", "caches"] {
        let tsv = std::fs::read_to_string(fixtures().join("lint-set").join(domain).join("labels.tsv")).unwrap();
        let labels: Vec<(String, String, String)> = tsv
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(k, s)| (k.to_string(), s.to_string(), String::new()))
            .collect();
        for (sentence, _, confidence, lent) in findings_at_any_confidence("lint-set", domain) {
            borrowed.extend(lent.then_some(confidence));
            let right = labelled(&labels, &sentence, |kind, _| kind == "contradicted" || kind == "stale");
            found.push(("labelled", confidence, right));
        }
    }
    let bounds = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.0];
    let share = |right: usize, n: usize| {
        if n == 0 {
            "-".to_string()
        } else {
            format!("{:.1}%", 100.0 * right as f64 / n as f64)
        }
    };
    let count = |set: &str, keep: &dyn Fn(f64) -> bool| {
        let of: Vec<bool> =
            found.iter().filter(|(s, c, _)| (set.is_empty() || *s == set) && keep(*c)).map(|f| f.2).collect();
        (of.iter().filter(|r| **r).count(), of.len())
    };
    println!("confidence      cold (right/reported)    labelled                 both");
    let mut upper = f64::INFINITY;
    for lo in bounds {
        let row: Vec<String> = ["cold", "labelled", ""]
            .iter()
            .map(|set| {
                let (r, n) = count(set, &|c| c >= lo && c < upper);
                format!("{r:>3}/{n:<3} {:>7}", share(r, n))
            })
            .collect();
        println!("[{lo:.1}, {:.1})      {}", upper.min(1.01), row.join("        "));
        upper = lo;
    }
    println!("threshold       precision of what it reports (cold, labelled, both)");
    let least = found.iter().map(|f| f.1).fold(f64::INFINITY, f64::min);
    let mut calibrated = None;
    let ok = |(r, n): (usize, usize)| n == 0 || r as f64 >= 0.95 * n as f64;
    for lo in bounds.iter().rev() {
        let at = |set: &str| count(set, &|c| c >= *lo);
        let ((rc, nc), (rl, nl), (rb, nb)) = (at("cold"), at("labelled"), at(""));
        println!("  >= {lo:.1}        {}, {}, {}", share(rc, nc), share(rl, nl), share(rb, nb));
        if calibrated.is_none() && *lo + 0.1 > least && ok((rc, nc)) && ok((rl, nl)) {
            calibrated = Some(*lo);
        }
    }
    let calibrated = calibrated.expect("no threshold reports findings right 95% of the time");
    println!(
        "calibrated threshold: {calibrated:.1} (the least confident finding of either set: {least:.2}; below it \
         nothing is measured); the default [lint] min_confidence 0.5 reports {}, {} right",
        share(count("cold", &|c| c >= 0.5).0, count("cold", &|c| c >= 0.5).1),
        share(count("labelled", &|c| c >= 0.5).0, count("labelled", &|c| c >= 0.5).1)
    );
    assert!(ok(count("cold", &|c| c >= 0.5)) && ok(count("labelled", &|c| c >= 0.5)), "the default is below 95%");
    assert!(!borrowed.is_empty() && borrowed.iter().all(|c| *c < 0.9), "borrowing lowers confidence: {borrowed:?}");
}
