//! The installed git hook, end to end, with real commits in a temporary
//! repository: it runs when the data change (not only the markdown), judges
//! what is staged (not the working tree), and names what to do.

mod common;

use std::fmt::Write as _;

use common::{Git, Sandbox};

const DOC: &str = "notebooks/eagle-fast-verify.md";
const OVERTURNED: [&str; 3] = ["throughput-baseline-wins", "saturation-ratio", "topk4-plateau"];

/// The bundled example as a fresh project in a git repository: its
/// reckon.toml (which lists the `documents`), the plan as regenerated after
/// the 2026-11-20 sweep, that sweep's logs, and the hook installed.
fn project() -> (Sandbox, Git) {
    let s = Sandbox::new();
    let git = Git::init(&s);
    s.add_example("", &["2026-11-20"]);
    assert!(s.read("reckon.toml").contains("documents = [\"notebooks/*.md\"]"), "the example configures its documents");
    s.write("db/.gitignore", "*.sqlite*\n");
    s.test().args(["hook", "install"]).stderr_has("pre-commit").run();
    (s, git)
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
    "<!-- reckon:claim id=topk1-wins-at-30\n     \
     eagle-topk1-v2 beats baseline on output_throughput at max_concurrency = 30 -->\n\
     At 30 concurrent requests EAGLE topk=1 on the spec_v2 path beats the baseline.\n<!-- /reckon:claim -->",
    "<!-- reckon:claim id=saturation-ratio-now\n     \
     max(baseline / eagle-topk4-v1 on output_throughput for all max_concurrency) ≈ 2.19 within 3% -->\n\
     At saturation the baseline is about 2.2x EAGLE topk=4.\n<!-- /reckon:claim -->",
    "<!-- reckon:claim id=topk4-plateau-now\n     \
     max(eagle-topk4-v1 on output_throughput for all max_concurrency >= 50) ≈ 353 within 2% -->\n\
     EAGLE topk=4 plateaus near 353 tok/s.\n<!-- /reckon:claim -->",
];

#[test]
fn the_hook_refuses_the_sweep_that_overturns_conclusions_and_judges_what_is_staged() {
    let (s, git) = project();
    plan_and_notes_go_in(&s, &git);
    the_overturning_sweep_is_refused(&s, &git);
    superseded_and_rewritten_it_goes_in(&s, &git);
    a_staged_bad_claim_is_refused(&s, &git);
    a_staged_bad_log_is_refused(&s, &git);
}

/// The plan and the sweep it was written from: current, the commit goes in;
/// a commit of nothing reckon reads is not checked (and so not slowed).
fn plan_and_notes_go_in(s: &Sandbox, git: &Git) {
    git.ok(&["add", "-A"]);
    let r = git.commit("plan and the 2026-11-20 sweep");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(git.commits(), 1);

    s.write("NOTES.txt", "lab notes\n");
    git.ok(&["add", "NOTES.txt"]);
    let r = git.commit("notes");
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""), "{r:?}");
}

/// Only the new sweep's logs: no markdown staged, yet refused, naming each
/// overturned conclusion and what to do about it.
fn the_overturning_sweep_is_refused(s: &Sandbox, git: &Git) {
    s.add_sweep("", "2026-11-29");
    git.ok(&["add", "notebooks/logs"]);
    let r = git.commit("the 2026-11-29 sweep");
    assert_ne!(r.code, 0, "the commit that overturns the conclusions goes in: {r:?}");
    assert_eq!(git.commits(), 2);
    let out = format!("{}{}", r.stdout, r.stderr);
    for id in OVERTURNED {
        assert!(out.contains(&format!("claim `{id}` contradicted")), "{id} not named:\n{out}");
        assert!(out.contains(&format!("reckon supersede {DOC} {id} --write")), "no supersede hint for {id}:\n{out}");
    }
    assert!(!out.contains("@@"), "the hook prints one line per problem, not the diff:\n{out}");
    assert_eq!(out.lines().filter(|l| l.contains("claim `") && l.contains(": error: ")).count(), 3, "{out}");
}

/// Supersede them, write the new conclusions, regenerate: it goes in.
fn superseded_and_rewritten_it_goes_in(s: &Sandbox, git: &Git) {
    for id in OVERTURNED {
        s.ok(&["supersede", DOC, id, "--write"]);
    }
    let r = s.run(&["check"]);
    assert!(
        r.stdout.contains("no new conclusion replaces it"),
        "a superseded claim with nothing after it is reported:\n{r:?}"
    );
    write_new_conclusions(s, &NEW_CONCLUSIONS);
    s.ok(&["update", "--write"]);
    s.ok(&["check"]);
    git.ok(&["add", "-A"]);
    let r = git.commit("the 2026-11-29 sweep, with what it changes");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(git.commits(), 3);
}

/// A bad claim staged, a good one in the working tree: the staged one is
/// what would be committed, so the commit is refused.
fn a_staged_bad_claim_is_refused(s: &Sandbox, git: &Git) {
    let good = "<!-- reckon:claim id=mid-load\n     \
                eagle-topk1-v2 beats baseline on output_throughput at max_concurrency = 30 -->\n\
                At 30, topk=1 on v2 wins.\n<!-- /reckon:claim -->\n";
    let bad = good
        .replace("eagle-topk1-v2 beats baseline", "baseline beats eagle-topk1-v2")
        .replace("topk=1 on v2 wins", "baseline wins");
    let plan = s.read(DOC);
    s.write(DOC, format!("{plan}\n{bad}"));
    git.ok(&["add", DOC]);
    s.write(DOC, format!("{plan}\n{good}"));
    s.ok(&["check"]);
    let r = git.commit("a conclusion");
    assert_ne!(r.code, 0, "the staged bad claim goes in: {r:?}");
    assert!(r.stderr.contains("claim `mid-load` contradicted"), "{r:?}");
    assert_eq!(git.commits(), 3);
    // The working tree still checks clean: the staged content left nothing behind.
    s.ok(&["check"]);
    // Staged as in the working tree: it goes in.
    git.ok(&["add", DOC]);
    let r = git.commit("a conclusion");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(git.commits(), 4);
}

/// A bad log staged (a sweep where topk=1 collapses), the good one in the
/// working tree: refused too — the staged data are judged.
fn a_staged_bad_log_is_refused(s: &Sandbox, git: &Git) {
    let log = "notebooks/logs/2026-11-29/eagle-topk1-v2.jsonl";
    let good_log = s.read(log);
    let mut collapsed = String::new();
    for l in good_log.lines() {
        let key = "\"output_throughput\": ";
        let at = l.find(key).unwrap() + key.len();
        let end = at + l[at..].find([',', '}']).unwrap();
        writeln!(collapsed, "{}1.0{}", &l[..at], &l[end..]).unwrap();
    }
    s.write(log, &collapsed);
    git.ok(&["add", log]);
    s.write(log, &good_log);
    s.ok(&["check"]);
    let r = git.commit("rerun of topk=1");
    assert_ne!(r.code, 0, "the staged bad log goes in: {r:?}");
    assert!(r.stderr.contains("claim `topk1-wins-at-30` contradicted"), "{r:?}");
    s.ok(&["check"]);
    assert_eq!(git.commits(), 4);
}
