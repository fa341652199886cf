//! Clauses about where along a param something happens: a series peaks at a
//! point, or one series overtakes another (a crossover).

use super::ClaimError;
use super::{CellRuns, Judge, Scale};
use crate::claims::lang::{self, Clause, QuantKind};
use crate::claims::stats::{self, Test};
use crate::claims::{combine_all, Judgement, Point};
use crate::metric::{format_number, Direction};
use crate::query::Key;
use crate::syntax::Op;

impl Judge<'_, '_> {
    /// `A on M peaks at P = v`: at every other point of P, A at v is not
    /// lower (beyond the margin) than A there, as `matches or beats` in the
    /// literal direction; contradicted when some point is higher beyond
    /// noise. `is lowest at` is the same downwards.
    pub(super) fn peak(
        &self,
        clause: &Clause,
        p: &lang::Peak,
        metric: &str,
        param: Option<&str>,
        margin: f64,
        details: &mut Vec<String>,
    ) -> std::result::Result<Judgement, ClaimError> {
        let Some(pivot) = self.pivot(clause, metric, param.or(Some(&p.param.text)))? else {
            return Ok(combine_all(&[]));
        };
        let s = self.series_name(&p.series)?;
        let at = lang::Quantifier {
            kind: QuantKind::At,
            param: p.param.clone(),
            points: lang::PointSet::Cmp(Op::Eq, p.at.clone()),
        };
        let missing = Self::named_missing(&pivot, Some(&at));
        let dir = if p.highest { Direction::Higher } else { Direction::Lower };
        let pooled = self.pooled_log_sd(&pivot);
        let peak_row = Self::rows(&pivot, Some(&at)).into_iter().next();
        let mut points = Vec::new();
        let mut gaps = Vec::new();
        let mut missing = missing;
        let s_shown = self.shown(&s);
        let named = format!("{s_shown} at {}={}", p.param.text, p.at);
        let cells: Vec<(usize, Option<&Key>, Option<CellRuns>)> = Self::rows(&pivot, None)
            .into_iter()
            .map(|(r, _)| (r, pivot.rows[r].first(), self.one(&pivot, r, &s, Scale::Log)))
            .collect();
        // The measured extreme, for the details.
        let extreme = cells
            .iter()
            .filter_map(|(_, k, c)| Some((k.as_ref()?, stats::median(&c.as_ref()?.values))))
            .reduce(|x, y| if (y.1 > x.1) == p.highest && y.1 != x.1 { y } else { x });
        if let Some((k, v)) = extreme {
            let word = if p.highest { "highest" } else { "lowest" };
            details.push(format!("{s_shown} is {word} at {} = {k} ({}) in the data", p.param.text, format_number(v)));
        }
        match peak_row.and_then(|(r, _)| self.one(&pivot, r, &s, Scale::Log).map(|c| (r, c))) {
            None if missing.is_empty() => missing.push(format!("no runs of {named}")),
            None => {}
            Some((r0, _)) => {
                for (r, k, _) in &cells {
                    if *r == r0 {
                        continue;
                    }
                    let label = k.map(|k| format!("{}={k}", p.param.text)).unwrap_or_default();
                    let (Some(c0), Some(c)) = self.pair(&pivot, (r0, &s), (*r, &s), Scale::Log) else {
                        gaps.push(format!("no runs of {s_shown} at {label}"));
                        continue;
                    };
                    let cmp = match stats::compare(&c0.values, &c.values, dir, margin, pooled) {
                        Ok(cmp) => cmp,
                        Err(e) => {
                            gaps.push(format!("{named} and {s_shown} at {label} cannot be compared: {e}"));
                            continue;
                        }
                    };
                    points.push(Point::from_comparison(
                        label,
                        named.clone(),
                        s_shown.clone(),
                        &cmp,
                        Test::MatchesOrBeats,
                        [c0.sweeps(), c.sweeps()],
                    ));
                }
            }
        }
        let j = combine_all(&points);
        Ok(self.settle(j, clause, &pivot, None, missing, gaps, std::slice::from_ref(&s)))
    }
}
