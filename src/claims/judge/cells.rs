//! The runs a clause's statistics read from a pivot cell: the runs that
//! logged a measurement (a failed run's 0 is left out and said), from the
//! sweep the project's superseding rule picks, and the per-run noise of the
//! metric pooled over repeated runs.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{Judge, Supersede};
use crate::claims::{stats, Drawn, RunIds};
use crate::metric::format_number;
use crate::query::Pivot;

/// How a clause's statistics read a cell's values: as logs (levels, ratios,
/// comparisons) or raw (differences).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scale {
    Log,
    Raw,
}

/// The cells of one pivot read so far ([`Judge::runs_of`]), by row, series
/// and whether they were read as logs.
pub(super) type Kept = HashMap<(usize, String, bool), Option<CellRuns>>;

/// The runs of one cell the statistics use: their values, and each run's
/// sweep (rank and date).
#[derive(Debug, Clone)]
pub(super) struct CellRuns {
    pub(super) values: Vec<f64>,
    /// The run of each value.
    ids: Vec<i64>,
    sweeps: Vec<(u32, String)>,
}

impl CellRuns {
    /// The sweep dates of the runs, distinct, oldest first.
    pub(super) fn sweeps(&self) -> Vec<String> {
        let set: BTreeSet<&(u32, String)> = self.sweeps.iter().collect();
        set.into_iter().map(|s| s.1.clone()).collect()
    }

    /// Where the cell's value was read: its sweeps and its runs.
    pub(super) fn drawn(&self) -> Drawn {
        Drawn { sweeps: self.sweeps(), runs: RunIds::new(self.ids.iter().copied()) }
    }

    /// The runs of one sweep.
    fn of_sweep(&self, rank: u32) -> CellRuns {
        let keep = |i: &usize| self.sweeps[*i].0 == rank;
        CellRuns {
            values: (0..self.values.len()).filter(keep).map(|i| self.values[i]).collect(),
            ids: (0..self.values.len()).filter(keep).map(|i| self.ids[i]).collect(),
            sweeps: (0..self.values.len()).filter(keep).map(|i| self.sweeps[i].clone()).collect(),
        }
    }

    /// The runs of the cell's newest sweep.
    pub(super) fn newest(&self) -> CellRuns {
        self.of_sweep(self.sweeps.iter().map(|s| s.0).max().unwrap_or(0))
    }

    fn ranks(&self) -> BTreeSet<u32> {
        self.sweeps.iter().map(|s| s.0).collect()
    }
}

impl Judge<'_, '_> {
    /// The runs of `series` at a pivot row the statistics can use on
    /// `scale`, of every sweep the pivot holds; a run that logged no
    /// measurement there (a failed run's 0, see [`stats::measurable`]) is
    /// left out and said in the evidence. `None` when no run is left.
    /// Read one cell with [`Judge::one`], two compared cells with
    /// [`Judge::pair`].
    ///
    /// While [`Judge::cells`] keeps them (one pivot's, for `highlight=best`),
    /// a cell read before is answered from there: what reading it said in the
    /// evidence (sets of notes) was said the first time.
    fn runs_of(&self, pivot: &Pivot, row: usize, series: &str, scale: Scale) -> Option<CellRuns> {
        let key = (row, series.to_string(), scale == Scale::Log);
        if let Some(kept) = self.cells.borrow().as_ref().and_then(|k| k.get(&key)) {
            return kept.clone();
        }
        let cell = self.read_cell(pivot, row, series, scale);
        if let Some(kept) = self.cells.borrow_mut().as_mut() {
            kept.insert(key, cell.clone());
        }
        cell
    }

    fn read_cell(&self, pivot: &Pivot, row: usize, series: &str, scale: Scale) -> Option<CellRuns> {
        let col = pivot.cols.iter().position(|c| c.first().is_some_and(|k| k.to_string() == series))?;
        let cell = pivot.cells.get(row)?.get(col)?.as_ref()?;
        let log = scale == Scale::Log;
        let sweeps = self.dataset.sweeps_of(&cell.runs);
        let invalid = self.invalid(pivot, row, series, &cell.runs);
        let valid = |i: &usize| !invalid.get(*i).copied().unwrap_or(false);
        let keep: Vec<usize> =
            (0..cell.values.len()).filter(valid).filter(|i| stats::measurable(cell.values[*i], log)).collect();
        let dropped: Vec<f64> = (0..cell.values.len())
            .filter(valid)
            .map(|i| cell.values[i])
            .filter(|v| !stats::measurable(*v, log))
            .collect();
        if let Some(first) = dropped.first() {
            let label = Self::label(pivot, pivot.rows.get(row).and_then(|k| k.first()));
            let at = if label.is_empty() { String::new() } else { format!(" at {label}") };
            let logged: BTreeSet<String> = dropped.iter().map(|v| format_number(*v)).collect();
            let metric = &pivot.metric;
            let failure = crate::metric::zero_signals_failure(&metric.name, metric.direction, metric.unit.as_deref());
            let why = if log && *first == 0.0 && failure {
                "not a measurement a ratio can use (a run whose requests all failed logs 0)"
            } else if log && first.is_finite() && failure {
                "not a measurement a ratio can use (below 0, which this metric cannot be)"
            } else if log && first.is_finite() {
                "a measurement, but no ratio can be taken of it (ratios and comparisons read the logs of values)"
            } else {
                "not a finite number"
            };
            self.left_out.borrow_mut().insert(format!(
                "{} of {} runs of {}{at} logged {} {}, left out: {why}",
                dropped.len(),
                cell.values.len(),
                self.shown(series),
                pivot.metric.name,
                logged.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
        if keep.is_empty() && !cell.values.is_empty() {
            // Runs the clause cannot judge: a `for all` over this point
            // cannot hold without it (see `Judge::settle`).
            let label = Self::label(pivot, pivot.rows.get(row).and_then(|k| k.first()));
            let at = if label.is_empty() { String::new() } else { format!(" at {label}") };
            self.unjudged.borrow_mut().insert(Self::unusable(&self.shown(series), &at));
        }
        (!keep.is_empty()).then(|| CellRuns {
            values: keep.iter().map(|i| cell.values[*i]).collect(),
            ids: keep.iter().map(|i| cell.runs[*i]).collect(),
            sweeps: keep.iter().map(|i| sweeps.get(*i).cloned().unwrap_or_default()).collect(),
        })
    }

    /// Which of a cell's runs their tool judged invalid (loadgen's
    /// `result=INVALID`): left out and said, as no measurement of the
    /// configuration, unless the clause's `where` names the validity param
    /// (`where result = INVALID` judges them).
    fn invalid(&self, pivot: &Pivot, row: usize, series: &str, runs: &[i64]) -> Vec<bool> {
        let param = crate::run::VALIDITY_PARAM;
        // Without the param in the data nothing is invalid, whatever the
        // filter names (asked first: the filter is parsed again otherwise).
        if !self.dataset.has_param(param) {
            return Vec::new();
        }
        if crate::query::Filter::parse(&pivot.filter).is_ok_and(|f| f.params().contains(&param)) {
            return Vec::new();
        }
        let invalid = self.dataset.invalid_runs(runs);
        let n = invalid.iter().filter(|b| **b).count();
        if n > 0 {
            let label = Self::label(pivot, pivot.rows.get(row).and_then(|k| k.first()));
            let at = if label.is_empty() { String::new() } else { format!(" at {label}") };
            self.left_out.borrow_mut().insert(format!(
                "{n} of {} runs of {}{at} are `{param}=INVALID` by their tool's own judgement (the test did not \
                 meet its constraints), left out: an invalid result is no measurement of the configuration \
                 (`where {param} = INVALID` judges them)",
                runs.len(),
                self.shown(series),
            ));
        }
        invalid
    }

    /// Whether a level of the pivot's metric is read on the raw scale: a
    /// metric whose 0 is a real measurement (no errors, see
    /// [`crate::metric::zero_signals_failure`]) has a level of 0, which the
    /// logs cannot hold.
    pub(super) fn level_scale(pivot: &Pivot) -> Scale {
        let metric = &pivot.metric;
        if crate::metric::zero_signals_failure(&metric.name, metric.direction, metric.unit.as_deref()) {
            Scale::Log
        } else {
            Scale::Raw
        }
    }

    /// Whether `series` has a run at a pivot row (whether or not the
    /// statistics can use it): a cell of the data, as a table shows it.
    pub(super) fn ran(pivot: &Pivot, row: usize, series: &str) -> bool {
        let col = pivot.cols.iter().position(|c| c.first().is_some_and(|k| k.to_string() == series));
        col.and_then(|c| pivot.cells.get(row)?.get(c)?.as_ref()).is_some_and(|cell| !cell.values.is_empty())
    }

    /// What a cell without runs the statistics use lacks: no runs at all,
    /// or runs that were all left out (and said so in the evidence).
    pub(super) fn lacking(&self, pivot: &Pivot, row: usize, series: &[&str], at: &str) -> String {
        let shown: Vec<String> = series.iter().map(|s| self.shown(s)).collect();
        if series.iter().any(|s| Self::ran(pivot, row, s)) {
            Self::unusable(&shown.join(" or "), at)
        } else {
            format!("no runs of {}{at}", shown.join(" or "))
        }
    }

    /// What is said of a cell whose runs were all left out.
    fn unusable(shown: &str, at: &str) -> String {
        format!("no run of {shown}{at} the statistics can use")
    }

    /// One cell read on its own: the runs of its newest sweep.
    pub(super) fn one(&self, pivot: &Pivot, row: usize, series: &str, scale: Scale) -> Option<CellRuns> {
        self.runs_of(pivot, row, series, scale).map(|c| self.reading(c.newest()))
    }

    /// Records the runs of a cell as read by the clause (its evidence's
    /// provenance names their logs): those of the sweep compared, never the
    /// cell's other sweeps.
    fn reading(&self, cell: CellRuns) -> CellRuns {
        self.read.borrow_mut().extend(cell.ids.iter().copied());
        cell
    }

    /// Two cells compared with each other (`a` at row `ra`, `b` at `rb`).
    /// Each reads its newest sweep ([`Supersede::Cell`]); under
    /// [`Supersede::Comparison`] both read the newest sweep that holds
    /// both, and each its newest only when no sweep holds both.
    pub(super) fn pair(
        &self,
        pivot: &Pivot,
        (ra, a): (usize, &str),
        (rb, b): (usize, &str),
        scale: Scale,
    ) -> (Option<CellRuns>, Option<CellRuns>) {
        let (ca, cb) = (self.runs_of(pivot, ra, a, scale), self.runs_of(pivot, rb, b, scale));
        if let (Supersede::Comparison, Some(x), Some(y)) = (self.settings.supersede, &ca, &cb) {
            if let Some(&rank) = x.ranks().intersection(&y.ranks()).max() {
                let (x, y) = (x.of_sweep(rank), y.of_sweep(rank));
                // A newer sweep of one side alone is left out, and said.
                for (side, newer, other) in [(a, ca.as_ref(), b), (b, cb.as_ref(), a)] {
                    let Some(newest) = newer.map(CellRuns::newest).filter(|n| n.sweeps() != x.sweeps()) else {
                        continue;
                    };
                    let label =
                        Self::label(pivot, pivot.rows.get(if side == a { ra } else { rb }).and_then(|k| k.first()));
                    let at = if label.is_empty() { String::new() } else { format!(" at {label}") };
                    self.left_out.borrow_mut().insert(format!(
                        "the runs of {}{at} of sweep {} are left out: {} was not re-run then \
                         (`[claims] supersede = \"comparison\"`)",
                        self.shown(side),
                        newest.sweeps().join(", "),
                        self.shown(other)
                    ));
                }
                return (Some(self.reading(x)), Some(self.reading(y)));
            }
        }
        (ca.map(|c| self.reading(c.newest())), cb.map(|c| self.reading(c.newest())))
    }

    /// The per-run log sd of the metric seen in the pivot's repeated runs
    /// (pooled over the runs of every cell and sweep with two or more),
    /// if any: [`stats::pooled_log_sd`] over each cell's runs by sweep.
    pub(super) fn pooled_log_sd(&self, pivot: &Pivot) -> Option<f64> {
        let mut groups = Vec::new();
        // The series (columns) and cells whose repeats the spread is
        // pooled over, for the evidence.
        let (mut from, mut cells) = (BTreeSet::new(), 0usize);
        for (_, col, cell) in pivot.iter() {
            let mut by_sweep: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
            for (v, (rank, _)) in cell.values.iter().zip(self.dataset.sweeps_of(&cell.runs)) {
                by_sweep.entry(rank).or_default().push(*v);
            }
            if by_sweep.values().any(|g| g.len() >= 2) {
                cells += 1;
                from.insert(col.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "));
            }
            groups.extend(by_sweep.into_values());
        }
        let sd = stats::pooled_log_sd(groups)?;
        let named: Vec<String> = from.iter().take(3).map(|s| format!("`{s}`")).collect();
        let more = if from.len() > 3 { format!(" and {} more", from.len() - 3) } else { String::new() };
        let cells = if cells == 1 { "1 cell".to_string() } else { format!("{cells} cells") };
        *self.pooled_from.borrow_mut() = Some(format!("{cells} of {}{more}", named.join(", ")));
        Some(sd)
    }

    /// A single run's interval that is not the point itself borrowed its
    /// spread: from the standard error it logged (said where it is read),
    /// else from other cells' repeats, said here.
    pub(super) fn say_pooled(&self, single_runs: bool, metric: &str) {
        let Some(from) = self.pooled_from.borrow_mut().take() else { return };
        let logged = self.left_out.borrow().iter().any(|n| n.starts_with("a single run's spread is"));
        if single_runs && !logged {
            self.left_out.borrow_mut().insert(format!(
                "a single run's spread is the per-run spread of {metric} pooled over the repeated runs of {from}, not \
                 its own"
            ));
        }
    }

    /// The standard error the runs of a cell logged beside their value, on
    /// the log scale (se / value; over several runs, the root mean square):
    /// lm-eval's `acc_stderr` for `acc`, the noise of the benchmark's sample
    /// of questions, which a comparison takes as that side's known spread.
    /// Re-running the same questions does not shrink it — two identical
    /// results files of a greedy re-run are no evidence of zero noise —, so
    /// it holds for a cell of repeats too ([`stats::compare_known`] adds
    /// their own spread to it). `None` when some run logged none; said in the
    /// evidence when used.
    pub(super) fn logged_log_se(&self, pivot: &Pivot, cell: &CellRuns) -> Option<f64> {
        self.logged_se(pivot, cell, Scale::Log)
    }

    /// [`Judge::logged_log_se`] on the scale the statistics read the cell
    /// on: relative (of logs) for [`Scale::Log`], in the metric's own units
    /// for [`Scale::Raw`] (a signed change's, an error rate's).
    pub(super) fn logged_se(&self, pivot: &Pivot, cell: &CellRuns, scale: Scale) -> Option<f64> {
        let (name, logged) = crate::metric::standard_error_of(&pivot.metric.name)
            .into_iter()
            .find_map(|name| self.dataset.values_if_held(&name).map(|held| (name, held)))?;
        let runs = self.dataset.loaded_runs();
        let mut logged_by_run = Vec::with_capacity(cell.values.len());
        for (&run, &value) in cell.ids.iter().zip(&cell.values) {
            let at = u32::try_from(runs.position(run)?).ok()?;
            let se = logged.get(at)?;
            logged_by_run.push((value, se));
        }
        let spread = match scale {
            Scale::Log => stats::logged_log_se(&logged_by_run)?,
            Scale::Raw => stats::logged_raw_se(&logged_by_run)?,
        };
        let n = cell.values.len();
        let metric = &pivot.metric.name;
        self.left_out.borrow_mut().insert(if n == 1 {
            format!("a single run's spread is the standard error it logged beside {metric} (`{name}`)")
        } else {
            format!(
                "the spread is the standard error each run logged beside {metric} (`{name}`), which repeats of \
                 the same questions do not shrink"
            )
        });
        Some(spread)
    }

    /// The sweep dates of the runs of some cells, distinct, oldest first.
    pub(super) fn dates(cells: &[&CellRuns]) -> Vec<String> {
        let set: BTreeSet<String> = cells.iter().flat_map(|c| c.sweeps()).collect();
        set.into_iter().collect()
    }

    /// The runs of some cells, together.
    pub(super) fn run_ids(cells: &[&CellRuns]) -> RunIds {
        RunIds::new(cells.iter().flat_map(|c| c.ids.iter().copied()))
    }
}
