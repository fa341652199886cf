//! Cells and their aggregation: the runs loaded once into a [`Dataset`], a
//! [`Query`] grouping one metric's values by params into cells, and each
//! cell's value with its provenance.
//!
//! Semantics (the user-facing contract of `reckon query`, tables and claims):
//! - A cell is the runs sharing a value for every grouping param (rows and
//!   cols). Values group by their numeric reading when they have one, so a
//!   label `8` and a logged `8.0` land in one cell.
//! - Runs whose value for the metric is NaN are ignored.
//! - A run without one of the grouping params is left out of the pivot and
//!   counted in [`Pivot::excluded`] ("N runs without `concurrency`").
//! - `median` (the default), `mean`, `min`, `max` and `count` use only the
//!   runs of the cell's newest sweep (the latest sweep date among the cell's
//!   runs): repeats within that sweep are aggregated, older sweeps are
//!   superseded. Each cell supersedes on its own, so a configuration that was
//!   not re-run keeps its older value.
//! - `latest` is the value of the cell's newest run by time.
//! - `all` supersedes nothing: the median over every run of the cell, of
//!   every sweep.

use std::cell::{OnceCell, RefCell};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use super::filter::{is_pseudo_param, Field, Fields, Filter};
use super::{did_you_mean, known_list};
use crate::metric::format_number;
use crate::run::Value;
use crate::store::{MetricInfo, RunRecord, Store};
use crate::{Error, Result};

/// How a cell's runs become one number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Agg {
    /// Median of the newest sweep's runs.
    #[default]
    Median,
    /// Mean of the newest sweep's runs.
    Mean,
    /// Smallest value of the newest sweep.
    Min,
    /// Largest value of the newest sweep.
    Max,
    /// Number of runs in the newest sweep.
    Count,
    /// The newest run's value.
    Latest,
    /// Median over every run of every sweep (nothing superseded).
    All,
}

impl Agg {
    /// Every aggregation, in the order they are documented.
    pub const ALL: [Agg; 7] = [Agg::Median, Agg::Mean, Agg::Min, Agg::Max, Agg::Count, Agg::Latest, Agg::All];

    /// The name used on the command line and in directives.
    pub fn as_str(self) -> &'static str {
        match self {
            Agg::Median => "median",
            Agg::Mean => "mean",
            Agg::Min => "min",
            Agg::Max => "max",
            Agg::Count => "count",
            Agg::Latest => "latest",
            Agg::All => "all",
        }
    }

    /// Parses an aggregation name (`--agg mean`, `agg=max`).
    pub fn parse(name: &str) -> Result<Agg> {
        Agg::ALL.into_iter().find(|a| a.as_str().eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
            let names: Vec<&str> = Agg::ALL.iter().map(|a| a.as_str()).collect();
            Error::usage(format!("unknown aggregation `{name}`; use one of {}", names.join(", ")))
        })
    }
}

impl fmt::Display for Agg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One part of a row or column key: a param's value. Numbers sort before
/// text, numbers numerically, text lexically.
#[derive(Debug, Clone)]
pub enum Key {
    Num(f64),
    Text(String),
}

impl Key {
    /// A key from text as a user writes it (`8`, `inf`, `baseline`).
    pub fn parse(text: &str) -> Key {
        match Value::Text(text.to_string()).as_f64() {
            Some(n) => Key::num(n),
            None => Key::Text(text.to_string()),
        }
    }

    fn num(n: f64) -> Key {
        // -0 and 0 are one cell.
        Key::Num(if n == 0.0 { 0.0 } else { n })
    }

    fn from_ref(k: KeyRef<'_>) -> Key {
        match k {
            KeyRef::Num(bits) => Key::Num(f64::from_bits(bits)),
            KeyRef::Text(t) => Key::Text(t.to_string()),
        }
    }

    /// The number, for numeric keys.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Key::Num(n) => Some(*n),
            Key::Text(_) => None,
        }
    }

    /// Whether the key is a number.
    pub fn is_num(&self) -> bool {
        matches!(self, Key::Num(_))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> Ordering {
        match (self, other) {
            (Key::Num(a), Key::Num(b)) => a.total_cmp(b),
            (Key::Num(_), Key::Text(_)) => Ordering::Less,
            (Key::Text(_), Key::Num(_)) => Ordering::Greater,
            (Key::Text(a), Key::Text(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Key {}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Num(n) => f.write_str(&format_number(*n)),
            Key::Text(t) => f.write_str(t),
        }
    }
}

impl serde::Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Key::Num(n) if n.is_finite() => s.serialize_f64(*n),
            // JSON has no infinity: write it as reckon prints it.
            Key::Num(n) => s.serialize_str(&format_number(*n)),
            Key::Text(t) => s.serialize_str(t),
        }
    }
}

/// A key part borrowed from a run while grouping, so grouping a run
/// allocates only when it opens a new cell.
#[derive(Debug, Clone, Copy)]
enum KeyRef<'a> {
    Num(u64),
    Text(&'a str),
}

impl<'a> KeyRef<'a> {
    fn of(field: Field<'a>) -> KeyRef<'a> {
        match (field.as_f64(), field) {
            (Some(n), _) => KeyRef::Num(if n == 0.0 { 0.0f64 } else { n }.to_bits()),
            (None, Field::Value(Value::Text(t))) => KeyRef::Text(t),
            (None, Field::Text(t)) => KeyRef::Text(t),
            // A number always has a numeric reading; NaN keys as its text.
            (None, Field::Value(Value::Num(_))) => KeyRef::Text("NaN"),
        }
    }
}

impl PartialEq for KeyRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (KeyRef::Num(a), KeyRef::Num(b)) => a == b,
            (KeyRef::Text(a), KeyRef::Text(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for KeyRef<'_> {}

impl Hash for KeyRef<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        match self {
            KeyRef::Num(b) => {
                0u8.hash(h);
                b.hash(h);
            }
            KeyRef::Text(t) => {
                1u8.hash(h);
                t.hash(h);
            }
        }
    }
}

/// A cell's value and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The aggregated value.
    pub value: f64,
    /// The values the aggregation used, oldest run first.
    pub values: Vec<f64>,
    /// The ids of the runs used, in the same order as `values`.
    pub runs: Vec<i64>,
    /// The sweep dates of the runs used, distinct, oldest first.
    pub sweeps: Vec<String>,
    /// Runs of the cell left out because a newer sweep or run supersedes
    /// them.
    pub superseded: usize,
}

impl Cell {
    /// How many runs the value rests on.
    pub fn run_count(&self) -> usize {
        self.runs.len()
    }

    /// The newest sweep date the value rests on.
    pub fn latest_sweep(&self) -> Option<&str> {
        self.sweeps.last().map(String::as_str)
    }
}

/// The median of a non-empty slice (mean of the middle two when even).
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Aggregates one cell's entries (run index, value), which are in run time
/// order.
fn aggregate(agg: Agg, runs: &[RunRecord], entries: &[(u32, f64)]) -> Cell {
    let used: Vec<(u32, f64)> = match agg {
        Agg::All => entries.to_vec(),
        Agg::Latest => entries.last().copied().into_iter().collect(),
        _ => {
            let newest = entries.iter().map(|(i, _)| runs[*i as usize].sweep.as_str()).max().unwrap_or("");
            entries.iter().copied().filter(|(i, _)| runs[*i as usize].sweep == newest).collect()
        }
    };
    let values: Vec<f64> = used.iter().map(|(_, v)| *v).collect();
    let value = match agg {
        Agg::Median | Agg::All => median(&values),
        Agg::Mean => values.iter().sum::<f64>() / values.len() as f64,
        Agg::Min => values.iter().copied().fold(f64::INFINITY, f64::min),
        Agg::Max => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Agg::Count => values.len() as f64,
        Agg::Latest => values.first().copied().unwrap_or(f64::NAN),
    };
    let sweeps: BTreeSet<&str> = used.iter().map(|(i, _)| runs[*i as usize].sweep.as_str()).collect();
    Cell {
        value,
        values,
        runs: used.iter().map(|(i, _)| runs[*i as usize].id).collect(),
        sweeps: sweeps.into_iter().map(str::to_string).collect(),
        superseded: entries.len() - used.len(),
    }
}

/// What to compute: one metric, grouped into rows × cols, over the runs the
/// filter passes.
#[derive(Debug, Clone)]
pub struct Query {
    pub metric: String,
    pub rows: Vec<String>,
    pub cols: Vec<String>,
    pub filter: Filter,
    pub agg: Agg,
}

impl Query {
    /// A query of one metric over every run, in one cell, by the default
    /// aggregation.
    pub fn new(metric: impl Into<String>) -> Query {
        Query { metric: metric.into(), rows: Vec::new(), cols: Vec::new(), filter: Filter::all(), agg: Agg::default() }
    }
}

/// One metric's values: index into [`Dataset::runs`] and value, in run order,
/// NaN left out.
type Values = Vec<(u32, f64)>;

struct MetricSlot {
    info: MetricInfo,
    values: OnceCell<Values>,
}

/// A run's field held apart from the run: a param's value, or the text of a
/// pseudo-param (which never reads as a number).
enum Slot {
    Param(Value),
    Pseudo(String),
}

impl Slot {
    fn of(field: Field<'_>) -> Slot {
        match field {
            Field::Value(v) => Slot::Param(v.clone()),
            Field::Text(t) => Slot::Pseudo(t.to_string()),
        }
    }

    fn field(&self) -> Field<'_> {
        match self {
            Slot::Param(v) => Field::Value(v),
            Slot::Pseudo(t) => Field::Text(t),
        }
    }
}

/// One field of every run, indexed like [`Dataset::runs`] (None: the run
/// lacks it). Queries read fields by index from here: looking each run's
/// field up by name in its param map, once per query, dominated a whole
/// document's `check` (runs carry dozens of params with long shared
/// prefixes such as `server_info.`).
type Column = Vec<Option<Slot>>;

/// A run as a filter sees it during [`Dataset::evaluate`]: the fields the
/// filter names come from their columns.
struct ColumnFields<'c> {
    run: &'c RunRecord,
    at: usize,
    columns: &'c [(&'c str, Rc<Column>)],
}

impl Fields for ColumnFields<'_> {
    fn field(&self, name: &str) -> Option<Field<'_>> {
        match self.columns.iter().find(|(n, _)| *n == name) {
            Some((_, column)) => column[self.at].as_ref().map(Slot::field),
            None => self.run.field(name),
        }
    }
}

/// The runs, loaded once, and each metric's values loaded on first use, so
/// that many queries (a `reckon check` of a whole document) share one read.
pub struct Dataset<'s> {
    store: &'s Store,
    runs: Vec<RunRecord>,
    by_id: HashMap<i64, u32>,
    params: BTreeSet<String>,
    metrics: BTreeMap<String, MetricSlot>,
    /// The fields queries used so far, built on first use.
    columns: RefCell<HashMap<String, Rc<Column>>>,
}

impl<'s> Dataset<'s> {
    /// Reads every run and the list of metrics.
    pub fn load(store: &'s Store) -> Result<Dataset<'s>> {
        let runs = store.runs()?;
        let mut params = BTreeSet::new();
        for run in &runs {
            for k in run.params.keys() {
                if !params.contains(k) {
                    params.insert(k.clone());
                }
            }
        }
        let by_id = runs.iter().enumerate().map(|(i, r)| (r.id, i as u32)).collect();
        let metrics = store
            .metrics()?
            .into_iter()
            .map(|info| (info.name.clone(), MetricSlot { info, values: OnceCell::new() }))
            .collect();
        Ok(Dataset { store, runs, by_id, params, metrics, columns: RefCell::new(HashMap::new()) })
    }

    /// Every run, oldest first.
    pub fn runs(&self) -> &[RunRecord] {
        &self.runs
    }

    /// A run by id.
    pub fn run(&self, id: i64) -> Option<&RunRecord> {
        self.by_id.get(&id).map(|i| &self.runs[*i as usize])
    }

    /// Every metric, by name.
    pub fn metrics(&self) -> impl Iterator<Item = &MetricInfo> {
        self.metrics.values().map(|s| &s.info)
    }

    /// Every param some run has, sorted (pseudo-params not included).
    pub fn params(&self) -> impl Iterator<Item = &str> {
        self.params.iter().map(String::as_str)
    }

    /// Whether some run has the param, or it is a pseudo-param.
    pub fn has_param(&self, name: &str) -> bool {
        self.params.contains(name) || is_pseudo_param(name)
    }

    /// A metric's unit and direction, or a usage error naming the known
    /// metrics and the likely one meant.
    pub fn metric_info(&self, name: &str) -> Result<&MetricInfo> {
        match self.metrics.get(name) {
            Some(slot) => Ok(&slot.info),
            None => {
                let known = || self.metrics.keys().map(String::as_str);
                let hint = did_you_mean(name, known()).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default();
                let list = if self.metrics.is_empty() {
                    "the database holds no metrics yet (run `reckon ingest`)".to_string()
                } else {
                    format!("known metrics: {}", known_list(known()))
                };
                Err(Error::usage(format!("unknown metric `{name}`{hint}; {list}")))
            }
        }
    }

    /// Checks that a param exists; `used_in` says where it was named
    /// (`rows`, `the filter`).
    pub fn check_param(&self, name: &str, used_in: &str) -> Result<()> {
        if self.has_param(name) {
            return Ok(());
        }
        let known = || self.params.iter().map(String::as_str).chain(super::filter::PSEUDO_PARAMS.iter().copied());
        let hint = did_you_mean(name, known()).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default();
        Err(Error::usage(format!("unknown param `{name}` in {used_in}{hint}; known params: {}", known_list(known()))))
    }

    /// Checks every param a filter names.
    pub fn check_filter(&self, filter: &Filter) -> Result<()> {
        filter.params().into_iter().try_for_each(|p| self.check_param(p, "the filter"))
    }

    /// A metric's non-NaN values as (run, value), oldest run first; read
    /// from the store on first use.
    pub fn values(&self, metric: &str) -> Result<impl Iterator<Item = (&RunRecord, f64)>> {
        Ok(self.cached_values(metric)?.iter().map(|(i, v)| (&self.runs[*i as usize], *v)))
    }

    fn cached_values(&self, metric: &str) -> Result<&Values> {
        self.metric_info(metric)?;
        let Some(slot) = self.metrics.get(metric) else {
            return Err(Error::usage(format!("unknown metric `{metric}`")));
        };
        if let Some(v) = slot.values.get() {
            return Ok(v);
        }
        let mut loaded: Values = self
            .store
            .metric_values(metric)?
            .into_iter()
            .filter_map(|(id, v)| Some((*self.by_id.get(&id)?, v.filter(|v| !v.is_nan())?)))
            .collect();
        // Run order is time order: `latest` and the superseding rely on it.
        loaded.sort_unstable_by_key(|(i, _)| *i);
        Ok(slot.values.get_or_init(|| loaded))
    }

    /// A field of every run, built on first use.
    fn column(&self, name: &str) -> Rc<Column> {
        if let Some(column) = self.columns.borrow().get(name) {
            return Rc::clone(column);
        }
        let column: Rc<Column> = Rc::new(self.runs.iter().map(|r| r.field(name).map(Slot::of)).collect());
        self.columns.borrow_mut().insert(name.to_string(), Rc::clone(&column));
        column
    }

    /// Groups the metric's values into cells and aggregates each.
    pub fn evaluate(&self, q: &Query) -> Result<Pivot> {
        let info = self.metric_info(&q.metric)?.clone();
        let mut seen = BTreeSet::new();
        for (p, used_in) in q.rows.iter().map(|p| (p, "rows")).chain(q.cols.iter().map(|p| (p, "cols"))) {
            self.check_param(p, used_in)?;
            if !seen.insert(p.as_str()) {
                return Err(Error::usage(format!(
                    "param `{p}` is grouped by twice (rows and cols must name different params)"
                )));
            }
        }
        self.check_filter(&q.filter)?;
        let values = self.cached_values(&q.metric)?;

        let group: Vec<&str> = q.rows.iter().chain(&q.cols).map(String::as_str).collect();
        let group_columns: Vec<Rc<Column>> = group.iter().map(|p| self.column(p)).collect();
        let filter_columns: Vec<(&str, Rc<Column>)> =
            q.filter.params().into_iter().map(|p| (p, self.column(p))).collect();
        let mut index: HashMap<Vec<KeyRef<'_>>, usize> = HashMap::new();
        let mut groups: Vec<(Vec<KeyRef<'_>>, Values)> = Vec::new();
        let mut excluded: BTreeMap<String, usize> = BTreeMap::new();
        let mut scratch: Vec<KeyRef<'_>> = Vec::with_capacity(group.len());
        let mut matched = 0;
        for &(i, v) in values {
            let (run, at) = (&self.runs[i as usize], i as usize);
            if !q.filter.matches_fields(&ColumnFields { run, at, columns: &filter_columns }) {
                continue;
            }
            matched += 1;
            scratch.clear();
            let mut complete = true;
            for (p, column) in group.iter().zip(&group_columns) {
                match &column[at] {
                    Some(slot) => scratch.push(KeyRef::of(slot.field())),
                    None => {
                        complete = false;
                        match excluded.get_mut(*p) {
                            Some(count) => *count += 1,
                            None => {
                                excluded.insert((*p).to_string(), 1);
                            }
                        }
                    }
                }
            }
            if !complete {
                continue;
            }
            let g = match index.get(scratch.as_slice()) {
                Some(g) => *g,
                None => {
                    index.insert(scratch.clone(), groups.len());
                    groups.push((scratch.clone(), Vec::new()));
                    groups.len() - 1
                }
            };
            groups[g].1.push((i, v));
        }

        let nrows = q.rows.len();
        let mut keyed: BTreeMap<(Vec<Key>, Vec<Key>), Cell> = BTreeMap::new();
        for (key, entries) in &groups {
            let key: Vec<Key> = key.iter().map(|k| Key::from_ref(*k)).collect();
            let (r, c) = key.split_at(nrows);
            keyed.insert((r.to_vec(), c.to_vec()), aggregate(q.agg, &self.runs, entries));
        }
        let rows: Vec<Vec<Key>> = keyed.keys().map(|(r, _)| r.clone()).collect::<BTreeSet<_>>().into_iter().collect();
        let cols: Vec<Vec<Key>> = keyed.keys().map(|(_, c)| c.clone()).collect::<BTreeSet<_>>().into_iter().collect();
        let mut cells: Vec<Vec<Option<Cell>>> = vec![vec![None; cols.len()]; rows.len()];
        for ((r, c), cell) in keyed {
            if let (Ok(ri), Ok(ci)) = (rows.binary_search(&r), cols.binary_search(&c)) {
                cells[ri][ci] = Some(cell);
            }
        }
        Ok(Pivot {
            metric: info,
            agg: q.agg,
            filter: q.filter.as_str().to_string(),
            row_params: q.rows.clone(),
            col_params: q.cols.clone(),
            rows,
            cols,
            cells,
            runs_matched: matched,
            excluded,
        })
    }
}

/// A metric pivoted into rows × cols of cells. Row and column keys are
/// sorted (numbers numerically first, then text).
#[derive(Debug, Clone, PartialEq)]
pub struct Pivot {
    pub metric: MetricInfo,
    pub agg: Agg,
    /// The filter's text (empty when every run passes).
    pub filter: String,
    pub row_params: Vec<String>,
    pub col_params: Vec<String>,
    /// One key per row: a value for each row param.
    pub rows: Vec<Vec<Key>>,
    /// One key per column: a value for each col param.
    pub cols: Vec<Vec<Key>>,
    /// `cells[row][col]`; `None` where no run has that combination.
    pub cells: Vec<Vec<Option<Cell>>>,
    /// Runs with a (non-NaN) value that passed the filter.
    pub runs_matched: usize,
    /// Runs left out for lacking a grouping param, by param.
    pub excluded: BTreeMap<String, usize>,
}

impl Pivot {
    /// The cell at a row and column key.
    pub fn get(&self, row: &[Key], col: &[Key]) -> Option<&Cell> {
        let r = self.rows.binary_search_by(|k| k.as_slice().cmp(row)).ok()?;
        let c = self.cols.binary_search_by(|k| k.as_slice().cmp(col)).ok()?;
        self.cells[r][c].as_ref()
    }

    /// The cell at keys written as text (`["30"]`, `["baseline"]`).
    pub fn lookup(&self, row: &[&str], col: &[&str]) -> Option<&Cell> {
        let row: Vec<Key> = row.iter().map(|t| Key::parse(t)).collect();
        let col: Vec<Key> = col.iter().map(|t| Key::parse(t)).collect();
        self.get(&row, &col)
    }

    /// Every cell with its keys, row by row.
    pub fn iter(&self) -> impl Iterator<Item = (&[Key], &[Key], &Cell)> {
        self.rows.iter().zip(&self.cells).flat_map(move |(r, line)| {
            self.cols
                .iter()
                .zip(line)
                .filter_map(move |(c, cell)| cell.as_ref().map(|cell| (r.as_slice(), c.as_slice(), cell)))
        })
    }

    /// Whether no cell has a value.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// How many runs the shown values rest on.
    pub fn run_count(&self) -> usize {
        self.iter().map(|(_, _, c)| c.run_count()).sum()
    }

    /// The sweep dates the shown values rest on, distinct, oldest first.
    pub fn sweeps(&self) -> Vec<&str> {
        let set: BTreeSet<&str> = self.iter().flat_map(|(_, _, c)| c.sweeps.iter().map(String::as_str)).collect();
        set.into_iter().collect()
    }

    /// Things a reader should know that the table does not show: runs left
    /// out for lacking a grouping param, or nothing matching.
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = self
            .excluded
            .iter()
            .map(|(p, n)| format!("{n} run{} without `{p}` left out", if *n == 1 { "" } else { "s" }))
            .collect();
        if self.runs_matched == 0 {
            let cond =
                if self.filter.trim().is_empty() { String::new() } else { format!(" matching `{}`", self.filter) };
            notes.push(format!("no runs with a value of `{}`{cond}", self.metric.name));
        }
        notes
    }
}
