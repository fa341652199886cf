//! The statistics behind every verdict, computed here and nowhere else:
//! log ratios between two series, Welch intervals, the beats / matches /
//! not-worse tests against a practical margin, Holm's correction across the
//! points of a claim, and the "≈ X within P%" check.
//!
//! Everything works on the log scale: d = ln(A/B) is symmetric (A 10% ahead
//! of B and B 10% behind A are the same size), noise in benchmark numbers is
//! roughly multiplicative, and a margin δ becomes the fixed threshold
//! ln(1+δ).
//!
//! The rules (DESIGN.md "Claims", made exact):
//! - Per side, the runs of one cell are summarised by the mean and sample
//!   variance of their logs. d is the difference of the log means, signed so
//!   that positive means A is better for the metric's direction.
//! - Two or more runs per side: Welch's standard error and
//!   Welch–Satterthwaite degrees of freedom, Student t quantiles.
//! - A side with a single run has no variance of its own. When the caller
//!   knows the per-run log standard deviation of the metric from repeated
//!   runs elsewhere (`pooled_log_sd`), that side's variance is taken as
//!   known (it adds nothing to the Satterthwaite denominator; with both
//!   sides single the interval is normal). Without it the interval collapses
//!   to the point d and the decision rests on d alone. Either way the
//!   comparison is marked `single_run`. This is the "one run per side: beats
//!   when d > ln(1+δ), widened by the spread seen in repeated runs" rule.
//! - Better (A beats B): the 95% interval of d lies above ln(1+δ).
//!   Worse (B beats A): the 95% interval lies below −ln(1+δ).
//!   Equivalent (A matches B): the 90% interval lies inside ±ln(1+δ)
//!   (two one-sided tests at 5% each, TOST).
//!   Not worse (A matches or beats B): the 90% interval lies above
//!   −ln(1+δ) (one-sided non-inferiority at 5%, the same level as each half
//!   of TOST, so that "matches" and "beats" both imply "not worse").
//! - Each of those rules is also expressed as a p-value scaled so that the
//!   rule fires exactly when p ≤ 0.05 ([`ALPHA`]): for the 95%-interval rules
//!   p is twice the one-sided p-value, for TOST the larger of its two
//!   one-sided p-values, for non-inferiority the one-sided p-value. Over
//!   several points those p-values are folded by [`fold`]: uncorrected
//!   where a verdict needs every point (an intersection–union test), by
//!   Holm's step-down procedure ([`holm`]) where it rests on any one; with a
//!   single point both are the interval rules above.

mod fold;
mod spread;
mod step;
mod value;

pub(crate) use fold::{decided_level, fold, Folded, Quantifier};
pub(crate) use spread::{logged_log_se, logged_raw_se, pooled_log_sd};
pub(crate) use step::step_bound;
#[cfg(test)]
pub(crate) use value::estimate_ratio;

pub(crate) use value::{
    aggregate, check_value, estimate_difference, estimate_difference_known, estimate_level, estimate_level_raw,
    estimate_ratio_known, with_known, Aggregate, Estimate, PointOutcome,
};

use crate::metric::Direction;
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// The family-wise error rate for every decision: a per-point rule fires
/// when its scaled p-value is at most this, and Holm's procedure keeps the
/// whole claim at this level.
pub(crate) const ALPHA: f64 = 0.05;

/// Power aimed at when estimating how many runs would decide a comparison.
const POWER: f64 = 0.8;

/// Beyond this many runs per side a comparison is called undecidable in
/// practice and no estimate is given.
const MAX_RUNS_ESTIMATE: f64 = 1000.0;

/// Why a set of samples cannot be compared on the log scale.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum StatsError {
    #[error("no runs to compare")]
    Empty,
    #[error("value {0} is not a finite positive number (ratios need positive values)")]
    NotPositive(f64),
    #[error("value {0} is not a finite number")]
    NotFinite(f64),
}

/// A closed interval `[lo, hi]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    /// An interval `centre ± half`.
    pub fn around(centre: f64, half: f64) -> Interval {
        Interval { lo: centre - half, hi: centre + half }
    }

    /// The interval mapped through `exp` (log scale → ratio scale).
    #[must_use]
    pub fn exp(self) -> Interval {
        Interval { lo: self.lo.exp(), hi: self.hi.exp() }
    }
}

/// What the data say about one comparison of A with B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Outcome {
    /// A beats B beyond the margin (95% interval above ln(1+δ)).
    Better,
    /// B beats A beyond the margin (95% interval below −ln(1+δ)).
    Worse,
    /// A and B match within the margin (90% interval inside ±ln(1+δ)).
    Equivalent,
    /// None of the above: within noise, or too few runs.
    Inconclusive,
}

/// The relation a claim asserts between A and B at one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Test {
    /// A beats B by more than the margin.
    Beats,
    /// A and B are equal within the margin.
    Matches,
    /// A is not worse than B beyond the margin.
    MatchesOrBeats,
}

/// One comparison of A's runs with B's runs at one point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Comparison {
    /// ln(A/B) from the means of the logs, positive when A is better.
    pub d: f64,
    /// Standard error of `d` (0 when nothing is known about the noise).
    pub se: f64,
    /// Degrees of freedom of the t distribution behind the intervals;
    /// infinite when every variance is known (normal quantiles).
    pub df: f64,
    /// 95% interval of `d`.
    pub ci95: Interval,
    /// 90% interval of `d`.
    pub ci90: Interval,
    /// The practical margin δ as a fraction (0.02 = 2%).
    pub margin: f64,
    /// What the intervals say.
    pub outcome: Outcome,
    /// A side had a single run: the verdict rests on single runs.
    pub single_run: bool,
    /// When inconclusive: roughly how many more runs per side would decide
    /// it (see [`runs_needed`]); `None` when decided or when nothing is known
    /// about the noise.
    pub runs_needed: Option<u32>,
    /// +1 when higher is better (d = ln(A/B)), −1 when lower is (d =
    /// ln(B/A)): how to turn d and its intervals back into A/B.
    pub sign: f64,
    /// The per-run log sd behind the power estimate: pooled over both
    /// sides' own repeats, else the one known from elsewhere.
    pub per_run_sd: Option<f64>,
    /// Runs of A and of B.
    pub n_a: usize,
    pub n_b: usize,
    /// The cell values shown to readers: the medians of A's and B's runs.
    pub a_value: f64,
    pub b_value: f64,
    /// The literal relative difference of the medians, A/B − 1 (+0.101 is
    /// A 10.1% above B, whatever the metric's direction).
    pub rel_diff: f64,
}

/// What an interval of a comparison's d is made of, to draw it at any
/// level (the level a corrected decision used).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Spread {
    pub d: f64,
    pub se: f64,
    pub df: f64,
    /// +1 when d = ln(A/B), −1 when d = ln(B/A) (lower is better).
    pub sign: f64,
}

impl Spread {
    /// The two-sided `level` interval of A/B (literal, whatever the
    /// metric's direction).
    pub(crate) fn ratio_interval(&self, level: f64) -> Interval {
        let half = if self.se > 0.0 { t_quantile(level, self.df) * self.se } else { 0.0 };
        let i = Interval::around(self.d, half);
        let (lo, hi) = if self.sign < 0.0 { (-i.hi, -i.lo) } else { (i.lo, i.hi) };
        Interval { lo: lo.exp(), hi: hi.exp() }
    }
}

/// Mean and sample variance of the logs of one side.
struct LogSample {
    n: usize,
    mean: f64,
    /// Sample variance of the logs, `None` with a single run.
    var: Option<f64>,
}

fn log_sample(xs: &[f64]) -> Result<LogSample, StatsError> {
    if xs.is_empty() {
        return Err(StatsError::Empty);
    }
    let mut logs = Vec::with_capacity(xs.len());
    for &x in xs {
        if !x.is_finite() || x <= 0.0 {
            return Err(StatsError::NotPositive(x));
        }
        logs.push(x.ln());
    }
    let n = logs.len();
    let mean = logs.iter().sum::<f64>() / n as f64;
    let var = (n >= 2).then(|| logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1) as f64);
    Ok(LogSample { n, mean, var })
}

/// Whether a logged value is a measurement the statistics can use: on the
/// log scale (levels, ratios, every comparison) a finite positive number,
/// on the raw scale (differences) any finite one. Zero throughput is what
/// vLLM logs for every metric of a run whose requests all failed: not a
/// measurement of the system but of its failure, and no ratio can be taken
/// of it. Such a run is left out of the statistics by the judge, which
/// says so in the evidence; it is never silently dropped.
pub(crate) fn measurable(x: f64, log_scale: bool) -> bool {
    x.is_finite() && (!log_scale || x > 0.0)
}

/// The median of finite samples (the cell value): the same median a table
/// cell shows.
pub(crate) use crate::query::median;

/// The two-sided quantile: the `q` with P(|T| ≤ q) = `level` for a t
/// distribution with `df` degrees of freedom (normal when `df` is infinite
/// or huge). `t_quantile(0.95, 4.0)` = 2.776.
pub(crate) fn t_quantile(level: f64, df: f64) -> f64 {
    let p = 0.5 + level / 2.0;
    match student(df) {
        Some(t) => t.inverse_cdf(p),
        None => standard_normal().inverse_cdf(p),
    }
}

/// P(T ≤ x) for a t distribution with `df` degrees of freedom (normal when
/// `df` is infinite or huge).
pub(crate) fn t_cdf(x: f64, df: f64) -> f64 {
    match student(df) {
        Some(t) => t.cdf(x),
        None => standard_normal().cdf(x),
    }
}

fn student(df: f64) -> Option<StudentsT> {
    if df.is_finite() && df < 1e7 {
        StudentsT::new(0.0, 1.0, df).ok()
    } else {
        None
    }
}

fn standard_normal() -> Normal {
    // Mean 0 and sd 1 are always valid parameters.
    Normal::standard()
}

fn z(p: f64) -> f64 {
    standard_normal().inverse_cdf(p)
}

/// Welch–Satterthwaite degrees of freedom for two variance terms
/// `v = s²/n` with `n − 1` degrees of freedom each; a term with `None`
/// degrees of freedom is a known variance and contributes nothing to the
/// denominator. Infinite when every term is known.
pub(crate) fn welch_df(terms: &[(f64, Option<usize>)]) -> f64 {
    let total: f64 = terms.iter().map(|t| t.0).sum();
    let denom: f64 = terms.iter().filter_map(|&(v, dof)| dof.map(|k| v * v / k as f64)).sum();
    if denom > 0.0 {
        total * total / denom
    } else {
        f64::INFINITY
    }
}

/// Compares A's runs with B's runs for a metric whose better direction is
/// `direction` (`Neutral` compares literally, as `Higher`), against the
/// practical margin `margin` (a fraction: 0.02 = 2%). `pooled_log_sd` is
/// the per-run standard deviation of ln(metric) seen in repeated runs
/// elsewhere, used for a side that has a single run.
pub(crate) fn compare(
    a: &[f64],
    b: &[f64],
    direction: Direction,
    margin: f64,
    pooled_log_sd: Option<f64>,
) -> Result<Comparison, StatsError> {
    compare_known(a, b, direction, margin, pooled_log_sd, [None, None])
}

/// [`compare`] where a side's runs logged the standard error of their
/// value (lm-eval's `acc_stderr`): `known_log_se` holds it per side on the
/// log scale (se / value), the variance of that side taken as known, before
/// any pooled sd. It is the noise of the benchmark's sample (of questions),
/// which repeats of the same sample do not average away: a side with
/// repeats adds their own variance of the mean to it, and is read with
/// their degrees of freedom only where that part is the larger. No number
/// of runs is suggested where a known standard error was used.
pub(crate) fn compare_known(
    a: &[f64],
    b: &[f64],
    direction: Direction,
    margin: f64,
    pooled_log_sd: Option<f64>,
    known_log_se: [Option<f64>; 2],
) -> Result<Comparison, StatsError> {
    let sa = log_sample(a)?;
    let sb = log_sample(b)?;
    let sign = if direction == Direction::Lower { -1.0 } else { 1.0 };
    let d = sign * (sa.mean - sb.mean);
    let pooled = pooled_log_sd.filter(|s| s.is_finite() && *s > 0.0);

    // Each side's variance term s²/n and its degrees of freedom (None when
    // the variance is taken as known, logged or from the pooled sd).
    let term = |side: &LogSample, known: Option<f64>| -> Option<(f64, Option<usize>)> {
        match (side.var, known.filter(|s| s.is_finite() && *s >= 0.0)) {
            (Some(v), Some(se)) => {
                let own = v / side.n as f64;
                Some((own + se * se, (own > se * se).then_some(side.n - 1)))
            }
            (Some(v), None) => Some((v / side.n as f64, Some(side.n - 1))),
            (None, Some(se)) => Some((se * se, None)),
            (None, None) => pooled.map(|p| (p * p / side.n as f64, None)),
        }
    };
    let single_run = sa.n < 2 || sb.n < 2;
    let terms: Vec<(f64, Option<usize>)> =
        [term(&sa, known_log_se[0]), term(&sb, known_log_se[1])].into_iter().flatten().collect();
    let var_d: f64 = terms.iter().map(|t| t.0).sum();
    let se = var_d.sqrt();
    let df = welch_df(&terms);
    let (ci95, ci90) = if se > 0.0 {
        (Interval::around(d, t_quantile(0.95, df) * se), Interval::around(d, t_quantile(0.90, df) * se))
    } else {
        (Interval::around(d, 0.0), Interval::around(d, 0.0))
    };
    let log_margin = (1.0 + margin).ln();
    let outcome = if ci95.lo > log_margin {
        Outcome::Better
    } else if ci95.hi < -log_margin {
        Outcome::Worse
    } else if ci90.lo > -log_margin && ci90.hi < log_margin {
        Outcome::Equivalent
    } else {
        Outcome::Inconclusive
    };

    // The per-run log sd behind the power estimate: pooled over both sides'
    // own repeats where they exist, else the sd known from elsewhere.
    let per_run_sd = {
        let dof: usize = [&sa, &sb].iter().filter(|s| s.var.is_some()).map(|s| s.n - 1).sum();
        let ss: f64 = [&sa, &sb].iter().filter_map(|s| s.var.map(|v| v * (s.n - 1) as f64)).sum();
        if dof > 0 {
            Some((ss / dof as f64).sqrt())
        } else {
            pooled
        }
    };
    // A known standard error (of a sample of questions) is not narrowed by
    // more runs of it: no number of runs is suggested.
    let known = known_log_se.iter().any(|k| k.is_some_and(|s| s.is_finite() && s > 0.0));
    let per_run_sd = per_run_sd.filter(|_| !known);
    let runs_needed = match (outcome, per_run_sd) {
        (Outcome::Inconclusive, Some(s)) => runs_needed(d, s, log_margin, sa.n.min(sb.n)),
        _ => None,
    };
    let (a_value, b_value) = (median(a), median(b));
    Ok(Comparison {
        d,
        se,
        df,
        ci95,
        ci90,
        margin,
        outcome,
        single_run,
        runs_needed,
        sign,
        per_run_sd,
        n_a: sa.n,
        n_b: sb.n,
        a_value,
        b_value,
        rel_diff: a_value / b_value - 1.0,
    })
}

/// Roughly how many more runs per side would decide an inconclusive
/// comparison, by the usual normal power approximation for two samples of
/// equal size n with per-run log sd `s`:
///
///   n ≈ `2·(z_α` + `z_β)²·s²` / Δ²
///
/// where β = 0.2 (80% power) and Δ is the distance from d to the threshold
/// it would have to clear: |d| − ln(1+δ) with `z_α` = z₀.₉₇₅ = 1.96 when |d|
/// is beyond the margin (to show better or worse), ln(1+δ) − |d| with
/// `z_α` = z₀.₉₅ = 1.645 when it is inside (to show equivalence). The result
/// is n minus the runs already there (at least 1); `None` when d sits on the
/// threshold or the estimate exceeds 1000 runs (no practical number decides
/// it).
pub(crate) fn runs_needed(d: f64, per_run_sd: f64, log_margin: f64, runs_now: usize) -> Option<u32> {
    let (distance, z_alpha) =
        if d.abs() > log_margin { (d.abs() - log_margin, z(0.975)) } else { (log_margin - d.abs(), z(0.95)) };
    runs_for_distance(distance, z_alpha, per_run_sd, runs_now)
}

/// n ≈ `2·(z_α` + `z_β)²·s²/Δ²`, minus the runs already there (at least 1);
/// `None` when Δ is not positive or the estimate exceeds 1000 runs.
fn runs_for_distance(distance: f64, z_alpha: f64, per_run_sd: f64, runs_now: usize) -> Option<u32> {
    if distance <= 0.0 || !per_run_sd.is_finite() {
        return None;
    }
    let n = 2.0 * (z_alpha + z(POWER)).powi(2) * per_run_sd.powi(2) / distance.powi(2);
    if !n.is_finite() || n > MAX_RUNS_ESTIMATE {
        return None;
    }
    let more = n.ceil() - runs_now as f64;
    // Between 1 and MAX_RUNS_ESTIMATE, a whole number: the cast is exact.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some(more.max(1.0) as u32)
}

/// One-sided p-value of H₁: d > `threshold`.
fn p_above(c: &Comparison, threshold: f64) -> f64 {
    if c.se > 0.0 {
        1.0 - t_cdf((c.d - threshold) / c.se, c.df)
    } else if c.d > threshold {
        0.0
    } else {
        1.0
    }
}

/// One-sided p-value of H₁: d < `threshold`.
fn p_below(c: &Comparison, threshold: f64) -> f64 {
    if c.se > 0.0 {
        t_cdf((c.d - threshold) / c.se, c.df)
    } else if c.d < threshold {
        0.0
    } else {
        1.0
    }
}

impl Comparison {
    /// What its intervals are made of.
    pub(crate) fn spread(&self) -> Spread {
        Spread { d: self.d, se: self.se, df: self.df, sign: self.sign }
    }

    /// The estimate of A/B (literal, whatever the metric's direction).
    pub(crate) fn ratio(&self) -> f64 {
        (self.sign * self.d).exp()
    }

    /// Whether no number of runs can make `test` hold: `beats` with the
    /// estimated difference inside the margin (more runs only narrow the
    /// interval around a d that is too small).
    pub(crate) fn beyond_reach(&self, test: Test) -> bool {
        test == Test::Beats && self.d.abs() <= self.log_margin()
    }

    /// Roughly how many more runs per side would decide `test` either way
    /// (see [`runs_needed`]): the distance is from d to the threshold the
    /// interval has to clear for the verdict the point estimate points to.
    /// `None` when decided already, when beyond reach, or when nothing is
    /// known about the noise.
    pub(crate) fn runs_needed_for(&self, test: Test) -> Option<u32> {
        if self.holds(test) || self.contradicts(test) || self.beyond_reach(test) {
            return None;
        }
        let (m, d, s) = (self.log_margin(), self.d, self.per_run_sd?);
        let (distance, z_alpha) = match test {
            Test::Matches if d.abs() < m => (m - d.abs(), z(0.95)),
            Test::Beats | Test::Matches => (d.abs() - m, z(0.975)),
            Test::MatchesOrBeats if d > -m => (d + m, z(0.95)),
            Test::MatchesOrBeats => (-m - d, z(0.975)),
        };
        runs_for_distance(distance, z_alpha, s, self.n_a.min(self.n_b))
    }

    /// ln(1+δ).
    pub(crate) fn log_margin(&self) -> f64 {
        (1.0 + self.margin).ln()
    }

    /// Scaled p-value for "A beats B": ≤ [`ALPHA`] exactly when the 95%
    /// interval lies above ln(1+δ).
    pub(crate) fn p_better(&self) -> f64 {
        (2.0 * p_above(self, self.log_margin())).min(1.0)
    }

    /// Scaled p-value for "B beats A": ≤ [`ALPHA`] exactly when the 95%
    /// interval lies below −ln(1+δ).
    pub(crate) fn p_worse(&self) -> f64 {
        (2.0 * p_below(self, -self.log_margin())).min(1.0)
    }

    /// TOST p-value for "A matches B": ≤ [`ALPHA`] exactly when the 90%
    /// interval lies inside ±ln(1+δ).
    pub(crate) fn p_equivalent(&self) -> f64 {
        let m = self.log_margin();
        p_above(self, -m).max(p_below(self, m))
    }

    /// One-sided p-value for "A is not worse than B beyond the margin":
    /// ≤ [`ALPHA`] exactly when the 90% interval lies above −ln(1+δ).
    pub(crate) fn p_not_worse(&self) -> f64 {
        p_above(self, -self.log_margin())
    }

    /// One-sided p-value for "A is not better than B beyond the margin":
    /// ≤ [`ALPHA`] exactly when the 90% interval lies below ln(1+δ) — the
    /// mirror of [`Comparison::p_not_worse`], the rule of a `<=`.
    pub(crate) fn p_not_better(&self) -> f64 {
        p_below(self, self.log_margin())
    }

    /// Whether the data show, at [`ALPHA`], that A does not beat B beyond
    /// the margin (a match, or A behind): what a crossover needs below
    /// the point it names.
    pub(crate) fn not_better(&self) -> bool {
        self.p_not_better() <= ALPHA
    }

    /// The p-value supporting `test`.
    pub(crate) fn p_holds(&self, test: Test) -> f64 {
        match test {
            Test::Beats => self.p_better(),
            Test::Matches => self.p_equivalent(),
            Test::MatchesOrBeats => self.p_not_worse(),
        }
    }

    /// The p-value for the opposite of `test` beyond noise:
    /// - beats: B beats A (a mere match, or A ahead by less than δ, only
    ///   fails to confirm the claim: inconclusive, not contradicted);
    /// - matches: either side beats the other;
    /// - matches or beats: B beats A.
    pub(crate) fn p_contradicts(&self, test: Test) -> f64 {
        match test {
            Test::Beats | Test::MatchesOrBeats => self.p_worse(),
            Test::Matches => self.p_better().min(self.p_worse()),
        }
    }

    /// Whether this single comparison supports `test` at [`ALPHA`].
    pub(crate) fn holds(&self, test: Test) -> bool {
        self.p_holds(test) <= ALPHA
    }

    /// Whether this single comparison shows the opposite of `test` at
    /// [`ALPHA`].
    pub(crate) fn contradicts(&self, test: Test) -> bool {
        !self.holds(test) && self.p_contradicts(test) <= ALPHA
    }
}

/// Holm's step-down procedure: which of the hypotheses behind `p_values`
/// are rejected with family-wise error rate `alpha`. Sorted ascending, the
/// i-th smallest p (0-based) is compared with α/(m − i); rejection stops at
/// the first that fails. NaN p-values are never rejected.
pub(crate) fn holm(p_values: &[f64], alpha: f64) -> Vec<bool> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    // Stable sort keeps ties in input order: deterministic.
    order.sort_by(|&i, &j| p_values[i].total_cmp(&p_values[j]));
    let mut rejected = vec![false; m];
    for (rank, &i) in order.iter().enumerate() {
        let p = p_values[i];
        if p.is_nan() || p > alpha / (m - rank) as f64 {
            break;
        }
        rejected[i] = true;
    }
    rejected
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::Op;

    // Output throughput runs of the 2026-11-29 sweep, copied from
    // notebooks/logs/2026-11-29/{eagle-topk1-v2,baseline}.jsonl
    // (the `output_throughput` of the three lines with max_concurrency 30).
    const TOPK1_C30: [f64; 3] = [753.5356, 759.3, 765.5786];
    const BASE_C30: [f64; 3] = [685.2673, 689.4, 692.6957];
    const TOPK1_C2: [f64; 3] = [174.6301, 176.1, 177.2536];
    const BASE_C2: [f64; 3] = [173.7167, 175.0, 176.2774];
    const TOPK1_C150: [f64; 3] = [765.032, 771.0, 777.555];
    const BASE_C150: [f64; 3] = [761.6323, 765.2, 768.6732];

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn t_quantiles_match_tables() {
        // scipy.stats.t.ppf(0.975, 4) = 2.7764451051977934,
        // t.ppf(0.95, 4) = 2.1318467863266495, t.ppf(0.975, 10) =
        // 2.228138851986274, norm.ppf(0.975) = 1.959963984540054.
        assert!(close(t_quantile(0.95, 4.0), 2.7764451051977934, 1e-9));
        assert!(close(t_quantile(0.90, 4.0), 2.1318467863266495, 1e-9));
        assert!(close(t_quantile(0.95, 10.0), 2.228138851986274, 1e-9));
        assert!(close(t_quantile(0.95, f64::INFINITY), 1.959963984540054, 1e-9));
        // scipy.stats.t.cdf(1.5, 3) = 0.8847080673775886.
        assert!(close(t_cdf(1.5, 3.0), 0.8847080673775886, 1e-9));
    }

    #[test]
    fn welch_on_logs_matches_scipy() {
        // scipy: ttest_ind(log(TOPK1_C30), log(BASE_C30), equal_var=False)
        //   statistic 17.544372378377606, df 3.527661799788676,
        //   confidence_interval(0.95) = (0.08096597033634978, 0.11342314602752623),
        //   confidence_interval(0.90) = (0.08491494516951346, 0.10947417119436255);
        //   mean log difference 0.097194558181938.
        let c = compare(&TOPK1_C30, &BASE_C30, Direction::Higher, 0.02, None).unwrap();
        assert!(close(c.d, 0.097194558181938, 1e-12));
        assert!(close(c.df, 3.527661799788676, 1e-9));
        assert!(close(c.d / c.se, 17.544372378377606, 1e-6));
        assert!(close(c.ci95.lo, 0.08096597033634978, 1e-9));
        assert!(close(c.ci95.hi, 0.11342314602752623, 1e-9));
        assert!(close(c.ci90.lo, 0.08491494516951346, 1e-9));
        assert!(close(c.ci90.hi, 0.10947417119436255, 1e-9));
        assert_eq!(c.outcome, Outcome::Better);
        assert!(!c.single_run);
        assert_eq!((c.n_a, c.n_b), (3, 3));
        // The medians readers see, and 759.3 / 689.4 − 1 = 0.10139…
        assert_eq!((c.a_value, c.b_value), (759.3, 689.4));
        assert!(close(c.rel_diff, 759.3 / 689.4 - 1.0, 1e-12));
        assert!(close(c.rel_diff, 0.1014, 1e-4));
        assert_eq!(c.runs_needed, None);
    }

    #[test]
    fn direction_flips_the_sign() {
        // The same numbers read as latencies: A being larger is worse.
        let c = compare(&TOPK1_C30, &BASE_C30, Direction::Lower, 0.02, None).unwrap();
        assert!(close(c.d, -0.097194558181938, 1e-12));
        assert_eq!(c.outcome, Outcome::Worse);
        assert!(c.contradicts(Test::Beats));
        // The literal relative difference does not flip.
        assert!(c.rel_diff > 0.0);
    }

    #[test]
    fn tost_equivalence_at_c2() {
        // scipy: ttest_ind(log(a)+ln1.02, log(b), equal_var=False,
        // alternative='greater').pvalue = 0.006748974339421548 and
        // ttest_ind(log(a)-ln1.02, log(b), alternative='less').pvalue =
        // 0.03974799771292715; 90% interval (-0.007198167512491348,
        // 0.01855339262495158), inside ±ln(1.02) = ±0.0198026.
        let c = compare(&TOPK1_C2, &BASE_C2, Direction::Higher, 0.02, None).unwrap();
        assert!(close(c.ci90.lo, -0.007198167512491348, 1e-9));
        assert!(close(c.ci90.hi, 0.01855339262495158, 1e-9));
        assert!(close(c.p_equivalent(), 0.03974799771292715, 1e-9));
        assert!(close(c.p_not_worse(), 0.006748974339421548, 1e-9));
        assert_eq!(c.outcome, Outcome::Equivalent);
        assert!(c.holds(Test::Matches));
        assert!(c.holds(Test::MatchesOrBeats));
        assert!(!c.holds(Test::Beats));
        assert!(!c.contradicts(Test::Beats), "a match only fails to confirm `beats`");
    }

    #[test]
    fn tost_fails_just_outside_at_c150() {
        // scipy: the upper one-sided TOST p-value at C=150 is
        // 0.054124564741015554 > 0.05: the 90% interval pokes past
        // ln(1.02), so the point is inconclusive for `matches`, yet clearly
        // not worse (p 0.006293926924504878).
        let c = compare(&TOPK1_C150, &BASE_C150, Direction::Higher, 0.02, None).unwrap();
        assert!(close(c.p_equivalent(), 0.054124564741015554, 1e-9));
        assert!(close(c.p_not_worse(), 0.006293926924504878, 1e-9));
        assert_eq!(c.outcome, Outcome::Inconclusive);
        assert!(c.holds(Test::MatchesOrBeats));
        // Pooled per-run log sd over both sides, distance to the
        // equivalence edge ln(1.02) − d; n = 2·(1.645+0.842)²·s²/Δ² is a
        // handful of runs, minus the 3 already there.
        let n = c.runs_needed.unwrap();
        assert!((1..=10).contains(&n), "runs needed {n}");
    }

    #[test]
    fn runs_needed_follows_the_power_formula() {
        // By hand: s = 0.01, d = 0.03, ln(1.02) = 0.0198026, Δ = 0.0101974;
        // n = 2·(1.959964 + 0.841621)²·0.0001 / 0.0101974² = 15.09 → 16,
        // minus 3 runs already there = 13.
        assert_eq!(runs_needed(0.03, 0.01, 1.02f64.ln(), 3), Some(13));
        // Exactly on the threshold: nothing decides it.
        assert_eq!(runs_needed(1.02f64.ln(), 0.01, 1.02f64.ln(), 3), None);
        // Far beyond 1000 runs: no estimate.
        assert_eq!(runs_needed(0.0199, 0.05, 1.02f64.ln(), 3), None);
    }

    #[test]
    fn single_runs_decide_on_d_alone_without_a_pooled_sd() {
        // 2026-11-20 sweep, one run each (notebooks/logs/
        // 2026-11-20/*.log): C=30 baseline 641.8 vs eagle-topk4-v1 329.5.
        let c = compare(&[641.8], &[329.5], Direction::Higher, 0.02, None).unwrap();
        assert!(c.single_run);
        assert_eq!(c.se, 0.0);
        assert!(close(c.d, (641.8f64 / 329.5).ln(), 1e-12));
        assert_eq!(c.outcome, Outcome::Better);
        assert_eq!(c.p_better(), 0.0);
        // C=1: 96.0 vs 93.1 is 3.1% > 2%: beats on single runs …
        let c1 = compare(&[96.0], &[93.1], Direction::Higher, 0.02, None).unwrap();
        assert_eq!(c1.outcome, Outcome::Better);
        assert_eq!(c1.runs_needed, None);
    }

    #[test]
    fn a_pooled_sd_widens_single_run_decisions() {
        // … but with a per-run log sd of 0.005 known from repeats, the
        // normal interval is d ± 1.96·0.005·√2 = d ± 0.01386, and
        // d = ln(96/93.1) = 0.030675 gives lo = 0.01682 < ln(1.02): not
        // beyond the margin any more, and not worse either.
        let c = compare(&[96.0], &[93.1], Direction::Higher, 0.02, Some(0.005)).unwrap();
        assert!(c.df.is_infinite());
        assert!(close(c.se, 0.005 * 2f64.sqrt(), 1e-12));
        assert!(close(c.ci95.lo, (96.0f64 / 93.1).ln() - 1.959963984540054 * 0.005 * 2f64.sqrt(), 1e-9));
        assert_eq!(c.outcome, Outcome::Inconclusive);
        assert!(c.single_run);
        assert!(c.runs_needed.is_some());
    }

    #[test]
    fn one_side_single_borrows_the_pooled_sd() {
        // A has three runs (df 2), B one run with known sd: Satterthwaite
        // df = (va + vb)² / (va²/2) where vb contributes no denominator term.
        let c = compare(&TOPK1_C30, &[689.4], Direction::Higher, 0.02, Some(0.005)).unwrap();
        let logs: Vec<f64> = TOPK1_C30.iter().map(|x| x.ln()).collect();
        let mean = logs.iter().sum::<f64>() / 3.0;
        let va = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / 2.0 / 3.0;
        let vb = 0.005f64.powi(2);
        assert!(close(c.df, (va + vb).powi(2) / (va * va / 2.0), 1e-9));
        assert!(c.single_run);
        assert_eq!(c.outcome, Outcome::Better);
    }

    #[test]
    fn bad_samples_are_errors() {
        assert_eq!(compare(&[], &[1.0], Direction::Higher, 0.02, None), Err(StatsError::Empty));
        assert_eq!(compare(&[0.0], &[1.0], Direction::Higher, 0.02, None), Err(StatsError::NotPositive(0.0)));
        assert!(matches!(compare(&[f64::NAN], &[1.0], Direction::Higher, 0.02, None), Err(StatsError::NotPositive(_))));
        assert_eq!(estimate_difference(&[1.0], &[f64::INFINITY], None), Err(StatsError::NotFinite(f64::INFINITY)));
    }

    #[test]
    fn holm_on_a_known_vector() {
        // By hand, α = 0.05, m = 4: sorted 0.005 ≤ 0.05/4 ✓, 0.01 ≤ 0.05/3 ✓,
        // 0.03 > 0.05/2 ✗ → stop; 0.04 is not rejected although 0.04 ≤ 0.05.
        assert_eq!(holm(&[0.01, 0.04, 0.03, 0.005], 0.05), vec![true, false, false, true]);
        // All small enough at every step.
        assert_eq!(holm(&[0.01, 0.02, 0.04], 0.05), vec![true, true, true]);
        // The first step already fails (0.03 > 0.05/2): nothing rejected,
        // although each p alone is below 0.05.
        assert_eq!(holm(&[0.04, 0.03], 0.05), vec![false, false]);
        assert_eq!(holm(&[f64::NAN, 0.001], 0.05), vec![false, true]);
        assert!(holm(&[], 0.05).is_empty());
    }

    #[test]
    fn level_estimate_of_a_cell() {
        // eagle-topk1-v2 at C=1, 2026-11-29: runs 86.3536, 86.8, 87.1442.
        // scipy (on x = log(runs)): mean 4.46320711133754 (geometric mean
        // 86.76532942954987), se = std(x, ddof=1)/√3 = 0.0026384777512195963;
        // exp(t.interval(0.90, 2, mean, se)) = (86.09943027097059,
        // 87.43637869990108); at 0.95: (85.78590004408325, 87.75594109462912).
        let e = estimate_level(&[86.3536, 86.8, 87.1442], None).unwrap();
        assert_eq!(e.value, 86.8);
        assert!(close(e.estimate(), 86.76532942954987, 1e-9));
        assert!(close(e.se, 0.0026384777512195963, 1e-12));
        assert!(close(e.interval(0.90).lo, 86.09943027097059, 1e-8));
        assert!(close(e.interval(0.90).hi, 87.43637869990108, 1e-8));
        assert!(close(e.ci95().lo, 85.78590004408325, 1e-8));
        assert!(close(e.ci95().hi, 87.75594109462912, 1e-8));
        let check = |op, target, tol| check_value(&e, op, target, None, tol).outcome;
        // ≈ 86.8 within 2%: the 90% interval lies inside [86.8/1.02,
        // 86.8·1.02] = [85.098, 88.536]. scipy's one-sample TOST on the logs
        // agrees: max(ttest_1samp(x, ln 86.8 − ln 1.02, alternative='greater'),
        // ttest_1samp(x, ln 86.8 + ln 1.02, alternative='less')).pvalue =
        // 0.008996787642165422 ≤ 0.05.
        assert_eq!(check(Op::Approx, 86.8, 0.02), PointOutcome::Holds);
        assert_eq!(check_value(&e, Op::Approx, 86.8, None, 0.02).band.unwrap().lo, 86.8 / 1.02);
        // ≈ 92.7 within 2%: the 95% interval lies wholly below 92.7/1.02.
        assert_eq!(check(Op::Approx, 92.7, 0.02), PointOutcome::Contradicted);
        // ≈ 88.5 within 1%: the band [87.624, 89.385] overlaps the 95%
        // interval's top but does not hold the 90% interval.
        assert_eq!(check(Op::Approx, 88.5, 0.01), PointOutcome::Inconclusive);
        // A range is the same rule with the band written out.
        assert_eq!(check_value(&e, Op::In, 86.0, Some(87.5), 0.0).outcome, PointOutcome::Holds);
        assert_eq!(check_value(&e, Op::In, 86.5, Some(87.0), 0.0).outcome, PointOutcome::Inconclusive);
        assert_eq!(check_value(&e, Op::In, 90.0, Some(95.0), 0.0).outcome, PointOutcome::Contradicted);
        assert_eq!(check(Op::Gt, 80.0, 0.0), PointOutcome::Holds);
        assert_eq!(check(Op::Gt, 90.0, 0.0), PointOutcome::Contradicted);
        assert_eq!(check(Op::Lt, 87.0, 0.0), PointOutcome::Inconclusive);
        assert_eq!(check(Op::Le, 90.0, 0.0), PointOutcome::Holds);
        assert_eq!(check(Op::Ge, 90.0, 0.0), PointOutcome::Contradicted);
    }

    #[test]
    fn ratio_and_difference_estimates() {
        // C=8, 2026-11-29: baseline 462.5 / eagle-topk4-v1 287.9 = 1.6065 (the
        // plan's "1.6x ahead"); ≈ 1.6 within 5% holds.
        let base = [459.9127, 462.5, 465.5624];
        let topk4 = [285.7511, 287.9, 289.4366];
        let r = estimate_ratio(&base, &topk4, None).unwrap();
        assert!(close(r.value, 462.5 / 287.9, 1e-12));
        assert!(r.ci95().lo < r.estimate() && r.estimate() < r.ci95().hi);
        assert_eq!(check_value(&r, Op::Approx, 1.6, None, 0.05).outcome, PointOutcome::Holds);
        assert_eq!(r.runs, 3);
        let d = estimate_difference(&base, &topk4, None).unwrap();
        assert!(close(d.value, 462.5 - 287.9, 1e-9));
        assert!(!d.log);
        assert_eq!(check_value(&d, Op::Gt, 100.0, None, 0.0).outcome, PointOutcome::Holds);
        // Single runs (2026-11-20, C=150): 773.0 / 336.1 = 2.2999 ≈ 2.3.
        let old = estimate_ratio(&[773.0], &[336.1], None).unwrap();
        assert!(close(old.value, 2.2999, 1e-4));
        assert!(old.single_run);
        assert_eq!(check_value(&old, Op::Approx, 2.3, None, 0.03).outcome, PointOutcome::Holds);
    }

    /// More runs with the same spread never weaken a verdict: with the same
    /// geometric mean and per-run sd, n + 1 runs decide at least what n
    /// runs decide (t_{q, n−1}/√n falls with n), for `≈`, `in`, `>` and `>=`.
    #[test]
    fn more_runs_never_weaken_a_verdict() {
        let checks = [
            (Op::Approx, 100.0, None, 0.02),
            (Op::In, 98.0, Some(102.0), 0.0),
            (Op::Gt, 99.0, None, 0.0),
            (Op::Ge, 101.0, None, 0.0),
        ];
        let mut decided_late = 0;
        for (op, target, upper, tol) in checks {
            for sd in [0.002, 0.01, 0.03] {
                for offset in [-0.05, -0.019, -0.01, 0.0, 0.012, 0.03] {
                    let mut last: Option<PointOutcome> = None;
                    for n in 2..40usize {
                        let e = Estimate {
                            value: 100f64 * f64::exp(offset),
                            log: true,
                            center: (100f64).ln() + offset,
                            se: sd / (n as f64).sqrt(),
                            df: (n - 1) as f64,
                            runs: n,
                            single_run: false,
                        };
                        let now = check_value(&e, op, target, upper, tol).outcome;
                        if let Some(prev) = last {
                            if prev != PointOutcome::Inconclusive {
                                assert_eq!(now, prev, "{op:?} sd {sd} offset {offset}: {prev:?} at {} runs", n - 1);
                            } else if now != PointOutcome::Inconclusive {
                                decided_late += 1;
                            }
                        }
                        last = Some(now);
                    }
                }
            }
        }
        // Some cells start undecided and are decided by more runs.
        assert!(decided_late > 10, "{decided_late}");
    }

    /// `≈` against a number is `matches` against a series whose runs all
    /// equal that number: one rule, one formula.
    #[test]
    fn approx_is_matches_against_a_constant() {
        for (a, target, tol) in [
            (&TOPK1_C2[..], 175.0, 0.02),
            (&TOPK1_C30[..], 700.0, 0.02),
            (&TOPK1_C150[..], 765.2, 0.02),
            (&BASE_C30[..], 689.4, 0.005),
            (&BASE_C150[..], 740.0, 0.03),
        ] {
            let e = estimate_level(a, None).unwrap();
            let by_value = check_value(&e, Op::Approx, target, None, tol).outcome;
            // A constant B: its variance is 0, Welch reduces to the one-sample t.
            let c = compare(a, &[target; 3], Direction::Higher, tol, None).unwrap();
            let by_matches = if c.holds(Test::Matches) {
                PointOutcome::Holds
            } else if c.contradicts(Test::Matches) {
                PointOutcome::Contradicted
            } else {
                PointOutcome::Inconclusive
            };
            assert_eq!(by_value, by_matches, "{a:?} ≈ {target} within {tol}");
        }
    }

    #[test]
    fn aggregates_pick_the_extreme_point() {
        let e = |v: f64| Estimate {
            value: v,
            log: true,
            center: f64::ln(v),
            se: 0.001,
            df: 2.0,
            runs: 3,
            single_run: false,
        };
        // eagle-topk4-v1 medians at C = 50..250 on 2026-11-29.
        let pts = [e(349.8), e(353.2), e(352.6), e(351.9), e(350.4)];
        let (max, at) = aggregate(&pts, Aggregate::Max).unwrap();
        assert_eq!((max.value, at), (353.2, Some(1)));
        let (min, at) = aggregate(&pts, Aggregate::Min).unwrap();
        assert_eq!((min.value, at), (349.8, Some(0)));
        let (med, at) = aggregate(&pts, Aggregate::Median).unwrap();
        assert_eq!((med.value, at), (351.9, Some(3)));
        let (mean, _) = aggregate(&pts, Aggregate::Mean).unwrap();
        assert!(close(mean.value, (349.8 + 353.2 + 352.6 + 351.9 + 350.4) / 5.0, 1e-9));
        assert!(close(mean.se, 0.001, 1e-12));
        // "plateaus at about 336": the new plateau is outside 336 ± 3%.
        assert_eq!(check_value(&max, Op::Approx, 336.0, None, 0.03).outcome, PointOutcome::Contradicted);
        assert!(aggregate(&[], Aggregate::Max).is_none());
        let (even, at) = aggregate(&pts[..4], Aggregate::Median).unwrap();
        assert!(close(even.value, f64::midpoint(351.9, 352.6), 1e-9));
        assert_eq!(at, None);
    }
}
