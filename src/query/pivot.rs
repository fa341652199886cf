//! A query (one metric grouped into rows × cols over the runs a filter
//! passes) and its result, the [`Pivot`] of cells (computed in
//! `evaluate`).

use std::collections::{BTreeMap, BTreeSet};

use super::cell::{Agg, Cell, Key};
use super::filter::Filter;
use crate::store::MetricInfo;

/// What to compute: one metric, grouped into rows × cols, over the runs the
/// filter passes. A resolved query is also the key its pivot is kept under
/// for the command: every part of it decides the pivot (the filter's text
/// too, which the pivot quotes).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Query {
    pub metric: String,
    pub rows: Vec<String>,
    pub cols: Vec<String>,
    pub filter: Filter,
    pub agg: Agg,
}

impl Query {
    /// A query of one metric over every run, in one cell, by the default
    /// aggregation.
    pub fn new(metric: impl Into<String>) -> Query {
        Query { metric: metric.into(), rows: Vec::new(), cols: Vec::new(), filter: Filter::all(), agg: Agg::default() }
    }
}

/// A metric pivoted into rows × cols of cells. Row and column keys are
/// sorted (numbers numerically first, then text).
#[derive(Debug, Clone, PartialEq)]
pub struct Pivot {
    pub metric: MetricInfo,
    pub agg: Agg,
    /// The filter's text (empty when every run passes).
    pub filter: String,
    pub row_params: Vec<String>,
    pub col_params: Vec<String>,
    /// One key per row: a value for each row param.
    pub rows: Vec<Vec<Key>>,
    /// One key per column: a value for each col param.
    pub cols: Vec<Vec<Key>>,
    /// `cells[row][col]`; `None` where no run has that combination.
    pub cells: Vec<Vec<Option<Cell>>>,
    /// Runs with a (non-NaN) value that passed the filter.
    pub runs_matched: usize,
    /// Runs left out for lacking a grouping param, by param.
    pub excluded: BTreeMap<String, usize>,
}

impl Pivot {
    /// The cell at a row and column key.
    pub fn get(&self, row: &[Key], col: &[Key]) -> Option<&Cell> {
        let r = self.rows.binary_search_by(|k| k.as_slice().cmp(row)).ok()?;
        let c = self.cols.binary_search_by(|k| k.as_slice().cmp(col)).ok()?;
        self.cells[r][c].as_ref()
    }

    /// The cell at keys written as text (`["30"]`, `["baseline"]`).
    pub fn lookup(&self, row: &[&str], col: &[&str]) -> Option<&Cell> {
        let row: Vec<Key> = row.iter().map(|t| Key::parse(t)).collect();
        let col: Vec<Key> = col.iter().map(|t| Key::parse(t)).collect();
        self.get(&row, &col)
    }

    /// Every cell with its keys, row by row.
    pub fn iter(&self) -> impl Iterator<Item = (&[Key], &[Key], &Cell)> {
        self.rows.iter().zip(&self.cells).flat_map(move |(r, line)| {
            self.cols
                .iter()
                .zip(line)
                .filter_map(move |(c, cell)| cell.as_ref().map(|cell| (r.as_slice(), c.as_slice(), cell)))
        })
    }

    /// Whether no cell has a value.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// How many runs the shown values rest on.
    pub fn run_count(&self) -> usize {
        self.iter().map(|(_, _, c)| c.run_count()).sum()
    }

    /// The sweep dates the shown values rest on, distinct, oldest first.
    pub fn sweeps(&self) -> Vec<&str> {
        let set: BTreeSet<&str> = self.iter().flat_map(|(_, _, c)| c.sweeps.iter().map(String::as_str)).collect();
        set.into_iter().collect()
    }

    /// Things a reader should know that the table does not show: runs left
    /// out for lacking a grouping param, or nothing matching.
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = self
            .excluded
            .iter()
            .map(|(p, n)| format!("{n} run{} without `{p}` left out", if *n == 1 { "" } else { "s" }))
            .collect();
        if self.runs_matched == 0 {
            let cond =
                if self.filter.trim().is_empty() { String::new() } else { format!(" matching `{}`", self.filter) };
            notes.push(format!("no runs with a value of `{}`{cond}", self.metric.name));
        }
        notes
    }
}
