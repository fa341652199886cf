//! What moved between two sweeps: for every metric and every cell measured
//! in both, the change in the cell's value and whether it is beyond noise,
//! decided by the same statistics as claims ([`crate::claims::stats`]): the
//! newer sweep's runs are compared with the older one's as "A beats B", so a
//! cell "got better" exactly when a claim "the new sweep beats the old one
//! on this metric at this cell" would hold.
//!
//! A cell is the runs sharing the values of the key params. By default each
//! metric is keyed by the params that vary within a sweep among the runs that
//! hold that metric (the experiment's dimensions, e.g. config and
//! `max_concurrency`): a hyperfine log that records only `kernel` beside a
//! CSV sweep over `kernel`, `M` and `tile` must not shrink the CSV's cells to
//! one per kernel. Params that only tell the sweeps apart (a date label, a
//! server version) or that only one sweep records (a per-run tag) are not
//! part of the key, nor are repeat markers (`repeat`, `seed`, … see
//! [`crate::run::is_repeat_marker`]): the runs they tell apart are the
//! repeats a cell compares. A run that lacks a key param (another format
//! logged the same metric with fewer params) is never pooled with runs that
//! have it: it falls in a cell of its own, keyed by the params it has, and the
//! diff says so.

mod compare;
mod pairs;
mod settings;
mod show;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use compare::{compare_cells, Tally};
use pairs::Pairing;
pub(crate) use pairs::SweepPair;
pub(crate) use settings::SettingChange;
pub(crate) use show::Listing;

use crate::claims::stats::Interval;
use crate::metric::{Direction, Margins};
use crate::query::{Dataset, Filter, Key, Records};
use crate::store::RunRecord;
use crate::{Error, Result};

/// What to compare.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// The older sweep (default: the second newest).
    pub from: Option<String>,
    /// The newer sweep (default: the newest).
    pub to: Option<String>,
    /// Only these metrics (default: every metric with a direction).
    pub metrics: Vec<String>,
    /// Only runs matching this filter.
    pub filter: Option<Filter>,
    /// The params that make a cell (default: see the module comment).
    pub by: Vec<String>,
}

/// How a cell moved from the older sweep to the newer one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Movement {
    /// Better beyond noise (for the metric's direction; up for a neutral one).
    Better,
    /// Worse beyond noise (down for a neutral metric).
    Worse,
    /// The same within the metric's margin, shown beyond noise.
    Same,
    /// Neither: the change is within noise, or too few runs to tell.
    WithinNoise,
    /// Single runs on both sides and no repeated runs of the metric
    /// anywhere to lend a spread: no interval, so nothing to call noise.
    NoSpread,
}

impl Movement {
    pub(crate) fn beyond_noise(self) -> bool {
        matches!(self, Movement::Better | Movement::Worse)
    }

    fn words(self, direction: Direction) -> &'static str {
        match (self, direction) {
            (Movement::Better, Direction::Neutral) => "up beyond noise",
            (Movement::Worse, Direction::Neutral) => "down beyond noise",
            (Movement::Better, _) => "better beyond noise",
            (Movement::Worse, _) => "worse beyond noise",
            (Movement::Same, _) => "same within margin",
            (Movement::WithinNoise, _) => "within noise",
            (Movement::NoSpread, _) => "no spread to judge (single runs)",
        }
    }
}

/// One side of a cell's comparison.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SweepSide {
    /// The median of the cell's runs in that sweep.
    pub value: f64,
    pub runs: usize,
}

/// One cell present in both sweeps.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CellMove {
    pub metric: String,
    pub unit: Option<String>,
    pub direction: Direction,
    /// The key params and their values.
    pub cell: Vec<(String, String)>,
    pub from: SweepSide,
    pub to: SweepSide,
    /// How the sweeps were compared: by ratio, or by difference where a
    /// side logged a 0 that is a measurement (no errors).
    pub compared_by: ComparedBy,
    /// to/from − 1 of the medians; compared by difference, to − from.
    pub change: f64,
    /// 95% interval of the ratio to/from (geometric means of the runs),
    /// when compared by ratio.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratio_ci95: Option<Interval>,
    /// 95% interval of the difference to − from (means of the runs, Welch),
    /// when compared by difference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difference_ci95: Option<Interval>,
    /// The practical margin δ (a fraction).
    pub margin: f64,
    pub movement: Movement,
    /// A side has a single run: its noise is the metric's spread in
    /// repeated runs elsewhere, as for claims.
    pub single_run: bool,
    /// ln(to/from), signed so that positive is better (compared by
    /// difference: to − from so signed).
    pub effect: f64,
    /// Run settings outside the cell key its two sides differ in (another
    /// host, another compiler): the change may be theirs.
    pub settings: Vec<SettingChange>,
}

/// How a cell's two sweeps are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ComparedBy {
    /// The ratio of geometric means, against the metric's margin.
    Ratio,
    /// The difference of means, against 0 (no margin: a relative margin
    /// has no meaning beside a 0): a metric whose 0 is a measurement (an
    /// error rate, see [`crate::metric::zero_signals_failure`]) in a cell
    /// where a run logged 0.
    Difference,
}

impl CellMove {
    pub(crate) fn cell_label(&self) -> String {
        self.cell.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
    }

    pub(crate) fn verdict(&self) -> &'static str {
        self.movement.words(self.direction)
    }
}

/// A cell of one metric, by its key params' values.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CellKey {
    pub metric: String,
    pub cell: Vec<(String, String)>,
}

impl CellKey {
    /// `time at flags=O2 program=lua`, or the metric alone.
    pub(crate) fn label(&self) -> String {
        let at: Vec<String> = self.cell.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if at.is_empty() {
            self.metric.clone()
        } else {
            format!("{} at {}", self.metric, at.join(" "))
        }
    }
}

/// A claim whose verdict differs as of the two sweeps.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ClaimMove {
    pub path: String,
    pub line: usize,
    pub id: String,
    pub from: crate::claims::Verdict,
    pub to: crate::claims::Verdict,
    /// The evidence as of the newer sweep.
    pub summary: String,
}

/// Everything `reckon diff` says.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SweepDiff {
    pub from: String,
    pub to: String,
    /// The params that make a cell, over every metric compared.
    pub by: Vec<String>,
    /// Each compared metric's key params (they differ when formats that
    /// record different params are compared).
    pub by_metric: BTreeMap<String, Vec<String>>,
    /// Runs that lack some of their metric's key params, and so form cells of
    /// their own.
    pub unkeyed: Vec<Unkeyed>,
    /// Runs per cell in each sweep: (fewest, most).
    pub from_runs: (usize, usize),
    pub to_runs: (usize, usize),
    /// Every cell in both sweeps, moved beyond noise first, then by size.
    pub cells: Vec<CellMove>,
    /// Cells measured in only one of the sweeps: how many, and which.
    pub only_from: usize,
    pub only_to: usize,
    pub only_from_cells: Vec<CellKey>,
    pub only_to_cells: Vec<CellKey>,
    /// Metrics without a direction, left out unless named.
    pub neutral_skipped: Vec<String>,
    /// Metrics with one value per cell and no repeats, held by the runs of
    /// a metric with repeats (summaries of those repeats), left out unless
    /// named.
    pub summaries_skipped: Vec<String>,
    /// Metrics with one value per cell and no repeats that summarise
    /// nothing (one measurement per cell), left out beside metrics with
    /// repeats unless named: they cannot be judged beyond noise.
    pub unrepeated_skipped: Vec<String>,
    /// Runs left out of a cell's comparison, said (a failed run's 0 has
    /// no ratio).
    pub left_out: Vec<String>,
    /// Cells in both sweeps that could not be compared, and why.
    pub not_compared: Vec<String>,
    /// When nothing was compared: for each side, the newest older sweep
    /// sharing cells with it.
    pub suggested: Vec<SweepPair>,
    pub claims: Vec<ClaimMove>,
}

/// The runs of one metric that lack some key params.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Unkeyed {
    pub metric: String,
    /// The key params some of those runs lack.
    pub params: Vec<String>,
    pub runs: usize,
}

/// The sweeps in the data (matching `filter`), oldest first.
pub(crate) fn sweeps(dataset: &Dataset, filter: Option<&Filter>) -> Vec<String> {
    // A store that cannot be read now was read a moment ago: no runs.
    dataset.sweeps_passing(filter).unwrap_or_default()
}

/// The two sweeps to compare: as given, else the two newest.
pub(crate) fn pick_sweeps(dataset: &Dataset, opts: &Options) -> Result<(String, String)> {
    let all = sweeps(dataset, opts.filter.as_ref());
    let known = |s: &str, what: &str| -> Result<()> {
        if all.iter().any(|x| x == s) {
            Ok(())
        } else {
            Err(Error::usage(format!(
                "no runs in sweep `{s}` (the {what} sweep); sweeps in the data: {}",
                if all.is_empty() { "none (ingest logs first)".to_string() } else { all.join(", ") }
            )))
        }
    };
    let to = match &opts.to {
        Some(t) => {
            known(t, "newer")?;
            t.clone()
        }
        None => all.last().cloned().ok_or_else(|| Error::usage("no sweeps in the data; ingest logs first"))?,
    };
    let from = match &opts.from {
        Some(f) => {
            known(f, "older")?;
            f.clone()
        }
        None => all.iter().rev().find(|s| **s < to).cloned().ok_or_else(|| {
            Error::usage(format!("no sweep before {to}; a diff needs two (sweeps in the data: {})", all.join(", ")))
        })?,
    };
    if from == to {
        return Err(Error::usage(format!("the older and the newer sweep are the same ({to})")));
    }
    Ok((from, to))
}

/// A metric's runs in the two sweeps (matching the filter, with a finite
/// value): the run, whether it is of the newer sweep, the value.
type MetricRuns<'a> = Vec<(&'a RunRecord, bool, f64)>;

/// `records` holds the runs of the two sweeps the filter passes
/// ([`two_sweeps`]).
fn metric_runs<'a>(dataset: &Dataset, records: &'a Records, metric: &str, to: &str) -> Result<MetricRuns<'a>> {
    // Positions among every run, as `records` holds them.
    dataset.all_runs()?;
    Ok(dataset
        .cached_values(metric)?
        .iter()
        .filter_map(|(at, value)| {
            records.get(at).filter(|_| value.is_finite()).map(|run| (run, run.sweep == to, value))
        })
        .collect())
}

/// The runs of the sweeps `from` and `to` that `filter` passes, as records:
/// only theirs are copied, not every run's.
fn two_sweeps(dataset: &Dataset, (from, to): (&str, &str), filter: Option<&Filter>) -> Result<Records> {
    dataset.records_of(&[from, to], filter)
}

/// The default key params of one metric: recorded in both sweeps, varying
/// within one of them among the runs that hold the metric (the rule of
/// cells `export --newest` keys by too). A param some runs lack varies
/// (present and absent differ), so a format that does not record it never
/// pools its runs with those of a format that does.
fn default_by(runs: &MetricRuns<'_>) -> Vec<String> {
    crate::query::key_params(runs.iter().map(|(run, _, _)| *run))
}

/// A metric a diff compares: name, unit, direction.
type MetricSpec = (String, Option<String>, Direction);

/// One cell's values: the older sweep's runs, the newer sweep's.
type Sides = (Vec<f64>, Vec<f64>);

/// The metrics a diff compares (name, unit, direction), sorted, and the
/// neutral ones left out when none were named.
fn metrics_to_compare(dataset: &Dataset, opts: &Options) -> Result<(Vec<MetricSpec>, Vec<String>)> {
    let mut metrics: Vec<MetricSpec> = Vec::new();
    let mut neutral_skipped = Vec::new();
    if opts.metrics.is_empty() {
        for m in dataset.metrics() {
            if m.direction == Direction::Neutral {
                neutral_skipped.push(m.name.clone());
            } else {
                metrics.push((m.name.clone(), m.unit.clone(), m.direction));
            }
        }
    } else {
        for name in &opts.metrics {
            let m = dataset.metric_info(name)?;
            metrics.push((m.name.clone(), m.unit.clone(), m.direction));
        }
    }
    metrics.sort_by(|a, b| a.0.cmp(&b.0));
    neutral_skipped.sort();

    Ok((metrics, neutral_skipped))
}

/// Each cell's runs of one metric: cell key (a param a run lacks is
/// `None`) → (older sweep's values, newer sweep's values).
fn sides_by_cell(runs: &MetricRuns<'_>, by: &[String]) -> BTreeMap<Vec<Option<Key>>, Sides> {
    let mut groups: BTreeMap<Vec<Option<Key>>, Sides> = BTreeMap::new();
    for (run, newer, value) in runs {
        let key = by.iter().map(|p| run.params.get(p).map(Key::key)).collect();
        let sides = groups.entry(key).or_default();
        if *newer { &mut sides.1 } else { &mut sides.0 }.push(*value);
    }
    groups
}

/// The runs of `metric` lacking some of the key params `by`, if any.
fn unkeyed(metric: &str, by: &[String], groups: &BTreeMap<Vec<Option<Key>>, Sides>) -> Option<Unkeyed> {
    let mut params = BTreeSet::new();
    let mut runs = 0;
    for (key, (old, new)) in groups {
        if key.iter().any(Option::is_none) {
            runs += old.len() + new.len();
            params.extend(by.iter().zip(key).filter(|(_, k)| k.is_none()).map(|(p, _)| p.clone()));
        }
    }
    (runs > 0).then(|| Unkeyed { metric: metric.to_string(), params: params.into_iter().collect(), runs })
}

/// One metric's part of a diff: its name, its cells, the runs that hold it
/// in the two sweeps, its key params.
struct MetricPart {
    name: String,
    tally: Tally,
    runs: BTreeSet<i64>,
    unkeyed: Option<Unkeyed>,
    by: Vec<String>,
}

impl MetricPart {
    /// One value per cell on both sides and no repeats anywhere: every
    /// cell it has is of single runs with no spread to judge by.
    fn bare(&self) -> bool {
        !self.tally.cells.is_empty() && self.tally.cells.iter().all(|c| c.movement == Movement::NoSpread)
    }
}

/// Compares the two sweeps cell by cell.
pub(crate) fn compute(dataset: &Dataset, margins: &Margins, opts: &Options) -> Result<SweepDiff> {
    // Names as the data use them: reckon.toml's aliases resolved.
    let opts =
        &Options { filter: opts.filter.as_ref().map(|f| dataset.resolve_filter(f)).transpose()?, ..opts.clone() };
    let (from, to) = pick_sweeps(dataset, opts)?;
    let filter = opts.filter.as_ref();
    let chosen = opts.by.iter().map(|p| dataset.param_name(p, "--by")).collect::<Result<Vec<_>>>()?;
    let (metrics, neutral_skipped) = metrics_to_compare(dataset, opts)?;
    let (mut by_metric, mut unkeyed_runs) = (BTreeMap::new(), Vec::new());
    let mut parts = Vec::new();
    let records = two_sweeps(dataset, (&from, &to), filter)?;
    for spec in &metrics {
        let runs = metric_runs(dataset, &records, &spec.0, &to)?;
        let by = if chosen.is_empty() { default_by(&runs) } else { chosen.clone() };
        let groups = sides_by_cell(&runs, &by);
        let differ = settings::changes(&runs, &by);
        let mut tally = Tally::default();
        compare_cells(spec, margins.of(&spec.0, spec.2), &by, &groups, &differ, (&from, &to), &mut tally);
        let unkeyed = unkeyed(&spec.0, &by, &groups);
        let ids = runs.iter().map(|(run, _, _)| run.id).collect();
        parts.push(MetricPart { name: spec.0.clone(), tally, runs: ids, unkeyed, by });
        // Each metric is read once here: its values need not stay.
        dataset.forget_values(&spec.0);
    }
    // Metrics with one value per cell and no repeats anywhere have no
    // spread to judge by; beside a metric that has, they are left out
    // unless named, and said. They are summaries of its repeats only when
    // the very runs holding them hold a metric with repeats (hyperfine's
    // `mean`, `stddev`, … on a run of the command whose `time` is
    // repeated; Google Benchmark's `real_time_mean` on the first
    // repetition); a CSV's one row per build (`build_s`) summarises
    // nothing: it is one measurement, which cannot be judged beyond noise.
    let repeated: BTreeSet<i64> =
        parts.iter().filter(|p| !p.tally.cells.is_empty() && !p.bare()).flat_map(|p| p.runs.iter().copied()).collect();
    let skip_bare = !repeated.is_empty() && opts.metrics.is_empty();
    let (mut summaries_skipped, mut unrepeated_skipped) = (Vec::new(), Vec::new());
    let mut tally = Tally::default();
    for part in parts {
        if skip_bare && part.bare() {
            let summary = part.runs.iter().any(|id| repeated.contains(id));
            if summary { &mut summaries_skipped } else { &mut unrepeated_skipped }.push(part.name);
            continue;
        }
        tally.absorb(part.tally);
        unkeyed_runs.extend(part.unkeyed);
        by_metric.insert(part.name, part.by);
    }
    let mut cells = tally.cells;
    cells.sort_by(|a, b| {
        b.movement.beyond_noise().cmp(&a.movement.beyond_noise()).then(b.effect.abs().total_cmp(&a.effect.abs()))
    });
    let by = if chosen.is_empty() {
        by_metric.values().flatten().cloned().collect::<BTreeSet<_>>().into_iter().collect()
    } else {
        chosen.clone()
    };
    // Nothing compared: which sweeps do share cells with either side.
    let suggested = if cells.is_empty() {
        let compared: Vec<MetricSpec> = metrics.into_iter().filter(|m| by_metric.contains_key(&m.0)).collect();
        pairs::partners(dataset, &Pairing { metrics: &compared, chosen: &chosen, filter }, (&from, &to))?
    } else {
        Vec::new()
    };
    Ok(SweepDiff {
        from,
        to,
        by,
        by_metric,
        unkeyed: unkeyed_runs,
        from_runs: tally.from_runs.unwrap_or((0, 0)),
        to_runs: tally.to_runs.unwrap_or((0, 0)),
        cells,
        only_from: tally.only_from.len(),
        only_to: tally.only_to.len(),
        only_from_cells: tally.only_from,
        only_to_cells: tally.only_to,
        neutral_skipped,
        summaries_skipped,
        unrepeated_skipped,
        left_out: tally.left_out,
        not_compared: tally.not_compared,
        suggested,
        claims: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hyperfine's summaries are one number per command per sweep: a
    /// `stddev` 22% higher on one run each is not "worse beyond noise"
    /// (cold trial: every summary of a tokenizer study moved "beyond
    /// noise" on a zero-width interval). A metric with repeats elsewhere
    /// lends its spread to single runs, as before.
    #[test]
    fn single_runs_without_a_spread_to_borrow_are_too_few_to_tell() {
        let spec: MetricSpec = ("stddev".into(), Some("s".into()), Direction::Lower);
        let cell = |v: &[f64], w: &[f64]| (v.to_vec(), w.to_vec());
        let groups: BTreeMap<Vec<Option<Key>>, Sides> = [
            (vec![Some(Key::Text("hf-fast".into()))], cell(&[0.030], &[0.0365])),
            (vec![Some(Key::Text("tiktoken".into()))], cell(&[0.028], &[0.028])),
        ]
        .into();
        let mut tally = Tally::default();
        compare_cells(&spec, 0.05, &["tokenizer".into()], &groups, &BTreeMap::new(), ("a", "b"), &mut tally);
        let moves: Vec<Movement> = tally.cells.iter().map(|c| c.movement).collect();
        assert_eq!(moves, [Movement::NoSpread, Movement::NoSpread]);
        // With repeated runs in another cell, that spread decides.
        let groups: BTreeMap<Vec<Option<Key>>, Sides> = [
            (vec![Some(Key::Text("hf-fast".into()))], cell(&[1.90], &[1.60])),
            (vec![Some(Key::Text("tiktoken".into()))], cell(&[1.20, 1.21, 1.19], &[1.20, 1.22, 1.19])),
        ]
        .into();
        let mut tally = Tally::default();
        let spec: MetricSpec = ("time".into(), Some("s".into()), Direction::Lower);
        compare_cells(&spec, 0.05, &["tokenizer".into()], &groups, &BTreeMap::new(), ("a", "b"), &mut tally);
        assert_eq!(tally.cells[0].movement, Movement::Better);
    }

    /// A cell's key is the param's value, not its printed text: learning
    /// rates 1e-13 and 3e-13 both print as `0`, and were one cell (a value
    /// read back from `format_number`), unlike the pivots' cells.
    #[test]
    fn cells_are_keyed_by_the_values_not_by_their_printed_text() {
        use crate::run::Value;
        use crate::store::builder::StoreBuilder;
        let runs = |a: f64, b: f64| [(vec![("lr", Value::Num(1e-13))], a), (vec![("lr", Value::Num(3e-13))], b)];
        let store = StoreBuilder::new()
            .source("old.jsonl", "2026-11-20T09:00:00Z", &runs(100.0, 200.0))
            .source("new.jsonl", "2026-11-29T09:00:00Z", &runs(101.0, 150.0))
            .build();
        let dataset = Dataset::load(&store).unwrap();
        let diff = compute(&dataset, &Margins::default(), &Options::default()).unwrap();
        assert_eq!(diff.by, ["lr"]);
        let mut cells: Vec<(&str, f64, f64)> =
            diff.cells.iter().map(|c| (c.cell[0].1.as_str(), c.from.value, c.to.value)).collect();
        cells.sort_by(|a, b| a.1.total_cmp(&b.1));
        assert_eq!(cells, [("0", 100.0, 101.0), ("0", 200.0, 150.0)]);
    }

    #[test]
    fn movement_words_follow_direction() {
        assert_eq!(Movement::Better.words(Direction::Lower), "better beyond noise");
        assert_eq!(Movement::Worse.words(Direction::Neutral), "down beyond noise");
        assert!(!Movement::WithinNoise.beyond_noise());
    }
}
