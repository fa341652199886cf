//! Text from logs and documents, escaped for where it goes: one function
//! per target language, used by every place that writes one. A log can put
//! anything in a value (a series name, a param, a metric name) and a
//! document anything in an argument; what they hold is shown as text and
//! never becomes structure: no region, link, image, tag or element opens,
//! and no terminal or CI runner acts on it.
//!
//! - [`markdown`]: inline markdown (a table cell, a sentence of a note).
//! - [`html`]: HTML text and attribute values.
//! - [`xml`]: characters XML 1.0 forbids (SVG text and comments; the SVG
//!   writer escapes the markup characters itself).
//! - [`terminal`] and [`terminal_lines`]: what a human-format command prints.
//! - [`github_message`] and [`github_property`]: a workflow command's parts.
//! - [`uri_path`]: a relative path as a URI reference (SARIF).
//!
//! Characters that do something rather than show something — C0 and C1
//! controls, DEL, the bidirectional overrides and line separators — are
//! written as visible escapes (`\n`, `\x1b`, `\u{202e}`) wherever they
//! would otherwise act.

use std::fmt::Write as _;

/// The visible form of a character that acts rather than shows, or `None`
/// for a character that shows itself.
fn visible(c: char) -> Option<String> {
    let acts = c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c);
    if !acts {
        return None;
    }
    Some(match c {
        '\n' => "\\n".to_string(),
        '\r' => "\\r".to_string(),
        '\t' => "\\t".to_string(),
        '\0' => "\\0".to_string(),
        c if u32::from(c) < 0x80 => format!("\\x{:02x}", u32::from(c)),
        c => format!("\\u{{{:x}}}", u32::from(c)),
    })
}

/// Escapes `s` as inline markdown text that renders as `s` (line breaks as
/// spaces, none at either end) and opens nothing: backslash escapes for the characters that
/// start inline syntax (links and images `[ ]`, emphasis `* _ ~`, code
/// `` ` ``, math `$`, table cells `|`, escapes `\`), entities for `< > &`
/// (HTML, comments and so reckon's own directives), and the address forms
/// GitHub would make links of (`://`, `www.`, `@`) broken up by an escape.
/// An `_` between two letters or digits is left as it is: it cannot start
/// emphasis (`max_concurrency`).
pub fn markdown(s: &str) -> String {
    // Spaces (and line breaks) at either end show as nothing, and would
    // keep the emphasis around a value (`**{{ best }}**`) from closing.
    let chars: Vec<char> = s.trim_matches(char::is_whitespace).chars().collect();
    let mut out = String::with_capacity(s.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i + 1).copied();
        match c {
            '\\' | '|' | '[' | ']' | '*' | '`' | '~' | '$' | '@' => {
                out.push('\\');
                out.push(c);
            }
            '_' if !(before.is_some_and(char::is_alphanumeric) && after.is_some_and(char::is_alphanumeric)) => {
                out.push_str("\\_");
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            ':' if chars[i + 1..].starts_with(&['/', '/']) => out.push_str("\\:"),
            '.' if i >= 3 && chars[i - 3..i].iter().collect::<String>().eq_ignore_ascii_case("www") => {
                out.push_str("\\.");
            }
            '\n' | '\r' => out.push(' '),
            c => match visible(c) {
                Some(v) if c != '\t' => out.push_str(&v),
                _ => out.push(c),
            },
        }
    }
    out
}

/// Escapes `s` for HTML content and attribute values (`& < > " '`).
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `s` with every character XML 1.0 does not allow in a document (C0
/// controls but tab and line breaks, `U+FFFE`, `U+FFFF`) and every other
/// control written visibly, so an SVG holding it stays well-formed and shows
/// what the log said. Markup characters are left to the SVG writer, which
/// escapes them.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match visible(c) {
            Some(v) if !matches!(c, '\n' | '\t') => out.push_str(&v),
            _ if matches!(c, '\u{fffe}' | '\u{ffff}') => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            _ => out.push(c),
        }
    }
    out
}

/// One value (a series name, a statement, a message) for a terminal or a
/// CI log, on one line: every control character written visibly, line
/// breaks included, and a leading `::` (after spaces) broken up, so the
/// value can neither move the cursor, retitle the terminal, ring, nor start
/// a line a CI runner reads as a workflow command (`::error …`).
pub fn terminal(s: &str) -> String {
    no_leading_command(&shown(s, false))
}

/// Text of several lines for a terminal (a diff, an error with a hint):
/// each line as [`terminal`] writes a value, the line breaks kept (a `\r`
/// before one is dropped) and tabs kept.
pub fn terminal_lines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        out.push_str(&no_leading_command(&shown(line, true)));
    }
    out
}

/// `s` with each character that acts written visibly (tabs kept when
/// `keep_tabs`).
fn shown(s: &str, keep_tabs: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match visible(c) {
            Some(v) if !(keep_tabs && c == '\t') => out.push_str(&v),
            _ => out.push(c),
        }
    }
    out
}

/// `s` with a `::` that starts it (after spaces and tabs) written `\x3a:`.
fn no_leading_command(s: &str) -> String {
    let lead = s.len() - s.trim_start_matches([' ', '\t']).len();
    if s[lead..].starts_with("::") {
        format!("{}\\x3a{}", &s[..lead], &s[lead + 1..])
    } else {
        s.to_string()
    }
}

/// Escapes a GitHub workflow command's message (`%`, CR, LF), so it stays
/// one command and cannot start another line.
pub fn github_message(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a workflow command's property value (also `:` and `,`).
pub fn github_property(s: &str) -> String {
    github_message(s).replace(':', "%3A").replace(',', "%2C")
}

/// A `/`-separated relative path as a URI reference (SARIF's
/// `artifactLocation.uri`): every byte but the unreserved characters of
/// RFC 3986 and `/` percent-encoded, so a space, `#`, `?` or `%` in a file
/// name stays part of the path.
pub fn uri_path(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests;
