//! Claims: the conclusions an author wrote, stated in a small language
//! ([`lang`]), judged by the statistics in [`stats`], and folded here into a
//! [`Verdict`] with its [`Evidence`].
//!
//! How an evaluator uses this module, per clause of a parsed [`lang::Claim`]:
//! 1. resolve the metric (direction, margin δ: the clause's `within`, else
//!    the metric's default), the series A and B (`others` = every other value
//!    of the series dimension present at judging time), and the points of
//!    the clause's [`lang::Quantifier`] that the data hold;
//! 2. per point (and per B), call [`stats::compare`] (pairwise clauses) or
//!    the `estimate_*` functions and [`stats::check_value`] (value clauses)
//!    with the runs of each cell, and wrap the result in a [`Point`];
//! 3. fold the points with [`combine_all`] / [`combine_any`], and the
//!    clauses of an `and` with [`combine_and`].

mod evidence;
pub(crate) mod judge;
pub(crate) mod lang;
pub(crate) mod stats;
mod unit;

use std::fmt::Write as _;

use crate::metric::format_number;
use serde::Serialize;
use stats::{Comparison, Interval, PointOutcome, Test};

pub(crate) use evidence::{combine_all, combine_and, combine_any, no_data, settle, Evidence, Judgement};
pub(crate) use unit::ShownUnit;

/// What the data say about a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Holds,
    /// The data show the opposite beyond noise.
    Contradicted,
    /// The data cannot decide: within noise, or too few runs.
    Inconclusive,
    /// No data for the claim's series, metric or points.
    NoData,
}

impl Verdict {
    /// The word used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Contradicted => "contradicted",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NoData => "no data",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One side of a point: a series (or a target number) with its value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Side {
    /// Series name, or a description such as `target` for a number the
    /// claim states.
    pub name: String,
    /// The cell value (median of its runs) or the stated number.
    pub value: f64,
    /// Runs behind the value (0 for a stated number).
    pub runs: usize,
    /// The sweep dates of those runs (none for a stated number).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sweeps: Vec<String>,
    /// Which runs those are, for a reader to trace the value to its logs
    /// (the report links each comparison to them). Not serialized: the ids
    /// are the database's, not the data's.
    #[serde(skip)]
    pub run_ids: RunIds,
}

/// Runs by their ids in the store, ascending and distinct: the runs behind
/// one side of a comparison (a cell, or the cells a derived value reads).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunIds(Vec<i64>);

impl RunIds {
    pub(crate) fn new(ids: impl IntoIterator<Item = i64>) -> RunIds {
        let mut ids: Vec<i64> = ids.into_iter().collect();
        ids.sort_unstable();
        ids.dedup();
        RunIds(ids)
    }

    /// The runs of both.
    pub fn union(&self, other: &RunIds) -> RunIds {
        RunIds::new(self.0.iter().chain(&other.0).copied())
    }

    pub fn as_slice(&self) -> &[i64] {
        &self.0
    }
}

/// Where one side's value was read: the sweeps and the runs behind it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Drawn {
    pub sweeps: Vec<String>,
    pub runs: RunIds,
}

#[cfg(test)]
impl Drawn {
    /// Runs of one sweep, unnamed.
    pub(crate) fn of_sweep(date: &str) -> Drawn {
        Drawn { sweeps: vec![date.to_string()], runs: RunIds::default() }
    }
}

/// One judged point of a claim clause, ready to be folded into a verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Point {
    /// Where the point is, e.g. `concurrency=30` (empty for a claim about
    /// the whole data, such as an aggregate).
    pub label: String,
    /// The claim's A (or the derived value for value clauses).
    pub a: Side,
    /// The claim's B (or the stated number for value clauses).
    pub b: Side,
    /// Log ratio signed so that positive favours A for the metric's
    /// direction; decides which side a counterexample names first and how
    /// bad it is. 0 when not meaningful.
    pub d: f64,
    /// The point's outcome on its own (before Holm's correction).
    pub outcome: PointOutcome,
    /// Scaled p-value for the claimed relation (≤ α means the point holds
    /// on its own); 0 or 1 for decisions not made by a test.
    pub p_holds: f64,
    /// Scaled p-value for the opposite relation.
    pub p_contradicts: f64,
    pub single_run: bool,
    pub runs_needed: Option<u32>,
    /// Run times (e.g. sweep dates) of the runs behind the point.
    pub dates: Vec<String>,
    /// The numbers the point was decided on.
    pub stat: Option<Stat>,
    /// Why no number of runs can decide the point, when that is so.
    pub beyond_reach: Option<BeyondReach>,
    /// The comparison's test and what its intervals are made of (none for
    /// a value point), to show the interval a corrected decision used.
    #[serde(skip)]
    pub spread: Option<(Test, stats::Spread)>,
    /// How far the point's estimate lies inside what the claim allows, in
    /// the claim's orientation, on the scale its test reads (a log ratio,
    /// or the metric's units for a difference); negative outside. The one
    /// measure of closeness: the point closest to failing has the smallest
    /// lead, and of contradicted points the farthest past the bound has.
    #[serde(skip)]
    pub lead: f64,
}

/// An inconclusive `beats` point whose estimated difference lies inside
/// the margin: more runs only narrow the interval around it. Said in words
/// by the evidence, which knows how the point is shown.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct BeyondReach {
    /// The practical margin δ (a fraction).
    pub margin: f64,
    /// Whether `matches` holds at the point.
    pub matches_holds: bool,
}

/// The numbers a point was decided on, so that a reader can check them:
/// the estimate, the interval the rule looked at, and the margin or band
/// it had to clear.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stat {
    /// `ratio`: the estimate is first/second (ratio of geometric means,
    /// literal whatever the metric's direction); `value`: a number in the
    /// metric's units (geometric mean, ratio or difference of means).
    pub of: StatKind,
    pub estimate: f64,
    /// The interval the rule decided with, at `level` (0.9 or 0.95).
    pub interval: Interval,
    pub level: f64,
    /// The practical margin δ (a fraction) of a comparison or `≈`; 0 for a
    /// literal comparison between series.
    pub margin: Option<f64>,
    /// The band the interval must lie inside (`matches`, `≈`, `in`).
    pub band: Option<Interval>,
    /// The interval of the decision Holm's correction made, when the
    /// verdict rests on any one of several comparisons and this one's
    /// interval alone clears its rule: its level is stricter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrected: Option<Corrected>,
    /// Every cell behind the estimate had two or more runs: an interval of
    /// no width is runs that agree exactly, not a lack of repeats.
    #[serde(skip)]
    pub repeated: bool,
}

/// The interval a Holm-corrected decision used (see [`Stat::corrected`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Corrected {
    pub level: f64,
    pub interval: Interval,
    /// The comparisons corrected over.
    pub comparisons: usize,
}

/// What a [`Stat`] estimates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StatKind {
    Ratio,
    Value,
}

impl Stat {
    /// Why the interval has no width.
    fn no_width(&self) -> &'static str {
        if self.repeated {
            "no spread: the repeated runs logged the same value"
        } else {
            "no interval: single runs and no repeats to measure the noise"
        }
    }

    /// For humans: `95% interval +8.4% to +12%, margin 2%` (a ratio) or
    /// `estimate 3391, 90% interval 3350 to 3433, band 3323 to 3458` (a
    /// value, in `unit` when there is one).
    pub fn describe(&self, unit: Option<&ShownUnit>) -> String {
        let shown = |v: f64| unit::shown_in(v, unit);
        let level = format!("{}%", format_number(self.level * 100.0));
        match self.of {
            StatKind::Ratio => {
                let mut s = if self.interval.lo == self.interval.hi {
                    self.no_width().to_string()
                } else {
                    format!(
                        "{level} interval {} to {}",
                        percent(self.interval.lo - 1.0),
                        percent(self.interval.hi - 1.0)
                    )
                };
                if let Some(c) = self.corrected {
                    let _ = write!(
                        s,
                        " (Holm-corrected over {} comparisons: {}% interval {} to {})",
                        c.comparisons,
                        format_number(round_to(c.level * 100.0, 2)),
                        percent(c.interval.lo - 1.0),
                        percent(c.interval.hi - 1.0)
                    );
                }
                match self.margin {
                    Some(m) if m > 0.0 => {
                        let word = if self.band.is_some() { "equivalence margin ±" } else { "margin " };
                        let _ = write!(s, ", {word}{}%", format_number(round_to(m * 100.0, 3)));
                    }
                    Some(_) => s.push_str(", no practical margin (literal comparison)"),
                    None => {}
                }
                s
            }
            StatKind::Value => {
                let mut s = if self.interval.lo == self.interval.hi {
                    format!("estimate {}, {}", shown(self.estimate), self.no_width())
                } else {
                    format!(
                        "estimate {}, {level} interval {} to {}",
                        shown(self.estimate),
                        shown(self.interval.lo),
                        shown(self.interval.hi)
                    )
                };
                if let Some(b) = self.band {
                    let _ = write!(s, ", must lie in {} to {}", shown(b.lo), shown(b.hi));
                }
                s
            }
        }
    }
}

impl Point {
    /// A pairwise point from a [`Comparison`] of A with B under `test`.
    pub(crate) fn from_comparison(
        label: impl Into<String>,
        a: impl Into<String>,
        b: impl Into<String>,
        c: &Comparison,
        test: Test,
        [a_drawn, b_drawn]: [Drawn; 2],
    ) -> Point {
        let dates: std::collections::BTreeSet<&String> = a_drawn.sweeps.iter().chain(&b_drawn.sweeps).collect();
        let dates = dates.into_iter().cloned().collect();
        let outcome = if c.holds(test) {
            PointOutcome::Holds
        } else if c.contradicts(test) {
            PointOutcome::Contradicted
        } else {
            PointOutcome::Inconclusive
        };
        Point {
            label: label.into(),
            a: Side { name: a.into(), value: c.a_value, runs: c.n_a, sweeps: a_drawn.sweeps, run_ids: a_drawn.runs },
            b: Side { name: b.into(), value: c.b_value, runs: c.n_b, sweeps: b_drawn.sweeps, run_ids: b_drawn.runs },
            d: c.d,
            outcome,
            p_holds: c.p_holds(test),
            p_contradicts: c.p_contradicts(test),
            single_run: c.single_run,
            runs_needed: if outcome == PointOutcome::Inconclusive { c.runs_needed_for(test) } else { None },
            dates,
            stat: Some(comparison_stat(c, test, outcome)),
            beyond_reach: (outcome == PointOutcome::Inconclusive && c.beyond_reach(test))
                .then(|| BeyondReach { margin: c.margin, matches_holds: c.holds(Test::Matches) }),
            spread: Some((test, c.spread())),
            // `beats`, `matches or beats` and the literal comparisons: the
            // subject's lead; `matches`: the room left inside the band.
            lead: if test == Test::Matches { c.log_margin() - c.d.abs() } else { c.d },
        }
    }

    /// A value point: a derived number (`a`) checked against a stated one
    /// (`b`, runs 0) by [`stats::check_value`], whose outcome is final (no
    /// p-values: it is not corrected across points).
    pub(crate) fn from_check(
        label: impl Into<String>,
        a: Side,
        b: Side,
        outcome: PointOutcome,
        single_run: bool,
        dates: Vec<String>,
        stat: Option<Stat>,
    ) -> Point {
        // Never negative: a value point names the derived number first and
        // the stated one second, whichever is larger.
        let d = if a.value > 0.0 && b.value > 0.0 { (a.value / b.value).ln().abs() } else { 0.0 };
        let (p_holds, p_contradicts) = match outcome {
            PointOutcome::Holds => (0.0, 1.0),
            PointOutcome::Contradicted => (1.0, 0.0),
            PointOutcome::Inconclusive => (1.0, 1.0),
        };
        Point {
            label: label.into(),
            a,
            b,
            d,
            outcome,
            p_holds,
            p_contradicts,
            single_run,
            runs_needed: None,
            dates,
            stat,
            beyond_reach: None,
            spread: None,
            // Without the claim's operator only the distance from the
            // stated number is known; a value claim sets its own.
            lead: -d,
        }
    }
}

/// The statistic of a comparison as A/B, with the interval the rule that
/// decided `outcome` looks at: the claimed relation's (95% for `beats` and
/// the literal `>`/`<`, 90% for `matches` (TOST) and `matches or beats`
/// (one-sided at 5%)), or for a contradiction the opposite's (95%).
fn comparison_stat(c: &Comparison, test: Test, outcome: PointOutcome) -> Stat {
    let level = if outcome == PointOutcome::Contradicted { 0.95 } else { holds_level(test) };
    let m = c.log_margin();
    Stat {
        of: StatKind::Ratio,
        estimate: c.ratio(),
        interval: c.spread().ratio_interval(level),
        level,
        margin: Some(c.margin),
        band: (test == Test::Matches).then(|| Interval { lo: (-m).exp(), hi: m.exp() }),
        corrected: None,
        repeated: !c.single_run,
    }
}

/// The level of the interval `test`'s hold rule looks at, uncorrected.
fn holds_level(test: Test) -> f64 {
    match test {
        Test::Beats => 0.95,
        Test::Matches | Test::MatchesOrBeats => 0.90,
    }
}

impl Side {
    /// A number the claim states: no runs behind it.
    pub(crate) fn stated(name: impl Into<String>, value: f64) -> Side {
        Side { name: name.into(), value, runs: 0, sweeps: Vec::new(), run_ids: RunIds::default() }
    }

    /// `b 500.5`, or `b 500.5 (sweep 2026-11-08)` when `other`'s runs come
    /// from another sweep: a comparison across a partial re-sweep says which
    /// side came from which.
    /// The value is shown in `unit` when there is one (`lmdb 2.11 µs`).
    pub(crate) fn shown_against(&self, other: &Side, unit: Option<&ShownUnit>) -> String {
        let differ = !self.sweeps.is_empty() && !other.sweeps.is_empty() && self.sweeps != other.sweeps;
        let value = unit::shown_in(self.value, unit);
        if differ {
            let word = if self.sweeps.len() == 1 { "sweep" } else { "sweeps" };
            format!("{} {value} ({word} {})", self.name, self.sweeps.join(", "))
        } else {
            format!("{} {value}", self.name)
        }
    }
}

fn runs_word(n: usize) -> String {
    format!("{n} run{}", if n == 1 { "" } else { "s" })
}

/// A value as evidence shows it: one decimal from 10 up (759.3, 86.8),
/// three significant digits below (2.19, 1.61), trailing zeros dropped.
/// Rounded as a table's `digits=` rounds ([`crate::query::NumberFormat`]:
/// the exact value, to the nearest), so a median reads the same in a table
/// and in the evidence: 96.35, which a double holds as 96.3499…, is 96.3
/// in both (scaling it by 10 first made 963.5 and rounded it up).
pub(crate) fn shown(v: f64) -> String {
    if !v.is_finite() || v == 0.0 {
        return format_number(v);
    }
    // Below a thousandth, in no unit that reads it: three significant
    // digits and the exponent (`2.11e-6`), never a string of zeros.
    if v.abs() < 1e-3 {
        let s = format!("{v:.2e}");
        let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
        let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
        return format!("{mantissa}e{exponent}");
    }
    // The exponent of a finite non-zero f64 is within ±324: it fits.
    #[allow(clippy::cast_possible_truncation)]
    let decimals = if v.abs() >= 10.0 { 1 } else { 2 - v.abs().log10().floor() as i32 };
    let s = crate::query::NumberFormat { precision: Some(usize::try_from(decimals).unwrap_or(0)) }.format(v);
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { s.as_str() };
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

fn round_to(v: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (v * f).round() / f
}

/// `+10.1%`, `-3%`.
pub(crate) fn percent(frac: f64) -> String {
    let p = round_to(frac * 100.0, 1);
    let sign = if p > 0.0 { "+" } else { "" };
    format!("{sign}{}%", format_number(p))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod closest_tests;
