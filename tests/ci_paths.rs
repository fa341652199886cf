//! Every annotation names its file from the repository's root, whatever
//! the folder reckon runs in (GitHub places an annotation by that path, and
//! drops one whose path is absolute or relative to a subfolder): `claims`
//! and `lint` as `check` does (`tests/ci_check.rs`) — issue 23, item 4.

mod common;

use common::{Git, Ran, Sandbox};

/// The bundled example under `bench/` of a git repository, with both
/// sweeps (three claims contradicted), already ingested, and a paragraph
/// of prose the newer sweep contradicts.
fn project() -> Sandbox {
    let s = Sandbox::example("bench", &["2026-11-20", "2026-11-29"]);
    let doc = s.read("bench/notebooks/eagle-fast-verify.md").replacen(
        "for baseline.\n",
        "for baseline.\n\nAt max_concurrency 8, eagle-topk4-v1 beats baseline on output_throughput.\n",
        1,
    );
    s.write("bench/notebooks/eagle-fast-verify.md", doc);
    Git::init(&s);
    let mut c = s.command(&["ingest"]);
    c.current_dir(s.path().join("bench"));
    let r = Ran::from(&c.output().unwrap());
    assert_eq!(r.code, 0, "{r:?}");
    s
}

fn run_in(s: &Sandbox, dir: &str, args: &[&str]) -> Ran {
    let mut c = s.command(args);
    c.current_dir(s.path().join(dir));
    Ran::from(&c.output().unwrap())
}

/// The `file=` of each annotation printed.
fn files(r: &Ran) -> Vec<&str> {
    r.stdout.lines().filter_map(|l| l.split("file=").nth(1)?.split(',').next()).collect()
}

#[test]
fn claims_github_names_files_from_the_repository_root_from_any_folder() {
    let s = project();
    for (dir, args) in [
        ("bench/notebooks", &["claims", "--no-ingest", "--format", "github"][..]),
        ("bench/notebooks", &["claims", "--no-ingest", "--format", "github", "eagle-fast-verify.md"][..]),
        ("bench", &["claims", "--no-ingest", "--format", "github", "notebooks/eagle-fast-verify.md"][..]),
        ("bench/notebooks/logs", &["claims", "--no-ingest", "--format", "github", "../eagle-fast-verify.md"][..]),
    ] {
        let r = run_in(&s, dir, args);
        let files = files(&r);
        assert!(files.len() >= 6, "every claim annotated, from {dir}: {r:?}");
        assert!(files.iter().all(|f| *f == "bench/notebooks/eagle-fast-verify.md"), "from {dir}: {r:?}");
    }
}

#[test]
fn lint_github_names_files_from_the_repository_root_from_any_folder() {
    let s = project();
    for (dir, doc) in [
        ("bench/notebooks", None),
        ("bench", Some("notebooks/eagle-fast-verify.md")),
        ("", Some("bench/notebooks/eagle-fast-verify.md")),
        ("bench/notebooks/logs", Some("../eagle-fast-verify.md")),
    ] {
        let mut args = vec!["lint", "--no-ingest", "--format", "github"];
        args.extend(doc);
        let r = run_in(&s, dir, &args);
        let files = files(&r);
        assert!(!files.is_empty(), "the contradicted sentence is annotated, from {dir:?}: {r:?}");
        assert!(files.iter().all(|f| *f == "bench/notebooks/eagle-fast-verify.md"), "from {dir:?}: {r:?}");
    }
}
