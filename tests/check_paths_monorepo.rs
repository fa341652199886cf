//! The paths `check` prints name files from where the user stands, in
//! every format: the pre-commit hook runs `check --staged` at the top of a
//! repository whose reckon projects live in subfolders, and a problem in
//! `gemm/notebooks/plan.md` must say `gemm/notebooks/plan.md`, not the
//! project-relative `notebooks/plan.md` that cannot be found from there.

mod common;

use common::{Git, Ran, Sandbox};

const DOC: &str = "notebooks/eagle-fast-verify.md";
const BROKEN: &str = "notebooks/logs/2026-11-29/broken.jsonl";

/// A repository holding two copies of the bundled example, in `a/` and
/// `b/`, everything staged; `b/` also stages a log no format reads.
fn two_projects() -> (Sandbox, Git) {
    let s = Sandbox::example("a", &["2026-11-20", "2026-11-29"]);
    s.add_example("b", &["2026-11-29"]);
    s.write(&format!("b/{BROKEN}"), "{\"not json\n");
    s.write(".gitignore", "db/\n");
    let git = Git::init(&s);
    git.ok(&["add", "-A"]);
    (s, git)
}

/// Every `path:line:` that starts a line of `out`.
fn places(out: &str) -> Vec<&str> {
    out.lines().filter_map(|l| l.split_once(": ").map(|(p, _)| p)).filter(|p| p.contains(".md:")).collect()
}

fn staged(s: &Sandbox, dir: &str, format: &str) -> Ran {
    s.test().current_dir(dir).args(["check", "--staged", "--format", format]).status(2).run()
}

#[test]
fn trial3_f12_a_staged_check_from_the_repository_root_names_paths_from_the_root() {
    let (s, git) = two_projects();
    let r = staged(&s, ".", "human");
    let at = places(&r.stdout);
    assert!(at.iter().any(|p| p.starts_with("a/")) && at.iter().any(|p| p.starts_with("b/")), "{}", r.stdout);
    for p in &at {
        assert!(p.starts_with("a/notebooks/") || p.starts_with("b/notebooks/"), "{p} cannot be found from the root");
    }
    // What to run is said as it runs from here.
    for project in ["a", "b"] {
        let doc = format!("{project}/{DOC}");
        assert!(r.stdout.contains(&format!("`reckon supersede {doc} throughput-baseline-wins --write`")), "{r:?}");
        assert!(r.stdout.contains(&format!("regenerate with `reckon update --write {doc}`")), "{r:?}");
        assert!(r.stdout.contains(&format!("error: plot {project}/notebooks/eagle-fast-verify-throughput.svg")));
    }
    // The log that does not read: named from the root too, once per ingest.
    assert!(r.stderr.contains(&format!("error: b/{BROKEN}: not a benchmark log")), "{}", r.stderr);
    assert!(!r.stderr.contains(&format!("error: {BROKEN}")), "{}", r.stderr);

    let gh = staged(&s, ".", "github").stdout;
    assert!(gh.contains(&format!("::error file=b/{BROKEN},title=reckon::")), "{gh}");
    assert!(gh.contains(&format!("::error file=a/{DOC},line=106,")), "{gh}");
    assert!(!gh.contains(&format!("file={DOC}")), "{gh}");

    let json = staged(&s, ".", "json").stdout;
    assert!(json.contains(&format!("\"path\": \"a/{DOC}\"")), "{json}");
    assert!(json.contains(&format!("\"path\": \"b/{BROKEN}\"")), "{json}");
    assert!(json.contains("\"path\": \"b/notebooks/eagle-fast-verify-throughput.svg\""), "{json}");
    assert!(!json.contains(&format!("\"path\": \"{DOC}\"")), "{json}");

    let sarif = staged(&s, ".", "sarif").stdout;
    assert!(sarif.contains(&format!("\"uri\": \"a/{DOC}\"")) && sarif.contains(&format!("\"uri\": \"b/{BROKEN}\"")));

    // The hook, which git runs at the root, says the same.
    s.ok(&["hook", "install"]);
    let c = git.commit("both projects");
    assert_ne!(c.code, 0, "the contradicted claims refuse the commit");
    let said = format!("{}{}", c.stdout, c.stderr);
    assert!(said.contains(&format!("a/{DOC}:106: error: claim `throughput-baseline-wins`")), "{said}");
    assert!(!said.lines().any(|l| l.starts_with("notebooks/")), "{said}");
}

#[test]
fn trial3_f12_inside_a_project_paths_are_named_from_there_and_ci_from_the_root() {
    let (s, _git) = two_projects();
    let r = staged(&s, "b", "human");
    for p in places(&r.stdout) {
        assert!(p.starts_with("notebooks/"), "{p}: relative to b/, where the user is");
    }
    assert!(r.stderr.contains(&format!("error: {BROKEN}: not a benchmark log")), "{}", r.stderr);
    let gh = staged(&s, "b/notebooks", "github").stdout;
    assert!(gh.contains(&format!("::error file=b/{DOC},line=106,")), "{gh}");
    assert!(gh.contains(&format!("::error file=b/{BROKEN},")), "{gh}");
    let r = staged(&s, "b/notebooks", "human");
    assert!(r.stdout.starts_with("eagle-fast-verify.md:106: error: claim"), "{}", r.stdout);
    assert!(r.stderr.contains("error: logs/2026-11-29/broken.jsonl: not a benchmark log"), "{}", r.stderr);
}
