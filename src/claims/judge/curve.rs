//! Where a curve peaks: one series along a param, or the series at one
//! point (`M is lowest at threads = 8`, `threads` the series).

use super::ClaimError;
use super::Judge;
use super::Scale;
use crate::claims::lang::{self, Clause, Extreme, PointSet};
use crate::claims::stats::{self, Test};
use crate::claims::{combine_all, Judgement, Point};
use crate::metric::{format_number, Direction};

impl Judge<'_, '_> {
    /// `A on M peaks at P = v` (or `M peaks at S = v` over the series): at
    /// every other point of the curve, the value at v is not lower (beyond
    /// the margin) than the value there, as `matches or beats` in the
    /// literal direction; contradicted when some point is higher beyond
    /// noise. `is lowest at` is the same downwards; `is best at` follows
    /// the metric's direction.
    pub(super) fn peak(
        &self,
        clause: &Clause,
        p: &lang::Peak,
        metric: &str,
        direction: Direction,
        margin: f64,
        details: &mut Vec<String>,
    ) -> std::result::Result<Judgement, ClaimError> {
        let highest = match p.extreme {
            Extreme::Highest => true,
            Extreme::Lowest => false,
            _ if direction == Direction::Neutral => {
                return Err(ClaimError {
                    offset: clause.offset,
                    msg: format!(
                        "`{}` has no better direction, so nothing is its best: write `peaks at` or `is lowest at`, \
                         or set `[metrics.{metric}] direction` in reckon.toml",
                        p.metric.text
                    ),
                })
            }
            Extreme::Best => direction == Direction::Higher,
            Extreme::Worst => direction == Direction::Lower,
        };
        let Some(curve) = self.curve(clause, (p.series.as_ref(), metric, &p.param), &PointSet::Every, false)? else {
            return Ok(combine_all(&[]));
        };
        let dir = if highest { Direction::Higher } else { Direction::Lower };
        let pooled = self.pooled_log_sd(&curve.pivot);
        let named = match &p.series {
            Some(s) => format!("{} at {}={}", self.shown(&self.series_name(s)?), p.param.text, p.at),
            None => self.shown(&p.at.to_string()),
        };
        let is_named = |key: &crate::run::Value| lang::compare(&p.at, key) == Some(std::cmp::Ordering::Equal);
        // The measured extreme, for the details.
        let extreme = curve
            .stations
            .iter()
            .filter_map(|s| Some((s, stats::median(&s.runs.as_ref()?.values))))
            .reduce(|x, y| if (y.1 > x.1) == highest && y.1 != x.1 { y } else { x });
        if let Some((s, v)) = extreme {
            let word = if highest { "highest" } else { "lowest" };
            let at = if p.series.is_some() {
                format!(" at {} = {}", p.param.text, s.value)
            } else {
                format!(" at {}", s.name)
            };
            let whose =
                curve.series.first().filter(|_| p.series.is_some()).map_or(p.metric.text.clone(), |s| self.shown(s));
            details.push(format!("{whose} is {word}{at} ({}) in the data", format_number(v)));
        }
        let mut missing = Vec::new();
        let mut gaps = Vec::new();
        let mut points = Vec::new();
        match curve.stations.iter().find(|s| is_named(&s.key)) {
            None => missing.push(format!("no runs at {} = {}", p.param.text, p.at)),
            Some(s0) if s0.runs.is_none() => missing.push(format!("no runs of {named}")),
            Some(s0) => {
                for s in curve.stations.iter().filter(|s| !is_named(&s.key)) {
                    let (Some(c0), Some(c)) =
                        self.pair(&curve.pivot, (s0.row, &s0.series), (s.row, &s.series), Scale::Log)
                    else {
                        gaps.push(format!("no runs of {}", s.name));
                        continue;
                    };
                    let label =
                        if p.series.is_some() { format!("{}={}", p.param.text, s.value) } else { s.name.clone() };
                    let shown = if p.series.is_some() { self.shown(&s.series) } else { s.name.clone() };
                    match stats::compare(&c0.values, &c.values, dir, margin, pooled) {
                        Ok(cmp) => points.push(Point::from_comparison(
                            label,
                            named.clone(),
                            shown,
                            &cmp,
                            Test::MatchesOrBeats,
                            [c0.drawn(), c.drawn()],
                        )),
                        Err(e) => gaps.push(self.not_judged(format!("{named} and {} cannot be compared: {e}", s.name))),
                    }
                }
            }
        }
        let j = combine_all(&points);
        Ok(self.settle(j, clause, &curve.pivot, None, missing, gaps, &curve.series))
    }
}
