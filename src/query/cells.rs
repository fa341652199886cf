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
#![allow(clippy::cast_possible_truncation, clippy::default_trait_access, clippy::too_many_lines)] // floor-plan debt (issue 7): fix these and delete this line

use std::cell::{OnceCell, RefCell};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use super::filter::{is_pseudo_param, Field, Fields, Filter, PSEUDO_PARAMS};
use super::names::{ambiguous, Aliases, Resolution};
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
        match crate::syntax::read_number(text) {
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
        _ => f64::midpoint(v[n / 2 - 1], v[n / 2]),
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

/// A field while a column is built, borrowed from the run, to find the
/// slot an equal field already has.
#[derive(PartialEq, Eq, Hash)]
enum SlotRef<'a> {
    Num(u64),
    Text(&'a str),
    Pseudo(&'a str),
}

impl<'a> SlotRef<'a> {
    fn of(field: Field<'a>) -> SlotRef<'a> {
        match field {
            Field::Value(Value::Num(n)) => SlotRef::Num(n.to_bits()),
            Field::Value(Value::Text(t)) => SlotRef::Text(t),
            Field::Text(t) => SlotRef::Pseudo(t),
        }
    }
}

/// Marks a run without the field in [`Column::of_run`].
const ABSENT: u32 = u32::MAX;

/// One field of every run: its distinct values, and which one each run has.
/// Queries read fields from here by index: looking each run's field up by
/// name in its param map, once per query, dominated a whole document's
/// `check` (runs carry dozens of params with long shared prefixes such as
/// `server_info.`), and a field has few distinct values, so a filter or a
/// grouping is worked out once per value instead of once per run.
struct Column {
    /// The distinct fields, in order of first appearance.
    slots: Vec<Slot>,
    /// Indexed like [`Dataset::runs`]: the run's slot, or [`ABSENT`].
    of_run: Vec<u32>,
}

impl Column {
    fn build(runs: &[RunRecord], name: &str) -> Column {
        let mut slots = Vec::new();
        let mut seen: HashMap<SlotRef<'_>, u32> = HashMap::new();
        let of_run = runs
            .iter()
            .map(|run| match run.field(name) {
                None => ABSENT,
                Some(field) => *seen.entry(SlotRef::of(field)).or_insert_with(|| {
                    slots.push(Slot::of(field));
                    (slots.len() - 1) as u32
                }),
            })
            .collect();
        Column { slots, of_run }
    }

    /// How many states a run can be in for this field: a slot, or absent.
    fn states(&self) -> usize {
        self.slots.len() + 1
    }

    /// The run's state: its slot, or `slots.len()` when absent.
    fn state(&self, run: usize) -> usize {
        match self.of_run[run] {
            ABSENT => self.slots.len(),
            s => s as usize,
        }
    }
}

/// Builds a column for every param and pseudo-param while the runs are
/// read, each run while it is still in cache: looking fields up afterwards
/// in param maps spread over memory cost ~20 ms per param per 30,000 runs.
#[derive(Default)]
struct ColumnsBuilder {
    position: HashMap<String, usize>,
    columns: Vec<ColumnBuild>,
    /// The positions of the pseudo-param columns, once made.
    pseudo: [Option<usize>; PSEUDO_PARAMS.len()],
    /// The previous run's params as column positions, in key order: runs
    /// of one log share their keys, so a key is usually found with one
    /// comparison.
    previous: Vec<usize>,
    current: Vec<usize>,
    runs: usize,
}

/// A column being built, with the slots its values already have.
struct ColumnBuild {
    name: String,
    column: Column,
    nums: HashMap<u64, u32>,
    texts: HashMap<String, u32>,
    pseudo: HashMap<String, u32>,
    /// Some run has it as a param (not only as a pseudo-param).
    is_param: bool,
}

impl ColumnBuild {
    fn push(&mut self, field: Field<'_>) {
        let slots = &mut self.column.slots;
        // Neighbouring runs mostly share a value (one log, one server).
        if let Some(&last) = self.column.of_run.last().filter(|s| **s != ABSENT) {
            let same = match (&slots[last as usize], field) {
                (Slot::Param(Value::Num(a)), Field::Value(Value::Num(b))) => a.to_bits() == b.to_bits(),
                (Slot::Param(Value::Text(a)), Field::Value(Value::Text(b))) => a == b,
                (Slot::Pseudo(a), Field::Text(b)) => a == b,
                _ => false,
            };
            if same {
                self.column.of_run.push(last);
                return;
            }
        }
        let mut add = |slot: Slot| {
            slots.push(slot);
            (slots.len() - 1) as u32
        };
        let slot = match field {
            Field::Value(Value::Num(n)) => {
                *self.nums.entry(n.to_bits()).or_insert_with(|| add(Slot::Param(Value::Num(*n))))
            }
            Field::Value(Value::Text(t)) => {
                if let Some(s) = self.texts.get(t.as_str()) {
                    *s
                } else {
                    let s = add(Slot::Param(Value::Text(t.clone())));
                    self.texts.insert(t.clone(), s);
                    s
                }
            }
            Field::Text(t) => {
                if let Some(s) = self.pseudo.get(t) {
                    *s
                } else {
                    let s = add(Slot::Pseudo(t.to_string()));
                    self.pseudo.insert(t.to_string(), s);
                    s
                }
            }
        };
        self.column.of_run.push(slot);
    }
}

impl ColumnsBuilder {
    fn position_of(&mut self, name: &str) -> usize {
        if let Some(p) = self.position.get(name) {
            return *p;
        }
        self.columns.push(ColumnBuild {
            name: name.to_string(),
            column: Column { slots: Vec::new(), of_run: vec![ABSENT; self.runs] },
            nums: HashMap::new(),
            texts: HashMap::new(),
            pseudo: HashMap::new(),
            is_param: false,
        });
        self.position.insert(name.to_string(), self.columns.len() - 1);
        self.columns.len() - 1
    }

    /// Indexes the next run.
    fn add(&mut self, run: &RunRecord) {
        let mut shadowed = [false; PSEUDO_PARAMS.len()];
        self.current.clear();
        for (j, (key, value)) in run.params.iter().enumerate() {
            let pos = match self.previous.get(j) {
                Some(&p) if self.columns[p].name == *key => p,
                _ => self.position_of(key),
            };
            // A param named like a pseudo-param is what the run reports for it.
            if let Some(k) = PSEUDO_PARAMS.iter().position(|p| p == key) {
                shadowed[k] = true;
            }
            let column = &mut self.columns[pos];
            column.is_param = true;
            column.push(Field::Value(value));
            self.current.push(pos);
        }
        for (k, name) in PSEUDO_PARAMS.iter().enumerate() {
            if shadowed[k] {
                continue;
            }
            let pos = if let Some(p) = self.pseudo[k] {
                p
            } else {
                let p = self.position_of(name);
                self.pseudo[k] = Some(p);
                p
            };
            if let Some(field) = run.field(name) {
                self.columns[pos].push(field);
            }
        }
        self.runs += 1;
        for c in &mut self.columns {
            if c.column.of_run.len() < self.runs {
                c.column.of_run.push(ABSENT);
            }
        }
        std::mem::swap(&mut self.previous, &mut self.current);
    }

    /// The params (names some run has as a param) and every column.
    fn finish(self) -> (BTreeSet<String>, HashMap<String, Rc<Column>>) {
        let params = self.columns.iter().filter(|c| c.is_param).map(|c| c.name.clone()).collect();
        let columns = self.columns.into_iter().map(|c| (c.name, Rc::new(c.column))).collect();
        (params, columns)
    }
}

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
            Some((_, column)) => column.slots.get(column.of_run[self.at] as usize).map(Slot::field),
            None => self.run.field(name),
        }
    }
}

/// Tables indexed by the combination of several columns' states are kept
/// to this many entries; beyond it (a filter on a per-run field such as
/// `time`) the work is done per run.
const MAX_COMBINATIONS: usize = 1 << 20;

/// The number of combinations of the columns' states, if within
/// [`MAX_COMBINATIONS`].
fn combinations<'c>(mut columns: impl Iterator<Item = &'c Column>) -> Option<usize> {
    columns.try_fold(1usize, |n, c| n.checked_mul(c.states()).filter(|n| *n <= MAX_COMBINATIONS))
}

/// A run's combination of the columns' states, as one index.
fn combination<'c>(columns: impl Iterator<Item = &'c Column>, run: usize) -> usize {
    columns.fold(0, |index, c| index * c.states() + c.state(run))
}

/// The runs, loaded once, and each metric's values loaded on first use, so
/// that many queries (a `reckon check` of a whole document) share one read.
pub struct Dataset<'s> {
    store: &'s Store,
    runs: Vec<RunRecord>,
    by_id: HashMap<i64, u32>,
    params: BTreeSet<String>,
    metrics: BTreeMap<String, MetricSlot>,
    /// Every param and pseudo-param of the runs, by name.
    columns: RefCell<HashMap<String, Rc<Column>>>,
    /// reckon.toml's words for metrics, params and values (see [`super::names`]).
    aliases: Aliases,
}

impl<'s> Dataset<'s> {
    /// Reads every run and the list of metrics.
    pub fn load(store: &'s Store) -> Result<Dataset<'s>> {
        let mut runs = Vec::new();
        let mut columns = ColumnsBuilder::default();
        store.for_each_run(|run| {
            columns.add(&run);
            runs.push(run);
        })?;
        let (params, columns) = columns.finish();
        let by_id = runs.iter().enumerate().map(|(i, r)| (r.id, i as u32)).collect();
        let metrics = store
            .metrics()?
            .into_iter()
            .map(|info| (info.name.clone(), MetricSlot { info, values: OnceCell::new() }))
            .collect();
        Ok(Dataset { store, runs, by_id, params, metrics, columns: RefCell::new(columns), aliases: Aliases::default() })
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

    /// Whether some run has the param (or a param `name` is an alias of),
    /// or it is a pseudo-param.
    pub fn has_param(&self, name: &str) -> bool {
        self.holds_param(name) || matches!(self.aliases.resolve(name, |n| self.holds_param(n)), Resolution::Found(_))
    }

    fn holds_param(&self, name: &str) -> bool {
        self.params.contains(name) || is_pseudo_param(name)
    }

    /// A metric's unit and direction, or a usage error naming the known
    /// metrics and the likely one meant.
    /// Applies reckon.toml's per-metric unit and direction over what the
    /// store derived from the names, so every reader sees the project's word.
    /// reckon.toml's `[aliases]` become names every query accepts.
    pub fn apply_config(&mut self, cfg: &crate::config::Config) {
        self.aliases = Aliases::new(&cfg.aliases);
        for (name, spec) in &cfg.metrics {
            if let Some(slot) = self.metrics.get_mut(name) {
                if let Some(d) = spec.direction {
                    slot.info.direction = d;
                }
                if let Some(u) = &spec.unit {
                    slot.info.unit = Some(u.clone());
                }
            }
        }
    }

    pub fn metric_info(&self, name: &str) -> Result<&MetricInfo> {
        let name = self.metric_name(name)?;
        match self.metrics.get(name) {
            Some(slot) => Ok(&slot.info),
            None => Err(Error::usage(format!("unknown metric `{name}`"))),
        }
    }

    /// The metric a name stands for: itself, or the metric it is an alias
    /// of; else a usage error naming the known metrics and the likely one
    /// meant.
    pub fn metric_name<'n>(&'n self, name: &'n str) -> Result<&'n str> {
        let known = |n: &str| self.metrics.contains_key(n);
        match self.aliases.resolve(name, known) {
            Resolution::Found(found) => match self.metrics.get_key_value(&found) {
                Some((key, _)) => Ok(key.as_str()),
                None => Ok(name),
            },
            Resolution::Ambiguous(candidates) => Err(Error::usage(ambiguous(name, "metrics", &candidates))),
            Resolution::AliasOf(_) | Resolution::Unknown => {
                let known = || self.metrics.keys().map(String::as_str);
                let hint = did_you_mean(name, known().chain(self.aliases.words_for(|n| self.metrics.contains_key(n))))
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                let list = if self.metrics.is_empty() {
                    "the database holds no metrics yet (run `reckon ingest`)".to_string()
                } else {
                    format!("known metrics: {}", known_list(known()))
                };
                Err(Error::usage(format!("unknown metric `{name}`{hint}; {list}")))
            }
        }
    }

    /// The param a name stands for: itself, or the param it is an alias
    /// of; else a usage error saying where it was named (`used_in`: `rows`,
    /// `the filter`) with the known params and the likely one meant.
    pub fn param_name(&self, name: &str, used_in: &str) -> Result<String> {
        let known = |n: &str| self.holds_param(n);
        match self.aliases.resolve(name, known) {
            Resolution::Found(found) => Ok(found),
            Resolution::Ambiguous(candidates) => Err(Error::usage(ambiguous(name, "params", &candidates))),
            Resolution::AliasOf(_) | Resolution::Unknown => {
                // A log's own param may share a pseudo-param's name: list it once.
                let known = || {
                    self.params
                        .iter()
                        .map(String::as_str)
                        .chain(super::filter::PSEUDO_PARAMS.iter().copied().filter(|p| !self.params.contains(*p)))
                };
                let hint = did_you_mean(name, known().chain(self.aliases.words_for(|n| self.holds_param(n))))
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                Err(Error::usage(format!(
                    "unknown param `{name}` in {used_in}{hint}; known params: {}",
                    known_list(known())
                )))
            }
        }
    }

    /// Checks that a param exists (see [`Dataset::param_name`]).
    pub fn check_param(&self, name: &str, used_in: &str) -> Result<()> {
        self.param_name(name, used_in).map(|_| ())
    }

    /// How a value of `param` is written in the data when `value` is an
    /// alias of one (`topk=1+v2` → `eagle-topk1-v2`); `None` when it is to
    /// be taken as written. An alias of several values the param takes is
    /// a usage error naming them.
    pub fn value_name(&self, param: &str, value: &str) -> Result<Option<String>> {
        if self.aliases.canonicals(value).is_empty() {
            return Ok(None);
        }
        let values = self.param_values(param);
        match self.aliases.resolve(value, |n| values.iter().any(|v| v == n)) {
            Resolution::Found(found) if found != value => Ok(Some(found)),
            Resolution::Ambiguous(candidates) => {
                Err(Error::usage(ambiguous(value, &format!("values of `{param}`"), &candidates)))
            }
            _ => Ok(None),
        }
    }

    /// The filter with its params and compared values as the data name
    /// them (aliases resolved); a usage error for an unknown param.
    pub fn resolve_filter(&self, filter: &Filter) -> Result<Filter> {
        filter.resolve(&mut |p| self.param_name(p, "the filter"), &mut |p, v| self.value_name(p, v))
    }

    /// Checks every param a filter names.
    pub fn check_filter(&self, filter: &Filter) -> Result<()> {
        self.resolve_filter(filter).map(|_| ())
    }

    /// The query with every name as the data use it (aliases resolved).
    pub fn resolve_query(&self, q: &Query) -> Result<Query> {
        let params = |names: &[String], used_in: &str| -> Result<Vec<String>> {
            names.iter().map(|p| self.param_name(p, used_in)).collect()
        };
        Ok(Query {
            metric: self.metric_name(&q.metric)?.to_string(),
            rows: params(&q.rows, "rows")?,
            cols: params(&q.cols, "cols")?,
            filter: if self.aliases.is_empty() { q.filter.clone() } else { self.resolve_filter(&q.filter)? },
            agg: q.agg,
        })
    }

    /// A metric's non-NaN values as (run, value), oldest run first; read
    /// from the store on first use.
    pub fn values(&self, metric: &str) -> Result<impl Iterator<Item = (&RunRecord, f64)>> {
        Ok(self.cached_values(metric)?.iter().map(|(i, v)| (&self.runs[*i as usize], *v)))
    }

    /// The distinct values a param takes across every run, as text (read
    /// from the param's column: no pass over the runs).
    pub fn param_values(&self, name: &str) -> Vec<String> {
        self.column(name)
            .slots
            .iter()
            .map(|slot| match slot {
                Slot::Param(v) => v.to_string(),
                Slot::Pseudo(t) => t.clone(),
            })
            .collect()
    }

    /// The numeric params whose values differ among the given runs (a
    /// cell's), each with its distinct values (sorted, at most six shown).
    /// A one-number reading of such runs mixes points — concurrencies,
    /// batch sizes — so callers ask the author to pick one. Repeat markers
    /// (`repeat`, `seed`, …, see [`crate::run::is_repeat_marker`]) tell
    /// repeats apart, not points, and are not reported.
    pub fn varying_params(&self, run_ids: &[i64]) -> Vec<(String, Vec<String>)> {
        let mut seen: BTreeMap<&str, BTreeSet<Key>> = BTreeMap::new();
        for run in run_ids.iter().filter_map(|id| self.run(*id)) {
            for (name, value) in &run.params {
                if crate::run::is_repeat_marker(name) {
                    continue;
                }
                if let Value::Num(n) = value {
                    if n.is_finite() {
                        let set = seen.entry(name.as_str()).or_default();
                        if set.len() < 7 {
                            set.insert(Key::Num(*n));
                        }
                    }
                }
            }
        }
        seen.into_iter()
            .filter(|(_, values)| values.len() > 1)
            .map(|(name, values)| {
                let mut shown: Vec<String> = values.iter().take(6).map(Key::to_string).collect();
                if values.len() > 6 {
                    shown.push("…".into());
                }
                (name.to_string(), shown)
            })
            .collect()
    }

    /// Where the repeats among these runs come from, for a verdict's
    /// evidence: several runs read from one log record (hyperfine's
    /// `times`: "3 repeats per record from hyperfine's `times` (b.json:3,
    /// b.json:23)"), or runs told apart by a repeat marker param ("repeats
    /// told apart by `repeat` (gemm.csv)"). `None` when every run is its own
    /// record with no marker: repeats only by sharing a configuration.
    pub fn repeats_note(&self, run_ids: &[i64]) -> Option<String> {
        let runs: Vec<&RunRecord> = run_ids.iter().filter_map(|id| self.run(*id)).collect();
        let mut records: BTreeMap<(&str, u64), usize> = BTreeMap::new();
        for r in &runs {
            *records.entry((r.source.as_str(), r.line)).or_default() += 1;
        }
        let shared: Vec<(&(&str, u64), &usize)> = records.iter().filter(|(_, n)| **n > 1).collect();
        let formats: BTreeMap<String, String> =
            self.store.sources().map(|s| s.into_iter().map(|s| (s.path, s.format)).collect()).unwrap_or_default();
        let places = |items: Vec<String>| {
            let mut shown: Vec<String> = items.iter().take(2).cloned().collect();
            if items.len() > 2 {
                shown.push(format!("{} more", items.len() - 2));
            }
            shown.join(", ")
        };
        if !shared.is_empty() {
            let (lo, hi) = (
                shared.iter().map(|(_, n)| **n).min().unwrap_or(0),
                shared.iter().map(|(_, n)| **n).max().unwrap_or(0),
            );
            let per = if lo == hi { lo.to_string() } else { format!("{lo}–{hi}") };
            let hyperfine = shared.iter().all(|((src, _), _)| formats.get(*src).is_some_and(|f| f == "hyperfine"));
            let from = if hyperfine { "hyperfine's `times`" } else { "the log's per-repeat lists" };
            let at = places(shared.iter().map(|((src, line), _)| format!("{src}:{line}")).collect());
            return Some(format!("{per} repeats per record from {from} ({at})"));
        }
        // A value from hyperfine's summaries (`mean`, `median`, …) is one
        // number per command though hyperfine ran several repeats: say
        // where they are.
        if !records.is_empty() && records.keys().all(|(src, _)| formats.get(*src).is_some_and(|f| f == "hyperfine")) {
            let mut all: BTreeMap<(&str, u64), usize> = records.keys().map(|k| (*k, 0)).collect();
            for r in &self.runs {
                if let Some(n) = all.get_mut(&(r.source.as_str(), r.line)) {
                    *n += 1;
                }
            }
            let most = all.values().copied().max().unwrap_or(0);
            if most > 1 {
                return Some(format!(
                    "each value is hyperfine's summary of up to {most} repeats; the metric `time` holds one per run"
                ));
            }
        }
        let marker = runs.iter().flat_map(|r| r.params.keys()).find(|k| crate::run::is_repeat_marker(k))?;
        let distinct: BTreeSet<String> =
            runs.iter().filter_map(|r| r.params.get(marker.as_str())).map(Value::to_string).collect();
        if distinct.len() < 2 {
            return None;
        }
        let sources: BTreeSet<&str> = runs.iter().map(|r| r.source.as_str()).collect();
        let at = places(sources.into_iter().map(str::to_string).collect());
        Some(format!("repeats told apart by `{marker}` ({at})"))
    }

    fn cached_values(&self, metric: &str) -> Result<&Values> {
        let metric = self.metric_name(metric)?;
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

    /// A field of every run.
    fn column(&self, name: &str) -> Rc<Column> {
        if let Some(column) = self.columns.borrow().get(name) {
            return Rc::clone(column);
        }
        // Every param and pseudo-param was indexed at load; this is for a
        // name no run had then.
        let column = Rc::new(Column::build(&self.runs, name));
        self.columns.borrow_mut().insert(name.to_string(), Rc::clone(&column));
        column
    }

    /// Groups the metric's values into cells and aggregates each.
    pub fn evaluate(&self, q: &Query) -> Result<Pivot> {
        let resolved = self.resolve_query(q)?;
        let q = &resolved;
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

        // Whether a run passes depends only on the fields the filter names:
        // judged once per combination of their values (0 = not yet).
        let filter_cols = || filter_columns.iter().map(|(_, c)| c.as_ref());
        let mut passes: Option<Vec<u8>> = combinations(filter_cols()).map(|n| vec![0; n]);

        // Each grouping column's slots by their key (numeric reading first,
        // so `8` and `8.0` are one cell); a run's cell follows from the
        // combination of its key indices.
        let keys: Vec<(Vec<KeyRef<'_>>, Vec<u32>)> = group_columns
            .iter()
            .map(|column| {
                let mut distinct: Vec<KeyRef<'_>> = Vec::new();
                let mut index: HashMap<KeyRef<'_>, u32> = HashMap::new();
                let of_slot = column
                    .slots
                    .iter()
                    .map(|slot| {
                        let k = KeyRef::of(slot.field());
                        *index.entry(k).or_insert_with(|| {
                            distinct.push(k);
                            (distinct.len() - 1) as u32
                        })
                    })
                    .collect();
                (distinct, of_slot)
            })
            .collect();
        let dense = keys.iter().try_fold(1usize, |n, (d, _)| n.checked_mul(d.len()).filter(|n| *n <= MAX_COMBINATIONS));
        let mut cell_of: Vec<u32> = vec![ABSENT; dense.unwrap_or(0)];
        let mut index: HashMap<Vec<u32>, usize> = HashMap::new();
        let mut groups: Vec<(Vec<u32>, Values)> = Vec::new();
        let mut excluded: BTreeMap<String, usize> = BTreeMap::new();
        let mut scratch: Vec<u32> = Vec::with_capacity(group.len());
        let mut matched = 0;
        for &(i, v) in values {
            let at = i as usize;
            let pass = match passes.as_mut() {
                Some(memo) => {
                    let known = &mut memo[combination(filter_cols(), at)];
                    if *known == 0 {
                        let fields = ColumnFields { run: &self.runs[at], at, columns: &filter_columns };
                        *known = if q.filter.matches_fields(&fields) { 2 } else { 1 };
                    }
                    *known == 2
                }
                None => q.filter.matches_fields(&ColumnFields { run: &self.runs[at], at, columns: &filter_columns }),
            };
            if !pass {
                continue;
            }
            matched += 1;
            scratch.clear();
            let mut complete = true;
            for ((p, column), (_, of_slot)) in group.iter().zip(&group_columns).zip(&keys) {
                match column.of_run[at] {
                    ABSENT => {
                        complete = false;
                        match excluded.get_mut(*p) {
                            Some(count) => *count += 1,
                            None => {
                                excluded.insert((*p).to_string(), 1);
                            }
                        }
                    }
                    slot => scratch.push(of_slot[slot as usize]),
                }
            }
            if !complete {
                continue;
            }
            let new_group = |groups: &mut Vec<(Vec<u32>, Values)>| {
                groups.push((scratch.clone(), Vec::new()));
                groups.len() - 1
            };
            let g = if dense.is_some() {
                let at = scratch.iter().zip(&keys).fold(0, |n, (k, (d, _))| n * d.len() + *k as usize);
                match cell_of[at] {
                    ABSENT => {
                        let g = new_group(&mut groups);
                        cell_of[at] = g as u32;
                        g
                    }
                    g => g as usize,
                }
            } else if let Some(g) = index.get(scratch.as_slice()) {
                *g
            } else {
                let g = new_group(&mut groups);
                index.insert(scratch.clone(), g);
                g
            };
            groups[g].1.push((i, v));
        }

        let nrows = q.rows.len();
        let mut keyed: BTreeMap<(Vec<Key>, Vec<Key>), Cell> = BTreeMap::new();
        for (key, entries) in &groups {
            let key: Vec<Key> = key.iter().zip(&keys).map(|(k, (d, _))| Key::from_ref(d[*k as usize])).collect();
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

#[cfg(test)]
mod tests {
    //! The column-based [`Dataset::evaluate`] against a direct reading of
    //! its contract: every run filtered with [`Filter::matches`] and grouped
    //! by [`RunRecord`]'s own fields.

    use super::*;
    use crate::run::RawRun;
    use crate::store::{Batch, NewSource, RunTime};

    /// The contract, run by run.
    fn reference(ds: &Dataset, q: &Query) -> Pivot {
        let group: Vec<&str> = q.rows.iter().chain(&q.cols).map(String::as_str).collect();
        let mut groups: BTreeMap<Vec<Key>, Values> = BTreeMap::new();
        let mut excluded: BTreeMap<String, usize> = BTreeMap::new();
        let mut matched = 0;
        for &(i, v) in ds.cached_values(&q.metric).unwrap() {
            let run = &ds.runs[i as usize];
            if !q.filter.matches(run) {
                continue;
            }
            matched += 1;
            let key: Vec<Option<Key>> =
                group.iter().map(|p| run.field(p).map(|f| Key::from_ref(KeyRef::of(f)))).collect();
            for (p, k) in group.iter().zip(&key) {
                if k.is_none() {
                    *excluded.entry(p.to_string()).or_insert(0) += 1;
                }
            }
            if let Some(key) = key.into_iter().collect::<Option<Vec<Key>>>() {
                groups.entry(key).or_default().push((i, v));
            }
        }
        let nrows = q.rows.len();
        let rows: Vec<Vec<Key>> =
            groups.keys().map(|k| k[..nrows].to_vec()).collect::<BTreeSet<_>>().into_iter().collect();
        let cols: Vec<Vec<Key>> =
            groups.keys().map(|k| k[nrows..].to_vec()).collect::<BTreeSet<_>>().into_iter().collect();
        let mut cells: Vec<Vec<Option<Cell>>> = vec![vec![None; cols.len()]; rows.len()];
        for (key, entries) in &groups {
            let r = rows.binary_search(&key[..nrows].to_vec()).unwrap();
            let c = cols.binary_search(&key[nrows..].to_vec()).unwrap();
            cells[r][c] = Some(aggregate(q.agg, &ds.runs, entries));
        }
        Pivot {
            metric: ds.metric_info(&q.metric).unwrap().clone(),
            agg: q.agg,
            filter: q.filter.as_str().to_string(),
            row_params: q.rows.clone(),
            col_params: q.cols.clone(),
            rows,
            cols,
            cells,
            runs_matched: matched,
            excluded,
        }
    }

    /// Adds a source of runs at `time`; each run is its params and value.
    fn add(store: &mut Store, path: &str, time: &str, runs: &[(Vec<(&str, Value)>, f64)]) {
        let mut batch = Batch::new("test".into(), None);
        let labels = BTreeMap::new();
        let src =
            NewSource { path, hash: path, format: "jsonl", labels: &labels, seen: Default::default(), time: None };
        let rt = RunTime { time: time.into(), origin: "log" };
        let mut w = store.begin_source(&mut batch, &src).unwrap().unwrap();
        for (i, (params, value)) in runs.iter().enumerate() {
            let mut raw = RawRun::new(i as u64 + 1);
            for (k, v) in params {
                raw.param(*k, v.clone());
            }
            raw.metric("output_throughput", *value);
            w.add_run(&raw, &labels, &rt).unwrap();
        }
        w.commit().unwrap();
    }

    /// Runs that exercise every corner of grouping and filtering: a label
    /// `8` beside a logged 8.0 and -0 beside 0, runs lacking a param, a
    /// param named like the pseudo-param `date`, a NaN value, three
    /// sweeps, and 1,100 runs with per-run `tag` and `seq` (more
    /// combinations than the tables indexed by combination hold).
    fn store() -> Store {
        let mut s = Store::open_in_memory().unwrap();
        let t = |x: &str| Value::Text(x.into());
        let n = Value::Num;
        let run = |config: &str, c: Value, v: f64| (vec![("config", t(config)), ("concurrency", c)], v);
        add(
            &mut s,
            "a.jsonl",
            "2026-11-20T09:00:00Z",
            &[run("baseline", n(8.0), 450.0), run("eagle", n(8.0), 280.0), run("baseline", n(0.0), 1.0)],
        );
        add(
            &mut s,
            "b.jsonl",
            "2026-11-29T14:00:00Z",
            &[
                run("baseline", t("8"), 460.0),
                run("baseline", n(8.0), 462.0),
                run("eagle", n(-0.0), 2.0),
                run("eagle", n(8.0), f64::NAN),
                (vec![("config", t("eagle"))], 300.0),
                (vec![("config", t("baseline")), ("concurrency", n(30.0)), ("model", t("kimi"))], 640.0),
                (vec![("config", t("eagle")), ("concurrency", n(30.0)), ("date", t("2026-01-01"))], 330.0),
            ],
        );
        let many: Vec<(Vec<(&str, Value)>, f64)> = (0..1100)
            .map(|i| {
                let config = if i % 3 == 0 { "baseline" } else { "eagle" };
                let params = vec![
                    ("config", t(config)),
                    ("concurrency", n([1.0, 8.0, 30.0][i % 3])),
                    ("tag", t(&format!("t{i}"))),
                    ("seq", n(i as f64)),
                ];
                (params, 100.0 + (i % 17) as f64)
            })
            .collect();
        add(&mut s, "c.jsonl", "2026-12-01T10:00:00Z", &many);
        s
    }

    #[test]
    fn columns_give_what_reading_each_run_gives() {
        let s = store();
        let ds = Dataset::load(&s).unwrap();
        assert_eq!(ds.runs().len(), 1110);
        let groupings: [(&[&str], &[&str]); 7] = [
            (&["concurrency"], &["config"]),
            (&[], &["config"]),
            (&[], &[]),
            (&["date"], &["source"]),
            (&["model"], &["config"]),
            (&["tag"], &["seq"]),
            (&["concurrency", "config"], &["time"]),
        ];
        let filters = [
            "",
            "config in (baseline, eagle) and concurrency >= 4",
            "date = 2026-11-29",
            "date = 2026-01-01 or model = kimi",
            "source ~ 'b*'",
            "time > '2026-11-21'",
            "not (model = 'kimi') or concurrency = 8",
            "tag != 't5' and seq >= 3",
            "concurrency = 0",
        ];
        let mut compared = 0;
        for (rows, cols) in groupings {
            for filter in filters {
                for agg in Agg::ALL {
                    let q = Query {
                        metric: "output_throughput".into(),
                        rows: rows.iter().map(std::string::ToString::to_string).collect(),
                        cols: cols.iter().map(std::string::ToString::to_string).collect(),
                        filter: Filter::parse(filter).unwrap(),
                        agg,
                    };
                    assert_eq!(
                        ds.evaluate(&q).unwrap(),
                        reference(&ds, &q),
                        "rows {rows:?} cols {cols:?} where `{filter}` agg {agg}"
                    );
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 7 * 9 * 7);
    }

    #[test]
    fn grouping_merges_equal_readings_and_counts_missing_params() {
        let s = store();
        let ds = Dataset::load(&s).unwrap();
        let q = Query {
            metric: "output_throughput".into(),
            rows: vec!["concurrency".into()],
            cols: vec!["config".into()],
            filter: Filter::parse("time < '2026-12-01'").unwrap(),
            agg: Agg::All,
        };
        let p = ds.evaluate(&q).unwrap();
        // The label "8" and the numbers 8.0 from both sweeps: one cell; the NaN is left out.
        assert_eq!(p.lookup(&["8"], &["baseline"]).unwrap().values, vec![450.0, 460.0, 462.0]);
        assert_eq!(p.lookup(&["8"], &["eagle"]).unwrap().values, vec![280.0]);
        // -0 and 0 are one row.
        assert_eq!(p.rows.iter().filter(|r| r[0].as_f64() == Some(0.0)).count(), 1);
        // 9 non-NaN runs before 2026-12-01; the eagle run without concurrency is counted out.
        assert_eq!(p.runs_matched, 9);
        assert_eq!(p.excluded.get("concurrency"), Some(&1));
        // The run whose param `date` is 2026-01-01 reports that, not its sweep.
        let q = Query { filter: Filter::parse("date = 2026-01-01").unwrap(), ..q };
        assert_eq!(ds.evaluate(&q).unwrap().lookup(&["30"], &["eagle"]).unwrap().values, vec![330.0]);
        assert!(ds.has_param("date") && ds.params().any(|p| p == "date"));
        assert!(!ds.params().any(|p| p == "time"), "pseudo-params are not params");
    }
}
