//! The data a command reads: every param set (read once), the runs (read
//! on first need, as columns), each metric's values (read on first use),
//! and the names reckon.toml gives them. Many queries share one
//! [`Dataset`]: a `reckon check` of a whole document reads the runs once
//! and each metric once, and a pivot asked twice (the same table, or claims
//! over the same metric) is computed once.
//!
//! The first query reads only the runs whose param set its filter can pass
//! (a table of one model and prompt length reads a few of many
//! configurations); anything asking for more reads every run, once.

use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

use super::column::Column;
use super::filter::{is_pseudo_param, Filter};
use super::names::{ambiguous, Aliases, Resolution};
use super::pivot::{Pivot, Query};
use super::runs::{Positions, Runs};
use super::sets::{ParamSet, ParamSets, SetsBuilder};
use super::{did_you_mean, known_list};
use crate::metric::Direction;
use crate::store::{MetricInfo, RunRecord, Store};
use crate::{Error, Result};

pub(crate) use super::values::{MetricValues, Values};

struct MetricSlot {
    info: MetricInfo,
    /// The values of the runs loaded (cleared when more runs are read).
    values: RefCell<Option<Rc<MetricValues>>>,
}

/// What reckon.toml says about names, handed to a dataset as plain values
/// (query knows nothing of reckon.toml): the aliases of metrics, params and
/// values, and per metric the direction and unit the project states over
/// what the store derived from the name.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// A name → the words researchers also write for it.
    pub aliases: BTreeMap<String, Vec<String>>,
    /// A metric → its direction and unit, each when stated.
    pub metrics: BTreeMap<String, (Option<Direction>, Option<String>)>,
}

/// Pivots kept for reuse at most; a command asks for far fewer distinct ones.
const PIVOTS_KEPT: usize = 512;

/// The param sets, the runs (those a query needs, or every run) and each
/// metric's values loaded on first use, so that many queries (a `reckon
/// check` of a whole document) share one read.
pub struct Dataset<'s> {
    store: &'s Store,
    /// Every param set, and where a set's id sits among them.
    pub(crate) sets: ParamSets,
    set_ids: Vec<i64>,
    /// The index of an empty set, for a run whose set is gone.
    orphan: u32,
    /// Which sets some run has.
    used: Vec<bool>,
    /// The runs read so far.
    runs: RefCell<Rc<Runs>>,
    /// The sets whose runs [`Dataset::runs`] holds; `None`: every run.
    loaded: RefCell<Option<Vec<bool>>>,
    /// The runs as full records, made only when a caller asks for them.
    records: OnceCell<Vec<RunRecord>>,
    params: BTreeSet<String>,
    metrics: BTreeMap<String, MetricSlot>,
    /// Every param and pseudo-param asked for so far, by name, over the
    /// runs loaded.
    columns: RefCell<HashMap<String, Rc<Column>>>,
    /// The distinct values of each param asked for so far, as text.
    set_values: RefCell<HashMap<String, Vec<String>>>,
    /// reckon.toml's words for metrics, params and values (see [`super::names`]).
    pub(crate) aliases: Aliases,
    /// Pivots computed so far, by their resolved query.
    pivots: RefCell<HashMap<Query, Pivot>>,
}

impl<'s> Dataset<'s> {
    /// Reads every param set and the list of metrics; runs are read when a
    /// query needs them.
    pub fn load(store: &'s Store) -> Result<Dataset<'s>> {
        let (mut set_ids, mut builder) = (Vec::new(), SetsBuilder::default());
        store.for_each_param_set(|id, pairs| {
            set_ids.push(id);
            builder.add(pairs);
        })?;
        Ok(Dataset::of(store, set_ids, builder, &store.used_param_sets()?, store.metrics()?))
    }

    /// A dataset that read nothing of `store` and holds nothing, for a
    /// command whose every question was answered without the data: a
    /// `check` whose regions and claims the evaluation cache knows all of
    /// (`review::cache`). Asked anything, it answers as an empty database.
    pub fn unread(store: &'s Store) -> Dataset<'s> {
        Dataset::of(store, Vec::new(), SetsBuilder::default(), &[], Vec::new())
    }

    /// The dataset of these param sets (by id), the ids of those some run
    /// has, and these metrics.
    fn of(
        store: &'s Store,
        set_ids: Vec<i64>,
        mut builder: SetsBuilder,
        used_ids: &[i64],
        metrics: Vec<MetricInfo>,
    ) -> Dataset<'s> {
        let orphan = builder.add_empty();
        let sets = builder.finish();
        let set_at = Positions::new(&set_ids);
        let mut used = vec![false; sets.len()];
        for &id in used_ids {
            used[set_at.get(id).unwrap_or(orphan) as usize] = true;
        }
        // The params some run has: those of the sets runs use.
        let mut named = vec![false; sets.names().len()];
        for set in (0..sets.len()).filter(|s| used[*s]) {
            for k in sets.keys_of(set) {
                named[k as usize] = true;
            }
        }
        let params = sets.names().iter().zip(named).filter(|(_, n)| *n).map(|(p, _)| p.clone()).collect();
        let metrics = metrics
            .into_iter()
            .map(|info| (info.name.clone(), MetricSlot { info, values: RefCell::new(None) }))
            .collect();
        Dataset {
            store,
            loaded: RefCell::new(Some(vec![false; sets.len()])),
            sets,
            set_ids,
            orphan,
            used,
            runs: RefCell::new(Rc::new(Runs::default())),
            records: OnceCell::new(),
            params,
            metrics,
            columns: RefCell::new(HashMap::new()),
            set_values: RefCell::new(HashMap::new()),
            aliases: Aliases::default(),
            pivots: RefCell::new(HashMap::new()),
        }
    }

    /// The runs loaded so far.
    pub(crate) fn loaded_runs(&self) -> Rc<Runs> {
        Rc::clone(&self.runs.borrow())
    }

    /// Every run, read now if not yet.
    pub(crate) fn all_runs(&self) -> Result<Rc<Runs>> {
        if self.loaded.borrow().is_some() {
            self.read_runs(None)?;
        }
        Ok(self.loaded_runs())
    }

    /// The runs holding every run a filter (resolved) can pass: those read
    /// so far when they do (see [`Dataset::expect`]), else every run.
    pub(crate) fn runs_for(&self, filter: &Filter) -> Result<Rc<Runs>> {
        let covered = match self.loaded.borrow().as_ref() {
            None => true,
            Some(loaded) => {
                self.sets_passing(filter).is_some_and(|need| need.iter().zip(loaded).all(|(n, l)| !n || *l))
            }
        };
        if covered {
            Ok(self.loaded_runs())
        } else {
            self.all_runs()
        }
    }

    /// The param sets some run has that a filter (resolved) can pass;
    /// `None` when it names a pseudo-param (a field of the run, not of its
    /// set).
    fn sets_passing(&self, filter: &Filter) -> Option<Vec<bool>> {
        if filter.params().iter().any(|p| is_pseudo_param(p)) {
            return None;
        }
        Some((0..self.sets.len()).map(|s| self.used[s] && filter.matches_fields(&self.sets.get(s))).collect())
    }

    /// Told the filters of every query a command is about to ask (a
    /// document's regions), reads now only the runs of the param sets they
    /// can pass, when those are few of many: a table of one model and prompt
    /// length reads a few configurations' runs. Any query asking for more
    /// reads every run then. Filters it cannot use (a pseudo-param, an
    /// unknown name) leave the runs to be read in full on first need.
    pub fn expect(&self, filters: &[Filter]) -> Result<()> {
        if self.loaded.borrow().as_ref().is_none_or(|loaded| loaded.iter().any(|l| *l)) {
            return Ok(());
        }
        let mut union = vec![false; self.sets.len()];
        for filter in filters {
            let Some(need) = self.resolve_filter(filter).ok().and_then(|f| self.sets_passing(&f)) else {
                return Ok(());
            };
            for (u, n) in union.iter_mut().zip(need) {
                *u |= n;
            }
        }
        if union.iter().filter(|n| **n).count() * 4 < self.used.iter().filter(|u| **u).count() {
            self.read_runs(Some(union))?;
        }
        Ok(())
    }

    /// Reads the runs of the sets marked in `sets` (`None`: every run) in
    /// place of those read before; what was worked out over those goes.
    fn read_runs(&self, sets: Option<Vec<bool>>) -> Result<()> {
        let ids: Option<Vec<i64>> = sets
            .as_ref()
            .map(|marked| self.set_ids.iter().zip(marked).filter(|(_, m)| **m).map(|(id, _)| *id).collect());
        let runs = Runs::load(self.store, &Positions::new(&self.set_ids), self.orphan, ids.as_deref())?;
        *self.runs.borrow_mut() = Rc::new(runs);
        *self.loaded.borrow_mut() = sets;
        self.columns.borrow_mut().clear();
        for slot in self.metrics.values() {
            slot.values.borrow_mut().take();
        }
        Ok(())
    }

    /// Every run, oldest first. Builds full records on first use: commands
    /// that only query never pay for them.
    pub fn runs(&self) -> &[RunRecord] {
        if let Some(records) = self.records.get() {
            return records;
        }
        // A store that cannot be read now was read a moment ago: no runs.
        let runs = self.all_runs().unwrap_or_default();
        self.records.get_or_init(|| (0..runs.len()).map(|at| runs.record(at, &self.sets)).collect())
    }

    /// The distinct param maps the runs have, each once: runs of one
    /// configuration share one, so which values occur together is answered
    /// over a few hundred maps instead of every run.
    pub fn param_sets(&self) -> impl Iterator<Item = ParamSet<'_>> {
        self.used_sets().into_iter().map(|s| self.sets.get(s))
    }

    /// The indices of the param sets some run has, in order.
    fn used_sets(&self) -> Vec<usize> {
        (0..self.sets.len()).filter(|s| self.used[*s]).collect()
    }

    /// A param over [`Dataset::param_sets`]: the distinct texts of its
    /// values (in order of first appearance) and, for each set, the index
    /// of its value's text if it has the param. Which values occur together
    /// is answered from these without writing a value as text twice.
    pub fn param_texts(&self, name: &str) -> (Vec<String>, Vec<Option<u32>>) {
        self.sets.texts(name, &self.used_sets())
    }

    /// The param sets of the runs that measure `metric`, each once, in
    /// order (for [`Dataset::param_texts_in`]).
    pub fn metric_sets(&self, metric: &str) -> Result<Vec<usize>> {
        let runs = self.all_runs()?;
        let values = self.cached_values(metric)?;
        let mut seen = vec![false; self.sets.len()];
        for (at, _) in values.iter() {
            if let Some(set) = runs.set.get(at as usize) {
                seen[*set as usize] = true;
            }
        }
        Ok((0..seen.len()).filter(|s| seen[*s]).collect())
    }

    /// [`Dataset::param_texts`] over the given param sets only.
    pub fn param_texts_in(&self, name: &str, sets: &[usize]) -> (Vec<String>, Vec<Option<u32>>) {
        self.sets.texts(name, sets)
    }

    /// A run by id.
    pub fn run(&self, id: i64) -> Option<&RunRecord> {
        let runs = self.all_runs().ok()?;
        runs.position(id).map(|at| &self.runs()[at])
    }

    /// Every sweep some run belongs to, oldest first.
    pub fn sweeps(&self) -> Result<Vec<String>> {
        Ok(self.all_runs()?.sweeps.clone())
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

    /// Takes the project's words: `[aliases]` become names every query
    /// accepts, and a metric's stated direction and unit replace what the
    /// store derived from its name, so every reader sees the project's word.
    pub fn apply_overrides(&mut self, overrides: &Overrides) {
        self.aliases = Aliases::new(&overrides.aliases);
        for (name, (direction, unit)) in &overrides.metrics {
            if let Some(slot) = self.metrics.get_mut(name) {
                if let Some(d) = direction {
                    slot.info.direction = *d;
                }
                if let Some(u) = unit {
                    slot.info.unit = Some(u.clone());
                }
            }
        }
        self.pivots.borrow_mut().clear();
    }

    /// A metric's unit and direction, or a usage error naming the known
    /// metrics and the likely one meant.
    pub fn metric_info(&self, name: &str) -> Result<&MetricInfo> {
        let name = self.metric_name(name)?;
        match self.metrics.get(name) {
            Some(slot) => Ok(&slot.info),
            None => Err(Error::usage(format!("unknown metric `{}`", crate::syntax::excerpt(name)))),
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
                Err(Error::usage(format!("unknown metric `{}`{hint}; {list}", crate::syntax::excerpt(name))))
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
                    "unknown param `{}` in {used_in}{hint}; known params: {}",
                    crate::syntax::excerpt(name),
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

    /// What to say of a filter that passes no run because a value it
    /// requires (see [`Filter::required_values`]) occurs in no run: "no
    /// run has `config` = `basline`; did you mean `baseline`?". Empty when
    /// every required value occurs in some run — an empty result for a
    /// valid value under a filter combination is no typo. Aliases are
    /// resolved first; pseudo-params (`date`, …) are not judged.
    pub fn absent_values(&self, filter: &Filter) -> Vec<String> {
        let resolved = self.resolve_filter(filter).unwrap_or_else(|_| filter.clone());
        let mut out = Vec::new();
        for (param, lit) in resolved.required_values() {
            if is_pseudo_param(param) || !self.holds_param(param) {
                continue;
            }
            let alone = Filter::eq(param, lit.clone());
            if (0..self.sets.len()).any(|s| self.used[s] && alone.matches_fields(&self.sets.get(s))) {
                continue;
            }
            let written = lit.text();
            let shown = crate::syntax::excerpt(&written);
            // In their order, not the store's: which log was ingested first
            // must not change what the message lists.
            let mut values = self.param_values(param);
            let number = |v: &String| v.parse::<f64>().ok();
            if values.iter().all(|v| number(v).is_some()) {
                values.sort_by(|a, b| number(a).partial_cmp(&number(b)).unwrap_or(std::cmp::Ordering::Equal));
            } else {
                values.sort();
            }
            let hint = super::did_you_mean(&written, values.iter().map(String::as_str)).map_or_else(
                || format!("; its values: {}", super::known_list(values.iter().map(String::as_str))),
                |v| format!("; did you mean `{v}`?"),
            );
            out.push(format!("no run has `{param}` = `{shown}`{hint}"));
        }
        out
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
        self.all_runs()?;
        let values = self.cached_values(metric)?;
        let runs = self.runs();
        let pairs: Vec<(u32, f64)> = values.iter().collect();
        Ok(pairs.into_iter().map(move |(at, v)| (&runs[at as usize], v)))
    }

    /// The distinct values a param takes across every run, as text, in no
    /// particular order: a param's from the param sets, a pseudo-param's
    /// (which a run without a param of its name has) from its column.
    pub fn param_values(&self, name: &str) -> Vec<String> {
        if is_pseudo_param(name) {
            return match self.all_runs() {
                Ok(_) => self.column(name).slots.iter().map(super::column::Slot::text).collect(),
                Err(_) => Vec::new(),
            };
        }
        if let Some(values) = self.set_values.borrow().get(name) {
            return values.clone();
        }
        let values: Vec<String> =
            self.sets.distinct(name, &self.used_sets()).into_iter().map(ToString::to_string).collect();
        self.set_values.borrow_mut().insert(name.to_string(), values.clone());
        values
    }

    /// A metric's values over the runs loaded.
    pub(crate) fn cached_values(&self, metric: &str) -> Result<Rc<MetricValues>> {
        let metric = self.metric_name(metric)?;
        let Some(slot) = self.metrics.get(metric) else {
            return Err(Error::usage(format!("unknown metric `{}`", crate::syntax::excerpt(metric))));
        };
        self.slot_values(metric, slot)
    }

    /// [`Dataset::cached_values`] of a metric that may not exist (a
    /// standard error logged beside some metrics only): `None` for a name
    /// that is no metric, without the message naming every known one.
    pub(crate) fn values_if_held(&self, metric: &str) -> Option<Rc<MetricValues>> {
        let Resolution::Found(found) = self.aliases.resolve(metric, |n| self.metrics.contains_key(n)) else {
            return None;
        };
        let (name, slot) = self.metrics.get_key_value(&found)?;
        self.slot_values(name, slot).ok()
    }

    fn slot_values(&self, metric: &str, slot: &MetricSlot) -> Result<Rc<MetricValues>> {
        if let Some(v) = slot.values.borrow().as_ref() {
            return Ok(Rc::clone(v));
        }
        let runs = self.loaded_runs();
        // The runs of a few of many param sets are looked up one by one (in
        // id order, each look-up lands near the one before); else the
        // metric's whole key range is read, which costs less than looking
        // up a sixth of it.
        let few = self.loaded.borrow().as_ref().is_some_and(|loaded| {
            let (read, used) = (loaded.iter().filter(|l| **l).count(), self.used.iter().filter(|u| **u).count());
            read * 8 < used
        });
        let ids = few.then(|| {
            let mut ids = runs.ids.clone();
            ids.sort_unstable();
            ids
        });
        // A run has a metric once (the measurement's key): a value per run
        // loaded, by position, in run order as read — no sort, and half the
        // size of (position, value) pairs for a metric most runs have.
        let mut by_run = vec![f64::NAN; runs.ids.len()];
        let mut count = 0usize;
        self.store.for_each_metric_value(metric, ids.as_deref(), |id, v| {
            if let (Some(at), Some(v)) = (runs.position(id), v.filter(|v| !v.is_nan())) {
                if by_run[at].is_nan() {
                    count += 1;
                }
                by_run[at] = v;
            }
        })?;
        let loaded = MetricValues::new(by_run, count);
        let loaded = Rc::new(loaded);
        *slot.values.borrow_mut() = Some(Rc::clone(&loaded));
        Ok(loaded)
    }

    /// Forgets the values of a metric read so far (read again when asked
    /// for): a command reading every metric once, one after another (a
    /// diff), holds one metric's values at a time, not every metric's.
    pub(crate) fn forget_values(&self, metric: &str) {
        if let Some(slot) = self.metrics.get(metric) {
            slot.values.borrow_mut().take();
        }
    }

    /// A field of every run loaded, built on first use.
    pub(crate) fn column(&self, name: &str) -> Rc<Column> {
        if let Some(column) = self.columns.borrow().get(name) {
            return Rc::clone(column);
        }
        let column = Rc::new(Column::build(&self.loaded_runs(), &self.sets, name));
        self.columns.borrow_mut().insert(name.to_string(), Rc::clone(&column));
        column
    }

    /// The pivot of a resolved query asked before, if kept.
    pub(crate) fn kept_pivot(&self, query: &Query) -> Option<Pivot> {
        self.pivots.borrow().get(query).cloned()
    }

    /// Keeps a pivot for the next ask of the same (resolved) query.
    pub(crate) fn keep_pivot(&self, query: Query, pivot: &Pivot) {
        let mut kept = self.pivots.borrow_mut();
        if kept.len() >= PIVOTS_KEPT {
            kept.clear();
        }
        kept.insert(query, pivot.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::{Agg, Filter};
    use crate::run::Value;
    use crate::store::builder::StoreBuilder;

    fn query(rows: &[&str], filter: &str, agg: Agg) -> Query {
        let rows = rows.iter().map(ToString::to_string).collect();
        Query { metric: "output_throughput".into(), rows, cols: vec![], filter: Filter::parse(filter).unwrap(), agg }
    }

    #[test]
    fn a_pivot_is_kept_under_its_resolved_query() {
        let params = vec![("config", Value::Text("baseline".into())), ("concurrency", Value::Num(8.0))];
        let store = StoreBuilder::new().source("a.jsonl", "2026-11-20T09:00:00Z", &[(params, 450.0)]).build();
        let mut ds = Dataset::load(&store).unwrap();
        let aliases = BTreeMap::from([("config".to_string(), vec!["variant".to_string()])]);
        ds.apply_overrides(&Overrides { aliases, ..Overrides::default() });
        ds.evaluate(&query(&["config"], "concurrency = 8", Agg::Median)).unwrap();
        // An alias resolves to the same query: one pivot.
        ds.evaluate(&query(&["variant"], "concurrency = 8", Agg::Median)).unwrap();
        assert_eq!(ds.pivots.borrow().len(), 1);
        // Another text (the pivot quotes it) or another aggregation: pivots of their own.
        ds.evaluate(&query(&["config"], "concurrency = 8.0", Agg::Median)).unwrap();
        ds.evaluate(&query(&["config"], "concurrency = 8", Agg::Mean)).unwrap();
        assert_eq!(ds.pivots.borrow().len(), 3);
        let asked = ds.resolve_query(&query(&["variant"], "concurrency = 8.0", Agg::Median)).unwrap();
        assert_eq!(ds.kept_pivot(&asked).unwrap().filter, "concurrency = 8.0");
        assert!(ds.kept_pivot(&query(&["config"], "concurrency = 8", Agg::Max)).is_none());
    }
}
