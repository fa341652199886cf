//! Rendering generated regions from the data: tables, inline values, plots,
//! SQL results and templates. Each renderer takes the region's arguments and
//! returns the region's new content (and, for plots, the files to write
//! beside the document). Output is deterministic to the byte.

mod best;
mod failed;
pub mod plot;
pub mod sql;
pub mod table;
pub mod template;
pub mod value;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use crate::doc::RegionError;

use crate::doc::spec::{DiffSpec, Given, PlotKind, PlotSpec, Selection};
use crate::doc::RegionSpec;
use crate::metric::Margins;
use crate::query::{Agg, Dataset};
use crate::store::Store;

/// What a renderer needs: the data, the project's settings and where the
/// document lives.
pub struct Context<'a, 's> {
    pub dataset: &'a Dataset<'s>,
    pub store: &'s Store,
    pub settings: &'a Settings,
    /// The folder of the document being rendered (plots are written there).
    pub doc_dir: &'a Path,
}

/// The project settings regions read, as plain values (the command turns
/// reckon.toml into them; renderers never read the file).
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The param whose values name the things being compared.
    pub series: String,
    /// The folder `template` regions load their templates from.
    pub templates: PathBuf,
    /// Words a table's `labels=aliases` may show for a name, by canonical name.
    pub aliases: BTreeMap<String, Vec<String>>,
    /// What counts as noise when a table marks the best of a point.
    pub margins: Margins,
    /// Seconds one `sql` region's query may run.
    pub sql_seconds: f64,
    /// Instructions one `template` region may run (minijinja fuel).
    pub template_fuel: u64,
    /// Which runs of a point `highlight=best` compares after a partial
    /// re-sweep: the claims' rule (reckon.toml's `[claims] supersede`).
    pub supersede: crate::claims::judge::Supersede,
}

/// A region's new content and any file it refers to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rendered {
    pub content: String,
    /// Files to write next to the document (path, bytes), e.g. plot SVGs.
    pub files: Vec<(PathBuf, String)>,
    /// The runs behind each number the content writes.
    pub trace: Trace,
}

impl Rendered {
    /// Content with no file and no numbers traced to runs.
    fn text(content: String) -> Rendered {
        Rendered { content, ..Rendered::default() }
    }
}

/// The runs behind each number a region writes (run ids, ascending), so a
/// report can link each number to exactly the runs it rests on.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Trace {
    /// Nothing traced (an `sql`, `template` or `diff` region).
    #[default]
    None,
    /// A table: each body row as written, each of its cells (a row's keys
    /// and an empty cell with no runs; a ratio with both sides' runs).
    Table(Vec<Vec<Vec<i64>>>),
    /// An inline value: the runs of the one cell it writes.
    Value(Vec<i64>),
    /// A plot: each point drawn, where it landed in the SVG.
    Plot(Vec<TracedPoint>),
}

/// A point a plot drew, and the runs behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct TracedPoint {
    pub series: String,
    /// The x value as the data table of the SVG writes it.
    pub x: String,
    pub y: f64,
    /// The point's pixel in the SVG ([`plot::WIDTH`] × [`plot::HEIGHT`]).
    pub at: (i32, i32),
    pub runs: Vec<i64>,
}

/// Renders one region from its spec.
pub fn render(ctx: &Context, spec: &RegionSpec) -> Result<Rendered, RegionError> {
    render_in(ctx, spec, None)
}

/// [`render`] of a region of the document named `doc_stem` (its file name
/// without the extension): a plot without `file=` is named after the
/// document too, so two documents in one folder plotting the same metric
/// do not share (and fight over) a file.
pub fn render_in(ctx: &Context, spec: &RegionSpec, doc_stem: Option<&str>) -> Result<Rendered, RegionError> {
    match spec {
        RegionSpec::Table(s) => table::render(ctx, s),
        RegionSpec::Value(s) => value::render(ctx, s),
        RegionSpec::Plot(s) => plot_region(ctx, s, doc_stem),
        RegionSpec::Sql(s) => sql::render(ctx, s),
        RegionSpec::Template(s) => template::render(ctx, s),
        RegionSpec::Diff(s) => diff_region(ctx, s),
        RegionSpec::Claim(_) => Err(RegionError::region("`claim` regions are not rendered")),
    }
}

/// The filter of a region's [`Selection`], checked against the data (an
/// unknown param is reported at `where=`).
pub(crate) fn region_filter(ctx: &Context, selection: &Selection) -> Result<crate::query::Filter, RegionError> {
    let filter = selection.combined();
    ctx.dataset.check_filter(&filter).map_err(|e| RegionError::near(selection.filter.as_ref(), e.to_string()))?;
    Ok(filter)
}

/// Checks the params a list argument (`rows=a,b`) names before a query
/// runs, so an unknown one is reported at its own argument: the query
/// would report it too, but the renderer could only point at `metric=`.
pub(crate) fn check_list(ctx: &Context, given: Option<&Given<Vec<String>>>, key: &str) -> Result<(), RegionError> {
    let Some(given) = given else { return Ok(()) };
    for param in &given.value {
        ctx.dataset.check_param(param, key).map_err(|e| RegionError::at(given, e.to_string()))?;
    }
    Ok(())
}

/// [`check_list`] for an argument naming one param (`x=`, `max_over=`):
/// each comma-separated part is checked as a name, as it always was.
pub(crate) fn check_names(ctx: &Context, given: Option<&Given<String>>, key: &str) -> Result<(), RegionError> {
    let Some(given) = given else { return Ok(()) };
    for param in given.value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        ctx.dataset.check_param(param, key).map_err(|e| RegionError::at(given, e.to_string()))?;
    }
    Ok(())
}

/// A region's cells must each hold one point (`query::points`): a cell
/// whose runs lie at several values of a param it does not pin is refused,
/// naming the param, its values, and `where=` to pin it or `add` (the
/// region's own arguments) to lay it out by.
fn one_point_per_cell(
    ctx: &Context,
    pivot: &crate::query::Pivot,
    metric: Option<&Given<String>>,
    add: &str,
) -> Result<(), RegionError> {
    match ctx.dataset.pooled(pivot) {
        Some(pooled) => Err(RegionError::near(metric, pooled.message("`where=\"{param} = …\"`", add))),
        None => Ok(()),
    }
}

fn plot_region(ctx: &Context, spec: &PlotSpec, doc_stem: Option<&str>) -> Result<Rendered, RegionError> {
    check_names(ctx, Some(&spec.x), "x")?;
    check_names(ctx, spec.series.as_ref(), "series")?;
    let (metric, x) = (spec.metric.value.as_str(), spec.x.value.as_str());
    let series = spec.series.as_ref().map_or(&ctx.settings.series, |s| &s.value).clone();
    let mut q = crate::query::Query::new(metric);
    q.rows = vec![x.to_string()];
    // Plotting against the series param itself (a bar per config) needs no columns.
    q.cols = if ctx.dataset.has_param(&series) && series != x { vec![series.clone()] } else { vec![] };
    q.filter = region_filter(ctx, &spec.selection)?;
    if let Some(a) = &spec.agg {
        q.agg = a.value;
    }
    let pivot = ctx.dataset.evaluate(&q).map_err(|e| RegionError::at(&spec.metric, e.to_string()))?;
    one_point_per_cell(ctx, &pivot, Some(&spec.metric), "`x=` or `series=`")?;
    let kind = match spec.kind {
        PlotKind::Line => plot::ChartKind::Line,
        PlotKind::Bar => plot::ChartKind::Bar,
    };
    let numeric_x = pivot.rows.iter().all(|r| r[0].as_f64().is_some());
    let kind = if numeric_x { kind } else { plot::ChartKind::Bar };
    let unit = pivot.metric.unit.as_deref().map(|u| format!(" ({u})")).unwrap_or_default();
    let title = spec.title.as_ref().map_or_else(|| format!("{metric} by {x}"), |t| t.value.clone());
    let chart = plot::Chart {
        kind,
        title: title.clone(),
        x_label: x.to_string(),
        y_label: format!("{metric}{unit}"),
        log_x: spec.log_x && kind == plot::ChartKind::Line,
        log_y: spec.log_y,
        series: chart_series(&pivot, kind),
        categories: pivot.rows.iter().map(|r| r[0].to_string()).collect(),
    };
    let (svg, marks) = plot::draw(&chart).map_err(|e| RegionError::region(e.to_string()))?;
    let trace = plot_trace(&pivot, &chart, &marks);
    let file = plot_file(spec, doc_stem)?;
    let target = if file.contains(' ') { format!("<{file}>") } else { file.clone() };
    let content = format!("![{}]({target}){}", crate::escape::markdown(&title), error_bars_note(&pivot));
    let path = plot_path(ctx.doc_dir, &file).map_err(|msg| RegionError::near(spec.file.as_ref(), msg))?;
    Ok(Rendered { content, files: vec![(path, svg)], trace })
}

/// Each drawn point with the runs of its cell: series `i` is the pivot's
/// column `i`, its points the rows with a cell, in order (as
/// [`chart_series`] builds them).
fn plot_trace(pivot: &crate::query::Pivot, chart: &plot::Chart, marks: &[plot::Mark]) -> Trace {
    let cells: Vec<Vec<(usize, &crate::query::Cell)>> = (0..chart.series.len())
        .map(|ci| {
            let rows = pivot.cells.iter().enumerate();
            let drawn = |ri: usize| chart.kind == plot::ChartKind::Bar || pivot.rows[ri][0].as_f64().is_some();
            rows.filter(|(ri, _)| drawn(*ri)).filter_map(|(ri, r)| r.get(ci)?.as_ref().map(|c| (ri, c))).collect()
        })
        .collect();
    let points = marks.iter().filter_map(|m| {
        let series = chart.series.get(m.series)?;
        let &(x, y) = series.points.get(m.point)?;
        let &(ri, cell) = cells.get(m.series)?.get(m.point)?;
        let x = match chart.kind {
            plot::ChartKind::Bar => pivot.rows[ri][0].to_string(),
            plot::ChartKind::Line => crate::metric::format_number(x),
        };
        Some(TracedPoint { series: series.name.clone(), x, y, at: m.at, runs: sorted(&cell.runs) })
    });
    Trace::Plot(points.collect())
}

/// Run ids in ascending order, each once.
pub(crate) fn sorted(runs: &[i64]) -> Vec<i64> {
    let mut runs = runs.to_vec();
    runs.sort_unstable();
    runs.dedup();
    runs
}

/// A plot's `file=` (or its default name), checked: a relative path ending
/// in `.svg`, without `..`, of characters a markdown link destination
/// holds without escaping (the title is escaped as markdown text).
fn plot_file(spec: &PlotSpec, doc_stem: Option<&str>) -> Result<String, RegionError> {
    let allowed = |c: char| c.is_alphanumeric() || " ._-/+=,@~".contains(c);
    let (metric, x) = (&spec.metric.value, &spec.x.value);
    let file = match (&spec.file, doc_stem) {
        (Some(f), _) => f.value.clone(),
        // Named after the document, checked as a name written in it.
        (None, Some(stem)) => format!("{stem}-{metric}-by-{x}.svg"),
        // Names written in the document; a character a file name here may
        // not hold becomes `_`.
        (None, None) => format!("{metric}-by-{x}.svg").chars().map(|c| if allowed(c) { c } else { '_' }).collect(),
    };
    // `rsplit_once`, not `Path::extension`: `.svg` alone is a name ending
    // in .svg, and the check stays case-sensitive as it always was.
    if file.rsplit_once('.').is_none_or(|(_, ext)| ext != "svg")
        || file.contains("..")
        || Path::new(&file).is_absolute()
    {
        return Err(RegionError::near(
            spec.file.as_ref(),
            format!("file=`{file}`: expected a relative path ending in .svg, inside the document's folder"),
        ));
    }
    if let Some(bad) = file.chars().find(|c| !allowed(*c)) {
        return Err(RegionError::near(
            spec.file.as_ref(),
            format!(
                "file=`{file}`: {bad:?} cannot be in a plot's file name; use letters, digits, spaces and \
                 . _ - / + = , @ ~"
            ),
        ));
    }
    Ok(file)
}

/// A plot series per column of the pivot: its points and, where a point
/// has repeated runs, an error bar.
fn chart_series(pivot: &crate::query::Pivot, kind: plot::ChartKind) -> Vec<plot::Series> {
    // Bars stand at their row's index; lines at the row's numeric x.
    let x_of = |ri: usize, key: &[crate::query::Key]| {
        if kind == plot::ChartKind::Bar {
            Some(ri as f64)
        } else {
            key[0].as_f64()
        }
    };
    pivot
        .col_headers()
        .iter()
        .enumerate()
        .map(|(ci, name)| plot::Series {
            name: name.clone(),
            points: pivot
                .rows
                .iter()
                .enumerate()
                .filter_map(|(ri, key)| {
                    let cell = pivot.cells[ri][ci].as_ref()?;
                    Some((x_of(ri, key)?, cell.value))
                })
                .collect(),
            // A point with repeated runs gets a bar from its lowest to its
            // highest run: the spread a reader should not read into.
            bars: pivot
                .rows
                .iter()
                .enumerate()
                .filter_map(|(ri, key)| {
                    // A count is not on the scale of the runs' values.
                    let cell =
                        pivot.cells[ri][ci].as_ref().filter(|c| c.values.len() >= 2 && pivot.agg != Agg::Count)?;
                    let xv = x_of(ri, key)?;
                    let lo = cell.values.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = cell.values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    Some((xv, lo, hi))
                })
                .collect(),
        })
        .collect()
}

/// The note under a plot with error bars: how many runs each bar spans
/// (empty when no point has repeated runs).
fn error_bars_note(pivot: &crate::query::Pivot) -> String {
    let repeats: Vec<usize> = if pivot.agg == Agg::Count {
        Vec::new()
    } else {
        pivot.cells.iter().flatten().flatten().map(|c| c.values.len()).filter(|n| *n >= 2).collect()
    };
    match (repeats.iter().min(), repeats.iter().max()) {
        (Some(lo), Some(hi)) => {
            let runs = if lo == hi { format!("{lo}") } else { format!("{lo}–{hi}") };
            let each = if lo == hi { " each" } else { "" };
            format!("\n\n_Error bars: the lowest and highest of the runs behind each point ({runs} runs{each})._")
        }
        _ => String::new(),
    }
}

/// Where a plot's `file=` may be written: inside the document's folder,
/// into a folder that exists (reckon creates none: `file=.git/hooks/x.svg`
/// must not work by creating or following its way out), never through a
/// symlink leading out of the folder, and never over something that is not
/// a regular file (a FIFO would block the read of the old plot).
fn plot_path(doc_dir: &Path, file: &str) -> Result<PathBuf, String> {
    let base = if doc_dir.as_os_str().is_empty() { Path::new(".") } else { doc_dir };
    let path = base.join(file);
    let parent = path.parent().unwrap_or(base);
    if !parent.is_dir() {
        return Err(format!(
            "file=`{file}`: the folder {} does not exist; reckon writes plots only into existing folders beside \
             the document",
            parent.display()
        ));
    }
    crate::fsguard::resolve_within(base, parent).map_err(|msg| format!("file=`{file}`: {msg}"))?;
    if let Ok(meta) = std::fs::symlink_metadata(&path) {
        if meta.file_type().is_symlink() {
            crate::fsguard::resolve_within(base, &path).map_err(|msg| format!("file=`{file}`: {msg}"))?;
        }
        let meta = std::fs::metadata(&path).map_err(|e| format!("file=`{file}`: {e}"))?;
        if !meta.is_file() {
            return Err(format!("file=`{file}`: {} {}", path.display(), crate::fsguard::not_regular(&meta)));
        }
    }
    // Under `.git/` a plot could overwrite repository internals.
    if Path::new(file).components().any(|c| c.as_os_str() == ".git") {
        return Err(format!("file=`{file}`: plots are not written inside .git/"));
    }
    Ok(path)
}

/// `diff` regions: what moved between two sweeps (`reckon diff` as a living
/// section), as markdown.
fn diff_region(ctx: &Context, spec: &DiffSpec) -> Result<Rendered, RegionError> {
    check_list(ctx, spec.by.as_ref(), "by")?;
    let metrics = spec.metrics.as_ref().map(|m| m.value.clone()).unwrap_or_default();
    for m in &metrics {
        ctx.dataset.metric_info(m).map_err(|e| RegionError::near(spec.metrics.as_ref(), e.to_string()))?;
    }
    let filter = region_filter(ctx, &spec.selection)?;
    let listing =
        if spec.only_moved { crate::sweep_diff::Listing::BeyondNoise } else { crate::sweep_diff::Listing::Changed };
    let opts = crate::sweep_diff::Options {
        from: spec.from.as_ref().map(|g| g.value.clone()),
        to: spec.to.as_ref().map(|g| g.value.clone()),
        metrics,
        filter: (!filter.is_all()).then_some(filter),
        by: spec.by.as_ref().map(|g| g.value.clone()).unwrap_or_default(),
    };
    let which = if spec.from.is_some() { spec.from.as_ref() } else { spec.to.as_ref() };
    let diff = crate::sweep_diff::compute(ctx.dataset, &ctx.settings.margins, &opts)
        .map_err(|e| RegionError::near(which, e.to_string()))?;
    let content = diff.to_markdown(listing, spec.digits);
    Ok(Rendered::text(content.trim_end_matches('\n').to_string()))
}
