//! The floor plan, checked: data flow one way through the pipeline, no
//! source file holds more than one screenful of ideas, and every line is
//! within rustfmt's width (a longer line makes rustfmt skip the whole
//! statement silently).
//!
//! Each rule has a list of known debts. The test fails on a new violation
//! and also on a listed debt that no longer exists, so the lists only shrink.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The pipeline order. A module may import only modules ranked below it.
/// `error`, `escape`, `fsguard`, `metric`, `syntax` and `run` are the shared vocabulary; reckon.toml
/// (`config`) is read above the stages and turned into each stage's own
/// options, so no stage below it knows the file.
const RANKS: &[&str] = &[
    "error",
    "escape",
    "fsguard",
    "metric",
    "syntax",
    "run",
    "ingest",
    "store",
    "sources",
    "query",
    "doc",
    "claims",
    "sweep_diff",
    "render",
    "lint",
    "config",
    "review",
    "report",
    "staged",
    "cli",
];

/// Imports the ranks would allow but the design forbids: claims judge a
/// conclusion against cells and know nothing of the document around it (the
/// glue between regions and claims belongs to `review`).
const FORBIDDEN: &[(&str, &str)] = &[("claims", "doc")];

/// Imports that run against the pipeline today (from → to).
const IMPORT_DEBTS: &[(&str, &str)] = &[];

/// Non-test source files over the limit today.
const SIZE_DEBTS: &[&str] = &[];

const MAX_FILE_LINES: usize = 600;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if !path.ends_with("fixtures") && !path.ends_with("snapshots") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).to_string_lossy().replace('\\', "/")
}

/// The top-level module a file under `src/` belongs to, or `None` for the
/// crate roots.
fn module_of(rel: &str) -> Option<String> {
    let rest = rel.strip_prefix("src/")?;
    let first = rest.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    match name {
        "lib" | "main" => None,
        other => Some(other.to_owned()),
    }
}

/// Every `crate::NAME` a file's code mentions (comments skipped), including
/// the names inside `crate::{a, b::c}`.
fn imported_modules(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or("");
                for item in inner.split(',') {
                    let name: String = item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    found.insert(name);
                }
            } else {
                let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                found.insert(name);
            }
            rest = after;
        }
    }
    found
}

fn rank(module: &str) -> Option<usize> {
    RANKS.iter().position(|m| *m == module)
}

#[test]
fn imports_follow_the_pipeline() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut edges: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut unranked = BTreeSet::new();
    for file in &files {
        let rel = relative(file);
        let Some(from) = module_of(&rel) else { continue };
        let text = fs::read_to_string(file).expect("source file is readable");
        for to in imported_modules(&text) {
            // Items re-exported at the crate root (`crate::Error`) are the error module's.
            let to = match to.as_str() {
                "Error" | "Result" => "error".to_owned(),
                _ => to,
            };
            if to == from || to.chars().next().is_some_and(char::is_uppercase) {
                continue;
            }
            edges.entry((from.clone(), to)).or_insert_with(|| rel.clone());
        }
    }
    let mut backward = BTreeSet::new();
    for ((from, to), example) in &edges {
        match (rank(from), rank(to)) {
            (Some(a), Some(b)) if b < a && !FORBIDDEN.contains(&(from.as_str(), to.as_str())) => {}
            (Some(_), Some(_)) => {
                backward.insert((from.clone(), to.clone(), example.clone()));
            }
            _ => {
                unranked.insert(if rank(from).is_none() { from.clone() } else { to.clone() });
            }
        }
    }
    assert!(unranked.is_empty(), "modules missing from RANKS in tests/floor_plan.rs: {unranked:?}");
    let new: Vec<_> = backward.iter().filter(|(f, t, _)| !IMPORT_DEBTS.contains(&(f.as_str(), t.as_str()))).collect();
    assert!(
        new.is_empty(),
        "imports against the pipeline order ({}):\n{}",
        RANKS.join(" < "),
        new.iter().map(|(f, t, e)| format!("  {f} → {t} (e.g. {e})")).collect::<Vec<_>>().join("\n")
    );
    let paid: Vec<_> =
        IMPORT_DEBTS.iter().filter(|(f, t)| !backward.iter().any(|(bf, bt, _)| bf == f && bt == t)).collect();
    assert!(paid.is_empty(), "remove these paid debts from IMPORT_DEBTS: {paid:?}");
}

/// Lines before the file's `#[cfg(test)]` module: what a reader of the code
/// (not of its tests) has to hold.
fn code_lines(text: &str) -> usize {
    text.lines().take_while(|l| !l.starts_with("#[cfg(test)]")).count()
}

#[test]
fn no_source_file_is_over_the_size_limit() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut over = BTreeMap::new();
    for file in &files {
        let rel = relative(file);
        if rel.ends_with("/tests.rs") || rel.contains("/tests/") {
            continue;
        }
        let n = code_lines(&fs::read_to_string(file).expect("source file is readable"));
        if n > MAX_FILE_LINES {
            over.insert(rel, n);
        }
    }
    let new: Vec<_> = over.iter().filter(|(f, _)| !SIZE_DEBTS.contains(&f.as_str())).collect();
    assert!(new.is_empty(), "files over {MAX_FILE_LINES} lines (split them along their seams): {new:?}");
    let paid: Vec<_> = SIZE_DEBTS.iter().filter(|f| !over.contains_key(**f)).collect();
    assert!(paid.is_empty(), "remove these paid debts from SIZE_DEBTS: {paid:?}");
}

/// rustfmt's `max_width` from the repository's rustfmt.toml.
fn max_width() -> usize {
    let config = fs::read_to_string(root().join("rustfmt.toml")).unwrap_or_default();
    config
        .lines()
        .find_map(|l| l.strip_prefix("max_width")?.trim().strip_prefix('=')?.trim().parse().ok())
        .unwrap_or(100)
}

#[test]
fn every_line_is_within_rustfmt_width() {
    let width = max_width();
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
        rust_files(&root().join(dir), &mut files);
    }
    let mut long = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("source file is readable");
        for (i, line) in text.lines().enumerate() {
            if line.chars().count() > width {
                long.push(format!("{}:{}", relative(file), i + 1));
            }
        }
    }
    let debts = WIDTH_DEBTS.iter().copied().collect::<BTreeSet<_>>();
    let mut by_file: BTreeMap<String, usize> = BTreeMap::new();
    for at in &long {
        let file = at.rsplit_once(':').map_or(at.as_str(), |(f, _)| f);
        *by_file.entry(file.to_owned()).or_default() += 1;
    }
    let new: Vec<_> = by_file.keys().filter(|f| !debts.contains(f.as_str())).collect();
    assert!(new.is_empty(), "lines over {width} characters in {new:?}; break the string with `\\` or concat!");
    let paid: Vec<_> = debts.iter().filter(|f| !by_file.contains_key(**f)).collect();
    assert!(paid.is_empty(), "remove these paid debts from WIDTH_DEBTS: {paid:?}");
}

/// Files with lines over rustfmt's width today.
const WIDTH_DEBTS: &[&str] = &[];

/// Files that still silence some of the lints Cargo.toml's `[lints]` sets
/// (the pedantic set, `unreachable_pub`, functions over 80 lines), with a
/// `#![allow(..)]` line marked as floor-plan debt.
const LINT_DEBTS: &[&str] = &[];

#[test]
fn no_file_silences_the_crate_lints() {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
        rust_files(&root().join(dir), &mut files);
    }
    let marker = concat!("floor-plan debt", " (issue 7)");
    let silenced: BTreeSet<String> =
        files.iter().filter(|f| fs::read_to_string(f).is_ok_and(|t| t.contains(marker))).map(|f| relative(f)).collect();
    let debts: BTreeSet<String> = LINT_DEBTS.iter().map(|s| (*s).to_owned()).collect();
    let new: Vec<_> = silenced.difference(&debts).collect();
    assert!(new.is_empty(), "new files silencing the crate lints: {new:?}; fix the warnings instead");
    let paid: Vec<_> = debts.difference(&silenced).collect();
    assert!(paid.is_empty(), "remove these paid debts from LINT_DEBTS: {paid:?}");
}
