//! `reckon supersede`: mark an overturned claim superseded. The author's
//! words stay, marked with the date and the evidence, with room for the new
//! conclusion next to them (the text surgery is `review::supersede::mark`).

use std::path::{Path, PathBuf};

use super::project::{doc_paths, prepare, shown};
use crate::claims::Verdict;
use crate::config::Config;
use crate::doc;
use crate::query::Dataset;
use crate::review::claim as judge;
use crate::review::diff::unified;
use crate::review::{document, supersede};
use crate::{Error, Result};

#[derive(clap::Args, Debug)]
pub(crate) struct SupersedeArgs {
    /// The document holding the claim.
    pub(crate) doc: PathBuf,
    /// The claim's id.
    pub(crate) id: String,
    /// Write the change (otherwise print the diff).
    #[arg(long)]
    pub(crate) write: bool,
    /// Do not ingest the sources of reckon.toml first: the database is read
    /// as it is, without looking at any log.
    #[arg(long)]
    pub(crate) no_ingest: bool,
}

pub(super) fn run(cfg: &Config, cwd: &Path, args: &SupersedeArgs) -> Result<i32> {
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    if ingest_failed {
        return Ok(super::ERROR);
    }
    let mut dataset = Dataset::load(&store)?;
    dataset.apply_overrides(&cfg.overrides());
    let path = doc_paths(cwd, std::slice::from_ref(&args.doc)).remove(0);
    let rel = shown(cwd, &path);
    let (original, text) = document::read(&cfg.root, &path)?;
    let parsed = doc::parse(Path::new(&rel), &text)?;
    let find = |d: &doc::Document| d.regions.iter().position(|r| r.claim().is_some_and(|c| c.id.value == args.id));
    let Some(index) = find(&parsed) else {
        return Err(no_such_claim(&rel, &parsed, &args.id));
    };
    let region = &parsed.regions[index];
    // The refusals point at the claim, with its line shown.
    if let Some(s) = region.claim().and_then(|c| c.superseded.as_ref()) {
        let msg = format!("claim `{}` is already superseded (on {})", args.id, s.value);
        return Err(parsed.error_at(&text, s.span.start, msg));
    }
    let report = judge::judge_claim(&dataset, cfg, None, &parsed, &text, region)?;
    if report.verdict != Verdict::Contradicted {
        let msg = format!(
            "claim `{}` is not contradicted ({}); only a conclusion the data contradict is superseded",
            args.id, report.summary
        );
        return Err(parsed.error_at(&text, region.open.start, msg));
    }
    let date = report.data_date.clone().unwrap_or_else(|| chrono::Utc::now().format("%Y-%m-%d").to_string());
    let marked = supersede::mark(&text, &parsed, index, &date);
    // Judge again to write the superseded note with its evidence.
    let reparsed = doc::parse(Path::new(&rel), &marked)?;
    let index = find(&reparsed).ok_or_else(|| Error::internal("the claim disappeared while marking it"))?;
    let report = judge::judge_claim(&dataset, cfg, None, &reparsed, &marked, &reparsed.regions[index])?;
    let updated = reparsed.splice(&marked, &[(index, report.note.clone().unwrap_or_default())]);
    super::stdout_write(&unified(&rel, &text, &updated, super::stdout_color()))?;
    if args.write {
        doc::write_atomic(&path, &original, &updated)?;
        say!("{rel}: claim `{}` marked superseded on {date}; write the new conclusion where the comment says", args.id);
    }
    Ok(super::OK)
}

/// No claim has the id given: say which ids the document has.
fn no_such_claim(rel: &str, parsed: &doc::Document, id: &str) -> Error {
    let ids: Vec<String> =
        parsed.regions.iter().filter_map(|r| r.claim().map(|c| format!("`{}`", c.id.value))).collect();
    let known = if ids.is_empty() {
        "; it has no claim regions".to_string()
    } else {
        format!("; its claims are {}", ids.join(", "))
    };
    Error::usage(format!("{rel}: no claim with id `{id}`{known}"))
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn a_document_and_a_claim_id_are_required() {
        assert!(parse(&["supersede", "plan.md"]).is_err());
        let Command::Supersede(a) = parse(&["supersede", "plan.md", "fast-wins", "--write"]).unwrap().command else {
            panic!("not supersede")
        };
        assert_eq!((a.doc.to_str(), a.id.as_str(), a.write), (Some("plan.md"), "fast-wins", true));
    }
}
