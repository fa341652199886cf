//! The two things about a notebook's JSON that `serde_json` does not give:
//! where each value lies in the file (byte ranges, so a cell's `source` can
//! be replaced without re-printing the rest), and a `source` printed the way
//! nbformat's writer prints it (`json.dumps(nb, indent=1, sort_keys=True,
//! ensure_ascii=False)`, each line of the text an element of a list).
//!
//! The scanner reads text `serde_json` has already accepted as JSON, so it
//! only finds boundaries; a surprise is `None`, never a guess.

use std::fmt::Write as _;
use std::ops::Range;

/// The byte range of the JSON value starting at or after `at` (whitespace
/// skipped), or `None` when there is none.
pub(super) fn value(text: &str, at: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let start = skip_space(b, at);
    let end = match *b.get(start)? {
        b'"' => string_end(b, start)?,
        b'{' | b'[' => nested_end(b, start)?,
        _ => start + b[start..].iter().position(|c| matches!(c, b',' | b']' | b'}') || c.is_ascii_whitespace())?,
    };
    Some(start..end)
}

/// The members of the object at `range`: each key, decoded, with the byte
/// range of its value.
pub(super) fn members(text: &str, range: &Range<usize>) -> Option<Vec<(String, Range<usize>)>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut at = skip_space(b, range.start + 1);
    while b.get(at) == Some(&b'"') {
        let key = at..string_end(b, at)?;
        let name: String = serde_json::from_str(&text[key.clone()]).ok()?;
        at = skip_space(b, key.end);
        (b.get(at) == Some(&b':')).then_some(())?;
        let v = value(text, at + 1)?;
        at = skip_space(b, v.end);
        out.push((name, v));
        if b.get(at) == Some(&b',') {
            at = skip_space(b, at + 1);
        }
    }
    (b.get(at) == Some(&b'}')).then_some(out)
}

/// The byte ranges of the elements of the array at `range`.
pub(super) fn elements(text: &str, range: &Range<usize>) -> Option<Vec<Range<usize>>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut at = skip_space(b, range.start + 1);
    while b.get(at).is_some_and(|c| *c != b']') {
        let v = value(text, at)?;
        at = skip_space(b, v.end);
        out.push(v);
        if b.get(at) == Some(&b',') {
            at = skip_space(b, at + 1);
        }
    }
    Some(out)
}

fn skip_space(b: &[u8], mut at: usize) -> usize {
    while b.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The end of the string whose opening quote is at `start` (after its
/// closing quote).
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    loop {
        match *b.get(at)? {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
}

/// The end of the object or array opening at `start`, strings skipped whole.
fn nested_end(b: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut at = start;
    loop {
        match *b.get(at)? {
            b'"' => {
                at = string_end(b, at)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
        at += 1;
    }
}

/// A cell's `source` as nbformat writes it, the `"source": ` key line
/// indented by `indent` spaces: `[]` for no text, else one element per line
/// (Python's `str.splitlines(keepends=True)`), each on a line of its own
/// one space deeper, the closing `]` back at `indent`; the file's lines end
/// with `newline` (`\r\n` where Python wrote the notebook on Windows).
pub(super) fn source(text: &str, indent: usize, newline: &str) -> String {
    let lines = split_lines(text);
    if lines.is_empty() {
        return "[]".to_owned();
    }
    let mut out = format!("[{newline}");
    for (i, line) in lines.iter().enumerate() {
        out.push_str(&" ".repeat(indent + 1));
        string(&mut out, line);
        if i + 1 < lines.len() {
            out.push(',');
        }
        out.push_str(newline);
    }
    out.push_str(&" ".repeat(indent));
    out.push(']');
    out
}

/// `text` cut after each line break Python's `str.splitlines` knows
/// (`\n`, `\r`, `\r\n`, `\v`, `\f`, `\x1c`–`\x1e`, `\x85`, U+2028, U+2029),
/// each piece keeping its break — how nbformat splits a source to write it.
pub(super) fn split_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let end = match c {
            '\r' if chars.peek().is_some_and(|(_, n)| *n == '\n') => {
                chars.next();
                i + 2
            }
            '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{1c}' | '\u{1d}' | '\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}' => {
                i + c.len_utf8()
            }
            _ => continue,
        };
        out.push(&text[start..end]);
        start = end;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// `s` as a JSON string the way Python's `json.dumps(…, ensure_ascii=False)`
/// writes it: `"` and `\` escaped, `\n \r \t \b \f` by their letters, other
/// control characters as `\u00xx`, everything else as it is.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_members_and_elements_by_byte_range() {
        let text = r#"{ "a": [1, "x]\"", {"b": []}], "c" : "d" }"#;
        let top = value(text, 0).unwrap();
        assert_eq!(top, 0..text.len());
        let m = members(text, &top).unwrap();
        let keys: Vec<&str> = m.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["a", "c"]);
        assert_eq!(&text[m[1].1.clone()], "\"d\"");
        let items: Vec<&str> = elements(text, &m[0].1).unwrap().into_iter().map(|r| &text[r]).collect();
        assert_eq!(items, ["1", "\"x]\\\"\"", "{\"b\": []}"]);
    }

    #[test]
    fn prints_a_source_as_nbformat_does() {
        assert_eq!(source("", 3, "\n"), "[]");
        assert_eq!(
            source("# A\n\nb \"c\" é\t≈", 3, "\n"),
            "[\n    \"# A\\n\",\n    \"\\n\",\n    \"b \\\"c\\\" é\\t≈\"\n   ]"
        );
        assert_eq!(source("a\u{1}\n", 3, "\n"), "[\n    \"a\\u0001\\n\"\n   ]");
        assert_eq!(source("a\nb", 1, "\r\n"), "[\r\n  \"a\\n\",\r\n  \"b\"\r\n ]");
        assert_eq!(split_lines("a\r\nb\rc\u{2028}d\n"), ["a\r\n", "b\r", "c\u{2028}", "d\n"]);
    }
}
