//! Google Benchmark's CSV reporter: a header `name,iterations,real_time,
//! cpu_time,time_unit,bytes_per_second,items_per_second,label,
//! error_occurred,error_message` and the user counters after it, one row
//! per run and per aggregate (named `<run>_mean`, …). Written to a file
//! (`--benchmark_out`), it comes after the context the console shows —
//! Google Benchmark points the file reporter's error stream at the same
//! file: the date, `Running <executable>`, `Run on (N X M MHz CPU s)`, the
//! caches, the load average and any `***WARNING***` lines. The date is the
//! run time, the executable and the CPU are params as in the JSON's
//! `context`, the rest is named as not stored.

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use super::super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::{emit_rows, Row, Shared, AGGREGATES};
use crate::run::Value;
use crate::{Error, Result};

/// The columns Google Benchmark's CSV reporter always writes first.
const HEADER: &str = "name,iterations,real_time,cpu_time,time_unit";

/// `--benchmark_format=csv` / `--benchmark_out_format=csv`.
pub struct GbenchCsv;

impl LogFormat for GbenchCsv {
    const NAME: &'static str = "gbench-csv";

    /// The header of Google Benchmark's CSV reporter, after any blank
    /// lines and the context it writes before it in a file.
    fn detect(sniff: &Sniff<'_>) -> bool {
        context(sniff.text).is_some()
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::super::limit::read_document(path, input, limit)?;
        let doc = doc.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&doc);
        super::super::csv_line::whole_last_row(path, doc)?;
        let mut shared = Shared::default();
        let blanked;
        let doc = match context(doc) {
            Some(found) if found.end > 0 => {
                // The context's lines as blank lines: the CSV reader skips
                // them, and every row keeps its line number in the file.
                blanked = [vec![b'\n'; found.lines], doc[found.end..].to_vec()].concat();
                (shared.time, shared.params, shared.skipped, shared.notes) =
                    (found.time, found.params, found.skipped, found.notes);
                &blanked[..]
            }
            _ => doc,
        };
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
        emit_rows(rows, shared, emit)
    }
}

/// The context Google Benchmark writes before the CSV header in a file:
/// where the header starts, how many lines came before it, and what they
/// say.
#[derive(Debug, Default)]
struct Context {
    /// The byte where the header's line starts.
    end: usize,
    lines: usize,
    time: Option<String>,
    params: Vec<(String, Value)>,
    skipped: std::collections::BTreeSet<String>,
    notes: std::collections::BTreeSet<String>,
}

/// The context before the header, when every line before it is one
/// Google Benchmark writes there (`None` when a line is not, or no header
/// follows): a file of another CSV with a few lines above its header is
/// not read as this one.
fn context(text: &[u8]) -> Option<Context> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let mut found = Context::default();
    let mut in_caches = false;
    let mut written = 0;
    for line in text.split_inclusive(|&b| b == b'\n') {
        let line_text = std::str::from_utf8(line).ok()?.trim_end_matches(['\r', '\n']);
        if line_text.starts_with(HEADER) {
            return Some(found);
        }
        found.end += line.len();
        found.lines += 1;
        if line_text.trim().is_empty() {
            continue;
        }
        let indented = line_text.starts_with([' ', '\t']);
        in_caches = in_caches && indented;
        if in_caches {
            continue;
        }
        written += 1;
        context_line(line_text, written == 1, &mut found)?;
        in_caches = line_text == "CPU Caches:";
    }
    None
}

/// One line of the context: `None` when Google Benchmark writes no such
/// line there. `first` says whether it may be the date (the first line
/// written).
fn context_line(line: &str, first: bool, found: &mut Context) -> Option<()> {
    if let Some(exe) = line.strip_prefix("Running ") {
        found.params.push(("executable".into(), Value::Text(exe.trim().to_string())));
    } else if let Some(cpu) = line.strip_prefix("Run on (") {
        // `Run on (16 X 3400 MHz CPU s)`, `Run on (1 X 2000 MHz CPU )`.
        let mut words = cpu.split_whitespace();
        let cpus = words.next()?.parse::<f64>().ok()?;
        let mhz = (words.next()? == "X").then(|| words.next()).flatten()?.parse::<f64>().ok()?;
        found.params.push(("num_cpus".into(), Value::Num(cpus)));
        found.params.push(("mhz_per_cpu".into(), Value::Num(mhz)));
    } else if line == "CPU Caches:" {
        found.skipped.insert("the CPU caches above the header describe the machine and are not stored".into());
    } else if line.starts_with("Load Average:") {
        found.skipped.insert("the load average above the header describes the machine and is not stored".into());
    } else if line.starts_with("***WARNING***") {
        found.skipped.insert("the `***WARNING***` lines above the header are not stored".into());
    } else if first && line.starts_with(|c: char| c.is_ascii_digit()) && line.contains(':') {
        // `2026-11-24T22:13:00+00:00`; an older release's local time
        // without its offset is kept as the text it is.
        match super::super::log_time::from_iso_zoned(line) {
            Some((t, zoned)) => {
                if !zoned {
                    found.notes.insert(super::json::no_offset("the date above the header", line));
                }
                found.time = Some(t);
            }
            None => found.params.push(("date".into(), Value::Text(line.to_string()))),
        }
    } else {
        return None;
    }
    Some(())
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

fn malformed(path: &Path, e: &csv::Error) -> Error {
    let line = e.position().map_or(1, csv::Position::line);
    Error::malformed(path, line, e.to_string())
}
