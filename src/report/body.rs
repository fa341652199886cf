//! The page body: the document's markdown, with a token where reckon's
//! own HTML goes, parsed by comrak; the tree is edited (tokens swapped for
//! reckon's HTML, table numbers linked to their provenance, external
//! images made links) and then formatted. The author's raw HTML stays
//! dropped: only reckon's own nodes are raw.

use std::collections::BTreeMap;

use comrak::nodes::NodeValue;
use comrak::Node;

use super::Tokens;
use crate::{Error, Result};

/// What a token gives way to.
#[derive(Debug, Clone, Default)]
pub(super) struct Swap {
    /// The HTML in its place.
    pub html: String,
    /// The HTML in its place inside a link's or an image's text, where no
    /// link may be (a number without its provenance link), if different.
    pub in_link: Option<String>,
    /// HTML placed after the top-level block holding the token (an inline
    /// claim's evidence).
    pub after_block: Option<String>,
}

impl Swap {
    pub(super) fn html(html: String) -> Swap {
        Swap { html, ..Swap::default() }
    }
}

/// The page body: the token-marked markdown rendered by comrak, with its
/// tree edited before it is formatted — each token swapped for reckon's
/// HTML, the numbers of linked tables wrapped in provenance links,
/// external images turned into links.
pub(super) fn render_body(
    md: &str,
    tokens: &Tokens,
    swaps: &BTreeMap<String, Swap>,
    linked_tables: &[(usize, Vec<Vec<Option<usize>>>)],
) -> Result<String> {
    let arena = comrak::Arena::new();
    let options = comrak_options();
    let root = comrak::parse_document(&arena, md, &options);
    for (i, entries) in linked_tables {
        link_table_numbers(&arena, root, tokens, *i, entries);
    }
    swap_tokens(&arena, root, tokens, swaps);
    no_external_images(&arena, root, &options);
    scrolling_tables(&arena, root);
    let mut body = String::new();
    comrak::format_html(root, &options, &mut body)
        .map_err(|_| Error::internal("the report page could not be formatted"))?;
    Ok(body)
}

fn raw<'a>(arena: &'a comrak::Arena<'a>, html: String) -> Node<'a> {
    arena.alloc(NodeValue::Raw(html).into())
}

/// The token a paragraph consists of, if it is nothing but one.
fn token_paragraph(node: Node<'_>, tokens: &Tokens) -> Option<String> {
    if !matches!(node.data().value, NodeValue::Paragraph) {
        return None;
    }
    let child = node.first_child()?;
    if child.next_sibling().is_some() {
        return None;
    }
    match &child.data().value {
        NodeValue::Text(t) if t.starts_with(tokens.prefix.as_str()) => Some(t.to_string()),
        _ => None,
    }
}

/// Whether comrak writes a paragraph as `<p>…</p>` of its own: not in a
/// tight list, not a footnote's last paragraph (which carries the backref).
fn stands_alone(paragraph: Node<'_>) -> bool {
    let parent = paragraph.parent();
    let tight = parent.and_then(comrak::arena_tree::Node::parent).is_some_and(|n| match n.data().value {
        NodeValue::List(l) => l.tight,
        NodeValue::DescriptionItem(d) => d.tight,
        _ => false,
    }) || parent.is_some_and(|n| matches!(n.data().value, NodeValue::DescriptionTerm));
    let footnote_end = parent.is_some_and(|n| matches!(n.data().value, NodeValue::FootnoteDefinition(_)))
        && paragraph.next_sibling().is_none();
    !tight && !footnote_end
}

/// Swaps each token for its HTML: a paragraph that is only a token gives
/// way to the HTML as a block; a token within text is replaced in place
/// (by its link-free form inside a link's text), and what goes after its
/// block follows that block, in the order the tokens came.
fn swap_tokens<'a>(arena: &'a comrak::Arena<'a>, root: Node<'a>, tokens: &Tokens, swaps: &BTreeMap<String, Swap>) {
    let nodes: Vec<Node<'a>> = root.descendants().collect();
    // Each top-level block, and the last node placed after it.
    let mut after: Vec<(Node<'a>, Node<'a>)> = Vec::new();
    for node in nodes {
        if let Some(tok) = token_paragraph(node, tokens).filter(|_| stands_alone(node)) {
            if let Some(swap) = swaps.get(&tok) {
                node.insert_before(raw(arena, format!("{}\n", swap.html)));
                node.detach();
                continue;
            }
        }
        let text = match &node.data().value {
            NodeValue::Text(t) if t.contains(tokens.prefix.as_str()) => t.to_string(),
            _ => continue,
        };
        let in_link = node.ancestors().any(|a| matches!(a.data().value, NodeValue::Link(_) | NodeValue::Image(_)));
        let top = node.ancestors().find(|a| a.parent().is_some_and(|p| std::ptr::eq(p, root)));
        let mut rest = text.as_str();
        let mut pieces: Vec<Node<'a>> = Vec::new();
        while let Some(at) = rest.find(tokens.prefix.as_str()) {
            let Some((tok, swap)) = swaps.iter().find(|(k, _)| rest[at..].starts_with(k.as_str())) else {
                break;
            };
            if at > 0 {
                pieces.push(arena.alloc(NodeValue::Text(rest[..at].to_string().into()).into()));
            }
            let html = swap.in_link.as_ref().filter(|_| in_link).unwrap_or(&swap.html);
            pieces.push(raw(arena, html.clone()));
            if let (Some(block), Some(top)) = (&swap.after_block, top) {
                let placed = raw(arena, format!("{block}\n"));
                if let Some((_, last)) = after.iter_mut().find(|(t, _)| std::ptr::eq(*t, top)) {
                    last.insert_after(placed);
                    *last = placed;
                } else {
                    top.insert_after(placed);
                    after.push((top, placed));
                }
            }
            rest = &rest[at + tok.len()..];
        }
        if pieces.is_empty() {
            continue;
        }
        if !rest.is_empty() {
            pieces.push(arena.alloc(NodeValue::Text(rest.to_string().into()).into()));
        }
        for piece in pieces {
            node.insert_before(piece);
        }
        node.detach();
    }
}

/// The plain text of a table cell when it holds only text and bold text
/// (what a generated number is written as), else `None`.
fn cell_text(cell: Node<'_>) -> Option<String> {
    let mut out = String::new();
    for n in cell.descendants().skip(1) {
        match &n.data().value {
            NodeValue::Text(t) => out.push_str(t),
            NodeValue::Strong => {}
            _ => return None,
        }
    }
    Some(out)
}

/// Wraps each number of region `i`'s table in a link to the provenance
/// entry of its cell's runs (`entries`: each body row's cells; a row's
/// params have none). The table is what stands between the region's two
/// token paragraphs.
fn link_table_numbers<'a>(
    arena: &'a comrak::Arena<'a>,
    root: Node<'a>,
    tokens: &Tokens,
    i: usize,
    entries: &[Vec<Option<usize>>],
) {
    let (begin, end) = (tokens.token("B", i), tokens.token("E", i));
    let is = |n: Node<'a>, tok: &str| stands_alone(n) && token_paragraph(n, tokens).as_deref() == Some(tok);
    let Some(start) = root.descendants().find(|n| is(n, &begin)) else {
        return;
    };
    let mut between = Vec::new();
    let mut next = start.next_sibling();
    while let Some(n) = next {
        if is(n, &end) {
            break;
        }
        between.push(n);
        next = n.next_sibling();
    }
    if next.is_none() {
        return;
    }
    for block in between {
        let rows = block.descendants().filter(|n| matches!(n.data().value, NodeValue::TableRow(false)));
        let rows: Vec<Node<'a>> = rows.collect();
        for (row, cells) in rows.into_iter().zip(entries) {
            for (cell, entry) in row.children().zip(cells) {
                let (Some(text), Some(k)) = (cell_text(cell), entry) else { continue };
                let number = text.trim().trim_end_matches(" ≈").trim_end_matches('x');
                if crate::syntax::read_logged(number).is_some() {
                    cell.prepend(raw(arena, format!("<a class=\"num\" href=\"#prov-{k}\">")));
                    cell.append(raw(arena, "</a>".to_string()));
                }
            }
        }
    }
}

/// Each table inside a block that scrolls sideways, so a wide table on a
/// narrow screen scrolls instead of widening the page.
fn scrolling_tables<'a>(arena: &'a comrak::Arena<'a>, root: Node<'a>) {
    let tables: Vec<Node<'a>> = root.descendants().filter(|n| matches!(n.data().value, NodeValue::Table(_))).collect();
    for table in tables {
        table.insert_before(raw(arena, "<div class=\"table-scroll\">\n".to_string()));
        table.insert_after(raw(arena, "</div>\n".to_string()));
    }
}

/// External images would be requests: they become links (`data:` images
/// stay, as comrak writes them).
fn no_external_images<'a>(arena: &'a comrak::Arena<'a>, root: Node<'a>, options: &comrak::Options) {
    let images: Vec<Node<'a>> = root.descendants().filter(|n| matches!(n.data().value, NodeValue::Image(_))).collect();
    for image in images {
        let url = match &image.data().value {
            NodeValue::Image(link) => link.url.clone(),
            _ => continue,
        };
        // The source as comrak would write it: empty for a dangerous URL.
        let mut src = String::new();
        if !comrak::html::dangerous_url(&url) {
            let _ = comrak::html::escape_href(&mut src, &url, options.parse.relaxed_autolinks);
        }
        if src.starts_with("data:") {
            continue;
        }
        // The alt text as comrak writes it: the image's text, escaped.
        let mut alt = String::new();
        for n in image.descendants().skip(1) {
            let _ = match &n.data().value {
                NodeValue::Text(t) => comrak::html::escape(&mut alt, t),
                NodeValue::Code(c) => comrak::html::escape(&mut alt, &c.literal),
                NodeValue::HtmlInline(h) => comrak::html::escape(&mut alt, h),
                NodeValue::LineBreak | NodeValue::SoftBreak => {
                    alt.push(' ');
                    Ok(())
                }
                _ => Ok(()),
            };
        }
        let shown = if alt.is_empty() { &src } else { &alt };
        image.insert_before(raw(arena, format!("<a href=\"{src}\">[image: {shown}]</a>")));
        image.detach();
    }
}

fn comrak_options() -> comrak::Options<'static> {
    let mut o = comrak::Options::default();
    o.extension.table = true;
    o.extension.alerts = true;
    o.extension.footnotes = true;
    o.extension.strikethrough = true;
    o.extension.autolink = true;
    o.extension.tasklist = true;
    o
}
