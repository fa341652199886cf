//! A claim's verdict with its evidence: judged points folded into one
//! verdict (every point, any point, every clause), with the multiple-testing
//! correction, the example a reader sees first and the one-line summary.

use std::fmt::Write as _;

use serde::Serialize;

use super::stats::{self, Folded, PointOutcome, Quantifier, ALPHA};
use super::{percent, round_to, runs_word, BeyondReach, Corrected, Point, Side, Stat, Verdict};
use crate::metric::format_number;

/// The point shown to a reader: the worst counterexample of a contradicted
/// claim, the weakest point of one that is inconclusive or holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Example {
    pub point: String,
    /// The claim's subject (its A, or the derived value), named first
    /// everywhere: the headline and the breakdown show one orientation.
    pub first: Side,
    pub second: Side,
    /// first/second − 1, literal (+0.101 is the first 10.1% above).
    pub rel_diff: f64,
    pub outcome: PointOutcome,
    /// The numbers the point was decided on, as first/second.
    pub stat: Option<Stat>,
}

/// A verdict with the evidence it rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judgement {
    pub verdict: Verdict,
    pub evidence: Evidence,
}

impl Judgement {
    /// One line for humans (see [`Evidence::summary`]).
    pub fn summary(&self) -> String {
        self.evidence.summary(self.verdict)
    }
}

/// What a verdict rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    /// Points that held / contradicted / stayed inconclusive after Holm's
    /// correction, out of `points`.
    pub held: usize,
    pub contradicted: usize,
    pub inconclusive: usize,
    pub points: usize,
    /// The worst counterexample (contradicted) or the weakest point.
    pub example: Option<Example>,
    /// Fewest and most runs behind any side of any point.
    pub min_runs: usize,
    pub max_runs: usize,
    /// Fewest runs behind A, and behind B, at any point (0 for a stated
    /// number).
    pub runs_a: usize,
    pub runs_b: usize,
    /// Run times the data came from, sorted, without duplicates.
    pub dates: Vec<String>,
    /// Some point rests on single runs.
    pub single_runs: bool,
    /// Roughly how many more runs per side would decide the inconclusive
    /// points (the most any of them needs).
    pub runs_needed: Option<u32>,
    /// What the claim names but the data do not hold (`no runs at
    /// request_rate = inf`), or for a claim with no data at all, why.
    pub missing: Vec<String>,
    /// Runs left out of the statistics because they logged no measurement
    /// (`1 of 3 runs of b at concurrency=1 logged tput 0, left out: …`).
    pub left_out: Vec<String>,
    /// Where the repeats behind the values came from, when the log says
    /// (hyperfine's `times`, a `repeat` column); see
    /// [`crate::query::Dataset::repeats_note`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<String>,
    /// Run settings the shown comparison's two sides differ in that tell
    /// apart neither its point nor its series (`host_name bench-02 vs
    /// bench-01`); see [`crate::query::Dataset::settings_between`]. Said,
    /// never weighed in the verdict.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<String>,
    /// Distinct points (param values) and opponents among the comparisons:
    /// `points` = comparisons, which is points × opponents when a claim
    /// names several opponents.
    pub distinct_points: usize,
    pub opponents: usize,
    /// Why more runs cannot decide an inconclusive point, when that is so
    /// (replaces the runs-needed hint).
    pub beyond_reach: Option<String>,
    /// Every comparison with its final outcome, as written (A first), when
    /// there are several.
    pub breakdown: Vec<Example>,
    /// A likely slip the data suggest (a number stated in the wrong unit).
    pub hint: Option<String>,
    /// Comparisons whose two sides' runs come from different sweeps (a
    /// partial re-sweep, each cell read from its own newest sweep).
    pub across_sweeps: usize,
    /// Comparisons decided on their own (their interval clears the rule)
    /// that Holm's correction over the claim's comparisons leaves
    /// undecided.
    pub undecided_by_holm: usize,
    /// The unit the summary and breakdown show values in, when it is not
    /// the stored one (the values themselves stay stored).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown_in: Option<super::ShownUnit>,
    /// For `A beats others`: the opponents that ran in another setting
    /// than the subject and its like (another executable or host); see
    /// [`crate::query::Dataset::others_apart`]. Said, never weighed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub others_apart: Option<String>,
}

impl Evidence {
    /// Which side the single runs are on, when the other had repeats: a
    /// subject of 100 repeats against opponents of one run each is not
    /// "single runs" throughout.
    fn single_side(&self) -> String {
        let (a, b) = (self.runs_a, self.runs_b);
        let name = |side: fn(&Example) -> &Side| self.example.as_ref().map(|ex| side(ex).name.clone());
        match (a, b) {
            (_, 0) => String::new(),
            (1, b) if b > 1 => name(|ex| &ex.first).map_or_else(String::new, |n| format!(" of {n}")),
            (a, 1) if a > 1 && self.opponents > 1 => {
                format!(" on the opponents' side (the subject has at least {a} runs)")
            }
            (a, 1) if a > 1 => name(|ex| &ex.second)
                .map_or_else(String::new, |n| format!(" of {n} (the other side has at least {a} runs)")),
            _ => String::new(),
        }
    }

    fn empty() -> Evidence {
        Evidence {
            held: 0,
            contradicted: 0,
            inconclusive: 0,
            points: 0,
            example: None,
            min_runs: 0,
            max_runs: 0,
            runs_a: 0,
            runs_b: 0,
            dates: Vec::new(),
            single_runs: false,
            runs_needed: None,
            missing: Vec::new(),
            left_out: Vec::new(),
            repeats: None,
            settings: Vec::new(),
            distinct_points: 0,
            opponents: 0,
            beyond_reach: None,
            breakdown: Vec::new(),
            hint: None,
            across_sweeps: 0,
            undecided_by_holm: 0,
            shown_in: None,
            others_apart: None,
        }
    }

    /// How many points or opponents the verdict rests on, in words.
    fn counted(&self, verdict: Verdict) -> String {
        // Points and opponents named separately: "at 3 of 5 points",
        // "against 2 of 3 opponents", "in 8 of 10 comparisons (5 points
        // × 2 opponents)".
        let (noun, extra) = if self.opponents <= 1 {
            ("points", String::new())
        } else if self.distinct_points <= 1 {
            ("opponents", String::new())
        } else {
            ("comparisons", format!(": {} points × {} opponents", self.distinct_points, self.opponents))
        };
        match (verdict, noun) {
            (Verdict::Contradicted, "opponents") => {
                format!(" against {} of {} opponents", self.contradicted, self.points)
            }
            (Verdict::Contradicted, "points") => format!(" at {} of {} points", self.contradicted, self.points),
            (Verdict::Contradicted, _) => format!(" in {} of {} {noun}{extra}", self.contradicted, self.points),
            (_, "opponents") => format!(" (holds against {} of {} opponents)", self.held, self.points),
            _ => format!(" ({} of {} {noun} hold{extra})", self.held, self.points),
        }
    }

    /// The example point of a summary: where, the two sides, the
    /// difference and its statistic, the runs behind each side.
    fn example_text(ex: &Example, verdict: Verdict, points: usize, unit: Option<&super::ShownUnit>) -> String {
        let at = if ex.point.is_empty() { String::new() } else { format!(" at {}", ex.point) };
        let lead = match verdict {
            Verdict::Contradicted if points > 1 => format!("; worst{at}"),
            Verdict::Contradicted => at.clone(),
            Verdict::Holds => format!("; closest{at}"),
            _ => format!("; weakest{at}"),
        };
        let mut s = lead;
        // A relative difference means nothing against a stated 0.
        let stat = ex.stat.map(|st| format!("; {}", st.describe(unit))).unwrap_or_default();
        let diff = match (ex.rel_diff.is_finite(), stat.is_empty()) {
            (true, _) => format!(" ({}{stat})", percent(ex.rel_diff)),
            (false, false) => format!(" ({})", &stat[2..]),
            (false, true) => String::new(),
        };
        let (first, second) = (ex.first.shown_against(&ex.second, unit), ex.second.shown_against(&ex.first, unit));
        let _ = write!(s, ": {first} vs {second}{diff}");
        let runs = match (ex.first.runs, ex.second.runs) {
            (0, 0) => None,
            (n, 0) | (0, n) => Some(runs_word(n)),
            (x, y) if x == y => Some(format!("{} each", runs_word(x))),
            (x, y) => Some(format!("{} vs {}", runs_word(x), runs_word(y))),
        };
        if let Some(r) = runs {
            let _ = write!(s, ", {r}");
        }
        s
    }

    /// One line for humans, e.g. `contradicted at concurrency=30:
    /// eagle-topk1-v2 759.3 vs baseline 689.4 (+10.1%), 3 runs each, sweep
    /// 2026-11-29`.
    pub fn summary(&self, verdict: Verdict) -> String {
        if verdict == Verdict::NoData {
            let why: Vec<&str> = self.missing.iter().chain(&self.left_out).map(String::as_str).collect();
            return if why.is_empty() { "no data".to_string() } else { format!("no data: {}", why.join("; ")) };
        }
        let mut s = verdict.as_str().to_string();
        if self.points > 1 {
            s.push_str(&self.counted(verdict));
        }
        if let Some(ex) = &self.example {
            s.push_str(&Self::example_text(ex, verdict, self.points, self.shown_in.as_ref()));
        }
        if !self.dates.is_empty() {
            let word = if self.dates.len() == 1 { "sweep" } else { "sweeps" };
            let _ = write!(s, ", {word} {}", self.dates.join(", "));
        }
        if self.across_sweeps > 0 {
            let n = self.across_sweeps;
            let which = if self.points == 1 {
                "the two sides come".to_string()
            } else {
                format!("{n} of {} comparisons pair sides that come", self.points)
            };
            let _ = write!(
                s,
                "; {which} from different sweeps (each cell its newest; `[claims] supersede = \"comparison\"` \
                 compares within one sweep)"
            );
        }
        if self.single_runs {
            s.push_str("; rests on single runs");
            s.push_str(&self.single_side());
        }
        if let Some(r) = &self.repeats {
            let _ = write!(s, "; {r}");
        }
        if !self.settings.is_empty() {
            let _ = write!(
                s,
                "; the sides differ in a run setting: {} (the verdict does not take it into account)",
                self.settings.join("; ")
            );
        }
        if let Some(apart) = &self.others_apart {
            let _ = write!(s, "; {apart}");
        }
        for said in self.missing.iter().chain(&self.left_out) {
            let _ = write!(s, "; {said}");
        }
        if let Some(h) = &self.hint {
            let _ = write!(s, "; {h}");
        }
        if self.undecided_by_holm > 0 && verdict != Verdict::Holds {
            let n = self.undecided_by_holm;
            let _ = write!(
                s,
                "; {n} comparison{} decided on {} own {} undecided after Holm's correction over {} comparisons \
                    (the claims command lists each with its corrected interval)",
                if n == 1 { "" } else { "s" },
                if n == 1 { "its" } else { "their" },
                if n == 1 { "is" } else { "are" },
                self.points
            );
        }
        if verdict == Verdict::Inconclusive {
            if let Some(why) = &self.beyond_reach {
                let _ = write!(s, "; {why}");
            } else if let Some(n) = self.runs_needed {
                let _ = write!(s, "; about {n} more run{} per side would decide", if n == 1 { "" } else { "s" });
            }
        }
        s
    }
}

impl Example {
    /// The comparison as a claim's breakdown lists it: `max_concurrency=30:
    /// baseline 689.4 vs eagle-topk1-v2 759.3 (-9.2%; …): contradicted`.
    /// Values in `unit` when the evidence names one (µs for a metric kept
    /// in seconds).
    pub fn line(&self, unit: Option<&super::ShownUnit>) -> String {
        let at = if self.point.is_empty() { String::new() } else { format!("{}: ", self.point) };
        let stat = self.stat.map(|s| format!("; {}", s.describe(unit))).unwrap_or_default();
        let diff = if self.rel_diff.is_finite() { percent(self.rel_diff) } else { String::new() };
        format!(
            "{at}{} vs {} ({diff}{stat}): {}",
            self.first.shown_against(&self.second, unit),
            self.second.shown_against(&self.first, unit),
            self.outcome_word()
        )
    }

    /// The runs behind both sides.
    pub fn run_ids(&self) -> super::RunIds {
        self.first.run_ids.union(&self.second.run_ids)
    }

    /// The point's outcome in words.
    pub fn outcome_word(&self) -> &'static str {
        match self.outcome {
            PointOutcome::Holds => "holds",
            PointOutcome::Contradicted => "contradicted",
            PointOutcome::Inconclusive => "inconclusive",
        }
    }
}

/// A point as listed in a breakdown: A first, as the claim names it.
fn as_written(p: &Point, outcome: PointOutcome) -> Example {
    Example {
        point: p.label.clone(),
        // Relative to B's size: A / B − 1 where B is positive, and where
        // it is negative (a signed change) still below 0 when A is below B.
        rel_diff: (p.a.value - p.b.value) / p.b.value.abs(),
        first: p.a.clone(),
        second: p.b.clone(),
        outcome,
        stat: p.stat,
    }
}

/// Builds the evidence given each point's final outcome.
fn evidence(points: &[Point], finals: &[PointOutcome], verdict: Verdict) -> Evidence {
    let mut ev = Evidence::empty();
    ev.points = points.len();
    for o in finals {
        match o {
            PointOutcome::Holds => ev.held += 1,
            PointOutcome::Contradicted => ev.contradicted += 1,
            PointOutcome::Inconclusive => ev.inconclusive += 1,
        }
    }
    let runs = points.iter().flat_map(|p| [p.a.runs, p.b.runs]).filter(|&r| r > 0);
    ev.min_runs = runs.clone().min().unwrap_or(0);
    ev.max_runs = runs.max().unwrap_or(0);
    ev.runs_a = points.iter().map(|p| p.a.runs).min().unwrap_or(0);
    ev.runs_b = points.iter().map(|p| p.b.runs).min().unwrap_or(0);
    let mut dates: Vec<String> = points.iter().flat_map(|p| p.dates.iter().cloned()).collect();
    dates.sort();
    dates.dedup();
    ev.dates = dates;
    ev.single_runs = points.iter().any(|p| p.single_run);
    ev.across_sweeps =
        points.iter().filter(|p| !p.a.sweeps.is_empty() && !p.b.sweeps.is_empty() && p.a.sweeps != p.b.sweeps).count();
    ev.runs_needed = points
        .iter()
        .zip(finals)
        .filter(|(_, o)| **o == PointOutcome::Inconclusive)
        .filter_map(|(p, _)| p.runs_needed)
        .max();
    ev.undecided_by_holm = points
        .iter()
        .zip(finals)
        .filter(|(p, o)| **o == PointOutcome::Inconclusive && p.outcome != PointOutcome::Inconclusive)
        .count();
    // Opponents: the comparisons at one point (the most at any), whichever
    // side varies (`a beats b, c`, or `others beat a`).
    let mut labels: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for p in points {
        *labels.entry(p.label.as_str()).or_default() += 1;
    }
    ev.distinct_points = labels.len();
    ev.opponents = labels.values().copied().max().unwrap_or(0);
    if points.len() > 1 {
        ev.breakdown = points.iter().zip(finals).map(|(p, o)| as_written(p, *o)).collect();
    }
    // The example, by each point's lead (how far inside what the claim
    // allows, `Point::lead`): for a contradiction the contradicting point
    // farthest past it; otherwise the point closest to failing, ties to
    // the weakest support (largest p for the claimed relation), then to
    // the first.
    let pick = |want: PointOutcome, by: &dyn Fn(&Point) -> f64| -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, p) in points.iter().enumerate() {
            if finals[i] != want && want != PointOutcome::Inconclusive {
                continue;
            }
            if best.is_none_or(|b| by(p) > by(&points[b])) {
                best = Some(i);
            }
        }
        best
    };
    let idx = match verdict {
        Verdict::Contradicted => pick(PointOutcome::Contradicted, &|p| -p.lead),
        Verdict::NoData => None,
        // `Inconclusive` as the wanted outcome means "any point".
        _ => pick(PointOutcome::Inconclusive, &|p| -p.lead + p.p_holds * 1e-9),
    };
    ev.example = idx.map(|i| as_written(&points[i], finals[i]));
    // Said of the example when it is out of reach, else of the first such
    // point, named: never another point's numbers under the example's.
    let reach = |i: usize| Some((i, points[i].beyond_reach.filter(|_| finals[i] == PointOutcome::Inconclusive)?));
    ev.beyond_reach = idx
        .and_then(reach)
        .or_else(|| (0..points.len()).find_map(reach))
        .map(|(i, b)| beyond_reach_text(&points[i], b, idx == Some(i), points.len()));
    ev
}

/// Why more runs cannot make `beats` hold at a point, in the numbers the
/// point is shown with (the claim's subject first, everywhere), naming the
/// point when it is not the example.
fn beyond_reach_text(p: &Point, b: BeyondReach, is_example: bool, points: usize) -> String {
    let ex = as_written(p, PointOutcome::Inconclusive);
    let m = format_number(round_to(b.margin * 100.0, 3));
    // The difference shown is of the medians; the rule looks at the
    // geometric means. Quote the shown one when it too lies inside the
    // margin, else the one the rule used, saying so.
    let diff = match ex.stat {
        Some(st) if !(ex.rel_diff.is_finite() && ex.rel_diff.abs() <= b.margin) => {
            format!("the difference of the runs' geometric means ({})", percent(st.estimate - 1.0))
        }
        _ => format!("the difference ({})", percent(ex.rel_diff)),
    };
    if points == 1 {
        let matches = if b.matches_holds { "holds" } else { "would hold" };
        return format!(
            "{diff} is smaller than the {m}% margin, so no number of runs makes `beats` hold; a `matches` \
             statement {matches}"
        );
    }
    let at =
        if is_example { String::new() } else { format!("at {} ({} vs {}) ", ex.point, ex.first.name, ex.second.name) };
    format!("{at}{diff} is smaller than the {m}% margin, so no number of runs makes `beats` hold there")
}

/// Folds the points of a `for all` (or `at`, with one point) clause by
/// [`stats::fold`]: holds when every point holds at α (an
/// intersection–union test: no correction); contradicted when Holm's
/// procedure over the points' `p_contradicts` rejects at least one "is not
/// contradicted" hypothesis (so a claim over many points is not called
/// contradicted by one lucky outlier); otherwise inconclusive; no points →
/// no data.
pub(crate) fn combine_all(points: &[Point]) -> Judgement {
    combine(points, Quantifier::All)
}

/// Folds the points of a `for any` clause: holds when Holm's procedure
/// over `p_holds` rejects at least one "does not hold" hypothesis;
/// contradicted when every point is contradicted at α (an
/// intersection–union test); otherwise inconclusive; no points → no data.
pub(crate) fn combine_any(points: &[Point]) -> Judgement {
    combine(points, Quantifier::Any)
}

fn combine(points: &[Point], quantifier: Quantifier) -> Judgement {
    if points.is_empty() {
        return Judgement { verdict: Verdict::NoData, evidence: Evidence::empty() };
    }
    let ph: Vec<f64> = points.iter().map(|p| p.p_holds).collect();
    let pc: Vec<f64> = points.iter().map(|p| p.p_contradicts).collect();
    let fold = stats::fold(&ph, &pc, quantifier);
    let finals = finals(&fold.holds, &fold.contradicted);
    let verdict = match fold.verdict {
        Folded::Holds => Verdict::Holds,
        Folded::Contradicted => Verdict::Contradicted,
        Folded::Inconclusive => Verdict::Inconclusive,
    };
    // Each point with the interval its corrected decision used, where the
    // point's own interval clears the rule Holm's correction applied to.
    let shown: Vec<Point> = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut p = p.clone();
            let (own, threshold) = match quantifier {
                Quantifier::All => (PointOutcome::Contradicted, fold.contradicted_level[i]),
                Quantifier::Any => (PointOutcome::Holds, fold.holds_level[i]),
            };
            if points.len() > 1 && p.outcome == own {
                with_corrected(&mut p, threshold, points.len());
            }
            p
        })
        .collect();
    let mut ev = evidence(&shown, &finals, verdict);
    if quantifier == Quantifier::Any && verdict == Verdict::Holds {
        // Show the point that makes it hold: the strongest one.
        let best =
            (0..shown.len()).filter(|&i| fold.holds[i]).min_by(|&i, &j| shown[i].p_holds.total_cmp(&shown[j].p_holds));
        ev.example = best.map(|i| as_written(&shown[i], finals[i]));
    }
    Judgement { verdict, evidence: ev }
}

/// Adds to a point's statistic the interval at the level its decision was
/// corrected to (a Holm step `threshold` < α), over `comparisons`.
fn with_corrected(p: &mut Point, threshold: f64, comparisons: usize) {
    let (Some(stat), Some((_, spread))) = (p.stat.as_mut(), p.spread) else { return };
    if threshold >= ALPHA {
        return;
    }
    let level = stats::decided_level(stat.level, threshold);
    stat.corrected = Some(Corrected { level, interval: spread.ratio_interval(level), comparisons });
}

fn finals(holds: &[bool], contra: &[bool]) -> Vec<PointOutcome> {
    holds
        .iter()
        .zip(contra)
        .map(|(&h, &c)| {
            if h {
                PointOutcome::Holds
            } else if c {
                PointOutcome::Contradicted
            } else {
                PointOutcome::Inconclusive
            }
        })
        .collect()
}

/// A clause without data, saying why.
pub(crate) fn no_data(reason: impl Into<String>) -> Judgement {
    let mut evidence = Evidence::empty();
    evidence.missing.push(reason.into());
    Judgement { verdict: Verdict::NoData, evidence }
}

/// Adds what a clause names but the data lack to its judgement. A `for
/// all` (or `at`) missing a point it names cannot hold, a `for any` missing
/// one cannot be contradicted: the verdict becomes inconclusive and says
/// which point is missing. Without any judged point it is no data, naming
/// what is missing (`empty` when nothing named is missing).
pub(crate) fn settle(
    mut j: Judgement,
    any: bool,
    named_missing: Vec<String>,
    empty: impl FnOnce() -> String,
) -> Judgement {
    if j.evidence.points == 0 {
        return no_data(if named_missing.is_empty() { empty() } else { named_missing.join("; ") });
    }
    if !named_missing.is_empty() {
        let weakened = if any { Verdict::Contradicted } else { Verdict::Holds };
        if j.verdict == weakened {
            j.verdict = Verdict::Inconclusive;
        }
        j.evidence.missing = named_missing;
    }
    j
}

/// Folds the clauses of an `and`: any contradicted → contradicted; else any
/// inconclusive → inconclusive; else any without data → no data; else
/// holds. No clauses → no data.
pub(crate) fn combine_and(verdicts: &[Verdict]) -> Verdict {
    if verdicts.is_empty() {
        Verdict::NoData
    } else if verdicts.contains(&Verdict::Contradicted) {
        Verdict::Contradicted
    } else if verdicts.contains(&Verdict::Inconclusive) {
        Verdict::Inconclusive
    } else if verdicts.contains(&Verdict::NoData) {
        Verdict::NoData
    } else {
        Verdict::Holds
    }
}
