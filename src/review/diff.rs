//! The review diff: a unified diff of a document before and after
//! regeneration (patience algorithm), coloured when the caller says so (the
//! CLI decides from the terminal and `NO_COLOR`; the library reads no environment).

use similar::{ChangeTag, TextDiff};

/// A unified diff of `old` → `new` with 3 lines of context, `a/`/`b/`
/// headers naming `path`; empty when nothing changed.
pub fn unified(path: &str, old: &str, new: &str, color: bool) -> String {
    if old == new {
        return String::new();
    }
    let diff = TextDiff::configure()
        .algorithm(similar::Algorithm::Patience)
        .timeout(std::time::Duration::from_secs(2))
        .diff_lines(old, new);
    let mut out = String::new();
    let paint = |s: &str, style: console::Style| if color { style.apply_to(s).to_string() } else { s.to_string() };
    // Document text and generated values reach a terminal or a CI log:
    // every control character written visibly, before any colour.
    let path = crate::escape::terminal(path);
    out.push_str(&paint(&format!("--- a/{path}\n+++ b/{path}\n"), console::Style::new().force_styling(true).bold()));
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        out.push_str(&paint(&format!("{}\n", hunk.header()), console::Style::new().force_styling(true).cyan()));
        for change in hunk.iter_changes() {
            let (sign, style) = match change.tag() {
                ChangeTag::Delete => ("-", console::Style::new().force_styling(true).red()),
                ChangeTag::Insert => ("+", console::Style::new().force_styling(true).green()),
                ChangeTag::Equal => (" ", console::Style::new().force_styling(true)),
            };
            let value = change.value();
            let missing_newline = !value.ends_with('\n');
            let body = value.strip_suffix('\n').unwrap_or(value);
            let body = body.strip_suffix('\r').unwrap_or(body);
            let line = format!("{sign}{}\n", crate::escape::terminal_lines(body));
            out.push_str(&if change.tag() == ChangeTag::Equal { line } else { paint(&line, style) });
            if missing_newline {
                out.push_str("\\ No newline at end of file\n");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_change_no_diff() {
        assert_eq!(unified("a.md", "x\n", "x\n", false), "");
    }

    #[test]
    fn plain_diff_has_headers_hunks_and_signs() {
        let old = "# Plan\n\n| c | v |\n| 1 | 92.7 |\n\ntail\n";
        let new = "# Plan\n\n| c | v |\n| 1 | 96.4 |\n\ntail\n";
        let d = unified("notebooks/plan.md", old, new, false);
        assert_eq!(
            d,
            "--- a/notebooks/plan.md\n+++ b/notebooks/plan.md\n@@ -1,6 +1,6 @@\n\
             \x20# Plan\n \n | c | v |\n-| 1 | 92.7 |\n+| 1 | 96.4 |\n \n tail\n"
        );
        assert!(!d.contains('\u{1b}'), "no escape codes without color");
        assert!(unified("p.md", old, new, true).contains('\u{1b}'));
    }

    #[test]
    fn document_text_shows_its_controls_and_starts_no_workflow_command() {
        let d = unified("p.md", "a\n", "a\n::error::x\u{1b}[2J\tb\r\n", false);
        assert!(d.contains("\n+\\x3a:error::x\\x1b[2J\tb\n"), "{d}");
        assert!(!d.contains('\u{1b}') && !d.contains('\r'), "{d}");
    }

    #[test]
    fn missing_final_newline_is_marked() {
        let d = unified("p.md", "a\nb", "a\nc", false);
        assert!(d.contains("-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"), "{d}");
    }
}
