//! Value clauses: a measured level, ratio or difference against a stated
//! number (`A / B on M ≈ 2.3`), with its unit converted to the metric's.

use super::ClaimError;
use super::{CellRuns, Judge, Scale};
use crate::claims::lang::{self, Clause, Term};
use crate::claims::stats::{self};
use crate::claims::{combine_all, Drawn, Evidence, Judgement, Point, RunIds, ShownUnit, Side, Stat, StatKind, Verdict};
use crate::metric::format_number;
use crate::query::Pivot;
use crate::syntax::Op;

/// What a value clause found: an estimate per point (with its label and
/// where it was read), and the points it could not judge — named and
/// holding no run, or where one series of the term ran and another did not.
struct Found {
    estimates: Vec<(stats::Estimate, String, Drawn)>,
    missing: Vec<String>,
    lacking: Vec<String>,
}

/// Where an aggregate's value was read: every point's sweeps; the runs of
/// the point it was found at (`max`, `min`), or of every point it folds.
fn aggregate_drawn(estimates: &[(stats::Estimate, String, Drawn)], at: Option<usize>) -> Drawn {
    let mut sweeps: Vec<String> = estimates.iter().flat_map(|e| e.2.sweeps.iter().cloned()).collect();
    sweeps.sort();
    sweeps.dedup();
    let runs = match at {
        Some(i) => estimates[i].2.runs.clone(),
        None => estimates.iter().fold(RunIds::default(), |all, e| all.union(&e.2.runs)),
    };
    Drawn { sweeps, runs }
}

impl Judge<'_, '_> {
    pub(super) fn value(
        &self,
        clause: &Clause,
        v: &lang::ValueClaim,
        metric: &str,
        param: Option<&str>,
        margin: f64,
    ) -> std::result::Result<Judgement, ClaimError> {
        let q = v.quantifier.as_ref();
        Self::aggregate_has_points(clause, v, metric)?;
        let Some(pivot) = self.pivot(clause, metric, param)? else {
            return Ok(combine_all(&[]));
        };
        // The pooled noise is a relative one (of logs): a signed metric's
        // values have no such noise, and a single run then has none.
        let pooled = if crate::metric::is_signed(metric) { None } else { self.pooled_log_sd(&pivot) };
        let series: Vec<String> =
            v.term.series().iter().map(|n| self.series_name(n)).collect::<std::result::Result<_, _>>()?;
        self.single_point(clause, &pivot, q, &series)?;
        let scale = self.unit_scale(v, metric)?;
        let (target, upper) = (v.target * scale, v.upper.map(|u| u * scale));
        let name = match &v.term {
            Term::Level(_) => self.shown(&series[0]),
            Term::Ratio(..) => format!("{} / {}", self.shown(&series[0]), self.shown(&series[1])),
            Term::Difference(..) => format!("{} - {}", self.shown(&series[0]), self.shown(&series[1])),
        };
        let mut found = Found { estimates: Vec::new(), missing: Self::named_missing(&pivot, q), lacking: Vec::new() };
        if let (Some(vs), Some(q)) = (&v.versus, q) {
            self.versus_estimates(&pivot, vs, q, &series[0], pooled, &mut found);
        } else {
            self.point_estimates(&pivot, &v.term, q, &series, pooled, &mut found);
        }
        let Found { estimates, missing, lacking } = found;
        let stated = Side::stated("stated", target);
        // `≈`/`=` without `within` on a ratio use the metric's margin too:
        // the same δ as `matches`.
        let point = |est: &stats::Estimate, label: String, drawn: Drawn| {
            let check = stats::check_value(est, v.op, target, upper, margin);
            let stat = Stat {
                of: StatKind::Value,
                estimate: est.estimate(),
                interval: check.interval,
                level: check.level,
                margin: matches!(v.op, Op::Approx | Op::Eq).then_some(margin),
                band: check.band,
                corrected: None,
                repeated: !est.single_run,
            };
            let mut p = Point::from_check(
                label,
                Side {
                    name: name.clone(),
                    value: est.value,
                    runs: est.runs,
                    sweeps: drawn.sweeps.clone(),
                    run_ids: drawn.runs,
                },
                stated.clone(),
                check.outcome,
                est.single_run,
                drawn.sweeps,
                Some(stat),
            );
            p.lead = check.lead;
            if let (Op::In, Some(hi)) = (v.op, upper) {
                // The stated side of a range is the bound the value broke,
                // or inside the range the nearer one: the relative
                // difference says by how much; the band (`must lie in`)
                // says the range.
                let upper = est.value > hi || (est.value >= target && hi - est.value < est.value - target);
                let (word, bound) = if upper { ("upper", hi) } else { ("lower", target) };
                p.b.name = format!("the {word} bound");
                p.b.value = bound;
            }
            p
        };
        let j = if let Some(agg) = v.aggregate {
            let folded: Vec<stats::Estimate> = estimates.iter().map(|e| e.0).collect();
            match stats::aggregate(&folded, agg) {
                None => combine_all(&[]),
                Some((est, at)) => {
                    let label = at.map(|i| estimates[i].1.clone()).unwrap_or_default();
                    combine_all(&[point(&est, label, aggregate_drawn(&estimates, at))])
                }
            }
        } else {
            let points: Vec<Point> = estimates.iter().map(|(e, l, d)| point(e, l.clone(), d.clone())).collect();
            Self::fold(&points, q)
        };
        let (missing, gaps) = Self::weigh_lacking(&j, missing, lacking);
        let mut j = self.settle(j, clause, &pivot, q, missing, gaps, &series);
        if j.verdict == Verdict::Contradicted && v.unit.is_none() {
            j.evidence.hint = self.unit_hint(metric, &j, target);
        }
        Ok(j)
    }

    /// An aggregate (`max(…)`) folds points: it must say which.
    fn aggregate_has_points(clause: &Clause, v: &lang::ValueClaim, metric: &str) -> Result<(), ClaimError> {
        let (Some(agg), None) = (v.aggregate, &v.quantifier) else { return Ok(()) };
        let agg = agg.as_str();
        Err(ClaimError {
            offset: clause.offset,
            msg: format!(
                "`{agg}(…)` needs the points it ranges over: add `for all PARAM` inside it, \
                 e.g. `{agg}(A on {metric} for all concurrency)`"
            ),
        })
    }

    /// One series at two points of a param: the quantifier's point against
    /// the other one (`A on M at c = 8 / at c = 1 > 3`).
    fn versus_estimates(
        &self,
        pivot: &Pivot,
        vs: &lang::Versus,
        q: &lang::Quantifier,
        series: &str,
        pooled: Option<f64>,
        found: &mut Found,
    ) {
        let other = lang::Quantifier { points: lang::PointSet::Cmp(Op::Eq, vs.at.clone()), ..q.clone() };
        found.missing.extend(Self::named_missing(pivot, Some(&other)));
        let top = Self::rows(pivot, Some(q)).into_iter().next();
        let bottom = Self::rows(pivot, Some(&other)).into_iter().next();
        let (Some((r1, k1)), Some((r2, k2))) = (top, bottom) else { return };
        let (l1, l2) = (Self::label(pivot, k1), Self::label(pivot, k2));
        let scale = if vs.ratio { Scale::Log } else { Scale::Raw };
        match self.pair(pivot, (r1, series), (r2, series), scale) {
            (Some(c1), Some(c2)) => {
                let known = [self.logged_se(pivot, &c1, scale), self.logged_se(pivot, &c2, scale)];
                let est = if vs.ratio {
                    stats::estimate_ratio_known(&c1.values, &c2.values, pooled, known)
                } else {
                    stats::estimate_difference_known(&c1.values, &c2.values, pooled, known)
                };
                let label = format!("{l1} {} {l2}", if vs.ratio { "/" } else { "-" });
                match est {
                    Ok(est) => {
                        let drawn = Drawn { sweeps: Self::dates(&[&c1, &c2]), runs: Self::run_ids(&[&c1, &c2]) };
                        found.estimates.push((est, label, drawn));
                    }
                    Err(e) => found.missing.push(format!("no estimate of {label}: {e}")),
                }
            }
            (c1, _) => {
                let (row, at) = if c1.is_none() { (r1, l1) } else { (r2, l2) };
                found.missing.push(self.lacking(pivot, row, &[series], &format!(" at {at}")));
            }
        }
    }

    /// The term's estimate at each point of the quantifier (or the one
    /// pooled point of a clause without one).
    fn point_estimates(
        &self,
        pivot: &Pivot,
        term: &Term,
        q: Option<&lang::Quantifier>,
        series: &[String],
        pooled: Option<f64>,
        found: &mut Found,
    ) {
        let scale = match term {
            Term::Difference(..) => Scale::Raw,
            Term::Level(_) => Self::level_scale(pivot),
            Term::Ratio(..) => Scale::Log,
        };
        for (row, key) in Self::rows(pivot, q) {
            let cells: Vec<Option<CellRuns>> = match series {
                [a, b] => {
                    let (ca, cb) = self.pair(pivot, (row, a), (row, b), scale);
                    vec![ca, cb]
                }
                _ => series.iter().map(|s| self.one(pivot, row, s, scale)).collect(),
            };
            let lacking: Vec<&str> =
                series.iter().zip(&cells).filter(|(_, c)| c.is_none()).map(|(s, _)| s.as_str()).collect();
            let cells: Option<Vec<CellRuns>> = cells.into_iter().collect();
            let Some(cells) = cells else {
                // A point of a range no series of the term ran at belongs
                // to other series: not the clause's, and not said. One a
                // side ran at and another did not, or that the claim names,
                // is a point it could not judge.
                if !Self::names_points(q) && !series.iter().any(|s| Self::ran(pivot, row, s)) {
                    continue;
                }
                let label = Self::label(pivot, key);
                let at = if label.is_empty() { String::new() } else { format!(" at {label}") };
                let list = if Self::names_points(q) { &mut found.missing } else { &mut found.lacking };
                list.push(self.lacking(pivot, row, &lacking, &at));
                continue;
            };
            // The standard error each run logged beside the metric is the
            // known spread of its value, as in a comparison (said in the
            // evidence where used).
            let known: Vec<Option<f64>> = cells.iter().map(|c| self.logged_se(pivot, c, scale)).collect();
            let pair = [known[0], known.get(1).copied().flatten()];
            let est = match term {
                Term::Level(_) if scale == Scale::Raw => {
                    stats::estimate_level_raw(&cells[0].values, pooled).map(|e| stats::with_known(e, known[0]))
                }
                Term::Level(_) => {
                    stats::estimate_level(&cells[0].values, pooled).map(|e| stats::with_known(e, known[0]))
                }
                Term::Ratio(..) => stats::estimate_ratio_known(&cells[0].values, &cells[1].values, pooled, pair),
                Term::Difference(..) => {
                    stats::estimate_difference_known(&cells[0].values, &cells[1].values, pooled, pair)
                }
            };
            let est = match est {
                Ok(est) => est,
                Err(e) => {
                    let label = Self::label(pivot, key);
                    let at = if label.is_empty() { String::new() } else { format!(" at {label}") };
                    self.not_judged(format!("no estimate{at}: {e}"));
                    continue;
                }
            };
            let refs: Vec<&CellRuns> = cells.iter().collect();
            let drawn = Drawn { sweeps: Self::dates(&refs), runs: Self::run_ids(&refs) };
            found.estimates.push((est, Self::label(pivot, key), drawn));
        }
    }

    /// The factor that turns the number a value clause states (in the unit
    /// written) into the metric's stored unit; 1 without a unit. A unit on
    /// a ratio, on a metric without a known unit, or of another dimension
    /// is an error naming both units; `%` is read by [`Self::percent_scale`].
    pub(super) fn unit_scale(&self, v: &lang::ValueClaim, metric: &str) -> std::result::Result<f64, ClaimError> {
        let Some(unit) = &v.unit else { return Ok(1.0) };
        let err = |msg: String| ClaimError { offset: unit.offset, msg };
        let ratio = matches!(v.term, Term::Ratio(..)) || v.versus.as_ref().is_some_and(|vs| vs.ratio);
        let stored = self.dataset.metric_info(metric).ok().and_then(|m| m.unit.clone());
        if unit.text == lang::PERCENT {
            return self.percent_scale(ratio, metric, stored.as_deref()).map_err(err);
        }
        if ratio {
            return Err(err(format!("a ratio has no unit: drop `{}`", unit.text)));
        }
        let written = crate::metric::unit_scale(&unit.text);
        let Some(stored) = stored else {
            let counted = crate::metric::rate_of(metric);
            if counted.is_some_and(|c| names_the_rate(&unit.text, c)) {
                // `≈ 400000 ops/s` of `ops_per_sec`: the name's own rate.
                return Ok(1.0);
            }
            if let (Some(counted), Some(("time", _))) = (counted, written) {
                return Err(err(format!(
                    "`{}` is a time, but `{metric}` is a rate (its name says per second) with no stored unit: \
                     write the number in {} per second without a unit, or set `unit` under [metrics.{metric}] \
                     in reckon.toml",
                    unit.text,
                    if counted.is_empty() { "things" } else { counted }
                )));
            }
            return Err(err(format!(
                "`{metric}` has no stored unit to convert `{}` to; write the number in the metric's own unit \
                    without `{}`, or set `unit` under [metrics.{metric}] in reckon.toml",
                unit.text, unit.text
            )));
        };
        if unit.text == stored {
            // A unit reckon does not know (`ops/s`) converts to itself only.
            return Ok(1.0);
        }
        match (written, crate::metric::unit_scale(&stored)) {
            (Some((dw, fw)), Some((ds, fs))) if dw == ds => Ok(fw / fs),
            _ => {
                Err(err(format!("`{}` cannot be converted to `{stored}`, the unit `{metric}` is stored in", unit.text)))
            }
        }
    }

    /// What `N%` stated as a value means for `metric`: N itself where the
    /// metric is logged in percent (stored unit `%`); N/100 where it is a
    /// fraction — its name says so (a coefficient of variation, a noise, a
    /// utilization, a rate, …, [`crate::metric::is_fraction_by_name`]) and
    /// every value of it lies in 0..1, as lint reads `77%` of such a metric. Anywhere else the meaning
    /// is unclear (a percent of seconds? a fraction or a percent?), and the
    /// error says what to write instead.
    fn percent_scale(&self, ratio: bool, metric: &str, stored: Option<&str>) -> Result<f64, String> {
        if ratio {
            return Err("a ratio is written as a number (`≈ 1.05`, `> 2x`), not a percentage; for a relative \
                        change write `A cuts B on M by at least 5%` or `A within 5% of B on M`"
                .to_string());
        }
        match stored {
            Some(u) if u == lang::PERCENT => return Ok(1.0),
            Some(u) => {
                return Err(format!(
                    "`{metric}` is stored in {u}, so `%` names no amount of it: write the bound in {u} (`< 0.5 {u}`), \
                     or compare with another series (`A within 5% of B on {metric}`, `A cuts B on {metric} by at \
                     least 5%`)"
                ))
            }
            None => {}
        }
        let fraction = crate::metric::is_fraction_by_name(metric);
        let (mut seen, mut within) = (f64::NEG_INFINITY, true);
        for (_, x) in self.dataset.values(metric).map_err(|e| e.to_string())? {
            seen = seen.max(x);
            within &= (0.0..=1.0).contains(&x);
        }
        if fraction && within && seen.is_finite() {
            return Ok(0.01);
        }
        let why = if fraction && seen.is_finite() {
            format!("its values reach {}, so it may be logged in percent", format_number(seen))
        } else if fraction {
            "it has no values to tell a fraction from a percent".to_string()
        } else {
            "its name does not say it is a fraction".to_string()
        };
        Err(format!(
            "`%` on `{metric}` is unclear ({why}): write the number as `{metric}` is logged (`< 0.05` for a \
             fraction, `< 5` for a percent), or set `unit = \"%\"` under [metrics.{metric}] in reckon.toml when \
             it is logged in percent"
        ))
    }

    /// The unit a clause's evidence shows the metric's values in (see
    /// [`ShownUnit`]): the unit its number was written in, else one that
    /// reads the values where the stored unit does not. None for what is
    /// no value of the metric: a ratio, a crossover's param value.
    pub(super) fn shown_unit(&self, body: &lang::Body, metric: &str, ev: &Evidence) -> Option<ShownUnit> {
        let stored = self.dataset.metric_info(metric).ok()?.unit.clone()?;
        match body {
            lang::Body::Crossover(_) => return None,
            lang::Body::Value(v) => {
                let ratio = matches!(v.term, Term::Ratio(..)) || v.versus.as_ref().is_some_and(|vs| vs.ratio);
                if ratio {
                    return None;
                }
                let written = v.unit.as_ref().filter(|u| u.text != lang::PERCENT);
                if let Some(u) = written.and_then(|u| ShownUnit::written(&u.text, &stored)) {
                    return Some(u);
                }
            }
            _ => {}
        }
        let values = ev.example.iter().chain(&ev.breakdown).flat_map(|ex| [ex.first.value, ex.second.value]);
        ShownUnit::readable(&stored, values)
    }

    /// For a contradicted value stated without a unit: a hint when the
    /// measured value is about 1000× (or 1/1000×) the stated one and the
    /// metric has a time unit, the usual slip between ms, µs and s.
    pub(super) fn unit_hint(&self, metric: &str, j: &Judgement, target: f64) -> Option<String> {
        let stored = self.dataset.metric_info(metric).ok()?.unit.clone()?;
        let (dim, fs) = crate::metric::unit_scale(&stored)?;
        let measured = j.evidence.example.as_ref()?.first.value;
        let factor = measured / target;
        if dim != "time" || !factor.is_finite() || factor <= 0.0 {
            return None;
        }
        // The slips of a thousand: units of a second or less, each size once.
        let mut sizes = Vec::new();
        for (unit, f) in crate::metric::units_of("time").filter(|(_, f)| *f <= 1.0) {
            if sizes.contains(&f) {
                continue;
            }
            sizes.push(f);
            let implied = f / fs;
            if unit != stored && (factor / implied - 1.0).abs() < 0.5 {
                return Some(format!(
                    "`{metric}` is stored in {stored}: did you mean `{} {unit}`?",
                    format_number(target)
                ));
            }
        }
        None
    }
}

/// Whether a unit written in a claim is the rate a metric's name counts
/// per second (`ops/s` for `ops_per_sec`, whose last word before the
/// ending is `ops`).
fn names_the_rate(unit: &str, counted: &str) -> bool {
    let last = counted.rsplit(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
    unit.split_once('/')
        .is_some_and(|(top, per)| !last.is_empty() && top.eq_ignore_ascii_case(last) && matches!(per, "s" | "sec"))
}
