//! Runs whose value is what a failed run logs: a time or a rate of 0 (a
//! benchmark whose every request failed writes `mean_ttft_ms: 0.0`). The
//! claims' judge leaves them out and says so; a table or a value region
//! writing `0.0 ms` would state a TTFT no request had. Here a cell's value
//! is taken over its measured runs alone, and what was left out is said.

use crate::query::{Agg, Cell};
use crate::store::MetricInfo;

/// A cell's value over its measured runs.
pub(super) struct Measured {
    /// `None` when every run logged a failed run's 0.
    pub value: Option<f64>,
    /// The runs the value rests on (ascending ids).
    pub runs: Vec<i64>,
    /// How many runs were left out.
    pub left_out: usize,
}

/// `cell` with the runs that logged a failed run's 0 left out (for a
/// metric whose 0 means that: [`crate::metric::zero_signals_failure`]); a
/// count of runs counts them all.
pub(super) fn measured(cell: &Cell, agg: Agg, metric: &MetricInfo) -> Measured {
    let failure = crate::metric::zero_signals_failure(&metric.name, metric.direction, metric.unit.as_deref());
    if agg == Agg::Count || !failure || !cell.values.contains(&0.0) {
        return Measured { value: Some(cell.value), runs: super::sorted(&cell.runs), left_out: 0 };
    }
    let kept: Vec<(f64, i64)> =
        cell.values.iter().zip(&cell.runs).filter(|(v, _)| **v != 0.0).map(|(v, r)| (*v, *r)).collect();
    let values: Vec<f64> = kept.iter().map(|(v, _)| *v).collect();
    let runs: Vec<i64> = kept.iter().map(|(_, r)| *r).collect();
    let value = (!values.is_empty()).then(|| agg.fold(&values));
    Measured { value, runs: super::sorted(&runs), left_out: cell.values.len() - kept.len() }
}

/// What a region says of the runs it left out, at `at`
/// (`max_concurrency=100, glm47-fp8`): "1 of 1 runs … logged
/// `mean_ttft_ms` 0 …".
pub(super) fn said(m: &Measured, of: usize, metric: &str, at: &str) -> String {
    let none = if m.value.is_none() { ", no measurement (shown as -)" } else { "" };
    format!(
        "{} of {of} runs at {at} logged {metric} 0, what a run whose requests all failed logs{none}: left out, \
         as claims leave it out",
        m.left_out
    )
}
