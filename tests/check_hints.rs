//! What `check` tells a researcher to do: supersede an overturned
//! conclusion (not `update --write`), write the conclusion that replaces it,
//! and, from a hook, one line per problem with the diff only on request.

mod common;

use common::{Git, Sandbox};

const DOC: &str = "notebooks/eagle-fast-verify.md";
const BOTH_SWEEPS: [&str; 2] = ["2026-11-20", "2026-11-29"];

/// The example with both sweeps and `documents` in reckon.toml.
fn example() -> Sandbox {
    let s = Sandbox::example("", &BOTH_SWEEPS);
    assert!(s.read("reckon.toml").contains("documents = [\"notebooks/*.md\"]"));
    s
}

/// The lines of `check`'s output saying a superseded claim has no successor.
fn without_successor(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.contains("no new conclusion replaces it")).collect()
}

#[test]
fn a_superseded_conclusion_without_a_successor_is_a_warning_and_fails_strict() {
    let s = example();
    s.ok(&["update", "--write"]);
    // With no document named, the configured ones are read.
    s.test()
        .arg("check")
        .status(1)
        .stdout_has(&format!("reckon supersede {DOC} topk4-plateau --write"))
        // update --write would not make check pass.
        .stdout_lacks("update --write")
        .run();
    let claims = s.test().args(["claims", "--format", "json"]).run().json();
    assert_eq!(claims.as_array().unwrap().len(), 6);

    for id in ["throughput-baseline-wins", "saturation-ratio", "topk4-plateau"] {
        s.ok(&["supersede", DOC, id, "--write"]);
    }
    let r = s.test().arg("check").run();
    let warnings = without_successor(&r.stdout);
    assert_eq!(warnings.len(), 3, "{r:?}");
    assert!(warnings.iter().all(|w| w.contains(": warning: claim `")), "{r:?}");
    assert!(warnings[2].contains("claim `topk4-plateau` was superseded on 2026-11-29"), "{r:?}");
    let r = s.test().args(["check", "--strict"]).status(1).run();
    assert_eq!(
        r.stdout.lines().filter(|l| l.contains(": error: claim `") && l.contains("no new conclusion")).count(),
        3
    );

    // The comment replaced by a claim for one of them: that one is quiet.
    let mut text = s.read(DOC);
    let start = text.rfind("<!-- The conclusion above was superseded").unwrap();
    let end = start + text[start..].find("-->").unwrap() + 3;
    text.replace_range(
        start..end,
        "<!-- reckon:claim id=plateau-now\n     \
         max(eagle-topk4-v1 on output_throughput for all max_concurrency >= 50) ≈ 353 within 2% -->\n\
         EAGLE topk=4 plateaus near 353 tok/s.\n<!-- /reckon:claim -->",
    );
    s.write(DOC, text);
    s.ok(&["update", "--write"]);
    let r = s.test().arg("check").stdout_lacks("`topk4-plateau` was superseded").run();
    assert_eq!(without_successor(&r.stdout).len(), 2, "{r:?}");
}

#[test]
fn a_staged_check_prints_one_line_per_problem_and_the_diff_on_request() {
    let s = example();
    let git = Git::init(&s);
    git.ok(&["add", "-A"]);
    let r = s
        .test()
        .args(["check", "--staged"])
        .status(1)
        .stdout_lacks("@@")
        .stdout_has("(`reckon check --diff` shows the changes)")
        .run();
    assert!(r.stdout.lines().all(|l| l.starts_with(DOC) || l.starts_with("reckon check (as staged)")), "{r:?}");
    s.test().args(["check", "--staged", "--diff"]).status(1).stdout_has("@@").run();
    // Paths given after `--` that reckon does not read: nothing to check.
    s.test().args(["check", "--staged", "--", "README.md", "-h.md"]).stdout("").run();
    s.test().args(["check", "--staged", "--", "notebooks/logs/2026-11-29/baseline.jsonl"]).status(1).run();
}

#[test]
fn a_staged_check_from_the_top_of_a_repository_finds_each_projects_reckon_toml() {
    // The project lives in bench/; the hook runs at the repository's top.
    let s = Sandbox::example("bench", &["2026-11-20"]);
    let git = Git::init(&s);
    git.ok(&["add", "-A"]);
    s.test().args(["check", "--staged"]).run();
    git.ok(&["commit", "-q", "-m", "plan"]);
    s.add_sweep("bench", "2026-11-29");
    git.ok(&["add", "-A"]);
    s.test().args(["check", "--staged"]).status(1).stdout_has("claim `topk4-plateau` contradicted").run();
    s.test().args(["check", "--staged", "--", "bench/notebooks/logs/2026-11-29/baseline.jsonl"]).status(1).run();
    s.test().args(["check", "--staged", "--", "README.md"]).stdout("").run();
}

/// A `documents` glob that matches nothing (a typo) is an error at its line
/// of reckon.toml, exit 2, for `check` and `check --strict` alike: the CI
/// and the hook would otherwise check nothing and say success.
#[test]
fn finding_18_a_documents_glob_matching_nothing_is_an_error_at_its_line() {
    let s = example();
    let toml = s.read("reckon.toml");
    let line = toml.lines().position(|l| l.starts_with("documents = ")).unwrap() + 1;
    s.write("reckon.toml", toml.replace("documents = [\"notebooks/*.md\"]", "documents = [\"notebook/*.md\"]"));
    let said = format!("reckon.toml:{line}: documents: `notebook/*.md` matches no file");
    for args in [&["check"][..], &["check", "--strict"], &["update"]] {
        s.test().args(args.iter().copied()).status(2).stdout("").stderr_has(&said).run();
    }
    // The document named on the command line is checked as before.
    s.test().args(["check", DOC]).status(1).run();
}

/// `check --staged` outside any git repository: one line saying so and
/// what to run instead, exit 2 (not git's usage text for `diff --no-index`).
#[test]
fn finding_19_check_staged_outside_a_repository_says_so_in_one_line() {
    let s = example();
    let r = s.test().args(["check", "--staged"]).status(2).stdout("").stderr_has("not inside a git work tree").run();
    assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
    assert!(r.stderr.contains("`reckon check`"), "{r:?}");
}

/// A one-value claim with its `where` before the number (as comparisons
/// put it after the point): refused at its `file:line`, with the claim
/// rewritten the way it parses. Cold trial, on a cache study.
#[test]
fn a_value_with_where_before_its_number_says_how_to_write_it() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"policy\"\n");
    s.write("logs/2026-03-02/hits.csv", "policy,cache_mb,trace,hit_rate\nlfu,512,zipf,0.74\nlru,512,zipf,0.70\n");
    s.ok(&["ingest", "-q", "logs/{date}/hits.csv"]);
    s.write(
        "notes.md",
        "# Cache policies\n\n<!-- reckon:claim id=lfu-512\n     lfu on hit_rate at cache_mb = 512 where trace = 'zipf' \
         ≈ 0.74 within 2% -->\nLFU hits 74% at 512 MB on the Zipf trace.\n<!-- /reckon:claim -->\n",
    );
    for command in ["claims", "check"] {
        let ran = s.run(&[command, "notes.md"]);
        assert_eq!(ran.code, 2, "{ran:?}");
        assert!(
            ran.stderr.contains(
                "notes.md:4:40: claim `lfu-512`: the number comes before `where`, which ends the clause: write `lfu on \
                 hit_rate at cache_mb = 512 ≈ 0.74 within 2% where trace = 'zipf'`"
            ),
            "{}",
            ran.stderr
        );
    }
    // Written that way, it parses and holds.
    let fixed =
        s.read("notes.md").replace("where trace = 'zipf' ≈ 0.74 within 2%", "≈ 0.74 within 2% where trace = 'zipf'");
    s.write("notes.md", fixed);
    let ran = s.run(&["claims", "notes.md"]);
    assert!(ran.code == 0 && ran.stdout.contains("holds"), "{ran:?}");
}
