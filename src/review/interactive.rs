//! `reckon review`: the changes `update --write` would make, one at a time
//! (each regenerated region, each claim status note added or removed, each
//! plot whose data moved), each with its diff, to accept, reject or skip.
//! Accepted changes are written at the end, atomically, as `update --write`
//! writes; a rejected or skipped region keeps its old content and digest,
//! so `check` keeps reporting it. Quitting writes nothing unless confirmed.
//!
//! The loop reads answers from any [`Answers`] — whole lines from a reader
//! ([`Lines`]: a pipe, a test), or single keys from a terminal (the CLI's,
//! as insta reads them; Enter after a key is taken as the end of its line)
//! — and writes to any writer, so it is tested without a terminal.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::Path;

use similar::{ChangeTag, TextDiff};

use crate::doc::{self, Kind};
use crate::render::plot;
use crate::review::document::DocReview;
use crate::review::sentence::{self, InText, Markers};
use crate::{Error, Result};

/// What one change touches.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A region of the document (its index among the document's regions).
    Region(usize),
    /// A plot file (its index in the review's changed files).
    Plot(usize),
}

/// One change to decide on.
#[derive(Debug, Clone)]
pub struct Change {
    /// Index of the document among the reviews.
    pub doc: usize,
    pub target: Target,
    /// The line of the region (for a plot file, of the region drawing it).
    pub line: usize,
    /// "notebooks/plan.md:41 table region", with what changes.
    pub title: String,
    pub old: String,
    pub new: String,
    /// The sentence or table row a region written inside one sits in,
    /// shown around its old and new content.
    pub in_text: Option<InText>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Accept,
    Reject,
    Skip,
}

/// How the session ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// One decision per change (undecided ones after a quit are skips).
    pub decisions: Vec<Decision>,
    /// Whether to write the accepted changes.
    pub write: bool,
}

/// Every change the reviews hold, in document order.
pub fn changes(reviews: &[DocReview], shown: &dyn Fn(&Path) -> String) -> Result<Vec<Change>> {
    let mut all = Vec::new();
    for (d, r) in reviews.iter().enumerate() {
        let mut out = Vec::new();
        let parsed = doc::parse(&r.path, &r.text)?;
        let markers = Markers::of(&parsed);
        let path = r.path.display().to_string();
        for (i, region) in parsed.regions.iter().enumerate() {
            let Some((_, replacement)) = r.replacements.iter().find(|(j, _)| *j == i) else { continue };
            let Some(new) = parsed.content_for(&r.text, i, replacement) else { continue };
            let old = region.content(&r.text);
            if new == old && !region.edited_by_hand() {
                continue;
            }
            let what = if region.kind == Kind::Claim {
                let id = region.claim().map_or("", |c| c.id.value.as_str());
                let had = region.status_note(&r.text).is_some();
                let will = !replacement.trim().is_empty();
                match (had, will) {
                    (false, true) => format!("claim `{id}`: status note added"),
                    (true, false) => format!("claim `{id}`: status note removed"),
                    _ => format!("claim `{id}`: status note changed"),
                }
            } else {
                format!("{} region regenerated", region.kind.name())
            };
            let hand = if region.edited_by_hand() {
                " (edited by hand since reckon wrote it: accepting replaces the edit)"
            } else {
                ""
            };
            out.push(Change {
                doc: d,
                target: Target::Region(i),
                line: region.line,
                title: format!("{path}:{} {what}{hand}", region.line),
                in_text: if new.contains('\n') { None } else { sentence::around(&r.text, &markers, region) },
                old: old.to_string(),
                new,
            });
        }
        for (f, file) in r.files.iter().enumerate() {
            let old = file.old.as_deref().and_then(plot::data_of).unwrap_or("").to_string();
            let new = plot::data_of(&file.new).unwrap_or("").to_string();
            let what = if file.old.is_none() {
                "new plot"
            } else if old == new {
                "plot redrawn (same data)"
            } else {
                "plot data moved"
            };
            out.push(Change {
                doc: d,
                target: Target::Plot(f),
                line: file.line,
                title: format!("{path}:{} {what}: {}", file.line, shown(&file.path)),
                old,
                new,
                in_text: None,
            });
        }
        // A plot's data right after its region, everything in reading order.
        out.sort_by_key(|c| (c.line, matches!(c.target, Target::Plot(_))));
        all.extend(out);
    }
    Ok(all)
}

/// Shows `\r`, tabs and trailing spaces, for diffs where they are what changed.
fn visible(s: &str) -> String {
    let (body, eol) = match s.strip_suffix('\n') {
        Some(b) => (b, "↵\n"),
        None => (s, ""),
    };
    let (body, cr) = match body.strip_suffix('\r') {
        Some(b) => (b, "␍"),
        None => (body, ""),
    };
    let trimmed = body.trim_end_matches(' ');
    let trailing = "·".repeat(body.len() - trimmed.len());
    format!("{}{trailing}{cr}{eol}", trimmed.replace('\t', "→").replace('\r', "␍"))
}

/// A line diff of `old` → `new` with what changed inside each line
/// emphasized (underlined on a terminal, `[-…-]` / `{+…+}` without color),
/// and invisible characters shown when line endings or only whitespace
/// differ.
pub fn inline_diff(old: &str, new: &str, color: bool) -> String {
    let eol = |s: &str| (s.contains("\r\n"), s.ends_with('\n'));
    let invisibles = eol(old) != eol(new) || old.split_whitespace().eq(new.split_whitespace());
    let diff = TextDiff::configure()
        .algorithm(similar::Algorithm::Patience)
        .timeout(std::time::Duration::from_secs(2))
        .diff_lines(old, new);
    let style = |tag: ChangeTag| match tag {
        ChangeTag::Delete => console::Style::new().force_styling(true).red(),
        ChangeTag::Insert => console::Style::new().force_styling(true).green(),
        ChangeTag::Equal => console::Style::new().force_styling(true).dim(),
    };
    let mut out = String::new();
    for op in diff.ops() {
        for change in diff.iter_inline_changes(op) {
            let tag = change.tag();
            let sign = match tag {
                ChangeTag::Delete => "-",
                ChangeTag::Insert => "+",
                ChangeTag::Equal => " ",
            };
            let mut line = String::new();
            for (emphasized, value) in change.iter_strings_lossy() {
                let text = if invisibles { visible(&value) } else { value.to_string() };
                // Document text reaches the terminal: controls shown.
                let text = crate::escape::terminal_lines(text.strip_suffix('\n').unwrap_or(&text));
                let _ = match (emphasized, color, tag) {
                    (true, true, _) => write!(line, "{}", style(tag).underlined().bold().apply_to(&text)),
                    (true, false, ChangeTag::Delete) => write!(line, "[-{text}-]"),
                    (true, false, ChangeTag::Insert) => write!(line, "{{+{text}+}}"),
                    (false, true, _) => write!(line, "{}", style(tag).apply_to(&text)),
                    _ => write!(line, "{text}"),
                };
            }
            let sign = if color { style(tag).apply_to(sign).to_string() } else { sign.to_string() };
            let _ = writeln!(out, "{sign}{line}");
        }
    }
    out
}

const HELP: &str = "a accept · r reject (the region stays as it is) · s skip · A accept this and all the rest · q quit";

/// Where the answers come from.
pub trait Answers {
    /// The next answer, trimmed (empty: Enter alone); `None` at the end of
    /// the input.
    fn next(&mut self) -> Result<Option<String>>;

    /// Whether the loop writes the answer after its prompt: a key read
    /// from a terminal in raw mode is not echoed by the terminal, a line is.
    fn echoed_by_us(&self) -> bool {
        false
    }
}

/// Answers as whole lines of a reader (`a`, `accept`, …, each ended by Enter).
pub struct Lines<R>(pub R);

impl<R: BufRead> Answers for Lines<R> {
    fn next(&mut self) -> Result<Option<String>> {
        let mut line = String::new();
        let n = self.0.read_line(&mut line).map_err(|e| Error::io("<stdin>", e))?;
        Ok((n > 0).then(|| line.trim().to_string()))
    }
}

fn read_answer(input: &mut dyn Answers, out: &mut dyn Write) -> Result<Option<String>> {
    let answer = input.next()?;
    if input.echoed_by_us() {
        let shown = answer.as_deref().map_or(String::new(), crate::escape::terminal);
        writeln!(out, "{shown}").map_err(|e| Error::io("<stdout>", e))?;
    }
    Ok(answer)
}

/// Asks about each change; returns the decisions and whether to write.
pub fn ask(changes: &[Change], input: &mut dyn Answers, out: &mut dyn Write, color: bool) -> Result<Outcome> {
    let io = |e: std::io::Error| Error::io("<stdout>", e);
    let n = changes.len();
    let mut decisions = vec![Decision::Skip; n];
    let mut i = 0;
    let mut accept_rest = false;
    let bold = |s: &str| {
        if color {
            console::Style::new().force_styling(true).bold().apply_to(s).to_string()
        } else {
            s.to_string()
        }
    };
    while i < n {
        if accept_rest {
            decisions[i] = Decision::Accept;
            i += 1;
            continue;
        }
        let c = &changes[i];
        let diff = match &c.in_text {
            Some(at) => sentence::show(at, &c.old, &c.new, color),
            None => inline_diff(&c.old, &c.new, color),
        };
        write!(out, "\n{} {}\n{diff}", bold(&format!("[{}/{n}]", i + 1)), bold(&crate::escape::terminal(&c.title)))
            .map_err(io)?;
        loop {
            write!(out, "accept (a), reject (r), skip (s), accept all (A), quit (q)? ").map_err(io)?;
            out.flush().map_err(io)?;
            let answer = read_answer(input, out)?;
            match answer.as_deref() {
                Some("a" | "accept") => decisions[i] = Decision::Accept,
                Some("r" | "reject") => decisions[i] = Decision::Reject,
                Some("s" | "skip") => decisions[i] = Decision::Skip,
                Some("A" | "all" | "accept all") => {
                    decisions[i] = Decision::Accept;
                    accept_rest = true;
                }
                Some("q" | "quit") | None => {
                    let accepted = decisions.iter().filter(|d| **d == Decision::Accept).count();
                    if accepted == 0 {
                        writeln!(out, "\nquit: nothing accepted, nothing written").map_err(io)?;
                        return Ok(Outcome { decisions, write: false });
                    }
                    write!(out, "\nquit: write the {accepted} accepted change(s)? [y/N] ").map_err(io)?;
                    out.flush().map_err(io)?;
                    let yes = matches!(read_answer(input, out)?.as_deref(), Some("y" | "Y" | "yes"));
                    if !yes {
                        writeln!(out, "nothing written").map_err(io)?;
                    }
                    return Ok(Outcome { decisions, write: yes });
                }
                Some(_) => {
                    writeln!(out, "{HELP}").map_err(io)?;
                    continue;
                }
            }
            break;
        }
        i += 1;
    }
    Ok(Outcome { decisions, write: true })
}

/// Writes the accepted changes: each document with only its accepted
/// regions regenerated (atomically, refused if it changed since it was
/// read), then its accepted plots. Returns the number of changes written.
pub fn apply(reviews: &[DocReview], changes: &[Change], decisions: &[Decision], cwd: &Path) -> Result<usize> {
    let mut written = 0;
    for (d, r) in reviews.iter().enumerate() {
        let accepted: Vec<&Change> = changes
            .iter()
            .zip(decisions)
            .filter(|(c, dec)| c.doc == d && **dec == Decision::Accept)
            .map(|(c, _)| c)
            .collect();
        if accepted.is_empty() {
            continue;
        }
        let regions: Vec<usize> =
            accepted.iter().filter_map(|c| if let Target::Region(i) = c.target { Some(i) } else { None }).collect();
        if !regions.is_empty() {
            let parsed = doc::parse(&r.path, &r.text)?;
            let chosen: Vec<(usize, &str)> =
                r.replacements.iter().filter(|(i, _)| regions.contains(i)).map(|(i, s)| (*i, s.as_str())).collect();
            let text = parsed.splice(&r.text, &chosen);
            doc::write_atomic(&cwd.join(&r.path), &r.original, &text)?;
        }
        for c in &accepted {
            if let Target::Plot(f) = c.target {
                let file = &r.files[f];
                doc::write::write_generated(&file.path, &file.new)?;
            }
        }
        written += accepted.len();
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(old: &str, new: &str) -> Change {
        Change {
            doc: 0,
            target: Target::Region(0),
            line: 3,
            title: "plan.md:3 table region regenerated".into(),
            old: old.into(),
            new: new.into(),
            in_text: None,
        }
    }

    #[test]
    fn inline_diff_shows_controls() {
        for color in [false, true] {
            let d = inline_diff("a\n", "a \u{1b}]0;TITLE\u{7}\n", color);
            assert!(d.contains("\\x1b]0;TITLE\\x07"), "{d}");
            assert!(!d.contains('\u{7}') && !d.contains("\u{1b}]"), "{d}");
        }
    }

    #[test]
    fn inline_emphasis_marks_what_changed_within_a_line() {
        let d = inline_diff("| 30 | 641.8 | 329.5 |\n| 50 | 1 |\n", "| 30 | 689.4 | 329.5 |\n| 50 | 1 |\n", false);
        assert_eq!(d, "-| 30 | [-641.8-] | 329.5 |\n+| 30 | {+689.4+} | 329.5 |\n | 50 | 1 |\n");
        assert!(inline_diff("a 1\n", "a 2\n", true).contains("\u{1b}[4m"), "underlined on a terminal");
    }

    #[test]
    fn line_ending_changes_show_invisibles() {
        let d = inline_diff("x\r\ny\r\n", "x\ny\n", false);
        assert!(d.contains("x␍↵"), "{d}");
        assert!(d.contains("+x") && d.contains("↵"), "{d}");
        // Trailing spaces are shown when only whitespace differs.
        let d = inline_diff("a b\n", "a b  \n", false);
        assert!(d.contains("··"), "{d}");
        // An ordinary change shows no invisibles.
        assert!(!inline_diff("a 1\n", "a 2\n", false).contains('↵'));
    }

    fn run(answers: &str, n: usize) -> (Outcome, String) {
        let changes: Vec<Change> = (0..n).map(|i| change(&format!("old {i}\n"), &format!("new {i}\n"))).collect();
        let mut out = Vec::new();
        let outcome = ask(&changes, &mut Lines(answers.as_bytes()), &mut out, false).unwrap();
        (outcome, String::from_utf8(out).unwrap())
    }

    #[test]
    fn each_answer_decides_one_change() {
        let (o, out) = run("a\nr\ns\n", 3);
        assert_eq!(o.decisions, [Decision::Accept, Decision::Reject, Decision::Skip]);
        assert!(o.write);
        assert!(out.contains("[1/3] plan.md:3 table region regenerated") && out.contains("[3/3]"), "{out}");
    }

    #[test]
    fn accept_all_takes_the_rest_and_unknown_answers_get_help() {
        let (o, out) = run("x\nr\nA\n", 4);
        assert_eq!(o.decisions, [Decision::Reject, Decision::Accept, Decision::Accept, Decision::Accept]);
        assert!(out.contains(HELP), "{out}");
        assert!(!out.contains("[3/4]"), "not asked after accept all: {out}");
    }

    #[test]
    fn quit_writes_only_when_confirmed() {
        let (o, out) = run("a\nq\nn\n", 3);
        assert!(!o.write, "{out}");
        assert!(out.contains("write the 1 accepted change(s)? [y/N]") && out.contains("nothing written"), "{out}");
        let (o, _) = run("a\nq\ny\n", 3);
        assert!(o.write);
        assert_eq!(o.decisions, [Decision::Accept, Decision::Skip, Decision::Skip]);
        // End of input is a quit; with nothing accepted nothing is asked.
        let (o, out) = run("", 2);
        assert!(!o.write && out.contains("nothing accepted, nothing written"), "{out}");
    }
}
