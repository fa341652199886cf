//! The library's error type. Every variant says what went wrong and where
//! (path, line, column) so the CLI can print it as is and exit 2.

use std::path::PathBuf;

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

    /// A problem in a document, at a line and column, with the offending text.
    #[error("{}:{line}:{col}: {msg}\n  {snippet}", path.display())]
    Document { path: PathBuf, line: usize, col: usize, msg: String, snippet: String },

    /// A problem in `reckon.toml`.
    #[error("{}: {msg}", path.display())]
    Config { path: PathBuf, msg: String },

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

    /// Bad arguments, an unknown metric.
    #[error("{0}")]
    Usage(String),

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

    /// Whether this is a damaged database (see [`Error::DamagedDatabase`]).
    pub fn is_damaged_database(&self) -> bool {
        match self {
            Error::DamagedDatabase { .. } => true,
            Error::Several(errors) => errors.iter().any(Error::is_damaged_database),
            _ => false,
        }
    }
}
