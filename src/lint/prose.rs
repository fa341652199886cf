//! The prose of a markdown document as blocks (paragraphs, list items,
//! headings, table cells) and sentences, each mapped back to byte offsets
//! of the document. Code, HTML and reckon regions are not prose.

use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};

/// What kind of block a piece of prose is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BlockKind {
    Paragraph,
    ListItem,
    Heading(u8),
    /// A table cell: which table of the document, row (0 = header), column.
    TableCell {
        table: usize,
        row: usize,
        col: usize,
    },
}

#[derive(Debug, Clone, Copy)]
struct Seg {
    plain: usize,
    src: usize,
    src_end: usize,
    exact: bool,
}

/// A block of prose: its plain text and where each piece of it came from.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    pub kind: BlockKind,
    pub text: String,
    /// Each piece of `text`: where it starts in `text`, and the document
    /// range it came from; `exact` when the piece is written verbatim there
    /// (not a code span whose line break became a space, an entity, …).
    segs: Vec<Seg>,
    /// Byte range of the block in the document (a list item: from its marker).
    pub span: Range<usize>,
    /// Indices (into the block list) of the headings the block sits under,
    /// outermost first.
    pub headings: Vec<usize>,
}

impl Block {
    /// The document offset of byte `i` of the block's text.
    pub(crate) fn source_offset(&self, i: usize) -> usize {
        match self.seg_of(i) {
            Some(g) if g.exact => (g.src + (i - g.plain)).min(g.src_end),
            Some(g) => g.src,
            None => self.span.start,
        }
    }

    /// The document offset just after the text's bytes before `i` (an
    /// exclusive end; `i` > 0).
    pub(crate) fn source_end(&self, i: usize) -> usize {
        match self.seg_of(i.saturating_sub(1)) {
            Some(g) if g.exact => (g.src + (i - g.plain)).min(g.src_end),
            Some(g) => g.src_end,
            None => self.span.start,
        }
    }

    fn seg_of(&self, i: usize) -> Option<&Seg> {
        let k = self.segs.partition_point(|g| g.plain <= i);
        k.checked_sub(1).and_then(|k| self.segs.get(k))
    }
}

/// One sentence of a block.
#[derive(Debug, Clone)]
pub(crate) struct Sentence {
    pub block: usize,
    /// The sentence's range within its block's text.
    pub range: Range<usize>,
    /// Its byte range in the document.
    pub span: Range<usize>,
}

struct Open {
    kind: BlockKind,
    text: String,
    segs: Vec<Seg>,
    start: usize,
    end: usize,
}

impl Open {
    fn new(kind: BlockKind, range: Range<usize>) -> Open {
        Open { kind, text: String::new(), segs: Vec::new(), start: range.start, end: range.end }
    }

    fn push(&mut self, text: &str, src: std::ops::Range<usize>, exact: bool) {
        self.segs.push(Seg { plain: self.text.len(), src: src.start, src_end: src.end, exact });
        self.text.push_str(text);
        self.end = self.end.max(src.end);
    }
}

/// Closes a block: kept when it holds text, under the headings open at that
/// point (a heading closes the headings of its level and below).
fn flush(open: Open, out: &mut Vec<Block>, heading_stack: &mut Vec<(u8, usize)>) {
    let trimmed = open.text.trim();
    if trimmed.is_empty() {
        return;
    }
    let mut headings: Vec<usize> = heading_stack.iter().map(|(_, i)| *i).collect();
    if let BlockKind::Heading(level) = open.kind {
        while heading_stack.last().is_some_and(|(l, _)| *l >= level) {
            heading_stack.pop();
        }
        headings = heading_stack.iter().map(|(_, i)| *i).collect();
        heading_stack.push((level, out.len()));
    }
    out.push(Block {
        kind: open.kind,
        text: open.text,
        segs: open.segs,
        span: open.start..open.end.max(open.start),
        headings,
    });
}

/// Byte ranges of a document (reckon's regions), merged where they overlap
/// and kept in order, so whether a range meets any of them is a
/// binary search (a scan of every region for every piece of text was
/// quadratic in a document of many regions).
#[derive(Debug, Default)]
pub(crate) struct Ranges(Vec<Range<usize>>);

impl Ranges {
    pub(crate) fn new(mut ranges: Vec<Range<usize>>) -> Ranges {
        ranges.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
        for r in ranges {
            match merged.last_mut() {
                Some(last) if r.start < last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        Ranges(merged)
    }

    /// Whether `r` shares a byte with one of the ranges.
    pub(crate) fn meets(&self, r: &Range<usize>) -> bool {
        let k = self.0.partition_point(|s| s.end <= r.start);
        self.0.get(k).is_some_and(|s| s.start < r.end && r.start < s.end)
    }
}

/// The blocks of prose of `text`, in document order. Text inside any of
/// `skip` (reckon regions) is left out.
pub(crate) fn blocks(text: &str, skip: &Ranges) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut heading_stack: Vec<(u8, usize)> = Vec::new();
    let mut in_code = 0usize;
    let (mut table, mut row, mut col) = (0usize, 0usize, 0usize);
    let skipped = |r: &Range<usize>| skip.meets(r);

    for (event, range) in crate::doc::parser(text).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(_) | Tag::MetadataBlock(_)) => in_code += 1,
            Event::End(TagEnd::CodeBlock | TagEnd::MetadataBlock(_)) => in_code = in_code.saturating_sub(1),
            Event::Start(Tag::Table(_)) => {
                table += 1;
                row = 0;
            }
            Event::End(TagEnd::TableHead | TagEnd::TableRow) => {
                row += 1;
                col = 0;
            }
            Event::Start(tag @ (Tag::Paragraph | Tag::Heading { .. } | Tag::Item | Tag::TableCell)) => {
                let kind = match tag {
                    Tag::Paragraph => BlockKind::Paragraph,
                    Tag::Heading { level, .. } => BlockKind::Heading(level as u8),
                    Tag::Item => BlockKind::ListItem,
                    _ => BlockKind::TableCell { table: table.saturating_sub(1), row, col },
                };
                // A tight item's own text ends where a nested block starts.
                if let Some(top) = stack.last_mut() {
                    if top.kind == BlockKind::ListItem && !top.text.trim().is_empty() {
                        let done = std::mem::replace(top, Open::new(BlockKind::ListItem, range.clone()));
                        flush(done, &mut out, &mut heading_stack);
                    }
                }
                // A paragraph inside an item is the item's prose.
                let kind = match (kind, stack.last()) {
                    (BlockKind::Paragraph, Some(top)) if top.kind == BlockKind::ListItem => BlockKind::ListItem,
                    (k, _) => k,
                };
                stack.push(Open::new(kind, range.clone()));
            }
            Event::End(end @ (TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::Item | TagEnd::TableCell)) => {
                if let Some(open) = stack.pop() {
                    flush(open, &mut out, &mut heading_stack);
                }
                if matches!(end, TagEnd::TableCell) {
                    col += 1;
                }
            }
            Event::Text(t) | Event::Code(t) if in_code == 0 && !skipped(&range) => {
                if let Some(top) = stack.last_mut() {
                    // Inline code keeps its source position past the backtick.
                    match text[range.clone()].find(t.as_ref()) {
                        Some(i) => top.push(&t, range.start + i..range.start + i + t.len(), true),
                        None => top.push(&t, range.clone(), false),
                    }
                }
            }
            Event::SoftBreak | Event::HardBreak if in_code == 0 => {
                if let Some(top) = stack.last_mut() {
                    top.push(" ", range.clone(), false);
                }
            }
            _ => {}
        }
    }
    while let Some(open) = stack.pop() {
        flush(open, &mut out, &mut heading_stack);
    }
    out
}

/// Words after which a period does not end a sentence.
const ABBREVIATIONS: [&str; 13] =
    ["e.g", "i.e", "vs", "etc", "approx", "cf", "fig", "no", "eq", "ca", "al", "resp", "incl"];

/// The sentences of each block.
pub(crate) fn sentences(blocks: &[Block]) -> Vec<Sentence> {
    let mut out = Vec::new();
    for (bi, b) in blocks.iter().enumerate() {
        let t = &b.text;
        let bytes = t.as_bytes();
        let mut start = 0;
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if matches!(c, b'.' | b'!' | b'?') {
                let next = bytes.get(i + 1).copied();
                let ends = match next {
                    None => true,
                    Some(n) if n.is_ascii_whitespace() => {
                        let rest = t[i + 1..].trim_start();
                        let word_start = t[..i]
                            .char_indices()
                            .rev()
                            .find(|(_, ch)| ch.is_whitespace() || *ch == '(')
                            .map_or(0, |(k, ch)| k + ch.len_utf8());
                        let word = t[word_start..i].to_ascii_lowercase();
                        let abbrev = ABBREVIATIONS.contains(&word.as_str());
                        // A new sentence starts with a capital, a digit or
                        // markup — or a name with a capital inside (`cuBLAS`,
                        // `vLLM`) — or, after a plain word, with any word:
                        // researchers start sentences with lower-case names
                        // (`zstd`, `lz4`, `torch.compile`). Only after an
                        // initial or a dotted abbreviation (`U.S.`) does a
                        // lower-case word carry the sentence on.
                        let next_word: &str = rest.split(char::is_whitespace).next().unwrap_or("");
                        let starts_new = rest.chars().next().is_some_and(|ch| {
                            ch.is_uppercase() || ch.is_ascii_digit() || matches!(ch, '*' | '_' | '(' | '"' | '`')
                        }) || next_word.chars().any(char::is_uppercase);
                        let dotted = word.contains('.') || word.chars().count() <= 1;
                        let initial =
                            t[word_start..i].chars().count() == 1 && t[word_start..i].chars().all(char::is_uppercase);
                        !abbrev && !initial && (starts_new || !dotted)
                    }
                    _ => false,
                };
                if ends {
                    push_sentence(&mut out, b, bi, start, i + 1);
                    start = i + 1;
                }
            }
            i += 1;
        }
        push_sentence(&mut out, b, bi, start, t.len());
    }
    out
}

fn push_sentence(out: &mut Vec<Sentence>, b: &Block, bi: usize, start: usize, end: usize) {
    let s = &b.text[start..end];
    let lead = s.len() - s.trim_start().len();
    let trail = s.len() - s.trim_end().len();
    let (a, z) = (start + lead, end - trail);
    if a >= z {
        return;
    }
    let span_start = b.source_offset(a);
    let span_end = b.source_end(z);
    out.push(Sentence { block: bi, range: a..z, span: span_start..span_end.max(span_start) });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_and_sentences_map_back_to_the_source() {
        let doc = "# Title 2026-01-02\n\nFirst *one* here. Second one.\n\n- item a\n- item b with `code`\n\n\
                   ```\nnot prose\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        let bs = blocks(doc, &Ranges::default());
        let texts: Vec<&str> = bs.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(
            texts,
            ["Title 2026-01-02", "First one here. Second one.", "item a", "item b with code", "a", "b", "1", "2"]
        );
        assert_eq!(bs[1].headings, vec![0]);
        assert!(matches!(bs[7].kind, BlockKind::TableCell { row: 1, col: 1, .. }));
        let ss = sentences(&bs);
        let second = ss.iter().find(|s| bs[s.block].text[s.range.clone()] == *"Second one.").unwrap();
        assert_eq!(&doc[second.span.clone()], "Second one.");
        let first = ss.iter().find(|s| bs[s.block].text[s.range.clone()].starts_with("First")).unwrap();
        assert_eq!(&doc[first.span.clone()], "First *one* here.");
    }

    #[test]
    fn skipped_ranges_and_abbreviations() {
        let doc = "Keep this, e.g. that.\n\n<!-- x -->\nSkip me.\n\nEnds in 3×\n";
        let skip = doc.find("Skip").unwrap()..doc.find("Ends").unwrap();
        let bs = blocks(doc, &Ranges::new(vec![skip]));
        let ss = sentences(&bs);
        assert_eq!(ss.len(), 2, "{bs:?}");
        assert_eq!(&doc[ss[0].span.clone()], "Keep this, e.g. that.");
        assert_eq!(&doc[ss[1].span.clone()], "Ends in 3×");
    }

    #[test]
    fn sentences_may_start_with_lower_case_names() {
        let doc = "brotli wins at every size. zstd is slower than lz4.\n\
                   lz4 ships, as in the U.S. team and J. Smith et al. showed.\n";
        let bs = blocks(doc, &Ranges::default());
        let texts: Vec<&str> = sentences(&bs).iter().map(|s| &doc[s.span.clone()]).collect();
        assert_eq!(
            texts,
            [
                "brotli wins at every size.",
                "zstd is slower than lz4.",
                "lz4 ships, as in the U.S. team and J. Smith et al. showed."
            ]
        );
    }
}
