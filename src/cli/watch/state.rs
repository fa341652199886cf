//! One turn of `reckon watch`: the sources ingested as `update` ingests
//! them (a changed log replaces its runs, a gone one loses them), then the
//! documents reviewed, their prose linted and, when serving, their reports
//! rendered — each by the library's own stage, as `update`, `lint` and
//! `report` call it.

use std::path::{Path, PathBuf};

use super::changes::DocState;
use crate::cli::ingest::sources_requests;
use crate::cli::project::{relative_error, review_each, rooted_error, shown};
use crate::config::Config;
use crate::query::Dataset;
use crate::review::document::DocReview;
use crate::review::Context;
use crate::sources::{self, FileOutcome};
use crate::store::{Batch, Store};
use crate::Result;

/// What an ingest brought.
#[derive(Debug, Default)]
pub(super) struct Ingested {
    /// The logs whose runs came, changed or went (as shown).
    pub(super) changed: Vec<String>,
    /// A line for each of them, and for each log still being written.
    pub(super) lines: Vec<String>,
    pub(super) runs: u64,
    pub(super) files: usize,
}

/// Ingests the sources of reckon.toml; a log that cannot be read is said on
/// stderr, and one whose last line is not finished (a sweep still writing
/// it) is said as such: its runs stay as last read until it changes again.
pub(super) fn ingest(cfg: &Config, cwd: &Path) -> Result<Ingested> {
    let mut out = Ingested::default();
    if cfg.sources.is_empty() {
        return Ok(out);
    }
    let requests = sources_requests(cfg, None, &std::collections::BTreeMap::new())?;
    sources::check_requests(&requests)?;
    let mut store = Store::open(&cfg.database, cfg.store_limits())?;
    let opts = sources::Options {
        fail_fast: false,
        forget: sources::Forget { missing: true, unmatched: true },
        keep_refused: true,
        ..cfg.ingest_options()
    };
    let mut batch = Batch::at_head_of("reckon watch".to_string(), &cfg.root);
    let report = sources::ingest(&mut store, &cfg.root, &requests, &opts, &mut batch, &mut |_, _, _| {});
    drop(store);
    for file in report.files {
        let abs = cfg.root.join(&file.path);
        let name = crate::escape::terminal(&shown(cwd, &abs));
        match file.outcome {
            FileOutcome::Added { format, runs, .. } => {
                out.lines.push(format!("{name}: {runs} run(s) read ({})", format.name()));
                out.changed.push(name);
                out.runs += runs;
                out.files += 1;
            }
            FileOutcome::Removed { runs, unmatched } => {
                let why = if unmatched { "no [[source]] matches it any more" } else { "gone" };
                out.lines.push(format!("{name}: {why}; its {runs} run(s) removed"));
                out.changed.push(name);
            }
            FileOutcome::Failed(_) if still_being_written(&abs) => out.lines.push(format!(
                "{name}: not finished (empty, or its last line cut short: still being written?); its runs stay \
                 as last read until it changes again"
            )),
            FileOutcome::Failed(e) => say!("error: {}", crate::cli::shown_error(&rooted_error(e, &cfg.root, cwd))),
            FileOutcome::AlreadyPresent { .. } => {}
        }
    }
    Ok(out)
}

/// A log that is empty or does not end with a line end: a writer is
/// still at it (a copy begins with an empty file, a sweep appends a record
/// at a time).
fn still_being_written(path: &Path) -> bool {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let Ok(mut f) = std::fs::File::open(path) else { return false };
    if f.metadata().is_ok_and(|m| m.len() == 0) {
        return true;
    }
    let mut last = [0u8; 1];
    f.seek(SeekFrom::End(-1)).is_ok() && f.read_exact(&mut last).is_ok() && last[0] != b'\n'
}

/// The documents as the data say them now.
pub(super) struct Evaluation {
    pub(super) states: Vec<DocState>,
    pub(super) reviews: Vec<DocReview>,
    /// Each document's name and report page, when serving.
    pub(super) pages: Vec<(String, String)>,
}

/// Reviews, lints and (when `pages`) renders the reports of `docs` over
/// what the database holds now. A document that cannot be read is said on
/// stderr and left out.
pub(super) fn evaluate(cfg: &Config, cwd: &Path, docs: &[PathBuf], pages: bool) -> Result<Evaluation> {
    let store = Store::open_read_only(&cfg.database, cfg.store_limits())?;
    let mut dataset = Dataset::load(&store)?;
    dataset.apply_overrides(&cfg.overrides());
    let ctx = Context { dataset: &dataset, store: &store, cfg, doc_dir: cwd, cache: None };
    let (reviews, _) = review_each(&ctx, cwd, docs);
    let linter = cfg.linter(&dataset);
    let mut states = Vec::with_capacity(reviews.len());
    for r in &reviews {
        let findings = match linter.lint(&r.path, &r.text) {
            Ok(f) => Some(f),
            Err(e) => {
                say!("error: {}", crate::cli::shown_error(&relative_error(e, cwd)));
                None
            }
        };
        states.push(DocState::of(r, findings.as_deref(), cfg.lint.min_confidence));
    }
    let mut rendered = Vec::new();
    // The served page's links to logs are relative to the folder watched.
    let site = pages.then(|| crate::report::Site {
        root: cwd.join(&cfg.root),
        page_dir: cwd.to_path_buf(),
        commit: crate::report::forge::Commit::of(&cfg.root),
    });
    for (r, site) in reviews.iter().filter_map(|r| Some((r, site.as_ref()?))) {
        let doc_dir = cwd.join(&r.path).parent().map_or_else(|| cwd.to_path_buf(), Path::to_path_buf);
        let ctx = Context { doc_dir: &doc_dir, ..ctx };
        match crate::report::page(&ctx, r, site) {
            Ok(html) => rendered.push((r.path.display().to_string(), html)),
            Err(e) => say!("error: {}", crate::cli::shown_error(&relative_error(e, cwd))),
        }
    }
    Ok(Evaluation { states, reviews, pages: rendered })
}
