//! `reckon review`: the changes update would make, one at a time (accept,
//! reject, skip, accept all, quit); the accepted ones are written at the end.
//!
//! On a terminal each answer is one key (Enter after it is still taken),
//! read by `console` in raw mode for that key alone: the terminal is put
//! back before the key is handled, so no exit path — an answer, an error, a
//! panic, Ctrl-C (which `console` turns back into SIGINT once the terminal
//! is restored, and which writes nothing) — leaves it raw. When stdin or
//! stdout is not a terminal (answers piped in) the answers are lines; with
//! neither, the command refuses and points to `update --write`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use super::project::{load_for_command, prepare, review_all, shown};
use crate::config::Config;
use crate::review::interactive::{self, Answers, Decision, Lines};
use crate::review::Context;
use crate::{Error, Result};

#[derive(clap::Args, Debug)]
pub(crate) struct ReviewArgs {
    /// Markdown documents.
    #[arg(required = true)]
    pub(crate) docs: Vec<PathBuf>,
    /// Do not ingest the sources of reckon.toml first: the database is read
    /// as it is, without looking at any log.
    #[arg(long)]
    pub(crate) no_ingest: bool,
}

pub(super) fn run(cfg: &Config, cwd: &Path, args: &ReviewArgs) -> Result<i32> {
    let (stdin, stdout) = (std::io::stdin().is_terminal(), std::io::stdout().is_terminal());
    if !stdin && !stdout {
        let docs: Vec<String> = args.docs.iter().map(|d| d.display().to_string()).collect();
        return Err(Error::usage(format!(
            "reckon review asks about each change and needs a terminal; to apply every change without asking, \
             run `reckon update --write {}` (or `reckon update` to see the diff)",
            docs.join(" ")
        )));
    }
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = &load_for_command(&store, cfg)?;
    let ctx = Context { dataset, store: &store, cfg, doc_dir: cwd, cache: None };
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
    let mut out = std::io::stdout().lock();
    let outcome = if stdin && stdout {
        interactive::ask(&changes, &mut Keys::default(), &mut out, color)?
    } else {
        interactive::ask(&changes, &mut Lines(std::io::stdin().lock()), &mut out, color)?
    };
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

/// Answers as single keys of the terminal. An Enter right after a key
/// ends that key's line (`a⏎` is one answer, as before keys were read);
/// Enter alone is an empty answer (the `[y/N]` default). Keys that are no
/// character (arrows, Escape) are passed over.
#[derive(Default)]
struct Keys {
    after_key: bool,
}

impl Answers for Keys {
    fn next(&mut self) -> Result<Option<String>> {
        let term = console::Term::stdout();
        loop {
            match term.read_key() {
                Ok(console::Key::Char(c)) => {
                    self.after_key = true;
                    return Ok(Some(c.to_string()));
                }
                Ok(console::Key::Enter) if std::mem::take(&mut self.after_key) => {}
                Ok(console::Key::Enter) => return Ok(Some(String::new())),
                // What `console` says when it has no terminal to read.
                Ok(console::Key::Unknown) => return Ok(None),
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
                Err(e) => return Err(Error::io("<terminal>", e)),
            }
        }
    }

    fn echoed_by_us(&self) -> bool {
        true
    }
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
