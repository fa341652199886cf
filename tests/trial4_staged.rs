//! `check --staged` in a project that lives in a subfolder of its
//! repository (the fourth cold trial's G15 and G10): what a commit records
//! is the index, so a staged log or document whose working copy differs —
//! edited back, partly staged (`git add -p`), deleted on disk — is judged
//! as staged, never dropped and never replaced by an older sweep.

mod common;

use common::{Git, Ran, Sandbox};

const PROJECT: &str = "bench";
const DOC: &str = "bench/notebooks/eagle-fast-verify.md";
const LOG: &str = "bench/notebooks/logs/2026-11-20/eagle-topk4-v1.log";
/// The single-request throughput of EAGLE topk=4 the example's
/// `single-request` claim rests on (it beats the baseline's 93 tok/s).
const FAST: &str = "Output token throughput (tok/s):         96.00";
const SLOW: &str = "Output token throughput (tok/s):         50.00";

/// The bundled example under `bench/` of a repository, committed with its
/// 2026-11-20 sweep, its database built from the working tree.
fn project() -> (Sandbox, Git) {
    let s = Sandbox::new();
    let git = Git::init(&s);
    s.add_example(PROJECT, &["2026-11-20"]);
    s.write("bench/db/.gitignore", "*.sqlite*\n");
    git.ok(&["add", "-A"]);
    git.ok(&["commit", "-q", "-m", "plan and the 2026-11-20 sweep"]);
    s.test().current_dir(PROJECT).arg("check").run();
    (s, git)
}

fn check_staged(s: &Sandbox, paths: &[&str]) -> Ran {
    s.test().current_dir(PROJECT).args(["check", "--staged", "--"]).args(paths.iter().copied()).output()
}

fn said(r: &Ran) -> String {
    format!("{}{}", r.stdout, r.stderr)
}

/// The staged log (EAGLE topk=4 at one request down to 50 tok/s) with its
/// working copy put back (`git status`: `MM`): the commit records 50, so the
/// claim that it beats the baseline is contradicted.
#[test]
fn finding_g15_a_staged_log_is_judged_as_staged_whatever_its_working_copy() {
    let (s, git) = project();
    let original = s.read(LOG);
    assert!(original.contains(FAST));
    s.write(LOG, original.replacen(FAST, SLOW, 1));
    git.ok(&["add", LOG]);
    s.write(LOG, &original);
    assert_eq!(git.ok(&["status", "--short", LOG]).stdout.trim(), format!("MM {LOG}"));
    let r = check_staged(&s, &["notebooks/logs/2026-11-20/eagle-topk4-v1.log"]);
    assert_eq!(r.code, 1, "the staged log was not judged: {r:?}");
    assert!(said(&r).contains("single-request"), "{r:?}");
}

/// A log still in the index but deleted on disk is the commit's: its runs
/// are judged, not dropped.
#[test]
fn finding_g15_a_staged_log_deleted_on_disk_is_still_the_commits() {
    let (s, git) = project();
    s.write(LOG, s.read(LOG).replacen(FAST, SLOW, 1));
    git.ok(&["add", LOG]);
    std::fs::remove_file(s.path().join(LOG)).unwrap();
    let r = check_staged(&s, &["notebooks/logs/2026-11-20/eagle-topk4-v1.log"]);
    assert_eq!(r.code, 1, "the staged log was dropped: {r:?}");
    assert!(said(&r).contains("single-request"), "{r:?}");
}

/// A document edited in the working tree but not staged is judged as
/// staged when a log is committed: no false "matches no file".
#[test]
fn finding_g10_a_document_with_unstaged_edits_is_judged_as_staged() {
    let (s, git) = project();
    s.write(DOC, s.read(DOC) + "\n## Summary\n\nA section not staged yet.\n");
    s.write(LOG, s.read(LOG).replacen(FAST, SLOW, 1));
    git.ok(&["add", LOG]);
    let r = check_staged(&s, &["notebooks/logs/2026-11-20/eagle-topk4-v1.log"]);
    assert!(!said(&r).contains("matches no file"), "{r:?}");
    assert_eq!(r.code, 1, "the staged document was not judged: {r:?}");
    assert!(said(&r).contains("single-request"), "{r:?}");
}

/// A contradicted claim staged with `git add -p` (the working copy holds
/// the old text) is judged, while another document the glob matches is
/// staged too: the commit would record the contradicted claim.
#[test]
fn finding_g10_a_partly_staged_document_is_judged_as_staged() {
    let (s, git) = project();
    let original = s.read(DOC);
    let claim = "eagle-topk4-v1 beats baseline on output_throughput at max_concurrency = 1";
    assert!(original.contains(claim));
    let wrong = "baseline beats eagle-topk4-v1 on output_throughput at max_concurrency = 1";
    s.write(DOC, original.replacen(claim, wrong, 1));
    git.ok(&["add", DOC]);
    s.write(DOC, &original);
    s.write("bench/notebooks/other.md", "# Other\n\nNo claims here.\n");
    git.ok(&["add", "bench/notebooks/other.md"]);
    let r = check_staged(&s, &["notebooks/eagle-fast-verify.md", "notebooks/other.md"]);
    assert_eq!(r.code, 1, "the staged claim was not judged: {r:?}");
    assert!(said(&r).contains("single-request"), "{r:?}");
}
