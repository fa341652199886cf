//! Python's JSON dialect: `json.dumps` writes non-finite floats as the bare
//! tokens `Infinity`, `-Infinity` and `NaN`, which strict JSON parsers
//! reject. This module tokenises (tracking string and escape state, so the
//! word `NaN` inside a generated text is left alone), rewrites those tokens
//! into sentinel strings, and parses the result with `serde_json`. It also has
//! the line reader the JSONL formats share and a few helpers that look at
//! the shape of a JSON text without parsing it fully (for detection).

use std::borrow::Cow;
use std::io::BufRead;
use std::path::Path;

use serde_json::Value;

use crate::{Error, Result};

/// The sentinel strings that stand for Python's bare tokens after rewriting.
/// They start with a NUL character, which no real log writes into a value.
const SENTINEL_INF: &str = "\u{0}pyjson:Infinity";
const SENTINEL_NEG_INF: &str = "\u{0}pyjson:-Infinity";
const SENTINEL_NAN: &str = "\u{0}pyjson:NaN";

/// A parse failure: what is wrong and, when known, the 1-based line and
/// column inside the parsed text.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub msg: String,
    pub line: Option<u64>,
    pub col: Option<u64>,
}

impl ParseError {
    /// Turns the failure into a [`Error::Malformed`] for `path`, where the
    /// parsed text started at `first_line` of the file.
    pub fn into_error(self, path: &Path, first_line: u64) -> Error {
        let line = first_line + self.line.map_or(0, |l| l.saturating_sub(1));
        let msg = match self.col {
            Some(c) => format!("column {c}: {}", self.msg),
            None => self.msg,
        };
        Error::malformed(path, line, msg)
    }
}

/// Rewrites the bare tokens into sentinel strings. Borrows the input when it
/// holds none, which is the common case.
pub fn rewrite(text: &[u8]) -> Cow<'_, [u8]> {
    // JSON text with neither `I` nor `N` cannot hold a token.
    if !text.iter().any(|&b| b == b'I' || b == b'N') {
        return Cow::Borrowed(text);
    }
    // One pass: the copy is only made at the first token, and whole runs of
    // ordinary bytes are copied at once. Outside strings only `"`, `I`, `N`
    // (and the `-` of `-Infinity`, just before an `I`) matter; inside
    // strings only `"` and `\\`.
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut i = 0;
    while let Some(at) = text[i..].iter().position(|&b| b == b'"' || b == b'I' || b == b'N') {
        let j = i + at;
        if text[j] == b'"' {
            // Skip to the end of the string, honouring escapes.
            let mut k = j + 1;
            while k < text.len() {
                match text[k..].iter().position(|&b| b == b'"' || b == b'\\') {
                    None => k = text.len(),
                    Some(p) if text[k + p] == b'\\' => k += p + 2,
                    Some(p) => {
                        k += p + 1;
                        break;
                    }
                }
            }
            i = k.min(text.len());
            continue;
        }
        let rest = &text[j..];
        let (sentinel, start, len) = if rest.starts_with(b"Infinity") {
            if j > 0 && text[j - 1] == b'-' {
                (SENTINEL_NEG_INF, j - 1, 9)
            } else {
                (SENTINEL_INF, j, 8)
            }
        } else if rest.starts_with(b"NaN") {
            (SENTINEL_NAN, j, 3)
        } else {
            i = j + 1;
            continue;
        };
        let out = out.get_or_insert_with(|| Vec::with_capacity(text.len() + 64));
        out.extend_from_slice(&text[copied..start]);
        out.push(b'"');
        // The NUL must be escaped to be valid inside a JSON string.
        out.extend_from_slice(b"\\u0000");
        out.extend_from_slice(&sentinel.as_bytes()[1..]);
        out.push(b'"');
        copied = start + len;
        i = copied;
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.extend_from_slice(&text[copied..]);
            Cow::Owned(out)
        }
    }
}

/// Parses one JSON text in Python's dialect into a [`Value`]. Non-finite
/// numbers become sentinel strings that [`as_f64`] reads back.
pub fn parse(text: &[u8]) -> Result<Value, ParseError> {
    let rewritten = rewrite(text);
    let was_rewritten = matches!(rewritten, Cow::Owned(_));
    serde_json::from_slice::<Value>(&rewritten).map_err(|e| {
        let msg = describe(&e);
        // Columns shift when tokens were rewritten; the line still holds.
        ParseError { msg, line: Some(e.line() as u64), col: if was_rewritten { None } else { Some(e.column() as u64) } }
    })
}

fn describe(e: &serde_json::Error) -> String {
    let full = e.to_string();
    // serde_json appends " at line L column C"; the caller says where.
    let msg = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    if e.is_eof() {
        format!("{msg} (the JSON record is cut short; was the file truncated?)")
    } else {
        msg
    }
}

/// The numeric reading of a value: JSON numbers, and the sentinels for
/// `Infinity`, `-Infinity`, `NaN`.
pub fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => sentinel_f64(s),
        _ => None,
    }
}

/// The number a sentinel string stands for.
pub fn sentinel_f64(s: &str) -> Option<f64> {
    if !s.starts_with('\u{0}') {
        return None;
    }
    match s {
        SENTINEL_INF => Some(f64::INFINITY),
        SENTINEL_NEG_INF => Some(f64::NEG_INFINITY),
        SENTINEL_NAN => Some(f64::NAN),
        _ => None,
    }
}

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
    /// A document longer than [`super::limit::line_bytes`] is refused
    /// rather than held in memory.
    pub fn read_rest(&mut self, out: &mut Vec<u8>) -> Result<()> {
        let limit = super::limit::line_bytes();
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
                lines.read_rest(&mut doc)?;
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
            let offsets = array_element_offsets(doc, 0);
            for (i, item) in items.into_iter().enumerate() {
                let line = offsets.get(i).map_or(first_line, |&o| first_line + line_of(doc, o) - 1);
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

/// The shape of the start of a JSON text, read without parsing it fully, so
/// it works on a head cut off at any byte.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Shape {
    /// The first non-space byte: `{`, `[`, or something else.
    pub first: Option<u8>,
    /// Keys of the top-level object (depth 1), or of the objects that are
    /// elements of a top-level array (depth 2 under `[`), in order.
    pub top_keys: Vec<String>,
    /// Keys one level deeper than `top_keys`.
    pub inner_keys: Vec<String>,
    /// Keys two levels deeper than `top_keys`.
    pub deep_keys: Vec<String>,
    /// For a top-level array: the first byte of its first element.
    pub first_element: Option<u8>,
}

impl Shape {
    pub fn has(&self, key: &str) -> bool {
        self.top_keys.iter().any(|k| k == key)
    }
    pub fn has_inner(&self, key: &str) -> bool {
        self.inner_keys.iter().any(|k| k == key)
    }
    pub fn has_deep(&self, key: &str) -> bool {
        self.deep_keys.iter().any(|k| k == key)
    }
}

/// Skims a JSON text (possibly cut short) and collects the keys near its
/// top. Stops after `limit` keys in total. Escapes in keys are kept as
/// written; the keys that matter for detection have none.
pub fn shape(text: &[u8], limit: usize) -> Shape {
    let mut shape = Shape::default();
    let mut i = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
    shape.first = text.get(i).copied();
    let base = match shape.first {
        Some(b'{') => 1,
        Some(b'[') => {
            shape.first_element = text[i + 1..].iter().copied().find(|b| !b.is_ascii_whitespace());
            2
        }
        _ => return shape,
    };
    // Stack of containers: true for object.
    let mut stack: Vec<bool> = Vec::new();
    // In an object, the next string is a key when this is set.
    let mut expect_key = false;
    let mut total = 0;
    while i < text.len() && total < limit {
        let b = text[i];
        match b {
            b'{' => {
                stack.push(true);
                expect_key = true;
            }
            b'[' => {
                stack.push(false);
                expect_key = false;
            }
            b'}' | b']' => {
                stack.pop();
                expect_key = false;
            }
            b',' => expect_key = stack.last() == Some(&true),
            b'"' => {
                let start = i + 1;
                let mut j = start;
                let mut escaped = false;
                while j < text.len() {
                    let c = text[j];
                    if escaped {
                        escaped = false;
                    } else if c == b'\\' {
                        escaped = true;
                    } else if c == b'"' {
                        break;
                    }
                    j += 1;
                }
                if expect_key && j < text.len() {
                    let key = String::from_utf8_lossy(&text[start..j]).into_owned();
                    let depth = stack.len();
                    let target = if depth == base {
                        Some(&mut shape.top_keys)
                    } else if depth == base + 1 {
                        Some(&mut shape.inner_keys)
                    } else if depth == base + 2 {
                        Some(&mut shape.deep_keys)
                    } else {
                        None
                    };
                    if let Some(t) = target {
                        if !t.contains(&key) {
                            t.push(key);
                            total += 1;
                        }
                    }
                }
                expect_key = false;
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    shape
}

/// Start offsets of the elements of the first array met at container depth
/// `depth` (0 for a top-level array, 1 for an array that is a value of the
/// top-level object). Used to give each element of a JSON document its own
/// line number.
pub fn array_element_offsets(text: &[u8], depth: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    // Set while inside the chosen array: waiting for an element to start.
    let mut inside = false;
    let mut want = false;
    for (i, &b) in text.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        if want && !b.is_ascii_whitespace() && b != b']' {
            out.push(i);
            want = false;
        }
        match b {
            b'"' => in_string = true,
            b'{' => stack += 1,
            b'[' => {
                if stack == depth && !inside && out.is_empty() {
                    inside = true;
                    want = true;
                }
                stack += 1;
            }
            b'}' | b']' => {
                stack = stack.saturating_sub(1);
                if inside && stack == depth {
                    return out;
                }
            }
            b',' if inside && stack == depth + 1 => want = true,
            _ => {}
        }
    }
    out
}

/// The 1-based line of byte `offset` in `text`.
pub fn line_of(text: &[u8], offset: usize) -> u64 {
    // One more line than line breaks before the offset.
    text[..offset.min(text.len())].split(|&b| b == b'\n').count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_tokens_parse_to_non_finite_numbers() {
        let v = parse(br#"{"a": Infinity, "b": -Infinity, "c": NaN, "d": [NaN, 1.5]}"#).unwrap();
        assert_eq!(as_f64(&v["a"]), Some(f64::INFINITY));
        assert_eq!(as_f64(&v["b"]), Some(f64::NEG_INFINITY));
        assert!(as_f64(&v["c"]).unwrap().is_nan());
        assert!(as_f64(&v["d"][0]).unwrap().is_nan());
        assert_eq!(as_f64(&v["d"][1]), Some(1.5));
    }

    #[test]
    fn tokens_inside_strings_are_text() {
        let text = br#"{"t": "NaN and Infinity \" NaN", "u": "-Infinity"}"#;
        assert!(matches!(rewrite(text), Cow::Borrowed(_)));
        let v = parse(text).unwrap();
        assert_eq!(v["t"], Value::String("NaN and Infinity \" NaN".into()));
        assert_eq!(as_f64(&v["u"]), None);
    }

    #[test]
    fn truncated_text_reports_eof() {
        let e = parse(br#"{"a": 1, "b": [1, 2"#).unwrap_err();
        assert!(e.msg.contains("cut short"), "{}", e.msg);
        assert_eq!(e.line, Some(1));
    }

    #[test]
    fn lines_are_numbered_and_stripped() {
        let data = b"a\r\n\nb";
        let mut input: &[u8] = data;
        let path = Path::new("x");
        let mut r = LineReader::new(path, &mut input);
        assert_eq!(r.next_line().unwrap().map(|(n, l)| (n, l.to_vec())), Some((1, b"a".to_vec())));
        assert_eq!(r.next_line().unwrap().map(|(n, l)| (n, l.to_vec())), Some((2, b"".to_vec())));
        assert_eq!(r.next_line().unwrap().map(|(n, l)| (n, l.to_vec())), Some((3, b"b".to_vec())));
        assert!(r.next_line().unwrap().is_none());
    }

    #[test]
    fn shape_reads_keys_of_a_cut_head() {
        let s = shape(br#"{"results": [{"command": "x", "mean": 1.0, "times": [1, 2"#, 100);
        assert_eq!(s.top_keys, vec!["results"]);
        assert!(s.has_deep("command"));
        let s = shape(br#"[{"a": 1, "b": {"c": 2}}, {"d": 3}]"#, 100);
        assert_eq!(s.first_element, Some(b'{'));
        assert_eq!(s.top_keys, vec!["a", "b", "d"]);
        assert_eq!(s.inner_keys, vec!["c"]);
        let s = shape(b"[4.3, 4.5]", 100);
        assert_eq!(s.first_element, Some(b'4'));
    }

    #[test]
    fn array_elements_have_offsets() {
        let text = b"[\n  {\"a\": [1, 2]},\n  {\"b\": \"],\"}\n]";
        let offs = array_element_offsets(text, 0);
        assert_eq!(offs.iter().map(|&o| line_of(text, o)).collect::<Vec<_>>(), vec![2, 3]);
        let text = b"{\"results\": [\n {\"x\": 1},\n {\"x\": 2}\n]}";
        let offs = array_element_offsets(text, 1);
        assert_eq!(offs.iter().map(|&o| line_of(text, o)).collect::<Vec<_>>(), vec![2, 3]);
    }
}
