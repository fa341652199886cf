//! `table` regions: a pivot of one metric (rows × cols), or several metrics
//! of one series (rows × metrics), with number format, row order, best-in-row
//! highlight, ratio columns and an optional provenance caption.

mod cells;
mod notes;

use super::best::Mark;
use super::failed::Measured;
use super::{region_filter, Context, RegionError, Rendered};
use crate::doc::spec::{Given, Sort, TableMetrics, TableSpec};
use crate::escape;
use crate::query::{markdown_rows, Agg, Filter, Key, OlderSweeps, Pivot, Query};
use crate::syntax::Literal;

/// One table column: its name in the data (a value of the column param, a
/// metric, `A / B` for a ratio), its heading and per-row values.
struct Column {
    name: String,
    header: String,
    values: Vec<Option<f64>>,
    /// Per row, the runs behind the value (ascending ids; none when empty).
    runs: Vec<Vec<i64>>,
    /// Per row, the newest sweep the value rests on (a ratio: the older of
    /// its two sides').
    sweeps: Vec<Option<String>>,
    /// For a `ratio=` column, the names of the two columns it divides: a
    /// series may have " / " in its own name, so the heading cannot tell.
    ratio: Option<(String, String)>,
}

/// The data of a table before it is laid out: one key per row, the columns
/// and the pivots they came from (for the caption).
struct Table {
    row_keys: Vec<Vec<Key>>,
    columns: Vec<Column>,
    pivots: Vec<Pivot>,
    /// What the table's numbers leave out that a reader must be told: runs
    /// their tool judged invalid (see [`crate::query::Dataset::valid_results`]).
    notes: Vec<String>,
}

pub fn render(ctx: &Context, spec: &TableSpec) -> Result<Rendered, RegionError> {
    let fmt = spec.format;
    let rows = &spec.rows.value;
    super::check_list(ctx, Some(&spec.rows), "rows")?;
    super::check_list(ctx, spec.cols.as_ref(), "cols")?;
    let filter = region_filter(ctx, &spec.selection)?;
    let judged_filter = filter.clone();
    let agg = spec.agg.as_ref().map_or_else(Agg::default, |a| a.value);
    let mut table = match &spec.metrics {
        TableMetrics::One(metric) => one_metric(ctx, spec, metric, filter, agg)?,
        TableMetrics::Several { metrics, series } => several_metrics(ctx, spec, metrics, series, &filter, agg)?,
    };
    add_ratios(ctx, spec, &mut table)?;
    let highlight = spec.highlight.as_ref().is_some_and(|h| h.value);
    let order = row_order(ctx, spec, &table)?;
    // Read after the order and the ratios, which take the stored values.
    let scaled = notes::shown_units(spec, agg, &mut table)?;
    let Table { row_keys, columns, pivots, notes } = &table;
    // The claims' judge decides: `A beats others at P` for each cell.
    let marks = match (&spec.metrics, pivots.first()) {
        (TableMetrics::One(_), Some(pivot)) if highlight && agg != Agg::Count => {
            super::best::marks(ctx, pivot, judged_filter, spec.highlight.as_ref())?
        }
        _ => None,
    };
    one_point_each(ctx, spec, pivots)?;
    let ratio_cols = columns.iter().filter(|c| c.ratio.is_some()).count();
    let compared = columns.len() - ratio_cols;
    let row_params = pivots.first().map_or_else(|| rows.clone(), |p| p.row_params.clone());
    let mut labels = Labels::parse(ctx, spec.labels.as_ref())?;
    // Names and keys come from logs: escaped, as markdown text; the
    // numbers are reckon's, bold where best.
    let mut header: Vec<String> = row_params.iter().map(|p| escape::markdown(&labels.show(p))).collect();
    header.extend(columns.iter().map(|c| escape::markdown(&heading(&mut labels, c))));
    let mut right: Vec<bool> = (0..rows.len()).map(|i| row_keys.iter().all(|k| k[i].is_num())).collect();
    right.extend(columns.iter().map(|_| true));
    let cells = |v: f64| if agg == Agg::Count { crate::metric::format_number(v) } else { fmt.format(v) };
    let mut from_older = older_sweeps(columns, compared);
    let body: Vec<Vec<String>> = order
        .iter()
        .map(|&r| {
            let mark = |ci: usize| marks.as_ref().and_then(|m| m.cells[r].get(ci).copied()).unwrap_or(Mark::Plain);
            let mut line: Vec<String> =
                row_keys[r].iter().map(|k| escape::markdown(&labels.show(&k.to_string()))).collect();
            line.extend(columns.iter().enumerate().map(|(ci, col)| {
                let sweep = col.sweeps[r].as_deref();
                let label = || {
                    let parts: Vec<String> = row_keys[r].iter().map(ToString::to_string).collect();
                    format!("{}, {}", parts.join(", "), col.header)
                };
                let old_cell = if ci < compared { from_older.see(label, sweep) } else { from_older.is_older(sweep) };
                cells::cell_text(col, (ci, compared), r, (mark(ci), old_cell), &cells)
            }));
            line
        })
        .collect();
    labels.all_used()?;
    let trace = cells::traced_cells(&order, row_keys, columns);
    let mut content = markdown_rows(&header, &right, &body);
    // Each cell takes its own newest sweep: a value older than the
    // table's newest is marked, and its sweep named under the table.
    if let Some(note) = from_older.note() {
        content.push_str("\n_");
        content.push_str(&escape::markdown(&note));
        content.push_str("._\n");
    }
    notes::push_notes(&mut content, spec, scaled.as_deref(), (pivots, agg), marks.as_ref(), notes);
    let content = content.trim_end_matches('\n').to_string();
    Ok(Rendered { content, files: vec![], trace: super::Trace::Table(trace) })
}

/// Each cell one point, as the marks' judge asks too (`query::points`).
fn one_point_each(ctx: &Context, spec: &TableSpec, pivots: &[Pivot]) -> Result<(), RegionError> {
    let (metric, add) = match &spec.metrics {
        TableMetrics::One(metric) => (Some(metric), "the table's `rows=` or `cols=`"),
        TableMetrics::Several { .. } => (None, "the table's `rows=`"),
    };
    pivots.iter().try_for_each(|p| super::one_point_per_cell(ctx, p, metric, add))
}

/// `metric=`: one metric pivoted, a column per value of `cols=` (by
/// default the series param, unless the rows already hold it).
fn one_metric(
    ctx: &Context,
    spec: &TableSpec,
    metric: &Given<String>,
    filter: Filter,
    agg: Agg,
) -> Result<Table, RegionError> {
    let series = &ctx.settings.series;
    let rows = &spec.rows.value;
    let mut q = Query::new(&metric.value);
    q.rows.clone_from(rows);
    let cols = spec.cols.as_ref().map(|c| c.value.clone()).unwrap_or_default();
    q.cols = if cols.is_empty() && ctx.dataset.has_param(series) && !rows.contains(series) {
        vec![series.clone()]
    } else {
        cols
    };
    q.filter = filter;
    q.agg = agg;
    let notes: Vec<String> =
        ctx.dataset.invalid_left_out(&q).map_err(|e| RegionError::at(metric, e.to_string()))?.into_iter().collect();
    q.filter = ctx.dataset.valid_results(q.filter);
    let p = ctx.dataset.evaluate(&q).map_err(|e| RegionError::at(metric, e.to_string()))?;
    absent(ctx, spec, &p, &q)?;
    lacking(&p, spec, series)?;
    let mut notes = notes;
    let columns = p
        .col_headers()
        .into_iter()
        .enumerate()
        .map(|(ci, name)| {
            let at = |r: usize| {
                let mut parts: Vec<String> =
                    p.row_params.iter().zip(&p.rows[r]).map(|(k, v)| format!("{k}={v}")).collect();
                parts.push(name.clone());
                parts.join(", ")
            };
            let cells: Vec<Option<Measured>> = (0..p.rows.len())
                .map(|r| {
                    p.cells[r][ci]
                        .as_ref()
                        .map(|c| cells::measured_said(ctx.dataset, c, agg, &p.metric, &at(r), &mut notes))
                })
                .collect();
            Column {
                header: name.clone(),
                name,
                values: cells.iter().map(|m| m.as_ref().and_then(|m| m.value)).collect(),
                runs: cells.iter().map(|m| m.as_ref().map(|m| m.runs.clone()).unwrap_or_default()).collect(),
                sweeps: p
                    .cells
                    .iter()
                    .map(|r| r[ci].as_ref().and_then(|c| c.latest_sweep().map(str::to_string)))
                    .collect(),
                ratio: None,
            }
        })
        .collect();
    Ok(Table { row_keys: p.rows.clone(), columns, pivots: vec![p], notes })
}

/// A table left empty by a filter value no run has (a typo, likely) would
/// render its header alone and pass: an error at `where=` naming the
/// value and the nearest one runs have.
fn absent(ctx: &Context, spec: &TableSpec, p: &Pivot, q: &Query) -> Result<(), RegionError> {
    if p.runs_matched > 0 {
        return Ok(());
    }
    let absent = ctx.dataset.absent_values(&q.filter);
    if absent.is_empty() {
        return Ok(());
    }
    Err(RegionError::near(
        spec.selection.filter.as_ref(),
        format!("the table of `{}` has no row: {}", p.metric.name, absent.join("; ")),
    ))
}

/// A table left without a row because every run of its metric lacks a
/// param it is laid out by (`rows=`, `cols=`, or the series as the default
/// columns) would render its header alone and pass: an error naming the
/// argument and the param.
fn lacking(p: &Pivot, spec: &TableSpec, series: &str) -> Result<(), RegionError> {
    if !p.rows.is_empty() || p.excluded.is_empty() {
        return Ok(());
    }
    let (param, runs) = p.excluded.iter().max_by_key(|(_, n)| **n).map(|(k, n)| (k.as_str(), *n)).unwrap_or_default();
    let (arg, at, named) = if spec.rows.value.iter().any(|r| r == param) {
        ("rows", Some(&spec.rows), format!("`rows={}`", spec.rows.raw))
    } else if let Some(cols) = &spec.cols {
        ("cols", Some(cols), format!("`cols={}`", cols.raw))
    } else {
        ("cols", None, format!("its columns (by default the series, reckon.toml's `series = \"{series}\"`)"))
    };
    let runs = if runs == 1 { "its 1 run lacks".to_string() } else { format!("all {runs} of its runs lack") };
    Err(RegionError::near(
        at,
        format!(
            "the table of `{}` has no row: {runs} `{param}`, which {named} lays it out by; give `{arg}=` a \
             param its runs have, or filter to runs that have `{param}`",
            p.metric.name
        ),
    ))
}

/// `metrics=` with `series=`: several metrics of one series, a column per
/// metric, headed with its unit.
fn several_metrics(
    ctx: &Context,
    spec: &TableSpec,
    metrics: &Given<Vec<String>>,
    series: &Given<String>,
    filter: &Filter,
    agg: Agg,
) -> Result<Table, RegionError> {
    unknown_series(ctx, series)?;
    let series_filter = Filter::eq(&ctx.settings.series, Literal::Text(series.value.clone()));
    let mut pivots = Vec::new();
    let mut notes = Vec::new();
    for m in &metrics.value {
        let mut q = Query::new(m);
        q.rows.clone_from(&spec.rows.value);
        q.filter = filter.clone().and(series_filter.clone());
        q.agg = agg;
        let left_out = ctx.dataset.invalid_left_out(&q).map_err(|e| RegionError::at(metrics, e.to_string()))?;
        notes.extend(left_out.map(|n| format!("{}: {n}", escape::markdown(m))));
        q.filter = ctx.dataset.valid_results(q.filter);
        let p = ctx.dataset.evaluate(&q).map_err(|e| RegionError::at(metrics, e.to_string()))?;
        absent(ctx, spec, &p, &q)?;
        pivots.push(p);
    }
    let mut keys: Vec<Vec<Key>> = pivots.iter().flat_map(|p| p.rows.iter().cloned()).collect();
    keys.sort();
    keys.dedup();
    let columns = pivots
        .iter()
        .map(|p| {
            let unit = p.metric.unit.as_deref().map(|u| format!(" ({u})")).unwrap_or_default();
            let cell_at = |k: &Vec<Key>| p.rows.iter().position(|r| r == k).and_then(|i| p.cells[i][0].as_ref());
            let at = |k: &Vec<Key>| {
                let parts: Vec<String> = p.row_params.iter().zip(k).map(|(n, v)| format!("{n}={v}")).collect();
                parts.join(", ")
            };
            let cells: Vec<Option<Measured>> = keys
                .iter()
                .map(|k| cell_at(k).map(|c| cells::measured_said(ctx.dataset, c, agg, &p.metric, &at(k), &mut notes)))
                .collect();
            Column {
                name: p.metric.name.clone(),
                header: format!("{}{unit}", p.metric.name),
                values: cells.iter().map(|m| m.as_ref().and_then(|m| m.value)).collect(),
                runs: cells.iter().map(|m| m.as_ref().map(|m| m.runs.clone()).unwrap_or_default()).collect(),
                sweeps: keys.iter().map(|k| cell_at(k).and_then(|c| c.latest_sweep().map(str::to_string))).collect(),
                ratio: None,
            }
        })
        .collect();
    Ok(Table { row_keys: keys, columns, pivots, notes })
}

/// `series=` naming no series (a typo, the series' param) would pass as a
/// header with no row: an error naming the series, as in a claim.
fn unknown_series(ctx: &Context, given: &Given<String>) -> Result<(), RegionError> {
    let series = given.value.as_str();
    let param = &ctx.settings.series;
    let canonical = ctx.dataset.value_name(param, series).ok().flatten().unwrap_or_else(|| series.to_string());
    let mut held = ctx.dataset.param_values(param);
    if held.is_empty() || held.contains(&canonical) {
        return Ok(());
    }
    held.sort();
    let known: Vec<String> = held.iter().map(|v| format!("`{v}`")).collect();
    Err(RegionError::at(
        given,
        format!(
            "series=`{}`: no run has that value of `{param}`; the series are: {}",
            crate::syntax::excerpt(series),
            known.join(", ")
        ),
    ))
}

/// `ratio=A/B,…`: a column per ratio of two columns, row by row.
fn add_ratios(ctx: &Context, spec: &TableSpec, table: &mut Table) -> Result<(), RegionError> {
    let Some(given) = &spec.ratio else { return Ok(()) };
    for ratio in &given.value {
        let columns = &table.columns;
        // A column's own name may hold a `/` (`fp8 / tp2`): the split is
        // the first at which both sides name columns.
        let splits = ratio.match_indices('/').map(|(at, _)| (ratio[..at].trim(), ratio[at + 1..].trim()));
        let found = splits.clone().find_map(|(a, b)| Some((column_of(ctx, columns, a)?, column_of(ctx, columns, b)?)));
        let Some((ia, ib)) = found else {
            let known: Vec<&str> = columns.iter().map(|c| c.header.as_str()).collect();
            let missing = splits
                .flat_map(|(a, b)| [a, b])
                .find(|name| column_of(ctx, columns, name).is_none())
                .unwrap_or(ratio.as_str());
            return Err(RegionError::at(
                given,
                format!(
                    "ratio=`{}`: no column `{}`; columns are: {}",
                    crate::syntax::excerpt(ratio),
                    crate::syntax::excerpt(missing),
                    known.join(", ")
                ),
            ));
        };
        let values: Vec<Option<f64>> = (0..table.row_keys.len())
            .map(|r| match (columns[ia].values[r], columns[ib].values[r]) {
                (Some(x), Some(y)) if y != 0.0 => Some(x / y),
                _ => None,
            })
            .collect();
        let runs = (0..table.row_keys.len())
            .map(|r| match values[r] {
                Some(_) => super::sorted(&[columns[ia].runs[r].as_slice(), &columns[ib].runs[r]].concat()),
                None => Vec::new(),
            })
            .collect();
        let sweeps = (0..table.row_keys.len())
            .map(|r| match values[r] {
                Some(_) => columns[ia].sweeps[r].clone().min(columns[ib].sweeps[r].clone()),
                None => None,
            })
            .collect();
        let (a, b) = (columns[ia].name.clone(), columns[ib].name.clone());
        let name = format!("{a} / {b}");
        let ratio = Some((a, b));
        table.columns.push(Column { header: name.clone(), name, values, runs, sweeps, ratio });
    }
    Ok(())
}

/// `sort=`: the rows in the pivot's order (`asc`), reversed (`desc`), or by
/// a column's values (`-COLUMN` descending).
fn row_order(ctx: &Context, spec: &TableSpec, table: &Table) -> Result<Vec<usize>, RegionError> {
    let mut order: Vec<usize> = (0..table.row_keys.len()).collect();
    let Some(sort) = &spec.sort else { return Ok(order) };
    match &sort.value {
        Sort::Asc => {}
        Sort::Desc => order.reverse(),
        Sort::Column { name, descending } => {
            let Some(ci) = column_of(ctx, &table.columns, name) else {
                return Err(RegionError::at(
                    sort,
                    format!(
                        "sort=`{}`: expected `asc`, `desc`, or a column name (prefix `-` for descending)",
                        crate::syntax::excerpt(&sort.raw)
                    ),
                ));
            };
            let v = &table.columns[ci].values;
            order.sort_by(|&x, &y| {
                let o = v[x].unwrap_or(f64::NAN).total_cmp(&v[y].unwrap_or(f64::NAN));
                if *descending {
                    o.reverse()
                } else {
                    o
                }
            });
        }
    }
    Ok(order)
}

/// A column's heading with `labels=` applied: a ratio's two sides each, a
/// `metric (unit)` heading whole.
fn heading(labels: &mut Labels, c: &Column) -> String {
    match &c.ratio {
        Some((a, b)) => format!("{} / {}", labels.show(a), labels.show(b)),
        _ if c.header != c.name => {
            // `metric (unit)`: a label replaces the whole heading.
            let label = labels.show(&c.name);
            if label == c.name {
                c.header.clone()
            } else {
                label
            }
        }
        _ => labels.show(&c.name),
    }
}

/// The table's newest sweep, over the columns of values (the first
/// `compared`; ratios rest on them).
fn older_sweeps(columns: &[Column], compared: usize) -> OlderSweeps {
    let newest = columns[..compared].iter().flat_map(|c| c.sweeps.iter().flatten()).max();
    OlderSweeps::new(newest.map(String::as_str))
}

/// The column a name written in an argument (`ratio=`, `sort=`) means: its
/// data name, an alias of it (reckon.toml), or its heading.
fn column_of(ctx: &Context, columns: &[Column], written: &str) -> Option<usize> {
    let canonical = ctx.dataset.value_name(&ctx.settings.series, written).ok().flatten();
    let canonical = canonical.as_deref().or_else(|| ctx.dataset.metric_name(written).ok());
    columns.iter().position(|c| c.name == written || c.header == written || Some(c.name.as_str()) == canonical)
}

/// Display labels for a table's headings and row names: `labels="NAME=LABEL;
/// NAME=LABEL"` (NAME a row param, a column, a row's value, or an alias of
/// one), and `aliases` in the list for the first word reckon.toml's
/// `[aliases]` give each name. A label that names nothing in the table is
/// an error, so a typo does not pass for a choice.
struct Labels {
    /// (NAME as written, its canonical forms, label, used).
    pairs: Vec<(String, Vec<String>, String, bool)>,
    first_alias: std::collections::BTreeMap<String, String>,
    /// The `labels=` argument, for errors.
    given: Option<Given<String>>,
}

impl Labels {
    fn parse(ctx: &Context, given: Option<&Given<String>>) -> Result<Labels, RegionError> {
        let mut labels =
            Labels { pairs: Vec::new(), first_alias: std::collections::BTreeMap::new(), given: given.cloned() };
        let Some(given) = given else { return Ok(labels) };
        for item in given.value.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            if item == "aliases" {
                labels.first_alias = ctx
                    .settings
                    .aliases
                    .iter()
                    .filter_map(|(name, words)| Some((name.clone(), words.first()?.clone())))
                    .collect();
                continue;
            }
            // A name may hold `=` itself (`topk=1+v2=…`): split at the first
            // `=` after which the left side names something the data hold.
            let names_something = |name: &str| {
                let name = name.trim();
                ctx.dataset.has_param(name)
                    || ctx.dataset.metric_name(name).is_ok()
                    || ctx.dataset.value_name(&ctx.settings.series, name).ok().flatten().is_some()
                    || ctx.dataset.param_values(&ctx.settings.series).iter().any(|v| v == name)
            };
            let split = item
                .match_indices('=')
                .map(|(i, _)| (&item[..i], &item[i + 1..]))
                .find(|(name, _)| names_something(name))
                .or_else(|| item.split_once('='));
            let Some((name, label)) = split else {
                return Err(RegionError::at(
                    given,
                    format!(
                        "labels: `{}`: expected NAME=LABEL (pairs separated by `;`) or `aliases`, \
                         e.g. labels=\"max_concurrency=Concurrency; baseline=baseline (tok/s)\"",
                        crate::syntax::excerpt(item)
                    ),
                ));
            };
            let name = name.trim().to_string();
            // What the name may stand for: a param, a metric or a series value.
            let mut canonical = vec![name.clone()];
            canonical.extend(ctx.dataset.param_name(&name, "labels").ok());
            canonical.extend(ctx.dataset.metric_name(&name).ok().map(str::to_string));
            canonical.extend(ctx.dataset.value_name(&ctx.settings.series, &name).ok().flatten());
            labels.pairs.push((name, canonical, label.trim().to_string(), false));
        }
        Ok(labels)
    }

    /// How a name is shown.
    fn show(&mut self, name: &str) -> String {
        if let Some(pair) = self.pairs.iter_mut().find(|p| p.1.iter().any(|c| c == name)) {
            pair.3 = true;
            return pair.2.clone();
        }
        self.first_alias.get(name).cloned().unwrap_or_else(|| name.to_string())
    }

    fn all_used(&self) -> Result<(), RegionError> {
        match self.pairs.iter().find(|p| !p.3) {
            Some((name, ..)) => Err(RegionError::near(
                self.given.as_ref(),
                format!("labels: `{}` is neither a heading nor a row of this table", crate::syntax::excerpt(name)),
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table over two series, one of them named with " / " (as a
    /// researcher names a combination: `fp8 / tp2`), with three repeats at
    /// each of two concurrencies; `extra` holds more `key=value` arguments
    /// (`_` for a space).
    fn slash_series_table(extra: &str) -> String {
        use crate::run::{RawRun, Value};
        use crate::store::Store;
        let mut store = Store::open_in_memory().unwrap();
        let mut raws = Vec::new();
        let mut line = 0;
        for (config, tput) in [("fp8 / tp2", 200.0), ("bf16", 100.0)] {
            for c in [1.0, 8.0] {
                for rep in [-1.0, 0.0, 1.0] {
                    line += 1;
                    let mut raw = RawRun::new(line);
                    raw.param("config", Value::Text(config.into()));
                    raw.param("concurrency", Value::Num(c));
                    raw.metric("output_throughput", tput * c + rep);
                    raws.push(raw);
                }
            }
        }
        crate::store::builder::add_source(&mut store, "runs.jsonl", "2026-11-29T10:00:00Z", raws);
        let dataset = crate::query::Dataset::load(&store).unwrap();
        let settings = crate::render::Settings {
            series: "config".into(),
            templates: std::path::PathBuf::from("templates"),
            aliases: std::collections::BTreeMap::new(),
            margins: crate::metric::Margins::default(),
            sql_seconds: 1.0,
            template_fuel: 1000,
            supersede: crate::claims::judge::Supersede::Cell,
        };
        let ctx = Context { dataset: &dataset, store: &store, settings: &settings, doc_dir: std::path::Path::new(".") };
        let extra: Vec<String> = extra
            .split_whitespace()
            .map(|pair| pair.split_once('=').unwrap())
            .map(|(k, v)| format!("{k}=\"{}\"", v.replace('_', " ")))
            .collect();
        let directive = format!("table metric=output_throughput rows=concurrency digits=0 {}", extra.join(" "));
        match crate::doc::spec::read_one(&directive) {
            crate::doc::RegionSpec::Table(spec) => render(&ctx, &spec).unwrap().content,
            other => panic!("not a table: {other:?}"),
        }
    }

    #[test]
    fn a_series_named_with_a_slash_is_a_column_like_any_other() {
        // Its values are numbers (not `x` ratios) and it competes for best.
        assert_eq!(
            slash_series_table("highlight=best"),
            "| concurrency | bf16 | fp8 / tp2 |\n|---:|---:|---:|\n| 1 | 100 | **200** |\n| 8 | 800 | **1600** |"
        );
        // A ratio of it to another series is still a ratio column.
        assert_eq!(
            slash_series_table("ratio=fp8_/_tp2/bf16"),
            "| concurrency | bf16 | fp8 / tp2 | fp8 / tp2 / bf16 |\n|---:|---:|---:|---:|\n\
             | 1 | 100 | 200 | 2.00x |\n| 8 | 800 | 1600 | 2.00x |"
        );
    }
}
