//! A region written inside a sentence (a `value`, an inline template) is
//! reviewed as the reader reads it: the sentence around it — or, in a
//! table, its row — before and after, reckon's markers left out, and the
//! words of the region that change marked.

use std::fmt::Write as _;
use std::ops::Range;

use similar::{ChangeTag, TextDiff};

use crate::doc::{Document, Region};

/// The longest stretch of a sentence shown on either side of its region.
const REACH: usize = 240;
/// How far a sentence's start or end is looked for (a paragraph without a
/// full stop is not scanned whole for each of its regions).
const SCAN: usize = 4 * REACH;

/// The text a region sits in, as the reader reads it: what comes before
/// its content and what comes after, within its sentence or table row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InText {
    pub before: String,
    pub after: String,
}

/// Where every reckon marker of a document lies, to leave them out of the
/// text shown and to not end a sentence at a dot inside one.
pub struct Markers(Vec<Range<usize>>);

impl Markers {
    pub fn of(doc: &Document) -> Markers {
        let mut all: Vec<Range<usize>> = doc.regions.iter().flat_map(|r| [r.open.clone(), r.close.clone()]).collect();
        all.sort_by_key(|r| r.start);
        Markers(all)
    }

    /// The marker holding byte `i`, if any.
    fn at(&self, i: usize) -> Option<&Range<usize>> {
        let k = self.0.partition_point(|m| m.end <= i);
        self.0.get(k).filter(|m| m.start <= i)
    }

    /// Where the first marker after byte `i` starts.
    fn next_after(&self, i: usize) -> Option<usize> {
        let k = self.0.partition_point(|m| m.start <= i);
        self.0.get(k).map(|m| m.start)
    }
}

/// The sentence or table row around `region`, when its content is inline
/// (one line, with text of the document before or after it on its lines);
/// `None` for a region that is a block of its own.
pub fn around(text: &str, markers: &Markers, region: &Region) -> Option<InText> {
    let content = region.content(text);
    if content.contains('\n') {
        return None;
    }
    let line_start = text[..region.open.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[region.close.end..].find('\n').map_or(text.len(), |i| region.close.end + i);
    let span = if text[line_start..].trim_start().starts_with('|') {
        line_start..line_end
    } else {
        sentence_start(text, markers, region.open.start)..sentence_end(text, markers, region.close.end)
    };
    let before = reader_text(text, markers, span.start..region.content.start);
    let after = reader_text(text, markers, region.content.end..span.end);
    if before.trim().is_empty() && after.trim().is_empty() {
        return None;
    }
    Some(InText { before: cut_front(before.trim_start()), after: cut_back(after.trim_end()) })
}

/// Where the sentence holding byte `at` starts: after the last sentence end
/// (`.`, `!`, `?` before white space) or blank line before it, outside
/// markers.
fn sentence_start(text: &str, markers: &Markers, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = at;
    while i > 0 {
        if at - i > SCAN {
            return floor_boundary(text, i);
        }
        if let Some(m) = markers.at(i - 1) {
            i = m.start;
            continue;
        }
        let c = bytes[i - 1];
        if c == b'\n' && text[..i - 1].trim_end_matches([' ', '\t', '\r']).ends_with('\n') {
            return i;
        }
        if matches!(c, b'.' | b'!' | b'?') && bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            return i;
        }
        i -= 1;
    }
    0
}

/// Where the sentence going on at byte `at` ends: after its `.`, `!` or
/// `?` before white space, or at a blank line, outside markers.
fn sentence_end(text: &str, markers: &Markers, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = at;
    while i < bytes.len() {
        if i - at > SCAN {
            return floor_boundary(text, i);
        }
        if let Some(m) = markers.at(i) {
            i = m.end;
            continue;
        }
        let c = bytes[i];
        if c == b'\n' && text[i + 1..].trim_start_matches([' ', '\t', '\r']).starts_with('\n') {
            return i;
        }
        if matches!(c, b'.' | b'!' | b'?') && bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace) {
            return i + 1;
        }
        i += 1;
    }
    bytes.len()
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `text[range]` without reckon's markers, each line break and the white
/// space around it one space.
fn reader_text(text: &str, markers: &Markers, range: Range<usize>) -> String {
    let mut kept = String::new();
    let mut i = range.start;
    while i < range.end {
        if let Some(m) = markers.at(i) {
            i = m.end.max(i + 1);
            continue;
        }
        let next = markers.next_after(i).unwrap_or(range.end).min(range.end);
        kept.push_str(&text[i..next]);
        i = next;
    }
    let mut out = String::with_capacity(kept.len());
    for (n, line) in kept.split('\n').enumerate() {
        let line = line.trim_end_matches('\r');
        if n == 0 {
            out.push_str(line.trim_end());
        } else {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            out.push_str(line.trim());
        }
    }
    // A line of its own kept its trailing space: only the breaks are joined.
    if kept.ends_with(' ') && !out.ends_with(' ') {
        out.push(' ');
    }
    if kept.starts_with(char::is_whitespace) && !out.starts_with(' ') {
        out.insert(0, ' ');
    }
    out
}

/// The last [`REACH`] bytes of `s`, from a word's start, `…` before them.
fn cut_front(s: &str) -> String {
    if s.len() <= REACH {
        return s.to_string();
    }
    let mut from = s.len() - REACH;
    while !s.is_char_boundary(from) {
        from += 1;
    }
    let from = s[from..].find(' ').map_or(from, |k| from + k + 1);
    format!("…{}", &s[from..])
}

/// The first [`REACH`] bytes of `s`, to a word's end, `…` after them.
fn cut_back(s: &str) -> String {
    if s.len() <= REACH {
        return s.to_string();
    }
    let mut to = REACH;
    while !s.is_char_boundary(to) {
        to -= 1;
    }
    let to = s[..to].rfind(' ').unwrap_or(to);
    format!("{}…", &s[..to])
}

/// The sentence before and after as two diff lines, the words of the
/// region that change marked: bold and underlined on a terminal, `[-…-]`
/// and `{+…+}` without colour.
pub fn show(at: &InText, old: &str, new: &str, color: bool) -> String {
    let style = |tag: ChangeTag| {
        let s = console::Style::new().force_styling(true);
        if tag == ChangeTag::Delete {
            s.red()
        } else {
            s.green()
        }
    };
    let diff = TextDiff::from_words(old, new);
    let mut out = String::new();
    for (sign, tag) in [("-", ChangeTag::Delete), ("+", ChangeTag::Insert)] {
        let mut line = String::new();
        for change in diff.iter_all_changes().filter(|c| c.tag() == tag || c.tag() == ChangeTag::Equal) {
            let word = crate::escape::terminal(change.value());
            let _ = match (change.tag() == tag, color, tag) {
                (true, true, _) => write!(line, "{}", style(tag).bold().underlined().apply_to(&word)),
                (true, false, ChangeTag::Delete) => write!(line, "[-{word}-]"),
                (true, false, _) => write!(line, "{{+{word}+}}"),
                (false, true, _) => write!(line, "{}", style(tag).apply_to(&word)),
                (false, false, _) => write!(line, "{word}"),
            };
        }
        let (before, after) = (crate::escape::terminal(&at.before), crate::escape::terminal(&at.after));
        let _ = if color {
            writeln!(out, "{}", style(tag).apply_to(format!("{sign}{before}{line}{after}")))
        } else {
            writeln!(out, "{sign}{before}{line}{after}")
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn first_inline(doc: &str) -> Option<InText> {
        let parsed = crate::doc::parse(Path::new("plan.md"), doc).unwrap();
        let markers = Markers::of(&parsed);
        parsed.regions.iter().find_map(|r| around(doc, &markers, r))
    }

    const V: &str = "<!-- reckon:value metric=t config=a max_over=c digits=1 -->";
    const END: &str = "<!-- /reckon:value digest=bf2cf0c454ea -->";

    #[test]
    fn a_value_is_shown_in_its_sentence_without_markers() {
        let doc = format!(
            "# Plan\n\nBaseline peaks at 773.0 tok/s.\nEAGLE on v1 levels off near\n{V}336.1{END} tok/s\n\
             and is behind at C=8\n({V}286.5{END}\nagainst 458.9 tok/s).\nWith one request it decodes at 96.\n"
        );
        let at = first_inline(&doc).unwrap();
        assert_eq!(at.before, "EAGLE on v1 levels off near ");
        assert_eq!(at.after, " tok/s and is behind at C=8 (286.5 against 458.9 tok/s).");
        assert_eq!(
            show(&at, "336.1", "353.2", false),
            "-EAGLE on v1 levels off near [-336.1-] tok/s and is behind at C=8 (286.5 against 458.9 tok/s).\n\
             +EAGLE on v1 levels off near {+353.2+} tok/s and is behind at C=8 (286.5 against 458.9 tok/s).\n"
        );
        let coloured = show(&at, "336.1", "353.2", true);
        assert!(coloured.contains("\u{1b}[4m") && coloured.contains("near "), "{coloured:?}");
    }

    #[test]
    fn a_paragraph_bounds_the_sentence_and_a_table_row_is_its_line() {
        let at = first_inline(&format!("Intro line\n\nPeak {V}1.0{END}\n\nNext para.\n")).unwrap();
        assert_eq!((at.before.as_str(), at.after.as_str()), ("Peak ", ""));
        let at = first_inline(&format!("| c | v |\n|---|---|\n| 8 | {V}2.5{END} | x. y |\n")).unwrap();
        assert_eq!((at.before.as_str(), at.after.as_str()), ("| 8 | ", " | x. y |"));
    }

    #[test]
    fn a_block_region_and_a_value_alone_have_no_sentence() {
        let table = "<!-- reckon:table metric=t rows=c -->\n| a |\n<!-- /reckon:table -->\n";
        assert_eq!(first_inline(table), None);
        assert_eq!(first_inline(&format!("Para.\n\n{V}1{END}\n")), None);
    }

    #[test]
    fn a_long_sentence_is_cut_at_words_and_controls_are_shown() {
        let long = "word ".repeat(200);
        let at = first_inline(&format!("{long}{V}1{END} {long}end.\n")).unwrap();
        assert!(at.before.starts_with('…') && at.before.len() <= REACH + 8, "{}", at.before);
        assert!(at.after.ends_with('…') && at.after.len() <= REACH + 8, "{}", at.after);
        let at = first_inline(&format!("Bad \u{1b}[2J {V}1{END} here.\n")).unwrap();
        assert!(show(&at, "1", "2", false).contains("\\x1b[2J"), "escaped");
    }
}
