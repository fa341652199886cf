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

/// Non-test code of a source file: its lines before `#[cfg(test)]`, comments cut.
fn code_of(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .enumerate()
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("").to_owned()))
        .collect()
}

/// The non-test source files under `src/` (unit-test files left out), each
/// with its code lines.
fn source_code() -> Vec<(String, Vec<(usize, String)>)> {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    files.sort();
    files
        .iter()
        .map(|f| (relative(f), f))
        .filter(|(rel, _)| !rel.ends_with("/tests.rs") && !rel.contains("/tests/"))
        .map(|(rel, f)| (rel, code_of(&fs::read_to_string(f).expect("source file is readable"))))
        .collect()
}

/// Checks one rule over every source file: `hit` says whether a code line
/// breaks it; the files that do must be exactly `debts`.
fn rule(name: &str, debts: &[&str], hit: impl Fn(&str, &str) -> bool) {
    let mut found: BTreeMap<String, usize> = BTreeMap::new();
    for (rel, lines) in source_code() {
        if let Some((n, _)) = lines.iter().find(|(_, l)| hit(&rel, l)) {
            found.insert(rel, *n);
        }
    }
    let debts: BTreeSet<&str> = debts.iter().copied().collect();
    let new: Vec<String> =
        found.iter().filter(|(f, _)| !debts.contains(f.as_str())).map(|(f, n)| format!("{f}:{n}")).collect();
    assert!(new.is_empty(), "{name}: {new:?}");
    let paid: Vec<_> = debts.iter().filter(|f| !found.contains_key(**f)).collect();
    assert!(paid.is_empty(), "{name}: remove these paid debts from its list: {paid:?}");
}

/// Files holding process-wide mutable state today.
const STATE_DEBTS: &[&str] = &[];

/// No process-wide state: a setting reaches the code that uses it as an
/// argument (from the `Project` a command resolves), never through a
/// `static` set once by whichever project was read first. Compiled
/// constants (`LazyLock<Regex>`) are not state.
#[test]
fn no_process_wide_state() {
    let mutable = ["Atomic", "Mutex", "RwLock", "OnceLock", "OnceCell", "RefCell", "Cell<", "static mut"];
    rule("process-wide state (pass it down from the command's Project instead)", STATE_DEBTS, |_, line| {
        let line = line.trim_start();
        let is_static = line.starts_with("static ") || line.starts_with("pub static ") || line.contains(" static ");
        (is_static && !line.contains("'static") && mutable.iter().any(|m| line.contains(m)))
            || line.contains("thread_local!")
    });
}

/// Files leaking memory on purpose today.
const LEAK_DEBTS: &[&str] = &[];

/// What a command loads it owns: nothing is leaked to outlive it.
#[test]
fn nothing_is_leaked() {
    rule("Box::leak (let the command own it)", LEAK_DEBTS, |_, line| line.contains("Box::leak"));
}

/// Files writing JSON outside the CLI today.
const JSON_DEBTS: &[&str] = &[];

/// JSON only in the CLI, and only from typed reports: `json!` nowhere
/// outside tests, and `serde_json` serializing only in `src/cli/` (the store
/// encodes a run's params with it, which is storage, not output).
#[test]
fn json_only_in_cli() {
    const STORAGE: &[&str] = &["src/store/params.rs"];
    rule(
        "JSON built outside cli/ or with json! (derive Serialize on a report type in cli/reporter)",
        JSON_DEBTS,
        |rel, line| {
            let serializes = line.contains("serde_json::to_") || line.contains("to_string_pretty");
            line.contains("json!(") && !rel.starts_with("src/cli/")
                || serializes && !rel.starts_with("src/cli/") && !STORAGE.contains(&rel)
        },
    );
    rule("json! in the CLI (derive Serialize on a report type in cli/reporter)", CLI_JSON_DEBTS, |rel, line| {
        rel.starts_with("src/cli/") && line.contains("json!(")
    });
}

/// CLI files building JSON with `json!` today.
const CLI_JSON_DEBTS: &[&str] = &[];

/// Files using `Error::Usage` for what is not a usage mistake today: an
/// invariant of reckon's own broken (`internal:`), or control flow.
const USAGE_DEBTS: &[&str] = &[];

/// `Error::Usage` means the researcher used reckon wrong; a broken
/// invariant is `Error::Internal` (a bug in reckon, never a fault in a log).
#[test]
fn usage_means_a_usage_mistake() {
    rule("Error::usage for an internal error or control flow", USAGE_DEBTS, |_, line| {
        (line.contains("usage(") || line.contains("Usage("))
            && (line.contains("\"internal") || line.contains("\"skipped"))
    });
}

/// Files handing a region's arguments around as string pairs today.
const PAIR_DEBTS: &[&str] = &[];

/// A region's arguments are parsed once, by `doc`, into the region's typed
/// spec: no stage after it takes them as `(String, String)` pairs.
#[test]
fn region_arguments_are_typed() {
    rule("region arguments as string pairs (take the region's spec)", PAIR_DEBTS, |rel, line| {
        ["src/doc/", "src/render/", "src/review/", "src/report/"].iter().any(|d| rel.starts_with(d))
            && line.contains("Vec<(String, String)>")
    });
}

/// A source file's module path: `src/query/pivot.rs` → `query::pivot`,
/// `src/query/filter/mod.rs` → `query::filter`.
fn module_path(rel: &str) -> Vec<String> {
    let rest = rel.strip_prefix("src/").unwrap_or(rel).strip_suffix(".rs").unwrap_or(rel);
    let mut parts: Vec<String> = rest.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
        parts.pop();
    }
    parts
}

/// The paths a file's code names through `crate::` and `super::`, groups
/// (`super::{a::X, b}`) expanded one level, resolved against its module.
fn named_paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut out = Vec::new();
    for (prefix, base) in [
        ("crate::", Vec::new()),
        ("super::", {
            // `super` is the parent module, whether the file is `x.rs` or `x/mod.rs`.
            let mut parent = module.to_vec();
            parent.pop();
            parent
        }),
    ] {
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + prefix.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut heads = Vec::new();
            if let Some(group) = rest.strip_prefix('{') {
                for item in group.split('}').next().unwrap_or("").split(',') {
                    heads.push(item.trim().to_owned());
                }
            } else {
                heads.push(rest.to_owned());
            }
            for head in heads {
                let mut path = base.clone();
                let mut tail = head.as_str();
                loop {
                    let name = ident(tail);
                    if name.is_empty() {
                        break;
                    }
                    tail = &tail[name.len()..];
                    path.push(name);
                    match tail.strip_prefix("::") {
                        Some(t) if !t.starts_with('{') => tail = t,
                        _ => break,
                    }
                }
                out.push(path);
            }
        }
    }
    out
}

/// Imports that form a cycle between files today (each as `a.rs ↔ b.rs`).
const CYCLE_DEBTS: &[&str] = &[];

/// No two files import each other (directly or through others): an idea
/// lives in one file and the files that use it rank after it. A file's own
/// ancestors (`super::X` defined in `mod.rs`) and descendants are its
/// module's, not other files, and are left out.
#[test]
fn no_import_cycle_between_files() {
    let code = source_code();
    let modules: BTreeMap<Vec<String>, String> = code.iter().map(|(rel, _)| (module_path(rel), rel.clone())).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, lines) in &code {
        let module = module_path(rel);
        let text: String = lines.iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>().join("\n");
        for path in named_paths(&module, &text) {
            let target = (1..=path.len()).rev().find_map(|n| modules.get(&path[..n]).map(|f| (n, f)));
            let Some((n, file)) = target else { continue };
            let target_module = &path[..n];
            let related = module.starts_with(target_module) || target_module.starts_with(&module);
            if !related {
                edges.entry(rel.clone()).or_default().insert(file.clone());
            }
        }
    }
    let mut cycles = BTreeSet::new();
    for (a, targets) in &edges {
        for b in targets {
            // b reaches a again?
            let mut seen = BTreeSet::new();
            let mut stack = vec![b.clone()];
            while let Some(f) = stack.pop() {
                if &f == a {
                    let (x, y) = if a < b { (a, b) } else { (b, a) };
                    cycles.insert(format!("{x} ↔ {y}"));
                    break;
                }
                if seen.insert(f.clone()) {
                    stack.extend(edges.get(&f).into_iter().flatten().cloned());
                }
            }
        }
    }
    let debts: BTreeSet<String> = CYCLE_DEBTS.iter().map(|s| (*s).to_owned()).collect();
    let new: Vec<_> = cycles.difference(&debts).collect();
    assert!(new.is_empty(), "files importing each other (move the shared idea into one of them, or a third): {new:?}");
    let paid: Vec<_> = debts.difference(&cycles).collect();
    assert!(paid.is_empty(), "remove these paid debts from CYCLE_DEBTS: {paid:?}");
}
