//! Pairwise clauses: one series against others (`A beats B on M`), point by
//! point, with the comparison statistics.

use super::ClaimError;
use super::{Judge, Scale};
use crate::claims::lang::{self, Clause, Opponents, Relation};
use crate::claims::stats::{self, Test};
use crate::claims::{combine_all, Judgement, Point};
use crate::metric::Direction;
use crate::query::Pivot;

impl Judge<'_, '_> {
    pub(super) fn pairwise(
        &self,
        clause: &Clause,
        p: &lang::Pairwise,
        metric: &str,
        param: Option<&str>,
        direction: Direction,
        margin: f64,
    ) -> std::result::Result<Judgement, ClaimError> {
        let q = p.quantifier.as_ref();
        let Some(pivot) = self.pivot(clause, metric, param)? else {
            return Ok(combine_all(&[]));
        };
        if p.relation.is_speed() && direction == Direction::Neutral {
            return Err(ClaimError {
                offset: clause.offset,
                msg: format!(
                    "`{}` has no better direction, so `{}` cannot say which way is faster: write `>` or `<` \
                     (literal), or set `[metrics.{metric}] direction` in reckon.toml",
                    p.metric.text,
                    if p.relation == Relation::Faster { "is faster than" } else { "is slower than" }
                ),
            });
        }
        // A spread (`std_dev`, `median_abs_dev`, `acc_stderr`) is the noise
        // of another metric, no better larger or smaller: `beats` would
        // read it as higher is better (a neutral metric's literal reading).
        if p.relation.is_better() && direction == Direction::Neutral && crate::metric::is_spread(metric) {
            return Err(ClaimError {
                offset: clause.offset,
                msg: format!(
                    "`{}` is a spread (the noise of another metric), with no better direction, so `{}` cannot say \
                     which side is better: write `<` or `>` (literal), claim about the metric it is the spread of, \
                     or set `[metrics.{metric}] direction` in reckon.toml",
                    p.metric.text,
                    p.relation.as_str()
                ),
            });
        }
        let (test, dir) = p.relation.resolve(direction);
        // A literal comparison between series (`<`, `>=`, …) says nothing
        // about a practical difference: the difference is tested against
        // noise alone, unless the claim gives a `within`.
        let literal = matches!(p.relation, Relation::Gt | Relation::Ge | Relation::Lt | Relation::Le);
        let margin = if literal && clause.within.is_none() { 0.0 } else { margin };
        let a = self.series_name(&p.a)?;
        let opponents: Vec<String> = match &p.b {
            Opponents::Series(names) => {
                names.iter().map(|n| self.series_name(n)).collect::<std::result::Result<_, _>>()?
            }
            Opponents::Others => pivot
                .cols
                .iter()
                .filter_map(|c| c.first())
                .map(std::string::ToString::to_string)
                .filter(|s| *s != a)
                .collect(),
        };
        let mut named = vec![a.clone()];
        named.extend(opponents.iter().cloned());
        self.single_point(clause, &pivot, q, &named)?;
        let how = How { test, dir, margin, pooled: self.pooled_log_sd(&pivot) };
        let mut points = Vec::new();
        let mut missing = Self::named_missing(&pivot, q);
        let listed = Self::names_points(q);
        let mut lacking = Vec::new();
        for (row, key) in Self::rows(&pivot, q) {
            let label = Self::label(&pivot, key);
            let at = (row, label.as_str());
            // A point the claim names is missing; one of a range weighs as
            // one where the clause judged any point.
            let list = if listed { &mut missing } else { &mut lacking };
            points.extend(self.each_against(&pivot, at, &a, &opponents, (how, p.others_first, listed), list));
        }
        let j = Self::fold(&points, q);
        let (missing, gaps) = Self::weigh_lacking(&j, missing, lacking);
        let mut j = self.settle(j, clause, &pivot, q, missing, gaps, &named);
        if p.b == Opponents::Others && j.verdict != crate::claims::Verdict::NoData {
            j.evidence.others_apart = self.others_apart(&pivot, &a, &opponents);
        }
        Ok(j)
    }

    /// [`crate::query::Dataset::others_apart`] over the runs of each
    /// series in the pivot.
    fn others_apart(&self, pivot: &Pivot, a: &str, opponents: &[String]) -> Option<String> {
        let runs_of = |name: &str| -> Vec<i64> {
            let Some(col) = pivot.cols.iter().position(|c| c.first().is_some_and(|k| k.to_string() == name)) else {
                return Vec::new();
            };
            pivot.cells.iter().filter_map(|row| row[col].as_ref()).flat_map(|c| c.runs.iter().copied()).collect()
        };
        let theirs: Vec<(String, Vec<i64>)> = opponents.iter().map(|b| (b.clone(), runs_of(b))).collect();
        let mut skip: Vec<&str> = pivot.row_params.iter().map(String::as_str).collect();
        skip.push(&self.settings.series);
        self.dataset.others_apart(&runs_of(a), &theirs, &skip)
    }

    /// Series `a` at one pivot row against each opponent there: one
    /// comparison per opponent with runs, as a `beats`-family clause folds
    /// them at that point. What is lacking (no runs of a side, sides that
    /// cannot be compared) is said in `lacking`; with no runs of `a`,
    /// nothing is compared. `highlight=best` asks through this too
    /// ([`Judge::beats_others`]), so a table and a claim read one answer.
    pub(super) fn against(
        &self,
        pivot: &Pivot,
        (row, label): (usize, &str),
        a: &str,
        opponents: &[String],
        how: How,
        lacking: &mut Vec<String>,
    ) -> Vec<Point> {
        self.each_against(pivot, (row, label), a, opponents, (how, false, true), lacking)
    }

    /// [`Judge::against`], or with `others_first` each opponent compared
    /// with `a` (`others beat a`: each other series is the subject, named
    /// first). With `named` false the point lies in a range the claim does
    /// not list: a pair neither side of which ran there is no comparison
    /// of the claim's and is not said (the point belongs to other series);
    /// a pair one side of which ran is said as lacking the other.
    fn each_against(
        &self,
        pivot: &Pivot,
        (row, label): (usize, &str),
        a: &str,
        opponents: &[String],
        (how, others_first, named): (How, bool, bool),
        lacking: &mut Vec<String>,
    ) -> Vec<Point> {
        let at = if label.is_empty() { String::new() } else { format!(" at {label}") };
        let a_shown = self.shown(a);
        let mut points = Vec::new();
        if !named && !Self::ran(pivot, row, a) && !opponents.iter().any(|b| Self::ran(pivot, row, b)) {
            return points;
        }
        for b in opponents {
            let b_shown = self.shown(b);
            let (ca, cb) = match self.pair(pivot, (row, a), (row, b), Scale::Log) {
                (Some(ca), Some(cb)) => (ca, cb),
                (None, _) => {
                    lacking.push(self.lacking(pivot, row, &[a], &at));
                    break;
                }
                (_, None) => {
                    lacking.push(self.lacking(pivot, row, &[b.as_str()], &at));
                    continue;
                }
            };
            let (first, second, shown) =
                if others_first { (&cb, &ca, (&b_shown, &a_shown)) } else { (&ca, &cb, (&a_shown, &b_shown)) };
            let known = [self.logged_log_se(pivot, first), self.logged_log_se(pivot, second)];
            match stats::compare_known(&first.values, &second.values, how.dir, how.margin, how.pooled, known) {
                Ok(c) => points.push(Point::from_comparison(
                    label,
                    shown.0,
                    shown.1,
                    &c,
                    how.test,
                    [first.drawn(), second.drawn()],
                )),
                Err(e) => lacking.push(self.not_judged(format!("{a_shown} and {b_shown} cannot be compared{at}: {e}"))),
            }
        }
        points
    }
}

/// How a pairwise clause compares two cells: its test, the direction that
/// is better, the practical margin and the metric's pooled per-run noise.
#[derive(Debug, Clone, Copy)]
pub(super) struct How {
    pub(super) test: Test,
    pub(super) dir: Direction,
    pub(super) margin: f64,
    pub(super) pooled: Option<f64>,
}
