//! The library's error type. Every variant says what went wrong and where
//! (path, line, column) so the CLI can print it as is and exit 2; where in
//! a file's text is a [`Span`].

use std::ops::Range;
use std::path::{Path, PathBuf};

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },

    /// A log that is not what its format says, at a line.
    #[error("{}:{line}: {msg}", path.display())]
    Malformed { path: PathBuf, line: u64, msg: String },

    /// A line of a log that is not UTF-8 text (`what` names the line:
    /// a row, a record).
    #[error(
        "{}:{line}: this {what} is not valid UTF-8 text; \
         save the log as UTF-8 (e.g. with `iconv -t UTF-8`) and ingest it again",
        path.display()
    )]
    NotUtf8 { path: PathBuf, line: u64, what: &'static str },

    /// A record of a log that names the same metric twice. The store, which
    /// finds it, leaves `path` empty; the ingest that knows the log fills it.
    #[error(
        "{}:{line}: metric `{metric}` appears twice in one record; \
         a run has one value per metric — rename or remove one of them in the log",
        path.display()
    )]
    DuplicateMetric { path: PathBuf, line: u64, metric: String },

    /// A log that gives a metric in a unit its stored values cannot be
    /// converted to or from (another dimension, or a unit on one side
    /// only). The store, which finds it, leaves `path` empty; the ingest
    /// that knows the log fills it.
    #[error(
        "{}:{line}: metric `{}` is given {} here, but the store holds it {} (as the first log \
         to give it did): {}; rename the metric in one of the logs (a name of its own per unit), or give both \
         logs the same unit",
        path.display(),
        clash.metric,
        unit_words(clash.given.as_deref()),
        unit_words(clash.stored.as_deref()),
        clash.why
    )]
    UnitMismatch { path: PathBuf, line: u64, clash: Box<UnitClash> },

    /// A file no format recognises.
    #[error("{}: {msg}", path.display())]
    UnknownFormat { path: PathBuf, msg: String },

    /// A problem in a document, at its span, with the offending text (the
    /// source line and a `^` under the span's column). The span is boxed
    /// to keep every `Result` small.
    #[error("{span}: {msg}\n  {snippet}")]
    Document { span: Box<Span>, msg: String, snippet: String },

    /// A problem in `reckon.toml`.
    #[error("{}: {msg}", path.display())]
    Config { path: PathBuf, msg: String },

    /// A problem at a line (and column) of `reckon.toml`.
    #[error("{}:{line}{}: {msg}", path.display(), col.map(|c| format!(":{c}")).unwrap_or_default())]
    ConfigAt { path: PathBuf, line: usize, col: Option<usize>, msg: String },

    #[error("database {}: {msg}", path.display())]
    Database { path: PathBuf, msg: String },

    /// A database `SQLite` finds damaged (a copy cut short, a full disk, a
    /// page overwritten): it is a cache of the logs, built again from them.
    #[error(
        "database {} is damaged ({detail}); it is only a cache of the logs: \
         run `reckon ingest --rebuild` to replace it and read them again (or delete the file)",
        path.display()
    )]
    DamagedDatabase { path: PathBuf, detail: String },

    /// An SQL statement that failed, with the database it ran on.
    #[error("database {}: {source}", path.display())]
    Sql { path: PathBuf, source: rusqlite::Error },

    /// A filter (`--where`, `where=`) that does not read: what is wrong,
    /// the 1-based column, and the filter with a caret under it.
    #[error("filter: {msg} at column {col}\n  {snippet}")]
    Filter { col: usize, msg: String, snippet: String },

    /// A claim statement that does not read or cannot be judged, for a
    /// caller with no document to point into: the claim (its id), the
    /// 1-based line and column within the statement, what is wrong.
    #[error("claim {what}: line {line} column {col}: {msg}")]
    Claim { what: String, line: usize, col: usize, msg: String },

    /// A chart the plotting library could not draw.
    #[error("plot: {0}")]
    Plot(String),

    /// Bad arguments, an unknown metric: the researcher used reckon wrong.
    /// Never a broken invariant ([`Error::Internal`]) nor control flow.
    #[error("{0}")]
    Usage(String),

    /// A broken invariant: a bug in reckon, never a fault in the
    /// researcher's logs, documents or arguments, and said so.
    #[error("internal error in reckon: {0}; please report it")]
    Internal(String),

    /// A log ingested before whose new bytes are refused (`refused` says
    /// why): the runs its earlier bytes gave were removed, as a database
    /// built afresh would hold none of it.
    #[error(
        "{refused}\n  the {runs} run(s) an earlier ingest took from this log are removed: the log no longer reads, and \
         the database keeps no runs of a log it cannot read; fix the log (or restore it) and ingest again"
    )]
    StaleRunsRemoved { refused: Box<Error>, runs: u64 },

    /// Not a failure: the sink a parser hands its runs to stopped the
    /// parse on purpose (ingest's writer no longer wants the file's runs:
    /// it failed, is stored already, or the writer is gone). The code that
    /// asked for the stop drops it; it is never shown.
    #[error("the parse was stopped by the ingest reading it")]
    ParseStopped,

    /// Several problems found in one pass (every claim of a document is
    /// judged before reporting), one per line.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\nerror: "))]
    Several(Vec<Error>),
}

/// What [`Error::UnitMismatch`] found: the metric, the unit the store
/// keeps it in and the one the log gave, and why one cannot be the other.
#[derive(Debug)]
pub struct UnitClash {
    pub metric: String,
    pub stored: Option<String>,
    pub given: Option<String>,
    pub why: String,
}

/// A unit as an error says it: "in ms", or "without a unit".
fn unit_words(unit: Option<&str>) -> String {
    unit.map_or_else(|| "without a unit".to_owned(), |u| format!("in {u}"))
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }

    pub fn malformed(path: impl Into<PathBuf>, line: u64, msg: impl Into<String>) -> Self {
        Error::Malformed { path: path.into(), line, msg: msg.into() }
    }

    pub fn usage(msg: impl Into<String>) -> Self {
        Error::Usage(msg.into())
    }

    /// A broken invariant (see [`Error::Internal`]): what should have held.
    pub fn internal(msg: impl Into<String>) -> Self {
        Error::Internal(msg.into())
    }

    /// The file (and line, column) this error is about, when it names one.
    pub fn place(&self) -> Option<Place> {
        let (path, line, col) = match self {
            Error::Malformed { path, line, .. }
            | Error::NotUtf8 { path, line, .. }
            | Error::DuplicateMetric { path, line, .. } => (path, Some(*line), None),
            Error::Document { span, .. } => return Some(span.place()),
            Error::ConfigAt { path, line, col, .. } => (path, u64::try_from(*line).ok(), *col),
            // Not `Io`: its path may be no file of the project (`<stdout>`, `git`, one that is missing).
            Error::UnknownFormat { path, .. } | Error::Config { path, .. } => (path, None, None),
            Error::StaleRunsRemoved { refused, .. } => return refused.place(),
            _ => return None,
        };
        Some(Place { path: path.clone(), line, col })
    }

    /// What is wrong, without the place [`Error::place`] names (the message
    /// a CI annotation shows at that place); every line of it.
    pub fn message(&self) -> String {
        let text = self.to_string();
        let Some(place) = self.place() else { return text };
        // The display of every placed variant starts `path[:line[:col]]: `.
        text.strip_prefix(&format!("{place}: ")).map_or_else(|| text.clone(), str::to_string)
    }

    /// The error with the file it names replaced by `f` of it (a path
    /// relative to the project shown from the current folder, …).
    #[must_use]
    pub fn map_path(self, f: &dyn Fn(PathBuf) -> PathBuf) -> Error {
        match self {
            Error::Io { path, source } => Error::Io { path: f(path), source },
            Error::Malformed { path, line, msg } => Error::Malformed { path: f(path), line, msg },
            Error::NotUtf8 { path, line, what } => Error::NotUtf8 { path: f(path), line, what },
            Error::DuplicateMetric { path, line, metric } => Error::DuplicateMetric { path: f(path), line, metric },
            Error::UnknownFormat { path, msg } => Error::UnknownFormat { path: f(path), msg },
            Error::Document { span, msg, snippet } => {
                Error::Document { span: Box::new(span.map_path(f)), msg, snippet }
            }
            Error::Config { path, msg } => Error::Config { path: f(path), msg },
            Error::ConfigAt { path, line, col, msg } => Error::ConfigAt { path: f(path), line, col, msg },
            Error::Several(all) => Error::Several(all.into_iter().map(|e| e.map_path(f)).collect()),
            Error::StaleRunsRemoved { refused, runs } => {
                Error::StaleRunsRemoved { refused: Box::new(refused.map_path(f)), runs }
            }
            e => e,
        }
    }

    /// The single errors this one holds: itself, or each of [`Error::Several`].
    pub fn each(&self) -> Vec<&Error> {
        match self {
            Error::Several(all) => all.iter().flat_map(Error::each).collect(),
            e => vec![e],
        }
    }

    /// Whether this is a damaged database (see [`Error::DamagedDatabase`]).
    pub fn is_damaged_database(&self) -> bool {
        match self {
            Error::DamagedDatabase { .. } => true,
            Error::Several(errors) => errors.iter().any(Error::is_damaged_database),
            _ => false,
        }
    }
}

/// Where an error is: a file, and the line and column when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub path: PathBuf,
    pub line: Option<u64>,
    pub col: Option<usize>,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(col) = self.col {
            write!(f, ":{col}")?;
        }
        Ok(())
    }
}

/// Where in a file's text something is: the file, the bytes it covers,
/// and the 1-based line and column (in characters, a byte-order mark not
/// counted) of its first byte. The line and column are computed in one
/// place, `syntax::Lines` (`Lines::span`, or `syntax::span` for one
/// offset); a span is built there, never by counting again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    path: PathBuf,
    bytes: Range<usize>,
    line: usize,
    col: usize,
}

impl Span {
    /// A span whose line and column `syntax::Lines` computed from the
    /// file's text (call it through `Lines::span`).
    pub(crate) fn located(path: &Path, bytes: Range<usize>, (line, col): (usize, usize)) -> Span {
        Span { path: path.to_path_buf(), bytes, line, col }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The bytes of the file's text the span covers.
    pub fn bytes(&self) -> Range<usize> {
        self.bytes.clone()
    }

    /// The 1-based line of the span's first byte.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The 1-based column (in characters) of the span's first byte.
    pub fn col(&self) -> usize {
        self.col
    }

    /// The span in another file name (a path relative to the project shown
    /// from the current folder, …), its place in the text unchanged.
    #[must_use]
    pub fn map_path(self, f: &dyn Fn(PathBuf) -> PathBuf) -> Span {
        Span { path: f(self.path), ..self }
    }

    /// Where the span starts, as a CI annotation gives it.
    pub fn place(&self) -> Place {
        Place { path: self.path.clone(), line: u64::try_from(self.line).ok(), col: Some(self.col) }
    }
}

/// `path:line:col`, as compilers and editors write a place.
impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.path.display(), self.line, self.col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_with_a_place_says_it_apart_from_its_message() {
        let e = Error::malformed("logs/a.jsonl", 3, "expected a JSON object");
        let place = e.place().unwrap();
        assert_eq!(
            (place.path.as_path(), place.line, place.col),
            (std::path::Path::new("logs/a.jsonl"), Some(3), None)
        );
        assert_eq!(e.message(), "expected a JSON object");
        let d = Error::Document {
            span: Box::new(Span::located(Path::new("plan.md"), 40..44, (4, 15))),
            msg: "unknown directive".into(),
            snippet: "x <!-- reckon:tabel -->".into(),
        };
        assert_eq!(d.place().unwrap().to_string(), "plan.md:4:15");
        assert_eq!(d.message(), "unknown directive\n  x <!-- reckon:tabel -->");
        let u = Error::usage("no documents");
        assert_eq!((u.place(), u.message()), (None, "no documents".to_string()));
        let several = Error::Several(vec![e, u]);
        assert_eq!(several.each().len(), 2);
        assert!(several.place().is_none());
    }

    #[test]
    fn an_internal_error_is_said_as_a_bug_in_reckon() {
        let e = Error::internal("a run was added outside a source");
        assert_eq!(e.to_string(), "internal error in reckon: a run was added outside a source; please report it");
        assert!(e.place().is_none(), "a bug in reckon is at no place of the researcher's files");
    }

    #[test]
    fn a_span_says_its_place_as_compilers_do() {
        let span = Span::located(Path::new("plan.md"), 10..14, (2, 5));
        assert_eq!(
            (span.to_string(), span.bytes(), span.line(), span.col()),
            ("plan.md:2:5".to_string(), 10..14, 2, 5)
        );
        assert_eq!(span.place().to_string(), "plan.md:2:5");
        let moved = span.map_path(&|p| Path::new("docs").join(p));
        assert_eq!(moved.to_string(), format!("{}:2:5", Path::new("docs").join("plan.md").display()));
    }
}
