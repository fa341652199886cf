//! Console lines before a JSON document: what a tool prints on the same
//! stream as its JSON when both are captured to one file (Google
//! Benchmark's `***WARNING*** CPU scaling is enabled, …` before
//! `--benchmark_format=json`, a `[TensorRT-LLM][INFO]` or `INFO:` log line
//! before a report). Detection looks past them; the parser sees each as a
//! blank line, so every line number after them stays the file's own; the
//! outcome names them as not stored.

use std::io::BufRead;

use super::pyjson;

/// Whether the first line starts with a console prefix in brackets —
/// `[TensorRT-LLM]`, `[01/18/2025-01:01:13]`, `[INFO]`, `[rank0]:` — rather
/// than a JSON array: a bracketed start, closed on that line, that is not
/// JSON (trtllm-bench's console output was "a JSON array whose elements are
/// not objects").
pub(super) fn console_prefix(content: &[u8]) -> bool {
    let line = content.split(|&b| b == b'\n').next().unwrap_or_default();
    if line.first() != Some(&b'[') {
        return false;
    }
    let Some(close) = line.iter().position(|&b| b == b']') else { return false };
    let inside = &line[1..close];
    // `[1, 2]`, `[]`, `[{…}]`, `["a"]` are JSON; a word, a date or a level
    // that is not a JSON token is a prefix.
    !inside.is_empty() && !matches!(inside[0], b'{' | b'[' | b'"') && pyjson::parse(&line[..=close]).is_err()
}

/// The log levels a console line can start with (`WARNING:`, `INFO `).
const LEVELS: [&[u8]; 7] = [b"WARNING", b"WARN", b"INFO", b"ERROR", b"DEBUG", b"NOTICE", b"CRITICAL"];

/// A console message, not data: `***WARNING*** …` (Google Benchmark's
/// style), a bracketed prefix, or a log level followed by `:` or a space.
fn console_line(line: &[u8]) -> bool {
    let line = pyjson::trim(line);
    let starred = line.strip_prefix(b"***").is_some_and(|rest| {
        let word = rest.iter().take_while(|b| b.is_ascii_uppercase()).count();
        word > 0 && rest[word..].starts_with(b"***")
    });
    let level = LEVELS.iter().any(|l| {
        line.strip_prefix(*l).is_some_and(|rest| matches!(rest.first(), Some(b':' | b' ')) && !rest.starts_with(b"  "))
    });
    starred || level || console_prefix(line)
}

/// The bytes of the console lines (and blank lines among them) that open
/// `text` when a JSON object follows on a line of its own: the offset where
/// that line starts. `None` when no console line comes first, or something
/// other than `{` does after them.
pub(super) fn before_json(text: &[u8]) -> Option<usize> {
    let mut at = 0;
    let mut seen = false;
    while at < text.len() {
        let end = text[at..].iter().position(|&b| b == b'\n').map_or(text.len(), |i| at + i + 1);
        let line = &text[at..end];
        if pyjson::trim(line).starts_with(b"{") {
            return seen.then_some(at);
        }
        if !pyjson::is_blank(line) {
            if !console_line(line) {
                return None;
            }
            seen = true;
        }
        at = end;
    }
    None
}

/// Consumes the console lines (and blank lines among them) that open
/// `input` when a JSON object follows them (see [`before_json`], within
/// what `input` holds buffered), and returns how many lines they took; the
/// caller puts as many blank lines in their place. 0, and nothing taken,
/// otherwise.
pub(super) fn skip(input: &mut dyn BufRead) -> std::io::Result<usize> {
    let buf = input.fill_buf()?;
    let Some(len) = before_json(buf) else { return Ok(0) };
    let lines = memchr::memchr_iter(b'\n', &buf[..len]).count();
    input.consume(len);
    Ok(lines)
}

/// What the outcome says of the lines [`skip`] took (their text is not
/// quoted: a log's content stays out of what reckon prints).
pub(super) fn note(lines: usize) -> String {
    let which = if lines == 1 { "line 1".to_string() } else { format!("lines 1–{lines}") };
    format!("{which}: console output before the JSON (warnings, log lines), not data, not stored")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn console_lines_before_a_json_object_are_found() {
        let text = b"***WARNING*** CPU scaling is enabled, the benchmark real time measurements may be noisy.\n\
                     ***WARNING*** Library was built as DEBUG. Timings may be affected.\n{\n  \"context\": {}\n}\n";
        let at = before_json(text).unwrap();
        assert!(text[at..].starts_with(b"{\n"));
        assert_eq!(before_json(b"[TensorRT-LLM][INFO] start\r\n\r\nINFO: loading\n{\"a\": 1}\n"), Some(44));
        // Data before, nothing after, or no console line: not a preamble.
        assert_eq!(before_json(b"name,value\n{\"a\": 1}\n"), None);
        assert_eq!(before_json(b"***WARNING*** only\n"), None);
        assert_eq!(before_json(b"{\"a\": 1}\n"), None);
        assert_eq!(before_json(b"[1, 2]\n{\"a\": 1}\n"), None);
        assert_eq!(before_json(b"***WARNING*** x\n[{\"a\": 1}]\n"), None);
    }

    #[test]
    fn skip_leaves_the_json_and_counts_the_lines() {
        let mut input: &[u8] = b"***WARNING*** CPU scaling is enabled\n\n{\"benchmarks\": []}\n";
        assert_eq!(skip(&mut input).unwrap(), 2);
        assert_eq!(input, b"{\"benchmarks\": []}\n");
        for text in [&b"{\"benchmarks\": []}\n"[..], b"\n{\"a\": 1}\n", b"WARNING: x\nname: y\n", b"name,value\n"] {
            let mut input = text;
            assert_eq!(skip(&mut input).unwrap(), 0);
            assert_eq!(input, text);
        }
    }
}
