//! `reckon review`: the changes update would make, one at a time (accept,
//! reject, skip, accept all, quit); the accepted ones are written at the end.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use super::project::{load_for_command, prepare, review_all, shown};
use crate::config::Config;
use crate::review::interactive::{self, Decision};
use crate::review::Context;
use crate::{Error, Result};

#[derive(clap::Args, Debug)]
pub(crate) struct ReviewArgs {
    /// Markdown documents.
    #[arg(required = true)]
    pub(crate) docs: Vec<PathBuf>,
    /// Do not ingest the sources of reckon.toml first.
    #[arg(long)]
    pub(crate) no_ingest: bool,
}

pub(super) fn run(cfg: &Config, cwd: &Path, args: &ReviewArgs) -> Result<i32> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        let docs: Vec<String> = args.docs.iter().map(|d| d.display().to_string()).collect();
        return Err(Error::usage(format!(
            "reckon review asks about each change and needs a terminal; to apply every change without asking, \
             run `reckon update --write {}` (or `reckon update` to see the diff)",
            docs.join(" ")
        )));
    }
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = load_for_command(&store, cfg)?;
    let ctx = Context { dataset, store: &store, cfg, doc_dir: cwd };
    let (reviews, errors) = review_all(&ctx, cwd, &args.docs);
    if errors > 0 || ingest_failed {
        say!("error: nothing to review until the errors above are fixed");
        return Ok(super::ERROR);
    }
    let changes = interactive::changes(&reviews, &|p: &Path| shown(cwd, p))?;
    if changes.is_empty() {
        say!("reckon review: every document matches the data; nothing to review");
        return Ok(super::OK);
    }
    let color = super::stdout_color();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let outcome = interactive::ask(&changes, &mut input, &mut out, color)?;
    drop(out);
    let count = |d: Decision| outcome.decisions.iter().filter(|x| **x == d).count();
    let (accepted, rejected) = (count(Decision::Accept), count(Decision::Reject));
    let skipped = changes.len() - accepted - rejected;
    let written = if outcome.write { interactive::apply(&reviews, &changes, &outcome.decisions, cwd)? } else { 0 };
    say!(
        "\nreckon review: {written} change(s) written, {rejected} rejected, {skipped} skipped{}",
        if rejected + skipped > 0 { "; `reckon check` keeps reporting the ones not written" } else { "" }
    );
    Ok(super::OK)
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;

    #[test]
    fn documents_are_required() {
        assert!(parse(&["review"]).is_err());
        assert!(parse(&["review", "plan.md", "--no-ingest"]).is_ok());
    }
}
