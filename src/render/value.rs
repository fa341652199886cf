//! `value` regions: one number inline in a sentence. The region's params
//! (`config=baseline max_concurrency=30`) select the runs; `max_over=` /
//! `min_over=` take the best or worst cell over a param instead.

use super::{number_format, region_filter, Args, Context, RegionError, Rendered};
use crate::query::{Agg, Filter, Query};
use crate::syntax::Literal;

/// The arguments that are not param filters.
pub(crate) const KNOWN: [&str; 7] = ["metric", "where", "as_of", "agg", "digits", "max_over", "min_over"];

pub fn render(ctx: &Context, args: &Args) -> Result<Rendered, RegionError> {
    let metric = args.required("metric")?;
    let fmt = number_format(args)?;
    let mut filter = region_filter(ctx, args)?;
    // Every other argument is a param that must equal its value.
    for (k, v) in args.pairs().iter().filter(|(k, _)| !KNOWN.contains(&k.as_str())) {
        if !ctx.dataset.has_param(k) && !crate::query::filter::is_pseudo_param(k) {
            let hint = crate::query::did_you_mean(k, ctx.dataset.params().chain(KNOWN))
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            return Err(RegionError::new(
                Some(k),
                format!("unknown param or argument `{}`{hint}", crate::syntax::excerpt(k)),
            ));
        }
        filter = filter.and(Filter::eq(k, Literal::Text(v.clone())));
    }
    let mut q = Query::new(metric);
    q.filter = filter;
    if let Some(a) = args.get("agg") {
        q.agg = Agg::parse(a).map_err(|e| RegionError::new(Some("agg"), e.to_string()))?;
    }
    let over = match (args.get("max_over"), args.get("min_over")) {
        (Some(_), Some(_)) => {
            return Err(RegionError::new(Some("min_over"), "give `max_over=` or `min_over=`, not both"))
        }
        (Some(p), None) => Some((p, true)),
        (None, Some(p)) => Some((p, false)),
        (None, None) => None,
    };
    super::check_params(ctx, args, &["max_over", "min_over"])?;
    if let Some((param, _)) = over {
        q.rows = vec![param.to_string()];
    }
    let pivot = ctx.dataset.evaluate(&q).map_err(|e| RegionError::new(Some("metric"), e.to_string()))?;
    if over.is_some() {
        super::one_point_per_cell(ctx, &pivot, "the region's params (`{param}=…`)")?;
    } else {
        // One number from runs at several points (concurrencies, batch
        // sizes) would be a median of unlike things: ask which point.
        if let Some((_, _, cell)) = pivot.iter().next() {
            if let Some((param, values)) = ctx.dataset.varying_params(&cell.runs).first() {
                return Err(RegionError::new(
                    Some("metric"),
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
    let cells = pivot.iter().map(|(_, _, c)| c);
    let cell = match over {
        Some((_, max)) => {
            cells.reduce(|a, b| if (max && b.value > a.value) || (!max && b.value < a.value) { b } else { a })
        }
        None => pivot.iter().map(|(_, _, c)| c).next(),
    };
    let Some(cell) = cell else {
        return Err(RegionError::new(
            Some("metric"),
            format!("no run matches this value ({metric} where {})", describe(&q.filter)),
        ));
    };
    let value = cell.value;
    let text = if q.agg == Agg::Count { crate::metric::format_number(value) } else { fmt.format(value) };
    Ok(Rendered { content: text, files: vec![], trace: super::Trace::Value(super::sorted(&cell.runs)) })
}

fn describe(f: &Filter) -> String {
    if f.is_all() {
        "every run".into()
    } else {
        f.as_str().to_string()
    }
}
