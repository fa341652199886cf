//! End-to-end: `reckon init` lays out a project, `reckon hook install`
//! writes a pre-commit hook that refuses a stale document.

mod common;
use common::{Git, Sandbox};

#[test]
fn init_creates_the_layout_and_keeps_what_exists() {
    let s = Sandbox::new();
    s.test().arg("init").stderr_has("created reckon.toml, notebooks/, db/, templates/, db/.gitignore").run();
    for p in ["reckon.toml", "notebooks", "db", "templates", "db/.gitignore"] {
        assert!(s.path().join(p).exists(), "{p} missing");
    }
    // The generated reckon.toml is valid: runs and check work with it.
    s.ok(&["runs"]);
    s.test().file("reckon.toml", "series = \"variant\"\n").arg("init").stderr_has("already there").run();
    assert_eq!(s.read("reckon.toml"), "series = \"variant\"\n", "init never overwrites");
}

/// A kernel-tuning repository that already has a reckon.toml keeping its
/// plan at the top and its database in `cache/`: init makes only what that
/// file names (cold trial: it created notebooks/ and templates/ anyway).
#[test]
fn init_beside_a_reckon_toml_makes_only_the_folders_it_names() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"kernel\"\ndatabase = \"cache/gemm.sqlite\"\ndocuments = [\"plan.md\"]\n");
    s.test().arg("init").stderr_has("created cache/, cache/.gitignore").run();
    for p in ["notebooks", "templates", "db"] {
        assert!(!s.path().join(p).exists(), "{p} created");
    }
    assert!(s.read("cache/.gitignore").contains("*.sqlite"));
    // Documents in a folder of their own: that folder, up to the wildcard.
    s.write("reckon.toml", "series = \"kernel\"\ndocuments = [\"docs/perf/*.md\", \"README.md\"]\n");
    s.test().arg("init").stderr_has("created docs/perf/, db/, db/.gitignore").run();
    assert!(!s.path().join("notebooks").exists() && !s.path().join("templates").exists());
    // A reckon.toml that does not parse is said, not half-followed.
    s.write("reckon.toml", "series = [\n");
    let ran = s.run(&["init"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.contains("reckon.toml:"), "{}", ran.stderr);
}

/// `init` in a subfolder of a project makes a project of its own, which
/// the commands there then use: it says so, naming the reckon.toml above
/// (cold trial: it created a second project without a word). A folder
/// with no project above gets no note.
#[test]
fn init_inside_another_project_names_the_reckon_toml_above() {
    let s = Sandbox::new();
    let fresh = s.run(&["init"]);
    assert!(!fresh.stderr.contains("note:"), "{fresh:?}");
    std::fs::create_dir_all(s.path().join("bench")).unwrap();
    let mut c = s.command(&["init"]);
    c.current_dir(s.path().join("bench"));
    let out = c.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("created reckon.toml"), "{stderr}");
    let above = s.path().join("reckon.toml");
    assert!(stderr.contains(&format!("note: {} is the reckon.toml of the folders above", above.display())), "{stderr}");
    assert!(!s.read("reckon.toml").contains("https://github.com/ "), "no dangling link in the generated file");
}

#[test]
fn the_git_hook_refuses_a_commit_with_a_stale_document() {
    let s = Sandbox::with_scenario();
    let git = Git::init(&s);
    s.write("reckon.toml", "[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n");
    s.write(
        "plan.md",
        "# Plan\n\nPeak: <!-- reckon:value metric=output_throughput config=baseline max_over=max_concurrency -->\
         1<!-- /reckon:value -->\n",
    );
    s.test().args(["hook", "install"]).stderr_has("installed").run();
    // An existing hook is not replaced without --force.
    s.test().args(["hook", "install"]).status(2).run();

    // The hook judges the logs the commit records: they are staged with the plan.
    git.ok(&["add", "plan.md", "reckon.toml", "logs"]);
    let r = git.commit("stale plan");
    assert_ne!(r.code, 0, "the hook must refuse a stale document:\n{r:?}");
    assert!((r.stderr.clone() + &r.stdout).contains("plan.md:3: error: value region is stale"), "{r:?}");

    s.ok(&["update", "--write", "plan.md"]);
    git.ok(&["add", "plan.md"]);
    let r = git.commit("current plan");
    assert_eq!(r.code, 0, "a current document commits:\n{r:?}");
}

#[test]
fn reckon_toml_overrides_metric_units_and_directions() {
    const SOURCE: &str = "[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n";
    const QUERY: [&str; 7] =
        ["query", "--metric", "output_throughput", "--rows", "max_concurrency", "--format", "json"];
    let s = Sandbox::with_scenario();
    s.write(
        "plan.md",
        "<!-- reckon:claim id=c\n     baseline beats eagle-topk4-v1 on output_throughput at max_concurrency = 30 -->\n\
         Baseline wins.\n<!-- /reckon:claim -->\n",
    );
    s.write("reckon.toml", SOURCE);
    s.test().args(["claims", "plan.md"]).stdout_has("claim `c` holds").run();
    s.test().args(QUERY).stdout_has("\"unit\": \"tok/s\"").run();

    // The project says otherwise: the claim flips and the unit follows.
    s.write(
        "reckon.toml",
        format!("{SOURCE}\n[metrics.output_throughput]\ndirection = \"lower\"\nunit = \"tokens/s\"\n"),
    );
    s.test().args(["claims", "plan.md"]).stdout_has("claim `c` contradicted").run();
    s.test().args(QUERY).stdout_has("\"unit\": \"tokens/s\"").stdout_has("\"direction\": \"lower\"").run();
}
