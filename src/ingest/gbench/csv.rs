//! Google Benchmark's CSV reporter: a header `name,iterations,real_time,
//! cpu_time,time_unit,bytes_per_second,items_per_second,label,
//! error_occurred,error_message` and the user counters after it, one row
//! per run and per aggregate (named `<run>_mean`, …).

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use super::super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::{emit_rows, Row, Shared, AGGREGATES};
use crate::{Error, Result};

/// The columns Google Benchmark's CSV reporter always writes first.
const HEADER: &str = "name,iterations,real_time,cpu_time,time_unit";

/// `--benchmark_format=csv` / `--benchmark_out_format=csv`.
pub struct GbenchCsv;

impl LogFormat for GbenchCsv {
    const NAME: &'static str = "gbench-csv";

    /// The header of Google Benchmark's CSV reporter, after any blank
    /// lines.
    fn detect(sniff: &Sniff<'_>) -> bool {
        first_line(sniff.text).starts_with(HEADER.as_bytes())
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::super::limit::read_document(path, input, limit)?;
        let doc = doc.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&doc);
        let mut reader = csv::ReaderBuilder::new().has_headers(true).flexible(false).from_reader(doc);
        let headers = reader.headers().map_err(|e| malformed(path, &e))?.clone();
        let col = |name: &str| headers.iter().position(|h| h == name);
        let (Some(name_at), Some(unit_at)) = (col("name"), col("time_unit")) else {
            return Err(Error::malformed(path, 1, format!("expected Google Benchmark's CSV header `{HEADER},…`")));
        };
        let mut rows: Vec<Row> = Vec::new();
        let mut seen: std::collections::HashMap<String, f64> = std::collections::HashMap::new();
        let mut lines = super::super::csv_line::LineCount::default();
        for record in reader.records() {
            let record = record.map_err(|e| malformed(path, &e))?;
            let line = record.position().map_or(0, |p| lines.at(doc, p.byte()));
            let name = record.get(name_at).unwrap_or_default().to_string();
            let mut row = Row { line, ..Row::default() };
            (row.run_name, row.aggregate) = split_aggregate(&name, &rows);
            if row.aggregate.is_none() {
                let n = seen.entry(row.run_name.clone()).or_insert(0.0);
                row.repetition = Some(*n);
                *n += 1.0;
            }
            row.time_unit = record.get(unit_at).filter(|u| !u.is_empty()).map(str::to_string);
            for (h, cell) in headers.iter().zip(record.iter()) {
                read_cell(&mut row, h, cell).map_err(|msg| Error::malformed(path, line, msg))?;
            }
            rows.push(row);
        }
        // One row per name is one run, not a repetition.
        for row in &mut rows {
            if seen.get(&row.run_name).is_some_and(|&n| n <= 1.0) {
                row.repetition = None;
            }
        }
        emit_rows(rows, Shared::default(), emit)
    }
}

/// A row's run name and aggregate: `<run>_<aggregate>` for the aggregates
/// Google Benchmark computes, when `<run>` is a run of the rows before it
/// (or, for `mean`, `median`, `stddev`, `cv`, `BigO`, `RMS`, whatever came
/// before: a file of aggregates only).
fn split_aggregate(name: &str, before: &[Row]) -> (String, Option<String>) {
    for agg in AGGREGATES {
        if let Some(run) = name.strip_suffix(&format!("_{agg}")) {
            let known = before.iter().any(|r| r.run_name == run);
            if known || !matches!(*agg, "min" | "max") {
                return (run.to_string(), Some((*agg).to_string()));
            }
        }
    }
    (name.to_string(), None)
}

/// Reads one cell into its row; a cell of a numeric column that is not a
/// number is an error (it would be dropped from the run without a word).
fn read_cell(row: &mut Row, header: &str, cell: &str) -> std::result::Result<(), String> {
    if cell.is_empty() {
        return Ok(());
    }
    let number = || {
        crate::syntax::read_logged(cell).ok_or_else(|| {
            format!(
                "column `{}` holds {:?}, not a number; Google Benchmark writes every value as one",
                crate::syntax::excerpt(header),
                crate::syntax::excerpt(cell)
            )
        })
    };
    match header {
        "iterations" => row.iterations = Some(number()?).filter(|_| row.aggregate.is_none()),
        "label" | "error_message" => row.texts.push((header.to_string(), cell.to_string())),
        "error_occurred" if cell == "true" => row.texts.push((header.to_string(), cell.to_string())),
        "name" | "time_unit" | "error_occurred" => {}
        _ => row.values.push((header.to_string(), number()?)),
    }
    Ok(())
}

/// The first line that is not blank.
fn first_line(text: &[u8]) -> &[u8] {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    text.split(|&b| b == b'\n').find(|l| !l.iter().all(u8::is_ascii_whitespace)).unwrap_or_default()
}

fn malformed(path: &Path, e: &csv::Error) -> Error {
    let line = e.position().map_or(1, csv::Position::line);
    Error::malformed(path, line, e.to_string())
}
