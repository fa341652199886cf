//! What a sentence's surroundings offer its reading: the series and metric
//! named in its block and section, the metric of its headings; and a
//! numeric table cell read through its row and column headers.

use super::prose::{Block, BlockKind};
use super::read::{self, Reading, Surroundings};
use super::vocab::{Meaning, Tok, Token, Unit, Vocabulary};
use crate::metric::format_number;

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

/// The first metric a block names, by name or as a number's unit.
fn metric_of(toks: &[Token]) -> Option<String> {
    toks.iter().find_map(|t| match &t.kind {
        Tok::Mention(Meaning::Metric(m)) | Tok::Number(super::vocab::Number { unit: Unit::Metric(m), .. }) => {
            Some(m.clone())
        }
        _ => None,
    })
}

/// What a sentence's surroundings name: series and metric of its block
/// (`bi`; the sentence starts at `at` in its text) and section, the metric
/// of its headings, the subject of the sentence before it in the block
/// (`previous`, its range in the block's text).
pub(super) fn surroundings(
    blocks: &[Block],
    tokens: &[Vec<Token>],
    bi: usize,
    at: usize,
    previous: Option<std::ops::Range<usize>>,
) -> Surroundings {
    let previous_subject =
        previous.and_then(|r| series_of(&tokens[bi]).into_iter().find(|(p, _)| r.contains(p)).map(|(_, s)| s));
    // Nearest first: before the sentence (closest first), then after.
    let mut in_block = series_of(&tokens[bi]);
    in_block.sort_by_key(|(p, _)| if *p < at { (0, at - p) } else { (1, p - at) });
    let block_series: Vec<String> = dedup(in_block.into_iter().map(|(_, s)| s));
    let section = blocks[bi].headings.last().copied();
    let same_section = |j: usize| {
        j != bi && blocks[j].headings.last().copied() == section && !matches!(blocks[j].kind, BlockKind::Heading(_))
    };
    let before = (0..bi).rev().filter(|j| same_section(*j));
    let after = (bi + 1..blocks.len()).filter(|j| same_section(*j));
    let section_series = dedup(before.chain(after).flat_map(|j| series_of(&tokens[j]).into_iter().map(|(_, s)| s)));
    let heading_metric = blocks[bi].headings.iter().rev().find_map(|h| metric_of(&tokens[*h]));
    Surroundings {
        block_series,
        section_series,
        block_metric: metric_of(&tokens[bi]),
        heading_metric,
        previous_subject,
    }
}

fn dedup(it: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in it {
        if !out.contains(&s) {
            out.push(s);
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
pub(super) fn table_cell(vocab: &Vocabulary, blocks: &[Block], tokens: &[Vec<Token>], bi: usize) -> Option<Reading> {
    let BlockKind::TableCell { table, row, col } = blocks[bi].kind else { return None };
    if row == 0 || col == 0 {
        return None;
    }
    let [Token { kind: Tok::Number(n), .. }] = tokens[bi].as_slice() else { return None };
    let cell =
        |r: usize, c: usize| blocks.iter().position(|b| b.kind == BlockKind::TableCell { table, row: r, col: c });
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
    let margin = vocab.margins.get(&metric).copied().unwrap_or(0.05);
    let within = if n.precision > margin {
        format!(" within {}%", format_number((n.precision * 1000.0).ceil() / 10.0))
    } else {
        String::new()
    };
    Some(Reading {
        statement: format!(
            "{} on {metric} at {param} = {} ≈ {}{within}",
            read::name(&series),
            format_number(point.value),
            format_number(n.value)
        ),
        number: true,
        confidence,
        notes,
        unplaced: None,
    })
}
