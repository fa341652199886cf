//! The runs of a [`super::Dataset`], held as columns of small integers.
//!
//! A `reckon check` over a million values reads tens of thousands of runs.
//! Holding each as a [`RunRecord`] (its own copy of dozens of params, its
//! source path and time as strings) made loading cost more than everything
//! a document asks afterwards, and made each cell compare sweep dates as
//! strings. Here a run is a row of integers: its param set (runs of one
//! configuration share one), the rank of its sweep, its time and its
//! source. Full records are built only for the few commands that list runs.

use std::collections::HashMap;
use std::rc::Rc;

use super::filter;
use super::sets::{ParamSet, ParamSets};
use super::Dataset;
use crate::store::{RunRecord, ScannedRun, Store};
use crate::Result;

/// Interns strings: each distinct one gets the index of its first sight.
#[derive(Default)]
struct Interner {
    index: HashMap<String, u32>,
    names: Vec<String>,
    /// The index handed out last: runs come in the order they were
    /// ingested, file by file, and neighbours mostly share a time and sweep,
    /// so one comparison usually spares a hash.
    last: Option<u32>,
}

impl Interner {
    fn get(&mut self, text: &str) -> u32 {
        if let Some(last) = self.last.filter(|l| self.names[*l as usize] == text) {
            return last;
        }
        if let Some(i) = self.index.get(text) {
            self.last = Some(*i);
            return *i;
        }
        let i = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.index.insert(text.to_string(), i);
        self.names.push(text.to_string());
        self.last = Some(i);
        i
    }

    /// The names sorted, and each old index's rank among them: ranks
    /// compare as the strings do.
    fn ranked(self) -> (Vec<String>, Vec<u32>) {
        let mut order: Vec<u32> = (0..u32::try_from(self.names.len()).unwrap_or(u32::MAX)).collect();
        order.sort_unstable_by(|a, b| self.names[*a as usize].cmp(&self.names[*b as usize]));
        let mut rank = vec![0; order.len()];
        for (r, old) in order.iter().enumerate() {
            rank[*old as usize] = u32::try_from(r).unwrap_or(u32::MAX);
        }
        let mut names = self.names;
        let sorted = order.iter().map(|old| std::mem::take(&mut names[*old as usize])).collect();
        (sorted, rank)
    }
}

/// Where an id sits in a list: a dense table when ids are compact (the
/// usual case: `SQLite` row ids), else a map.
pub(crate) enum Positions {
    Dense { first: i64, at: Vec<u32> },
    Sparse(HashMap<i64, u32>),
}

impl Default for Positions {
    fn default() -> Positions {
        Positions::Dense { first: 0, at: Vec::new() }
    }
}

/// Marks an id with no run in [`Positions::Dense`].
const NONE: u32 = u32::MAX;

impl Positions {
    pub(crate) fn new(ids: &[i64]) -> Positions {
        let (Some(&first), Some(&last)) = (ids.iter().min(), ids.iter().max()) else {
            return Positions::Dense { first: 0, at: Vec::new() };
        };
        let span = usize::try_from(last - first).unwrap_or(usize::MAX);
        if span / 4 > ids.len() + 1024 {
            return Positions::Sparse(ids.iter().zip(0u32..).map(|(id, i)| (*id, i)).collect());
        }
        let mut at = vec![NONE; span + 1];
        for (id, i) in ids.iter().zip(0u32..) {
            at[usize::try_from(id - first).unwrap_or(0)] = i;
        }
        Positions::Dense { first, at }
    }

    pub(crate) fn get(&self, id: i64) -> Option<u32> {
        match self {
            Positions::Dense { first, at } => {
                let k = usize::try_from(id.checked_sub(*first)?).ok()?;
                at.get(k).copied().filter(|i| *i != NONE)
            }
            Positions::Sparse(map) => map.get(&id).copied(),
        }
    }
}

/// Every run (or the runs of some param sets), oldest first (by time,
/// then file, then line, then id), as columns indexed by the run's
/// position.
#[derive(Default)]
pub(crate) struct Runs {
    pub(crate) ids: Vec<i64>,
    /// Index into the dataset's [`ParamSets`].
    pub(crate) set: Vec<u32>,
    /// Rank into [`Runs::sweeps`]: a later sweep has a larger rank.
    pub(crate) sweep: Vec<u32>,
    /// Rank into [`Runs::times`].
    pub(crate) time: Vec<u32>,
    /// Index into [`Runs::sources`].
    pub(crate) source: Vec<u32>,
    pub(crate) line: Vec<u64>,
    origin: Vec<u32>,
    /// The distinct sweep dates, sorted.
    pub(crate) sweeps: Vec<String>,
    /// The distinct run times (RFC 3339), sorted.
    pub(crate) times: Vec<String>,
    /// Source paths and formats.
    pub(crate) sources: Vec<String>,
    pub(crate) formats: Vec<String>,
    origins: Vec<String>,
    positions: Positions,
}

/// A run as read, before the runs are put in order.
struct Read {
    id: i64,
    set: u32,
    sweep: u32,
    time: u32,
    source: u32,
    line: u64,
    origin: u32,
}

impl Runs {
    /// Reads every run (with `wanted`, the runs of those param set ids)
    /// with its source; `set_at` gives a param set id's index, `orphan` the
    /// index of an empty set for a run whose set is gone.
    pub(crate) fn load(store: &Store, set_at: &Positions, orphan: u32, wanted: Option<&[i64]>) -> Result<Runs> {
        let mut source_at: HashMap<i64, u32> = HashMap::new();
        let (mut sources, mut formats) = (Vec::new(), Vec::new());
        store.for_each_source_name(|id, path, format| {
            source_at.insert(id, u32::try_from(sources.len()).unwrap_or(u32::MAX));
            sources.push(path.to_string());
            formats.push(format.to_string());
        })?;
        let (mut sweeps, mut times, mut origins) = (Interner::default(), Interner::default(), Interner::default());
        let mut read = Vec::new();
        store.for_each_run_row(wanted, |row: ScannedRun<'_>| {
            // A run whose set or source vanished cannot exist (foreign
            // keys); if one did, it keeps an empty param map.
            let set = set_at.get(row.param_set).unwrap_or(orphan);
            let source = source_at.get(&row.source).copied().unwrap_or_else(|| {
                sources.push(String::new());
                formats.push(String::new());
                u32::try_from(sources.len() - 1).unwrap_or(u32::MAX)
            });
            read.push(Read {
                id: row.id,
                set,
                sweep: sweeps.get(row.sweep),
                time: times.get(row.time),
                source,
                line: row.line,
                origin: origins.get(row.time_origin),
            });
        })?;
        let (sweeps, sweep_rank) = sweeps.ranked();
        let (times, time_rank) = times.ranked();
        // Sources by path, for the order: runs of one time in file order.
        let mut by_path: Vec<u32> = (0..u32::try_from(sources.len()).unwrap_or(u32::MAX)).collect();
        by_path.sort_unstable_by(|a, b| sources[*a as usize].cmp(&sources[*b as usize]));
        let mut path_rank = vec![0u32; by_path.len()];
        for (r, s) in by_path.iter().zip(0u32..) {
            path_rank[*r as usize] = s;
        }
        // By time, then by file and line, never by id first: ids record the
        // order files were ingested in, and a database rebuilt from the
        // same logs must order (and pick the `latest` run) the same.
        read.sort_unstable_by_key(|r| (time_rank[r.time as usize], path_rank[r.source as usize], r.line, r.id));
        let ids: Vec<i64> = read.iter().map(|r| r.id).collect();
        Ok(Runs {
            positions: Positions::new(&ids),
            ids,
            set: read.iter().map(|r| r.set).collect(),
            sweep: read.iter().map(|r| sweep_rank[r.sweep as usize]).collect(),
            time: read.iter().map(|r| time_rank[r.time as usize]).collect(),
            source: read.iter().map(|r| r.source).collect(),
            line: read.iter().map(|r| r.line).collect(),
            origin: read.iter().map(|r| r.origin).collect(),
            sweeps,
            times,
            sources,
            formats,
            origins: origins.names,
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }

    /// The position of the run with this id.
    pub(crate) fn position(&self, id: i64) -> Option<usize> {
        self.positions.get(id).map(|i| i as usize)
    }

    pub(crate) fn sweep_name(&self, at: usize) -> &str {
        &self.sweeps[self.sweep[at] as usize]
    }

    pub(crate) fn source_name(&self, at: usize) -> &str {
        &self.sources[self.source[at] as usize]
    }

    pub(crate) fn time_name(&self, at: usize) -> &str {
        &self.times[self.time[at] as usize]
    }

    pub(crate) fn origin_name(&self, at: usize) -> &str {
        &self.origins[self.origin[at] as usize]
    }

    /// The run as a full record (its params, from `sets`, copied).
    pub(crate) fn record(&self, at: usize, sets: &ParamSets) -> RunRecord {
        RunRecord {
            id: self.ids[at],
            source: self.source_name(at).to_string(),
            line: self.line[at],
            time: self.time_name(at).to_string(),
            time_origin: self.origins[self.origin[at] as usize].clone(),
            sweep: self.sweep_name(at).to_string(),
            params: sets.get(self.set[at] as usize).to_map(),
        }
    }
}

/// Every run of a [`Dataset`] as it reads them, looked up by id without a
/// full record each ([`Dataset::runs`] copies every run's params): what
/// the report's provenance list says of the runs a number rests on.
pub struct RunsView<'d> {
    runs: Rc<Runs>,
    sets: &'d ParamSets,
}

/// One run of a [`RunsView`]: where it came from, and its param set,
/// borrowed.
pub struct RunRef<'v> {
    pub source: &'v str,
    pub line: u64,
    pub sweep: &'v str,
    /// Where its time came from: `log`, `path`, `git` or `mtime`.
    pub time_origin: &'v str,
    /// The index of its param set: runs of one set have the same params.
    pub set: usize,
    pub params: ParamSet<'v>,
}

impl RunsView<'_> {
    /// The run with this id, if there is one.
    pub fn run(&self, id: i64) -> Option<RunRef<'_>> {
        let runs = &*self.runs;
        let at = runs.position(id)?;
        let set = runs.set[at] as usize;
        Some(RunRef {
            source: runs.source_name(at),
            line: runs.line[at],
            sweep: runs.sweep_name(at),
            time_origin: runs.origin_name(at),
            set,
            params: self.sets.get(set),
        })
    }
}

impl Dataset<'_> {
    /// Every run, read now if not yet, to look up by id ([`RunsView`]).
    pub fn runs_view(&self) -> Result<RunsView<'_>> {
        Ok(RunsView { runs: self.all_runs()?, sets: &self.sets })
    }

    /// The distinct sweeps of the runs `filter` passes (every run's
    /// without one), judged on the columns: no run is copied into a record.
    pub(crate) fn sweeps_passing(&self, filter: Option<&filter::Filter>) -> Result<Vec<String>> {
        let runs = self.all_runs()?;
        let mut seen = vec![false; runs.sweeps.len()];
        for at in 0..runs.len() {
            let rank = runs.sweep[at] as usize;
            if !seen[rank] && filter.is_none_or(|f| f.matches(&RunAt::new(&runs, &self.sets, at))) {
                seen[rank] = true;
            }
        }
        Ok(runs.sweeps.iter().zip(seen).filter(|(_, s)| *s).map(|(name, _)| name.clone()).collect())
    }

    /// The runs of the sweeps named that `filter` passes, as full records,
    /// by their position among every run: a command comparing two sweeps
    /// copies the params of their runs, not of every run.
    pub(crate) fn records_of(&self, sweeps: &[&str], filter: Option<&filter::Filter>) -> Result<Records> {
        let runs = self.all_runs()?;
        let ranks: Vec<bool> = runs.sweeps.iter().map(|s| sweeps.contains(&s.as_str())).collect();
        let mut out = Records::default();
        for at in 0..runs.len() {
            if !ranks[runs.sweep[at] as usize] {
                continue;
            }
            if filter.is_none_or(|f| f.matches(&RunAt::new(&runs, &self.sets, at))) {
                out.at.push(u32::try_from(at).unwrap_or(u32::MAX));
                out.records.push(runs.record(at, &self.sets));
            }
        }
        Ok(out)
    }
}

/// Some runs as full records, by their position among a dataset's runs
/// ([`Dataset::records_of`]).
#[derive(Default)]
pub(crate) struct Records {
    /// Positions, ascending.
    at: Vec<u32>,
    records: Vec<RunRecord>,
}

impl Records {
    /// The record of the run at position `at`, if held.
    pub(crate) fn get(&self, at: u32) -> Option<&RunRecord> {
        self.at.binary_search(&at).ok().map(|k| &self.records[k])
    }
}

/// The run at a position, seen by a filter as its record is
/// ([`RunRecord`]'s fields: its params, then `date`/`sweep`, `time` and
/// `source`), without copying it into one.
struct RunAt<'r> {
    runs: &'r Runs,
    at: usize,
    params: ParamSet<'r>,
}

impl<'r> RunAt<'r> {
    fn new(runs: &'r Runs, sets: &'r ParamSets, at: usize) -> Self {
        RunAt { runs, at, params: sets.get(runs.set[at] as usize) }
    }
}

impl filter::Fields for RunAt<'_> {
    fn field(&self, name: &str) -> Option<filter::Field<'_>> {
        if let Some(v) = self.params.get(name) {
            return Some(filter::Field::Value(v));
        }
        match name {
            "date" | "sweep" => Some(filter::Field::Text(self.runs.sweep_name(self.at))),
            "time" => Some(filter::Field::Text(self.runs.time_name(self.at))),
            "source" => Some(filter::Field::Text(self.runs.source_name(self.at))),
            _ => None,
        }
    }
}

/// A run record is filtered by its params and by `date`/`sweep`, `time` and
/// `source`, the names the filter language gives a run's provenance.
impl filter::Fields for RunRecord {
    fn field(&self, name: &str) -> Option<filter::Field<'_>> {
        if let Some(v) = self.params.get(name) {
            return Some(filter::Field::Value(v));
        }
        match name {
            "date" | "sweep" => Some(filter::Field::Text(&self.sweep)),
            "time" => Some(filter::Field::Text(&self.time)),
            "source" => Some(filter::Field::Text(&self.source)),
            _ => None,
        }
    }
}
