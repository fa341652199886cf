//! Splicing: new region contents written between untouched slices of the
//! original text, with the closing marker recording a digest of what reckon
//! wrote so a later hand edit can be told apart.

use super::note::{self, continuation_prefix};
use super::{Document, Kind};

/// How many hex digits of the digest reckon writes in closing markers; any
/// prefix of 8 to 64 digits is accepted when reading.
const WRITTEN_DIGEST_LEN: usize = 12;

/// The blake3 digest (64 lowercase hex digits) of generated content. Line
/// endings are normalised to `\n` first, so a checkout that converts them
/// (git `autocrlf`) does not look like a hand edit.
pub fn digest(content: &str) -> String {
    let normalized = content.replace("\r\n", "\n");
    blake3::hash(normalized.as_bytes()).to_hex().to_string()
}

/// The part of a region's content that reckon generated and the digest
/// covers: all of it, except for claims, where only the status note is
/// reckon's (`None` when there is no note).
fn generated_part<'c>(kind: Kind, content: &'c str, prefix: &str) -> Option<&'c str> {
    if kind == Kind::Claim {
        note::split(content, prefix).note.map(|r| &content[r])
    } else {
        Some(content)
    }
}

/// Whether the generated part of a region no longer matches the digest its
/// closing marker recorded.
pub(crate) fn edited_by_hand(kind: Kind, content: &str, prefix: &str, recorded: Option<&str>) -> bool {
    let Some(recorded) = recorded else {
        return false;
    };
    match generated_part(kind, content, prefix) {
        Some(part) => !digest(part).starts_with(recorded),
        // The note reckon wrote was deleted.
        None => true,
    }
}

/// The closing marker for a region whose content is `content`.
fn closing_marker(kind: Kind, content: &str, prefix: &str) -> String {
    match generated_part(kind, content, prefix) {
        Some(part) => {
            let d = digest(part);
            format!("<!-- /reckon:{kind} digest={} -->", &d[..WRITTEN_DIGEST_LEN])
        }
        None => format!("<!-- /reckon:{kind} -->"),
    }
}

/// Block content: a line break after the opening marker, the generated
/// lines, and the closing marker on its own line.
fn block_content(generated: &str, eol: &str, prefix: &str) -> String {
    let generated = generated.replace("\r\n", "\n");
    let body = generated.trim_matches('\n');
    let mut out = String::with_capacity(body.len() + 2 * eol.len());
    out.push_str(eol);
    if !body.is_empty() {
        for line in body.split('\n') {
            if line.is_empty() {
                // A blank line must still carry `>` to stay in a quote.
                out.push_str(prefix.trim_end());
            } else {
                out.push_str(prefix);
                out.push_str(line);
            }
            out.push_str(eol);
        }
    }
    out.push_str(prefix);
    out
}

impl Document {
    /// The content [`Document::splice`] writes between the markers of region
    /// `index` for `replacement`, or `None` when there is no such region.
    /// Comparing it with [`Region::content`] tells whether the region is
    /// stale.
    ///
    /// - `value` (inline): the text on one line; line breaks inside become
    ///   spaces.
    /// - `table`, `plot`, `sql`, `template`: a line break, the generated
    ///   lines (indented like the opening marker when it is in a list item or
    ///   quote), and a line break before the closing marker.
    /// - `claim`: the author's text as it is, followed by the status note
    ///   `replacement` (see [`super::status_note`]; plain text becomes a
    ///   warning's body) or, when `replacement` is empty, no note.
    ///
    /// `replacement` may use `\n` or `\r\n`; the result uses the document's
    /// line ending.
    pub fn content_for(&self, text: &str, index: usize, replacement: &str) -> Option<String> {
        let region = self.regions.get(index)?;
        let eol = self.line_ending.as_str();
        let content = match region.kind {
            Kind::Value => {
                let one_line = replacement.replace("\r\n", "\n");
                one_line.trim_matches('\n').replace('\n', " ")
            }
            Kind::Claim => {
                let note = note::normalize_note(replacement);
                // The note lines continue whatever the claim sits in: a list
                // item's indent, or a quote's `>`.
                let indent = continuation_prefix(text, region.open.start);
                note::claim_content(region.content(text), note.as_deref(), eol, &indent)
            }
            Kind::Table | Kind::Plot | Kind::Sql | Kind::Template | Kind::Diff => {
                block_content(replacement, eol, &continuation_prefix(text, region.open.start))
            }
        };
        Some(content)
    }

    /// `text` (the text this document was parsed from) with the content of
    /// each region named in `replacements` (region index, new content as for
    /// [`Document::content_for`]) replaced and its closing marker rewritten
    /// with the new digest. Every other byte is kept: line endings, BOM,
    /// final newline or its absence. A region named twice gets the last
    /// replacement; an index with no region is ignored.
    ///
    /// Splicing the result again with the same replacements gives the same
    /// bytes.
    pub fn splice<S: AsRef<str>>(&self, text: &str, replacements: &[(usize, S)]) -> String {
        let mut chosen: Vec<Option<&str>> = vec![None; self.regions.len()];
        for (index, replacement) in replacements {
            debug_assert!(*index < self.regions.len(), "splice: no region {index}");
            if let Some(slot) = chosen.get_mut(*index) {
                *slot = Some(replacement.as_ref());
            }
        }
        if chosen.iter().all(Option::is_none) {
            return text.to_string();
        }
        // Each region is one or two edits of the text, never overlapping: a
        // claim's edit starts after its author's words (which may hold a
        // value region), an inline claim's note lies after its block.
        let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        for (index, (region, replacement)) in self.regions.iter().zip(&chosen).enumerate() {
            let Some(replacement) = replacement else {
                continue;
            };
            let prefix = continuation_prefix(text, region.open.start);
            match (region.kind, &region.detached) {
                (Kind::Claim, Some(detached)) => {
                    let note = Self::detached_note_for(region, replacement);
                    let close = match &note {
                        Some(n) => format!("<!-- /reckon:claim digest={} -->", &digest(n)[..WRITTEN_DIGEST_LEN]),
                        None => "<!-- /reckon:claim -->".to_string(),
                    };
                    edits.push((region.close.clone(), close));
                    let eol = self.line_ending.as_str();
                    let written = note.map(|n| format!("{eol}{eol}{}", n.replace('\n', eol))).unwrap_or_default();
                    match &detached.note {
                        Some(range) => edits.push((range.clone(), written)),
                        None if !written.is_empty() => edits.push((detached.at..detached.at, written)),
                        None => {}
                    }
                }
                (Kind::Claim, None) => {
                    let Some(content) = self.content_for(text, index, replacement) else { continue };
                    let author_end = note::split(region.content(text), &prefix).author_end;
                    let start = region.content.start + author_end;
                    let tail = content.get(author_end..).unwrap_or_default();
                    edits.push((
                        start..region.close.end,
                        format!("{tail}{}", closing_marker(region.kind, &content, &prefix)),
                    ));
                }
                _ => {
                    let Some(content) = self.content_for(text, index, replacement) else { continue };
                    edits.push((
                        region.content.start..region.close.end,
                        closing_marker_after(region.kind, &content, &prefix),
                    ));
                }
            }
        }
        edits.sort_by_key(|(range, _)| range.start);
        let mut out = String::with_capacity(text.len() + 256);
        let mut pos = 0;
        for (range, new) in edits {
            if range.start < pos {
                continue; // cannot happen: edits never overlap
            }
            out.push_str(&text[pos..range.start]);
            out.push_str(&new);
            pos = range.end;
        }
        out.push_str(&text[pos..]);
        out
    }

    /// The note an inline claim gets for `replacement` (see
    /// [`Document::content_for`]), naming its claim.
    fn detached_note_for(region: &super::Region, replacement: &str) -> Option<String> {
        let id = region.claim().map_or("", |c| c.id.value.as_str());
        note::normalize_note(replacement).map(|n| note::detached_note(&n, id))
    }

    /// Whether splicing `replacement` into region `index` changes the
    /// document: its content, or an inline claim's note after its block.
    pub fn changes(&self, text: &str, index: usize, replacement: &str) -> bool {
        let Some(region) = self.regions.get(index) else { return false };
        if region.kind == Kind::Claim && region.detached.is_some() {
            let new = Self::detached_note_for(region, replacement).map(|n| n.replace("\r\n", "\n"));
            let old = region.status_note(text).map(|n| n.replace("\r\n", "\n"));
            return new != old;
        }
        self.content_for(text, index, replacement).as_deref() != Some(region.content(text))
    }
}

/// The new content followed by its closing marker.
fn closing_marker_after(kind: Kind, content: &str, prefix: &str) -> String {
    format!("{content}{}", closing_marker(kind, content, prefix))
}

#[cfg(test)]
mod tests {
    use super::super::{parse, status_note, Alert};
    use super::*;
    use std::path::Path;

    fn splice_one(text: &str, index: usize, content: &str) -> String {
        let doc = parse(Path::new("t.md"), text).expect("parses");
        doc.splice(text, &[(index, content)])
    }

    #[test]
    fn a_claim_in_a_quote_keeps_its_note_inside_the_quote() {
        let text = "> <!-- reckon:claim id=q a beats b on m -->\n> Baseline wins.\n> <!-- /reckon:claim -->\n";
        let note = status_note(Alert::Warning, "contradicted");
        let out = splice_one(text, 0, &note);
        let expected_start = "> <!-- reckon:claim id=q a beats b on m -->\n> Baseline wins.\n>\n> > [!WARNING]\n\
                              > > **reckon:** contradicted\n> <!-- /reckon:claim digest=";
        assert!(out.starts_with(expected_start), "{out}");
        // Every line stays in the quote, and removing the note restores the text.
        assert!(out.lines().all(|l| l.starts_with('>')), "{out}");
        assert_eq!(splice_one(&out, 0, ""), text);
    }

    #[test]
    fn digest_ignores_line_ending_style() {
        assert_eq!(digest("a\r\nb\r\n"), digest("a\nb\n"));
        assert_eq!(digest("").len(), 64);
    }

    #[test]
    fn block_region_gets_its_own_lines_and_a_digest() {
        let text = "<!-- reckon:table m=x -->\nold\n<!-- /reckon:table -->\nafter\n";
        let out = splice_one(text, 0, "| a |\n|---|\n");
        let d = &digest("\n| a |\n|---|\n")[..12];
        assert_eq!(out, format!("<!-- reckon:table m=x -->\n| a |\n|---|\n<!-- /reckon:table digest={d} -->\nafter\n"));
    }

    #[test]
    fn block_region_in_a_list_item_and_a_quote_stays_inside() {
        let text = "- item\n  <!-- reckon:table -->\n  <!-- /reckon:table -->\n";
        let out = splice_one(text, 0, "| a |\n");
        assert!(out.starts_with("- item\n  <!-- reckon:table -->\n  | a |\n  <!-- /reckon:table digest="));

        let text = "> <!-- reckon:sql q=1 -->\n> <!-- /reckon:sql -->\n";
        let out = splice_one(text, 0, "a\n\nb");
        assert!(out.starts_with("> <!-- reckon:sql q=1 -->\n> a\n>\n> b\n> <!-- /reckon:sql digest="), "{out}");
    }

    #[test]
    fn inline_value_stays_on_its_line() {
        let text = "reaches <!-- reckon:value m=x -->1<!-- /reckon:value --> tok/s\n";
        let out = splice_one(text, 0, "759.3\n");
        let d = &digest("759.3")[..12];
        assert_eq!(out, format!("reaches <!-- reckon:value m=x -->759.3<!-- /reckon:value digest={d} --> tok/s\n"));
        assert_eq!(
            splice_one(text, 0, "a\nb").lines().next(),
            Some(
                format!(
                    "reaches <!-- reckon:value m=x -->a b<!-- /reckon:value digest={} --> tok/s",
                    &digest("a b")[..12]
                )
                .as_str()
            )
        );
    }

    #[test]
    fn claim_note_is_added_digested_and_removed() {
        let text = "<!-- reckon:claim id=c a beats b on m -->\n- a wins.\n<!-- /reckon:claim -->\n";
        let note = status_note(Alert::Warning, "contradicted");
        let with = splice_one(text, 0, &note);
        let d = &digest(&note)[..12];
        assert_eq!(
            with,
            format!(
                "<!-- reckon:claim id=c a beats b on m -->\n- a wins.\n\n{note}\n<!-- /reckon:claim digest={d} -->\n"
            )
        );
        let doc = parse(Path::new("t.md"), &with).unwrap();
        assert!(!doc.regions[0].edited_by_hand());
        assert_eq!(doc.regions[0].author_text(&with), "\n- a wins.\n");
        assert_eq!(doc.regions[0].status_note(&with), Some(note.as_str()));
        assert_eq!(doc.splice(&with, &[(0, "")]), text);
    }

    #[test]
    fn no_replacement_returns_the_text() {
        let text = "<!-- reckon:value -->1<!-- /reckon:value -->";
        let doc = parse(Path::new("t.md"), text).unwrap();
        assert_eq!(doc.splice::<&str>(text, &[]), text);
        let out = doc.splice(text, &[(0, "2"), (0, "3")]);
        assert!(out.starts_with("<!-- reckon:value -->3<!-- /reckon:value digest="), "{out}");
    }
}
