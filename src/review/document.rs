//! Reviewing one living document: regenerate every region from the data,
//! judge every claim, and collect what changed — the new text, the plot
//! files, the stale regions and the claim verdicts — without writing.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::cache::{Cache, Entry};
use super::evaluate::{self, Job, Outcome};
use super::Context;
use crate::doc::{self, Kind, RegionError};
use crate::render;
use crate::store::EvaluationKey;
use crate::{Error, Result};

/// A region whose content does not match the data.
#[derive(Debug, Clone, PartialEq)]
pub struct StaleRegion {
    pub kind: Kind,
    pub line: usize,
    pub col: usize,
    /// Edited by hand since reckon wrote it.
    pub edited_by_hand: bool,
}

/// A file a region refers to (a plot) whose bytes would change.
#[derive(Debug, Clone, PartialEq)]
pub struct FileChange {
    pub path: PathBuf,
    /// What the file holds now (None: missing).
    pub old: Option<String>,
    pub new: String,
    /// The line of the region that draws it.
    pub line: usize,
}

/// Everything reckon has to say about one document.
#[derive(Debug, Clone)]
pub struct DocReview {
    /// The document's path as given.
    pub path: PathBuf,
    /// The bytes read (writes are refused if the file no longer holds them).
    pub original: Vec<u8>,
    /// The text as read.
    pub text: String,
    /// The text with every region regenerated.
    pub updated: String,
    pub stale: Vec<StaleRegion>,
    pub files: Vec<FileChange>,
    /// Every file the document's regions draw, changed or not.
    pub drawn: Vec<PathBuf>,
    /// Each plot region's drawing (region index, file, SVG), changed or not:
    /// the only files a report of the document embeds.
    pub plots: Vec<(usize, PathBuf, String)>,
    pub claims: Vec<crate::claims::judge::ClaimReport>,
    /// The runs behind each number a region wrote (region index, trace):
    /// the report links every number to them.
    pub traces: Vec<(usize, render::Trace)>,
    /// Each region's new content as given to [`doc::Document::splice`]
    /// (region index, replacement): `review` applies a chosen subset.
    pub replacements: Vec<(usize, String)>,
}

impl DocReview {
    /// True when the document and its files match the data.
    pub fn is_current(&self) -> bool {
        self.text == self.updated && self.files.is_empty()
    }

    /// Regions edited by hand whose new content would overwrite the edit.
    pub fn hand_edited(&self) -> impl Iterator<Item = &StaleRegion> {
        self.stale.iter().filter(|s| s.edited_by_hand)
    }
}

/// Reads a document (a notebook as the markdown view of its cells, see
/// [`doc::notebook`]); a file that is not UTF-8 text is an error, and so is
/// one inside the project (`root`) that leads out of it through a symlink:
/// `report` would render the outside file and `update --write` rewrite it.
pub fn read(root: &Path, path: &Path) -> Result<(Vec<u8>, String)> {
    crate::fsguard::stays_inside(root, path, path)?;
    let bytes = crate::fsguard::read_regular(path, path)?;
    let text = String::from_utf8(bytes.clone()).map_err(|e| {
        Error::io(
            path,
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("not UTF-8 text (byte {}); reckon reads markdown documents", e.utf8_error().valid_up_to()),
            ),
        )
    })?;
    // A notebook is read as the markdown of its cells (`doc::notebook`).
    let text = if doc::notebook::is_notebook(path) { doc::notebook::read_view(path, &text)? } else { text };
    Ok((bytes, text))
}

/// A document read and parsed, not yet reviewed: what a command needs to
/// know of its documents before it reviews them (the runs their regions
/// read, [`Opened::filters`]) comes from their specs, so each is parsed
/// once.
#[derive(Debug)]
pub struct Opened {
    path: PathBuf,
    original: Vec<u8>,
    text: String,
    parsed: doc::Document,
    /// For a notebook, where its errors are placed in its cells.
    notebook: Option<doc::notebook::Notebook>,
}

/// Reads and parses a document (see [`read`]); a malformed one is an
/// error placed in its cell for a notebook.
pub fn open(root: &Path, path: &Path) -> Result<Opened> {
    let (original, text) = read(root, path)?;
    let notebook = doc::notebook::Notebook::of(path, &original);
    let parsed = doc::parse(path, &text).map_err(|e| place(notebook.as_ref(), e))?;
    Ok(Opened { path: path.to_path_buf(), original, text, parsed, notebook })
}

impl Opened {
    /// The filters of the document's regions when each is a table, value
    /// or plot with a `where=` and no `as_of=`: only the runs they can pass
    /// need reading first (`Dataset::expect`). `None` when a region reads
    /// more (another kind, no filter, a date pin, arguments in error).
    pub fn filters(&self) -> Option<Vec<crate::query::Filter>> {
        self.parsed
            .regions
            .iter()
            .map(|region| {
                let selection = match &region.spec {
                    Ok(doc::RegionSpec::Table(s)) => &s.selection,
                    Ok(doc::RegionSpec::Value(s)) => &s.selection,
                    Ok(doc::RegionSpec::Plot(s)) => &s.selection,
                    _ => return None,
                };
                selection.filter.as_ref().filter(|_| selection.as_of.is_none()).map(|f| f.value.clone())
            })
            .collect()
    }
}

impl Opened {
    /// True when reviewing the document needs no dataset: `cache` knows
    /// the outcome of every region and claim that reads one (an `sql`
    /// region reads the database itself; a region whose arguments are
    /// wrong reads nothing). The outcomes are remembered by the cache, so
    /// the review that follows takes the same ones.
    pub fn known_to(&self, cache: &Cache, root: &Path) -> bool {
        let doc_dir = self.path.parent().map(Path::to_path_buf).unwrap_or_default();
        self.parsed.regions.iter().all(|region| match &region.spec {
            _ if region.kind == Kind::Claim => false,
            Ok(doc::RegionSpec::Sql(_)) | Err(_) => true,
            Ok(_) => false,
        } || cache
            .key(root, &self.path, &self.text, region)
            .is_some_and(|key| cache.look_up(&key, &doc_dir, region.line).is_some()))
    }
}

fn place(notebook: Option<&doc::notebook::Notebook>, e: Error) -> Error {
    match notebook {
        Some(nb) => nb.locate(e),
        None => e,
    }
}

/// Regenerates and judges one document against the data in `ctx`.
pub fn review(ctx: &Context, path: &Path) -> Result<DocReview> {
    review_opened(ctx, open(&ctx.cfg.root, path)?)
}

/// [`review`] of a document already opened.
pub fn review_opened(ctx: &Context, opened: Opened) -> Result<DocReview> {
    let Opened { path, original, text, parsed, notebook } = opened;
    let jobs = jobs(&parsed);
    let threads = evaluate::sql_threads(ctx.store, &jobs);
    review_parsed(ctx, &path, original, text, &parsed, &jobs, threads).map_err(|e| place(notebook.as_ref(), e))
}

/// For a notebook, what places a document error in its cell
/// ([`doc::notebook::Notebook::locate`]); for markdown, the error as it is.
pub fn located(path: &Path, original: &[u8]) -> impl Fn(Error) -> Error {
    let notebook = doc::notebook::Notebook::of(path, original);
    move |e| place(notebook.as_ref(), e)
}

/// [`review`] with `threads` threads running the `sql` regions beside this
/// one, however many cores there are (tests compare the outcomes).
#[cfg(test)]
pub(crate) fn review_with_threads(ctx: &Context, path: &Path, threads: usize) -> Result<DocReview> {
    let (original, text) = read(&ctx.cfg.root, path)?;
    let parsed = doc::parse(path, &text)?;
    let jobs = jobs(&parsed);
    review_parsed(ctx, path, original, text, &parsed, &jobs, threads)
}

/// What each region asks for: a claim to judge, or a spec to render (or
/// what is wrong with its arguments, reported in its place).
fn jobs(parsed: &doc::Document) -> Vec<Job<'_>> {
    parsed
        .regions
        .iter()
        .map(|region| match &region.spec {
            _ if region.kind == Kind::Claim => Job::Claim,
            Ok(spec) => Job::Render(spec),
            Err(e) => Job::Refused(e),
        })
        .collect()
}

/// [`review`] of a parsed document, its `sql` regions run by `threads`
/// threads beside this one: the regions are evaluated (see
/// [`evaluate`]), then taken in document order as if evaluated one by one.
fn review_parsed(
    ctx: &Context,
    path: &Path,
    original: Vec<u8>,
    text: String,
    parsed: &doc::Document,
    jobs: &[Job],
    threads: usize,
) -> Result<DocReview> {
    let doc_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let settings = super::render_settings(ctx.cfg);
    let render_ctx = render::Context { dataset: ctx.dataset, store: ctx.store, settings: &settings, doc_dir: &doc_dir };
    let (known, mut keep) = cached(ctx, path, &text, parsed, &doc_dir);
    let mut outcomes = evaluate::outcomes(ctx, &render_ctx, parsed, &text, jobs, threads, known);
    let mut replacements: Vec<(usize, String)> = Vec::new();
    let mut files: Vec<FileChange> = Vec::new();
    let mut drawn: Vec<PathBuf> = Vec::new();
    let mut plots: Vec<(usize, PathBuf, String)> = Vec::new();
    let mut traces: Vec<(usize, render::Trace)> = Vec::new();
    let mut drawn_once: HashSet<PathBuf> = HashSet::new();
    let mut claims = Vec::new();
    // Every claim is judged before any error is returned, so one bad claim
    // does not hide the problems (or verdicts) of the others.
    let mut claim_errors: Vec<Error> = Vec::new();
    for (i, region) in parsed.regions.iter().enumerate() {
        // Unset: after a region that failed (which returns first), or an sql
        // region its thread could not run. Evaluated here, the threads stay
        // an optimization, never a promise.
        let outcome = outcomes[i].take().unwrap_or_else(|| evaluate::one(ctx, &render_ctx, parsed, &text, i, &jobs[i]));
        if let (Some(cache), Some(key)) = (ctx.cache, keep[i].take()) {
            match &outcome {
                Outcome::Claim(Ok(report)) => cache.keep(key, &doc_dir, &Entry::Claim(report.clone())),
                Outcome::Render(Ok(rendered)) => cache.keep(key, &doc_dir, &Entry::Render(rendered.clone())),
                _ => {}
            }
        }
        let rendered = match outcome {
            Outcome::Claim(Ok(report)) => {
                // A superseded claim's note is history, written when it was
                // superseded: later data must not rewrite what it said then.
                let note = match (&report.superseded, region.status_note(&text)) {
                    (Some(_), Some(kept)) => kept.to_string(),
                    _ => report.note.clone().unwrap_or_default(),
                };
                replacements.push((i, note));
                claims.push(report);
                continue;
            }
            Outcome::Claim(Err(e)) => {
                claim_errors.push(e);
                continue;
            }
            Outcome::Render(r) => r.map_err(|e| region_error(parsed, &text, region, &e))?,
        };
        for (file, new) in rendered.files {
            if !drawn_once.insert(file.clone()) {
                return Err(parsed.error_at(
                    &text,
                    region.open.start,
                    format!("a second plot writes {}; give each plot its own file=", file.display()),
                ));
            }
            drawn.push(file.clone());
            plots.push((i, file.clone(), new.clone()));
            let old = std::fs::read_to_string(&file).ok();
            if old.as_deref() != Some(new.as_str()) {
                files.push(FileChange { path: file, old, new, line: region.line });
            }
        }
        replacements.push((i, rendered.content));
        traces.push((i, rendered.trace));
    }
    match claim_errors.len() {
        0 => {}
        1 => return Err(claim_errors.remove(0)),
        _ => return Err(Error::Several(claim_errors)),
    }
    let updated = parsed.splice(&text, &replacements);
    let stale = if updated == text { Vec::new() } else { stale_regions(parsed, &text, &replacements) };
    Ok(DocReview {
        path: path.to_path_buf(),
        original,
        text,
        updated,
        stale,
        files,
        drawn,
        plots,
        claims,
        traces,
        replacements,
    })
}

/// What the evaluation cache knows of each region of the document (its
/// outcome, taken as evaluated), and the key to keep each region it does
/// not know under once evaluated. Without a cache: nothing, and nothing
/// to keep.
fn cached(
    ctx: &Context,
    path: &Path,
    text: &str,
    parsed: &doc::Document,
    doc_dir: &Path,
) -> (Vec<Option<Outcome>>, Vec<Option<EvaluationKey>>) {
    let n = parsed.regions.len();
    let (mut known, mut keep): (Vec<Option<Outcome>>, _) = ((0..n).map(|_| None).collect(), vec![None; n]);
    let Some(cache) = ctx.cache else { return (known, keep) };
    for (i, region) in parsed.regions.iter().enumerate() {
        let Some(key) = cache.key(&ctx.cfg.root, path, text, region) else { continue };
        match cache.look_up(&key, doc_dir, region.line) {
            Some(Entry::Render(r)) => known[i] = Some(Outcome::Render(Ok(r))),
            Some(Entry::Claim(c)) => known[i] = Some(Outcome::Claim(Ok(c))),
            None => keep[i] = Some(key),
        }
    }
    (known, keep)
}

/// The regions splicing `replacements` changes (or edited by hand): each
/// region's content compared with what splicing writes, its replacement
/// found by its index, not by a scan of them all.
fn stale_regions(parsed: &doc::Document, text: &str, replacements: &[(usize, String)]) -> Vec<StaleRegion> {
    let mut replaced: Vec<Option<&str>> = vec![None; parsed.regions.len()];
    for (j, s) in replacements {
        replaced[*j] = Some(s.as_str());
    }
    parsed
        .regions
        .iter()
        .enumerate()
        .filter(|(i, r)| replaced[*i].is_none_or(|s| parsed.changes(text, *i, s)) || r.edited_by_hand())
        .map(|(_, r)| StaleRegion { kind: r.kind, line: r.line, col: r.col, edited_by_hand: r.edited_by_hand() })
        .collect()
}

/// A renderer's complaint, placed at the argument it is about (or the
/// opening marker).
fn region_error(parsed: &doc::Document, text: &str, region: &doc::Region, e: &RegionError) -> Error {
    let at = e.at.as_ref().map_or(region.open.start, |a| a.start);
    parsed.error_at(text, at, format!("{} region: {}", region.kind.name(), e.msg))
}
