//! `template` regions: a minijinja template given a query's results. The
//! templates in the repository's `templates/` are built in; a project's own
//! `templates/` folder (beside reckon.toml) overrides them by name.

use minijinja::{context, Environment, Value as JValue};

use super::best::Mark;
use super::{region_filter, Context, RegionError, Rendered};
use crate::doc::spec::TemplateSpec;
use crate::query::{Agg, NumberFormat, Query};

/// The built-in templates, by file name.
pub const BUILTIN: [(&str, &str); 2] = [
    ("best-per-row.md", include_str!("../../templates/best-per-row.md")),
    ("sweeps.md", include_str!("../../templates/sweeps.md")),
];

pub fn render(ctx: &Context, spec: &TemplateSpec) -> Result<Rendered, RegionError> {
    let name = spec.name.value.as_str();
    let fmt = spec.format;
    let source = load(ctx, spec)?;
    if spec.metric.is_none()
        && BUILTIN.iter().any(|(n, _)| *n == name)
        && std::fs::symlink_metadata(ctx.settings.templates.join(name)).is_err()
    {
        return Err(RegionError::at(
            &spec.name,
            format!("the built-in template `{name}` shows a query's results: give it `metric=` (and `rows=`)"),
        ));
    }

    let env = environment(ctx, spec, &source, fmt)?;
    let vars = if let Some(metric) = &spec.metric {
        query_vars(ctx, spec, &metric.value, fmt)?
    } else {
        context! { digits => fmt.precision }
    };
    let tmpl = env.get_template(name).map_err(|e| RegionError::at(&spec.name, e.to_string()))?;
    let out = tmpl.render(vars).map_err(|e| {
        if e.kind() == minijinja::ErrorKind::OutOfFuel {
            return RegionError::at(
                &spec.name,
                format!(
                    "template `{name}` ran more than {} instructions and was stopped (a loop that does not end?); \
                     simplify it, or raise `template_fuel` under [limits] in reckon.toml",
                    ctx.settings.template_fuel
                ),
            );
        }
        RegionError::at(&spec.name, format!("template `{name}`: {e}"))
    })?;
    Ok(Rendered::text(out.trim_end().to_string()))
}

/// The environment a template runs in: limited fuel, values escaped for
/// markdown, the `num` filter.
fn environment<'s>(
    ctx: &Context,
    spec: &'s TemplateSpec,
    source: &'s str,
    fmt: NumberFormat,
) -> Result<Environment<'s>, RegionError> {
    let name = spec.name.value.as_str();
    let mut env = Environment::new();
    env.set_keep_trailing_newline(false);
    // A template loop that never ends (nested `range(90000)`) runs out of
    // fuel instead of hanging the command.
    env.set_fuel(Some(ctx.settings.template_fuel));
    // Values come from logs: each is escaped so that it stays text in the
    // markdown (no `|` splitting a table cell, no `<!--` opening a comment
    // or closing a region). A value the template marks `|safe` is kept.
    env.set_formatter(|out, _state, value| {
        let text = value.to_string();
        let text = if value.is_safe() { text } else { crate::escape::markdown(&text) };
        out.write_str(&text)
            .map_err(|_| minijinja::Error::new(minijinja::ErrorKind::WriteFailure, "writing the output"))
    });
    env.add_filter("num", move |v: f64, digits: Option<usize>| {
        crate::query::NumberFormat { precision: digits.or(fmt.precision) }.format(v)
    });
    env.add_template(name, source).map_err(|e| RegionError::at(&spec.name, format!("template `{name}`: {e}")))?;
    Ok(env)
}

/// What a template with `metric=` sees: the metric, the pivot (each row's
/// key, values and best column), the runs the cells rest on and their
/// sweeps (each cell's newest), and every run the filter passes and its
/// sweeps (`matched_runs`, `matched_sweeps`).
fn query_vars(ctx: &Context, spec: &TemplateSpec, metric: &str, fmt: NumberFormat) -> Result<JValue, RegionError> {
    super::check_list(ctx, spec.rows.as_ref(), "rows")?;
    super::check_list(ctx, spec.cols.as_ref(), "cols")?;
    let list = |g: &Option<crate::doc::Given<Vec<String>>>| g.as_ref().map(|g| g.value.clone()).unwrap_or_default();
    let mut q = Query::new(metric);
    q.rows = list(&spec.rows);
    q.cols = list(&spec.cols);
    if q.cols.is_empty() && ctx.dataset.has_param(&ctx.settings.series) && !q.rows.contains(&ctx.settings.series) {
        q.cols = vec![ctx.settings.series.clone()];
    }
    q.filter = region_filter(ctx, &spec.selection)?;
    if let Some(a) = &spec.agg {
        q.agg = a.value;
    }
    let p = ctx.dataset.evaluate(&q).map_err(|e| RegionError::near(spec.metric.as_ref(), e.to_string()))?;
    super::one_point_per_cell(ctx, &p, spec.metric.as_ref(), "`rows=` or `cols=`")?;
    let direction = p.metric.direction;
    let headers = p.col_headers();
    // The best of a row is the claims' judge's, as `highlight=best` asks it
    // (`A beats others` at the row's point): a lead inside noise is a tie.
    let judged = p.agg != Agg::Count && p.col_params.first() == Some(&ctx.settings.series) && p.col_params.len() == 1;
    let marks = if judged { super::best::marks(ctx, &p, q.filter.clone(), None)? } else { None };
    let table: Vec<JValue> = p
        .rows
        .iter()
        .zip(&p.cells)
        .enumerate()
        .map(|(r, (key, line))| {
            let values: Vec<Option<f64>> = line.iter().map(|c| c.as_ref().map(|c| c.value)).collect();
            let marked = |mark: Mark| -> Vec<usize> {
                let row = marks.as_ref().map(|m| m.cells[r].as_slice()).unwrap_or_default();
                row.iter().enumerate().filter(|(_, m)| **m == mark).map(|(i, _)| i).collect()
            };
            let best = marked(Mark::Best).first().and_then(|&i| Some((i, values[i]?)));
            let ties: Vec<String> = marked(Mark::Tie).into_iter().map(|i| headers[i].clone()).collect();
            context! {
                key => key.iter().map(std::string::ToString::to_string).collect::<Vec<_>>(),
                values => values,
                best => best.map(|(i, _)| headers[i].clone()),
                best_value => best.map(|(_, v)| v),
                ties => ties,
            }
        })
        .collect();
    let metric =
        context! { name => p.metric.name.clone(), unit => p.metric.unit.clone(), direction => direction.as_str() };
    let pivot = context! {
        row_params => p.row_params.clone(),
        col_params => p.col_params.clone(),
        headers => headers.clone(),
        table => table,
    };
    // Every run the filter passes, of every sweep: the cells show each
    // one's newest sweep, and a count of those alone is not the data's.
    let every = ctx
        .dataset
        .evaluate(&Query { agg: Agg::All, ..q.clone() })
        .map_err(|e| RegionError::near(spec.metric.as_ref(), e.to_string()))?;
    Ok(context! {
        digits => fmt.precision,
        metric => metric,
        pivot => pivot,
        runs => p.run_count(),
        sweeps => p.sweeps().into_iter().map(str::to_string).collect::<Vec<_>>(),
        matched_runs => every.run_count(),
        matched_sweeps => every.sweeps().into_iter().map(str::to_string).collect::<Vec<_>>(),
    })
}

/// The template's source: the project's `templates/NAME`, else the built-in one.
fn load(ctx: &Context, spec: &TemplateSpec) -> Result<String, RegionError> {
    let name = spec.name.value.as_str();
    if name.contains("..") || std::path::Path::new(name).is_absolute() {
        return Err(RegionError::at(
            &spec.name,
            format!("name=`{}`: expected a file name inside templates/", crate::syntax::excerpt(name)),
        ));
    }
    let dir = &ctx.settings.templates;
    let own = dir.join(name);
    if std::fs::symlink_metadata(&own).is_ok() {
        // A symlink in templates/ is followed only while it stays inside
        // templates/: `notes.md -> /proc/self/environ` would print the
        // environment into a document (and CI logs).
        let real = crate::fsguard::resolve_within(dir, &own).map_err(|msg| RegionError::at(&spec.name, msg))?;
        let bytes =
            crate::fsguard::read_regular(&real, &own).map_err(|e| RegionError::at(&spec.name, e.to_string()))?;
        return String::from_utf8(bytes)
            .map_err(|_| RegionError::at(&spec.name, format!("{}: not UTF-8 text", own.display())));
    }
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, s)| s.to_string()).ok_or_else(|| {
        let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
        RegionError::at(
            &spec.name,
            format!(
                "no template `{}` in {} or built in ({})",
                crate::syntax::excerpt(name),
                own.parent().map(|p| p.display().to_string()).unwrap_or_default(),
                names.join(", ")
            ),
        )
    })
}
