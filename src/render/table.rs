//! `table` regions: a pivot of one metric (rows × cols), or several metrics
//! of one series (rows × metrics), with number format, row order, best-in-row
//! highlight, ratio columns and an optional provenance caption.

use super::{number_format, region_filter, Args, Context, RegionError, Rendered};
use crate::metric::Direction;
use crate::query::{markdown_table, Agg, Key, Pivot, Query};

const ARGS: [&str; 12] =
    ["metric", "metrics", "series", "rows", "cols", "where", "agg", "digits", "sort", "highlight", "ratio", "caption"];

/// One table column: its heading, per-row values, and the direction that
/// makes a value "best" (None: not compared).
struct Column {
    header: String,
    values: Vec<Option<f64>>,
    direction: Option<Direction>,
}

pub fn render(ctx: &Context, args: &Args) -> Result<Rendered, RegionError> {
    args.allow(&ARGS)?;
    let fmt = number_format(args)?;
    let rows = args.list("rows");
    if rows.is_empty() {
        return Err(RegionError::new(
            None,
            "missing argument `rows=` (the param each table row stands for, e.g. rows=concurrency)",
        ));
    }
    super::check_params(ctx, args, &["rows", "cols"])?;
    let filter = region_filter(ctx, args)?;
    let agg = match args.get("agg") {
        Some(a) => Agg::parse(a).map_err(|e| RegionError::new(Some("agg"), e.to_string()))?,
        None => Agg::default(),
    };
    let eval = |q: &Query, arg: &str| ctx.dataset.evaluate(q).map_err(|e| RegionError::new(Some(arg), e.to_string()));

    let (row_keys, mut columns, pivots): (Vec<Vec<Key>>, Vec<Column>, Vec<Pivot>) = match (args.get("metric"), args.get("metrics")) {
        (Some(metric), None) => {
            let mut q = Query::new(metric);
            q.rows = rows.clone();
            let cols = args.list("cols");
            q.cols = if cols.is_empty() && ctx.dataset.has_param(&ctx.cfg.series) && !rows.contains(&ctx.cfg.series) {
                vec![ctx.cfg.series.clone()]
            } else {
                cols
            };
            q.filter = filter;
            q.agg = agg;
            let p = eval(&q, "metric")?;
            let direction = Some(ctx.cfg.direction(&p.metric.name, p.metric.direction));
            let columns = p
                .col_headers()
                .into_iter()
                .enumerate()
                .map(|(ci, header)| Column { header, values: p.cells.iter().map(|r| r[ci].as_ref().map(|c| c.value)).collect(), direction })
                .collect();
            (p.rows.clone(), columns, vec![p])
        }
        (None, Some(_)) => {
            let series = args.required("series")?;
            let metrics = args.list("metrics");
            let series_filter = crate::query::Filter::parse(&format!("{} = '{}'", ctx.cfg.series, series.replace('\'', "\\'")))
                .map_err(|e| RegionError::new(Some("series"), e.to_string()))?;
            let mut pivots = Vec::new();
            for m in &metrics {
                let mut q = Query::new(m);
                q.rows = rows.clone();
                q.filter = filter.clone().and(series_filter.clone());
                q.agg = agg;
                pivots.push(eval(&q, "metrics")?);
            }
            let mut keys: Vec<Vec<Key>> = pivots.iter().flat_map(|p| p.rows.iter().cloned()).collect();
            keys.sort();
            keys.dedup();
            let columns = pivots
                .iter()
                .map(|p| {
                    let unit = p.metric.unit.as_deref().map(|u| format!(" ({u})")).unwrap_or_default();
                    Column {
                        header: format!("{}{unit}", p.metric.name),
                        values: keys.iter().map(|k| p.rows.iter().position(|r| r == k).and_then(|i| p.cells[i][0].as_ref()).map(|c| c.value)).collect(),
                        direction: None,
                    }
                })
                .collect();
            (keys, columns, pivots)
        }
        (Some(_), Some(_)) => return Err(RegionError::new(Some("metrics"), "give either `metric=` (one metric pivoted) or `metrics=` with `series=` (several metrics of one series), not both")),
        (None, None) => return Err(RegionError::new(None, "missing argument `metric=` (or `metrics=` with `series=`)")),
    };

    for spec in args.list("ratio") {
        let Some((a, b)) = spec.split_once('/') else {
            return Err(RegionError::new(
                Some("ratio"),
                format!("ratio=`{spec}`: expected COLUMN/COLUMN, e.g. ratio=baseline/eagle-topk4-v1"),
            ));
        };
        let find = |name: &str| {
            columns.iter().position(|c| c.header == name.trim()).ok_or_else(|| {
                let known: Vec<&str> = columns.iter().map(|c| c.header.as_str()).collect();
                RegionError::new(
                    Some("ratio"),
                    format!("ratio=`{spec}`: no column `{}`; columns are: {}", name.trim(), known.join(", ")),
                )
            })
        };
        let (ia, ib) = (find(a)?, find(b)?);
        let values = (0..row_keys.len())
            .map(|r| match (columns[ia].values[r], columns[ib].values[r]) {
                (Some(x), Some(y)) if y != 0.0 => Some(x / y),
                _ => None,
            })
            .collect();
        columns.push(Column { header: format!("{} / {}", a.trim(), b.trim()), values, direction: None });
    }

    let highlight = match args.get("highlight") {
        None | Some("none") => false,
        Some("best") => true,
        Some(v) => {
            return Err(RegionError::new(Some("highlight"), format!("highlight=`{v}`: expected `best` or `none`")))
        }
    };

    let mut order: Vec<usize> = (0..row_keys.len()).collect();
    match args.get("sort") {
        None | Some("asc") => {}
        Some("desc") => order.reverse(),
        Some(col) => {
            let (name, desc) = match col.strip_prefix('-') {
                Some(n) => (n, true),
                None => (col, false),
            };
            let Some(ci) = columns.iter().position(|c| c.header == name) else {
                return Err(RegionError::new(
                    Some("sort"),
                    format!("sort=`{col}`: expected `asc`, `desc`, or a column name (prefix `-` for descending)"),
                ));
            };
            let v = &columns[ci].values;
            order.sort_by(|&x, &y| {
                let o = v[x].unwrap_or(f64::NAN).total_cmp(&v[y].unwrap_or(f64::NAN));
                if desc {
                    o.reverse()
                } else {
                    o
                }
            });
        }
    }

    let ratio_cols = columns.iter().filter(|c| c.header.contains(" / ")).count();
    let compared = columns.len() - ratio_cols;
    let mut header: Vec<String> = rows.clone();
    header.extend(columns.iter().map(|c| c.header.clone()));
    let mut right: Vec<bool> = (0..rows.len()).map(|i| row_keys.iter().all(|k| k[i].is_num())).collect();
    right.extend(columns.iter().map(|_| true));
    let body: Vec<Vec<String>> = order
        .iter()
        .map(|&r| {
            let best = if highlight { best_in_row(&columns[..compared], r) } else { None };
            let mut line: Vec<String> = row_keys[r].iter().map(Key::to_string).collect();
            for (ci, col) in columns.iter().enumerate() {
                let text = match col.values[r] {
                    None => "-".to_string(),
                    Some(v) if col.header.contains(" / ") && ci >= compared => {
                        format!("{}x", crate::query::NumberFormat { precision: Some(2) }.format(v))
                    }
                    Some(v) if agg == Agg::Count => crate::metric::format_number(v),
                    Some(v) => fmt.format(v),
                };
                let is_best = best.is_some_and(|b| col.values[r] == Some(b)) && ci < compared;
                line.push(if is_best { format!("**{text}**") } else { text });
            }
            line
        })
        .collect();
    let mut content = markdown_table(&header, &right, &body);
    if args.flag("caption")? {
        content.push('\n');
        content.push_str(&caption(&pivots, agg));
        content.push('\n');
    }
    Ok(Rendered { content: content.trim_end_matches('\n').to_string(), files: vec![] })
}

/// The best value of a row among the compared columns, when there are at
/// least two values and the metric has a direction.
fn best_in_row(columns: &[Column], r: usize) -> Option<f64> {
    let dir = columns.first()?.direction?;
    let vals: Vec<f64> = columns.iter().filter_map(|c| c.values[r]).collect();
    if vals.len() < 2 {
        return None;
    }
    match dir {
        Direction::Higher => vals.into_iter().reduce(f64::max),
        Direction::Lower => vals.into_iter().reduce(f64::min),
        Direction::Neutral => None,
    }
}

/// "_121 runs; sweeps 2026-11-20, 2026-11-29; median of each cell's newest sweep._"
fn caption(pivots: &[Pivot], agg: Agg) -> String {
    let runs: usize = pivots.iter().map(Pivot::run_count).max().unwrap_or(0);
    let mut sweeps: Vec<&str> = pivots.iter().flat_map(|p| p.sweeps()).collect();
    sweeps.sort_unstable();
    sweeps.dedup();
    let how = match agg {
        Agg::Median => "median of each cell's newest sweep",
        Agg::Mean => "mean of each cell's newest sweep",
        Agg::Min => "minimum of each cell's newest sweep",
        Agg::Max => "maximum of each cell's newest sweep",
        Agg::Count => "runs in each cell's newest sweep",
        Agg::Latest => "each cell's latest run",
        Agg::All => "median over every sweep",
    };
    let s = if sweeps.len() == 1 { "sweep" } else { "sweeps" };
    let r = if runs == 1 { "run" } else { "runs" };
    format!("_{runs} {r}; {s} {}; {how}._", sweeps.join(", "))
}
