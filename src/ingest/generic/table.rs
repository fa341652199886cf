//! CSV with a header row: detection, and reading it in two passes (typing
//! every column from all its cells, then the runs).

use std::io::{BufRead, Read};
use std::path::Path;

use super::super::log_format::{Emit, Outcome};
use super::super::log_time;
use super::{missing_marker, written_whole, GenericOptions, Rewind, Role, Seen};
use crate::run::{RawRun, Value};
use crate::syntax::read_padded;
use crate::{Error, Result};

/// The delimiter of a CSV head, when the first lines look like a table with
/// a header row: the same number (≥ 1) of one of `,` tab `;` `|` outside
/// quotes on each of at least two lines, and a header with no numeric cell.
pub fn sniff_csv(head: &[u8]) -> Option<u8> {
    let text = std::str::from_utf8(head).ok().or_else(|| {
        // A head cut in the middle of a character: use the valid prefix.
        std::str::from_utf8(&head[..head.len().saturating_sub(3)]).ok()
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Only complete lines count: the last one may be cut.
    let complete = match text.rfind('\n') {
        Some(i) => &text[..i],
        None => text,
    };
    let lines: Vec<&str> = complete.lines().filter(|l| !l.trim().is_empty()).take(50).collect();
    if lines.len() < 2 {
        return None;
    }
    let mut best: Option<(u8, usize)> = None;
    for d in [b',', b'\t', b';', b'|'] {
        let counts: Vec<usize> = lines.iter().map(|l| count_outside_quotes(l.as_bytes(), d)).collect();
        let n = counts[0];
        // Most rows agreeing with the header is enough to call it CSV: the
        // parser then names the row that does not, at its line. So is every
        // row but the last (the header and one row at least): a writer
        // killed mid-row leaves a one-run file of header, row, cut row.
        let agreeing = counts.iter().filter(|&&c| c == n).count();
        let all_but_last = counts.len() >= 3 && counts[..counts.len() - 1].iter().all(|&c| c == n);
        if n >= 1 && (agreeing * 5 >= lines.len() * 4 || all_but_last) && best.is_none_or(|(_, b)| n > b) {
            best = Some((d, n));
        }
    }
    let (d, _) = best?;
    let header_ok =
        lines[0].split(d as char).map(|c| c.trim().trim_matches('"')).all(|c| c.is_empty() || read_padded(c).is_none())
            && lines[0].split(d as char).any(|c| !c.trim().trim_matches('"').is_empty());
    header_ok.then_some(d)
}

fn count_outside_quotes(line: &[u8], d: u8) -> usize {
    let mut quoted = false;
    let mut n = 0;
    for &b in line {
        if b == b'"' {
            quoted = !quoted;
        } else if b == d && !quoted {
            n += 1;
        }
    }
    n
}

/// Parses a CSV with a header row, from any input: it is read into memory
/// first (a file is better given to [`parse_csv_rewind`], which streams).
pub fn parse_csv(path: &Path, input: &mut dyn BufRead, opts: &GenericOptions, emit: Emit) -> Result<Outcome> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
    parse_csv_rewind(path, &mut std::io::Cursor::new(bytes), opts, emit)
}

/// A CSV reader over a rewindable input, its header line read back in.
type CsvReader<'a> = csv::Reader<LineEnds<std::io::Chain<std::io::Cursor<Vec<u8>>, &'a mut dyn Rewind>>>;

/// A reader noting whether the bytes it gave end their last line: a CSV
/// file's rows are ended by newlines, and a last row with none after it
/// may have been cut short as it was written (`…,11.3` of `…,11.33`) —
/// its cells alone cannot tell.
struct LineEnds<R> {
    inner: R,
    /// Something other than white space follows the last newline read.
    open: bool,
}

impl<R: Read> Read for LineEnds<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let got = &buf[..n];
        let (after, ended) = match memchr::memrchr(b'\n', got) {
            Some(i) => (&got[i + 1..], true),
            None => (got, false),
        };
        let text = after.iter().any(|b| !b.is_ascii_whitespace());
        self.open = text || (self.open && !ended);
        Ok(n)
    }
}

/// A CSV reader over `input` past its header row, and the header. The
/// delimiter is the one of `,` tab `;` `|` the header uses most.
fn csv_open<'a>(path: &Path, input: &'a mut dyn Rewind) -> Result<(CsvReader<'a>, csv::StringRecord)> {
    let mut first = Vec::new();
    input.read_until(b'\n', &mut first).map_err(|e| Error::io(path, e))?;
    if first.starts_with(b"\xEF\xBB\xBF") {
        first.drain(..3);
    }
    let delimiter = [b',', b'\t', b';', b'|']
        .into_iter()
        .max_by_key(|&d| (count_outside_quotes(&first, d), d == b','))
        .filter(|&d| count_outside_quotes(&first, d) > 0)
        .unwrap_or(b',');
    let reader = LineEnds { inner: std::io::Cursor::new(first).chain(input), open: false };
    let mut csv =
        csv::ReaderBuilder::new().delimiter(delimiter).has_headers(true).trim(csv::Trim::All).from_reader(reader);
    let headers = csv.headers().map_err(|e| csv_error(path, &e))?.clone();
    Ok((csv, headers))
}

/// Reads each non-blank row with its line number.
fn csv_rows<R: Read>(
    path: &Path,
    csv: &mut csv::Reader<R>,
    each: &mut dyn FnMut(u64, &csv::StringRecord) -> Result<()>,
) -> Result<()> {
    let mut record = csv::StringRecord::new();
    loop {
        match csv.read_record(&mut record) {
            Ok(true) => {
                if record.iter().all(str::is_empty) {
                    continue;
                }
                each(record.position().map_or(0, csv::Position::line), &record)?;
            }
            Ok(false) => return Ok(()),
            Err(e) => return Err(csv_error(path, &e)),
        }
    }
}

/// Parses a CSV with a header row in two passes over `input`: the first
/// types each column by the module's rule from all its non-empty cells, the
/// second emits one run per row.
pub fn parse_csv_rewind(path: &Path, input: &mut dyn Rewind, opts: &GenericOptions, emit: Emit) -> Result<Outcome> {
    let (mut csv, headers) = csv_open(path, input)?;
    if headers.is_empty() {
        return Err(Error::UnknownFormat {
            path: path.to_path_buf(),
            msg: "the CSV file is empty: it needs a header row and one row per run".into(),
        });
    }
    unique_names(path, &headers)?;

    // Pass 1: what each column's non-empty cells look like, and whether a
    // time-like column holds times in all of them (the run's time, then).
    let mut seen: Vec<Option<Seen>> = vec![None; headers.len()];
    let mut times: Vec<bool> = headers.iter().map(log_time::is_time_name).collect();
    let mut last_line = 1;
    csv_rows(path, &mut csv, &mut |line, row| {
        last_line = line;
        for (i, c) in row.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
            if times.get(i) == Some(&true) && log_time::from_named_text(&headers[i], c).is_none() {
                times[i] = false;
            }
            let Some(slot) = seen.get_mut(i) else { continue };
            let s = slot.get_or_insert_with(Seen::default);
            match read_padded(c) {
                None => s.text(c),
                Some(v) => s.number(v, written_whole(c)),
            }
        }
        Ok(())
    })?;
    if csv.get_ref().open {
        return Err(crate::ingest::csv_line::cut_last_row(path, last_line));
    }
    drop(csv);
    let time_column = times.iter().position(|&t| t);
    // Each column's role by the module's rule, from all its non-empty cells.
    let roles: Vec<Option<Role>> = headers
        .iter()
        .zip(&seen)
        .zip(&times)
        .map(|((name, seen), &time)| {
            if name.is_empty() || time {
                // An unnamed column is the index pandas writes: not data;
                // a column of times is when each run happened.
                return None;
            }
            match seen {
                Some(s) => s.role(name, opts),
                None => opts.forced(name),
            }
        })
        .collect();

    // Pass 2: the runs.
    input.rewind().map_err(|e| Error::io(path, e))?;
    let (mut csv, _) = csv_open(path, input)?;
    csv_rows(path, &mut csv, &mut |line, row| {
        let mut run = RawRun::new(line);
        run.time = time_column.and_then(|i| Some(log_time::from_named_text(&headers[i], row.get(i)?)).flatten());
        for (i, cell) in row.iter().enumerate() {
            let (Some(Some(role)), Some(name)) = (roles.get(i), headers.get(i)) else {
                continue;
            };
            if cell.is_empty() {
                continue;
            }
            match role {
                Role::Param => run.param(name, Value::from_label(cell)),
                Role::Metric => match read_padded(cell) {
                    Some(v) => run.metric(name, v),
                    None if missing_marker(cell) => {}
                    None => {
                        return Err(Error::malformed(
                            path,
                            line,
                            format!(
                                "column `{name}` is set to be a metric in reckon.toml, \
                                 but this row has `{cell}`, which is not a number"
                            ),
                        ))
                    }
                },
            }
        }
        emit(run)
    })?;
    Ok(Outcome::default())
}

/// Refuses a header that names a column twice.
fn unique_names(path: &Path, headers: &csv::StringRecord) -> Result<()> {
    for (i, h) in headers.iter().enumerate() {
        if !h.is_empty() && headers.iter().take(i).any(|o| o == h) {
            return Err(Error::malformed(
                path,
                1,
                format!("the header names column `{h}` twice; give every column its own name"),
            ));
        }
    }
    Ok(())
}

fn csv_error(path: &Path, e: &csv::Error) -> Error {
    let line = e.position().map_or(0, csv::Position::line);
    match e.kind() {
        csv::ErrorKind::Io(_) => Error::io(path, std::io::Error::other(e.to_string())),
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => Error::malformed(
            path,
            line,
            format!("this row has {len} fields but the header has {expected_len}; every row needs one cell per column"),
        ),
        csv::ErrorKind::Utf8 { .. } => Error::NotUtf8 { path: path.to_path_buf(), line, what: "row" },
        _ => Error::malformed(path, line, e.to_string()),
    }
}
