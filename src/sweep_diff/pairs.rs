//! When two sweeps share no cell — a sweep split at midnight into two days,
//! two experiments on the same days — a diff of them compares nothing:
//! which other sweeps do share cells with either side, so the researcher
//! can name a pair that compares something.

use serde::Serialize;

use super::{default_by, metric_runs, sides_by_cell, sweeps, two_sweeps, MetricSpec};
use crate::query::{Dataset, Filter};
use crate::Result;

/// Two sweeps that share cells, and how many.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct SweepPair {
    pub from: String,
    pub to: String,
    pub cells: usize,
}

/// What decides the cells of a pair of sweeps besides the two sweeps.
pub(super) struct Pairing<'a> {
    pub(super) metrics: &'a [MetricSpec],
    pub(super) chosen: &'a [String],
    pub(super) filter: Option<&'a Filter>,
}

/// How many cells of the metrics both sweeps measured, each metric keyed
/// as a diff of the two would key it.
fn shared_cells(dataset: &Dataset, pairing: &Pairing<'_>, pair: (&str, &str)) -> Result<usize> {
    let mut n = 0;
    let records = two_sweeps(dataset, pair, pairing.filter)?;
    for spec in pairing.metrics {
        let runs = metric_runs(dataset, &records, &spec.0, pair.1)?;
        let by = if pairing.chosen.is_empty() { default_by(&runs) } else { pairing.chosen.to_vec() };
        n += sides_by_cell(&runs, &by).values().filter(|(old, new)| !old.is_empty() && !new.is_empty()).count();
    }
    Ok(n)
}

/// For each side of the pair `(from, to)` that compared nothing, the
/// newest older sweep sharing cells with it (the newer side's first):
/// the pairs a diff could compare instead.
pub(super) fn partners(dataset: &Dataset, pairing: &Pairing<'_>, (from, to): (&str, &str)) -> Result<Vec<SweepPair>> {
    let all = sweeps(dataset, pairing.filter);
    let mut pairs = Vec::new();
    for side in [to, from] {
        for older in all.iter().rev().filter(|s| s.as_str() < side && s.as_str() != from) {
            let cells = shared_cells(dataset, pairing, (older, side))?;
            if cells > 0 {
                pairs.push(SweepPair { from: older.clone(), to: side.to_string(), cells });
                break;
            }
        }
    }
    Ok(pairs)
}
