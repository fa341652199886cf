//! Python's JSON dialect: `json.dumps` writes non-finite floats as the bare
//! tokens `Infinity`, `-Infinity` and `NaN`, which strict JSON parsers
//! reject. This module tokenises (tracking string and escape state, so the
//! word `NaN` inside a generated text is left alone), rewrites those tokens
//! into sentinel strings, and parses the result with `serde_json`. It also has
//! the line reader the JSONL formats share and a few helpers that look at
//! the shape of a JSON text without parsing it fully (for detection).
//!
//! The dialect itself is here; `records` reads JSONL records and whole
//! documents line by line within the longest-line limit, and `shape` looks
//! at a head of text for detection.

mod doc;
mod node;
mod records;
mod shape;

pub use doc::{parse_doc, Doc, Object};
pub use node::{Member, Node, Reader};
pub use records::{is_blank, read_records, trim, LineReader};
pub use shape::{array_element_offsets, line_of, lines_of, member_offset, shape, Lines, Shape};

use std::borrow::Cow;
use std::path::Path;

use serde_json::Value;

use crate::Error;

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
    let mut out = Vec::new();
    if rewrite_into(text, &mut out) {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// Rewrites the bare tokens of `text` into sentinel strings in `out`
/// (replacing what it held, keeping its allocation); false, with `out`
/// untouched, when `text` holds none.
pub(crate) fn rewrite_into(text: &[u8], out: &mut Vec<u8>) -> bool {
    // JSON text with neither `I` nor `N` cannot hold a token.
    if memchr::memchr2(b'I', b'N', text).is_none() {
        return false;
    }
    // One pass: the copy is only made at the first token, and whole runs of
    // ordinary bytes are copied at once. Outside strings only `"`, `I`, `N`
    // (and the `-` of `-Infinity`, just before an `I`) matter; inside
    // strings only `"` and `\\`.
    let mut started = false;
    let mut copied = 0;
    let mut i = 0;
    while let Some(at) = memchr::memchr3(b'"', b'I', b'N', &text[i..]) {
        let j = i + at;
        if text[j] == b'"' {
            // Skip to the end of the string, honouring escapes.
            let mut k = j + 1;
            while k < text.len() {
                match memchr::memchr2(b'"', b'\\', &text[k..]) {
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
        if !started {
            started = true;
            out.clear();
            out.reserve(text.len() + 64);
        }
        out.extend_from_slice(&text[copied..start]);
        out.push(b'"');
        // The NUL must be escaped to be valid inside a JSON string.
        out.extend_from_slice(b"\\u0000");
        out.extend_from_slice(&sentinel.as_bytes()[1..]);
        out.push(b'"');
        copied = start + len;
        i = copied;
    }
    if started {
        out.extend_from_slice(&text[copied..]);
    }
    started
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

/// A setting of a JSON report as a param of `run`: text, a flag or a
/// number; a list or an object is no param and its name goes to `left`, to
/// be named as not stored.
pub fn setting(name: &str, v: &Value, run: &mut crate::run::RawRun, left: &mut std::collections::BTreeSet<String>) {
    use crate::run::Value as Param;
    match v {
        Value::Null => {}
        Value::String(s) => run.param(name, Param::from_label(s)),
        Value::Bool(b) => run.param(name, Param::Text(b.to_string())),
        Value::Number(_) => run.param(name, Param::Num(as_f64(v).unwrap_or(f64::NAN))),
        Value::Array(_) | Value::Object(_) => {
            left.insert(name.to_string());
        }
    }
}

/// A number as a [`Value`] that [`as_f64`] reads back: JSON has no
/// `Infinity` or `NaN`, so those become the sentinels Python's tokens do
/// (for documents of another syntax, YAML's `.inf` and `.nan`).
pub fn number(x: f64) -> Value {
    match serde_json::Number::from_f64(x) {
        Some(n) => Value::Number(n),
        None if x.is_nan() => Value::String(SENTINEL_NAN.into()),
        None if x > 0.0 => Value::String(SENTINEL_INF.into()),
        None => Value::String(SENTINEL_NEG_INF.into()),
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
        assert_eq!(lines_of(text, &offs), vec![2, 3]);
        // Out of order and past the end, as line_of counts them.
        let text = b"a\nb\nc\n";
        let offs = [4, 2, 0, 99];
        assert_eq!(lines_of(text, &offs), offs.iter().map(|&o| line_of(text, o)).collect::<Vec<_>>());
    }
}
