//! Reading a console log: segments between line breaks (a progress bar's
//! `\r` is one too), timestamps and prefixes stripped, a block's header,
//! rows and closing rule recognised.

use std::io::BufRead;

use super::{MAX_SEGMENT, TITLE};

/// The header's width if `line` is a block header (`===== Serving
/// Benchmark Result =====`, 50 wide for LLM serving, 60 for diffusion).
pub(super) fn header_width(line: &str) -> Option<usize> {
    let line = line.trim();
    if !(line.starts_with('=') && line.ends_with('=')) {
        return None;
    }
    (line.trim_matches('=').trim() == TITLE).then(|| line.chars().count())
}

/// The longest prefix a block's lines may carry before their text
/// (`# `, `// `, `> `, `INFO: `).
const MAX_PREFIX: usize = 64;

/// A block header after a prefix its every line carries (`# ` of a log
/// pasted into a shell script, `> ` of a quote in notes): the prefix, as
/// written before the first `=`, and the header's width. The prefix is
/// empty for a header as the tools print it.
pub(super) fn header(line: &str) -> Option<(&str, usize)> {
    let line = line.trim();
    let at = line.find('=')?;
    let prefix = &line[..at];
    if prefix.len() > MAX_PREFIX {
        return None;
    }
    header_width(&line[at..]).map(|width| (prefix, width))
}

/// The text of a line of a block whose header carried `prefix`: the line
/// after it, or `None` when the line does not carry it. A line with
/// nothing on it is a blank of the block, with its prefix or without.
pub(super) fn unprefixed<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let marks = prefix.trim_end();
    if line.is_empty() || marks.is_empty() {
        return Some(line);
    }
    line.strip_prefix(marks).map(str::trim)
}

/// A line with the marks of a comment or quote before its text (`# `,
/// `// `, `> `, `-- `) taken off: how lines around a commented block are
/// read for the params they state.
pub(super) fn without_marks(line: &str) -> &str {
    let text = line.trim_start_matches(|c: char| c.is_whitespace() || (c.is_ascii_punctuation() && c != '['));
    if line.len() - text.len() > 8 {
        line
    } else {
        text
    }
}

/// The block's closing rule: a line of `=` only.
pub(super) fn is_closing_rule(line: &str) -> bool {
    line.len() >= 20 && line.bytes().all(|b| b == b'=')
}

/// The title of a section rule (`-----Time to First Token-----`,
/// `------------------ End-To-End Latency ------------------`), empty for
/// a plain dashed rule.
pub(super) fn section_title(line: &str) -> Option<&str> {
    if line.len() >= 10 && line.starts_with("---") && line.ends_with("---") {
        Some(line.trim_matches('-').trim())
    } else {
        None
    }
}

/// Splits `Label:   value` at the first colon followed by whitespace (or
/// ending the line). The label must read like one: starting with a letter,
/// not too long.
pub(super) fn split_row(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    let colon = (0..bytes.len()).find(|&i| bytes[i] == b':' && bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace))?;
    let label = line[..colon].trim();
    let starts_with_letter = label.chars().next().is_some_and(char::is_alphabetic);
    if !starts_with_letter || label.len() > 80 {
        return None;
    }
    Some((label, line[colon + 1..].trim()))
}

/// Splits a leading `[...]` prefix (timestamps, `[rank0]:`) off a line.
/// Returns the contents of the first bracket, if any, and the rest.
pub(super) fn strip_prefix(line: &str) -> (Option<&str>, &str) {
    let mut rest = line.trim_start();
    let mut first = None;
    for _ in 0..3 {
        let Some(inner) = rest.strip_prefix('[') else {
            break;
        };
        let Some(close) = inner.find(']') else { break };
        if close > 64 || inner[..close].contains('[') {
            break;
        }
        let after = inner[close + 1..].strip_prefix(':').unwrap_or(&inner[close + 1..]);
        if after.trim().is_empty() {
            break;
        }
        first = first.or(Some(&inner[..close]));
        rest = after.trim_start();
    }
    (first, rest)
}

/// Reads a bracketed log timestamp as RFC 3339 UTC. Naive times (no
/// offset) are taken as UTC: the logs do not say, and the same bytes must
/// give the same time on every machine.
pub(super) fn parse_timestamp(text: &str) -> Option<String> {
    let text = text.trim();
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(text) {
        return Some(t.with_timezone(&chrono::Utc).format("%Y-%m-%dT%H:%M:%SZ").to_string());
    }
    // SGLang server lines add a rank after the time: `[2026-11-20 14:02:11 TP0]`.
    let head = text.get(..19)?;
    ["%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S"].iter().find_map(|fmt| {
        chrono::NaiveDateTime::parse_from_str(head, fmt).ok().map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
    })
}

pub(super) fn excerpt(text: &str) -> String {
    const MAX: usize = 80;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

/// Yields the text between line breaks, treating `\r` (progress-bar
/// rewrites) as a break too, with the 1-based `\n` line it sits on. Each
/// segment keeps at most [`MAX_SEGMENT`] bytes.
pub(in crate::ingest) struct Segments<'a> {
    input: &'a mut dyn BufRead,
    /// The line the next segment starts on.
    pub(super) line: u64,
    buf: Vec<u8>,
    /// The previous segment ended with `\r`, so a `\n` right after it ends
    /// nothing new (CRLF).
    after_cr: bool,
    done: bool,
}

impl<'a> Segments<'a> {
    pub(in crate::ingest) fn new(input: &'a mut dyn BufRead) -> Self {
        Segments { input, line: 1, buf: Vec::new(), after_cr: false, done: false }
    }

    pub(in crate::ingest) fn next_segment(&mut self) -> std::io::Result<Option<(u64, String)>> {
        if self.done {
            return Ok(None);
        }
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                self.done = true;
                if self.buf.is_empty() {
                    return Ok(None);
                }
                return Ok(Some((self.line, self.take())));
            }
            let Some(at) = chunk.iter().position(|&b| b == b'\n' || b == b'\r') else {
                let room = MAX_SEGMENT.saturating_sub(self.buf.len());
                self.buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
                self.after_cr = false;
                let n = chunk.len();
                self.input.consume(n);
                continue;
            };
            let room = MAX_SEGMENT.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&chunk[..at.min(room)]);
            let newline = chunk[at] == b'\n';
            let crlf_tail = newline && at == 0 && self.after_cr && self.buf.is_empty();
            self.input.consume(at + 1);
            let line = self.line;
            if newline {
                self.line += 1;
            }
            if crlf_tail {
                self.after_cr = false;
                continue;
            }
            self.after_cr = !newline;
            return Ok(Some((line, self.take())));
        }
    }

    fn take(&mut self) -> String {
        let text = String::from_utf8_lossy(&self.buf).into_owned();
        self.buf.clear();
        text
    }
}
