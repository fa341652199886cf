//! A region's arguments read once, into the spec of its kind: numbers as
//! numbers, lists as lists, choices as enums, each with where it was
//! written. An unknown argument, a missing required one or a value its
//! argument cannot take is the region's [`RegionError`], pointing at the
//! argument; what the data must hold (a param, a metric, a column) is for
//! the stage that reads the data (`render`, `claims`).

use std::ops::Range;

use super::{Arg, Kind};
use crate::query::{Agg, Filter, NumberFormat};
use crate::syntax::{excerpt, Literal, Op};

/// An argument's value as read, where it was written (`key=value`, the
/// whole of it) and its text as written (for messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given<T> {
    pub value: T,
    /// The value as written, without its quotes.
    pub raw: String,
    /// Byte range of the whole `key=value` in the document.
    pub span: Range<usize>,
}

/// A problem with a region, at the argument it is about (`None`: the
/// region as a whole, reported at its opening marker).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionError {
    pub at: Option<Range<usize>>,
    pub msg: String,
}

impl RegionError {
    /// A problem with the region as a whole.
    pub fn region(msg: impl Into<String>) -> Self {
        RegionError { at: None, msg: msg.into() }
    }

    /// A problem with the argument `given`.
    pub fn at<T>(given: &Given<T>, msg: impl Into<String>) -> Self {
        RegionError { at: Some(given.span.clone()), msg: msg.into() }
    }

    /// A problem with the argument `given` if it was written, else with the
    /// region.
    pub fn near<T>(given: Option<&Given<T>>, msg: impl Into<String>) -> Self {
        RegionError { at: given.map(|g| g.span.clone()), msg: msg.into() }
    }
}

impl std::fmt::Display for RegionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.msg)
    }
}

/// A region's arguments, read for its kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegionSpec {
    Table(TableSpec),
    Value(ValueSpec),
    Plot(PlotSpec),
    Sql(SqlSpec),
    Template(TemplateSpec),
    Claim(ClaimSpec),
    Diff(DiffSpec),
}

/// Which runs a region reads: `where=` (the filter language) and `as_of=`
/// (each cell's newest sweep on or before that date).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    pub filter: Option<Given<Filter>>,
    /// The sweep date, `YYYY-MM-DD`.
    pub as_of: Option<Given<String>>,
}

impl Selection {
    /// The filter the region's runs pass: `where=`, and no date after
    /// `as_of=`.
    pub fn combined(&self) -> Filter {
        let filter = self.filter.as_ref().map_or_else(Filter::all, |f| f.value.clone());
        match &self.as_of {
            Some(date) => filter.and(Filter::compare("date", Op::Le, Literal::Text(date.value.clone()))),
            None => filter,
        }
    }
}

/// What a table lays out: one metric pivoted, or several metrics of one
/// series.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableMetrics {
    /// `metric=`
    One(Given<String>),
    /// `metrics=` with `series=`.
    Several { metrics: Given<Vec<String>>, series: Given<String> },
}

/// `sort=`: the rows as the pivot orders them, reversed, or by a column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sort {
    Asc,
    Desc,
    /// By a column's values (`-NAME`: descending).
    Column {
        name: String,
        descending: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    pub format: NumberFormat,
    pub rows: Given<Vec<String>>,
    pub cols: Option<Given<Vec<String>>>,
    pub selection: Selection,
    pub agg: Option<Given<Agg>>,
    pub metrics: TableMetrics,
    pub ratio: Option<Given<Vec<String>>>,
    /// `highlight=best` (true) or `none`.
    pub highlight: Option<Given<bool>>,
    pub sort: Option<Given<Sort>>,
    /// `labels="NAME=LABEL; …"`, read against the table's names.
    pub labels: Option<Given<String>>,
    pub caption: bool,
}

/// A `value` region's `PARAM=VALUE`: the runs it reads have that value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin {
    pub param: String,
    pub value: String,
}

/// `max_over=` / `min_over=`: the highest (lowest) cell over a param.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Over {
    pub param: Given<String>,
    pub max: bool,
}

impl Over {
    /// The argument's name as written.
    pub fn key(&self) -> &'static str {
        if self.max {
            "max_over"
        } else {
            "min_over"
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueSpec {
    pub metric: Given<String>,
    pub format: NumberFormat,
    pub selection: Selection,
    /// Every argument that is not one of [`VALUE_ARGS`], in order.
    pub pins: Vec<Given<Pin>>,
    pub agg: Option<Given<Agg>>,
    pub over: Option<Over>,
}

/// The arguments of a `value` region that are not param pins.
pub const VALUE_ARGS: [&str; 7] = ["metric", "where", "as_of", "agg", "digits", "max_over", "min_over"];

/// A plot's `kind=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlotKind {
    Line,
    Bar,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlotSpec {
    pub metric: Given<String>,
    pub x: Given<String>,
    pub series: Option<Given<String>>,
    pub selection: Selection,
    pub agg: Option<Given<Agg>>,
    pub kind: PlotKind,
    pub log_x: bool,
    pub log_y: bool,
    pub file: Option<Given<String>>,
    pub title: Option<Given<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlSpec {
    pub query: Given<String>,
    pub format: NumberFormat,
    pub as_of: Option<Given<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateSpec {
    pub name: Given<String>,
    pub format: NumberFormat,
    pub metric: Option<Given<String>>,
    pub rows: Option<Given<Vec<String>>>,
    pub cols: Option<Given<Vec<String>>>,
    pub selection: Selection,
    pub agg: Option<Given<Agg>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffSpec {
    pub metrics: Option<Given<Vec<String>>>,
    pub from: Option<Given<String>>,
    pub to: Option<Given<String>>,
    pub selection: Selection,
    pub by: Option<Given<Vec<String>>>,
    /// `only=moved`: the changes beyond noise alone.
    pub only_moved: bool,
    pub digits: Option<usize>,
}

/// A claim's arguments before its statement. A claim whose `as_of=` is not
/// a date is still a claim (its id names it, its note stays in place); the
/// judge reports the date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimSpec {
    pub id: Given<String>,
    pub superseded: Option<Given<String>>,
    pub as_of: Option<Result<Given<String>, RegionError>>,
}

/// The date of an `as_of=` argument: a sweep date, `YYYY-MM-DD`.
pub fn as_of_date(value: &str) -> Result<String, String> {
    let v = value.trim();
    if chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d").is_ok() && v.len() == 10 {
        Ok(v.to_string())
    } else {
        Err(format!("as_of=`{}`: expected a sweep date, YYYY-MM-DD (e.g. as_of=2026-11-20)", excerpt(value)))
    }
}

/// Reads the arguments of a region of `kind` into its spec.
pub(crate) fn parse(kind: Kind, args: &[Arg]) -> Result<RegionSpec, RegionError> {
    let r = Reader { args };
    Ok(match kind {
        Kind::Table => RegionSpec::Table(table(&r)?),
        Kind::Value => RegionSpec::Value(value(&r)?),
        Kind::Plot => RegionSpec::Plot(plot(&r)?),
        Kind::Sql => RegionSpec::Sql(sql(&r)?),
        Kind::Template => RegionSpec::Template(template(&r)?),
        Kind::Claim => RegionSpec::Claim(claim(&r)?),
        Kind::Diff => RegionSpec::Diff(diff(&r)?),
    })
}

const TABLE_ARGS: [&str; 14] = [
    "metric",
    "metrics",
    "series",
    "rows",
    "cols",
    "where",
    "as_of",
    "agg",
    "digits",
    "sort",
    "highlight",
    "ratio",
    "caption",
    "labels",
];

fn table(r: &Reader) -> Result<TableSpec, RegionError> {
    r.allow(&TABLE_ARGS)?;
    let format = r.digits()?;
    let rows = r.list("rows").filter(|rows| !rows.value.is_empty()).ok_or_else(|| {
        RegionError::region("missing argument `rows=` (the param each table row stands for, e.g. rows=concurrency)")
    })?;
    let selection = r.selection()?;
    let agg = r.agg()?;
    let metrics = match (r.text("metric"), r.list("metrics")) {
        (Some(metric), None) => TableMetrics::One(metric),
        (None, Some(metrics)) => TableMetrics::Several { metrics, series: r.required("series")? },
        (Some(_), Some(metrics)) => {
            return Err(RegionError::at(
                &metrics,
                "give either `metric=` (one metric pivoted) or `metrics=` with `series=` (several metrics of one \
                 series), not both",
            ))
        }
        (None, None) => return Err(RegionError::region("missing argument `metric=` (or `metrics=` with `series=`)")),
    };
    let ratio = r.list("ratio");
    if let Some(ratio) = &ratio {
        if let Some(bad) = ratio.value.iter().find(|spec| !spec.contains('/')) {
            return Err(RegionError::at(
                ratio,
                format!("ratio=`{}`: expected COLUMN/COLUMN, e.g. ratio=baseline/eagle-topk4-v1", excerpt(bad)),
            ));
        }
    }
    let highlight = r.choice("highlight", "expected `best` or `none`", |v| match v {
        "none" => Some(false),
        "best" => Some(true),
        _ => None,
    })?;
    let sort = r.text("sort").map(|g| {
        let value = match g.value.as_str() {
            "asc" => Sort::Asc,
            "desc" => Sort::Desc,
            col => match col.strip_prefix('-') {
                Some(name) => Sort::Column { name: name.to_string(), descending: true },
                None => Sort::Column { name: col.to_string(), descending: false },
            },
        };
        Given { value, raw: g.raw, span: g.span }
    });
    Ok(TableSpec {
        format,
        rows,
        cols: r.list("cols"),
        selection,
        agg,
        metrics,
        ratio,
        highlight,
        sort,
        labels: r.text("labels"),
        caption: r.flag("caption")?,
    })
}

fn value(r: &Reader) -> Result<ValueSpec, RegionError> {
    let metric = r.required("metric")?;
    let format = r.digits()?;
    let selection = r.selection()?;
    let pins = r
        .args
        .iter()
        .filter(|a| !VALUE_ARGS.contains(&a.key.as_str()))
        .map(|a| Given {
            value: Pin { param: a.key.clone(), value: a.value.clone() },
            raw: a.value.clone(),
            span: a.span.clone(),
        })
        .collect();
    let agg = r.agg()?;
    let over = match (r.text("max_over"), r.text("min_over")) {
        (Some(_), Some(min)) => return Err(RegionError::at(&min, "give `max_over=` or `min_over=`, not both")),
        (Some(param), None) => Some(Over { param, max: true }),
        (None, Some(param)) => Some(Over { param, max: false }),
        (None, None) => None,
    };
    Ok(ValueSpec { metric, format, selection, pins, agg, over })
}

fn plot(r: &Reader) -> Result<PlotSpec, RegionError> {
    r.allow(&["metric", "x", "series", "where", "as_of", "agg", "kind", "log", "file", "title"])?;
    let metric = r.required("metric")?;
    let x = r.required("x")?;
    let selection = r.selection()?;
    let agg = r.agg()?;
    let kind = r.choice("kind", "expected `line` or `bar`", |v| match v {
        "line" => Some(PlotKind::Line),
        "bar" => Some(PlotKind::Bar),
        _ => None,
    })?;
    let log = r.choice("log", "expected `x`, `y` or `xy`", |v| match v {
        "none" => Some((false, false)),
        "x" => Some((true, false)),
        "y" => Some((false, true)),
        "xy" | "both" => Some((true, true)),
        _ => None,
    })?;
    let (log_x, log_y) = log.map_or((false, false), |l| l.value);
    Ok(PlotSpec {
        metric,
        x,
        series: r.text("series"),
        selection,
        agg,
        kind: kind.map_or(PlotKind::Line, |k| k.value),
        log_x,
        log_y,
        file: r.text("file"),
        title: r.text("title"),
    })
}

fn sql(r: &Reader) -> Result<SqlSpec, RegionError> {
    r.allow(&["query", "digits", "as_of"])?;
    let query = r.required("query")?;
    let format = r.digits()?;
    Ok(SqlSpec { query, format, as_of: r.date("as_of")? })
}

fn template(r: &Reader) -> Result<TemplateSpec, RegionError> {
    r.allow(&["name", "metric", "rows", "cols", "where", "as_of", "agg", "digits"])?;
    let name = r.required("name")?;
    let format = r.digits()?;
    let selection = r.selection()?;
    let agg = r.agg()?;
    Ok(TemplateSpec {
        name,
        format,
        metric: r.text("metric"),
        rows: r.list("rows"),
        cols: r.list("cols"),
        selection,
        agg,
    })
}

fn diff(r: &Reader) -> Result<DiffSpec, RegionError> {
    r.allow(&["metric", "from", "to", "where", "by", "only", "digits"])?;
    let selection = r.selection()?;
    let only = r.choice("only", "expected `moved`", |v| (v == "moved").then_some(()))?;
    Ok(DiffSpec {
        metrics: r.list("metric"),
        from: r.text("from"),
        to: r.text("to"),
        selection,
        by: r.list("by"),
        only_moved: only.is_some(),
        digits: r.usize("digits")?.map(|d| d.value),
    })
}

fn claim(r: &Reader) -> Result<ClaimSpec, RegionError> {
    let Some(id) = r.text("id") else {
        return Err(RegionError::region(
            "the claim has no id; write `<!-- reckon:claim id=NAME statement -->` (the id names the claim in \
             reports and its history)",
        ));
    };
    // Said as the judge says the claim's other problems: by its id, at the
    // date as written.
    let as_of = r.get("as_of").map(|a| match as_of_date(&a.value) {
        Ok(date) => Ok(Given { value: date, raw: a.value.clone(), span: a.span.clone() }),
        Err(msg) => Err(RegionError { at: Some(a.value_span.clone()), msg: format!("claim `{}`: {msg}", id.value) }),
    });
    Ok(ClaimSpec { id, superseded: r.text("superseded"), as_of })
}

/// The arguments of one directive, read by name.
struct Reader<'a> {
    args: &'a [Arg],
}

impl Reader<'_> {
    fn get(&self, key: &str) -> Option<&Arg> {
        self.args.iter().find(|a| a.key == key)
    }

    fn given<T>(arg: &Arg, value: T) -> Given<T> {
        Given { value, raw: arg.value.clone(), span: arg.span.clone() }
    }

    fn text(&self, key: &str) -> Option<Given<String>> {
        self.get(key).map(|a| Self::given(a, a.value.clone()))
    }

    fn required(&self, key: &str) -> Result<Given<String>, RegionError> {
        self.text(key).ok_or_else(|| RegionError::region(format!("missing argument `{key}=`")))
    }

    /// A comma-separated list (`rows=a,b`), its empty items left out.
    fn list(&self, key: &str) -> Option<Given<Vec<String>>> {
        self.get(key).map(|a| {
            let items = a.value.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
            Self::given(a, items)
        })
    }

    fn usize(&self, key: &str) -> Result<Option<Given<usize>>, RegionError> {
        let Some(a) = self.get(key) else { return Ok(None) };
        match a.value.parse::<usize>() {
            Ok(n) => Ok(Some(Self::given(a, n))),
            Err(_) => Err(RegionError {
                at: Some(a.span.clone()),
                msg: format!("{key}=`{}`: expected a whole number", excerpt(&a.value)),
            }),
        }
    }

    /// `digits=N` as a number format (default: up to 6 significant digits).
    fn digits(&self) -> Result<NumberFormat, RegionError> {
        let digits = self.usize("digits")?;
        if let Some(d) = digits.as_ref().filter(|d| d.value > crate::query::MAX_DIGITS) {
            return Err(RegionError::at(
                d,
                format!("digits={}: at most {} digits after the point are written", d.value, crate::query::MAX_DIGITS),
            ));
        }
        Ok(NumberFormat { precision: digits.map(|d| d.value) })
    }

    fn flag(&self, key: &str) -> Result<bool, RegionError> {
        Ok(self
            .choice(key, "expected true or false", |v| match v {
                "false" | "no" => Some(false),
                "true" | "yes" | "" => Some(true),
                _ => None,
            })?
            .is_some_and(|f| f.value))
    }

    /// One of the values `read` knows; another is an error saying which
    /// (`expected`).
    fn choice<T>(
        &self,
        key: &str,
        expected: &str,
        read: impl Fn(&str) -> Option<T>,
    ) -> Result<Option<Given<T>>, RegionError> {
        let Some(a) = self.get(key) else { return Ok(None) };
        match read(&a.value) {
            Some(v) => Ok(Some(Self::given(a, v))),
            None => {
                Err(RegionError { at: Some(a.span.clone()), msg: format!("{key}=`{}`: {expected}", excerpt(&a.value)) })
            }
        }
    }

    fn agg(&self) -> Result<Option<Given<Agg>>, RegionError> {
        let Some(a) = self.get("agg") else { return Ok(None) };
        match Agg::parse(&a.value) {
            Ok(agg) => Ok(Some(Self::given(a, agg))),
            Err(e) => Err(RegionError { at: Some(a.span.clone()), msg: e.to_string() }),
        }
    }

    fn date(&self, key: &str) -> Result<Option<Given<String>>, RegionError> {
        let Some(a) = self.get(key) else { return Ok(None) };
        match as_of_date(&a.value) {
            Ok(date) => Ok(Some(Self::given(a, date))),
            Err(msg) => Err(RegionError { at: Some(a.span.clone()), msg }),
        }
    }

    fn selection(&self) -> Result<Selection, RegionError> {
        let filter = match self.get("where") {
            Some(a) => match Filter::parse(&a.value) {
                Ok(f) => Some(Self::given(a, f)),
                Err(e) => return Err(RegionError { at: Some(a.span.clone()), msg: format!("{e}") }),
            },
            None => None,
        };
        Ok(Selection { filter, as_of: self.date("as_of")? })
    }

    /// Refuses an argument outside `known`, naming the closest known one.
    fn allow(&self, known: &[&str]) -> Result<(), RegionError> {
        let Some(a) = self.args.iter().find(|a| !known.contains(&a.key.as_str())) else { return Ok(()) };
        let hint = crate::query::did_you_mean(&a.key, known.iter().copied())
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        Err(RegionError {
            at: Some(a.span.clone()),
            msg: format!("unknown argument `{}`{hint}; this region takes: {}", excerpt(&a.key), known.join(", ")),
        })
    }
}

/// The spec of the one region `<!-- reckon:DIRECTIVE -->` opens (for
/// tests of the stages that take specs).
#[cfg(test)]
pub(crate) fn read_one(directive: &str) -> RegionSpec {
    try_read_one(directive).expect("its arguments read")
}

/// [`read_one`], its arguments' error returned.
#[cfg(test)]
pub(crate) fn try_read_one(directive: &str) -> Result<RegionSpec, RegionError> {
    let kind = directive.split_whitespace().next().unwrap_or_default();
    let text = format!("<!-- reckon:{directive} -->\n<!-- /reckon:{kind} -->\n");
    let doc = super::parse(std::path::Path::new("t.md"), &text).expect("the directive parses");
    doc.regions.into_iter().next().expect("one region").spec
}

#[cfg(test)]
#[path = "spec_tests.rs"]
mod tests;
