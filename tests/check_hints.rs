//! What `check` tells a researcher to do: supersede an overturned
//! conclusion (not `update --write`), write the conclusion that replaces it,
//! and, from a hook, one line per problem with the diff only on request.

mod common;

use std::path::Path;
use std::process::Command;

use common::{copy_dir, repo, scenario_logs, Sandbox};

const DOC: &str = "notebooks/eagle-fast-verify.md";

/// The example with both sweeps and `documents` in reckon.toml.
fn example() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", std::fs::read(repo().join("reckon.toml")).unwrap());
    assert!(s.read("reckon.toml").contains("documents = [\"notebooks/*.md\"]"));
    s.write(DOC, std::fs::read(repo().join(DOC)).unwrap());
    let svg = "notebooks/eagle-fast-verify-throughput.svg";
    s.write(svg, std::fs::read(repo().join(svg)).unwrap());
    copy_dir(&scenario_logs(), &s.path().join("notebooks/logs"));
    s
}

#[test]
fn a_superseded_conclusion_without_a_successor_is_a_warning_and_fails_strict() {
    let s = example();
    s.ok(&["update", "--write"]);
    // With no document named, the configured ones are read.
    let r = s.run(&["check"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains(&format!("reckon supersede {DOC} topk4-plateau --write")), "{r:?}");
    assert!(!r.stdout.contains("update --write"), "update --write would not make check pass: {r:?}");
    let claims = s.ok(&["claims", "--format", "json"]);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&claims.stdout).unwrap().as_array().unwrap().len(), 6);

    for id in ["throughput-baseline-wins", "saturation-ratio", "topk4-plateau"] {
        s.ok(&["supersede", DOC, id, "--write"]);
    }
    let r = s.ok(&["check"]);
    let warnings: Vec<&str> = r.stdout.lines().filter(|l| l.contains("no new conclusion replaces it")).collect();
    assert_eq!(warnings.len(), 3, "{r:?}");
    assert!(warnings.iter().all(|w| w.contains(": warning: claim `")), "{r:?}");
    assert!(warnings[2].contains("claim `topk4-plateau` was superseded on 2026-11-29"), "{r:?}");
    let r = s.run(&["check", "--strict"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.stdout.lines().filter(|l| l.contains(": error: claim `") && l.contains("no new conclusion")).count(),
        3
    );

    // The comment replaced by a claim for one of them: that one is quiet.
    let text = s.read(DOC);
    let start = text.rfind("<!-- The conclusion above was superseded").unwrap();
    let end = start + text[start..].find("-->").unwrap() + 3;
    let mut text = text;
    text.replace_range(
        start..end,
        "<!-- reckon:claim id=plateau-now\n     max(eagle-topk4-v1 on output_throughput for all max_concurrency >= 50) ≈ 353 within 2% -->\nEAGLE topk=4 plateaus near 353 tok/s.\n<!-- /reckon:claim -->",
    );
    s.write(DOC, text);
    s.ok(&["update", "--write"]);
    let r = s.ok(&["check"]);
    let warnings: Vec<&str> = r.stdout.lines().filter(|l| l.contains("no new conclusion replaces it")).collect();
    assert_eq!(warnings.len(), 2, "{r:?}");
    assert!(!r.stdout.contains("`topk4-plateau` was superseded"), "{r:?}");
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git").arg("-C").arg(dir).args(args).output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_staged_check_prints_one_line_per_problem_and_the_diff_on_request() {
    let s = example();
    let d = s.path();
    git(d, &["init", "-q"]);
    git(d, &["config", "user.name", "t"]);
    git(d, &["config", "user.email", "t@example.com"]);
    git(d, &["add", "-A"]);
    let r = s.run(&["check", "--staged"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(!r.stdout.contains("@@"), "{r:?}");
    assert!(r.stdout.lines().all(|l| l.starts_with(DOC) || l.starts_with("reckon check (as staged)")), "{r:?}");
    assert!(r.stdout.contains("(`reckon check --diff` shows the changes)"), "{r:?}");
    let r = s.run(&["check", "--staged", "--diff"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("@@"), "{r:?}");
    // Paths given after `--` that reckon does not read: nothing to check.
    let r = s.run(&["check", "--staged", "--", "README.md", "-h.md"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
    let r = s.run(&["check", "--staged", "--", "notebooks/logs/2026-11-29/baseline.jsonl"]);
    assert_eq!(r.code, 1, "{r:?}");
}

#[test]
fn a_staged_check_from_the_top_of_a_repository_finds_each_projects_reckon_toml() {
    // The project lives in bench/; the hook runs at the repository's top.
    let s = Sandbox::new();
    let d = s.path();
    s.write("bench/reckon.toml", std::fs::read(repo().join("reckon.toml")).unwrap());
    s.write(&format!("bench/{DOC}"), std::fs::read(repo().join(DOC)).unwrap());
    let svg = "notebooks/eagle-fast-verify-throughput.svg";
    s.write(&format!("bench/{svg}"), std::fs::read(repo().join(svg)).unwrap());
    copy_dir(&scenario_logs().join("2026-11-20"), &d.join("bench/notebooks/logs/2026-11-20"));
    git(d, &["init", "-q"]);
    git(d, &["add", "-A"]);
    let r = s.run(&["check", "--staged"]);
    assert_eq!(r.code, 0, "{r:?}");
    git(d, &["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "plan"]);
    copy_dir(&scenario_logs().join("2026-11-29"), &d.join("bench/notebooks/logs/2026-11-29"));
    git(d, &["add", "-A"]);
    let r = s.run(&["check", "--staged"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("claim `topk4-plateau` contradicted"), "{r:?}");
    let r = s.run(&["check", "--staged", "--", "bench/notebooks/logs/2026-11-29/baseline.jsonl"]);
    assert_eq!(r.code, 1, "{r:?}");
    let r = s.run(&["check", "--staged", "--", "README.md"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
}
