//! Lint findings for people (human) and GitHub Actions (workflow
//! annotations); claim regions to paste (`--suggest`) or to wrap around the
//! author's lines (`--write`). The JSON is the CLI's (`cli/reporter/lint.rs`).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::ops::Range;

use super::{Finding, Status};

/// Which findings a report shows.
#[derive(Debug, Clone, Copy)]
pub struct Selection {
    /// Every statement found, whatever its verdict and confidence.
    pub all: bool,
    pub min_confidence: f64,
}

impl Selection {
    /// Whether a finding is shown: problems and ambiguous names read with
    /// enough confidence, or everything with `all`.
    pub fn shows(&self, f: &Finding) -> bool {
        self.all || (f.status.is_problem() || f.status == Status::Ambiguous) && f.confidence >= self.min_confidence
    }

    /// Whether a finding counts as a problem (exit 1, a check error).
    pub fn fails(&self, f: &Finding) -> bool {
        f.status.is_problem() && f.confidence >= self.min_confidence
    }
}

fn headline(f: &Finding) -> String {
    let mut s = match f.status {
        Status::Stale => {
            format!("stale: right as of {}, now {}", f.held_as_of.as_deref().unwrap_or("an earlier sweep"), f.summary)
        }
        Status::Ambiguous | Status::Plan | Status::Unjudged | Status::History => {
            format!("{}: {}", f.status.as_str(), f.summary)
        }
        _ => f.summary.clone(),
    };
    if f.status == Status::History {
        if let Some(d) = &f.as_of {
            s = format!("history (judged as of {d}): {}", f.summary);
        }
    }
    s
}

/// The human report of one document; its words and the data's names reach
/// a terminal, each with its control characters written visibly.
pub(crate) fn human(path: &str, findings: &[Finding], sel: Selection) -> String {
    let shown = crate::escape::terminal;
    let mut out = String::new();
    for f in findings.iter().filter(|f| sel.shows(f)) {
        let _ = writeln!(out, "{}:{}:{}: {}", shown(path), f.line, f.col, shown(&headline(f)));
        let _ = writeln!(out, "  prose: {}", shown(&f.sentence));
        if let Some(c) = &f.claim {
            let _ = writeln!(out, "  read as: {}", shown(c));
        }
        let mut how = format!("  confidence {:.2}", f.confidence);
        if !f.notes.is_empty() {
            let _ = write!(how, " ({})", shown(&f.notes.join("; ")));
        }
        let _ = writeln!(out, "{how}");
        if let Some(setup) = &f.setup {
            let _ = writeln!(out, "  reckon.toml reads it with:");
            for line in &setup.toml {
                let _ = writeln!(out, "    {}", shown(line));
            }
        }
    }
    out
}

/// How many sentences lint found a statement in and did not judge: no
/// metric named around it, two meanings, or not read whole (each once).
pub(crate) fn unjudged(findings: &[Finding]) -> usize {
    let mut spans: Vec<&Range<usize>> =
        findings.iter().filter(|f| matches!(f.status, Status::Unjudged | Status::Ambiguous)).map(|f| &f.span).collect();
    spans.dedup();
    spans.len()
}

/// How many sentences of `findings` lint could not read for names
/// reckon.toml does not know (each once).
pub(crate) fn unknown_names(findings: &[Finding]) -> usize {
    let mut spans: Vec<&Range<usize>> =
        findings.iter().filter(|f| f.setup.is_some() && f.status == Status::Unjudged).map(|f| &f.span).collect();
    spans.dedup();
    spans.len()
}

/// GitHub workflow annotations: problems as errors (or warnings), the rest
/// shown as notices.
pub(crate) fn github(path: &str, findings: &[Finding], sel: Selection, problem_level: &str) -> String {
    let mut out = String::new();
    for f in findings.iter().filter(|f| sel.shows(f)) {
        let level = if sel.fails(f) { problem_level } else { "notice" };
        let msg = match &f.claim {
            Some(c) => format!("{} — read as `{c}`", headline(f)),
            None => headline(f),
        };
        let _ = writeln!(
            out,
            "::{level} file={},line={},col={},title=reckon lint::{}",
            crate::escape::github_property(path),
            f.line,
            f.col,
            crate::escape::github_message(&msg)
        );
    }
    out
}

/// A group of findings wrapped by one claim region and their claims joined
/// by `and`: the whole lines of a sentence that has its lines to itself,
/// else — inline, within its paragraph or list item — exactly the sentence,
/// so that no other sentence of the author's sits under a claim it is not
/// part of.
#[derive(Debug, Clone)]
pub(crate) struct Wrap {
    /// Byte range wrapped: whole lines (from a line start to after its line
    /// break), or an inline sentence.
    pub range: Range<usize>,
    pub inline: bool,
    /// Where an inline wrap's opening marker goes.
    pub opening: Opening,
    pub statement: String,
    pub first_line: usize,
}

/// Where the opening marker of an inline claim goes so the block around
/// the sentence keeps its shape: a `<!--` starting a line would begin an
/// HTML block there, cutting the paragraph (and a heading's text from its
/// `---` underline).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Opening {
    /// Right before the sentence, which has text before it on its line.
    Before,
    /// At this byte, the end of the line before the sentence's in the same
    /// block (before a hard break's `\` or trailing spaces, which must
    /// stay at the end of the line).
    LineEnd(usize),
    /// On a line of its own starting at this byte, before the block's
    /// first line.
    OwnLine(usize),
    /// Right after a list item's marker, on that line, with the sentence
    /// moved to the next line at the item's indentation (a `<!--` right
    /// after the marker would make the item's first line an HTML block).
    AfterMarker,
}

impl Wrap {
    /// The first byte the wrap writes at.
    fn first_byte(&self) -> usize {
        match self.opening {
            Opening::LineEnd(at) | Opening::OwnLine(at) if self.inline => at.min(self.range.start),
            _ => self.range.start,
        }
    }
}

/// Where the line holding byte `at` starts, and where it ends (after its
/// line break).
fn line_of(text: &str, at: usize) -> Range<usize> {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    start..end
}

/// Whether text before a sentence on its line is only indentation, quote
/// markers and list markers.
fn structural(prefix: &str) -> bool {
    prefix.chars().all(|c| " \t>-*+.)".contains(c) || c.is_ascii_digit())
}

/// Where the opening marker of a sentence at `start` (in the block starting
/// at `block_start`) goes: see [`Opening`].
fn opening(text: &str, start: usize, block_start: usize) -> Opening {
    let line = line_of(text, start);
    let prefix = &text[line.start..start];
    if !structural(prefix) {
        return Opening::Before;
    }
    if line.start > line_of(text, block_start).start {
        // The line before, in the same block: its end, before the spaces or
        // the odd `\` of a hard break.
        let before = text[..line.start - 1].trim_end_matches('\r');
        let content = before.trim_end_matches([' ', '\t']);
        let backslashes = content.len() - content.trim_end_matches('\\').len();
        return Opening::LineEnd(if backslashes % 2 == 1 { content.len() - 1 } else { content.len() });
    }
    // The block's first line: a list item's text starts after its marker.
    if prefix.chars().any(|c| !matches!(c, ' ' | '\t' | '>')) {
        Opening::AfterMarker
    } else {
        Opening::OwnLine(line.start)
    }
}

/// What `--write` and `--suggest` wrap: the `chosen` findings and, with
/// each, the other statements lint judged in the same sentence — a claim
/// region checks everything its sentence says that lint could read, so no
/// judged conclusion sits unchecked under it. A sentence holding something
/// lint could not read (unread, ambiguous, a name reckon.toml does not
/// know) is not wrapped: a region around it would look checked and is not.
/// One that says something lint read but could not judge is wrapped all
/// the same. The notes returned say which, with where and why, for the
/// author.
pub(crate) fn to_wrap(findings: &[Finding], chosen: impl Fn(&Finding) -> bool) -> (Vec<&Finding>, Vec<String>) {
    let not_read = |f: &Finding| f.claim.is_none() && matches!(f.status, Status::Unjudged | Status::Ambiguous);
    let unread: Vec<&Finding> = findings.iter().filter(|f| not_read(f)).collect();
    let mut notes = Vec::new();
    let mut spans: Vec<&Range<usize>> = Vec::new();
    for f in findings.iter().filter(|f| chosen(f)) {
        if spans.contains(&&f.span) {
            continue;
        }
        match unread.iter().find(|u| u.span == f.span) {
            Some(u) => {
                if !notes.iter().any(|n: &String| n.starts_with(&format!("{}:{}: not wrapped", f.line, f.col))) {
                    notes.push(format!(
                        "{}:{}: not wrapped: lint could not read all of \"{}\": {}; write its claim region by hand",
                        f.line, f.col, f.sentence, u.summary
                    ));
                }
            }
            None => spans.push(&f.span),
        }
    }
    let judged = |f: &Finding| f.claim.is_some() && f.verdict.is_some() && f.as_of.is_none();
    let wrapped: Vec<&Finding> =
        findings.iter().filter(|f| spans.contains(&&f.span) && (chosen(f) || judged(f))).collect();
    notes.extend(
        findings.iter().filter(|f| spans.contains(&&f.span) && f.claim.is_some() && f.status == Status::Unjudged).map(
            |f| {
                format!(
                    "{}:{}: the claim region around \"{}\" does not check all it says: {}",
                    f.line, f.col, f.sentence, f.summary
                )
            },
        ),
    );
    (wrapped, notes)
}

/// The claim regions `--write` and `--suggest` make of the chosen findings
/// (those with a claim, outside tables): one per sentence, or per run of
/// lines holding several statements of one sentence.
pub(crate) fn wraps(text: &str, findings: &[&Finding]) -> Vec<Wrap> {
    let mut spans: Vec<Wrap> = findings
        .iter()
        .filter(|f| !f.in_table)
        .filter_map(|f| {
            let statement = f.claim.clone()?;
            let (start, end) = (line_of(text, f.span.start).start, line_of(text, f.span.end).end);
            let alone_before = structural(&text[start..f.span.start]);
            let alone_after = text[f.span.end..end].trim().is_empty();
            // Lines of their own only around a whole block: markers on lines
            // of their own inside a paragraph would cut it (a hard break
            // before them turns into a backslash, a setext heading's text
            // loses its underline).
            let block = &f.block_span;
            let block_end = text[..block.end.max(block.start)].trim_end_matches(['\n', '\r']).len().max(block.start);
            // A setext heading's text: its underline is wrapped with it.
            let underline = text.get(end..line_of(text, block_end).end).filter(|rest| {
                let line = rest.trim();
                !line.is_empty()
                    && !line.contains('\n')
                    && (line.chars().all(|c| c == '-') || line.chars().all(|c| c == '='))
            });
            let end = end + underline.map_or(0, str::len);
            let whole_block = start <= line_of(text, block.start).start && end >= line_of(text, block_end).end;
            // Markers on lines of their own sit at the left margin (after a
            // quote's `>`): around a list item, or a paragraph indented into
            // one, they would end the list there.
            let at_margin = text[start..f.span.start].chars().all(|c| c == '>' || c == ' ')
                && !text[start..f.span.start].starts_with(' ');
            if alone_before && alone_after && whole_block && at_margin {
                return Some(Wrap {
                    range: start..end,
                    inline: false,
                    opening: Opening::Before,
                    statement,
                    first_line: f.line,
                });
            }
            let range = with_emphasis(text, &f.span);
            let opening = opening(text, range.start, block.start);
            Some(Wrap { range, inline: true, opening, statement, first_line: f.line })
        })
        .collect();
    spans.sort_by_key(|w| w.range.start);
    let mut out: Vec<Wrap> = Vec::new();
    for w in spans {
        match out.last_mut() {
            Some(last) if w.range.start < last.range.end => {
                last.range.end = last.range.end.max(w.range.end);
                last.inline &= w.inline;
                if !last.statement.split(" and ").any(|c| c == w.statement) {
                    last.statement = format!("{} and {}", last.statement, w.statement);
                }
            }
            _ => out.push(w),
        }
    }
    out
}

/// A sentence's span grown over emphasis it opens or closes (`**Baseline
/// wins**, …`): a run of `*` or `_` right before it (or right after it)
/// that also occurs inside it, so the region does not cut the emphasis.
fn with_emphasis(text: &str, span: &Range<usize>) -> Range<usize> {
    let is_mark = |c: char| c == '*' || c == '_';
    let inner = &text[span.clone()];
    let before = text[..span.start].chars().rev().take_while(|c| is_mark(*c)).count();
    let after = text[span.end..].chars().take_while(|c| is_mark(*c)).count();
    let open = &text[span.start - before..span.start];
    let close = &text[span.end..span.end + after];
    let start = if before > 0 && inner.contains(open) { span.start - before } else { span.start };
    let end = if after > 0 && inner.contains(close) { span.end + after } else { span.end };
    start..end
}

/// The prefix a marker line needs to stay inside a blockquote.
fn quote_prefix(line: &str) -> String {
    let p: String = line.chars().take_while(|c| matches!(c, '>' | ' ')).collect();
    if p.contains('>') {
        p
    } else {
        String::new()
    }
}

/// The text with each wrap between claim markers (on lines of their own
/// around whole lines, inline around a sentence); ids are `lint-LINE`, made
/// unique against `taken`.
pub(crate) fn apply(text: &str, wraps: &[Wrap], taken: &BTreeSet<String>) -> String {
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = String::with_capacity(text.len() + wraps.len() * 120);
    let mut at = 0;
    let mut used = taken.clone();
    for w in wraps {
        let body = &text[w.range.clone()];
        let opens_at = w.first_byte().max(at);
        out.push_str(&text[at..opens_at]);
        let mut id = format!("lint-{}", w.first_line);
        let mut k = 2;
        while used.contains(&id) {
            id = format!("lint-{}-{k}", w.first_line);
            k += 1;
        }
        used.insert(id.clone());
        if w.inline {
            let open = format!("<!-- reckon:claim id={id} {} -->", w.statement);
            match w.opening {
                Opening::OwnLine(_) => {
                    // The line's own indentation and quote markers: inside a
                    // list item, a marker at the margin would end the list.
                    let _ = write!(out, "{}{open}{eol}", &text[opens_at..w.range.start]);
                }
                Opening::AfterMarker => {
                    // The next line continues the item: the marker's width
                    // in spaces, a quote's `>` kept.
                    let line = line_of(text, w.range.start);
                    let indent: String = text[line.start..w.range.start]
                        .chars()
                        .map(|c| if matches!(c, '>' | '\t') { c } else { ' ' })
                        .collect();
                    let _ = write!(out, "{open}{eol}{indent}");
                }
                Opening::Before | Opening::LineEnd(_) => out.push_str(&open),
            }
            out.push_str(&text[opens_at..w.range.start]);
            let _ = write!(out, "{body}<!-- /reckon:claim -->");
        } else {
            let prefix = quote_prefix(body);
            if prefix.is_empty() {
                let _ = write!(out, "<!-- reckon:claim id={id}{eol}     {} -->{eol}", w.statement);
            } else {
                // In a quote, on one line: a second line would start with the
                // quote's `>`, which the claim's statement cannot hold.
                let _ = write!(out, "{prefix}<!-- reckon:claim id={id} {} -->{eol}", w.statement);
            }
            out.push_str(body);
            if !body.ends_with('\n') {
                out.push_str(eol);
            }
            let _ = write!(out, "{prefix}<!-- /reckon:claim -->{eol}");
        }
        at = w.range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Ready-to-paste claim regions, one per wrap, each with the lines it
/// wraps (an inline region shown within its lines).
pub(crate) fn suggestions(path: &str, text: &str, wraps: &[Wrap], taken: &BTreeSet<String>) -> String {
    let mut out = String::new();
    for w in wraps {
        let _ = writeln!(out, "{path}:{}:", w.first_line);
        let start = line_of(text, w.first_byte()).start;
        let end = line_of(text, w.range.end).end;
        let opening = match w.opening {
            Opening::Before => Opening::Before,
            Opening::AfterMarker => Opening::AfterMarker,
            Opening::LineEnd(at) => Opening::LineEnd(at - start),
            Opening::OwnLine(at) => Opening::OwnLine(at - start),
        };
        let local = Wrap { range: w.range.start - start..w.range.end - start, opening, ..w.clone() };
        out.push_str(&apply(&text[start..end], &[local], taken));
        if !text[start..end].ends_with('\n') {
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(text: &str, sentence: &str, block: &str, claim: &str) -> Finding {
        let start = text.find(sentence).unwrap();
        let b = text.find(block).unwrap();
        let (line, col) = crate::doc::location(text, start);
        Finding {
            line,
            col,
            span: start..start + sentence.len(),
            sentence: sentence.into(),
            claim: Some(claim.into()),
            status: Status::Contradicted,
            verdict: None,
            summary: String::new(),
            confidence: 0.9,
            notes: Vec::new(),
            as_of: None,
            held_as_of: None,
            candidates: Vec::new(),
            in_table: false,
            block_span: b..b + block.len(),
            setup: None,
        }
    }

    #[test]
    fn wraps_keep_quotes_and_line_endings_and_leave_other_sentences_out() {
        let text = "> A is fast.\r\n> B is slow.\r\n\r\nFirst one. Second one\r\ngoes on.\r\n";
        let fs = [
            finding(text, "B is slow.", "A is fast.\r\n> B is slow.", "b < a on m"),
            finding(text, "Second one\r\ngoes on.", "First one. Second one\r\ngoes on.", "x beats y on m"),
        ];
        let chosen: Vec<&Finding> = fs.iter().collect();
        let w = wraps(text, &chosen);
        assert_eq!(w.len(), 2);
        let out = apply(text, &w, &BTreeSet::new());
        assert_eq!(
            out,
            concat!(
                // A sentence on a line of its own inside a paragraph is wrapped
                // inline, opened at the end of the line before: markers on
                // lines of their own would cut the quote's paragraph in two.
                "> A is fast.<!-- reckon:claim id=lint-2 b < a on m -->\r\n> B is slow.<!-- /reckon:claim -->\r\n\r\n",
                // A sentence sharing its lines is wrapped alone, inline: the
                // sentence beside it was not judged and stays out.
                "First one. <!-- reckon:claim id=lint-4 x beats y on m -->",
                "Second one\r\ngoes on.<!-- /reckon:claim -->\r\n"
            )
        );
        let doc = crate::doc::parse(std::path::Path::new("t.md"), &out).unwrap();
        assert_eq!(doc.regions.len(), 2);
        // Taken ids are not reused.
        let taken: BTreeSet<String> = ["lint-2".to_string()].into();
        assert!(apply(text, &w, &taken).contains("id=lint-2-2"));
    }

    /// `lint --write` in a block quote wrote the opening marker on two lines,
    /// the second starting with the quote's `>`, which the statement then
    /// held: the document no longer parsed (finding 25). A quoted sentence
    /// that is its whole paragraph is wrapped by markers on lines of their
    /// own, each in the quote and the opening one on one line; one that
    /// opens a paragraph going on is opened on a line of its own before it.
    #[test]
    fn finding_25_markers_in_a_block_quote_stay_in_it_on_one_line() {
        let text = "> A is fast.\n\n> B is slow.\n> The quote goes on.\n";
        let fs = [
            finding(text, "A is fast.", "A is fast.", "a > b on m"),
            finding(text, "B is slow.", "B is slow.\n> The quote goes on.", "b < a on m"),
        ];
        let chosen: Vec<&Finding> = fs.iter().collect();
        let out = apply(text, &wraps(text, &chosen), &BTreeSet::new());
        assert_eq!(
            out,
            concat!(
                "> <!-- reckon:claim id=lint-1 a > b on m -->\n> A is fast.\n> <!-- /reckon:claim -->\n\n",
                "> <!-- reckon:claim id=lint-3 b < a on m -->\n> B is slow.<!-- /reckon:claim -->\n",
                "> The quote goes on.\n"
            )
        );
        let doc = crate::doc::parse(std::path::Path::new("t.md"), &out).unwrap();
        let statements: Vec<&str> =
            doc.regions.iter().filter_map(|r| Some(r.statement.as_ref()?.text.as_str())).collect();
        assert_eq!(statements, ["a > b on m", "b < a on m"]);
        // The second's note goes after the quote, not inside its paragraph.
        assert_eq!(doc.regions[1].detached.as_ref().map(|d| d.at), Some(out.trim_end().len()));
    }

    /// Markers on lines of their own inside a paragraph cut it: a `\` hard
    /// break before them became a backslash, a setext heading's text lost
    /// its `---` underline (finding 26). The sentence is wrapped inline: its
    /// opening marker at the end of the line before (before the `\`), or on
    /// a line of its own before the block when it starts the block.
    #[test]
    fn finding_26_a_sentence_inside_a_paragraph_is_wrapped_inline() {
        let text = "A heading: x is fast\n---\n\nLine one.\\\nB is slow.\nLast line.  \nC wins.\n";
        // A setext heading's text is wrapped whole, its underline with it.
        let fs = [
            finding(text, "A heading: x is fast", "A heading: x is fast\n---", "x > y on m"),
            finding(text, "B is slow.", "Line one.\\\nB is slow.\nLast line.  \nC wins.", "b < a on m"),
            finding(text, "C wins.", "Line one.\\\nB is slow.\nLast line.  \nC wins.", "c beats a on m"),
        ];
        let chosen: Vec<&Finding> = fs.iter().collect();
        let out = apply(text, &wraps(text, &chosen), &BTreeSet::new());
        assert_eq!(
            out,
            concat!(
                "<!-- reckon:claim id=lint-1\n     x > y on m -->\n",
                "A heading: x is fast\n---\n<!-- /reckon:claim -->\n\n",
                "Line one.<!-- reckon:claim id=lint-5 b < a on m -->\\\nB is slow.<!-- /reckon:claim -->\n",
                "Last line.<!-- reckon:claim id=lint-7 c beats a on m -->  \nC wins.<!-- /reckon:claim -->\n"
            )
        );
        let doc = crate::doc::parse(std::path::Path::new("t.md"), &out).unwrap();
        assert_eq!(doc.regions.len(), 3);
        let inline: Vec<bool> = doc.regions.iter().map(|r| r.detached.is_some()).collect();
        assert_eq!(inline, [false, true, true]);
        // A sentence opening a paragraph that goes on is opened on a line of
        // its own before it.
        let text = "B is slow.\nThe paragraph goes on.\n";
        let fs = [finding(text, "B is slow.", text.trim_end(), "b < a on m")];
        let out = apply(text, &wraps(text, &fs.iter().collect::<Vec<_>>()), &BTreeSet::new());
        assert_eq!(
            out,
            "<!-- reckon:claim id=lint-1 b < a on m -->\nB is slow.<!-- /reckon:claim -->\nThe paragraph goes on.\n"
        );
    }

    #[test]
    fn inline_wraps_keep_emphasis_whole_and_join_one_sentences_statements() {
        let text = "We ran it twice. **A beats B**, by 2x. Then we stopped.\n";
        let sentence = "A beats B**, by 2x.";
        let fs = [
            finding(text, sentence, text.trim_end(), "a beats b on m"),
            finding(text, sentence, text, "a / b on m ≈ 2"),
        ];
        let chosen: Vec<&Finding> = fs.iter().collect();
        let out = apply(text, &wraps(text, &chosen), &BTreeSet::new());
        assert_eq!(
            out,
            "We ran it twice. <!-- reckon:claim id=lint-1 a beats b on m and a / b on m ≈ 2 -->**A beats B**, by 2x.\
             <!-- /reckon:claim --> Then we stopped.\n"
        );
    }

    #[test]
    fn a_wrapped_sentence_takes_its_other_judged_statements_and_says_what_it_cannot_check() {
        let text = "A beats B, C holds at 3, and D is slower. E beats F. G beats H within 9%.\n";
        let sentence = "A beats B, C holds at 3, and D is slower.";
        let mut holds = finding(text, sentence, text, "c on m at p = 3 ≈ 1");
        (holds.status, holds.verdict) = (Status::Holds, Some(crate::claims::Verdict::Holds));
        // Read, but not judged (no point): the region is written, and said.
        let mut pointless = finding(text, sentence, text, "d > c on m");
        (pointless.status, pointless.summary) = (Status::Unjudged, "say at which point".into());
        let mut elsewhere = finding(text, "E beats F.", text, "e beats f on m");
        (elsewhere.status, elsewhere.verdict) = (Status::Holds, Some(crate::claims::Verdict::Holds));
        // A sentence lint could not read all of: not wrapped, and said.
        let partly = "G beats H within 9%.";
        let mut unread = finding(text, partly, text, "");
        (unread.status, unread.claim, unread.summary) = (Status::Unjudged, None, "unread: `within`".into());
        let fs = [
            finding(text, sentence, text, "a beats b on m"),
            holds,
            pointless,
            elsewhere,
            finding(text, partly, text, "g beats h on m"),
            unread,
        ];
        let (wrapped, notes) = to_wrap(&fs, |f| f.status.is_problem());
        let claims: Vec<&str> = wrapped.iter().filter_map(|f| f.claim.as_deref()).collect();
        assert_eq!(claims, ["a beats b on m", "c on m at p = 3 ≈ 1"]);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0].contains(": not wrapped: lint could not read all of \"G beats H") && notes[0].contains("`within`")
        );
        assert!(notes[1].starts_with("1:1: the claim region around") && notes[1].ends_with("say at which point"));
    }
}
