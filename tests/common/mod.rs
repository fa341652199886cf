//! What the end-to-end tests share: a throwaway project folder
//! ([`Sandbox`]), a just-style builder for one run of the real `reckon`
//! binary in it ([`Test`]), a git repository around it ([`Git`]), and the
//! places of the repository's own data.
//!
//! ```ignore
//! Test::new()
//!     .file("reckon.toml", "series = \"config\"\n")
//!     .file("logs/a.jsonl", "…")
//!     .args(["check"])
//!     .status(1)
//!     .stdout_has("claim `c` contradicted")
//!     .run();
//! ```
// Each test binary compiles this module and uses a part of it; the rest is
// dead code (and unused re-exports) there, not in the suite.
#![allow(dead_code, unused_imports)]

pub(crate) mod chromium;
pub(crate) mod claims;
pub(crate) mod corpus;
mod git;
pub(crate) mod lint_score;
mod sandbox;
mod test;

use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) use git::Git;
pub(crate) use sandbox::{Ran, Sandbox};
pub(crate) use test::Test;

/// What a reckon under test must not inherit from the runner of the tests:
/// the files a GitHub Actions step appends to (a test must never write the
/// real job summary), what forces colour, and git's pointers into the
/// repository a hook runs in (a test's git works in its own sandbox).
pub(crate) const RUNNER_ENV: [&str; 10] = [
    "GITHUB_STEP_SUMMARY",
    "GITHUB_OUTPUT",
    "GITHUB_ENV",
    "GITHUB_PATH",
    "CLICOLOR_FORCE",
    "FORCE_COLOR",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "RECKON",
];

/// `c` with none of [`RUNNER_ENV`], and without colour: every helper that
/// runs reckon, itself or through git, starts from this.
pub(crate) fn isolated(c: &mut Command) -> &mut Command {
    for k in RUNNER_ENV {
        c.env_remove(k);
    }
    c.env("NO_COLOR", "1")
}

/// The repository's root (where reckon.toml and notebooks/ of the bundled
/// example live).
pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

pub(crate) fn fixtures() -> PathBuf {
    repo().join("tests/fixtures")
}

/// The scenario's two sweeps: the bundled example's logs, the one copy in
/// the repository (`2026-11-20/*.log` are stdout summaries, `2026-11-29/*.jsonl`
/// `SGLang` JSONL).
pub(crate) fn scenario_logs() -> PathBuf {
    repo().join("notebooks/logs")
}

/// Copies the folder `from` into `to`, recursively, creating `to`.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// An in-memory store holding the scenario's logs: `sweeps` names the log
/// extensions to ingest — `log` is the 2026-11-20 sweep (stdout summaries),
/// `jsonl` the 2026-11-29 one (`SGLang` JSONL) — with `{date}` and `{config}`
/// captured from the path as reckon.toml's sources do.
pub(crate) fn scenario_store(sweeps: &[&str]) -> reckon::store::Store {
    let mut store = reckon::store::Store::open_in_memory().unwrap();
    let requests: Vec<reckon::sources::Request> = sweeps
        .iter()
        .map(|ext| reckon::sources::Request {
            path: format!("logs/{{date}}/{{config}}.{ext}"),
            format: None,
            labels: std::collections::BTreeMap::default(),
            optional: false,
        })
        .collect();
    let opts = reckon::sources::Options { fail_fast: true, ..reckon::sources::Options::default() };
    let mut batch = reckon::store::Batch::new("test".into(), None);
    let report =
        reckon::sources::ingest(&mut store, &repo().join("notebooks"), &requests, &opts, &mut batch, &mut |_, _, _| {});
    assert_eq!(report.failed(), 0, "the scenario logs ingest");
    store
}
