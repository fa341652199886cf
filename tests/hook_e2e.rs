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

/// `check --staged` judges the logs the commit records, no others: the new
/// sweep on disk but never staged does not refuse a commit of the plan and
/// the old sweep; and a log taken out of the index (`git rm --cached`, still
/// on disk) is not judged, so a commit dropping data the plan rests on is
/// refused.
#[test]
fn finding_16_check_staged_judges_the_index_logs_not_the_disk() {
    let (s, git) = project();
    git.ok(&["add", "-A"]);
    s.add_sweep("", "2026-11-29");
    let r = git.commit("plan and the 2026-11-20 sweep, the 2026-11-29 sweep not staged");
    assert_eq!(r.code, 0, "logs that are not staged were judged: {r:?}");

    for id in OVERTURNED {
        s.ok(&["supersede", DOC, id, "--write"]);
    }
    write_new_conclusions(&s, &NEW_CONCLUSIONS);
    s.ok(&["update", "--write"]);
    git.ok(&["add", "-A"]);
    let r = git.commit("the 2026-11-29 sweep, with what it changes");
    assert_eq!(r.code, 0, "{r:?}");

    git.ok(&["rm", "-q", "-r", "--cached", "notebooks/logs/2026-11-29"]);
    assert!(s.path().join("notebooks/logs/2026-11-29/baseline.jsonl").is_file(), "still on disk");
    let r = git.commit("the plan without the sweep it rests on");
    assert_ne!(r.code, 0, "a commit dropping the logs the plan rests on goes in: {r:?}");
    assert!(r.stderr.contains("unknown series `eagle-topk1-v2`"), "{r:?}");
    assert_eq!(git.commits(), 2);
}

/// A log whose name holds a backslash is a log like any other: the hook
/// judges it as `reckon check` does (git prints such a path quoted unless
/// asked for `-z`, and `\` is no folder separator on Unix).
#[cfg(unix)]
#[test]
fn finding_17_a_log_named_with_a_backslash_is_judged_by_the_hook_as_by_check() {
    let (s, git) = project();
    git.ok(&["add", "-A"]);
    assert_eq!(git.commit("plan and the 2026-11-20 sweep").code, 0);
    let log = "notebooks/logs/2026-11-20/eagle\\v3.log";
    // The baseline's log, its series left to the path and one number moved.
    let baseline = s.read("notebooks/logs/2026-11-20/baseline.log");
    s.write(log, baseline.replacen(" config=baseline", "", 1).replacen("93.10", "193.10", 1));
    git.ok(&["add", "--", log]);
    let r = git.commit("a new log");
    assert_ne!(r.code, 0, "the hook let the new series in unjudged: {r:?}");
    assert_eq!(git.commits(), 1);
    let check = s.test().arg("check").status(1).stdout_has("eagle\\v3").run();
    assert!(r.stderr.contains("is stale"), "the hook names no stale region:\n{r:?}\n{check:?}");
}

/// A project that keeps its logs out of git (`.gitignore`) has them judged
/// by the hook as they are on disk: no commit can hold them, and a commit of
/// a plan the ignored logs overturn is refused. An untracked log git does
/// not ignore stays out (finding 16), as before.
#[test]
fn logs_git_ignores_are_judged_as_they_are_on_disk() {
    let (s, git) = project();
    s.write(".gitignore", "notebooks/logs/\n");
    git.ok(&["add", "-A"]);
    let r = git.commit("plan, the logs ignored");
    assert_eq!(r.code, 0, "the 2026-11-20 sweep bears the plan out: {r:?}");
    s.add_sweep("", "2026-11-29");
    s.write(DOC, s.read(DOC) + "\nA line.\n");
    git.ok(&["add", DOC]);
    let r = git.commit("an edit, the ignored 2026-11-29 sweep on disk");
    assert_ne!(r.code, 0, "the ignored sweep that overturns the plan was not judged: {r:?}");
    assert_eq!(git.commits(), 1);
}
