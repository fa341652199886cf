//! The README's lint section shows what lint prints (issue 18, item 4: its
//! example read `>= 50` where lint read `for all`). Each `text` block of
//! the section is what a command prints on the scenario's unannotated plan
//! (`tests/fixtures/lint-scenario/`, copied as `plan.md`): the first is the
//! whole of `reckon lint plan.md`; the second lines `reckon lint --all
//! plan.md` prints together, with reckon.toml's alias of `C` left out.

mod common;

use common::{copy_dir, fixtures, repo, Sandbox};

/// The `text` code blocks of the README's section headed `heading`.
fn text_blocks(heading: &str) -> Vec<String> {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let start = readme.find(&format!("\n## {heading}\n")).unwrap_or_else(|| panic!("no section {heading}"));
    let section = &readme[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let mut blocks = Vec::new();
    let mut rest = section;
    while let Some(open) = rest.find("```text\n") {
        let body = &rest[open + 8..];
        let close = body.find("```\n").unwrap();
        blocks.push(body[..close].to_string());
        rest = &body[close..];
    }
    blocks
}

fn scenario_plan() -> Sandbox {
    let sb = Sandbox::with_scenario();
    copy_dir(&fixtures().join("lint-scenario"), sb.path());
    std::fs::rename(sb.path().join("eagle-fast-verify.md"), sb.path().join("plan.md")).unwrap();
    sb.ok(&["ingest"]);
    sb
}

#[test]
fn the_readmes_lint_examples_are_what_lint_prints() {
    let blocks = text_blocks("Linting prose nobody annotated");
    assert_eq!(blocks.len(), 2, "{blocks:#?}");
    let sb = scenario_plan();
    let ran = sb.run(&["lint", "--no-ingest", "plan.md"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(blocks[0], ran.stdout, "the README's first lint example is not what lint prints");

    let toml = sb.read("reckon.toml");
    let without: Vec<&str> = toml.lines().filter(|l| !l.starts_with("max_concurrency = ")).collect();
    assert!(without.len() < toml.lines().count());
    sb.write("reckon.toml", without.join("\n") + "\n");
    let all = sb.run(&["lint", "--all", "--no-ingest", "plan.md"]);
    assert!(
        all.stdout.contains(&blocks[1]),
        "the README's second lint example is not what lint prints:\n{}",
        all.stdout
    );
}
