//! Runs whose every request failed (vLLM's `completed: 0`): their times
//! and rates measure no request (`mean_ttft_ms: 0.0`, a `duration` of the
//! refused connections). A table or a value region writing `0.0 ms` would
//! state a TTFT no request had: a cell's value is taken over the other
//! runs alone, and what was left out is said.

use crate::query::{Agg, Cell, Dataset};
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

/// `cell` with the runs left out that say themselves every request failed
/// ([`crate::query::Dataset::requests_all_failed`]: `completed` 0) and
/// logged a time or a rate, whose value then measures no request (a 0, or
/// the 0.17 s a refused connection took); a count, a metric without a
/// unit, or a run that completed requests keeps its value, 0 or not.
pub(super) fn measured(dataset: &Dataset, cell: &Cell, agg: Agg, metric: &MetricInfo) -> Measured {
    let rate_or_time = metric.unit.as_deref().and_then(crate::metric::unit_scale).is_some();
    let failure = crate::metric::zero_signals_failure(&metric.name, metric.direction, metric.unit.as_deref());
    let all = || Measured { value: Some(cell.value), runs: super::sorted(&cell.runs), left_out: 0 };
    if agg == Agg::Count || !failure || !rate_or_time {
        return all();
    }
    let failed = dataset.requests_all_failed(&cell.runs);
    if !failed.contains(&true) {
        return all();
    }
    let kept: Vec<(f64, i64)> =
        cell.values.iter().zip(&cell.runs).zip(&failed).filter(|(_, f)| !**f).map(|((v, r), _)| (*v, *r)).collect();
    let values: Vec<f64> = kept.iter().map(|(v, _)| *v).collect();
    let runs: Vec<i64> = kept.iter().map(|(_, r)| *r).collect();
    let value = (!values.is_empty()).then(|| agg.fold(&values));
    Measured { value, runs: super::sorted(&runs), left_out: cell.values.len() - kept.len() }
}

/// What a region says of the runs it left out, at `at`
/// (`max_concurrency=100, glm47-fp8`): "1 of 1 runs … completed no
/// request …".
pub(super) fn said(m: &Measured, of: usize, metric: &str, at: &str) -> String {
    let none = if m.value.is_none() { " (shown as -)" } else { "" };
    format!("{} of {of} runs at {at} completed no request, so their {metric} measures none{none}: left out", m.left_out)
}
