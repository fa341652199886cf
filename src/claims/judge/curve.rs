//! Clauses about where along a param something happens: a series peaks at a
//! point, or one series overtakes another (a crossover).

use super::ClaimError;
use super::{CellRuns, Judge, Scale};
use crate::claims::lang::{self, Clause, QuantKind};
use crate::claims::stats::{self, PointOutcome, Test};
use crate::claims::{combine_all, Judgement, Point, Side};
use crate::metric::{format_number, Direction};
use crate::query::Key;
use crate::syntax::{Literal, Op};

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

    pub(super) fn crossover(
        &self,
        clause: &Clause,
        c: &lang::Crossover,
        metric: &str,
        param: Option<&str>,
        direction: Direction,
        margin: f64,
    ) -> std::result::Result<(Judgement, Vec<String>), ClaimError> {
        let mut details = Vec::new();
        let Some(pivot) = self.pivot(clause, metric, param)? else {
            return Ok((combine_all(&[]), details));
        };
        let param = param.unwrap_or(&c.param.text);
        let (a, b) = (self.series_name(&c.a)?, self.series_name(&c.b)?);
        let pooled = self.pooled_log_sd(&pivot);
        let mut compared = Vec::new();
        let mut dates = Vec::new();
        for (row, key) in Self::points(&pivot, Some(&c.points)) {
            let (Some(x), (Some(ca), Some(cb))) = (key.as_f64(), self.pair(&pivot, (row, &a), (row, &b), Scale::Log))
            else {
                continue;
            };
            let Ok(cmp) = stats::compare(&ca.values, &cb.values, direction, margin, pooled) else { continue };
            dates.extend(Self::dates(&[&ca, &cb]));
            compared.push((x, cmp));
        }
        if compared.is_empty() {
            let filter = clause.filter.as_ref().map(|w| format!(" where {}", w.source)).unwrap_or_default();
            let reason = format!(
                "{} and {} have no numeric point of `{param}` in common{filter}",
                self.shown(&a),
                self.shown(&b)
            );
            return Ok((crate::claims::no_data(reason), details));
        }
        dates.sort();
        dates.dedup();
        compared.sort_by(|x, y| x.0.total_cmp(&y.0));
        // From here on the series are named as the evidence shows them.
        let (a, b) = (self.shown(&a), self.shown(&b));
        details.extend(point_lists(&compared, &a, &b, param));
        let found = crate::claims::crossover(&compared);
        let target = match &c.target {
            Literal::Num(n) => *n,
            Literal::Text(t) => {
                return Err(ClaimError {
                    offset: clause.offset,
                    msg: format!("a crossover is a number of `{param}`, not `{t}`"),
                })
            }
        };
        let outcome = match found {
            None => PointOutcome::Contradicted,
            Some(x) => {
                // A crossover is a point of the param, found exactly: `≈`
                // is `=` here, and a range is not a point.
                let holds = c.op.accepts(x.partial_cmp(&target));
                if holds {
                    PointOutcome::Holds
                } else {
                    PointOutcome::Contradicted
                }
            }
        };
        details.insert(
            0,
            match found {
                Some(x) => format!(
                    "crossover at {param} = {}: {a} beats {b} there and is not worse at any larger point",
                    format_number(x)
                ),
                None => format!("no crossover: {a} never beats {b} for good over {param}"),
            },
        );
        let single = compared.iter().any(|(_, c)| c.single_run);
        let runs = compared.iter().map(|(_, c)| c.n_a.min(c.n_b)).min().unwrap_or(0);
        let point = Point::from_check(
            format!("crossover over {param}"),
            Side {
                name: format!("crossover({a}, {b})"),
                value: found.unwrap_or(f64::NAN),
                runs,
                sweeps: dates.clone(),
            },
            Side { name: "stated".into(), value: target, runs: 0, sweeps: Vec::new() },
            outcome,
            single,
            dates,
            None,
        );
        Ok((combine_all(&[point]), details))
    }
}

/// Which points of the param each verdict of A against B holds at, one
/// line per verdict that has any (`A beats B at concurrency = 64, 128`).
fn point_lists(compared: &[(f64, stats::Comparison)], a: &str, b: &str, param: &str) -> Vec<String> {
    let describe = |test: fn(&stats::Comparison) -> bool| {
        compared.iter().filter(|(_, c)| test(c)).map(|(x, _)| format_number(*x)).collect::<Vec<_>>().join(", ")
    };
    let mut lines = Vec::new();
    for (word, list) in [
        ("beats", describe(|c| c.holds(Test::Beats))),
        ("matches", describe(|c| c.holds(Test::Matches) && !c.holds(Test::Beats))),
        // Ahead, but neither beyond the margin nor provably level: "not
        // worse" is all the data say. Without this list such a point
        // fell through every other one and vanished from the details.
        (
            "is not worse than",
            describe(|c| c.holds(Test::MatchesOrBeats) && !c.holds(Test::Beats) && !c.holds(Test::Matches)),
        ),
        ("loses to", describe(|c| c.contradicts(Test::MatchesOrBeats))),
        ("cannot tell", describe(|c| !c.holds(Test::MatchesOrBeats) && !c.contradicts(Test::MatchesOrBeats))),
    ] {
        if !list.is_empty() {
            lines.push(format!("{a} {word} {b} at {param} = {list}"));
        }
    }
    lines
}
