//! What a sentence's surroundings offer its reading: the series and metric
//! named in its block and section, the metric of its headings; and a
//! numeric table cell read through its row and column headers.

use std::collections::HashMap;

use super::prose::{Block, BlockKind, Sentence};
use super::read::{self, Reading, Surroundings};
use super::vocab::{Meaning, Tok, Token, Unit, Vocabulary};
use crate::claims::lang::{self, number, Op, Quantifier, Term, ValueClaim};

/// The series a block names once each (an ambiguous name names none), with
/// where.
fn series_of(toks: &[Token]) -> Vec<(usize, String)> {
    toks.iter()
        .filter_map(|t| match &t.kind {
            Tok::Mention(Meaning::Series(s)) if s.len() == 1 => Some((t.start, s[0].clone())),
            _ => None,
        })
        .collect()
}

/// The first metric a block names, by name or as a number's unit, and
/// where in its text.
fn metric_of(toks: &[Token]) -> Option<(usize, String)> {
    toks.iter().find_map(|t| match &t.kind {
        Tok::Mention(Meaning::Metric(m)) | Tok::Number(super::vocab::Number { unit: Unit::Metric(m), .. }) => {
            Some((t.start, m.clone()))
        }
        _ => None,
    })
}

/// At most the first two distinct names of `names`, in order: all a
/// reading takes of a list of series around a sentence (the nearest one
/// that is not its subject).
fn first_two<'n>(names: impl IntoIterator<Item = &'n String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(2);
    for s in names {
        if !out.contains(s) {
            out.push(s.clone());
            if out.len() == 2 {
                break;
            }
        }
    }
    out
}

/// The series a block names, with where, and the nearest two around any
/// point of it.
struct BlockSeries {
    /// Each single-series mention: where it starts in the block's text, and
    /// the series, in text order.
    at: Vec<(usize, String)>,
    /// `before[i]`: the first two distinct of mentions `i - 1` down to 0.
    before: Vec<Vec<String>>,
    /// `after[i]`: the first two distinct of mentions `i` up to the last.
    after: Vec<Vec<String>>,
}

impl BlockSeries {
    fn new(toks: &[Token]) -> BlockSeries {
        let at = series_of(toks);
        let mut before = vec![Vec::new()];
        for (_, s) in &at {
            let last = before.last().map(Vec::as_slice).unwrap_or_default();
            before.push(first_two(std::iter::once(s).chain(last)));
        }
        let mut after = vec![Vec::new(); at.len() + 1];
        for i in (0..at.len()).rev() {
            after[i] = first_two(std::iter::once(&at[i].1).chain(&after[i + 1]));
        }
        BlockSeries { at, before, after }
    }

    /// The first two distinct series of the block nearest `at`: before it
    /// (closest first), then after it.
    fn nearest(&self, at: usize) -> Vec<String> {
        let split = self.at.partition_point(|(p, _)| *p < at);
        first_two(self.before[split].iter().chain(&self.after[split]))
    }
}

/// The blocks of one section (under the same innermost heading, headings
/// left out) and the nearest two series before and after each of them.
#[derive(Default)]
struct Section {
    members: Vec<usize>,
    /// `before[k]`: the first two distinct series of members `k - 1` down to
    /// 0, each block's in text order.
    before: Vec<Vec<String>>,
    /// `after[k]`: the same of members `k` up to the last.
    after: Vec<Vec<String>>,
}

/// A point a sentence sets for the rest of its section: the sentence's
/// block, where it starts in the block's text, and the param's value.
type SectionPoint = (usize, usize, (String, String));

/// What every block of a document names and where its section and table
/// lie, read once: a sentence's surroundings are then looked up, not
/// gathered from every block of its section again (which made lint
/// quadratic in the length of a section).
pub(super) struct Layout {
    series: Vec<BlockSeries>,
    metric: Vec<Option<(usize, String)>>,
    /// The param values each block names (`the Zipf trace`).
    values: Vec<Vec<(String, String)>>,
    /// Points a sentence sets for the rest of its section (`All numbers in
    /// this section are for 100-byte values.`), by section: the block and
    /// the offset in its text the sentence starts at, and the point.
    section_points: HashMap<Option<usize>, Vec<SectionPoint>>,
    sections: HashMap<Option<usize>, Section>,
    /// Table cells by (table, row, column).
    cells: HashMap<(usize, usize, usize), usize>,
    /// The first and last block of each table.
    tables: HashMap<usize, (usize, usize)>,
}

impl Layout {
    pub(super) fn new(vocab: &Vocabulary, blocks: &[Block], tokens: &[Vec<Token>], sentences: &[Sentence]) -> Layout {
        let series: Vec<BlockSeries> = tokens.iter().map(|t| BlockSeries::new(t)).collect();
        let mut sections: HashMap<Option<usize>, Section> = HashMap::new();
        let mut cells = HashMap::new();
        let mut tables: HashMap<usize, (usize, usize)> = HashMap::new();
        for (j, b) in blocks.iter().enumerate() {
            if !matches!(b.kind, BlockKind::Heading(_)) {
                sections.entry(b.headings.last().copied()).or_default().members.push(j);
            }
            if let BlockKind::TableCell { table, row, col } = b.kind {
                cells.entry((table, row, col)).or_insert(j);
                tables.entry(table).and_modify(|(_, last)| *last = j).or_insert((j, j));
            }
        }
        for section in sections.values_mut() {
            let own = |j: usize| first_two(series[j].at.iter().map(|(_, s)| s));
            let mut before = vec![Vec::new()];
            for &j in &section.members {
                let last = before.last().map(Vec::as_slice).unwrap_or_default();
                before.push(first_two(own(j).iter().chain(last)));
            }
            let mut after = vec![Vec::new(); section.members.len() + 1];
            for k in (0..section.members.len()).rev() {
                after[k] = first_two(own(section.members[k]).iter().chain(&after[k + 1]));
            }
            (section.before, section.after) = (before, after);
        }
        let metric = tokens.iter().map(|t| metric_of(t)).collect();
        // A heading's point (`100-byte values`) filters its section as its
        // values (`the Zipf trace`) do.
        let values = tokens
            .iter()
            .zip(blocks)
            .map(|(t, b)| {
                let point = matches!(b.kind, BlockKind::Heading(_)).then(|| read::heading_point(vocab, t)).flatten();
                t.iter()
                    .filter_map(|t| match &t.kind {
                        Tok::Mention(Meaning::Value(p, v)) => Some((p.clone(), v.clone())),
                        _ => None,
                    })
                    .chain(point)
                    .collect()
            })
            .collect();
        let section_points = section_points(vocab, blocks, tokens, sentences);
        Layout { series, metric, values, section_points, sections, cells, tables }
    }

    /// The block of a table cell.
    fn cell(&self, table: usize, row: usize, col: usize) -> Option<usize> {
        self.cells.get(&(table, row, col)).copied()
    }

    /// The first and last block of a table.
    pub(super) fn table_blocks(&self, table: usize) -> Option<(usize, usize)> {
        self.tables.get(&table).copied()
    }

    /// What a sentence's surroundings name: series and metric of its block
    /// (`bi`; the sentence starts at `at` in its text) and section, the
    /// metric of its headings, the subject of the sentence before it in the
    /// block (`previous`, its range in the block's text).
    pub(super) fn surroundings(
        &self,
        blocks: &[Block],
        bi: usize,
        at: usize,
        previous: Option<std::ops::Range<usize>>,
    ) -> Surroundings {
        let own = &self.series[bi];
        let previous_subject = previous.and_then(|r| {
            let k = own.at.partition_point(|(p, _)| *p < r.start);
            own.at.get(k).filter(|(p, _)| r.contains(p)).map(|(_, s)| s.clone())
        });
        // Nearest first: before the sentence (closest first), then after.
        let block_series = own.nearest(at);
        let section_series = self.sections.get(&blocks[bi].headings.last().copied()).map_or_else(Vec::new, |sec| {
            let k = sec.members.partition_point(|j| *j < bi);
            let next = if sec.members.get(k) == Some(&bi) { k + 1 } else { k };
            first_two(sec.before[k].iter().chain(&sec.after[next]))
        });
        // A document's title names the study (`# Turning on LTO for the
        // service binaries`), not the metric of a section below it.
        let sectioned = blocks[bi].headings.len() > 1;
        let heading_metric = blocks[bi]
            .headings
            .iter()
            .rev()
            .filter(|h| !(sectioned && matches!(blocks[**h].kind, BlockKind::Heading(1))))
            .find_map(|h| self.metric[*h].as_ref().map(|(_, m)| m.clone()));
        // `## Hit ratio on the Zipf trace`: the values its headings name, the
        // outer first (an inner heading's value of a param replaces it).
        // … then what a sentence before it in the section set for the rest of it.
        let section = blocks[bi].headings.last().copied();
        let set = self.section_points.get(&section).into_iter().flatten();
        let heading_values = blocks[bi]
            .headings
            .iter()
            .flat_map(|h| self.values[*h].iter().cloned())
            .chain(set.filter(|(b, start, _)| (*b, *start) <= (bi, at)).map(|(_, _, pv)| pv.clone()))
            .collect();
        Surroundings {
            heading_values,
            block_series,
            section_series,
            block_metric: self.metric[bi].as_ref().map(|(_, m)| m.clone()),
            block_metric_later: self.metric[bi].as_ref().is_some_and(|(start, _)| *start >= at),
            heading_metric,
            previous_subject,
        }
    }
}

/// The sentences that set a point for the rest of their section: they
/// speak of the section itself (`this section`), name no series, and name
/// a point (`All numbers in this section are for 100-byte values.`).
fn section_points(
    vocab: &Vocabulary,
    blocks: &[Block],
    tokens: &[Vec<Token>],
    sentences: &[Sentence],
) -> HashMap<Option<usize>, Vec<SectionPoint>> {
    let mut out: HashMap<Option<usize>, Vec<_>> = HashMap::new();
    for s in sentences {
        if matches!(blocks[s.block].kind, BlockKind::Heading(_) | BlockKind::TableCell { .. }) {
            continue;
        }
        let all = &tokens[s.block];
        let toks =
            &all[all.partition_point(|t| t.start < s.range.start)..all.partition_point(|t| t.start < s.range.end)];
        let is = |t: &Token, word: &str| matches!(&t.kind, Tok::Word(w) if w.eq_ignore_ascii_case(word));
        let of_section = toks.windows(2).any(|w| is(&w[0], "this") && is(&w[1], "section"));
        let series = toks.iter().any(|t| matches!(t.kind, Tok::Mention(Meaning::Series(_))));
        if !of_section || series {
            continue;
        }
        let values = toks.iter().filter_map(|t| match &t.kind {
            Tok::Mention(Meaning::Value(p, v)) => Some((p.clone(), v.clone())),
            _ => None,
        });
        let section = out.entry(blocks[s.block].headings.last().copied()).or_default();
        for point in read::heading_point(vocab, toks).into_iter().chain(values) {
            section.push((s.block, s.range.start, point));
        }
    }
    out
}

fn mentioned_metric(toks: &[Token]) -> Option<String> {
    toks.iter().find_map(|t| match &t.kind {
        Tok::Mention(Meaning::Metric(m)) => Some(m.clone()),
        _ => None,
    })
}

/// A numeric table cell read as a value: its column's header names the
/// series (and perhaps the metric or unit), the first column's header
/// the param, the row's first cell the point.
pub(super) fn table_cell(
    vocab: &Vocabulary,
    layout: &Layout,
    blocks: &[Block],
    tokens: &[Vec<Token>],
    bi: usize,
) -> Option<Reading> {
    let BlockKind::TableCell { table, row, col } = blocks[bi].kind else { return None };
    if row == 0 || col == 0 {
        return None;
    }
    let [Token { kind: Tok::Number(n), .. }] = tokens[bi].as_slice() else { return None };
    let cell = |r: usize, c: usize| layout.cell(table, r, c);
    let header = &tokens[cell(0, col)?];
    let series = header.iter().find_map(|t| match &t.kind {
        Tok::Mention(Meaning::Series(s)) if s.len() == 1 => Some(s[0].clone()),
        _ => None,
    })?;
    let param = tokens[cell(0, 0)?].iter().find_map(|t| match &t.kind {
        Tok::Mention(Meaning::Param(p)) => Some(p.clone()),
        _ => None,
    })?;
    let [Token { kind: Tok::Number(point), .. }] = tokens[cell(row, 0)?].as_slice() else { return None };
    let mut notes = Vec::new();
    let mut confidence: f64 = 0.8;
    let metric = if let Some(m) = mentioned_metric(header) {
        m
    } else {
        let m = blocks[bi].headings.iter().rev().find_map(|h| mentioned_metric(&tokens[*h]))?;
        confidence -= 0.15;
        notes.push(format!("metric `{m}` from the section heading"));
        m
    };
    let at = Some(Quantifier::at(&param, number(point.value)));
    let value = ValueClaim::new(Term::level(&series), &metric, at, Op::Approx, n.value);
    Some(Reading {
        claim: lang::Clause::new(value).within(read::within(vocab, &metric, n.precision)).into(),
        number: true,
        confidence,
        notes,
        unplaced: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::prose::{self, Ranges};
    use crate::lint::vocab::{tests::vocabulary, tokenize};
    use std::fmt::Write as _;

    /// Lint read a section by gathering, for each sentence, the series of
    /// every other block of its section: quadratic in a section without
    /// headings (61 s at 1 MB). The layout is read once and each sentence's
    /// surroundings looked up; here 20,000 paragraphs of one section, each
    /// looked up, the comparator named only at either end still found.
    #[test]
    fn finding_21_a_long_section_is_read_once_not_once_per_sentence() {
        let n = 20_000;
        let mut doc = String::from("cuBLAS is the reference here.\n\n");
        for i in 0..n {
            let _ = write!(doc, "Paragraph {i} says nothing of kernels.\n\n");
        }
        doc.push_str("Triton is the other one.\n");
        let v = vocabulary();
        let blocks = prose::blocks(&doc, &Ranges::default());
        let tokens: Vec<Vec<Token>> = blocks.iter().map(|b| tokenize(&v, &b.text)).collect();
        assert_eq!(blocks.len(), n + 2);
        let layout = Layout::new(&v, &blocks, &tokens, &prose::sentences(&blocks));
        for bi in 0..blocks.len() {
            let around = layout.surroundings(&blocks, bi, 0, None);
            let expected: &[&str] = match bi {
                0 => &["triton"],
                _ if bi == n + 1 => &["cublas"],
                _ => &["cublas", "triton"],
            };
            assert_eq!(around.section_series, expected, "block {bi}");
        }
        // Within a block: nearest before the sentence first, then after.
        let text = "Triton, then cuBLAS and CUTLASS. Here it ends. Triton again.\n";
        let blocks = prose::blocks(text, &Ranges::default());
        let tokens: Vec<Vec<Token>> = blocks.iter().map(|b| tokenize(&v, &b.text)).collect();
        let layout = Layout::new(&v, &blocks, &tokens, &prose::sentences(&blocks));
        let at = blocks[0].text.find("Here").unwrap();
        assert_eq!(layout.surroundings(&blocks, 0, at, None).block_series, ["cutlass", "cublas"]);
        let previous = Some(0..at);
        assert_eq!(layout.surroundings(&blocks, 0, at, previous).previous_subject.as_deref(), Some("triton"));
    }
}
