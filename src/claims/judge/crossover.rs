//! Where one series overtakes another (a crossover), or where the others
//! overtake one series, or one series all the others.

use std::collections::BTreeMap;

use super::crossing::{crossing, Crossing, Step};
use super::ClaimError;
use super::{Judge, Scale};
use crate::claims::lang::{self, Clause, Contender};
use crate::claims::stats::{self, PointOutcome, Test};
use crate::claims::{combine_all, Drawn, Judgement, Point, Side};
use crate::metric::{format_number, Direction};
use crate::query::Pivot;
use crate::syntax::Literal;

/// The comparisons of one pair of a crossover, by point of the param.
type Compared = Vec<(f64, stats::Comparison)>;

impl Judge<'_, '_> {
    /// The pairs a crossover compares, each (A, B) as written: one pair, or
    /// with `others` on one side one pair per other series.
    fn crossover_pairs(&self, c: &lang::Crossover, pivot: &Pivot) -> Result<Vec<(String, String)>, ClaimError> {
        let others = |named: &str| -> Vec<String> {
            pivot.cols.iter().filter_map(|k| k.first()).map(ToString::to_string).filter(|s| s != named).collect()
        };
        Ok(match (&c.a, &c.b) {
            (Contender::Series(a), Contender::Series(b)) => vec![(self.series_name(a)?, self.series_name(b)?)],
            (Contender::Series(a), Contender::Others) => {
                let a = self.series_name(a)?;
                others(&a).into_iter().map(|b| (a.clone(), b)).collect()
            }
            (Contender::Others, Contender::Series(b)) => {
                let b = self.series_name(b)?;
                others(&b).into_iter().map(|a| (a, b.clone())).collect()
            }
            (Contender::Others, Contender::Others) => Vec::new(),
        })
    }

    /// A against B at each numeric point of the crossover's set, with the
    /// sweep dates read.
    fn crossover_pair(
        &self,
        pivot: &Pivot,
        c: &lang::Crossover,
        (a, b): (&str, &str),
        (direction, margin): (Direction, f64),
        read: &mut Drawn,
    ) -> Compared {
        let pooled = self.pooled_log_sd(pivot);
        let mut compared = Vec::new();
        for (row, key) in Self::points(pivot, Some(&c.points)) {
            let (Some(x), (Some(ca), Some(cb))) = (key.as_f64(), self.pair(pivot, (row, a), (row, b), Scale::Log))
            else {
                continue;
            };
            let cmp = match stats::compare(&ca.values, &cb.values, direction, margin, pooled) {
                Ok(cmp) => cmp,
                Err(why) => {
                    let (first, second) = (self.shown(a), self.shown(b));
                    self.not_judged(format!(
                        "{first} and {second} cannot be compared at {}={key}: {why}",
                        c.param.text
                    ));
                    continue;
                }
            };
            read.sweeps.extend(Self::dates(&[&ca, &cb]));
            read.runs = read.runs.union(&Self::run_ids(&[&ca, &cb]));
            compared.push((x, cmp));
        }
        compared.sort_by(|x, y| x.0.total_cmp(&y.0));
        compared
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
        let pairs = self.crossover_pairs(c, &pivot)?;
        let mut read = Drawn::default();
        let compared: Vec<Compared> =
            pairs.iter().map(|(a, b)| self.crossover_pair(&pivot, c, (a, b), (direction, margin), &mut read)).collect();
        let Drawn { sweeps: mut dates, runs: run_ids } = read;
        // From here on the series are named as the evidence shows them.
        let (a, b) = (self.contender_shown(&c.a, &pairs, 0), self.contender_shown(&c.b, &pairs, 1));
        let (crossing, gaps, joint) = joint_crossover(&compared);
        if joint == 0 {
            let filter = clause.filter.as_ref().map(|w| format!(" where {}", w.source)).unwrap_or_default();
            let reason = format!("{a} and {b} have no numeric point of `{param}` in common{filter}");
            return Ok((crate::claims::no_data(reason), details));
        }
        dates.sort();
        dates.dedup();
        for ((pa, pb), pair) in pairs.iter().zip(&compared) {
            details.extend(point_lists(pair, &self.shown(pa), &self.shown(pb), param));
        }
        if !gaps.is_empty() {
            let list: Vec<String> = gaps.iter().map(|x| format_number(*x)).collect();
            details.push(format!("left out at {param} = {}: not every pair was measured there", list.join(", ")));
        }
        let Literal::Num(target) = c.target else {
            return Err(ClaimError {
                offset: clause.offset,
                msg: format!("a crossover is a number of `{param}`, not `{}`", c.target),
            });
        };
        // A crossover is a point of the param, found exactly: `≈` is `=`
        // here, and a range is not a point.
        // A point the data hold but the comparison could not judge may be
        // where the series cross (or where one falls behind again).
        let unjudged: Vec<String> = std::mem::take(&mut *self.unjudged.borrow_mut()).into_iter().collect();
        let accepts = |x: f64| c.op.accepts(x.partial_cmp(&target));
        // Contradicted only when the data rule out, beyond noise, every
        // point the claim allows; a point whose comparison is within noise
        // may be the crossover.
        let outcome = match crossing.found {
            _ if !unjudged.is_empty() => PointOutcome::Inconclusive,
            Some(x) if accepts(x) => PointOutcome::Holds,
            _ if crossing.rules_out(accepts) => PointOutcome::Contradicted,
            _ => PointOutcome::Inconclusive,
        };
        for text in unjudged {
            details.push(format!("not judged, so the crossover may lie elsewhere: {text}"));
        }
        let each = if pairs.len() > 1 { " (every pair)" } else { "" };
        let stated = match c.op {
            crate::syntax::Op::Eq | crate::syntax::Op::Approx => format!("at {param} = {}", format_number(target)),
            op => format!("{op} {}", format_number(target)),
        };
        details.insert(0, headline(&crossing, (&a, &b, each), param, (outcome, &stated)));
        let all = compared.iter().flatten();
        let single = all.clone().any(|(_, c)| c.single_run);
        let runs = all.map(|(_, c)| c.n_a.min(c.n_b)).min().unwrap_or(0);
        let point = Point::from_check(
            format!("crossover over {param}"),
            Side {
                name: format!("crossover({a}, {b})"),
                value: crossing.found.unwrap_or(f64::NAN),
                runs,
                sweeps: dates.clone(),
                run_ids,
            },
            Side::stated("stated", target),
            outcome,
            single,
            dates,
            None,
        );
        Ok((combine_all(&[point]), details))
    }

    /// A side of a crossover as evidence names it.
    fn contender_shown(&self, side: &Contender, pairs: &[(String, String)], which: usize) -> String {
        match side {
            Contender::Others => "others".to_string(),
            Contender::Series(_) => {
                pairs.first().map_or_else(String::new, |p| self.shown(if which == 0 { &p.0 } else { &p.1 }))
            }
        }
    }
}

/// The crossover of every pair at once ([`crossing`]): the smallest point
/// where every pair's A beats its B and no pair's A is worse at any larger
/// point, as far as the data decide it, over the points every pair was
/// measured at (how many), and the points some pair lacks, to be said.
fn joint_crossover(compared: &[Compared]) -> (Crossing, Vec<f64>, usize) {
    let mut by_point: BTreeMap<u64, (f64, Vec<&stats::Comparison>)> = BTreeMap::new();
    for pair in compared {
        for (x, c) in pair {
            by_point.entry(ordered(*x)).or_insert_with(|| (*x, Vec::new())).1.push(c);
        }
    }
    let mut gaps = Vec::new();
    let mut joint = Vec::new();
    for (x, cs) in by_point.into_values() {
        if cs.len() == compared.len() {
            joint.push(Step::of(x, &cs));
        } else {
            gaps.push(x);
        }
    }
    (crossing(&joint), gaps, joint.len())
}

/// The first line of a crossover's details, which its summary says when
/// the data place no crossover: where it is, that there is none, or where
/// it may be and which points leave it open.
fn headline(
    crossing: &Crossing,
    (a, b, each): (&str, &str, &str),
    param: &str,
    (outcome, stated): (PointOutcome, &str),
) -> String {
    let list = |xs: &[f64]| xs.iter().map(|x| format_number(*x)).collect::<Vec<_>>().join(", ");
    if let Some(x) = crossing.found {
        return format!(
            "crossover at {param} = {}: {a} beats {b}{each} there and is not worse at any larger point",
            format_number(x)
        );
    }
    if crossing.possible.is_empty() {
        return format!("no crossover: {a} never beats {b}{each} for good over {param}");
    }
    let lead = if outcome == PointOutcome::Contradicted {
        format!("the crossover is not {stated}")
    } else {
        format!("the data cannot place the crossover over {param}")
    };
    let nowhere = if crossing.maybe_none { ", or there may be none" } else { "" };
    format!(
        "{lead}: it may lie at {param} = {}{nowhere}; whether {a} beats {b}{each} (or falls behind) is within noise \
         at {param} = {}",
        list(&crossing.possible),
        list(&crossing.undecided)
    )
}

/// A key that sorts as the number does (finite or infinite, not NaN).
fn ordered(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
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
