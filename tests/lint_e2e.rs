//! `reckon lint` end to end on the scenario: the unannotated plan
//! (`tests/fixtures/lint-scenario/eagle-fast-verify.md`, a copy of the
//! scenario's) against both sweeps. What must be reported and what must not
//! is the scenario README's "What a correct tool concludes".

mod common;

use common::{copy_dir, fixtures, Sandbox};
use serde_json::Value;

const PLAN: &str = "eagle-fast-verify.md";

fn scenario() -> Sandbox {
    let sb = Sandbox::with_scenario();
    copy_dir(&fixtures().join("lint-scenario"), sb.path());
    sb
}

fn statements(sb: &Sandbox, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["lint", "--format", "json", PLAN];
    args.extend_from_slice(extra);
    let ran = sb.run(&args);
    assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    v["statements"].as_array().unwrap().clone()
}

fn about<'a>(all: &'a [Value], words: &str) -> Vec<&'a Value> {
    all.iter().filter(|s| s["sentence"].as_str().unwrap().contains(words)).collect()
}

#[test]
fn reports_the_three_overturned_conclusions_and_nothing_else() {
    let sb = scenario();
    let ran = sb.run(&["lint", PLAN]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let reported = statements(&sb, &[]);
    let problems: Vec<&Value> = reported.iter().filter(|s| s["problem"] == true).collect();
    assert_eq!(problems.len(), 3, "{problems:#?}");

    // 1. "Baseline is strictly superior": contradicted, C=30 the worst point.
    let superior: Vec<&&Value> =
        problems.iter().filter(|s| s["claim"].as_str().unwrap().starts_with("baseline beats others")).collect();
    assert_eq!(superior.len(), 1, "{problems:#?}");
    assert_eq!(superior[0]["status"], "contradicted");
    let summary = superior[0]["summary"].as_str().unwrap();
    assert!(
        summary.contains("max_concurrency=30") && summary.contains("759.3") && summary.contains("689.4"),
        "{summary}"
    );

    // 2. "up to 2.3x better at saturation": stale, held as of the old sweep.
    let ratio: Vec<&&Value> =
        problems.iter().filter(|s| s["claim"].as_str().unwrap().starts_with("baseline / eagle-topk4-v1")).collect();
    assert_eq!(ratio.len(), 1, "{problems:#?}");
    assert_eq!(ratio[0]["status"], "stale");
    assert_eq!(ratio[0]["held_as_of"], "2026-11-20");

    // 3. "plateaus at about 336 tok/s": stale; now about 353.
    let plateau: Vec<&&Value> = problems.iter().filter(|s| s["claim"].as_str().unwrap().contains("≈ 336")).collect();
    assert_eq!(plateau.len(), 1, "{problems:#?}");
    assert_eq!(plateau[0]["status"], "stale");
    assert!(plateau[0]["summary"].as_str().unwrap().contains("353.2"));
    assert!(plateau[0]["sentence"].as_str().unwrap().contains("plateaus at about 336"));
}

#[test]
fn holding_dated_and_uncheckable_statements_are_not_flagged() {
    let sb = scenario();
    let all = statements(&sb, &["--all"]);
    let not_flagged = |words: &str| {
        let found = about(&all, words);
        for s in &found {
            assert_eq!(s["problem"], false, "{words}: {s:#}");
        }
        found
    };
    // 4. 96 vs 93 at a single request, read and holding.
    let single = not_flagged("96 vs 93");
    assert!(single
        .iter()
        .any(|s| s["status"] == "holds" && s["claim"].as_str().unwrap().contains("max_concurrency = 1")));
    // 5. 1.6x by C=8, holding.
    let gap = not_flagged("1.6x ahead");
    assert!(gap.iter().any(|s| s["status"] == "holds"), "{gap:#?}");
    // 6. the peak of 773 tok/s, holding (now at C=100).
    let peak = about(&all, "peak of 773");
    assert!(peak.iter().any(|s| s["status"] == "holds" && s["claim"].as_str().unwrap().starts_with("max(baseline")));
    // 7. the dated table: history, judged as of its sweep.
    let cells: Vec<&Value> = all.iter().filter(|s| s["sentence"] == "641.8").collect();
    assert_eq!(cells.len(), 1);
    assert_eq!(cells[0]["status"], "history");
    assert_eq!(cells[0]["as_of"], "2026-11-20");
    // 8. nothing to check: NCCL tuning, the 9% from cuda-graph-max-bs, the
    // dynamic-disable recommendation.
    for words in ["NCCL tuning", "cuda-graph-max-bs", "Dynamic speculation disable", "Re-run the full sweep"] {
        for s in about(&all, words) {
            assert!(s["verdict"].is_null(), "{words} must not be judged: {s:#}");
        }
    }
}

#[test]
fn write_wraps_the_statements_and_check_agrees() {
    let sb = scenario();
    let before = sb.read(PLAN);
    let reported = statements(&sb, &["--all"]);
    let ran = sb.run(&["lint", "--write", PLAN]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let after = sb.read(PLAN);
    assert_ne!(before, after);
    // The author's words are untouched: only markers were added (around
    // whole lines, or inline around a sentence that shares its lines).
    assert_eq!(without_markers(&after), before);
    // The plateau sentence shares its last line with the gap sentence, which
    // is not part of its claim: only the plateau sentence is wrapped.
    assert!(after.contains("\n<!-- reckon:claim id=lint-44 max(eagle-topk4-v1 "), "{after}");
    assert!(after.contains("C=150.<!-- /reckon:claim --> The gap opens early:\n"), "{after}");

    // check judges the new claim regions exactly as lint did.
    let ran = sb.run(&["check", "--format", "json", PLAN]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    let claims = v["documents"][0]["claims"].as_array().unwrap();
    assert_eq!(claims.len(), 2, "{claims:#?}");
    let mut judged = 0;
    for c in claims {
        for clause in c["claim"]["clauses"].as_array().unwrap() {
            let statement = clause["statement"].as_str().unwrap();
            let lint = reported
                .iter()
                .find(|s| s["claim"].as_str().is_some_and(|c| c.replace("≈", "~=") == statement.replace("≈", "~=")))
                .unwrap_or_else(|| panic!("check judged `{statement}`, which lint did not report: {reported:#?}"));
            assert_eq!(clause["verdict"], lint["verdict"], "{statement}");
            judged += 1;
        }
    }
    // Every problem, and with it what else lint judged in its sentence (the
    // peak of 773 beside the plateau): a region checks its whole sentence.
    let problem_sentences: Vec<&Value> =
        reported.iter().filter(|s| s["problem"] == true).map(|s| &s["sentence"]).collect();
    let wrapped = reported
        .iter()
        .filter(|s| problem_sentences.contains(&&s["sentence"]) && !s["verdict"].is_null() && s["as_of"].is_null())
        .count();
    assert_eq!(judged, wrapped);
    assert!(wrapped > problem_sentences.len(), "a sentence's other statements are wrapped too");
    // The wrapped statements are the claims' now: lint leaves them alone.
    let again = statements(&sb, &[]);
    assert!(again.iter().all(|s| s["problem"] == false), "{again:#?}");
}

#[test]
fn suggest_prints_claim_regions_and_formats_agree() {
    let sb = scenario();
    let ran = sb.run(&["lint", "--suggest", PLAN]);
    assert_eq!(ran.code, 1);
    assert!(ran.stdout.contains("<!-- reckon:claim id=lint-55"), "{}", ran.stdout);
    assert!(ran
        .stdout
        .contains("baseline beats others on output_throughput for all max_concurrency and baseline / eagle-topk4-v1"));
    assert_eq!(sb.read(PLAN), std::fs::read_to_string(fixtures().join("lint-scenario").join(PLAN)).unwrap());

    let gh = sb.run(&["lint", "--format", "github", PLAN]);
    assert_eq!(gh.code, 1);
    assert_eq!(
        gh.stdout.lines().filter(|l| l.starts_with("::error file=eagle-fast-verify.md,line=")).count(),
        3,
        "{}",
        gh.stdout
    );

    let human = sb.run(&["lint", PLAN]);
    assert!(
        human.stdout.contains("eagle-fast-verify.md:44:1: stale: right as of 2026-11-20, now contradicted"),
        "{}",
        human.stdout
    );
    assert!(human
        .stdout
        .contains("read as: max(eagle-topk4-v1 on output_throughput for all max_concurrency >= 50) ≈ 336"));

    // A threshold above every reading reports nothing.
    let strict = sb.run(&["lint", "--min-confidence", "0.99", PLAN]);
    assert_eq!(strict.code, 0, "{strict:?}");
    let bad = sb.run(&["lint", "--min-confidence", "2", PLAN]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--min-confidence"), "{bad:?}");
}

#[test]
fn check_runs_lint_at_the_configured_level() {
    let sb = scenario();
    let ran = sb.run(&["check", PLAN]);
    assert_eq!(ran.code, 0, "warn is the default: {ran:?}");
    assert_eq!(ran.stdout.matches(": warning: lint: ").count(), 3, "{}", ran.stdout);

    let toml = sb.read("reckon.toml");
    sb.write("reckon.toml", format!("{toml}\n[lint]\nlevel = \"error\"\n"));
    let ran = sb.run(&["check", PLAN]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(ran.stdout.matches(": error: lint: ").count(), 3, "{}", ran.stdout);

    sb.write("reckon.toml", format!("{toml}\n[lint]\nlevel = \"error\"\nmin_confidence = 0.7\n"));
    let ran = sb.run(&["check", PLAN]);
    assert_eq!(ran.stdout.matches(": error: lint: ").count(), 2, "the 0.55 reading is left out: {}", ran.stdout);

    sb.write("reckon.toml", format!("{toml}\n[lint]\nlevel = \"off\"\n"));
    let ran = sb.run(&["check", PLAN]);
    assert_eq!(ran.code, 0);
    assert!(!ran.stdout.contains("lint:"), "{}", ran.stdout);

    sb.write("reckon.toml", format!("{toml}\n[lint]\nlevel = \"loud\"\n"));
    let ran = sb.run(&["check", PLAN]);
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("reckon.toml") && ran.stderr.contains("loud"), "{ran:?}");
}

#[test]
fn statements_in_claim_regions_and_code_are_left_alone() {
    let sb = scenario();
    sb.write(
        "other.md",
        concat!(
            "# Notes\n\n<!-- reckon:claim id=mine\n",
            "     baseline beats others on output_throughput for all max_concurrency -->\n",
            "Baseline is strictly superior.\n<!-- /reckon:claim -->\n\n",
            "```\nBaseline is strictly superior.\n```\n\n",
            "The `baseline` config is strictly superior on tok/s.\n\n",
            "EAGLE-3 beats baseline on tok/s at C=30.\n",
        ),
    );
    let ran = sb.run(&["lint", "--format", "json", "--all", "other.md"]);
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    let all = v["statements"].as_array().unwrap();
    assert_eq!(all.len(), 2, "{all:#?}");
    assert_eq!(all[0]["line"], 12);
    assert_eq!(all[0]["status"], "contradicted");
    assert_eq!(all[1]["status"], "ambiguous");
    assert_eq!(all[1]["candidates"], serde_json::json!(["eagle-topk1-v2", "eagle-topk4-v1"]));
}

/// `lint --write` then `check` on the three domains of the labelled set:
/// each claim region check judges holds exactly the statements lint
/// reported there, and gets the verdict lint gave them.
#[test]
fn write_then_check_agrees_on_the_labelled_domains() {
    let norm = |s: &str| s.replace("≈", "~=");
    for domain in ["serving", "kernels", "caches"] {
        let sb = Sandbox::new();
        copy_dir(&fixtures().join("lint-set").join(domain), sb.path());
        // Statements in table cells are reported but cannot be wrapped.
        let reported: Vec<Value> = statements_of(&sb, "plan.md")
            .into_iter()
            .filter(|s| s["problem"] == true && s["in_table"] == false)
            .collect();
        assert!(!reported.is_empty(), "{domain}");
        assert_eq!(sb.run(&["lint", "--write", "plan.md"]).code, 1);
        let ran = sb.run(&["check", "--format", "json", "plan.md"]);
        let v: Value = serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{domain}: {e}: {ran:?}"));
        let mut covered = 0;
        for c in v["documents"][0]["claims"].as_array().unwrap() {
            let clauses: Vec<String> = c["claim"]["clauses"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| norm(k["statement"].as_str().unwrap()))
                .collect();
            let mine: Vec<&Value> = reported
                .iter()
                .filter(|s| {
                    norm(s["claim"].as_str().unwrap()).split(" and ").all(|part| clauses.iter().any(|k| k == part))
                })
                .collect();
            let parts: usize = mine.iter().map(|s| s["claim"].as_str().unwrap().split(" and ").count()).sum();
            assert_eq!(parts, clauses.len(), "{domain}: {clauses:?} vs lint's {mine:#?}");
            for s in &mine {
                assert_eq!(s["verdict"], "contradicted", "{domain}: {s:#}");
            }
            assert_eq!(c["claim"]["verdict"], "contradicted", "{domain}: {c:#}");
            covered += mine.len();
        }
        assert_eq!(covered, reported.len(), "{domain}: every reported statement is in one claim region");
    }
}

fn statements_of(sb: &Sandbox, doc: &str) -> Vec<Value> {
    let ran = sb.run(&["lint", "--format", "json", doc]);
    let v: Value = serde_json::from_str(&ran.stdout).unwrap();
    v["statements"].as_array().unwrap().clone()
}

/// A document with reckon's claim markers taken out: marker lines whole,
/// inline markers from within their line.
fn without_markers(text: &str) -> String {
    let mut out = String::new();
    let mut in_opener = false;
    let mut joins_next = false;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_start_matches(['>', ' ']).trim_end();
        if in_opener {
            in_opener = !bare.ends_with("-->");
            continue;
        }
        if bare.starts_with("<!-- reckon:claim") && (bare.ends_with("-->") || !bare.contains("-->")) {
            in_opener = !bare.contains("-->");
            continue;
        }
        if bare == "<!-- /reckon:claim -->" {
            continue;
        }
        let mut rest = line;
        if joins_next {
            // The sentence moved to the line after its item's marker.
            rest = rest.trim_start_matches(['>', ' ']);
            joins_next = false;
        }
        let mut kept = String::new();
        while let Some(at) = rest.find("<!-- reckon:claim").or_else(|| rest.find("<!-- /reckon:claim")) {
            kept.push_str(&rest[..at]);
            let end = at + rest[at..].find("-->").expect("an inline marker ends on its line") + 3;
            rest = &rest[end..];
        }
        // An opening marker right after a list item's marker ends its line.
        let marker_only = kept.trim().chars().all(|c| " >-*+.)".contains(c) || c.is_ascii_digit());
        if !kept.trim().is_empty() && marker_only && rest.trim().is_empty() {
            joins_next = true;
            out.push_str(&kept);
            continue;
        }
        out.push_str(&kept);
        out.push_str(rest);
    }
    out
}

/// A quiet lint is not prose checked: plain `lint` counts the sentences
/// whose statements it did not judge, as many as `--all` lists unjudged
/// (or of two readings), once each.
#[test]
fn plain_lint_counts_the_statements_it_did_not_judge() {
    let sb = scenario();
    let listed = statements(&sb, &["--all"]);
    let mut unjudged: Vec<&str> = listed
        .iter()
        .filter(|s| s["status"] == "unjudged" || s["status"] == "ambiguous")
        .map(|s| s["sentence"].as_str().unwrap())
        .collect();
    unjudged.dedup();
    assert!(!unjudged.is_empty(), "the scenario has sentences lint does not judge: {listed:#?}");
    let plain = sb.run(&["lint", PLAN]);
    let line = format!("reckon lint: {} sentence(s) with a statement not judged", unjudged.len());
    assert!(plain.stdout.contains(&line), "{line:?} not in {plain:?}");
    let all = sb.run(&["lint", "--all", PLAN]);
    assert!(!all.stdout.contains("not judged (no metric"), "--all lists them instead: {all:?}");
}
