//! Reading JSON records from a file within the longest-line limit: one per
//! line (JSONL) or one whole document, each with the line it starts on.

use std::io::BufRead;
use std::path::Path;

use serde_json::Value;

use super::{array_element_offsets, lines_of, parse};
use crate::ingest::LineBytes;
use crate::{Error, Result};

/// Reads a file line by line, reusing one buffer, so memory stays bounded by
/// the longest line. Lines are numbered from 1; the trailing `\n` / `\r\n`
/// is stripped.
pub struct LineReader<'a> {
    input: &'a mut dyn BufRead,
    path: &'a Path,
    buf: Vec<u8>,
    line: u64,
}

impl<'a> LineReader<'a> {
    pub fn new(path: &'a Path, input: &'a mut dyn BufRead) -> Self {
        LineReader { input, path, buf: Vec::new(), line: 0 }
    }

    /// The next line and its 1-based number, or `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<(u64, &[u8])>> {
        self.buf.clear();
        let n = self.input.read_until(b'\n', &mut self.buf).map_err(|e| Error::io(self.path, e))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        let mut end = self.buf.len();
        if end > 0 && self.buf[end - 1] == b'\n' {
            end -= 1;
        }
        if end > 0 && self.buf[end - 1] == b'\r' {
            end -= 1;
        }
        let start = if self.line == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        Ok(Some((self.line, &self.buf[start.min(end)..end])))
    }

    /// Reads everything that is left into `out` (used once a file turns out
    /// to be one JSON document rather than JSON lines).
    /// A document longer than `limit` is refused rather than held in
    /// memory.
    pub fn read_rest(&mut self, out: &mut Vec<u8>, limit: LineBytes) -> Result<()> {
        let limit = limit.get();
        let mut rest = Vec::new();
        std::io::Read::read_to_end(&mut std::io::Read::take(&mut *self.input, limit as u64 + 1), &mut rest)
            .map_err(|e| Error::io(self.path, e))?;
        if out.len() + rest.len() > limit {
            return Err(Error::malformed(
                self.path,
                self.line,
                format!(
                    "the JSON document starting here is longer than {} MiB; reckon refuses it rather than hold it in \
                     memory — write one JSON object per line, or raise `line_bytes` under [limits] in reckon.toml",
                    limit >> 20
                ),
            ));
        }
        out.extend_from_slice(&rest);
        Ok(())
    }

    /// The number of the last line returned.
    pub fn line(&self) -> u64 {
        self.line
    }
}

/// Reads the JSON records of a file, in either layout the tools write:
/// JSON lines (one value per line; blank lines are fine), or one JSON
/// document spread over many lines (pretty-printed). A top-level array, on a
/// line or as the document, gives one record per element. `on_record` gets
/// each record with the 1-based line where it starts. JSON lines stream; a
/// multi-line document is read whole (it is one record or a short list).
pub fn read_records(
    path: &Path,
    input: &mut dyn BufRead,
    limit: LineBytes,
    on_record: &mut dyn FnMut(u64, Value) -> Result<()>,
) -> Result<()> {
    let mut lines = LineReader::new(path, input);
    let mut jsonl = false;
    while let Some((n, line)) = lines.next_line()? {
        let text = trim(line);
        if text.is_empty() {
            continue;
        }
        match parse(text) {
            Ok(Value::Array(items)) => {
                jsonl = true;
                for item in items {
                    on_record(n, item)?;
                }
            }
            Ok(v) => {
                jsonl = true;
                on_record(n, v)?;
            }
            Err(e) if jsonl => return Err(e.into_error(path, n)),
            Err(e) => {
                let starts_object = text.starts_with(b"{");
                let e = e.into_error(path, n);
                // Not a whole value on its first line: one document — unless
                // the next line is a whole value, which makes this JSON
                // lines with a broken first record (reported here, not read
                // whole as a document and reported later).
                let mut doc = line.to_vec();
                doc.push(b'\n');
                if let Some((_, next)) = lines.next_line()? {
                    let next_text = trim(next);
                    if starts_object && next_text.starts_with(b"{") && parse(next_text).is_ok() {
                        return Err(e);
                    }
                    doc.extend_from_slice(next);
                    doc.push(b'\n');
                }
                lines.read_rest(&mut doc, limit)?;
                return read_document(path, n, &doc, on_record);
            }
        }
    }
    Ok(())
}

fn read_document(
    path: &Path,
    first_line: u64,
    doc: &[u8],
    on_record: &mut dyn FnMut(u64, Value) -> Result<()>,
) -> Result<()> {
    match parse(doc).map_err(|e| e.into_error(path, first_line))? {
        Value::Array(items) => {
            let lines = lines_of(doc, &array_element_offsets(doc, 0));
            for (i, item) in items.into_iter().enumerate() {
                let line = lines.get(i).map_or(first_line, |&l| first_line + l - 1);
                on_record(line, item)?;
            }
            Ok(())
        }
        v => on_record(first_line, v),
    }
}

/// Is the (already trimmed) line empty or whitespace only?
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// Trims ASCII whitespace at both ends.
pub fn trim(line: &[u8]) -> &[u8] {
    let start = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(line.len());
    let end = line.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |i| i + 1);
    &line[start..end.max(start)]
}
