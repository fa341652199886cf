//! The curve a shape clause reads — one series along a param, or the
//! series themselves at one point — and the trends judged on it: each
//! adjacent pair of its points compared with the noise rule, the pairs
//! folded as `for all` (every pair must go the stated way; one going the
//! other way beyond noise, after Holm's correction, contradicts).

use super::ClaimError;
use super::{CellRuns, Judge, Scale};
use crate::claims::lang::{self, Clause, PointSet, QuantKind, Way};
use crate::claims::stats::{self, PointOutcome, Test, ALPHA};
use crate::claims::{combine_all, Judgement, Point, Stat, StatKind};
use crate::metric::Direction;
use crate::query::Pivot;
use crate::run::Value;

/// A curve: its points in order, each with the runs of its cell.
pub(super) struct Curve {
    pub(super) pivot: Pivot,
    pub(super) stations: Vec<Station>,
    /// The series the curve reads (one, or every series of the point).
    pub(super) series: Vec<String>,
}

/// One point of a curve.
pub(super) struct Station {
    /// The value of the param (or the series) there.
    pub(super) key: Value,
    /// The same as evidence shows it.
    pub(super) value: String,
    /// Its cell: the pivot row and the series.
    pub(super) row: usize,
    pub(super) series: String,
    /// The point as a side of a comparison names it (`lfu at cache_mb=64`,
    /// `threads=8`).
    pub(super) name: String,
    /// Where it sorts: the number, or its place in an `in (…)` list.
    order: f64,
    pub(super) runs: Option<CellRuns>,
}

impl Judge<'_, '_> {
    /// The curve of `series` along `param` (its points the set's), or with
    /// no series the curve across the series (`param` must be the series
    /// param), each point with its cell's newest runs. `ordered`: its
    /// points must have an order (numbers, or an `in (…)` list). `None`:
    /// the metric has no runs.
    pub(super) fn curve(
        &self,
        clause: &Clause,
        (series, metric, param): (Option<&lang::Name>, &str, &lang::Name),
        points: &PointSet,
        ordered: bool,
    ) -> Result<Option<Curve>, ClaimError> {
        let p = self.param_name(param)?;
        let is_series = p == self.settings.series;
        let at = |msg: String| ClaimError { offset: param.offset, msg };
        match (series, is_series) {
            (Some(_), true) => {
                return Err(at(format!(
                    "`{p}` is the series: for the curve across the series, leave out the series name \
                     (`{} … {p}`)",
                    clause.body.metric().text
                )))
            }
            (None, false) => {
                return Err(at(format!(
                    "`{p}` is not the series (`{}`): name the series whose curve it is (`A on {} … {p}`)",
                    self.settings.series,
                    clause.body.metric().text
                )))
            }
            _ => {}
        }
        let Some(pivot) = self.pivot(clause, metric, (!is_series).then_some(p.as_str()))? else {
            return Ok(None);
        };
        let mut stations = Vec::new();
        let named: Vec<String> = if let Some(s) = series {
            let s = self.series_name(s)?;
            let q = lang::Quantifier { kind: QuantKind::ForAll, param: param.clone(), points: points.clone() };
            self.single_point(clause, &pivot, Some(&q), std::slice::from_ref(&s))?;
            for (row, key) in Self::points(&pivot, Some(points)) {
                let order = order_of(points, key, ordered).map_err(at)?;
                let runs = self.one(&pivot, row, &s, Scale::Log);
                let name = format!("{} at {p}={key}", self.shown(&s));
                let (key, value) = (key.clone(), key.to_string());
                stations.push(Station { key, value, row, series: s.clone(), name, order, runs });
            }
            vec![s]
        } else {
            let all: Vec<String> = pivot.cols.iter().filter_map(|c| c.first()).map(ToString::to_string).collect();
            let all: Vec<String> = all.into_iter().filter(|s| points.contains(&Value::Text(s.clone()))).collect();
            self.one_point_each(clause, &pivot, &all)?;
            for s in &all {
                let order = order_of(points, &Value::Text(s.clone()), ordered).map_err(at)?;
                let runs = (!pivot.rows.is_empty()).then(|| self.one(&pivot, 0, s, Scale::Log)).flatten();
                let (key, value, series, name) = (Value::Text(s.clone()), s.clone(), s.clone(), self.shown(s));
                stations.push(Station { key, value, row: 0, series, name, order, runs });
            }
            all
        };
        stations.sort_by(|x, y| x.order.total_cmp(&y.order));
        Ok(Some(Curve { pivot, stations, series: named }))
    }

    /// Each series' cell of a curve across the series must hold one point:
    /// runs at several values of another param are refused, asking for a
    /// `where` (a curve clause takes no quantifier).
    fn one_point_each(&self, clause: &Clause, pivot: &Pivot, series: &[String]) -> Result<(), ClaimError> {
        for name in series {
            let Some(col) = pivot.cols.iter().position(|c| c.first().is_some_and(|k| k.to_string() == *name)) else {
                continue;
            };
            let Some(cell) = pivot.cells.first().and_then(|r| r[col].as_ref()) else { continue };
            if let Some((param, values)) = self.dataset.varying_params(&cell.runs).into_iter().next() {
                return Err(ClaimError {
                    offset: clause.offset,
                    msg: format!(
                        "`{}` has runs at several `{param}` values ({}); say which with `where {param} = …` after \
                         the claim",
                        self.shown(name),
                        values.join(", ")
                    ),
                });
            }
        }
        Ok(())
    }

    /// `[A on] M increases with P …`: each adjacent pair of the curve's
    /// points compared — strictly, the later one beyond the earlier in the
    /// trend's way beyond noise (no practical margin unless `within`, as a
    /// literal `>`); not strictly (`never decreases`), not behind it beyond
    /// the metric's margin; with a `step`, the change under (or over) the
    /// bound. Folded as `for all` over the pairs.
    pub(super) fn trend(
        &self,
        clause: &Clause,
        t: &lang::Trend,
        metric: &str,
        direction: Direction,
        margin: f64,
    ) -> Result<Judgement, ClaimError> {
        let dir = match t.way {
            Way::Increases => Direction::Higher,
            Way::Decreases => Direction::Lower,
            _ if direction == Direction::Neutral => {
                return Err(ClaimError {
                    offset: clause.offset,
                    msg: format!(
                        "`{}` has no better direction, so it cannot improve or worsen: write `increases` or \
                         `decreases` (literal), or set `[metrics.{metric}] direction` in reckon.toml",
                        t.metric.text
                    ),
                })
            }
            Way::Improves => direction,
            Way::Worsens => lang::turned(direction),
        };
        let Some(curve) = self.curve(clause, (t.series.as_ref(), metric, &t.param), &t.points, true)? else {
            return Ok(combine_all(&[]));
        };
        let (test, margin) = match (t.step, t.strict) {
            (Some(_), _) => (Test::Beats, 0.0),
            (None, true) => (Test::Beats, clause.within.unwrap_or(0.0)),
            (None, false) => (Test::MatchesOrBeats, margin),
        };
        let pooled = self.pooled_log_sd(&curve.pivot);
        let mut gaps: Vec<String> = Vec::new();
        let measured: Vec<&Station> = curve
            .stations
            .iter()
            .filter(|s| {
                if s.runs.is_none() {
                    gaps.push(format!("no runs of {}", s.name));
                }
                s.runs.is_some()
            })
            .collect();
        let mut points = Vec::new();
        for pair in measured.windows(2) {
            let (before, after) = (pair[0], pair[1]);
            let (Some(a), Some(b)) =
                self.pair(&curve.pivot, (after.row, &after.series), (before.row, &before.series), Scale::Log)
            else {
                continue;
            };
            let label = format!("{} {}→{}", t.param.text, before.value, after.value);
            let c = match stats::compare(&a.values, &b.values, dir, margin, pooled) {
                Ok(c) => c,
                Err(e) => {
                    gaps.push(self.not_judged(format!("{} and {} cannot be compared: {e}", after.name, before.name)));
                    continue;
                }
            };
            let point = Point::from_comparison(label, &after.name, &before.name, &c, test, [a.drawn(), b.drawn()]);
            points.push(match t.step {
                Some(step) => bounded(point, &c, step),
                None => point,
            });
        }
        let missing = if measured.len() < 2 && !measured.is_empty() {
            vec![format!("a trend needs two points with runs; the data hold one: {}", measured[0].name)]
        } else {
            Vec::new()
        };
        let j = combine_all(&points);
        Ok(self.settle(j, clause, &curve.pivot, None, missing, gaps, &curve.series))
    }
}

/// A step's point judged against the bound instead of a direction: the
/// change next/previous in the trend's way under `less than`/`at most`
/// the bound (over it for `more than`/`at least`), by
/// [`stats::step_bound`].
fn bounded(mut point: Point, c: &stats::Comparison, step: lang::Step) -> Point {
    use lang::ChangeBound;
    let below = matches!(step.bound, ChangeBound::LessThan | ChangeBound::AtMost);
    let strict = matches!(step.bound, ChangeBound::LessThan | ChangeBound::MoreThan);
    let t = stats::step_bound(c, step.percent / 100.0, below, strict);
    point.p_holds = t.p_holds;
    point.p_contradicts = t.p_contradicts;
    point.lead = t.lead;
    point.outcome = if t.p_holds <= ALPHA {
        PointOutcome::Holds
    } else if t.p_contradicts <= ALPHA {
        PointOutcome::Contradicted
    } else {
        PointOutcome::Inconclusive
    };
    let level = if point.outcome == PointOutcome::Contradicted { 0.95 } else { t.holds_level };
    point.stat = Some(Stat {
        of: StatKind::Ratio,
        estimate: c.ratio(),
        interval: c.spread().ratio_interval(level),
        level,
        margin: None,
        band: None,
        corrected: None,
        repeated: !c.single_run,
    });
    point.runs_needed = None;
    point.beyond_reach = None;
    point.spread = None;
    point
}

/// Where a point of a curve sorts: its place in an `in (…)` list, else its
/// number; `Err` when it has none and the curve must be ordered.
fn order_of(points: &PointSet, v: &Value, ordered: bool) -> Result<f64, String> {
    if let PointSet::In(list) = points {
        if let Some(i) = list.iter().position(|l| lang::compare(l, v) == Some(std::cmp::Ordering::Equal)) {
            #[allow(clippy::cast_precision_loss)]
            return Ok(i as f64);
        }
    }
    match v.as_f64() {
        Some(x) => Ok(x),
        None if !ordered => Ok(0.0),
        None => Err(format!(
            "`{v}` is not a number, so the points have no order: list them in order with `in (…)` (`in (small, \
             medium, large)`)"
        )),
    }
}
