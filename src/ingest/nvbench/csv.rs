//! nvbench's CSV: `Benchmark,Device,Device Name,<axes…>,Skipped,
//! <summaries…>`, a power-of-two axis as two columns (`X (pow2)` holding
//! `2^k`, then `X` holding the value), summaries' units in their headers
//! (`GPU Time (sec)`), and the same header twice where nvbench has two
//! summaries of one name (`Samples`, `Noise`).

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use super::super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::Namer;
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// The columns nvbench's CSV always starts with.
const HEADER: &str = "Benchmark,Device,Device Name,";

/// `nvbench --csv FILE`.
pub struct NvbenchCsv;

impl LogFormat for NvbenchCsv {
    const NAME: &'static str = "nvbench-csv";

    /// nvbench's CSV header, after any blank lines.
    fn detect(sniff: &Sniff<'_>) -> bool {
        let text = sniff.text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(sniff.text);
        let first = text.split(|&b| b == b'\n').find(|l| !l.iter().all(u8::is_ascii_whitespace));
        first.is_some_and(|l| l.starts_with(HEADER.as_bytes()) && l.windows(9).any(|w| w == b",Skipped,"))
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::super::limit::read_document(path, input, limit)?;
        let doc = doc.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&doc);
        super::super::csv_line::whole_last_row(path, doc)?;
        let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(doc);
        let headers = reader.headers().map_err(|e| malformed(path, &e))?.clone();
        let Some(skipped_at) = headers.iter().position(|h| h == "Skipped") else {
            return Err(Error::malformed(path, 1, "expected nvbench's CSV header, with a `Skipped` column"));
        };
        let columns = Columns::of(&headers, skipped_at);
        let mut skipped = 0;
        let mut lines = super::super::csv_line::LineCount::default();
        for record in reader.records() {
            let record = record.map_err(|e| malformed(path, &e))?;
            let line = record.position().map_or(0, |p| lines.at(doc, p.byte()));
            if record.get(skipped_at) == Some("Yes") {
                skipped += 1;
                continue;
            }
            let mut run = RawRun::new(line);
            for (i, cell) in record.iter().enumerate() {
                columns.read(path, line, &mut run, i, cell)?;
            }
            emit(run)?;
        }
        let mut outcome = Outcome::default();
        if skipped > 0 {
            outcome.skipped.push(format!("{skipped} states nvbench skipped hold no measurement"));
        }
        Ok(outcome)
    }
}

/// What each column is.
enum Column {
    Param(String),
    Metric(String, Option<&'static str>),
    /// `X (pow2)` (the plain value follows it), `Skipped`.
    Ignored,
}

struct Columns(Vec<Column>);

impl Columns {
    fn of(headers: &csv::StringRecord, skipped_at: usize) -> Columns {
        let mut namer = Namer::default();
        let columns = headers
            .iter()
            .enumerate()
            .map(|(i, h)| match (i, h) {
                (0, _) => Column::Param("benchmark".into()),
                (1, _) => Column::Param("device".into()),
                (2, _) => Column::Param("device_name".into()),
                (i, h) if i < skipped_at && h.ends_with(" (pow2)") => Column::Ignored,
                (i, h) if i < skipped_at => Column::Param(h.to_string()),
                (i, _) if i == skipped_at => Column::Ignored,
                (_, h) => {
                    let (name, hint) = split_unit(h);
                    let (metric, unit) = namer.name(name, hint);
                    Column::Metric(metric, unit)
                }
            })
            .collect();
        Columns(columns)
    }

    fn read(&self, path: &Path, line: u64, run: &mut RawRun, i: usize, cell: &str) -> Result<()> {
        if cell.is_empty() {
            return Ok(());
        }
        match self.0.get(i) {
            Some(Column::Param(name)) => run.param(name.clone(), Value::from_label(cell)),
            Some(Column::Metric(name, unit)) => {
                let Some(x) = crate::syntax::read_padded(cell) else {
                    return Err(Error::malformed(path, line, format!("`{name}` holds `{cell}`, expected a number")));
                };
                match unit {
                    Some(u) => run.metric_with_unit(name.clone(), x, u),
                    None => run.metric(name.clone(), x),
                }
            }
            Some(Column::Ignored) | None => {}
        }
        Ok(())
    }
}

/// A summary's header split into its name and the hint its unit stands
/// for: `GPU Time (sec)` → (`GPU Time`, `duration`).
fn split_unit(header: &str) -> (&str, Option<&'static str>) {
    for (suffix, hint) in [
        (" (sec)", "duration"),
        (" (elem/sec)", "item_rate"),
        (" (bytes/sec)", "byte_rate"),
        (" (bytes)", "bytes"),
        (" (%)", "percentage"),
    ] {
        if let Some(name) = header.strip_suffix(suffix) {
            return (name, Some(hint));
        }
    }
    (header, None)
}

fn malformed(path: &Path, e: &csv::Error) -> Error {
    let line = e.position().map_or(1, csv::Position::line);
    Error::malformed(path, line, e.to_string())
}
