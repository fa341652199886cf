//! Value clauses' statistics: an estimate of a level, ratio or difference
//! with its interval, checked against a stated number (`≈`, `>`, a range),
//! and folded over points by an aggregate (`max(…)`).

use serde::Serialize;

use super::{compare_known, log_sample, median, t_quantile, welch_df, Interval, StatsError};
use crate::metric::Direction;
use crate::syntax::Op;

/// A number derived from the data (a cell value, a ratio or difference of
/// two cells, an aggregate of those) with what the tests need to judge it.
///
/// Levels and ratios are estimated on the log scale (their `center` is a
/// mean of logs: the geometric mean of a cell, the ratio of two geometric
/// means), differences on the raw scale (a difference of means). The
/// standard error and degrees of freedom are those of one series' t
/// interval (n − 1) or of Welch's test (two series), as for a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct Estimate {
    /// The value shown to readers (medians of the cells involved).
    pub value: f64,
    /// Whether `center` and `se` are on the log scale.
    pub log: bool,
    /// What the test is centred on: a mean of logs, or a mean.
    pub center: f64,
    /// Standard error of `center` (0 when nothing is known about the
    /// noise: single runs and no repeats of the metric anywhere).
    pub se: f64,
    /// Degrees of freedom behind the t quantiles (infinite: normal).
    pub df: f64,
    /// Fewest runs behind any cell involved.
    pub runs: usize,
    /// Some cell involved had a single run.
    pub single_run: bool,
}

impl Estimate {
    /// The point estimate in the metric's units: the geometric mean (or
    /// ratio of geometric means) for a log-scale estimate, the difference of
    /// means otherwise.
    pub(crate) fn estimate(&self) -> f64 {
        if self.log {
            self.center.exp()
        } else {
            self.center
        }
    }

    /// The two-sided `level` interval of the estimate, in the metric's
    /// units.
    pub(crate) fn interval(&self, level: f64) -> Interval {
        let half = if self.se > 0.0 { t_quantile(level, self.df) * self.se } else { 0.0 };
        let i = Interval::around(self.center, half);
        if self.log {
            i.exp()
        } else {
            i
        }
    }

    /// The 95% interval (the tests compare it with scipy's).
    #[cfg(test)]
    pub(crate) fn ci95(&self) -> Interval {
        self.interval(0.95)
    }
}

/// The estimate of one cell: the mean of the logs of its runs with the t
/// standard error s/√n (n − 1 degrees of freedom); a single run takes
/// `pooled_log_sd` as a known sd (normal quantiles), else has none.
pub(crate) fn estimate_level(xs: &[f64], pooled_log_sd: Option<f64>) -> Result<Estimate, StatsError> {
    let s = log_sample(xs)?;
    let pooled = pooled_log_sd.filter(|p| p.is_finite() && *p > 0.0);
    let (sd, df) = match (s.var, pooled) {
        (Some(v), _) => (v.sqrt(), (s.n - 1) as f64),
        (None, Some(p)) => (p, f64::INFINITY),
        (None, None) => (0.0, f64::INFINITY),
    };
    Ok(Estimate {
        value: median(xs),
        log: true,
        center: s.mean,
        se: sd / (s.n as f64).sqrt(),
        df,
        runs: s.n,
        single_run: s.n < 2,
    })
}

/// The estimate of one cell on the raw scale, for a metric whose 0 is a
/// measurement (an error rate): the mean of its runs with the t standard
/// error s/√n (n − 1 degrees of freedom); a single run borrows
/// `pooled_log_sd` scaled to its value (a log sd is a relative sd), else
/// has none.
pub(crate) fn estimate_level_raw(xs: &[f64], pooled_log_sd: Option<f64>) -> Result<Estimate, StatsError> {
    if let Some(&x) = xs.iter().find(|x| !x.is_finite()) {
        return Err(StatsError::NotFinite(x));
    }
    if xs.is_empty() {
        return Err(StatsError::Empty);
    }
    let n = xs.len();
    let mean = xs.iter().sum::<f64>() / n as f64;
    let pooled = pooled_log_sd.filter(|p| p.is_finite() && *p > 0.0);
    let (sd, df) = if n >= 2 {
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        (var.sqrt(), (n - 1) as f64)
    } else {
        (pooled.map_or(0.0, |p| p * mean.abs()), f64::INFINITY)
    };
    Ok(Estimate {
        value: median(xs),
        log: false,
        center: mean,
        se: sd / (n as f64).sqrt(),
        df,
        runs: n,
        single_run: n < 2,
    })
}

/// The estimate of A/B (literal, whatever the metric's direction): the
/// difference of the log means with Welch's standard error and degrees of
/// freedom, exactly as [`compare`] computes d.
#[cfg(test)]
pub(crate) fn estimate_ratio(a: &[f64], b: &[f64], pooled_log_sd: Option<f64>) -> Result<Estimate, StatsError> {
    estimate_ratio_known(a, b, pooled_log_sd, [None, None])
}

/// [`estimate_ratio`] with each side's known (logged) log standard error,
/// exactly as [`compare_known`] takes it for a comparison.
pub(crate) fn estimate_ratio_known(
    a: &[f64],
    b: &[f64],
    pooled_log_sd: Option<f64>,
    known_log_se: [Option<f64>; 2],
) -> Result<Estimate, StatsError> {
    let c = compare_known(a, b, Direction::Higher, 0.0, pooled_log_sd, known_log_se)?;
    Ok(Estimate {
        value: c.a_value / c.b_value,
        log: true,
        center: c.d,
        se: c.se,
        df: c.df,
        runs: c.n_a.min(c.n_b),
        single_run: c.single_run,
    })
}

/// The estimate of A − B: the difference of means with Welch's standard
/// error on the raw values. A single-run side borrows its sd from
/// `pooled_log_sd` scaled to the side's value (a log sd is a relative sd).
pub(crate) fn estimate_difference(a: &[f64], b: &[f64], pooled_log_sd: Option<f64>) -> Result<Estimate, StatsError> {
    estimate_difference_known(a, b, pooled_log_sd, [None, None])
}

/// [`estimate_difference`] with each side's known (logged) standard error
/// in the metric's units, taken as [`compare_known`] takes it: a single run's
/// whole spread, added to the spread of the mean of repeats (whose degrees
/// of freedom are kept only where their part is the larger).
pub(crate) fn estimate_difference_known(
    a: &[f64],
    b: &[f64],
    pooled_log_sd: Option<f64>,
    known_se: [Option<f64>; 2],
) -> Result<Estimate, StatsError> {
    for &x in a.iter().chain(b) {
        if !x.is_finite() {
            return Err(StatsError::NotFinite(x));
        }
    }
    if a.is_empty() || b.is_empty() {
        return Err(StatsError::Empty);
    }
    let pooled = pooled_log_sd.filter(|p| p.is_finite() && *p > 0.0);
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    let term = |xs: &[f64], known: Option<f64>| -> Option<(f64, Option<usize>)> {
        let n = xs.len();
        let known = known.filter(|k| k.is_finite() && *k >= 0.0);
        if n >= 2 {
            let m = mean(xs);
            let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1) as f64;
            let own = var / n as f64;
            match known {
                Some(logged) => Some((own + logged * logged, (own > logged * logged).then_some(n - 1))),
                None => Some((own, Some(n - 1))),
            }
        } else if let Some(logged) = known {
            Some((logged * logged, None))
        } else {
            pooled.map(|p| ((p * median(xs)).powi(2) / n as f64, None))
        }
    };
    let terms: Vec<(f64, Option<usize>)> = [term(a, known_se[0]), term(b, known_se[1])].into_iter().flatten().collect();
    Ok(Estimate {
        value: median(a) - median(b),
        log: false,
        center: mean(a) - mean(b),
        se: terms.iter().map(|t| t.0).sum::<f64>().sqrt(),
        df: welch_df(&terms),
        runs: a.len().min(b.len()),
        single_run: a.len() < 2 || b.len() < 2,
    })
}

/// A one-cell estimate ([`estimate_level`], [`estimate_level_raw`]) with the
/// standard error its runs logged beside the metric (`known`, on the
/// estimate's scale) as the known spread of the value, as
/// [`compare_known`] takes it for a side of a comparison: a single run's
/// whole spread (normal quantiles), added to repeats' own spread of the
/// mean, which keeps its degrees of freedom only where it is the larger
/// part. Without one the estimate is unchanged.
pub(crate) fn with_known(est: Estimate, known: Option<f64>) -> Estimate {
    let Some(k) = known.filter(|k| k.is_finite() && *k >= 0.0) else { return est };
    if est.single_run {
        return Estimate { se: k, df: f64::INFINITY, ..est };
    }
    let own = est.se * est.se;
    Estimate { se: (own + k * k).sqrt(), df: if own > k * k { est.df } else { f64::INFINITY }, ..est }
}

/// What the data say about one point of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PointOutcome {
    Holds,
    Contradicted,
    Inconclusive,
}

/// A value check with the numbers it was decided on, for the evidence.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct ValueCheck {
    pub outcome: PointOutcome,
    /// The interval that decided it, in the metric's units, at `level`.
    pub interval: Interval,
    pub level: f64,
    /// The accepted band of `≈`/`=`/`in` (None for `<`, `>`, …).
    pub band: Option<Interval>,
    /// How far the estimate lies inside what the operator allows, on the
    /// scale the test reads (logs for a log-scale estimate), negative
    /// outside: the distance to the bound, or to the band's nearer end.
    pub lead: f64,
}

/// The accepted band of `≈ target` within `tolerance` (a fraction): on the
/// log scale (levels and ratios) the factor band [target/(1+δ),
/// target·(1+δ)], the same ±ln(1+δ) as `matches`; on the raw scale
/// (differences) target ± δ·|target|.
pub(crate) fn approx_band(est: &Estimate, target: f64, tolerance: f64) -> Interval {
    if est.log && target > 0.0 {
        let f = 1.0 + tolerance.abs();
        Interval { lo: target / f, hi: target * f }
    } else {
        Interval::around(target, tolerance.abs() * target.abs())
    }
}

/// Judges `estimate op target` (`upper`: the end of an `in lo..hi` range).
///
/// `≈`, `=` and `in` are the equivalence rule of `matches` (TOST at 5% per
/// side): holds when the 90% interval lies inside the band, contradicted
/// when the 95% interval lies wholly outside it, inconclusive otherwise.
/// `>`/`<` hold when the 95% interval lies beyond the target and are
/// contradicted when it lies wholly on the other side; `>=`/`<=` hold when
/// the 90% interval does (one-sided at 5%, as `matches or beats`). On the
/// log scale the intervals are those of the geometric mean. With a single
/// run and no noise estimate every interval is the estimate itself.
pub(crate) fn check_value(est: &Estimate, op: Op, target: f64, upper: Option<f64>, tolerance: f64) -> ValueCheck {
    let (i90, i95) = (est.interval(0.90), est.interval(0.95));
    let decide = |holds: bool, contradicted: bool| {
        if holds {
            PointOutcome::Holds
        } else if contradicted {
            PointOutcome::Contradicted
        } else {
            PointOutcome::Inconclusive
        }
    };
    // A number on the scale of the test's centre (a non-positive one lies
    // below every log).
    let scaled = |x: f64| match (est.log, x > 0.0) {
        (false, _) => x,
        (true, true) => x.ln(),
        (true, false) => f64::NEG_INFINITY,
    };
    let c = est.center;
    let banded = |band: Interval| ValueCheck {
        outcome: decide(i90.lo >= band.lo && i90.hi <= band.hi, i95.hi < band.lo || i95.lo > band.hi),
        interval: i90,
        level: 0.90,
        band: Some(band),
        lead: (c - scaled(band.lo)).min(scaled(band.hi) - c),
    };
    let one_sided = |outcome, level, lead| ValueCheck {
        outcome,
        interval: if level == 0.90 { i90 } else { i95 },
        level,
        band: None,
        lead,
    };
    let (above, below) = (c - scaled(target), scaled(target) - c);
    match op {
        Op::Approx | Op::Eq => banded(approx_band(est, target, tolerance)),
        // No statement says it, but the meaning is plain: `≈` turned over.
        Op::Ne => {
            let approx = banded(approx_band(est, target, tolerance));
            let outcome = match approx.outcome {
                PointOutcome::Holds => PointOutcome::Contradicted,
                PointOutcome::Contradicted => PointOutcome::Holds,
                PointOutcome::Inconclusive => PointOutcome::Inconclusive,
            };
            ValueCheck { outcome, lead: -approx.lead, ..approx }
        }
        Op::In => {
            let hi = upper.unwrap_or(target);
            banded(Interval { lo: target.min(hi), hi: target.max(hi) })
        }
        Op::Gt => one_sided(decide(i95.lo > target, i95.hi < target), 0.95, above),
        Op::Lt => one_sided(decide(i95.hi < target, i95.lo > target), 0.95, below),
        Op::Ge => one_sided(decide(i90.lo >= target, i95.hi < target), 0.90, above),
        Op::Le => one_sided(decide(i90.hi <= target, i95.lo > target), 0.90, below),
    }
}

/// How the estimates of several points fold into one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Aggregate {
    Max,
    Min,
    Mean,
    Median,
}

impl Aggregate {
    /// The name written in a claim.
    pub fn as_str(self) -> &'static str {
        match self {
            Aggregate::Max => "max",
            Aggregate::Min => "min",
            Aggregate::Mean => "mean",
            Aggregate::Median => "median",
        }
    }
}

/// Folds the per-point estimates of a range into one, keeping the index of
/// the point it came from for `max`/`min` (the point named in evidence).
/// `max`/`min` take the point with the extreme value and its uncertainty;
/// `mean` averages values, centres and standard errors (as if the points'
/// errors were fully correlated: wider than independent errors would give,
/// so it errs towards inconclusive, never towards a false verdict) with the
/// fewest degrees of freedom; `median` takes the middle point (the mean of
/// the two middle points for an even count). `None` when `points` is empty.
pub(crate) fn aggregate(points: &[Estimate], agg: Aggregate) -> Option<(Estimate, Option<usize>)> {
    if points.is_empty() {
        return None;
    }
    let pick = |better: fn(f64, f64) -> bool| {
        let mut best = 0;
        for (i, p) in points.iter().enumerate() {
            if better(p.value, points[best].value) {
                best = i;
            }
        }
        (points[best], Some(best))
    };
    let average = |ps: &[&Estimate]| {
        let k = ps.len() as f64;
        Estimate {
            value: ps.iter().map(|p| p.value).sum::<f64>() / k,
            log: ps.iter().all(|p| p.log),
            center: ps.iter().map(|p| p.center).sum::<f64>() / k,
            se: ps.iter().map(|p| p.se).sum::<f64>() / k,
            df: ps.iter().map(|p| p.df).fold(f64::INFINITY, f64::min),
            runs: ps.iter().map(|p| p.runs).min().unwrap_or(0),
            single_run: ps.iter().any(|p| p.single_run),
        }
    };
    Some(match agg {
        Aggregate::Max => pick(|v, best| v > best),
        Aggregate::Min => pick(|v, best| v < best),
        Aggregate::Mean => (average(&points.iter().collect::<Vec<_>>()), None),
        Aggregate::Median => {
            let mut order: Vec<usize> = (0..points.len()).collect();
            order.sort_by(|&i, &j| points[i].value.total_cmp(&points[j].value));
            let n = order.len();
            if n % 2 == 1 {
                (points[order[n / 2]], Some(order[n / 2]))
            } else {
                (average(&[&points[order[n / 2 - 1]], &points[order[n / 2]]]), None)
            }
        }
    })
}

#[cfg(test)]
mod known_tests {
    use super::*;

    /// lm-eval's `truthfulqa_mc1`: acc 0.268, `acc_stderr` 0.0155 (relative on
    /// the log scale), one run: the 90% normal interval.
    #[test]
    fn a_logged_error_is_a_single_runs_whole_spread() {
        let est = estimate_level(&[0.268], None).unwrap();
        assert_eq!(est.se, 0.0);
        let known = with_known(est, Some(0.0155 / 0.268));
        assert!(known.df.is_infinite());
        let i = known.interval(0.90);
        assert!((i.lo - 0.2437).abs() < 5e-4 && (i.hi - 0.2947).abs() < 5e-4, "{i:?}");
        let check = check_value(&known, Op::In, 0.265, Some(0.27), 0.0);
        assert_eq!(check.outcome, PointOutcome::Inconclusive);
        // Without one, the single-run rule: the point itself.
        assert_eq!(check_value(&est, Op::In, 0.265, Some(0.27), 0.0).outcome, PointOutcome::Holds);
    }

    /// Repeats add their own spread of the mean to the logged error, which
    /// they do not shrink; their degrees of freedom only where theirs is
    /// the larger part.
    #[test]
    fn repeats_add_their_spread_to_the_logged_one() {
        let est = estimate_level_raw(&[-0.05, -0.04], None).unwrap();
        let own = est.se;
        let small = with_known(est, Some(own / 10.0));
        assert!((small.se - own.hypot(own / 10.0)).abs() < 1e-15 && small.df == 1.0);
        let large = with_known(est, Some(own * 10.0));
        assert!(large.df.is_infinite() && large.se > own * 10.0);
        assert_eq!(with_known(est, None), est);
    }

    #[test]
    fn a_difference_takes_each_sides_logged_error() {
        let d = estimate_difference_known(&[1.56], &[0.0], None, [Some(1.04), None]).unwrap();
        assert!((d.se - 1.04).abs() < 1e-12 && d.df.is_infinite());
        assert_eq!(check_value(&d, Op::Gt, 0.0, None, 0.0).outcome, PointOutcome::Inconclusive);
        let r = estimate_ratio_known(&[0.5], &[0.4], None, [Some(0.04), Some(0.05)]).unwrap();
        assert!((r.se - 0.04f64.hypot(0.05)).abs() < 1e-12);
    }
}
