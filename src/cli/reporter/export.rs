//! `export --format jsonl`: one line per measurement, a tidy row.

use serde::Serialize;

use super::json::{JsonReport, Keys};
use super::runs::{params, Params};
use crate::query::{Export, Row};
use crate::Result;

/// One measurement of one run.
#[derive(Serialize)]
pub(crate) struct ExportRow<'a> {
    /// The metric's direction: `higher`, `lower` or `neutral`.
    direction: &'static str,
    /// The line of its log the run was read from.
    line: u64,
    metric: &'a str,
    /// Every param of the run.
    params: Params<'a>,
    /// The run's id.
    run: i64,
    source: &'a str,
    sweep: &'a str,
    time: &'a str,
    time_origin: &'a str,
    /// The metric's unit (null: none known).
    unit: Option<&'a str>,
    /// Null where the log wrote no number.
    value: Option<f64>,
}

impl JsonReport for ExportRow<'_> {
    const KEYS: Keys = Keys::Sorted;
}

impl<'a> ExportRow<'a> {
    pub(crate) fn of(row: &'a Row<'_>) -> ExportRow<'a> {
        let run = row.run;
        ExportRow {
            direction: row.metric.direction.as_str(),
            line: run.line,
            metric: &row.metric.name,
            params: params(run, &|_| true),
            run: run.id,
            source: &run.source,
            sweep: &run.sweep,
            time: &run.time,
            time_origin: &run.time_origin,
            unit: row.metric.unit.as_deref(),
            value: Some(row.value).filter(|v| v.is_finite()),
        }
    }
}

/// The rows as JSON lines, one object per row.
pub(crate) fn json_lines(export: &Export) -> Result<String> {
    let mut out = String::new();
    for row in &export.rows {
        super::json::line(&ExportRow::of(row), &mut out)?;
    }
    Ok(out)
}
