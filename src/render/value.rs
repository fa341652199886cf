//! `value` regions: one number inline in a sentence. The region's params
//! (`config=baseline max_concurrency=30`) select the runs; `max_over=` /
//! `min_over=` take the best or worst cell over a param instead.

use super::failed::Measured;
use super::{region_filter, Context, RegionError, Rendered};
use crate::doc::spec::{ValueSpec, VALUE_ARGS};
use crate::query::{Agg, Filter, Query};
use crate::syntax::Literal;

pub fn render(ctx: &Context, spec: &ValueSpec) -> Result<Rendered, RegionError> {
    let metric = spec.metric.value.as_str();
    let fmt = spec.format;
    let mut filter = region_filter(ctx, &spec.selection)?;
    // Every other argument is a param that must equal its value.
    for pin in &spec.pins {
        let k = pin.value.param.as_str();
        if !ctx.dataset.has_param(k) && !crate::query::filter::is_pseudo_param(k) {
            let hint = crate::query::did_you_mean(k, ctx.dataset.params().chain(VALUE_ARGS))
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            return Err(RegionError::at(
                pin,
                format!("unknown param or argument `{}`{hint}", crate::syntax::excerpt(k)),
            ));
        }
        filter = filter.and(Filter::eq(k, Literal::Text(pin.value.value.clone())));
    }
    let mut q = Query::new(metric);
    q.filter = filter;
    if let Some(a) = &spec.agg {
        q.agg = a.value;
    }
    let over = spec.over.as_ref();
    if let Some(over) = over {
        super::check_names(ctx, Some(&over.param), over.key())?;
        q.rows = vec![over.param.value.clone()];
    }
    let invalid = |e: crate::Error| RegionError::at(&spec.metric, e.to_string());
    let left_out = ctx.dataset.invalid_left_out(&q).map_err(invalid)?;
    let inline = ctx.dataset.invalid_left_out_inline(&q).map_err(invalid)?;
    q.filter = ctx.dataset.valid_results(q.filter);
    let pivot = ctx.dataset.evaluate(&q).map_err(|e| RegionError::at(&spec.metric, e.to_string()))?;
    if over.is_some() {
        super::one_point_per_cell(ctx, &pivot, Some(&spec.metric), "the region's params (`{param}=…`)")?;
    } else {
        // One number from runs at several points (concurrencies, batch
        // sizes) would be a median of unlike things: ask which point.
        if let Some((_, _, cell)) = pivot.iter().next() {
            if let Some((param, values)) = ctx.dataset.varying_params(&cell.runs).first() {
                return Err(RegionError::at(
                    &spec.metric,
                    format!(
                        "the runs this value reads differ in `{param}` ({}); pick one with `{param}=…`, or \
                         take the best or worst with `max_over={param}` / `min_over={param}`",
                        values.join(", ")
                    ),
                ));
            }
        }
    }
    // The cell written: the first of the highest (lowest) for
    // `max_over` (`min_over`), else the one cell.
    let cell = chosen(ctx.dataset, &pivot, q.agg, over.map(|o| o.max));
    let Some(cell) = cell else {
        // A value no run has is likely a typo: said first, with the
        // nearest value runs have.
        let absent = ctx.dataset.absent_values(&q.filter);
        let said: Vec<String> = absent.into_iter().chain(left_out).collect();
        let why = if said.is_empty() { String::new() } else { format!("; {}", said.join("; ")) };
        return Err(RegionError::at(
            &spec.metric,
            format!("no run matches this value ({metric} where {}){why}", describe(&q.filter)),
        ));
    };
    let (cell, measured) = cell;
    let Some(value) = measured.value else { return Err(all_failed(spec, &q, cell)) };
    let inline = match (inline, measured.left_out) {
        (note, 0) => note,
        (note, n) => {
            let said = format!("{n} of {} runs completed no request, left out", cell.runs.len());
            Some(note.map_or(said.clone(), |note| format!("{note}; {said}")))
        }
    };
    let mut text = if q.agg == Agg::Count { crate::metric::format_number(value) } else { fmt.format(value) };
    // `digits=3` writes 3.2e-6 as `0.000`: a number the prose around it
    // states in its own unit, so reckon cannot move it to another; refused.
    if q.agg != Agg::Count && fmt.hides(value) {
        return Err(hidden(&fmt, value, &pivot.metric));
    }
    // The number rests on fewer runs than the region's selection holds:
    // said beside it, as a table says it under itself.
    if let Some(note) = inline {
        text = format!("{text} ({note})");
    }
    Ok(Rendered { content: text, files: vec![], trace: super::Trace::Value(measured.runs) })
}

/// The cell written, over its measured runs (a failed run's 0 is no
/// lowest TTFT): with `max` (`max_over`, or `min_over` when false) the
/// first of the highest (lowest), else the one cell.
fn chosen<'p>(
    dataset: &crate::query::Dataset,
    pivot: &'p crate::query::Pivot,
    agg: Agg,
    max: Option<bool>,
) -> Option<(&'p crate::query::Cell, Measured)> {
    let mut cells = pivot.iter().map(|(_, _, c)| (c, super::failed::measured(dataset, c, agg, &pivot.metric)));
    let Some(max) = max else { return cells.next() };
    let higher = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => (max && b > a) || (!max && b < a),
        (None, Some(_)) => true,
        _ => false,
    };
    cells.reduce(|a, b| if higher(a.1.value, b.1.value) { b } else { a })
}

/// The error for a value every run of which logged a failed run's 0.
fn all_failed(spec: &ValueSpec, q: &Query, cell: &crate::query::Cell) -> RegionError {
    RegionError::at(
        &spec.metric,
        format!(
            "every run of this value ({} where {}) completed no request (`completed` 0): there is no \
             measurement to write ({} run(s): {})",
            spec.metric.value,
            describe(&q.filter),
            cell.runs.len(),
            super::sorted(&cell.runs).iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        ),
    )
}

/// The error for a value `digits=` would write as zero.
fn hidden(fmt: &crate::query::NumberFormat, value: f64, metric: &crate::store::MetricInfo) -> RegionError {
    let unit = metric.unit.as_deref().map(|u| format!(" {u}")).unwrap_or_default();
    RegionError::region(format!(
        "digits={} writes {}{unit} of `{}` as {}: a nonzero value would read as zero; write digits={} or more, or \
         leave digits= out",
        fmt.precision.unwrap_or_default(),
        crate::metric::format_number(value),
        metric.name,
        fmt.format(value),
        crate::query::digits_to_show(value),
    ))
}

fn describe(f: &Filter) -> String {
    if f.is_all() {
        "every run".into()
    } else {
        f.as_str().to_string()
    }
}
