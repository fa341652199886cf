//! Jupyter notebooks as living documents (issue 24, item 1), end to end on
//! notebooks written by nbformat's own writer (tests/fixtures/notebooks,
//! made by its make.py): regions and claims in markdown cells are updated,
//! checked, reported and linted; every other byte of the file is kept.

mod common;

use std::collections::BTreeSet;

use common::{repo, Git, Sandbox};
use serde_json::Value;

const NB: &str = "notebooks/plan.ipynb";

/// The bundled example's reckon.toml reading the notebooks instead of the
/// markdown plan, the notebook `fixture` as notebooks/plan.ipynb, and the
/// logs of `sweeps`.
fn project(fixture: &str, sweeps: &[&str]) -> Sandbox {
    let s = Sandbox::new();
    let toml = std::fs::read_to_string(repo().join("reckon.toml")).unwrap();
    assert!(toml.contains("documents = [\"notebooks/*.md\"]"));
    s.write("reckon.toml", toml.replace("notebooks/*.md", "notebooks/*.ipynb"));
    s.fixture(&format!("notebooks/{fixture}"), NB);
    for sweep in sweeps {
        s.add_sweep("", sweep);
    }
    s
}

/// The line ranges (0-based, the `"source": [` line to its `]`) of each
/// markdown cell's source in an nbformat file, by cell id.
fn source_lines(text: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut id = String::new();
    let mut markdown = false;
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("   \"cell_type\": ") {
            markdown = l.contains("\"markdown\"");
        } else if let Some(rest) = l.strip_prefix("   \"id\": \"") {
            id = rest.trim_end_matches("\",").to_string();
        } else if markdown && *l == "   \"source\": [" {
            let end = i + lines[i..].iter().position(|l| *l == "   ]").unwrap();
            out.push((id.clone(), i..end + 1));
        }
    }
    out
}

/// The cells of a notebook with their `source` taken out.
fn without_sources(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text).unwrap();
    for c in v["cells"].as_array_mut().unwrap() {
        c.as_object_mut().unwrap().remove("source");
    }
    v
}

#[test]
fn update_write_changes_only_the_source_of_the_cells_with_regions() {
    let s = project("plan.ipynb", &["2026-11-20"]);
    let before = s.read(NB);
    s.test().args(["check"]).status(1).stdout_has("cell 3 (id `results`), line 5: table region is stale").run();
    s.ok(&["update", "--write"]);
    let after = s.read(NB);
    assert_ne!(before, after);

    // Every line that differs lies inside the source of a cell with a region.
    let old = source_lines(&before);
    let edited: BTreeSet<&str> = ["results", "plot", "conclusions"].into();
    let diff = similar::TextDiff::from_lines(&before, &after);
    let mut touched = BTreeSet::new();
    for op in diff.ops().iter().filter(|op| op.tag() != similar::DiffTag::Equal) {
        let lines = op.old_range();
        let (id, _) = old
            .iter()
            .find(|(_, r)| r.start < lines.start && lines.end < r.end)
            .unwrap_or_else(|| panic!("a change outside any markdown cell's source, at line {}", lines.start + 1));
        touched.insert(id.as_str());
    }
    assert_eq!(touched, edited, "only the cells holding regions change");
    // Outputs, attachments, metadata and the other cells are the same values.
    assert_eq!(without_sources(&before), without_sources(&after));
    let cells: Value = serde_json::from_str(&after).unwrap();
    let text: String = cells["cells"][2]["source"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert!(text.contains("| 30 | 641.8 | 329.5 |"), "{text}");
    assert!(after.ends_with("}\n") && after.contains("≈ “free speed”"), "non-ASCII stays unescaped");

    // The plot beside the notebook, linked from its cell.
    assert!(s.read("notebooks/plan-throughput.svg").starts_with("<svg"));
    assert!(after.contains("\"![Output throughput](plan-throughput.svg)\\n\""));

    // A notebook reckon does not need to change is not written at all.
    let stamp = std::fs::metadata(s.path().join(NB)).unwrap().modified().unwrap();
    s.ok(&["update", "--write"]);
    s.ok(&["check"]);
    assert_eq!(std::fs::metadata(s.path().join(NB)).unwrap().modified().unwrap(), stamp);
    assert_eq!(s.read(NB), after);
}

#[test]
fn check_names_the_cell_of_a_contradicted_claim() {
    let s = project("plan.ipynb", &["2026-11-20"]);
    s.ok(&["update", "--write"]);
    s.ok(&["check"]);
    s.add_sweep("", "2026-11-29");
    let r = s.run(&["check"]);
    assert_eq!(r.code, 1, "{r:?}");
    let line = r.stdout.lines().find(|l| l.contains("claim `throughput-baseline-wins` contradicted"));
    let line = line.unwrap_or_else(|| panic!("{r:?}"));
    assert!(line.starts_with("notebooks/plan.ipynb:104: error: cell 6 (id `conclusions`), line 3: "), "{line}");
    // Line 104 of the file, after the update wrote the table, is where the claim's marker is.
    assert!(s.read(NB).lines().nth(103).unwrap().contains("<!-- reckon:claim id=throughput-baseline-wins"));
}

#[test]
fn an_nbformat_4_4_notebook_names_its_cells_by_number() {
    let s = project("plan-v44.ipynb", &["2026-11-20", "2026-11-29"]);
    let r = s.run(&["check"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains(": error: cell 6, line 3: claim `throughput-baseline-wins` contradicted"), "{r:?}");
    s.ok(&["update", "--write"]);
    let after = s.read(NB);
    assert!(!after.contains("\"id\""), "no ids are added to a 4.4 notebook");
    assert_eq!(
        without_sources(&after),
        without_sources(&std::fs::read_to_string(common::fixtures().join("notebooks/plan-v44.ipynb")).unwrap())
    );
}

#[test]
fn report_renders_the_notebooks_markdown_cells() {
    let s = project("plan.ipynb", &["2026-11-20"]);
    s.ok(&["update", "--write"]);
    s.ok(&["report", NB, "--out", "site"]);
    let html = s.read("site/plan.html");
    assert!(html.contains("641.8"), "the table and the value");
    assert!(html.contains("throughput-baseline-wins"), "the claim");
    assert!(html.contains("<img src=\"data:image/svg+xml;base64,"), "the plot, embedded");
    assert!(html.contains("free speed"));
    assert!(!html.contains("import matplotlib"), "code cells are not the document's prose");
    assert!(!html.contains("is not markdown"), "nor are raw cells");
}

#[test]
fn lint_reads_the_markdown_cells() {
    let s = project("plan.ipynb", &["2026-11-20"]);
    let r = s.ok(&["lint", NB, "--all"]);
    assert!(r.stdout.contains("notebooks/plan.ipynb:111:1: holds"), "{r:?}");
    assert!(r.stdout.contains("EAGLE topk=4 plateaus at about 336 tok/s."), "{r:?}");
    assert!(!r.stdout.contains("not markdown") && !r.stdout.contains("import json"), "{r:?}");
    s.add_sweep("", "2026-11-29");
    let r = s.run(&["lint", NB]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("EAGLE topk=4 plateaus at about 336 tok/s."), "{r:?}");
    assert!(r.stdout.contains("notebooks/plan.ipynb:111:") && r.stdout.contains("stale"), "{r:?}");
}

#[test]
fn the_hook_checks_a_staged_notebook() {
    let s = project("plan.ipynb", &["2026-11-20"]);
    let git = Git::init(&s);
    s.write("db/.gitignore", "*.sqlite*\n");
    s.test().args(["hook", "install"]).stderr_has("pre-commit").run();
    s.ok(&["update", "--write"]);
    git.ok(&["add", "-A"]);
    let r = git.commit("the plan as a notebook");
    assert_eq!(r.code, 0, "{r:?}");

    // The claim turned around in the staged notebook, the working tree's
    // left as it was: the staged one is judged.
    let good = s.read(NB);
    let bad = good
        .replace("baseline beats others on output_throughput", "eagle-topk4-v1 beats baseline on output_throughput");
    assert_ne!(good, bad);
    s.write(NB, &bad);
    git.ok(&["add", NB]);
    s.write(NB, &good);
    s.ok(&["check"]);
    let r = git.commit("a turned conclusion");
    assert_ne!(r.code, 0, "the staged contradicted claim went in: {r:?}");
    assert!(
        r.stderr.contains("cell 6 (id `conclusions`), line 3: claim `throughput-baseline-wins` contradicted"),
        "{r:?}"
    );
    assert_eq!(git.commits(), 1);
}

#[test]
fn a_region_spanning_cells_is_an_error_naming_both() {
    let s = project("spans-cells.ipynb", &["2026-11-20"]);
    let r = s.run(&["check"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(
            "notebooks/plan.ipynb:10:1: cell 1 (id `results`), line 3: the `reckon:table` region opens in this cell \
             and closes in cell 3 (id `table-end`), line 3"
        ),
        "{r:?}"
    );
}

#[test]
fn a_notebook_in_another_layout_is_refused_for_write_and_left_whole() {
    let s = project("plan-indent2.ipynb", &["2026-11-20"]);
    let before = s.read(NB);
    s.test().args(["check"]).status(1).stdout_has("cell 3 (id `results`), line 5: table region is stale").run();
    let r = s.run(&["update", "--write"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(
            "notebooks/plan.ipynb:48:17: cell 3 (id `results`): reckon would change this cell, but its `source` \
             is not laid out as Jupyter writes it"
        ),
        "{r:?}"
    );
    assert_eq!(s.read(NB), before);
    assert!(!s.path().join("notebooks/plan-throughput.svg").exists(), "a plot was written for a refused notebook");
}

#[test]
fn supersede_marks_the_claim_in_its_cell() {
    let s = project("plan.ipynb", &["2026-11-20", "2026-11-29"]);
    s.ok(&["supersede", NB, "throughput-baseline-wins", "--write"]);
    let after = s.read(NB);
    let before = std::fs::read_to_string(common::fixtures().join("notebooks/plan.ipynb")).unwrap();
    assert_eq!(without_sources(&after), without_sources(&before));
    assert!(after.contains("<!-- reckon:claim id=throughput-baseline-wins superseded="), "{after}");
}

const QMD: &str = "---\ntitle: \"EAGLE-3 fast verify\"\nformat: html\njupyter: python3\n---\n\n## Results\n\n\
::: {.callout-note}\nBaseline reaches <!-- reckon:value metric=output_throughput config=baseline max_concurrency=30 \
digits=1 -->0<!-- /reckon:value --> tok/s at 30.\n:::\n\n\
```{python}\n#| label: fig-throughput\n# <!-- reckon:table metric=nothing --> is code in a chunk\n\
import pandas as pd\n```\n\n\
<!-- reckon:table metric=output_throughput rows=max_concurrency cols=config digits=1 -->\n<!-- /reckon:table -->\n";

const MYST: &str = "---\njupytext:\n  text_representation:\n    format_name: myst\n---\n\n# Results\n\n\
```{code-cell} ipython3\n# <!-- reckon:value metric=nothing --> is code\nprint(1)\n```\n\n\
:::{note}\nBaseline reaches <!-- reckon:value metric=output_throughput config=baseline max_concurrency=30 \
digits=1 -->0<!-- /reckon:value --> tok/s at 30.\n:::\n\n(results-table)=\n\
<!-- reckon:table metric=output_throughput rows=max_concurrency cols=config digits=1 -->\n<!-- /reckon:table -->\n";

/// The text with each region's content taken out (its markers kept).
fn without_region_contents(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("<!-- reckon:") {
        let after = open + rest[open..].find("-->").unwrap() + 3;
        let close = after + rest[after..].find("<!-- /reckon:").unwrap();
        let end = close + rest[close..].find("-->").unwrap() + 3;
        out.push_str(&rest[..after]);
        out.push_str(rest[close..end].split(" digest=").next().unwrap().trim_end_matches(" -->"));
        rest = &rest[end..];
    }
    out + rest
}

#[test]
fn quarto_and_myst_documents_are_markdown_and_their_own_syntax_passes_through() {
    let s = project("plan.ipynb", &["2026-11-20"]);
    s.write("notebooks/plan.qmd", QMD);
    s.write("notebooks/myst.md", MYST);
    for (doc, text) in [("notebooks/plan.qmd", QMD), ("notebooks/myst.md", MYST)] {
        s.test()
            .args(["check", doc])
            .status(1)
            .stdout_has("value region is stale")
            .stdout_has("table region is stale")
            .run();
        s.ok(&["update", "--write", doc]);
        let after = s.read(doc);
        assert!(after.contains("-->641.8<!-- /reckon:value digest="), "{after}");
        assert!(after.contains("| 30 | 641.8 | 329.5 |"), "{after}");
        assert_eq!(without_region_contents(&after), without_region_contents(text), "bytes outside the regions moved");
        assert!(
            after.starts_with(&text[..text.find("## Results").or(text.find("# Results")).unwrap()]),
            "front matter"
        );
        s.ok(&["check", doc]);
    }
    // The chunk's comment is code, not a region.
    let chunk = "```{python}\n#| label: fig-throughput\n# <!-- reckon:table metric=nothing --> is code in a chunk\n\
                 import pandas as pd\n```\n";
    assert!(s.read("notebooks/plan.qmd").contains(chunk));
}

#[test]
fn a_region_error_names_the_notebook_cell_and_line() {
    let s = project("plan.ipynb", &["2026-11-20"]);
    s.write(NB, s.read(NB).replacen("reckon:table metric=output_throughput", "reckon:table metric=output_thruput", 1));
    let r = s.run(&["check"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("error: notebooks/plan.ipynb:53:"), "{r:?}");
    assert!(r.stderr.contains("cell 3 (id `results`), line 5: table region: "), "{r:?}");
}

#[test]
fn diff_names_a_notebook_claim_whose_verdict_moved() {
    let s = project("plan.ipynb", &["2026-11-20", "2026-11-29"]);
    let r = s.ok(&["diff", NB, "--from", "2026-11-20", "--to", "2026-11-29"]);
    assert!(
        r.stdout.contains("notebooks/plan.ipynb:90: claim `throughput-baseline-wins`: holds → contradicted"),
        "{r:?}"
    );
}

#[test]
fn a_region_edited_by_hand_in_a_cell_is_named_with_its_cell_and_not_overwritten() {
    let s = project("plan.ipynb", &["2026-11-20"]);
    s.ok(&["update", "--write"]);
    s.write(NB, s.read(NB).replacen("| 30 | 641.8 | 329.5 |", "| 30 | 700.0 | 329.5 |", 1));
    let edited = s.read(NB);
    let r = s.run(&["update", "--write"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(
            "error: notebooks/plan.ipynb:53:1: cell 3 (id `results`), line 5: this table region was edited by hand"
        ),
        "{r:?}"
    );
    assert_eq!(s.read(NB), edited);
}

#[test]
fn claims_lists_a_notebooks_claims_with_their_evidence() {
    let s = project("plan.ipynb", &["2026-11-20", "2026-11-29"]);
    let r = s.ok(&["claims", NB]);
    assert!(r.stdout.starts_with("notebooks/plan.ipynb:90: claim `throughput-baseline-wins` contradicted"), "{r:?}");
    assert!(r.stdout.contains("  - max_concurrency=30: baseline 689.4 vs eagle-topk1-v2 759.3"), "{r:?}");
}

#[cfg(unix)]
#[test]
fn review_accepts_a_notebooks_changes_and_writes_them_as_update_does() {
    let s = project("plan.ipynb", &["2026-11-20"]);
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_reckon"));
    common::isolated(&mut cmd).args(["review", NB]).current_dir(s.path()).env("TERM", "dumb");
    let mut p = rexpect::session::spawn_command(cmd, Some(30_000)).expect("spawn reckon review in a pty");
    p.exp_string("[1/4] notebooks/plan.ipynb:53 table region regenerated").expect("the first change");
    p.exp_string("accept all (A), quit (q)? ").expect("the prompt");
    p.send("A").unwrap();
    p.flush().unwrap();
    p.exp_string("4 change(s) written").expect("written");
    p.exp_eof().expect("reckon exits");
    s.ok(&["check"]);
    let updated = project("plan.ipynb", &["2026-11-20"]);
    updated.ok(&["update", "--write"]);
    assert_eq!(s.read(NB), updated.read(NB), "review writes what update --write writes");
}
