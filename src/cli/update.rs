//! `reckon update`: ingest the configured sources, regenerate the documents'
//! regions, judge their claims and print the diff; `--write` applies it.

use std::path::{Path, PathBuf};

use super::project::{claim_line, documents, load_for_command, prepare, review_all, review_diff};
use crate::claims::Verdict;
use crate::config::Config;
use crate::doc;
use crate::review::document::DocReview;
use crate::review::Context;
use crate::{Error, Result};

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct UpdateArgs {
    /// Markdown documents (none: the `documents` of reckon.toml).
    pub(crate) docs: Vec<PathBuf>,
    /// Write the regenerated documents and plots.
    #[arg(long)]
    pub(crate) write: bool,
    /// Overwrite regions that were edited by hand.
    #[arg(long)]
    pub(crate) force: bool,
    /// Do not ingest the sources of reckon.toml first: the database is read
    /// as it is, without looking at any log.
    #[arg(long)]
    pub(crate) no_ingest: bool,
}

pub(super) fn run(cfg: &Config, cwd: &Path, args: &UpdateArgs) -> Result<i32> {
    if cfg.file.is_none() && args.docs.is_empty() {
        return Err(super::project::no_project(cwd, "update"));
    }
    let docs = documents(cfg, &args.docs)?;
    if docs.is_empty() {
        say!("reckon update: no documents; name them, or list them in reckon.toml as documents = [\"notebooks/*.md\"]");
        return Ok(super::OK);
    }
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = &load_for_command(&store, cfg)?;
    let ctx = Context { dataset, store: &store, cfg, doc_dir: cwd, cache: None };
    let (reviews, mut errors) = review_all(&ctx, cwd, &docs);
    let color = super::stdout_color();
    let mut out = String::new();
    for r in &reviews {
        out.push_str(&review_diff(r, cwd, color));
        for c in r.claims.iter().filter(|c| c.verdict != Verdict::Holds) {
            say!("{}", claim_line(&r.path, c));
        }
    }
    super::stdout_write(&out)?;
    if args.write {
        errors += reviews.iter().filter(|r| !write_unless_edited(r, cwd, args.force)).count();
    }
    Ok(super::exit_code(errors, ingest_failed, false))
}

/// Writes one reviewed document unless a region of it was edited by hand
/// (and `--force` not given); says why not and returns false when it is not
/// written.
pub(super) fn write_unless_edited(r: &DocReview, cwd: &Path, force: bool) -> bool {
    let edited: Vec<_> = r.hand_edited().collect();
    if !edited.is_empty() && !force {
        // In a notebook, the cell is named too.
        let cells = doc::notebook::Notebook::of(&r.path, &r.original);
        for e in &edited {
            let cell = cells.as_ref().and_then(|nb| nb.place(e.line)).map(|p| format!("{p}: ")).unwrap_or_default();
            say!(
                concat!(
                    "error: {}:{}:{}: {}this {} region was edited by hand since reckon wrote it; not overwritten. ",
                    "Move the edit outside the region, or run `reckon update --write --force` to replace it"
                ),
                r.path.display(),
                e.line,
                e.col,
                cell,
                e.kind.name()
            );
        }
        return false;
    }
    if let Err(e) = write_review(r, cwd) {
        say!("error: {}", super::shown_error(&e));
        return false;
    }
    true
}

/// Writes a reviewed document, then its plots: if the document changed
/// since it was read, nothing is written at all.
fn write_review(r: &DocReview, cwd: &Path) -> Result<()> {
    // Plots first, each whole, then the document, whole: a kill in between
    // leaves the old document beside plots of the new data, never a new
    // document beside stale plots. Nothing is written if the document
    // changed since it was read.
    // Temporary files of an earlier reckon killed mid-write go first, even
    // when nothing needs writing now.
    if let Some(dir) = cwd.join(&r.path).parent() {
        doc::write::clean_stale_temps(dir);
    }
    if std::fs::read(cwd.join(&r.path)).map_err(|e| Error::io(&r.path, e))? != r.original {
        return Err(Error::io(
            &r.path,
            std::io::Error::other("the file changed since reckon read it; nothing was written — run the command again"),
        ));
    }
    if r.text != r.updated && doc::notebook::is_notebook(&r.path) {
        // A notebook reckon cannot write back in its own layout is refused
        // before any of its plots is written.
        let text = String::from_utf8_lossy(&r.original);
        doc::notebook::rewrite(&r.path, &text, &r.updated)?;
    }
    for f in &r.files {
        doc::write::write_generated(&f.path, &f.new)?;
    }
    if r.text != r.updated {
        doc::write_atomic(&cwd.join(&r.path), &r.original, &r.updated)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn documents_are_optional_and_write_force_no_ingest_are_flags() {
        let Command::Update(a) = parse(&["update"]).unwrap().command else { panic!("not update") };
        assert!(a.docs.is_empty() && !a.write && !a.force && !a.no_ingest);
        let Command::Update(a) =
            parse(&["update", "a.md", "b.md", "--write", "--force", "--no-ingest"]).unwrap().command
        else {
            panic!("not update")
        };
        assert_eq!(a.docs.len(), 2);
        assert!(a.write && a.force && a.no_ingest);
    }
}
