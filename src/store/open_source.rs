//! The source a writer is writing: its row, its savepoint, what its runs
//! take from it (the default sweep, a named sweep), and what must be undone
//! or reported when it ends.

use super::transaction::Savepoint;
use super::units::{Converted, UnitConversion};
use super::RunTime;

/// The source being written, from `begin_source` to `end_source` or
/// `abandon_source`.
pub(super) struct OpenSource {
    id: i64,
    runs: u64,
    /// The id of its first run: pending rows of runs from this id on are
    /// its own (earlier sources' runs have lower ids).
    first_run: Option<i64>,
    /// Values it gave in another unit than they are stored or read in.
    converted: Vec<UnitConversion>,
    /// The batch row was created inside this source's savepoint.
    made_batch: bool,
    /// The sweep of runs that take the default time, when it is not that
    /// time's date (a `{date}` of year and month names the month).
    default_sweep: Option<String>,
    /// The sweep a `sweep` label names: every run of the source is in it,
    /// whatever its own time.
    named_sweep: Option<String>,
    savepoint: Savepoint,
}

/// What an abandoned source leaves the writer to undo.
pub(super) struct Abandoned {
    pub(super) savepoint: Savepoint,
    /// Its first run: pending rows from it on are its own.
    pub(super) first_run: Option<i64>,
    pub(super) made_batch: bool,
}

impl OpenSource {
    /// The source whose row is `id`, written under `savepoint`.
    pub(super) fn new(id: i64, made_batch: bool, savepoint: Savepoint) -> OpenSource {
        OpenSource {
            id,
            runs: 0,
            first_run: None,
            converted: Vec::new(),
            made_batch,
            default_sweep: None,
            named_sweep: None,
            savepoint,
        }
    }

    pub(super) fn id(&self) -> i64 {
        self.id
    }

    /// The sweeps that differ from the run time's date: `default` for runs
    /// without their own time, `named` (a `sweep` label) for every run.
    pub(super) fn set_sweeps(&mut self, default: Option<String>, named: Option<String>) {
        self.default_sweep = default;
        self.named_sweep = named;
    }

    /// A run's time, where it came from, and its sweep: its own time (`own`,
    /// the log's) or the source's `default`. A sweep is the UTC date of the
    /// run time unless a label or a month-only `{date}` names it.
    pub(super) fn run_time<'a>(&'a self, own: Option<&'a str>, default: &'a RunTime) -> (&'a str, &'a str, &'a str) {
        let (time, origin, sweep) = match own {
            Some(t) => (t, "log", None),
            None => (default.time.as_str(), default.origin, self.default_sweep.as_deref()),
        };
        let sweep = self.named_sweep.as_deref().or(sweep).unwrap_or_else(|| time.get(..10).unwrap_or(time));
        (time, origin, sweep)
    }

    /// Counts a run written, whose id is `run`.
    pub(super) fn count_run(&mut self, run: i64) {
        self.first_run.get_or_insert(run);
        self.runs += 1;
    }

    /// How many runs it has so far.
    pub(super) fn runs(&self) -> u64 {
        self.runs
    }

    /// Its first run's id (`fallback` when it has none yet).
    pub(super) fn first_run_or(&self, fallback: i64) -> i64 {
        self.first_run.unwrap_or(fallback)
    }

    /// The index of its count of values of `metric` converted from `from`
    /// to `to` as `how` says (made at zero if new).
    pub(super) fn conversion_note(&mut self, metric: &str, from: &str, to: &str, how: Converted) -> usize {
        let notes = &mut self.converted;
        if let Some(i) = notes.iter().position(|n| n.metric == metric && n.from == from && n.how == how) {
            return i;
        }
        let (metric, from, to) = (metric.to_owned(), from.to_owned(), to.to_owned());
        notes.push(UnitConversion { metric, from, to, values: 0, how });
        notes.len() - 1
    }

    /// Counts a value converted under the note at `note`.
    pub(super) fn count_converted(&mut self, note: usize) {
        if let Some(n) = self.converted.get_mut(note) {
            n.values += 1;
        }
    }

    /// Kept: its savepoint to release, its runs, what it converted.
    pub(super) fn end(self) -> (Savepoint, u64, Vec<UnitConversion>) {
        (self.savepoint, self.runs, self.converted)
    }

    /// Failed: what the writer must undo.
    pub(super) fn abandon(self) -> Abandoned {
        Abandoned { savepoint: self.savepoint, first_run: self.first_run, made_batch: self.made_batch }
    }
}
