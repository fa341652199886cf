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
        notes.extend(self.older_sweeps().note());
        if self.runs_matched == 0 {
            let cond =
                if self.filter.trim().is_empty() { String::new() } else { format!(" matching `{}`", self.filter) };
            notes.push(format!("no runs with a value of `{}`{cond}", self.metric.name));
        }
        notes
    }
}

/// The mark after a value that rests on an older sweep than the newest its
/// table shows (each cell takes its own newest sweep, so a point not run
/// again keeps its older value beside the new ones).
pub const OLDER_SWEEP_MARK: &str = "†";

/// How many cells of one sweep the note under a table names before "and
/// N more".
const NAMED_PER_SWEEP: usize = 5;

/// The cells of a table whose newest sweep is older than the table's, for
/// the mark on each and the note under the table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OlderSweeps {
    /// The newest sweep any of the table's values rests on.
    newest: Option<String>,
    /// Each older sweep, oldest first, with the cells (as labelled) from it.
    cells: BTreeMap<String, Vec<String>>,
}

impl OlderSweeps {
    /// Against `newest`, the table's newest sweep.
    pub fn new(newest: Option<&str>) -> OlderSweeps {
        OlderSweeps { newest: newest.map(str::to_string), cells: BTreeMap::new() }
    }

    /// Whether a value resting on `sweep` is older than the table's newest.
    pub fn is_older(&self, sweep: Option<&str>) -> bool {
        matches!((sweep, self.newest.as_deref()), (Some(s), Some(n)) if s < n)
    }

    /// Notes the cell `label` whose newest sweep is `sweep` (when older);
    /// whether it is.
    pub fn see(&mut self, label: impl FnOnce() -> String, sweep: Option<&str>) -> bool {
        let older = self.is_older(sweep);
        if let (true, Some(s)) = (older, sweep) {
            self.cells.entry(s.to_string()).or_default().push(label());
        }
        older
    }

    /// "† from sweep 2026-11-17 (lua, O2), older than the table's newest,
    /// 2026-11-24: each cell shows its own newest sweep." — plain text, to
    /// be escaped where it goes; `None` when every cell is of the newest.
    pub fn note(&self) -> Option<String> {
        let newest = self.newest.as_deref()?;
        if self.cells.is_empty() {
            return None;
        }
        let each: Vec<String> = self
            .cells
            .iter()
            .map(|(sweep, cells)| {
                let mut named: Vec<String> = cells.iter().take(NAMED_PER_SWEEP).cloned().collect();
                if cells.len() > NAMED_PER_SWEEP {
                    named.push(format!("and {} more", cells.len() - NAMED_PER_SWEEP));
                }
                format!("sweep {sweep} ({})", named.join("; "))
            })
            .collect();
        Some(format!(
            "{OLDER_SWEEP_MARK} from {}, older than the table's newest, {newest}: each cell shows its own newest sweep",
            each.join(", ")
        ))
    }
}

impl Pivot {
    /// The newest sweep any shown value rests on.
    pub fn newest_sweep(&self) -> Option<&str> {
        self.iter().filter_map(|(_, _, c)| c.latest_sweep()).max()
    }

    /// The label of a cell in a note: its row's values, then its column's
    /// heading (`lua, O2`).
    pub fn cell_label(&self, row: usize, col: usize) -> String {
        let mut parts: Vec<String> = self.rows[row].iter().map(ToString::to_string).collect();
        if !self.col_params.is_empty() {
            parts.extend(self.col_headers().get(col).cloned());
        }
        parts.join(", ")
    }

    /// The cells whose newest sweep is older than the pivot's newest.
    pub fn older_sweeps(&self) -> OlderSweeps {
        let mut older = OlderSweeps::new(self.newest_sweep());
        for (r, line) in self.cells.iter().enumerate() {
            for (c, cell) in line.iter().enumerate() {
                if let Some(cell) = cell {
                    older.see(|| self.cell_label(r, c), cell.latest_sweep());
                }
            }
        }
        older
    }
}

#[cfg(test)]
mod tests {
    use super::OlderSweeps;

    #[test]
    fn the_note_names_each_older_cell_by_sweep_and_counts_past_five() {
        let mut older = OlderSweeps::new(Some("2026-11-24"));
        assert!(!older.see(|| "zstd, O2".into(), Some("2026-11-24")));
        assert!(older.note().is_none(), "every cell of the newest sweep: no note");
        for n in 0..7 {
            assert!(older.see(|| format!("p{n}, O2"), Some("2026-11-17")));
        }
        older.see(|| "lua, pgo".into(), Some("2026-11-10"));
        assert_eq!(
            older.note().unwrap(),
            "† from sweep 2026-11-10 (lua, pgo), sweep 2026-11-17 (p0, O2; p1, O2; p2, O2; p3, O2; p4, O2; and 2 \
             more), older than the table's newest, 2026-11-24: each cell shows its own newest sweep"
        );
        assert!(!OlderSweeps::new(None).is_older(Some("2026-11-10")));
    }
}
