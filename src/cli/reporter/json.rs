//! JSON for programs. Every `--format json` output is a report type that
//! derives `Serialize` — the types are the schema (docs/json.md) — and is
//! written by [`pretty`] or [`line`], here and nowhere else.

use serde::Serialize;

use crate::{Error, Result};

/// The order an output writes the keys of its objects in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keys {
    /// Alphabetical at every depth, nested library types included (check,
    /// claims, lint, runs, export, SARIF): the value is written through
    /// `serde_json::Value`, whose maps are sorted (`serde_json` without its
    /// `preserve_order` feature).
    Sorted,
    /// As the report type declares its fields (query, diff).
    Declared,
}

/// A value printed as one `--format json` output.
pub(crate) trait JsonReport: Serialize {
    /// The order its keys are written in.
    const KEYS: Keys;
}

/// A listing is written as its entries are.
impl<T: JsonReport> JsonReport for [T] {
    const KEYS: Keys = T::KEYS;
}

impl JsonReport for crate::sweep_diff::SweepDiff {
    const KEYS: Keys = Keys::Declared;
}

impl JsonReport for crate::report::ci::Sarif {
    const KEYS: Keys = Keys::Sorted;
}

/// A report as one pretty-printed JSON document (two-space indents) and a
/// newline.
pub(crate) fn pretty<R: JsonReport + ?Sized>(report: &R) -> Result<String> {
    let written = match R::KEYS {
        Keys::Sorted => serde_json::to_value(report).and_then(|v| serde_json::to_string_pretty(&v)),
        Keys::Declared => serde_json::to_string_pretty(report),
    };
    let mut s = written.map_err(|e| Error::io("<stdout>", e.into()))?;
    s.push('\n');
    Ok(s)
}

/// A report appended to `out` as one compact line of JSON lines (JSONL).
pub(crate) fn line<R: JsonReport + ?Sized>(report: &R, out: &mut String) -> Result<()> {
    let written = match R::KEYS {
        Keys::Sorted => serde_json::to_value(report).and_then(|v| serde_json::to_string(&v)),
        Keys::Declared => serde_json::to_string(report),
    };
    out.push_str(&written.map_err(|e| Error::io("<stdout>", e.into()))?);
    out.push('\n');
    Ok(())
}
