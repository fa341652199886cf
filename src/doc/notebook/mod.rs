//! Jupyter notebooks (`.ipynb`) as living documents. A notebook is a
//! container of markdown documents, its markdown cells; reckon reads it
//! through one markdown text, the notebook's *view*, and every command reads
//! that view as it reads a `.md` file.
//!
//! The view has one line per line of the notebook's file: line N of the
//! view is the markdown of the cell line written on line N of the JSON (as
//! Jupyter writes a notebook, each line of a cell's `source` is an element
//! on a line of its own), and every other line of the file — code cells,
//! outputs, metadata, the JSON itself — is a blank line, so a document's
//! `path:line` is the notebook's own line, and cells stay apart as
//! paragraphs do. Those blank lines are written as a run of spaces and tabs
//! no cell line holds ([`Notebook::separator`]), so writing back can tell
//! each cell's new text from the rest without guessing.
//!
//! Writing back ([`rewrite`]) replaces the `source` of each markdown cell
//! whose text changed, byte range for byte range, printed as nbformat
//! prints it; every other byte of the file is kept. A cell whose `source`
//! is not laid out as nbformat writes it is never rewritten in another
//! style: the write is refused.

mod json;

use std::fmt;
use std::ops::Range;
use std::path::Path;

use serde_json::Value;

use crate::{Error, Result};

/// Whether `path` names a notebook (`.ipynb`, as written).
pub fn is_notebook(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "ipynb")
}

/// Where a line of a notebook is: its cell (1-based among all cells, code
/// cells included, as Jupyter lists them), the cell's id (nbformat 4.5 on)
/// and the 1-based line within the cell's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellPlace {
    pub cell: usize,
    pub id: Option<String>,
    pub line: usize,
}

impl CellPlace {
    /// The cell alone: `cell 3 (id `results`)`, or `cell 3` before nbformat 4.5.
    pub fn cell_name(&self) -> String {
        match &self.id {
            Some(id) => format!("cell {} (id `{}`)", self.cell, crate::syntax::excerpt(id)),
            None => format!("cell {}", self.cell),
        }
    }
}

impl fmt::Display for CellPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, line {}", self.cell_name(), self.line)
    }
}

/// One markdown cell of a notebook.
#[derive(Debug, Clone)]
struct Cell {
    /// 1-based among all cells.
    number: usize,
    id: Option<String>,
    /// The cell's text, its `source` lines joined.
    source: String,
    /// The bytes of the `source` value in the file.
    span: Range<usize>,
    /// Spaces before the `"source"` key on its line.
    indent: usize,
    /// What the file's lines end with there.
    newline: &'static str,
    /// The file's 1-based line of each line of the text.
    lines: Vec<usize>,
}

impl Cell {
    fn place(&self, line_in_cell: usize) -> CellPlace {
        CellPlace { cell: self.number, id: self.id.clone(), line: line_in_cell }
    }

    /// The cell's text as the view holds it: every line ends with `\n`.
    fn segment(&self) -> String {
        let mut s = self.source.clone();
        if !s.ends_with('\n') {
            s.push('\n');
        }
        s
    }
}

/// A notebook's markdown cells and where they lie in its file.
#[derive(Debug, Clone)]
pub struct Notebook {
    /// The markdown cells with text, in order.
    cells: Vec<Cell>,
    /// Lines of the file.
    lines: usize,
    /// What each line of the view outside the cells holds.
    separator: String,
}

impl Notebook {
    /// Reads the markdown cells of the notebook `text` (the file at `path`,
    /// named in errors). A file that is not an nbformat 4 notebook, or
    /// whose markdown lines are not one a line of the file, is an error at
    /// its place saying what to do.
    pub fn parse(path: &Path, text: &str) -> Result<Notebook> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            let offset = offset_of(text, e.line(), e.column());
            super::error_at(path, text, offset, format!("not a Jupyter notebook: the JSON does not read ({e})"))
        })?;
        let at_start = |msg: &str| super::error_at(path, text, 0, msg);
        match value.get("nbformat").and_then(Value::as_u64) {
            Some(4) => {}
            Some(n) => {
                return Err(at_start(&format!(
                    "reckon reads nbformat 4 notebooks and this one is nbformat {n}; convert it with \
                     `jupyter nbconvert --to notebook --nbformat 4 --inplace {}`",
                    path.display()
                )))
            }
            None => return Err(at_start("not a Jupyter notebook: no `nbformat` version at its top level")),
        }
        let cells =
            value.get("cells").and_then(Value::as_array).ok_or_else(|| at_start("the notebook has no `cells` list"))?;
        let ranges = cell_ranges(text).ok_or_else(|| at_start("the notebook's `cells` could not be located"))?;
        let lines = crate::syntax::Lines::new(text);
        let mut out = Vec::new();
        for (i, (cell, range)) in cells.iter().zip(&ranges).enumerate() {
            if cell.get("cell_type").and_then(Value::as_str) != Some("markdown") {
                continue;
            }
            let id = cell.get("id").and_then(Value::as_str).map(str::to_owned);
            let read = markdown_cell(text, &lines, i + 1, id, range);
            let cell = read.map_err(|(offset, msg)| super::error_at(path, text, offset, msg))?;
            if !cell.source.is_empty() {
                out.push(cell);
            }
        }
        let line_count = text.split_inclusive('\n').count();
        let separator = separator(&out);
        Ok(Notebook { cells: out, lines: line_count, separator })
    }

    /// The notebook at `path` with the bytes `original`, when it is one
    /// that reads (for placing what a review found in its cells).
    pub fn of(path: &Path, original: &[u8]) -> Option<Notebook> {
        is_notebook(path).then(|| Notebook::parse(path, std::str::from_utf8(original).ok()?).ok()).flatten()
    }

    /// The markdown view of the notebook (see the module's documentation),
    /// with where each cell's text starts in it.
    fn view(&self) -> (String, Vec<usize>) {
        let mut view = String::new();
        let mut starts = Vec::with_capacity(self.cells.len());
        let mut next = 1;
        let blank = format!("{}\n", self.separator);
        for cell in &self.cells {
            for _ in next..cell.lines[0] {
                view.push_str(&blank);
            }
            starts.push(view.len());
            view.push_str(&cell.segment());
            next = cell.lines[cell.lines.len() - 1] + 1;
        }
        for _ in next..=self.lines {
            view.push_str(&blank);
        }
        (view, starts)
    }

    /// Where line `line` of the file (and so of the view) is, when a
    /// markdown cell holds it.
    pub fn place(&self, line: usize) -> Option<CellPlace> {
        let i = self.cells.partition_point(|c| c.lines[c.lines.len() - 1] < line);
        let cell = self.cells.get(i)?;
        let k = cell.lines.iter().position(|l| *l == line)?;
        Some(cell.place(k + 1))
    }

    /// `e` with each document error in it naming the cell it is in (see
    /// [`CellPlace`]) before what is wrong.
    pub fn locate(&self, e: Error) -> Error {
        match e {
            Error::Document { span, msg, snippet } => {
                let msg = match self.place(span.line()) {
                    Some(p) => format!("{p}: {msg}"),
                    None => msg,
                };
                Error::Document { span, msg, snippet }
            }
            Error::Several(all) => Error::Several(all.into_iter().map(|e| self.locate(e)).collect()),
            e => e,
        }
    }

    /// The separator lines' text.
    fn separator_line(&self) -> String {
        format!("{}\n", self.separator)
    }
}

/// A notebook's view as a researcher reads it in a diff: the lines outside
/// its cells (runs of spaces and tabs) as the blank lines they stand for.
pub fn shown(view: &str) -> String {
    view.split_inclusive('\n')
        .map(|l| if l.trim_end_matches('\n').bytes().all(|b| b == b' ' || b == b'\t') { "\n" } else { l })
        .collect()
}

/// The markdown view of the notebook `text` at `path`, checked: each cell
/// reads as a document on its own (an error names the cell and its line),
/// no region opens in one cell and closes in another, and the view finds
/// the regions the cells find one by one.
pub fn read_view(path: &Path, text: &str) -> Result<String> {
    let nb = Notebook::parse(path, text)?;
    let (view, starts) = nb.view();
    let mut regions = Vec::new();
    for (cell, start) in nb.cells.iter().zip(&starts) {
        match super::parse(path, &cell.segment()) {
            Ok(d) => regions.extend(d.regions.iter().map(|r| (r.kind, r.open.start + start))),
            Err(e) => return Err(cell_failure(&nb, &view, &starts, cell, e)),
        }
    }
    let whole = super::parse(path, &view).map_err(|e| nb.locate(e))?;
    let found: Vec<_> = whole.regions.iter().map(|r| (r.kind, r.open.start)).collect();
    if let Some(k) = (0..found.len().max(regions.len())).find(|k| found.get(*k) != regions.get(*k)) {
        let at = found.get(k).or(regions.get(k)).map_or(0, |r| r.1);
        let msg = "this region reads differently with the cells before it than in its cell alone: an earlier \
                   cell leaves a block open (a code fence, an HTML block) that takes it in; close that block in \
                   its own cell, as Jupyter reads each cell on its own";
        return Err(nb.locate(super::error_at(path, &view, at, msg)));
    }
    Ok(view)
}

/// A cell that does not read on its own: a region closed in a later cell
/// is said as such, any other error placed in the cell.
fn cell_failure(nb: &Notebook, view: &str, starts: &[usize], cell: &Cell, e: Error) -> Error {
    let i = nb.cells.iter().position(|c| c.number == cell.number).unwrap_or(0);
    let end = starts[i] + cell.segment().len();
    if let Ok(whole) = super::parse(Path::new(""), view) {
        let spans = whole.regions.iter().find(|r| (starts[i]..end).contains(&r.open.start) && r.close.start >= end);
        if let (Some(r), Error::Document { span, .. }) = (spans, &e) {
            let path = span.path();
            let (line, _) = super::location(view, r.close.start);
            let closed = nb.place(line).map_or_else(|| format!("line {line}"), |p| p.to_string());
            let msg = format!(
                "the `reckon:{}` region opens in this cell and closes in {closed}; a region lies within one \
                 markdown cell: close it in the cell it opens in",
                r.kind
            );
            return nb.locate(super::error_at(path, view, r.open.start, msg));
        }
    }
    match e {
        // The cell's text lies in the view at its start, on the file's lines.
        Error::Document { span, msg, snippet } => {
            let bytes = span.bytes();
            let in_view =
                Box::new(crate::syntax::span(span.path(), view, starts[i] + bytes.start..starts[i] + bytes.end));
            Error::Document { span: in_view, msg: format!("{}: {msg}", cell.place(span.line())), snippet }
        }
        e => e,
    }
}

/// The notebook `original` with the markdown cells of `new_view` (its view
/// as edited) written back: `None` when no cell changed. Only the `source`
/// of a changed cell is replaced; a changed cell whose `source` nbformat
/// would not print as the file has it is refused, nothing written.
pub fn rewrite(path: &Path, original: &str, new_view: &str) -> Result<Option<String>> {
    let nb = Notebook::parse(path, original)?;
    let texts = split_view(&nb, new_view).ok_or_else(|| {
        Error::usage(format!(
            "{}: the edit does not keep to the notebook's markdown cells; nothing was written",
            path.display()
        ))
    })?;
    let mut out = String::with_capacity(original.len());
    let mut copied = 0;
    for (cell, new) in nb.cells.iter().zip(texts) {
        if new == cell.source {
            continue;
        }
        let print = |text: &str| json::source(text, cell.indent, cell.newline);
        if print(&cell.source) != original[cell.span.clone()] {
            let msg = format!(
                "{}: reckon would change this cell, but its `source` is not laid out as Jupyter writes it \
                 (a list of lines, one space of indent per level), and reckon does not rewrite a notebook in \
                 another style; nothing was written — save the notebook from Jupyter (or run `jupyter nbconvert \
                 --to notebook --inplace {}`) and run reckon again",
                cell.place(1).cell_name(),
                path.display()
            );
            return Err(super::error_at(path, original, cell.span.start, msg));
        }
        out.push_str(&original[copied..cell.span.start]);
        out.push_str(&print(&new));
        copied = cell.span.end;
    }
    if copied == 0 {
        return Ok(None);
    }
    out.push_str(&original[copied..]);
    Ok(Some(out))
}

/// Each cell's text in `view`: the separator lines the notebook has between
/// its cells, exactly, and the cells' lines between them. `None` when the
/// view does not have that shape.
fn split_view(nb: &Notebook, view: &str) -> Option<Vec<String>> {
    let blank = nb.separator_line();
    let lines: Vec<&str> = view.split_inclusive('\n').collect();
    let mut at = 0;
    let mut next = 1;
    let mut texts = Vec::with_capacity(nb.cells.len());
    for cell in &nb.cells {
        let gap = cell.lines[0] - next;
        if gap == 0 || lines.get(at..at + gap)?.iter().any(|l| *l != blank) {
            return None;
        }
        at += gap;
        let start = at;
        while lines.get(at).is_some_and(|l| *l != blank) {
            at += 1;
        }
        let mut text = lines[start..at].concat();
        if !cell.source.ends_with('\n') && text.ends_with('\n') {
            text.pop();
        }
        texts.push(text);
        next = cell.lines[cell.lines.len() - 1] + 1;
    }
    let rest = &lines[at..];
    (rest.len() == nb.lines + 1 - next && rest.iter().all(|l| *l == blank)).then_some(texts)
}

/// A run of spaces and tabs that no line of any cell is, for the view's
/// lines outside the cells: whitespace, so markdown reads a blank line.
fn separator(cells: &[Cell]) -> String {
    let mut sep = String::from("\t \t");
    let taken = |s: &str| cells.iter().any(|c| c.source.split('\n').any(|l| l.trim_end_matches('\r') == s));
    while taken(&sep) {
        sep.push_str(" \t");
    }
    sep
}

/// The byte range of each cell of the notebook, in order.
fn cell_ranges(text: &str) -> Option<Vec<Range<usize>>> {
    let top = json::value(text, 0)?;
    let cells = json::members(text, &top)?.into_iter().rev().find(|(k, _)| k == "cells")?.1;
    json::elements(text, &cells)
}

/// A markdown cell read from its bytes: its text and the file's line of
/// each of its lines, or where and why it cannot be read line for line.
fn markdown_cell(
    text: &str,
    lines: &crate::syntax::Lines<'_>,
    number: usize,
    id: Option<String>,
    range: &Range<usize>,
) -> std::result::Result<Cell, (usize, String)> {
    let place = CellPlace { cell: number, id: id.clone(), line: 1 };
    let bad = |msg: &str| (range.start, format!("{place}: {msg}"));
    let members = json::members(text, range).ok_or_else(|| bad("the cell could not be located"))?;
    let span = members.into_iter().rev().find(|(k, _)| k == "source").ok_or_else(|| bad("the cell has no `source`"))?.1;
    let pieces = if text.as_bytes()[span.start] == b'[' {
        json::elements(text, &span).ok_or_else(|| bad("its `source` could not be located"))?
    } else {
        vec![span.clone()]
    };
    let mut source = String::new();
    let mut at_lines: Vec<usize> = Vec::new();
    for (k, piece) in pieces.iter().enumerate() {
        let s: String = serde_json::from_str(&text[piece.clone()]).map_err(|_| bad("its `source` is not text"))?;
        let line = lines.line_col(piece.start).0;
        let inner_break = s.trim_end_matches('\n').contains('\n');
        let last = k + 1 == pieces.len();
        if inner_break || (!last && !s.ends_with('\n')) || at_lines.last().is_some_and(|l| *l >= line) {
            let msg = format!(
                "{}: the cell's text is not written one line per line of the file, as Jupyter writes \
                 notebooks, so reckon cannot say where its lines are; save the notebook from Jupyter (or run \
                 `jupyter nbconvert --to notebook --inplace NOTEBOOK`) and run reckon again",
                CellPlace { line: k + 1, ..place.clone() }
            );
            return Err((piece.start, msg));
        }
        source.push_str(&s);
        at_lines.push(line);
    }
    let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let indent = text[line_start..].bytes().take_while(|b| *b == b' ').count();
    let crlf = text[span.start..].find('\n').is_some_and(|i| text[..span.start + i].ends_with('\r'));
    let newline = if crlf { "\r\n" } else { "\n" };
    Ok(Cell { number, id, source, span, indent, newline, lines: at_lines })
}

/// The byte offset of 1-based `line` and `col` (serde's error position).
fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (start + col.saturating_sub(1)).min(text.len())
}

#[cfg(test)]
mod tests;
