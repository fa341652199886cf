//! What every log format is to the rest of ingest: a name, a way to
//! recognise its content, and a parser that hands each run to a sink as it
//! finishes it. One file per format implements [`LogFormat`]; `format`
//! tries them in order and refuses, in one place (`refuse`), what none
//! of them reads.

use crate::ingest::LineBytes;
use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;

use super::pyjson::Shape;
use crate::run::RawRun;
use crate::Result;

/// Receives each run as the parser finishes it. Returning an error stops
/// the parse.
pub type Emit<'a> = &'a mut dyn FnMut(RawRun) -> Result<()>;

/// What a parse noticed besides runs: blocks it recognised and skipped on
/// purpose, with a reason (shown to the user).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Outcome {
    pub skipped: Vec<String>,
    /// How something was read that a reader of the numbers should know
    /// (a time of day without an offset read as UTC): said as notes.
    pub notes: Vec<String>,
    /// Set when the log does not say which benchmark its runs are of (a
    /// criterion file copied out of `target/criterion/`): the file is
    /// refused unless a label names it (see [`Outcome::named`]), as its runs
    /// would pool with other benchmarks'.
    pub unnamed: Option<Unnamed>,
}

/// A log that does not name its benchmark: the labels any of which would,
/// and what to say when none is given.
#[derive(Debug, Clone, PartialEq)]
pub struct Unnamed {
    pub labels: &'static [&'static str],
    pub msg: String,
}

impl Outcome {
    /// The outcome, or the refusal of a log that does not name its
    /// benchmark when no label (from `--label` or a path capture) does.
    pub fn named(self, labels: &std::collections::BTreeMap<String, crate::run::Value>, path: &Path) -> Result<Outcome> {
        match &self.unnamed {
            Some(u) if !u.labels.iter().any(|l| labels.contains_key(*l)) => {
                Err(crate::Error::malformed(path, 1, u.msg.clone()))
            }
            _ => Ok(self),
        }
    }
}

impl Outcome {
    /// The outcome of a JSON format that met per-request detail arrays
    /// (`ttfts`, `itls`, …): named once, as skipped on purpose.
    pub fn arrays_skipped(arrays: &BTreeSet<String>) -> Outcome {
        let mut outcome = Outcome::default();
        if !arrays.is_empty() {
            let names: Vec<&str> = arrays.iter().map(String::as_str).collect();
            outcome.skipped.push(format!(
                "per-request arrays ({}) are not stored; reckon keeps the summary fields",
                names.join(", ")
            ));
        }
        outcome
    }
}

/// How a file's format was chosen: detected from its content, or named by
/// the researcher (`--format`). A generic reader refuses, when it was only
/// detected, a layout it would read in part; named, it reads what it can
/// and says what it left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chosen {
    Detected,
    Named,
}

/// What detection sees of a file, worked out once for every format.
#[derive(Debug, Clone, Copy)]
pub struct Sniff<'a> {
    /// The first bytes of the file (up to 256 KiB), as read.
    pub head: &'a [u8],
    /// The head as text: a character cut at its end is left out.
    pub text: &'a [u8],
    /// The shape of the content when it starts as JSON (after any section
    /// labels such as `torch:`) and holds runs.
    pub json: Option<&'a Shape>,
    /// A "Serving Benchmark Result" title appears after the head.
    pub result_block_later: bool,
}

/// A log format reckon reads.
pub trait LogFormat {
    /// The name `--format` takes and each source is stored with.
    const NAME: &'static str;

    /// Whether the content is this format. Asked only of content no refusal
    /// applies to, in the order `format` keeps.
    fn detect(sniff: &Sniff<'_>) -> bool;

    /// Parses a whole log, streaming: memory stays bounded by the largest
    /// record, not the file. Each run goes to `emit` as it is finished;
    /// errors say `path:line` and what to do. `limit` (the project's
    /// `[limits] line_bytes`) bounds a document read whole; each line is
    /// bounded by the reader already, so a parser that streams ignores it.
    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome>;
}

/// The one sink parser unit tests share: every run a parse emits, in
/// order, with the parse's outcome.
/// `name` is the path errors show.
#[cfg(test)]
pub(crate) fn collect<F: LogFormat>(name: &str, text: &str) -> Result<(Vec<RawRun>, Outcome)> {
    collect_with(name, text, |path, input, emit| F::parse(path, input, LineBytes::default(), emit))
}

/// [`collect`] through any parse function (one with options, say).
#[cfg(test)]
pub(crate) fn collect_with(
    name: &str,
    text: &str,
    parse: impl FnOnce(&Path, &mut dyn BufRead, Emit) -> Result<Outcome>,
) -> Result<(Vec<RawRun>, Outcome)> {
    let mut runs = Vec::new();
    let mut input = text.as_bytes();
    let outcome = parse(Path::new(name), &mut input, &mut |run| {
        runs.push(run);
        Ok(())
    })?;
    Ok((runs, outcome))
}
