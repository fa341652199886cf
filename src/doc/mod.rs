//! Living documents: finding the `<!-- reckon:KIND … -->` regions of a
//! markdown file by byte offset, detecting hand edits, and splicing new
//! content between untouched slices of the original (the document is never
//! re-printed from a tree).
//!
//! A region is an opening directive, the content reckon generates, and a
//! closing directive that records a digest of that content:
//!
//! ```markdown
//! <!-- reckon:table metric=output_throughput rows=concurrency cols=config -->
//! | concurrency | baseline |
//! |---:|---:|
//! | 1 | 92.7 |
//! <!-- /reckon:table digest=1a2b3c4d5e6f -->
//! ```
//!
//! This module only knows the syntax; what the arguments mean and what the
//! content should be is for `render` and `claims`.

mod directive;
mod note;
pub mod notebook;
pub mod spec;
mod splice;
pub mod write;

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use pulldown_cmark::{Options, Parser};

use crate::{Error, Result};

pub use directive::Arg;
pub use note::{status_note, Alert};
pub use spec::{Given, RegionError, RegionSpec};
pub use splice::digest;
pub use write::write_atomic;

/// The arguments a claim directive takes before its statement.
pub const CLAIM_ARGS: [&str; 3] = ["id", "superseded", "as_of"];

/// The file extensions of documents reckon finds by itself (staged files
/// when reckon.toml lists no `documents`): markdown, Quarto and notebooks.
/// Compared as written: reckon reads `plan.md`, not `PLAN.MD`.
pub const EXTENSIONS: [&str; 3] = ["md", "qmd", "ipynb"];

/// Whether `path` has one of the [`EXTENSIONS`].
pub fn has_document_extension(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| EXTENSIONS.contains(&e))
}

/// The markdown extensions reckon reads documents with. Every module that
/// parses markdown (directives, lint) goes through [`parser`] so they agree
/// on what is code, HTML and prose.
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM
        // Front matter is data, not prose: comments in it are not directives.
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// The one markdown parser of reckon, built with [`options`]. Use
/// `.into_offset_iter()` to get byte ranges into `text`.
pub fn parser(text: &str) -> Parser<'_> {
    Parser::new_ext(text, options())
}

/// The kind of a generated region, the word after `reckon:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A pivot table of metrics.
    Table,
    /// One number inline in a sentence.
    Value,
    /// An SVG chart written next to the document, linked from the region.
    Plot,
    /// A read-only SQL query rendered as a table.
    Sql,
    /// A minijinja template given query results.
    Template,
    /// A conclusion written by the author, with a checkable statement.
    Claim,
    /// What moved between two sweeps, beyond noise or not.
    Diff,
}

impl Kind {
    /// Every kind, in the order the documentation lists them.
    pub const ALL: [Kind; 7] =
        [Kind::Table, Kind::Value, Kind::Plot, Kind::Sql, Kind::Template, Kind::Claim, Kind::Diff];

    /// The name written in directives (`table`, `value`, …).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Table => "table",
            Kind::Value => "value",
            Kind::Plot => "plot",
            Kind::Sql => "sql",
            Kind::Template => "template",
            Kind::Claim => "claim",
            Kind::Diff => "diff",
        }
    }

    /// The kind a directive name stands for, if any.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The line ending a document uses; generated content is written with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n`
    Lf,
    /// `\r\n`
    Crlf,
    /// `\r` alone (classic Mac OS files; markdown reads it as a line break)
    Cr,
}

impl LineEnding {
    /// The line ending most lines of `text` use (`\n` on a tie or when there
    /// is no line break at all).
    pub fn detect(text: &str) -> LineEnding {
        let newlines = text.matches('\n').count();
        let crlf = text.matches("\r\n").count();
        if newlines == 0 && text.contains('\r') {
            LineEnding::Cr
        } else if crlf > newlines - crlf {
            LineEnding::Crlf
        } else {
            LineEnding::Lf
        }
    }

    /// The bytes of the line ending.
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::Crlf => "\r\n",
            LineEnding::Cr => "\r",
        }
    }
}

/// The free text of a claim directive after its arguments: the statement in
/// reckon's claim language, as written (line breaks and indentation kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// The statement, trimmed of surrounding whitespace.
    pub text: String,
    /// Where [`Statement::text`] lies in the document: byte `span.start + i`
    /// of the document is byte `i` of the text, so a claim parser can report
    /// errors with [`Document::error_at`].
    pub span: Range<usize>,
}

/// One generated region of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// What the region holds.
    pub kind: Kind,
    /// The opening directive's `key=value` arguments as written, in order;
    /// what they mean is [`Region::spec`].
    pub args: Vec<Arg>,
    /// The arguments read for the region's kind, or what is wrong with
    /// them: a region whose arguments are wrong is still a region, reported
    /// in its place when it is evaluated.
    pub spec: Result<RegionSpec, RegionError>,
    /// For claims: the statement after the arguments. `None` for other kinds.
    pub statement: Option<Statement>,
    /// Byte range of the opening marker, `<!--` to `-->`.
    pub open: Range<usize>,
    /// Byte range of the content between the two markers.
    pub content: Range<usize>,
    /// Byte range of the closing marker, `<!--` to `-->`.
    pub close: Range<usize>,
    /// 1-based line of the opening marker.
    pub line: usize,
    /// 1-based column (in characters) of the opening marker.
    pub col: usize,
    /// The digest recorded in the closing marker (`digest=…`), lowercase.
    pub digest: Option<String>,
    /// For a claim written inside a sentence, list item or quote line (text
    /// before its opening marker or after its closing one, or its words on
    /// the marker's line): where its status note lives instead, after the
    /// enclosing block, so the block stays whole.
    pub detached: Option<Detached>,
    edited_by_hand: bool,
}

/// Where the status note of an inline claim lives: after the top-level
/// block that holds the claim, one alert per claim, each naming its claim
/// (`> **reckon:** claim `ID`: …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detached {
    /// Where a new note is written: after the block and the notes already
    /// there.
    pub at: usize,
    /// The claim's note as it is, with the blank line before it.
    pub note: Option<Range<usize>>,
}

impl Region {
    /// A claim's arguments (`None` for other kinds, and for a claim without
    /// an id, which [`parse`] refuses).
    pub fn claim(&self) -> Option<&spec::ClaimSpec> {
        match &self.spec {
            Ok(RegionSpec::Claim(c)) => Some(c),
            _ => None,
        }
    }

    /// The argument named `key`, if the opening directive has it.
    pub fn arg(&self, key: &str) -> Option<&Arg> {
        self.args.iter().find(|a| a.key == key)
    }

    /// Whether the part of the region reckon generated was changed since
    /// reckon wrote it: the closing marker's digest no longer matches. A
    /// region with no digest (written by the author, never generated) is not
    /// hand-edited. For claims only the status note counts: the author's
    /// words are theirs to change.
    pub fn edited_by_hand(&self) -> bool {
        self.edited_by_hand
    }

    /// The region's content as it is in `text` (the document it was parsed
    /// from).
    pub fn content<'t>(&self, text: &'t str) -> &'t str {
        &text[self.content.clone()]
    }

    /// What a line continuing this region starts with: the indentation of a
    /// list item, or a quote's `>` markers (empty at the top level).
    pub fn continuation_prefix(&self, text: &str) -> String {
        note::continuation_prefix(text, self.open.start)
    }

    /// For claims: the author's text, without reckon's status note. For other
    /// kinds: the whole content.
    pub fn author_text<'t>(&self, text: &'t str) -> &'t str {
        let content = self.content(text);
        if self.kind == Kind::Claim && self.detached.is_none() {
            &content[..note::split(content, &note::continuation_prefix(text, self.open.start)).author_end]
        } else {
            content
        }
    }

    /// For claims: reckon's status note inside the region (the alert block,
    /// from its `> [!…]` line to its last line, without the line break after
    /// it), if there is one.
    pub fn status_note<'t>(&self, text: &'t str) -> Option<&'t str> {
        if self.kind != Kind::Claim {
            return None;
        }
        if let Some(d) = &self.detached {
            return d.note.clone().map(|r| text[r].trim_start_matches(['\r', '\n']));
        }
        let content = self.content(text);
        note::split(content, &note::continuation_prefix(text, self.open.start)).note.map(|r| &content[r])
    }
}

/// A parsed living document: where its regions are. The text itself is not
/// kept; pass the same text to the methods that need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The file the text came from, for error messages.
    pub path: PathBuf,
    /// The line ending generated content is written with.
    pub line_ending: LineEnding,
    /// The regions, in document order.
    pub regions: Vec<Region>,
}

impl Document {
    /// An error about the document at byte `offset` of `text`, with the line,
    /// column and a pointer to the source — for callers that validate
    /// directive arguments or claim statements.
    pub fn error_at(&self, text: &str, offset: usize, msg: impl Into<String>) -> Error {
        error_at(&self.path, text, offset, msg)
    }

    /// The regions whose generated part was edited by hand, with their index.
    pub fn edited_regions(&self) -> impl Iterator<Item = (usize, &Region)> {
        self.regions.iter().enumerate().filter(|(_, r)| r.edited_by_hand())
    }
}

/// Finds the regions of a markdown document. `path` is only used in errors.
///
/// Directives are HTML comments that the markdown parser reports as HTML
/// (block or inline), so comments in code blocks and code spans are text.
/// Malformed directives are an [`Error::Document`] at the first problem.
pub fn parse(path: &Path, text: &str) -> Result<Document> {
    let problem = |p: directive::Problem| error_at(path, text, p.at, p.msg);
    let comments = directive::find_comments(text).map_err(problem)?;
    // Every region's line and column from one table (a scan per region was
    // quadratic in the regions of a document).
    let lines = crate::syntax::Lines::new(text);

    let mut regions = Vec::new();
    // The regions open at this point: a claim, and inside it a value.
    let mut stack: Vec<(directive::Open, Range<usize>)> = Vec::new();
    for comment in &comments {
        let Some(found) = directive::parse(text, comment).map_err(problem)? else {
            continue;
        };
        match found {
            directive::Directive::Open(o) => {
                // A living number may sit in a claim's sentence.
                let nests = o.kind == Kind::Value && stack.len() == 1 && stack[0].0.kind == Kind::Claim;
                if let Some((outer, outer_span)) = stack.last().filter(|_| !nests) {
                    let (line, _) = lines.line_col(outer_span.start);
                    let msg = format!(
                        "`reckon:{}` opens inside the `reckon:{}` region opened at line {line}; \
                         regions cannot nest (only a `value` may sit inside a `claim`): close the \
                         first with `<!-- /reckon:{} -->` before opening another",
                        o.kind, outer.kind, outer.kind
                    );
                    return Err(error_at(path, text, comment.span.start, msg));
                }
                stack.push((o, comment.span.clone()));
            }
            directive::Directive::Close(c) => {
                let Some((o, open_span)) = stack.pop() else {
                    let msg = format!(
                        "`<!-- /reckon:{0} -->` closes no region; remove it, or open the region \
                         before its content with `<!-- reckon:{0} … -->`",
                        c.kind
                    );
                    return Err(error_at(path, text, comment.span.start, msg));
                };
                if o.kind != c.kind {
                    let (line, _) = lines.line_col(open_span.start);
                    let msg = format!(
                        "`<!-- /reckon:{} -->` does not close the `reckon:{}` region opened at \
                         line {line}; close it with `<!-- /reckon:{} -->`",
                        c.kind, o.kind, o.kind
                    );
                    return Err(error_at(path, text, comment.span.start, msg));
                }
                let content = open_span.end..comment.span.start;
                let prefix = note::continuation_prefix(text, open_span.start);
                let edited_by_hand =
                    splice::edited_by_hand(o.kind, &text[content.clone()], &prefix, c.digest.as_deref());
                let (line, col) = lines.line_col(open_span.start);
                let spec = spec::parse(o.kind, &o.args);
                regions.push(Region {
                    kind: o.kind,
                    args: o.args,
                    spec,
                    statement: o.statement,
                    open: open_span,
                    content,
                    close: comment.span.clone(),
                    line,
                    col,
                    digest: c.digest,
                    detached: None,
                    edited_by_hand,
                });
            }
        }
    }
    if let Some((o, open_span)) = stack.pop() {
        let msg =
            format!("the `reckon:{0}` region is never closed; add `<!-- /reckon:{0} -->` after its content", o.kind);
        return Err(error_at(path, text, open_span.start, msg));
    }
    // A value inside a claim closes first; keep the regions in the order
    // they open.
    regions.sort_by_key(|r| r.open.start);
    note::detach_inline_claims(text, &mut regions);
    check_claim_ids(path, text, &regions)?;

    Ok(Document { path: path.to_path_buf(), line_ending: LineEnding::detect(text), regions })
}

/// Claims are tracked over time by id, so every claim needs one and no two
/// claims of a document may share it.
fn check_claim_ids(path: &Path, text: &str, regions: &[Region]) -> Result<()> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for region in regions.iter().filter(|r| r.kind == Kind::Claim) {
        let id = match &region.spec {
            Ok(RegionSpec::Claim(c)) => &c.id,
            Ok(_) => continue,
            Err(e) => return Err(error_at(path, text, e.at.as_ref().map_or(region.open.start, |a| a.start), &e.msg)),
        };
        if let Some(first_line) = seen.insert(&id.value, region.line) {
            let msg = format!(
                "claim id `{}` is already used by the claim at line {first_line}; \
                 give each claim its own id",
                id.value
            );
            let at = region.arg("id").map_or(id.span.start, |a| a.value_span.start);
            return Err(error_at(path, text, at, msg));
        }
    }
    Ok(())
}

/// The 1-based line and column (in characters) of byte `offset` in `text`
/// (the one reading both languages and documents share).
pub use crate::syntax::line_col as location;

/// An [`Error::Document`] at byte `offset` of `text`: the line and column,
/// and a snippet showing the source line with a `^` under the column.
pub fn error_at(path: &Path, text: &str, offset: usize, msg: impl Into<String>) -> Error {
    let offset = crate::syntax::floor_char_boundary(text, offset);
    let span = Box::new(crate::syntax::span(path, text, offset..offset));
    let col = span.col();
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let source_line = text[line_start..line_end].trim_end_matches('\r');
    let source_line = source_line.strip_prefix('\u{feff}').unwrap_or(source_line);
    // A very long line is shown around the column only, so the message
    // stays readable (and small) whatever the document holds.
    let chars: Vec<char> = source_line.chars().collect();
    let at = (col - 1).min(chars.len());
    let start = at.saturating_sub(240);
    let end = chars.len().min(at + 240);
    let lead = if start > 0 { "…" } else { "" };
    let tail = if end < chars.len() { "…" } else { "" };
    let shown: String = chars[start..end].iter().collect();
    // Tabs stay tabs in the pointer line so the `^` lines up in a terminal.
    let pad: String =
        lead.chars().chain(chars[start..at].iter().copied()).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
    Error::Document { span, msg: msg.into(), snippet: format!("{lead}{shown}{tail}\n  {pad}^") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        parse(Path::new("plan.md"), text).expect("document parses")
    }

    fn err(text: &str) -> String {
        parse(Path::new("plan.md"), text).expect_err("document is malformed").to_string()
    }

    #[test]
    fn finds_block_inline_and_claim_regions_in_order() {
        let text = "# Plan\n\
            <!-- reckon:table metric=output_throughput rows=concurrency cols=config -->\n\
            | a |\n|---|\n\
            <!-- /reckon:table -->\n\
            reaches <!-- reckon:value metric=output_throughput concurrency=30 -->759.3<!-- /reckon:value --> tok/s\n\
            \n\
            <!-- reckon:claim id=throughput-baseline-wins\n\
            \x20    baseline beats eagle-topk4-v1 on output_throughput -->\n\
            - baseline is strictly superior.\n\
            <!-- /reckon:claim -->\n";
        let d = doc(text);
        let kinds: Vec<Kind> = d.regions.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, [Kind::Table, Kind::Value, Kind::Claim]);

        let table = &d.regions[0];
        assert_eq!((table.line, table.col), (2, 1));
        assert_eq!(table.content(text), "\n| a |\n|---|\n");
        let keys: Vec<(&str, &str)> = table.args.iter().map(|a| (a.key.as_str(), a.value.as_str())).collect();
        assert_eq!(keys, [("metric", "output_throughput"), ("rows", "concurrency"), ("cols", "config")]);
        assert_eq!(&text[table.arg("rows").map(|a| a.span.clone()).unwrap()], "rows=concurrency");

        let value = &d.regions[1];
        assert_eq!(value.content(text), "759.3");
        assert_eq!((value.line, value.col), (6, 9));
        assert_eq!(value.arg("concurrency").map(|a| a.value.as_str()), Some("30"));

        let claim = &d.regions[2];
        let statement = claim.statement.as_ref().unwrap();
        assert_eq!(statement.text, "baseline beats eagle-topk4-v1 on output_throughput");
        assert_eq!(&text[statement.span.clone()], statement.text);
        assert_eq!(location(text, statement.span.start), (9, 6));
        assert_eq!(claim.author_text(text), "\n- baseline is strictly superior.\n");
        assert!(d.regions.iter().all(|r| !r.edited_by_hand()));
    }

    #[test]
    fn quoted_values_keep_the_other_quote() {
        let text = "<!-- reckon:table where=\"model = 'kimi-k2.5'\" title='a \"b\"' -->\nx\n<!-- /reckon:table -->\n";
        let d = doc(text);
        let args = &d.regions[0].args;
        assert_eq!(args[0].value, "model = 'kimi-k2.5'");
        assert_eq!(&text[args[0].value_span.clone()], "model = 'kimi-k2.5'");
        assert_eq!(args[1].value, "a \"b\"");
    }

    #[test]
    fn column_counts_characters_not_bytes() {
        let text = "héllo 猫 <!-- reckon:tabel -->";
        assert_eq!(
            err(text),
            "plan.md:1:21: unknown directive `reckon:tabel`; the kinds are table, value, plot, \
             sql, template, claim, diff\n  héllo 猫 <!-- reckon:tabel -->\n                      ^"
        );
    }

    #[test]
    fn bom_is_not_a_column() {
        assert_eq!(location("\u{feff}ab", 4), (1, 2));
    }

    #[test]
    fn claim_without_id_is_an_error() {
        let text = "<!-- reckon:claim baseline beats x on m -->\ntext\n<!-- /reckon:claim -->\n";
        assert_eq!(
            err(text),
            "plan.md:1:1: the claim has no id; write `<!-- reckon:claim id=NAME statement -->` \
             (the id names the claim in reports and its history)\n  \
             <!-- reckon:claim baseline beats x on m -->\n  ^"
        );
    }

    #[test]
    fn duplicate_claim_ids_are_an_error() {
        let text = "<!-- reckon:claim id=a x beats y on m -->\nt\n<!-- /reckon:claim -->\n\
                    <!-- reckon:claim id=a y beats x on m -->\nt\n<!-- /reckon:claim -->\n";
        let msg = err(text);
        assert!(
            msg.starts_with(
                "plan.md:4:22: claim id `a` is already used by the claim at line 1; give each claim its own id"
            ),
            "{msg}"
        );
    }

    #[test]
    fn line_ending_follows_the_majority() {
        assert_eq!(LineEnding::detect("a\r\nb\r\nc\n"), LineEnding::Crlf);
        assert_eq!(LineEnding::detect("a\r\nb\nc\n"), LineEnding::Lf);
        assert_eq!(LineEnding::detect("no break"), LineEnding::Lf);
        assert_eq!(LineEnding::detect("a\rb\rc\r"), LineEnding::Cr);
    }
}
