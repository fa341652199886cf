//! Renders a [`Pivot`]: an aligned terminal table, a markdown table (also
//! used for document regions), CSV and JSON. Every renderer is
//! deterministic: same pivot, same bytes. (`query --format json` is the
//! CLI's: `cli/reporter/query.rs`.)
//!
//! Layout: one label column per row param, then one column per column key.
//! A column key of one param is headed by its value (`baseline`); of several
//! by `param=value` pairs (`config=baseline, tp=8`); with no col params the
//! single value column is headed by the metric name. A cell with no runs is
//! `-` in tables, empty in CSV and absent in JSON.

use super::{Agg, Cell, Key, Pivot, OLDER_SWEEP_MARK};
use crate::metric::format_number;
use crate::{Error, Result};

/// How numbers are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NumberFormat {
    /// Fixed digits after the point; `None` writes up to 6 significant
    /// digits without trailing zeros ([`format_number`]).
    pub precision: Option<usize>,
}

/// The most digits after the point a number is written with (`digits=`).
/// An f64 holds about 17 significant digits; more is noise, and a huge
/// count made the formatter panic.
pub const MAX_DIGITS: usize = 20;

impl NumberFormat {
    /// Writes a number.
    pub fn format(&self, v: f64) -> String {
        match self.precision {
            Some(p) if v.is_finite() => {
                let p = p.min(MAX_DIGITS);
                let s = format!("{v:.p$}");
                // "-0.0" would read as a sign that is not there.
                if s.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
                    s.trim_start_matches('-').to_string()
                } else {
                    s
                }
            }
            _ => format_number(v),
        }
    }
}

impl NumberFormat {
    /// Whether `v`, nonzero, is written as zero (`0.000` for 3.2e-6 with
    /// three digits): a number that reads as none at all.
    pub fn hides(&self, v: f64) -> bool {
        v != 0.0 && v.is_finite() && self.format(v).chars().all(|c| matches!(c, '0' | '.' | '-'))
    }
}

/// The fewest digits after the point that write `v` with two significant
/// digits (3.2e-6: 7), at most [`MAX_DIGITS`].
pub fn digits_to_show(v: f64) -> usize {
    let magnitude = v.abs().log10().floor();
    if magnitude.is_finite() && magnitude < 0.0 {
        // A float of magnitude below 400 fits; `as` saturates anyway.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let places = (-magnitude) as usize + 1;
        places.min(MAX_DIGITS)
    } else {
        1
    }
}

/// Whether a table column is right-aligned.
#[derive(Clone, Copy, PartialEq)]
enum Align {
    Left,
    Right,
}

impl Pivot {
    /// The heading of each value column.
    pub fn col_headers(&self) -> Vec<String> {
        self.cols
            .iter()
            .map(|key| match key.len() {
                0 => self.metric.name.clone(),
                1 => key[0].to_string(),
                _ => self.col_params.iter().zip(key).map(|(p, k)| format!("{p}={k}")).collect::<Vec<_>>().join(", "),
            })
            .collect()
    }

    fn cell_text(&self, cell: Option<&Cell>, fmt: &NumberFormat) -> Option<String> {
        cell.map(|c| if self.agg == Agg::Count { format_number(c.value) } else { fmt.format(c.value) })
    }

    /// The table as a grid of strings with each column's alignment; `empty`
    /// stands for a cell with no runs. `marked`: a value from an older
    /// sweep than the table's newest followed by [`OLDER_SWEEP_MARK`] (for
    /// people; CSV keeps its numbers bare).
    fn grid(&self, fmt: &NumberFormat, empty: &str, marked: bool) -> (Vec<String>, Vec<Align>, Vec<Vec<String>>) {
        let older = if marked { self.older_sweeps() } else { super::OlderSweeps::new(None) };
        let text = |c: &Option<Cell>| match c {
            Some(cell) if older.is_older(cell.latest_sweep()) => {
                self.cell_text(Some(cell), fmt).map(|t| format!("{t}{OLDER_SWEEP_MARK}"))
            }
            c => self.cell_text(c.as_ref(), fmt),
        };
        let mut header: Vec<String> = self.row_params.clone();
        header.extend(self.col_headers());
        let mut align: Vec<Align> = (0..self.row_params.len())
            .map(|i| if self.rows.iter().all(|r| r[i].is_num()) { Align::Right } else { Align::Left })
            .collect();
        align.extend(self.cols.iter().map(|_| Align::Right));
        let body = self
            .rows
            .iter()
            .zip(&self.cells)
            .map(|(key, line)| {
                key.iter()
                    .map(Key::to_string)
                    .chain(line.iter().map(|c| text(c).unwrap_or_else(|| empty.to_string())))
                    .collect()
            })
            .collect();
        (header, align, body)
    }

    /// A GitHub markdown table: `| concurrency | baseline |`, then
    /// `|---:|---:|`, numbers right-aligned.
    /// A value from an older sweep than the table's newest is marked
    /// [`OLDER_SWEEP_MARK`], and a note under the table names its sweep.
    pub fn to_markdown(&self, fmt: &NumberFormat) -> String {
        let (header, align, body) = self.grid(fmt, "-", true);
        let right: Vec<bool> = align.iter().map(|a| *a == Align::Right).collect();
        let mut out = markdown_table(&header, &right, &body);
        if let Some(note) = self.older_sweeps().note() {
            out.push_str("\n_");
            out.push_str(&crate::escape::markdown(&note));
            out.push_str("._\n");
        }
        out
    }

    /// A plain table for a terminal, columns padded to their widest entry;
    /// a value from an older sweep than the table's newest marked
    /// [`OLDER_SWEEP_MARK`] (the note is among [`Pivot::notes`]).
    pub fn to_text(&self, fmt: &NumberFormat) -> String {
        let (header, align, body) = self.grid(fmt, "-", true);
        let right: Vec<bool> = align.iter().map(|a| *a == Align::Right).collect();
        text_table(&header, &right, &body)
    }

    /// CSV with a header row; a cell with no runs is empty. Numbers only:
    /// no mark (the sweep of each cell is in the JSON).
    pub fn to_csv(&self, fmt: &NumberFormat) -> Result<String> {
        let (header, _, body) = self.grid(fmt, "", false);
        csv_table(&header, &body)
    }
}

/// A plain table for a terminal from a header, each column's alignment
/// (true = right) and the body: columns two spaces apart, each padded to its
/// widest entry (as displayed), no trailing spaces; every control
/// character in a cell written visibly ([`crate::escape::terminal`]).
pub fn text_table(header: &[String], right: &[bool], body: &[Vec<String>]) -> String {
    // Values from logs: each shown with its control characters visible.
    let shown = |row: &[String]| row.iter().map(|c| crate::escape::terminal(c)).collect::<Vec<_>>();
    let (header, body) = (shown(header), body.iter().map(|r| shown(r)).collect::<Vec<_>>());
    let (header, body) = (header.as_slice(), body.as_slice());
    let width = |s: &str| console::measure_text_width(s);
    let widths: Vec<usize> = (0..header.len())
        .map(|i| std::iter::once(header).chain(body.iter().map(Vec::as_slice)).map(|r| width(&r[i])).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in std::iter::once(header).chain(body.iter().map(Vec::as_slice)) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let pad = " ".repeat(widths[i] - width(cell));
            if right[i] {
                line.push_str(&pad);
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&pad);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// CSV from a header row and the body, quoted where a cell needs it.
pub fn csv_table<S: AsRef<[u8]>>(header: &[S], body: &[Vec<String>]) -> Result<String> {
    // Writing CSV into memory cannot fail: a failure is a bug in reckon.
    let csv_err = |e: csv::Error| Error::internal(format!("cannot write CSV: {e}"));
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).map_err(csv_err)?;
    for row in body {
        w.write_record(row).map_err(csv_err)?;
    }
    let bytes = w.into_inner().map_err(|e| Error::internal(format!("cannot write CSV: {e}")))?;
    String::from_utf8(bytes).map_err(|e| Error::internal(format!("cannot write CSV: {e}")))
}

/// A GitHub markdown table of plain text from a header, each column's
/// alignment (true = right) and the body: every cell (a param value, a
/// series name, a SQL result: data from logs) escaped with
/// [`crate::escape::markdown`], so it stays inside its cell and renders as
/// its text — no log opens or closes a reckon region, HTML, a link or an
/// image.
pub fn markdown_table(header: &[String], right: &[bool], body: &[Vec<String>]) -> String {
    let escaped = |row: &[String]| row.iter().map(|c| crate::escape::markdown(c)).collect::<Vec<_>>();
    let body: Vec<Vec<String>> = body.iter().map(|r| escaped(r)).collect();
    markdown_rows(&escaped(header), right, &body)
}

/// A GitHub markdown table of cells that already are markdown: text
/// escaped with [`crate::escape::markdown`], perhaps inside reckon's own
/// emphasis (`**773.0**`).
pub fn markdown_rows(header: &[String], right: &[bool], body: &[Vec<String>]) -> String {
    let mut out = String::new();
    let line = |out: &mut String, cells: &[String]| {
        out.push('|');
        for c in cells {
            out.push(' ');
            out.push_str(c);
            out.push_str(" |");
        }
        out.push('\n');
    };
    line(&mut out, header);
    out.push('|');
    for r in right {
        out.push_str(if *r { "---:|" } else { "---|" });
    }
    out.push('\n');
    for row in body {
        line(&mut out, row);
    }
    out
}
