//! The status note reckon keeps inside a claim region: a GitHub alert block
//! after the author's text, separated from it by a blank line, whose first
//! line of text starts with `**reckon:**`:
//!
//! ```markdown
//! <!-- reckon:claim id=throughput-baseline-wins
//!      baseline beats others on output_throughput for all concurrency >= 30 -->
//! - For **throughput-focused workloads**: baseline is strictly superior.
//!
//! > [!WARNING]
//! > **reckon:** contradicted — eagle-topk1-v2 beats baseline at concurrency = 30
//! <!-- /reckon:claim digest=0123456789ab -->
//! ```
//!
//! The alert renders as a coloured box on GitHub; the `[!…]` line followed by
//! `> **reckon:**` at the end of the region is how reckon finds it again. The
//! author's text is never changed: it is kept as bytes, and only the note is
//! added, replaced or removed.

use std::ops::Range;

/// The kind of GitHub alert a status note is shown as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alert {
    /// `> [!NOTE]`
    Note,
    /// `> [!WARNING]`
    Warning,
    /// `> [!CAUTION]`
    Caution,
}

impl Alert {
    fn tag(self) -> &'static str {
        match self {
            Alert::Note => "NOTE",
            Alert::Warning => "WARNING",
            Alert::Caution => "CAUTION",
        }
    }
}

/// What marks the first text line of a note as reckon's.
const NOTE_LEAD: &str = "> **reckon:**";

/// A status note for a claim region, as markdown with `\n` line endings and
/// no final line break: `body` (markdown, possibly several lines) in an
/// alert of kind `alert`. Pass it to `Document::splice` for the claim.
pub fn status_note(alert: Alert, body: &str) -> String {
    let body = body.replace("\r\n", "\n");
    let body = body.trim_matches('\n');
    let mut out = format!("> [!{}]\n{NOTE_LEAD}", alert.tag());
    for (i, line) in body.split('\n').enumerate() {
        if i > 0 {
            out.push_str("\n>");
        }
        if !line.is_empty() {
            out.push(' ');
            out.push_str(line);
        }
    }
    out
}

/// Whether a line is an alert's first line, `> [!WORD]`.
fn is_alert_line(line: &str) -> bool {
    line.trim()
        .strip_prefix("> [!")
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|tag| !tag.is_empty() && tag.bytes().all(|b| b.is_ascii_uppercase()))
}

/// How a claim region's content divides into the author's text, reckon's
/// note and the indentation before the closing marker.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Split {
    /// The author's text is `content[..author_end]`.
    pub author_end: usize,
    /// The note, from the start of its `[!…]` line to the end of its last
    /// line (without the line break).
    pub note: Option<Range<usize>>,
    /// `content[tail_start..]` is the whitespace before the closing marker on
    /// its line, kept when the note changes.
    pub tail_start: usize,
}

/// Finds reckon's note at the end of a claim region's content.
pub(crate) fn split(content: &str, prefix: &str) -> Split {
    // Inside a quote or list item every line starts with the region's
    // continuation prefix (`> `, spaces); judge lines without it.
    let lead = prefix.trim_end();
    let inner = |l: &'_ str| -> String { l.strip_prefix(lead).unwrap_or(l).to_string() };
    let tail_start = match content.rfind('\n') {
        Some(i) if inner(&content[i + 1..]).trim().is_empty() => i + 1,
        _ => content.len(),
    };
    let body = &content[..tail_start];
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        lines.push((offset, line));
        offset += line.len();
    }
    let no_note = Split { author_end: tail_start, note: None, tail_start };

    // The note is the last run of quote lines, after any blank lines.
    let Some(last) = lines.iter().rposition(|(_, l)| !inner(l).trim().is_empty()) else {
        return no_note;
    };
    let is_quote = |l: &str| inner(l).trim_start().starts_with('>');
    let mut first = last + 1;
    while first > 0 && is_quote(lines[first - 1].1) {
        first -= 1;
    }
    let Some(alert) = (first..last)
        .rev()
        .find(|&i| is_alert_line(&inner(lines[i].1)) && inner(lines[i + 1].1).trim_start().starts_with(NOTE_LEAD))
    else {
        return no_note;
    };
    let note_start = lines[alert].0;
    let (last_start, last_line) = lines[last];
    let note_end = last_start + last_line.trim_end_matches(['\n', '\r']).len();

    // reckon writes one blank line (carrying the prefix) between the
    // author's text and the note; it belongs to the note.
    let author_end = match alert.checked_sub(1).map(|i| lines[i]) {
        Some((start, line)) if inner(line).trim().is_empty() && (start == 0 || content[..start].ends_with('\n')) => {
            // Keep the author's own line break before the blank line.
            start
        }
        _ => note_start,
    };
    Split { author_end, note: Some(note_start..note_end), tail_start }
}

/// The content of a claim region with `note` (markdown with `\n` endings, a
/// full alert block) in place of the current note, or without a note. The
/// author's text and the indentation before the closing marker are kept as
/// they are; `indent` prefixes each line of the note.
pub(crate) fn claim_content(content: &str, note: Option<&str>, eol: &str, indent: &str) -> String {
    let split = split(content, indent);
    let author = &content[..split.author_end];
    let tail = &content[split.tail_start..];
    let Some(note) = note else {
        return format!("{author}{tail}");
    };
    let mut out = String::with_capacity(content.len() + note.len() + 16);
    out.push_str(author);
    if !author.is_empty() && !author.ends_with('\n') {
        out.push_str(eol);
    }
    // The blank line before the note still carries a quote's `>`.
    out.push_str(indent.trim_end());
    out.push_str(eol);
    for line in note.split('\n') {
        out.push_str(indent);
        out.push_str(line);
        out.push_str(eol);
    }
    out.push_str(tail);
    out
}

/// The note a caller asked for, as a full alert block: empty text means no
/// note, a block that already is a note is kept, anything else becomes the
/// body of a warning.
pub(crate) fn normalize_note(replacement: &str) -> Option<String> {
    let text = replacement.replace("\r\n", "\n");
    let text = text.trim_matches('\n');
    if text.trim().is_empty() {
        return None;
    }
    let as_note = split(text, "");
    if as_note.note == Some(0..text.len()) {
        Some(text.to_string())
    } else {
        Some(status_note(Alert::Warning, text))
    }
}

/// Whether a claim region sits inside a line of prose: text before its
/// opening marker or after its closing one on their lines, the author's
/// words starting on the opening marker's line, or ending on the closing
/// marker's (its sentence goes on in the paragraph, a heading's underline
/// may follow), or its markers on lines of their own in the middle of a
/// paragraph ([`continued_at`]). Its note cannot go inside the region
/// without cutting the sentence, list or quote in two. `Some` with the
/// byte whose top-level block the note goes after: the opening marker's,
/// or — when only the closing marker sits in a line of prose, the opening
/// one on a line of its own before the block — the closing marker's, or
/// the start of the paragraph's line after the closing marker.
fn inline_anchor(text: &str, region: &super::Region) -> Option<usize> {
    let structural =
        |c: char| matches!(c, ' ' | '\t' | '>' | '-' | '*' | '+' | '.' | ')' | '\u{feff}') || c.is_ascii_digit();
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start(region.open.start)..region.open.start];
    let line_end = text[region.close.end..].find('\n').map_or(text.len(), |i| region.close.end + i);
    let after = &text[region.close.end..line_end];
    let starts_on_marker_line = !text[region.content.clone()].trim_start_matches([' ', '\t']).starts_with(['\n', '\r']);
    let before_close = &text[line_start(region.close.start).max(region.content.start)..region.close.start];
    if !before.chars().all(structural) || !after.trim().is_empty() || starts_on_marker_line {
        Some(region.open.start)
    } else if !before_close.chars().all(structural) {
        Some(region.close.start)
    } else {
        continued_at(text, region, line_end)
    }
}

/// The start of the line after a claim's closing marker (whose line ends at
/// `line_end`) when the claim sits in the middle of a paragraph of the
/// author's: the line before its opening marker's and the line after its
/// closing marker's are both prose of the region's list item or quote, with
/// no blank line between ([`prose_of`]). The note goes after the paragraph
/// the sentence ends in, not before its last words:
///
/// ```markdown
/// We found that
/// <!-- reckon:claim id=x … -->
/// baseline wins
/// <!-- /reckon:claim -->
/// at saturation, and moved on.
/// ```
///
/// (Markdown ends a paragraph at a line opening an HTML comment, so a
/// reader of the rendered page sees the three lines as three paragraphs
/// either way; the note after the last keeps them next to each other, and
/// the source's sentence whole.) A claim in the block form — a blank line,
/// a heading or another block before it, or nothing of the paragraph after
/// it — keeps its note inside.
fn continued_at(text: &str, region: &super::Region, line_end: usize) -> Option<usize> {
    let prefix = continuation_prefix(text, region.open.start);
    let open_line = text[..region.open.start].rfind('\n')?;
    let prev_start = text[..open_line].rfind('\n').map_or(0, |i| i + 1);
    let prev = text[prev_start..open_line].trim_end_matches('\r');
    // The item's first line carries its list marker where the region's
    // lines carry spaces.
    let opens_item = !prefix.is_empty() && prefix.trim().is_empty();
    let next = line_end + 1;
    let line = text.get(next..)?.split('\n').next()?.trim_end_matches('\r');
    (prose_of(prev, &prefix, opens_item) && prose_of(line, &prefix, false)).then_some(next)
}

/// What follows a list item's marker (`-`, `*`, `+`, `1.`, `1)`) at the
/// start of `s`, or `None` when `s` does not start with one.
fn list_marker(s: &str) -> Option<&str> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let marker = if digits > 0 { s[digits..].strip_prefix(['.', ')']) } else { s.strip_prefix(['-', '*', '+']) };
    marker.filter(|m| m.is_empty() || m.starts_with([' ', '\t'])).map(str::trim_start)
}

/// Whether `line` is a line of a paragraph in the list item or quote whose
/// lines start with `prefix`: not blank, not the start of another block (a
/// heading, quote, HTML or reckon marker, table row, code fence, rule or —
/// unless `item_marker` allows the item's own first line — list item).
fn prose_of(line: &str, prefix: &str, item_marker: bool) -> bool {
    let rest = line.strip_prefix(prefix.trim_end()).unwrap_or(line).trim_start();
    let rest = rest.strip_prefix('\u{feff}').unwrap_or(rest);
    let rest = match list_marker(rest) {
        Some(words) if item_marker => words,
        Some(_) => return false,
        None => rest,
    };
    let rule = rest.chars().all(|c| matches!(c, '=' | '-' | '*' | '_' | ' ' | '\t'));
    let starts_block = rest.starts_with(['#', '>', '<', '|']) || rest.starts_with("```") || rest.starts_with("~~~");
    !rest.is_empty() && !rule && !starts_block
}

/// The byte ranges of the document's top-level markdown blocks (and of any
/// top-level leaf event), in order and not overlapping.
fn top_level_blocks(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    for (event, range) in super::parser(text).into_offset_iter() {
        match event {
            // Start and End carry the whole block's range.
            pulldown_cmark::Event::Start(_) => {
                if depth == 0 {
                    out.push(range);
                }
                depth += 1;
            }
            pulldown_cmark::Event::End(_) => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(range),
            _ => {}
        }
    }
    out
}

/// The end of the top-level markdown block holding byte `at` (before its
/// final line breaks), of the document's `blocks` ([`top_level_blocks`]).
fn enclosing_block_end(text: &str, blocks: &[Range<usize>], at: usize) -> usize {
    let trimmed = |end: usize| text[..end].trim_end_matches(['\n', '\r']).len();
    let after = blocks.partition_point(|b| b.start <= at);
    if let Some(block) = after.checked_sub(1).map(|k| &blocks[k]).filter(|b| b.contains(&at)) {
        return trimmed(block.end);
    }
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    trimmed(line_end)
}

/// Each claim region whose opening marker starts its line (after a list
/// item's or quote's prefix): that line's start, and the end of its closing
/// marker's line, in order.
fn claim_lines(text: &str, regions: &[super::Region]) -> Vec<(usize, usize)> {
    let line_end = |at: usize| text[at..].find('\n').map_or(text.len(), |i| at + i);
    (regions.iter().filter(|r| r.kind == super::Kind::Claim))
        .filter_map(|r| {
            let start = text[..r.open.start].rfind('\n').map_or(0, |i| i + 1);
            let before = &text[start..r.open.start];
            let structural = |c: char| matches!(c, ' ' | '\t' | '>' | '\u{feff}');
            before.chars().all(structural).then(|| (start, text[..line_end(r.close.end)].trim_end_matches('\r').len()))
        })
        .collect()
}

/// The end of the author's paragraph holding byte `at`: the end of its
/// top-level block ([`enclosing_block_end`]) — and, as Markdown ends a
/// paragraph at a line opening an HTML comment where the source's
/// paragraph goes on, past each claim region whose markers sit on lines of
/// their own on the next line, and the prose going on after it. The note of
/// a claim in the middle of a paragraph goes after all of it, never between
/// its lines.
fn paragraph_end(text: &str, blocks: &[Range<usize>], claims: &[(usize, usize)], at: usize) -> usize {
    let mut end = enclosing_block_end(text, blocks, at);
    loop {
        let next = match &text.as_bytes()[end..] {
            [b'\n', ..] => end + 1,
            [b'\r', b'\n', ..] => end + 2,
            _ => return end,
        };
        let Ok(k) = claims.binary_search_by_key(&next, |&(start, _)| start) else {
            return end;
        };
        end = claims[k].1;
        let after = text[end..].strip_prefix("\r\n").or_else(|| text[end..].strip_prefix('\n'));
        let prefix = continuation_prefix(text, next + text[next..].find("<!--").unwrap_or(0));
        if let Some(line) = after.and_then(|a| a.split('\n').next()) {
            if prose_of(line.trim_end_matches('\r'), &prefix, false) {
                end = enclosing_block_end(text, blocks, text.len() - after.map_or(0, str::len));
            }
        }
    }
}

/// The lead of a detached note: `> **reckon:** claim `ID`: `.
fn detached_lead(id: &str) -> String {
    format!("{NOTE_LEAD} claim `{id}`:")
}

/// reckon's notes right after `at`: each a blank line and an alert whose
/// text starts with `**reckon:** claim `ID`:`, as (id, range from the line
/// break before the blank line to the end of the alert's last line).
fn notes_after(text: &str, at: usize) -> Vec<(String, Range<usize>)> {
    let mut found = Vec::new();
    let mut pos = at;
    loop {
        let rest = &text[pos..];
        let breaks = rest.len() - rest.trim_start_matches(['\n', '\r']).len();
        if rest[..breaks].matches('\n').count() < 2 {
            break;
        }
        let start = pos + breaks;
        let mut lines = text[start..].split_inclusive('\n');
        let (Some(first), Some(second)) = (lines.next(), lines.next()) else { break };
        let Some(id) = second
            .trim_end()
            .strip_prefix(&format!("{NOTE_LEAD} claim `"))
            .and_then(|r| r.split_once('`'))
            .map(|(id, _)| id.to_string())
        else {
            break;
        };
        if !is_alert_line(first) {
            break;
        }
        let mut end = start + first.len() + second.trim_end_matches(['\n', '\r']).len();
        let mut next = start + first.len() + second.len();
        for line in lines {
            if !line.starts_with('>') {
                break;
            }
            end = next + line.trim_end_matches(['\n', '\r']).len();
            next += line.len();
        }
        found.push((id, pos..end));
        pos = end;
    }
    found
}

/// Marks the claims written inline and finds their notes after the
/// enclosing block; their digest covers that note.
pub(crate) fn detach_inline_claims(text: &str, regions: &mut [super::Region]) {
    // The top-level blocks, read once for all the claims (and only when a
    // claim is inline).
    let mut blocks: Option<Vec<Range<usize>>> = None;
    let claim_lines = claim_lines(text, regions);
    for region in regions.iter_mut().filter(|r| r.kind == super::Kind::Claim) {
        let Some(anchor) = inline_anchor(text, region) else {
            continue;
        };
        let blocks = blocks.get_or_insert_with(|| top_level_blocks(text));
        let block_end = paragraph_end(text, blocks, &claim_lines, anchor);
        let notes = notes_after(text, block_end);
        let at = notes.last().map_or(block_end, |(_, r)| r.end);
        let id = region.claim().map(|c| c.id.value.clone()).unwrap_or_default();
        let note = notes.into_iter().find(|(n, _)| *n == id).map(|(_, r)| r);
        region.edited_by_hand = match (&region.digest, &note) {
            (None, _) => false,
            (Some(d), Some(r)) => {
                !super::digest(text[r.clone()].trim_start_matches(['\r', '\n'])).starts_with(d.as_str())
            }
            (Some(_), None) => true,
        };
        region.detached = Some(super::Detached { at, note });
    }
}

/// A note as written after the block for claim `id`: its lead names the
/// claim (kept when it already does).
pub(crate) fn detached_note(note: &str, id: &str) -> String {
    let lead = detached_lead(id);
    if note.contains(&lead) {
        return note.to_string();
    }
    note.replacen(NOTE_LEAD, &lead, 1)
}

/// What the lines of a block region continue with: the text before the
/// opening marker on its line when it is indentation, blockquote `>` or a
/// list marker (replaced by spaces), so the content stays inside the list
/// item or quote the marker is in. Anything else gives no prefix.
pub(crate) fn continuation_prefix(text: &str, open_start: usize) -> String {
    let line_start = text[..open_start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..open_start];
    let before = before.strip_prefix('\u{feff}').unwrap_or(before);
    let structural = |c: char| matches!(c, ' ' | '\t' | '>' | '-' | '*' | '+' | '.' | ')') || c.is_ascii_digit();
    if !before.chars().all(structural) {
        return String::new();
    }
    before.chars().map(|c| if matches!(c, ' ' | '\t' | '>') { c } else { ' ' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    /// Every inline claim's note is looked for after its top-level block,
    /// which was found by parsing the whole document again for each claim:
    /// quadratic in the claims of a document. The blocks are read once: a
    /// document of 20,000 inline claims parses, each note place found.
    #[test]
    fn finding_22_many_inline_claims_find_their_blocks_in_one_pass() {
        let n = 20_000;
        let mut text = String::new();
        for i in 0..n {
            let _ = write!(
                text,
                "Run {i}: <!-- reckon:claim id=c{i} a beats b on m -->a wins<!-- /reckon:claim --> here.\n\n"
            );
        }
        let doc = crate::doc::parse(std::path::Path::new("plan.md"), &text).unwrap();
        assert_eq!(doc.regions.len(), n);
        for (i, region) in doc.regions.iter().enumerate() {
            let detached = region.detached.as_ref().unwrap_or_else(|| panic!("claim {i} is inline"));
            let line_end = region.close.end + text[region.close.end..].find('\n').unwrap();
            assert_eq!((detached.at, &detached.note), (line_end, &None), "claim {i}");
        }
    }

    #[test]
    fn status_note_is_an_alert() {
        assert_eq!(
            status_note(Alert::Warning, "contradicted: x\n\nat concurrency = 30\n"),
            "> [!WARNING]\n> **reckon:** contradicted: x\n>\n> at concurrency = 30"
        );
        assert_eq!(status_note(Alert::Caution, ""), "> [!CAUTION]\n> **reckon:**");
    }

    #[test]
    fn split_finds_the_note_and_keeps_the_author_text() {
        let content = "\n- baseline wins.\n> an author quote\n\n> [!WARNING]\n> **reckon:** no\n> more\n";
        let s = split(content, "");
        assert_eq!(&content[..s.author_end], "\n- baseline wins.\n> an author quote\n");
        assert_eq!(&content[s.note.clone().unwrap()], "> [!WARNING]\n> **reckon:** no\n> more");
        assert_eq!(s.tail_start, content.len());
    }

    #[test]
    fn an_author_alert_is_not_a_note() {
        let content = "\ntext\n\n> [!NOTE]\n> mine\n";
        assert_eq!(split(content, ""), Split { author_end: content.len(), note: None, tail_start: content.len() });
    }

    #[test]
    fn add_replace_and_remove_a_note_in_an_indented_region() {
        let original = "\n  - baseline wins.\n  ";
        let note = status_note(Alert::Warning, "contradicted");
        let with = claim_content(original, Some(&note), "\r\n", "  ");
        assert_eq!(with, "\n  - baseline wins.\n\r\n  > [!WARNING]\r\n  > **reckon:** contradicted\r\n  ");
        assert_eq!(claim_content(&with, Some(&note), "\r\n", "  "), with);
        assert_eq!(claim_content(&with, None, "\r\n", "  "), original);
    }

    #[test]
    fn note_after_text_without_line_break() {
        let note = status_note(Alert::Warning, "x");
        let with = claim_content("text", Some(&note), "\n", "");
        assert_eq!(with, "text\n\n> [!WARNING]\n> **reckon:** x\n");
        assert_eq!(claim_content(&with, Some(&note), "\n", ""), with);
        assert_eq!(claim_content(&with, None, "\n", ""), "text\n");
        assert_eq!(claim_content("", Some(&note), "\n", ""), "\n> [!WARNING]\n> **reckon:** x\n");
        assert_eq!(claim_content("\n> [!WARNING]\n> **reckon:** x\n", None, "\n", ""), "");
    }

    #[test]
    fn normalize_note_wraps_plain_text() {
        assert_eq!(normalize_note(" \n"), None);
        assert_eq!(normalize_note("contradicted"), Some("> [!WARNING]\n> **reckon:** contradicted".to_string()));
        let caution = status_note(Alert::Caution, "a\nb");
        assert_eq!(normalize_note(&format!("{caution}\n")), Some(caution));
    }
}
