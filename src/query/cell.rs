//! Cells and their aggregation: how a cell's runs become one number
//! ([`Agg`]), the keys of rows and columns ([`Key`]: a [`Value`]), and each cell's value
//! with its provenance ([`Cell`]).
//!
//! Semantics (the user-facing contract of `reckon query`, tables and claims):
//! - A cell is the runs sharing a value for every grouping param (rows and
//!   cols). Values group by their numeric reading when they have one, so a
//!   label `8` and a logged `8.0` land in one cell.
//! - Runs whose value for the metric is NaN are ignored.
//! - A run without one of the grouping params is left out of the pivot and
//!   counted in [`Pivot::excluded`] ("N runs without `concurrency`").
//! - `median` (the default), `mean`, `min`, `max` and `count` use only the
//!   runs of the cell's newest sweep (the latest sweep date among the cell's
//!   runs): repeats within that sweep are aggregated, older sweeps are
//!   superseded. Each cell supersedes on its own, so a configuration that was
//!   not re-run keeps its older value.
//! - `latest` is the value of the cell's newest run by time.
//! - `all` supersedes nothing: the median over every run of the cell, of
//!   every sweep.

use std::fmt;

use super::filter::Field;
use super::runs::Runs;
use crate::syntax::{Value, ValueRef};
use crate::{Error, Result};

/// How a cell's runs become one number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Agg {
    /// Median of the newest sweep's runs.
    #[default]
    Median,
    /// Mean of the newest sweep's runs.
    Mean,
    /// Smallest value of the newest sweep.
    Min,
    /// Largest value of the newest sweep.
    Max,
    /// Number of runs in the newest sweep.
    Count,
    /// The newest run's value.
    Latest,
    /// Median over every run of every sweep (nothing superseded).
    All,
}

impl Agg {
    /// Every aggregation, in the order they are documented.
    pub const ALL: [Agg; 7] = [Agg::Median, Agg::Mean, Agg::Min, Agg::Max, Agg::Count, Agg::Latest, Agg::All];

    /// One value from a cell's values (already narrowed to the runs this
    /// aggregation reads: the newest sweep's, or the latest run for `latest`).
    pub(crate) fn fold(self, values: &[f64]) -> f64 {
        match self {
            Agg::Median | Agg::All => median(values),
            Agg::Mean => values.iter().sum::<f64>() / values.len() as f64,
            Agg::Min => values.iter().copied().fold(f64::INFINITY, f64::min),
            Agg::Max => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            Agg::Count => values.len() as f64,
            Agg::Latest => values.first().copied().unwrap_or(f64::NAN),
        }
    }

    /// The name used on the command line and in directives.
    pub fn as_str(self) -> &'static str {
        match self {
            Agg::Median => "median",
            Agg::Mean => "mean",
            Agg::Min => "min",
            Agg::Max => "max",
            Agg::Count => "count",
            Agg::Latest => "latest",
            Agg::All => "all",
        }
    }

    /// Parses an aggregation name (`--agg mean`, `agg=max`).
    pub fn parse(name: &str) -> Result<Agg> {
        Agg::ALL.into_iter().find(|a| a.as_str().eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
            let names: Vec<&str> = Agg::ALL.iter().map(|a| a.as_str()).collect();
            Error::usage(format!(
                "unknown aggregation `{}`; use one of {}",
                crate::syntax::excerpt(name),
                names.join(", ")
            ))
        })
    }
}

impl fmt::Display for Agg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One part of a row or column key: a param's value as a pivot groups it
/// ([`Value::key`], [`key_of`]). Numbers sort before text, numbers
/// numerically, text with its runs of digits as numbers (`1k`, `2k`,
/// `10k`); see [`Value`].
pub type Key = Value;

/// The key part of a run's field, borrowed while grouping so grouping a
/// run allocates only when it opens a new cell: its numeric reading when
/// it has one (`-0` as `0`), else its text (what [`Value::key`] gives,
/// for a pseudo-param's text too).
pub(crate) fn key_of(field: Field<'_>) -> ValueRef<'_> {
    ValueRef::key_of(field.as_f64(), field.as_text().unwrap_or("NaN"))
}

/// A cell's value and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The aggregated value.
    pub value: f64,
    /// The values the aggregation used, oldest run first.
    pub values: Vec<f64>,
    /// The ids of the runs used, in the same order as `values`.
    pub runs: Vec<i64>,
    /// The sweep dates of the runs used, distinct, oldest first.
    pub sweeps: Vec<String>,
    /// Runs of the cell left out because a newer sweep or run supersedes
    /// them.
    pub superseded: usize,
}

impl Cell {
    /// How many runs the value rests on.
    pub fn run_count(&self) -> usize {
        self.runs.len()
    }

    /// The newest sweep date the value rests on.
    pub fn latest_sweep(&self) -> Option<&str> {
        self.sweeps.last().map(String::as_str)
    }
}

/// The median of a non-empty slice (mean of the middle two when even).
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => v[n / 2],
        _ => f64::midpoint(v[n / 2 - 1], v[n / 2]),
    }
}

/// Aggregates one cell's entries (run position, value), which are in run
/// time order. Sweeps compare as ranks (integers), not as date strings.
pub(crate) fn aggregate(agg: Agg, runs: &Runs, entries: &[(u32, f64)]) -> Cell {
    let used: Vec<(u32, f64)> = match agg {
        Agg::All => entries.to_vec(),
        Agg::Latest => entries.last().copied().into_iter().collect(),
        _ => {
            // A sweep can be named apart from the run's date (a `sweep`
            // label), so its runs need not be the last ones: filter.
            let newest = entries.iter().map(|(i, _)| runs.sweep[*i as usize]).max().unwrap_or(0);
            entries.iter().copied().filter(|(i, _)| runs.sweep[*i as usize] == newest).collect()
        }
    };
    let values: Vec<f64> = used.iter().map(|(_, v)| *v).collect();
    let value = agg.fold(&values);
    let mut sweeps: Vec<u32> = used.iter().map(|(i, _)| runs.sweep[*i as usize]).collect();
    sweeps.sort_unstable();
    sweeps.dedup();
    Cell {
        value,
        values,
        runs: used.iter().map(|(i, _)| runs.ids[*i as usize]).collect(),
        sweeps: sweeps.iter().map(|s| runs.sweeps[*s as usize].clone()).collect(),
        superseded: entries.len() - used.len(),
    }
}
