//! One metric's cells compared between two sweeps: by the ratio of the
//! runs' geometric means against the metric's margin, or by the difference
//! of their means where a 0 is a measurement; what is left out, said.

use std::collections::{BTreeMap, BTreeSet};

use super::settings::SettingChange;
use super::{CellKey, CellMove, ComparedBy, MetricSpec, Movement, Sides, SweepSide};
use crate::claims::stats::{self, Interval, Outcome};
use crate::metric::Direction;
use crate::query::Key;

/// What one metric's cells add to a diff.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) cells: Vec<CellMove>,
    /// Cells measured in only the older sweep, or only the newer one.
    pub(super) only_from: Vec<CellKey>,
    pub(super) only_to: Vec<CellKey>,
    pub(super) from_runs: Option<(usize, usize)>,
    pub(super) to_runs: Option<(usize, usize)>,
    pub(super) left_out: Vec<String>,
    pub(super) not_compared: Vec<String>,
}

impl Tally {
    /// Adds another metric's cells.
    pub(super) fn absorb(&mut self, other: Tally) {
        self.cells.extend(other.cells);
        self.only_from.extend(other.only_from);
        self.only_to.extend(other.only_to);
        for (mine, theirs) in [(&mut self.from_runs, other.from_runs), (&mut self.to_runs, other.to_runs)] {
            if let Some((lo, hi)) = theirs {
                *mine = Some(widen(Some(widen(*mine, lo)), hi));
            }
        }
        self.left_out.extend(other.left_out);
        self.not_compared.extend(other.not_compared);
    }
}

pub(super) fn widen(range: Option<(usize, usize)>, n: usize) -> (usize, usize) {
    range.map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n)))
}

/// Compares one metric's cells (`sweeps`: the older and newer sweep's
/// names, for what is said of them).
pub(super) fn compare_cells(
    (metric, unit, direction): &MetricSpec,
    margin: f64,
    by: &[String],
    groups: &BTreeMap<Vec<Option<Key>>, Sides>,
    settings: &BTreeMap<Vec<Option<Key>>, Vec<SettingChange>>,
    sweeps: (&str, &str),
    tally: &mut Tally,
) {
    let pooled = stats::pooled_log_sd(groups.values().flat_map(|(a, b)| [a.as_slice(), b.as_slice()]));
    for (key, (old, new)) in groups {
        // A param the cell's runs lack is left out of its label.
        let pairs = || by.iter().zip(key).filter_map(|(p, k)| Some((p.clone(), k.as_ref()?.to_string()))).collect();
        match (old.is_empty(), new.is_empty()) {
            (true, true) => continue,
            (true, false) => {
                tally.only_to.push(CellKey { metric: metric.clone(), cell: pairs() });
                continue;
            }
            (false, true) => {
                tally.only_from.push(CellKey { metric: metric.clone(), cell: pairs() });
                continue;
            }
            _ => {}
        }
        let label: Vec<String> = by.iter().zip(key).filter_map(|(p, k)| Some(format!("{p}={}", k.as_ref()?))).collect();
        let at = if label.is_empty() { String::new() } else { format!(" at {}", label.join(" ")) };
        // A 0 of a metric whose 0 is a measurement (no errors) has no
        // ratio: the cell is compared by difference.
        let real_zero = !crate::metric::zero_signals_failure(metric, *direction, unit.as_deref());
        if real_zero && old.iter().chain(new).any(|v| v.is_finite() && *v <= 0.0) {
            match by_difference((metric, unit, direction), pairs(), (old, new), pooled) {
                Some(mut m) => {
                    m.settings = settings.get(key).cloned().unwrap_or_default();
                    tally.from_runs = Some(widen(tally.from_runs, m.from.runs));
                    tally.to_runs = Some(widen(tally.to_runs, m.to.runs));
                    tally.cells.push(m);
                }
                None => tally.not_compared.push(format!("{metric}{at}: its runs cannot be compared")),
            }
            continue;
        }
        // Ratios need positive values: a run that logged 0 (or below) is
        // left out, and said; a side with no run left is not compared.
        let (old, new) = (measured(old), measured(new));
        for ((kept, all), sweep) in [(&old, sweeps.0), (&new, sweeps.1)] {
            if kept.len() < all.len() {
                tally.left_out.push(format!(
                    "{} of {} runs of {metric}{at} in {sweep} logged {} (not a measurement a ratio can use: a run \
                     whose requests all failed logs 0)",
                    all.len() - kept.len(),
                    all.len(),
                    unmeasured(all)
                ));
            }
        }
        if old.0.is_empty() || new.0.is_empty() {
            tally.not_compared.push(format!(
                "{metric}{at}: no run of {} logged a measurement a ratio can use",
                if old.0.is_empty() { sweeps.0 } else { sweeps.1 }
            ));
            continue;
        }
        let Ok(c) = stats::compare(&new.0, &old.0, *direction, margin, pooled) else {
            tally.not_compared.push(format!("{metric}{at}: its runs cannot be compared"));
            continue;
        };
        tally.from_runs = Some(widen(tally.from_runs, c.n_b));
        tally.to_runs = Some(widen(tally.to_runs, c.n_a));
        let movement = movement_of(&c);
        // The comparison's interval is of d signed by direction; the
        // ratio to/from is stated literally.
        let literal = if *direction == Direction::Lower { Interval { lo: -c.ci95.hi, hi: -c.ci95.lo } } else { c.ci95 };
        tally.cells.push(CellMove {
            metric: metric.clone(),
            unit: unit.clone(),
            direction: *direction,
            cell: pairs(),
            from: SweepSide { value: c.b_value, runs: c.n_b },
            to: SweepSide { value: c.a_value, runs: c.n_a },
            compared_by: ComparedBy::Ratio,
            change: c.rel_diff,
            ratio_ci95: Some(literal.exp()),
            difference_ci95: None,
            margin,
            movement,
            single_run: c.single_run,
            effect: c.d,
            settings: settings.get(key).cloned().unwrap_or_default(),
        });
    }
}

/// How a cell compared by ratio moved. A single run against a single run,
/// with no repeated runs of the metric anywhere to lend a spread
/// (hyperfine's `stddev`, `mean`: one number per command): the interval is
/// the point itself, and any change past the margin would read as beyond
/// noise. There is no spread to tell noise by: said so, not called noise.
fn movement_of(c: &stats::Comparison) -> Movement {
    match c.outcome {
        _ if c.single_run && c.se == 0.0 => Movement::NoSpread,
        Outcome::Better => Movement::Better,
        Outcome::Worse => Movement::Worse,
        Outcome::Equivalent => Movement::Same,
        Outcome::Inconclusive => Movement::WithinNoise,
    }
}

/// One cell compared by the difference of its sweeps' means (Welch's
/// interval, [`stats::estimate_difference`]): better or worse beyond noise
/// when the 95% interval excludes 0. Non-finite values make it `None`.
fn by_difference(
    (metric, unit, direction): (&String, &Option<String>, &Direction),
    cell: Vec<(String, String)>,
    (old, new): (&[f64], &[f64]),
    pooled: Option<f64>,
) -> Option<CellMove> {
    let e = stats::estimate_difference(new, old, pooled).ok()?;
    let ci = e.interval(0.95);
    let sign = if *direction == Direction::Lower { -1.0 } else { 1.0 };
    let (lo, hi) = if sign > 0.0 { (ci.lo, ci.hi) } else { (-ci.hi, -ci.lo) };
    let movement = match () {
        () if e.single_run && e.se == 0.0 => Movement::NoSpread,
        // Repeats logging the same on both sides (no errors before and
        // after): the same, exactly.
        () if e.se == 0.0 && e.center == 0.0 => Movement::Same,
        () if lo > 0.0 => Movement::Better,
        () if hi < 0.0 => Movement::Worse,
        () => Movement::WithinNoise,
    };
    Some(CellMove {
        metric: metric.clone(),
        unit: unit.clone(),
        direction: *direction,
        cell,
        from: SweepSide { value: stats::median(old), runs: old.len() },
        to: SweepSide { value: stats::median(new), runs: new.len() },
        compared_by: ComparedBy::Difference,
        change: e.value,
        ratio_ci95: None,
        difference_ci95: Some(ci),
        margin: 0.0,
        movement,
        single_run: e.single_run,
        effect: sign * e.center,
        settings: Vec::new(),
    })
}

/// A side's runs a ratio can use, with all of them.
fn measured(runs: &[f64]) -> (Vec<f64>, &[f64]) {
    (runs.iter().copied().filter(|v| stats::measurable(*v, true)).collect(), runs)
}

/// The distinct values among `runs` a ratio cannot use: `0`, `-1, NaN`.
fn unmeasured(runs: &[f64]) -> String {
    let set: BTreeSet<String> =
        runs.iter().filter(|v| !stats::measurable(**v, true)).map(|v| crate::metric::format_number(*v)).collect();
    set.into_iter().collect::<Vec<_>>().join(", ")
}
