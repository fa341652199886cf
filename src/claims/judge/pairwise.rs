//! Pairwise clauses: one series against others (`A beats B on M`), point by
//! point, with the comparison statistics.

use super::ClaimError;
use super::{Judge, Scale};
use crate::claims::lang::{self, Clause, Opponents, Relation};
use crate::claims::stats::{self};
use crate::claims::{combine_all, Judgement, Point};
use crate::metric::Direction;

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
        let pooled = self.pooled_log_sd(&pivot);
        let mut points = Vec::new();
        let mut missing = Self::named_missing(&pivot, q);
        let mut gaps = Vec::new();
        let rows = Self::rows(&pivot, q);
        let a_shown = self.shown(&a);
        for (row, key) in rows {
            let label = Self::label(&pivot, key);
            let at = if label.is_empty() { String::new() } else { format!(" at {label}") };
            // A point the claim names goes missing; one of a range is a gap.
            let mut lacking = |what: String| {
                if Self::names_points(q) { &mut missing } else { &mut gaps }.push(what);
            };
            for b in &opponents {
                let b_shown = self.shown(b);
                let (ca, cb) = match self.pair(&pivot, (row, &a), (row, b), Scale::Log) {
                    (Some(ca), Some(cb)) => (ca, cb),
                    (None, _) => {
                        lacking(format!("no runs of {a_shown}{at}"));
                        break;
                    }
                    (_, None) => {
                        lacking(format!("no runs of {b_shown}{at}"));
                        continue;
                    }
                };
                match stats::compare(&ca.values, &cb.values, dir, margin, pooled) {
                    Ok(c) => {
                        points.push(Point::from_comparison(
                            label.clone(),
                            &a_shown,
                            &b_shown,
                            &c,
                            test,
                            [ca.sweeps(), cb.sweeps()],
                        ));
                    }
                    Err(e) => lacking(format!("{a_shown} and {b_shown} cannot be compared{at}: {e}")),
                }
            }
        }
        let mut named = vec![a.clone()];
        named.extend(opponents.iter().cloned());
        let j = Self::fold(&points, q);
        Ok(self.settle(j, clause, &pivot, q, missing, gaps, &named))
    }
}
