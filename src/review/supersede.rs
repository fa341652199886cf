//! Superseding an overturned claim: the author's words stay, the region is
//! marked with the date the data overturned it, and a comment after it
//! leaves room for the new conclusion. Also finds the superseded claims
//! nothing has replaced yet (`reckon check` reports them).

use std::path::Path;

use crate::doc::{self, Document};

/// The start of the comment [`mark`] leaves where the new conclusion goes;
/// a superseded claim counts as unreplaced while it is still there.
pub const PLACEHOLDER: &str = "The conclusion above was superseded";

/// `text` with the claim region `doc.regions[index]` marked `superseded=DATE`
/// and, after it, a comment saying where the new conclusion goes. Only the
/// region's opening marker gains the mark; every other byte is kept.
pub fn mark(text: &str, doc: &Document, index: usize, date: &str) -> String {
    let Some(region) = doc.regions.get(index) else { return text.to_string() };
    let id_end = region.claim().map_or(region.open.start, |c| c.id.span.end);
    let eol = doc.line_ending.as_str();
    // In a list item or quote the comment continues it, so the list is not
    // cut; after an inline claim it goes after the enclosing block and the
    // notes there, as the claim's note does.
    let (room_at, prefix) = match &region.detached {
        Some(d) => (d.at, String::new()),
        None => (region.close.end, region.continuation_prefix(text)),
    };
    let room = format!(
        "{eol}{}{eol}{prefix}<!-- {PLACEHOLDER} on {date}. \
         Write the new one here, stated in a claim region so reckon keeps checking it. -->",
        prefix.trim_end()
    );
    let mut marked = String::with_capacity(text.len() + room.len() + 32);
    marked.push_str(&text[..id_end]);
    marked.push_str(" superseded=");
    marked.push_str(date);
    marked.push_str(&text[id_end..room_at]);
    marked.push_str(&room);
    marked.push_str(&text[room_at..]);
    marked
}

/// A superseded claim that no new conclusion replaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreplaced {
    pub line: usize,
    pub id: String,
    /// The date it was superseded on.
    pub date: String,
}

/// Superseded claims that nothing replaced: the comment [`mark`] leaves for
/// the new conclusion is still there, or the next region before the next
/// heading is not a current claim. The overturned conclusion was kept as
/// history, but that part of the plan is no longer checked.
pub fn unreplaced(text: &str) -> Vec<Unreplaced> {
    let Ok(parsed) = doc::parse(Path::new(""), text) else { return Vec::new() };
    let headings: Vec<usize> = pulldown_cmark::Parser::new(text)
        .into_offset_iter()
        .filter_map(|(e, range)| {
            matches!(e, pulldown_cmark::Event::Start(pulldown_cmark::Tag::Heading { .. })).then_some(range.start)
        })
        .collect();
    let mut out = Vec::new();
    for (i, c) in parsed.regions.iter().enumerate() {
        let Some(date) = c.claim().and_then(|s| s.superseded.as_ref()) else { continue };
        let section_end = headings.iter().copied().find(|h| *h > c.close.end).unwrap_or(text.len());
        let next = parsed.regions.get(i + 1).filter(|n| n.open.start < section_end);
        let until = next.map_or(section_end, |n| n.open.start);
        let placeholder = text[c.close.end..until].contains(PLACEHOLDER);
        let replaced = !placeholder && next.is_some_and(|n| n.claim().is_some_and(|s| s.superseded.is_none()));
        if !replaced {
            let id = c.claim().map(|s| s.id.value.clone()).unwrap_or_default();
            out.push(Unreplaced { line: c.line, id, date: date.value.clone() });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Kind;

    fn claim_doc(text: &str) -> (Document, usize) {
        let d = doc::parse(Path::new("plan.md"), text).unwrap();
        let i = d.regions.iter().position(|r| r.kind == Kind::Claim).unwrap();
        (d, i)
    }

    #[test]
    fn marking_keeps_every_byte_and_leaves_room_after_the_region() {
        let text = "# Plan\r\n\r\n<!-- reckon:claim id=fast a beats b on m -->\r\nA wins.\r\n\
                    <!-- /reckon:claim -->\r\n\r\ntail\r\n";
        let (d, i) = claim_doc(text);
        let marked = mark(text, &d, i, "2026-11-20");
        let head = "# Plan\r\n\r\n<!-- reckon:claim id=fast superseded=2026-11-20 a beats b on m -->\r\nA wins.\r\n";
        assert!(marked.starts_with(head), "{marked}");
        let tail = "<!-- /reckon:claim -->\r\n\r\n<!-- The conclusion above was superseded on 2026-11-20. \
                    Write the new one here, stated in a claim region so reckon keeps checking it. -->\r\n\r\ntail\r\n";
        assert!(marked.ends_with(tail), "{marked}");
        // The mark reads back as a superseded claim nothing replaces yet.
        assert_eq!(unreplaced(&marked), [Unreplaced { line: 3, id: "fast".into(), date: "2026-11-20".into() }]);
    }

    #[test]
    fn in_a_list_the_room_continues_the_item() {
        let text = "- <!-- reckon:claim id=x a beats b on m -->\n  A wins.\n  <!-- /reckon:claim -->\n- next\n";
        let (d, i) = claim_doc(text);
        let marked = mark(text, &d, i, "2026-01-02");
        let room = "<!-- /reckon:claim -->\n\n  <!-- The conclusion above was superseded on 2026-01-02.";
        assert!(marked.contains(room), "{marked}");
        assert!(marked.ends_with("-->\n- next\n"), "{marked}");
    }

    #[test]
    fn only_a_current_claim_after_it_replaces_it() {
        let old =
            "<!-- reckon:claim id=old superseded=2026-01-02 a beats b on m -->\nA wins.\n<!-- /reckon:claim -->\n\n";
        let new = "<!-- reckon:claim id=new b beats a on m -->\nB wins.\n<!-- /reckon:claim -->\n";
        assert_eq!(unreplaced(&format!("{old}{new}")), []);
        // A heading between them: the new claim is about something else.
        assert_eq!(unreplaced(&format!("{old}# Next\n\n{new}")).len(), 1);
        let also_superseded = new.replace("id=new", "id=new superseded=2026-02-03");
        let ids: Vec<String> = unreplaced(&format!("{old}{also_superseded}")).into_iter().map(|u| u.id).collect();
        assert_eq!(ids, ["old", "new"]);
    }
}
