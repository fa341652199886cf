//! What the document commands share: opening the database (after ingesting
//! the configured sources), finding the documents, reviewing them, and
//! showing paths and errors as the researcher gave them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::claims::judge::ClaimReport;
use crate::config::Config;
use crate::query::Dataset;
use crate::render::plot;
use crate::review::diff::unified;
use crate::review::document::{self, DocReview};
use crate::review::Context;
use crate::store::Store;
use crate::{sources, Error, Result};

use super::ingest::{ingest_and_report, report_forgotten, sources_requests, ShownAs};

/// Opens the store, first ingesting the sources reckon.toml names (unless
/// told not to: `--no-ingest` trusts the database as it is, and looks at no
/// log). Returns the store and whether an ingest failed.
pub(super) fn prepare(cfg: &Config, no_ingest: bool) -> Result<(Store, bool)> {
    let (store, failed) = prepare_with(cfg, no_ingest, sources::Options::default(), None)?;
    Ok((store, !failed.is_empty()))
}

/// [`prepare`] with ingest options (for a staged check, git is asked about
/// the real project while the files are read from the staged copy),
/// returning the errors of the logs that could not be ingested (printed,
/// their paths named by `shown_as` when given, else relative to the
/// project's root).
pub(super) fn prepare_with(
    cfg: &Config,
    no_ingest: bool,
    base: sources::Options,
    shown_as: ShownAs,
) -> Result<(Store, Vec<Error>)> {
    if no_ingest {
        return Ok((Store::open_read_only(&cfg.database, cfg.store_limits())?, Vec::new()));
    }
    if cfg.sources.is_empty() {
        return Ok((open_current(cfg)?, Vec::new()));
    }
    let requests = sources_requests(cfg, None, &std::collections::BTreeMap::new())?;
    sources::check_requests(&requests)?;
    let mut store = Store::open(&cfg.database, cfg.store_limits())?;
    // The runs of deleted logs are forgotten by the ingest, which looks at
    // each file once.
    let own = cfg.ingest_options();
    let opts = sources::Options {
        fail_fast: false,
        generic: own.generic,
        line_bytes: own.line_bytes,
        forget: sources::Forget { missing: true, unmatched: true },
        ..base
    };
    let failed = ingest_and_report(&mut store, &cfg.root, &requests, &opts, (true, shown_as));
    // The documents are rendered over a read-only connection: a region's
    // SQL runs under an authorizer too, but nothing a document does should
    // be able to write.
    drop(store);
    Ok((Store::open_read_only(&cfg.database, cfg.store_limits())?, failed))
}

/// Opens the database to read it, first dropping the runs of files that are
/// no longer there: the database is a cache of the logs, and a deleted log
/// must not keep deciding answers.
pub(super) fn open_current(cfg: &Config) -> Result<Store> {
    let store = Store::open_read_only(&cfg.database, cfg.store_limits())?;
    if !cfg.database.exists() || !sources::any_missing(&store, &cfg.root)? {
        return Ok(store);
    }
    drop(store);
    let mut store = Store::open(&cfg.database, cfg.store_limits())?;
    report_forgotten(&sources::forget_missing(&mut store, &cfg.root)?, false);
    Ok(store)
}

/// Loads the data for one command, with reckon.toml's overrides applied.
/// The command owns it and drops it when it is done.
pub(super) fn load_for_command<'s>(store: &'s Store, cfg: &Config) -> Result<Dataset<'s>> {
    let mut dataset = Dataset::load(store)?;
    dataset.apply_overrides(&cfg.overrides());
    Ok(dataset)
}

/// Opens each document (read and parsed once, see
/// [`document::Opened`]), in order; one that cannot be opened is reported
/// when it is reviewed.
pub(super) fn open_each(cfg: &Config, cwd: &Path, docs: &[PathBuf]) -> Vec<(PathBuf, Result<document::Opened>)> {
    doc_paths(cwd, docs).into_iter().map(|path| (path.clone(), document::open(&cfg.root, &path))).collect()
}

/// Tells the dataset the filters of the documents' regions before they are
/// reviewed: when every region is a table, value or plot with a `where=`,
/// only the runs those filters can pass are read first (see
/// [`Dataset::expect`]); a region asking for more still gets every run, and
/// so does a command over a document that could not be opened.
pub(super) fn expect_documents(dataset: &Dataset, opened: &[(PathBuf, Result<document::Opened>)]) -> Result<()> {
    let mut filters = Vec::new();
    for (_, doc) in opened {
        let Some(more) = doc.as_ref().ok().and_then(document::Opened::filters) else { return Ok(()) };
        filters.extend(more);
    }
    dataset.expect(&filters)
}

/// The documents a command reads: those given, else the `documents` of
/// reckon.toml.
pub(super) fn documents(cfg: &Config, given: &[PathBuf]) -> Result<Vec<PathBuf>> {
    if !given.is_empty() {
        return Ok(given.to_vec());
    }
    cfg.document_paths()
}

/// A document command run where no reckon.toml is found (here or above)
/// and given no documents would check nothing: an error saying where it
/// looked and, when projects live in subfolders (a monorepo's root), which.
pub(super) fn no_project(cwd: &Path, command: &str) -> Error {
    let mut below: Vec<String> = std::fs::read_dir(cwd)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("reckon.toml").is_file())
        .map(|e| format!("{}/reckon.toml", e.file_name().to_string_lossy()))
        .collect();
    below.sort();
    let hint = if below.is_empty() {
        format!(
            "run it in a project's folder, name the documents (reckon {command} notebooks/plan.md), or create \
             one with `reckon init`"
        )
    } else {
        let shown: Vec<&str> = below.iter().take(4).map(String::as_str).collect();
        let more = if below.len() > 4 { format!(" and {} more", below.len() - 4) } else { String::new() };
        format!(
            "the projects are in subfolders ({}{more}): run it in one of them (cd {} && reckon {command})",
            shown.join(", "),
            below[0].trim_end_matches("/reckon.toml")
        )
    };
    Error::usage(format!(
        "reckon {command}: nothing to {command}: no reckon.toml in {} or any folder above it, and no documents \
         named; {hint}",
        crate::escape::terminal(&cwd.display().to_string())
    ))
}

/// The documents a command that needs some reads (`claims`, `lint`): those
/// given, else reckon.toml's; none is a usage error naming how to give them.
pub(super) fn documents_needed(cfg: &Config, given: &[PathBuf], command: &str) -> Result<Vec<PathBuf>> {
    let docs = documents(cfg, given)?;
    if docs.is_empty() {
        return Err(Error::usage(format!(
            "no documents: name them (reckon {command} notebooks/plan.md), \
             or list them in reckon.toml as documents = [\"notebooks/*.md\"]"
        )));
    }
    Ok(docs)
}

/// The documents as given on the command line, relative to the current folder.
pub(super) fn doc_paths(cwd: &Path, docs: &[PathBuf]) -> Vec<PathBuf> {
    docs.iter().map(|d| if d.is_absolute() { d.clone() } else { cwd.join(d) }).collect()
}

/// How a path is shown: as the user gave it.
pub(super) fn shown(cwd: &Path, path: &Path) -> String {
    path.strip_prefix(cwd).unwrap_or(path).display().to_string()
}

/// Reviews each document; errors are printed and counted.
pub(super) fn review_all(ctx: &Context, cwd: &Path, docs: &[PathBuf]) -> (Vec<DocReview>, usize) {
    let (reviews, errors) = review_each(ctx, cwd, docs);
    (reviews, errors.len())
}

/// Reviews each document; errors are printed and returned, their paths as
/// the user gave them.
pub(super) fn review_each(ctx: &Context, cwd: &Path, docs: &[PathBuf]) -> (Vec<DocReview>, Vec<Error>) {
    review_opened(ctx, cwd, open_each(ctx.cfg, cwd, docs))
}

/// [`review_each`] of documents already opened (see [`open_each`]).
pub(super) fn review_opened(
    ctx: &Context,
    cwd: &Path,
    opened: Vec<(PathBuf, Result<document::Opened>)>,
) -> (Vec<DocReview>, Vec<Error>) {
    let mut reviews: Vec<DocReview> = Vec::new();
    let mut errors = Vec::new();
    for (path, doc) in opened {
        let rel = PathBuf::from(shown(cwd, &path));
        match doc.and_then(|doc| document::review_opened(ctx, doc)) {
            Ok(mut r) => {
                r.path = rel;
                // Two documents drawing the same file would overwrite each
                // other on every update.
                let shared = r.drawn.iter().find_map(|f| reviews.iter().find(|o| o.drawn.contains(f)).map(|o| (o, f)));
                if let Some((other, file)) = shared {
                    let e = Error::usage(format!(
                        "{}: a plot writes {}, which {} also draws; give one of them its own file=",
                        r.path.display(),
                        shown(cwd, file),
                        other.path.display()
                    ));
                    say!("error: {}", super::shown_error(&e));
                    errors.push(e);
                    continue;
                }
                reviews.push(r);
            }
            Err(e) => {
                let e = relative_error(e, cwd);
                say!("error: {}", super::shown_error(&e));
                errors.push(e);
            }
        }
    }
    (reviews, errors)
}

/// Errors name documents by absolute path internally; show them as given.
pub(super) fn relative_error(e: Error, cwd: &Path) -> Error {
    e.map_path(&|path| PathBuf::from(shown(cwd, &path)))
}

/// An ingest's errors name logs relative to the project's root (`root`);
/// shown from `cwd`, as documents are.
pub(super) fn rooted_error(e: Error, root: &Path, cwd: &Path) -> Error {
    e.map_path(&|path| PathBuf::from(shown(cwd, &root.join(path))))
}

/// The review diff of one document: its text, then the data behind each
/// plot that changed.
pub(super) fn review_diff(r: &DocReview, cwd: &Path, color: bool) -> String {
    let mut out = if crate::doc::notebook::is_notebook(&r.path) {
        let shown = crate::doc::notebook::shown;
        unified(&r.path.display().to_string(), &shown(&r.text), &shown(&r.updated), color)
    } else {
        unified(&r.path.display().to_string(), &r.text, &r.updated, color)
    };
    for f in &r.files {
        let name = format!("{} (plotted data)", shown(cwd, &f.path));
        let old = f.old.as_deref().and_then(plot::data_of).unwrap_or("");
        let new = plot::data_of(&f.new).unwrap_or("");
        if f.old.is_none() {
            let points = new.lines().count().saturating_sub(1);
            let _ = writeln!(out, "new plot {} ({points} points)", shown(cwd, &f.path));
        } else if old != new {
            out.push_str(&unified(&name, old, new, color));
        } else {
            let _ = writeln!(out, "plot {} is redrawn (same data)", shown(cwd, &f.path));
        }
    }
    out
}

/// A claim as one line: where it is, its id and its verdict's summary.
pub(super) fn claim_line(path: &Path, c: &ClaimReport) -> String {
    let tag = if c.superseded.is_some() { " (superseded)" } else { "" };
    let shown = crate::escape::terminal;
    format!("{}:{}: claim `{}`{tag} {}", shown(&path.display().to_string()), c.line, shown(&c.id), shown(&c.summary))
}
