//! `lint --write` then `check` on the cold set's plans (issue 18, done
//! criterion): each domain of `tests/fixtures/lint-cold/` copied into a
//! sandbox, its plan linted, wrapped, and checked. Every clause of every
//! claim region lint wrote is judged by `check` as lint judged it, every
//! statement lint reported is in one, and no sentence lint could not read
//! (unread, ambiguous, or naming what reckon.toml does not know) sits
//! inside a claim region, where it would look checked.

mod common;

use common::{copy_dir, fixtures, Sandbox};
use serde_json::Value;

const DOMAINS: [&str; 6] = ["serving", "kernels", "caches", "training", "compilers", "storage"];

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A claim as both sides print it (`≈` and `~=` alike).
fn same_claim(a: &str, b: &str) -> bool {
    words(&a.replace('≈', "~=")) == words(&b.replace('≈', "~="))
}

/// The text inside each claim region of a document, whitespace folded.
fn claim_regions(text: &str) -> Vec<String> {
    let doc = reckon::doc::parse(std::path::Path::new("plan.md"), text).unwrap();
    doc.regions
        .iter()
        .filter(|r| r.kind == reckon::doc::Kind::Claim)
        .map(|r| words(&text[r.open.end..r.close.start]))
        .collect()
}

#[test]
fn lint_write_then_check_gives_lints_verdicts_and_wraps_no_unread_sentence_on_the_cold_plans() {
    let mut compared = 0;
    for domain in DOMAINS {
        let sb = Sandbox::new();
        copy_dir(&fixtures().join("lint-cold").join(domain), sb.path());
        sb.ok(&["ingest"]);
        let before = sb.read("plan.md");
        let lint = sb.run(&["lint", "--all", "--no-ingest", "--format", "json", "plan.md"]);
        let all = lint.json()["statements"].as_array().unwrap().clone();
        let problems: Vec<&Value> = all.iter().filter(|s| s["problem"] == true).collect();
        let wrote = sb.run(&["lint", "--no-ingest", "--write", "plan.md"]);
        assert!(wrote.code == 0 || wrote.code == 1, "{domain}: {wrote:?}");
        let written = sb.read("plan.md");
        if problems.is_empty() {
            assert_eq!(written, before, "{domain}");
            continue;
        }
        let check = sb.run(&["check", "--no-ingest", "--format", "json", "plan.md"]);
        let claims = check.json()["documents"][0]["claims"].as_array().unwrap().clone();
        let mut clauses: Vec<(String, Value)> = Vec::new();
        // The plans hold no claim region of their own: every one is lint's.
        assert!(claim_regions(&before).is_empty(), "{domain}");
        for c in &claims {
            for clause in c["claim"]["clauses"].as_array().unwrap() {
                clauses.push((clause["statement"].as_str().unwrap().to_string(), clause["verdict"].clone()));
            }
        }
        // Each clause check judged is a statement lint judged, with its verdict.
        for (statement, verdict) in &clauses {
            let judged: Vec<&Value> = all
                .iter()
                .filter(|s| s["claim"].as_str().is_some_and(|c| same_claim(c, statement)) && !s["verdict"].is_null())
                .collect();
            assert!(!judged.is_empty(), "{domain}: check judged `{statement}`, which lint did not judge");
            assert!(
                judged.iter().any(|s| s["verdict"] == *verdict),
                "{domain}: `{statement}`: {verdict} vs {judged:#?}"
            );
            compared += 1;
        }
        // Each problem wrapped, unless its sentence says what lint could
        // not read (then it is left to the author, and said on stderr).
        let regions = claim_regions(&written);
        for p in &problems {
            let sentence = words(p["sentence"].as_str().unwrap());
            let unread = all.iter().any(|s| {
                s["sentence"] == p["sentence"]
                    && s["claim"].is_null()
                    && matches!(s["status"].as_str(), Some("unjudged" | "ambiguous"))
            });
            if unread {
                assert!(!regions.iter().any(|r| r.contains(&sentence)), "{domain}: {sentence}");
                assert!(wrote.stderr.contains("not wrapped"), "{domain}: {wrote:?}");
            } else if !p["in_table"].as_bool().unwrap() {
                let claim = p["claim"].as_str().unwrap();
                assert!(clauses.iter().any(|(c, _)| same_claim(c, claim)), "{domain}: `{claim}` not wrapped");
            }
        }
        // No sentence lint could not read inside a claim region.
        for s in all.iter().filter(|s| s["claim"].is_null()) {
            let sentence = words(s["sentence"].as_str().unwrap());
            for r in &regions {
                assert!(
                    !r.contains(&sentence),
                    "{domain}: `{sentence}` (not read: {}) is in a claim region",
                    s["summary"]
                );
            }
        }
    }
    println!("lint --write then check on the cold plans: {compared} clauses judged alike");
    assert!(compared > 0);
}
