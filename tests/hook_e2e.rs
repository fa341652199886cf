//! The installed git hook, end to end, with real commits in a temporary
//! repository: it runs when the data change (not only the markdown), judges
//! what is staged (not the working tree), and names what to do.
#![allow(clippy::format_collect)] // floor-plan debt (issue 7): fix these and delete this line

mod common;

use std::path::Path;
use std::process::Command;

use common::{copy_dir, repo, scenario_logs, Ran, Sandbox};

const DOC: &str = "notebooks/eagle-fast-verify.md";
const OVERTURNED: [&str; 3] = ["throughput-baseline-wins", "saturation-ratio", "topk4-plateau"];

fn git(dir: &Path, args: &[&str]) -> Ran {
    let out = Command::new("git").arg("-C").arg(dir).args(args).output().unwrap();
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    }
}

fn git_ok(dir: &Path, args: &[&str]) -> Ran {
    let r = git(dir, args);
    assert_eq!(r.code, 0, "git {args:?}\n{r:?}");
    r
}

/// `git commit -a`-less commit of what is staged, with the reckon under test
/// first on PATH (the hook runs the `reckon` it finds there).
fn commit(dir: &Path, msg: &str) -> Ran {
    let bin = Path::new(env!("CARGO_BIN_EXE_reckon")).parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["commit", "-q", "-m", msg])
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("RECKON")
        .output()
        .unwrap();
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    }
}

fn commits(dir: &Path) -> usize {
    git(dir, &["rev-list", "--count", "HEAD"]).stdout.trim().parse().unwrap_or(0)
}

/// The bundled example as a fresh project: its reckon.toml (which lists the
/// `documents`),
/// the plan as regenerated after the 2026-11-20 sweep, that sweep's logs,
/// and the hook installed.
fn project() -> Sandbox {
    let s = Sandbox::new();
    let d = s.path();
    git_ok(d, &["init", "-q"]);
    git_ok(d, &["config", "user.name", "Researcher"]);
    git_ok(d, &["config", "user.email", "researcher@example.com"]);
    git_ok(d, &["config", "commit.gpgsign", "false"]);
    let toml = std::fs::read_to_string(repo().join("reckon.toml")).unwrap();
    assert!(toml.contains("documents = [\"notebooks/*.md\"]"), "the example configures its documents");
    s.write("reckon.toml", toml);
    s.write(DOC, std::fs::read(repo().join(DOC)).unwrap());
    let svg = "notebooks/eagle-fast-verify-throughput.svg";
    s.write(svg, std::fs::read(repo().join(svg)).unwrap());
    s.write("db/.gitignore", "*.sqlite*\n");
    add_sweep(&s, "2026-11-20");
    let r = s.ok(&["hook", "install"]);
    assert!(r.stderr.contains("pre-commit"), "{r:?}");
    s
}

fn add_sweep(s: &Sandbox, sweep: &str) {
    copy_dir(&scenario_logs().join(sweep), &s.path().join("notebooks/logs").join(sweep));
}

/// Replaces each comment `supersede` left with a new conclusion.
fn write_new_conclusions(s: &Sandbox, conclusions: &[&str]) {
    let mut text = s.read(DOC);
    for c in conclusions {
        let start = text.find("<!-- The conclusion above was superseded").expect("a place for the new conclusion");
        let end = start + text[start..].find("-->").unwrap() + 3;
        text.replace_range(start..end, c);
    }
    assert!(!text.contains("<!-- The conclusion above was superseded"));
    s.write(DOC, text);
}

const NEW_CONCLUSIONS: [&str; 3] = [
    "<!-- reckon:claim id=topk1-wins-at-30\n     eagle-topk1-v2 beats baseline on output_throughput at max_concurrency = 30 -->\nAt 30 concurrent requests EAGLE topk=1 on the spec_v2 path beats the baseline.\n<!-- /reckon:claim -->",
    "<!-- reckon:claim id=saturation-ratio-now\n     max(baseline / eagle-topk4-v1 on output_throughput for all max_concurrency) ≈ 2.19 within 3% -->\nAt saturation the baseline is about 2.2x EAGLE topk=4.\n<!-- /reckon:claim -->",
    "<!-- reckon:claim id=topk4-plateau-now\n     max(eagle-topk4-v1 on output_throughput for all max_concurrency >= 50) ≈ 353 within 2% -->\nEAGLE topk=4 plateaus near 353 tok/s.\n<!-- /reckon:claim -->",
];

#[test]
fn the_hook_refuses_the_sweep_that_overturns_conclusions_and_judges_what_is_staged() {
    let s = project();
    let d = s.path();

    // The plan and the sweep it was written from: current, the commit goes in.
    git_ok(d, &["add", "-A"]);
    let r = commit(d, "plan and the 2026-11-20 sweep");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(commits(d), 1);

    // A commit of nothing reckon reads is not checked (and so not slowed).
    s.write("NOTES.txt", "lab notes\n");
    git_ok(d, &["add", "NOTES.txt"]);
    let r = commit(d, "notes");
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""), "{r:?}");

    // Only the new sweep's logs: no markdown staged, yet refused, naming
    // each overturned conclusion and what to do about it.
    add_sweep(&s, "2026-11-29");
    git_ok(d, &["add", "notebooks/logs"]);
    let r = commit(d, "the 2026-11-29 sweep");
    assert_ne!(r.code, 0, "the commit that overturns the conclusions goes in: {r:?}");
    assert_eq!(commits(d), 2);
    let out = format!("{}{}", r.stdout, r.stderr);
    for id in OVERTURNED {
        assert!(out.contains(&format!("claim `{id}` contradicted")), "{id} not named:\n{out}");
        assert!(out.contains(&format!("reckon supersede {DOC} {id} --write")), "no supersede hint for {id}:\n{out}");
    }
    assert!(!out.contains("@@"), "the hook prints one line per problem, not the diff:\n{out}");
    assert_eq!(out.lines().filter(|l| l.contains("claim `") && l.contains(": error: ")).count(), 3, "{out}");

    // Supersede them, write the new conclusions, regenerate: it goes in.
    for id in OVERTURNED {
        s.ok(&["supersede", DOC, id, "--write"]);
    }
    let r = s.run(&["check"]);
    assert!(
        r.stdout.contains("no new conclusion replaces it"),
        "a superseded claim with nothing after it is reported:\n{r:?}"
    );
    write_new_conclusions(&s, &NEW_CONCLUSIONS);
    s.ok(&["update", "--write"]);
    s.ok(&["check"]);
    git_ok(d, &["add", "-A"]);
    let r = commit(d, "the 2026-11-29 sweep, with what it changes");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(commits(d), 3);

    // A bad claim staged, a good one in the working tree: the staged one is
    // what would be committed, so the commit is refused.
    let good = "<!-- reckon:claim id=mid-load\n     eagle-topk1-v2 beats baseline on output_throughput at max_concurrency = 30 -->\nAt 30, topk=1 on v2 wins.\n<!-- /reckon:claim -->\n";
    let bad = good
        .replace("eagle-topk1-v2 beats baseline", "baseline beats eagle-topk1-v2")
        .replace("topk=1 on v2 wins", "baseline wins");
    let with = |claim: &str| format!("{}\n{claim}", s.read(DOC));
    let plan = s.read(DOC);
    s.write(DOC, with(&bad));
    git_ok(d, &["add", DOC]);
    s.write(DOC, format!("{plan}\n{good}"));
    s.ok(&["check"]);
    let r = commit(d, "a conclusion");
    assert_ne!(r.code, 0, "the staged bad claim goes in: {r:?}");
    assert!(r.stderr.contains("claim `mid-load` contradicted"), "{r:?}");
    assert_eq!(commits(d), 3);
    // The working tree still checks clean: the staged content left nothing behind.
    s.ok(&["check"]);
    // Staged as in the working tree: it goes in.
    git_ok(d, &["add", DOC]);
    let r = commit(d, "a conclusion");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(commits(d), 4);

    // A bad log staged (a sweep where topk=1 collapses), the good one in the
    // working tree: refused too — the staged data are judged.
    let log = "notebooks/logs/2026-11-29/eagle-topk1-v2.jsonl";
    let good_log = s.read(log);
    let collapsed: String = good_log
        .lines()
        .map(|l| {
            let key = "\"output_throughput\": ";
            let at = l.find(key).unwrap() + key.len();
            let end = at + l[at..].find([',', '}']).unwrap();
            format!("{}1.0{}\n", &l[..at], &l[end..])
        })
        .collect();
    s.write(log, &collapsed);
    git_ok(d, &["add", log]);
    s.write(log, &good_log);
    s.ok(&["check"]);
    let r = commit(d, "rerun of topk=1");
    assert_ne!(r.code, 0, "the staged bad log goes in: {r:?}");
    assert!(r.stderr.contains("claim `topk1-wins-at-30` contradicted"), "{r:?}");
    s.ok(&["check"]);
    assert_eq!(commits(d), 4);
}
