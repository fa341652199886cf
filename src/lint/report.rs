//! Lint findings for people (human), programs (JSON) and GitHub Actions
//! (workflow annotations); claim regions to paste (`--suggest`) or to wrap
//! around the author's lines (`--write`).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::json;

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

/// The human report of one document.
pub fn human(path: &str, findings: &[Finding], sel: Selection) -> String {
    let mut out = String::new();
    for f in findings.iter().filter(|f| sel.shows(f)) {
        let _ = writeln!(out, "{path}:{}:{}: {}", f.line, f.col, headline(f));
        let _ = writeln!(out, "  prose: {}", f.sentence);
        if let Some(c) = &f.claim {
            let _ = writeln!(out, "  read as: {c}");
        }
        let mut how = format!("  confidence {:.2}", f.confidence);
        if !f.notes.is_empty() {
            let _ = write!(how, " ({})", f.notes.join("; "));
        }
        let _ = writeln!(out, "{how}");
    }
    out
}

/// One JSON object per finding.
pub fn json_items(path: &str, findings: &[Finding], sel: Selection) -> Vec<serde_json::Value> {
    findings
        .iter()
        .filter(|f| sel.shows(f))
        .map(|f| {
            json!({
                "path": path, "line": f.line, "col": f.col, "sentence": f.sentence, "claim": f.claim,
                "status": f.status, "verdict": f.verdict, "summary": f.summary, "confidence": f.confidence,
                "notes": f.notes, "as_of": f.as_of, "held_as_of": f.held_as_of, "candidates": f.candidates,
                "in_table": f.in_table, "problem": sel.fails(f),
            })
        })
        .collect()
}

/// GitHub workflow annotations: problems as errors (or warnings), the rest
/// shown as notices.
pub fn github(path: &str, findings: &[Finding], sel: Selection, problem_level: &str) -> String {
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
            gh_property(path),
            f.line,
            f.col,
            gh_escape(&msg)
        );
    }
    out
}

/// Escapes a workflow command's message (GitHub Actions: %, CR, LF).
pub fn gh_escape(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a workflow command's property value (also `:` and `,`).
pub fn gh_property(s: &str) -> String {
    gh_escape(s).replace(':', "%3A").replace(',', "%2C")
}

/// A group of findings wrapped by one claim region: the whole lines they
/// sit on, and their claims joined by `and`.
#[derive(Debug, Clone)]
pub struct Wrap {
    /// Byte range of the lines (from a line start to after its line break).
    pub lines: std::ops::Range<usize>,
    pub statement: String,
    pub first_line: usize,
}

/// The claim regions `--write` and `--suggest` make of the chosen findings
/// (those with a claim, outside tables), one per run of lines; lines that
/// hold several statements get one region whose claim joins them.
pub fn wraps(text: &str, findings: &[&Finding]) -> Vec<Wrap> {
    let mut spans: Vec<(std::ops::Range<usize>, String, usize)> = findings
        .iter()
        .filter(|f| !f.in_table)
        .filter_map(|f| {
            let claim = f.claim.clone()?;
            let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
            let line_end = |at: usize| text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
            // A sentence on lines of its own is wrapped alone; one sharing a
            // line with other prose takes its whole paragraph or list item,
            // so no paragraph is cut in two.
            let (start, end) = (line_start(f.span.start), line_end(f.span.end));
            let alone_before = text[start..f.span.start].chars().all(|c| " \t>-*+.)".contains(c) || c.is_ascii_digit());
            let alone_after = text[f.span.end..end].trim().is_empty();
            let lines = if alone_before && alone_after {
                start..end
            } else {
                line_start(f.block_span.start)..line_end(f.block_span.end.saturating_sub(1).max(f.block_span.start))
            };
            Some((lines, claim, f.line))
        })
        .collect();
    spans.sort_by_key(|(r, _, _)| r.start);
    let mut out: Vec<Wrap> = Vec::new();
    for (r, claim, line) in spans {
        match out.last_mut() {
            Some(w) if r.start < w.lines.end => {
                w.lines.end = w.lines.end.max(r.end);
                if !w.statement.split(" and ").any(|c| c == claim) {
                    w.statement = format!("{} and {claim}", w.statement);
                }
            }
            _ => out.push(Wrap { lines: r, statement: claim, first_line: line }),
        }
    }
    out
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

/// The text with each wrap's lines between claim markers; ids are
/// `lint-LINE`, made unique against `taken`.
pub fn apply(text: &str, wraps: &[Wrap], taken: &BTreeSet<String>) -> String {
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = String::with_capacity(text.len() + wraps.len() * 120);
    let mut at = 0;
    let mut used = taken.clone();
    for w in wraps {
        out.push_str(&text[at..w.lines.start]);
        let body = &text[w.lines.clone()];
        let prefix = quote_prefix(body);
        let mut id = format!("lint-{}", w.first_line);
        let mut k = 2;
        while used.contains(&id) {
            id = format!("lint-{}-{k}", w.first_line);
            k += 1;
        }
        used.insert(id.clone());
        let _ = write!(out, "{prefix}<!-- reckon:claim id={id}{eol}{prefix}     {} -->{eol}", w.statement);
        out.push_str(body);
        if !body.ends_with('\n') {
            out.push_str(eol);
        }
        let _ = write!(out, "{prefix}<!-- /reckon:claim -->{eol}");
        at = w.lines.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Ready-to-paste claim regions, one per wrap, each with the lines it
/// wraps.
pub fn suggestions(path: &str, text: &str, wraps: &[Wrap], taken: &BTreeSet<String>) -> String {
    let mut out = String::new();
    for w in wraps {
        let _ = writeln!(out, "{path}:{}:", w.first_line);
        out.push_str(&apply(&text[w.lines.clone()], &[Wrap { lines: 0..w.lines.len(), ..w.clone() }], taken));
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
        }
    }

    #[test]
    fn wraps_keep_quotes_line_endings_and_paragraphs_whole() {
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
                "> A is fast.\r\n> <!-- reckon:claim id=lint-2\r\n>      b < a on m -->\r\n> B is slow.\r\n",
                "> <!-- /reckon:claim -->\r\n\r\n<!-- reckon:claim id=lint-4\r\n     x beats y on m -->\r\n",
                "First one. Second one\r\ngoes on.\r\n<!-- /reckon:claim -->\r\n"
            )
        );
        crate::doc::parse(std::path::Path::new("t.md"), &out).unwrap();
        // Taken ids are not reused.
        let taken: BTreeSet<String> = ["lint-2".to_string()].into();
        assert!(apply(text, &w, &taken).contains("id=lint-2-2"));
    }
}
