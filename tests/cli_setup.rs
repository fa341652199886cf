//! End-to-end: `reckon init` lays out a project, `reckon hook install`
//! writes a pre-commit hook that refuses a stale document.

mod common;
use common::Sandbox;

#[test]
fn init_creates_the_layout_and_keeps_what_exists() {
    let s = Sandbox::new();
    let r = s.ok(&["init"]);
    assert!(r.stderr.contains("created reckon.toml, notebooks/, db/, templates/, db/.gitignore"), "{r:?}");
    for p in ["reckon.toml", "notebooks", "db", "templates", "db/.gitignore"] {
        assert!(s.path().join(p).exists(), "{p} missing");
    }
    // The generated reckon.toml is valid: runs and check work with it.
    s.ok(&["runs"]);
    s.write("reckon.toml", "series = \"variant\"\n");
    let r = s.ok(&["init"]);
    assert!(r.stderr.contains("already there"), "{r:?}");
    assert_eq!(s.read("reckon.toml"), "series = \"variant\"\n", "init never overwrites");
}

#[test]
fn the_git_hook_refuses_a_commit_with_a_stale_document() {
    let s = Sandbox::with_scenario();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(s.path())
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@t")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@t")
            // The hook calls `reckon`: the binary under test comes first on PATH.
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    std::path::Path::new(env!("CARGO_BIN_EXE_reckon")).parent().unwrap().display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            )
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout),
        )
    };
    assert!(git(&["init", "-q"]).0);
    s.write("reckon.toml", "[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n");
    s.write(
        "plan.md",
        "# Plan\n\nPeak: <!-- reckon:value metric=output_throughput config=baseline max_over=max_concurrency -->1<!-- /reckon:value -->\n",
    );
    let r = s.ok(&["hook", "install"]);
    assert!(r.stderr.contains("installed"), "{r:?}");
    let again = s.run(&["hook", "install"]);
    assert_eq!(again.code, 2, "an existing hook is not replaced without --force: {again:?}");

    assert!(git(&["add", "plan.md", "reckon.toml"]).0);
    let (ok, out) = git(&["commit", "-q", "-m", "stale plan"]);
    assert!(!ok, "the hook must refuse a stale document:\n{out}");
    assert!(out.contains("plan.md:3: error: value region is stale"), "{out}");

    s.ok(&["update", "--write", "plan.md"]);
    assert!(git(&["add", "plan.md"]).0);
    let (ok, out) = git(&["commit", "-q", "-m", "current plan"]);
    assert!(ok, "a current document commits:\n{out}");
}

#[test]
fn reckon_toml_overrides_metric_units_and_directions() {
    let s = Sandbox::with_scenario();
    s.write(
        "plan.md",
        "<!-- reckon:claim id=c\n     baseline beats eagle-topk4-v1 on output_throughput at max_concurrency = 30 -->\nBaseline wins.\n<!-- /reckon:claim -->\n",
    );
    s.write("reckon.toml", "[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n");
    let r = s.ok(&["claims", "plan.md"]);
    assert!(r.stdout.contains("claim `c` holds"), "{r:?}");
    let q = s.ok(&["query", "--metric", "output_throughput", "--rows", "max_concurrency", "--format", "json"]);
    assert!(q.stdout.contains("\"unit\": \"tok/s\""), "{q:?}");

    // The project says otherwise: the claim flips and the unit follows.
    s.write(
        "reckon.toml",
        "[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n\n[metrics.output_throughput]\ndirection = \"lower\"\nunit = \"tokens per second\"\n",
    );
    let r = s.ok(&["claims", "plan.md"]);
    assert!(r.stdout.contains("claim `c` contradicted"), "{r:?}");
    let q = s.ok(&["query", "--metric", "output_throughput", "--rows", "max_concurrency", "--format", "json"]);
    assert!(q.stdout.contains("\"unit\": \"tokens per second\""), "{q:?}");
    assert!(q.stdout.contains("\"direction\": \"lower\""), "{q:?}");
}
