//! Judging claims against the data: each clause of a parsed claim is turned
//! into cells (the runs of each series at each point of the clause's param,
//! from each cell's newest sweep), compared with the statistics of
//! [`super::stats`], and folded into a verdict with its evidence. A claim
//! can be judged as of any sweep date, which is how `reckon claims
//! --history` finds the sweep that overturned it.
#![allow(clippy::too_many_lines)] // floor-plan debt (issue 7): fix these and delete this line

use std::collections::BTreeSet;

use serde::Serialize;

use super::lang::{self, Body, Claim, Clause, Opponents, QuantKind, Relation, Term};
use super::stats::{self, PointOutcome, Test};
use super::{combine_all, combine_and, combine_any, Judgement, Point, Side, Stat, StatKind, Verdict};
use crate::metric::{format_number, Direction, Margins};
use crate::query::{Dataset, Filter, Key, Pivot, Query};
use crate::run::Value;
use crate::syntax::{Literal, Op};

/// One clause of a claim with its verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClauseReport {
    /// The clause in canonical form.
    pub statement: String,
    pub verdict: Verdict,
    /// One line: the verdict with its evidence.
    pub summary: String,
    pub judgement: Judgement,
    /// Point-by-point findings a reader may want (e.g. where a crossover
    /// happens and where A loses).
    pub details: Vec<String>,
}

/// A claim region with its verdict, ready to report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimReport {
    pub id: String,
    pub line: usize,
    /// The statement in canonical form.
    pub statement: String,
    pub verdict: Verdict,
    pub summary: String,
    pub clauses: Vec<ClauseReport>,
    /// The sweep date the author marked the claim superseded on, if any.
    pub superseded: Option<String>,
    /// The status note reckon keeps in the region (None: no note).
    #[serde(skip)]
    pub note: Option<String>,
    /// The newest sweep date the verdict rests on.
    pub data_date: Option<String>,
}

impl ClaimReport {
    /// Whether `reckon check` fails on this claim.
    pub fn fails(&self, strict: bool) -> bool {
        if self.superseded.is_some() {
            return false;
        }
        match self.verdict {
            Verdict::Contradicted => true,
            Verdict::Inconclusive | Verdict::NoData => strict,
            Verdict::Holds => false,
        }
    }
}

/// A problem with a claim statement, at a byte offset within it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimError {
    pub offset: usize,
    pub msg: String,
}

/// What a project says about judging, as plain values (the caller reads
/// them from reckon.toml): the param whose values are the series a claim
/// compares, and the practical margin δ of each metric. Metric directions
/// are the dataset's, with the project's overrides already applied there.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub series: String,
    pub margins: Margins,
}

/// Judges claims over one dataset, optionally as of a sweep date.
pub struct Judge<'a, 's> {
    pub dataset: &'a Dataset<'s>,
    pub settings: &'a Settings,
    /// Only data from sweeps on or before this date (`YYYY-MM-DD`).
    pub as_of: Option<String>,
    /// The values of the series dimension the data hold, read once.
    series_values: std::cell::OnceCell<BTreeSet<String>>,
}

/// The runs of one cell: their values and sweep dates.
struct CellRuns<'p> {
    values: &'p [f64],
    sweeps: &'p [String],
}

impl<'a, 's> Judge<'a, 's> {
    pub fn new(dataset: &'a Dataset<'s>, settings: &'a Settings) -> Self {
        Judge { dataset, settings, as_of: None, series_values: std::cell::OnceCell::new() }
    }

    /// Judges every clause of a claim; the claim's verdict folds them.
    pub fn claim(&self, claim: &Claim) -> std::result::Result<(Verdict, Vec<ClauseReport>), ClaimError> {
        let mut reports = Vec::new();
        for clause in &claim.clauses {
            reports.push(self.clause(clause)?);
        }
        let verdict = combine_and(&reports.iter().map(|r| r.verdict).collect::<Vec<_>>());
        Ok((verdict, reports))
    }

    /// The series a name stands for (itself, or what reckon.toml's
    /// `[aliases]` make it); a name no run of the whole data holds is bad
    /// input, pointed at, with the likely intended one.
    fn series_name(&self, name: &lang::Name) -> std::result::Result<String, ClaimError> {
        let at = |msg: String| ClaimError { offset: name.offset, msg };
        let series = &self.settings.series;
        let canonical = self.dataset.value_name(series, &name.text).map_err(|e| at(e.to_string()))?;
        let canonical = canonical.unwrap_or_else(|| name.text.clone());
        let held =
            self.series_values.get_or_init(|| self.dataset.param_values(&self.settings.series).into_iter().collect());
        if held.contains(&canonical) {
            return Ok(canonical);
        }
        let known: Vec<&str> = held.iter().map(String::as_str).collect();
        let hint = crate::query::did_you_mean(&canonical, known.iter().copied())
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        let alias = if canonical == name.text { String::new() } else { format!(" (an alias of `{canonical}`)") };
        Err(at(format!(
            "unknown series `{}`{alias}: no run has that value of `{series}`{hint}; the series are: {}",
            name.text,
            known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
        )))
    }

    /// The metric a name stands for; an unknown one is bad input.
    fn metric_name(&self, name: &lang::Name) -> std::result::Result<String, ClaimError> {
        self.dataset
            .metric_name(&name.text)
            .map(str::to_string)
            .map_err(|e| ClaimError { offset: name.offset, msg: e.to_string() })
    }

    /// The param a name stands for; an unknown one is bad input.
    fn param_name(&self, name: &lang::Name) -> std::result::Result<String, ClaimError> {
        self.dataset
            .param_name(&name.text, "the claim")
            .map_err(|e| ClaimError { offset: name.offset, msg: e.to_string() })
    }

    /// The clause's filter: its `where`, and the as-of date.
    fn filter(&self, clause: &Clause) -> std::result::Result<Filter, ClaimError> {
        let mut filter = match &clause.filter {
            Some(w) => Filter::parse(&w.source)
                .map_err(|e| ClaimError { offset: w.offset + e.offset(), msg: format!("in `where`: {}", e.msg) })?,
            None => Filter::all(),
        };
        if let Some(date) = &self.as_of {
            filter = filter.and(Filter::compare("date", Op::Le, Literal::Text(date.clone())));
        }
        Ok(filter)
    }

    /// The pivot a clause reads: its metric by the quantifier's param (rows)
    /// and the series dimension (cols). `None` when the metric or the param
    /// has no runs (the clause has no data).
    fn pivot(
        &self,
        clause: &Clause,
        metric: &str,
        param: Option<&str>,
    ) -> std::result::Result<Option<Pivot>, ClaimError> {
        if let Some(p) = param {
            if p == self.settings.series {
                return Err(ClaimError {
                    offset: clause.offset,
                    msg: format!(
                        "`{p}` names the series being compared; range over another param, e.g. `for all concurrency`"
                    ),
                });
            }
        }
        if !self.dataset.has_param(&self.settings.series) {
            return Ok(None);
        }
        let mut q = Query::new(metric);
        q.rows = param.map(|p| vec![p.to_string()]).unwrap_or_default();
        q.cols = vec![self.settings.series.clone()];
        q.filter = self.filter(clause)?;
        if let Err(e) = self.dataset.check_filter(&q.filter) {
            let offset = clause.filter.as_ref().map_or(clause.offset, |w| w.offset);
            return Err(ClaimError { offset, msg: e.to_string() });
        }
        self.dataset
            .evaluate(&q)
            .map(Some)
            .map_err(|e| ClaimError { offset: clause.body.metric().offset, msg: e.to_string() })
    }

    fn clause(&self, clause: &Clause) -> std::result::Result<ClauseReport, ClaimError> {
        let metric = self.metric_name(clause.body.metric())?;
        // Every name is checked before any is judged: a typo is bad input.
        for name in clause.body.series() {
            self.series_name(name)?;
        }
        let param = clause.body.param().map(|p| self.param_name(p)).transpose()?;
        if !self.dataset.has_param(&self.settings.series) {
            return Err(ClaimError {
                offset: clause.offset,
                msg: format!(
                    "no run has the series param `{}` (reckon.toml's `series =`), so there is nothing to compare",
                    self.settings.series
                ),
            });
        }
        let direction = self.dataset.metric_info(&metric).map_or(Direction::Higher, |m| m.direction);
        let margin = clause.within.unwrap_or_else(|| self.settings.margins.of(&metric, direction));
        let mut details = Vec::new();
        let judgement = match &clause.body {
            Body::Pairwise(p) => self.pairwise(clause, p, &metric, param.as_deref(), direction, margin)?,
            Body::Value(v) => self.value(clause, v, &metric, param.as_deref(), margin)?,
            Body::Peak(p) => self.peak(clause, p, &metric, param.as_deref(), margin, &mut details)?,
            Body::Crossover(c) => {
                let (judgement, found) = self.crossover(clause, c, &metric, param.as_deref(), direction, margin)?;
                details = found;
                judgement
            }
        };
        // The per-point breakdown of a claim over several points or
        // opponents, A first as written.
        for ex in &judgement.evidence.breakdown {
            let at = if ex.point.is_empty() { String::new() } else { format!("{}: ", ex.point) };
            let stat = ex.stat.map(|s| format!("; {}", s.describe())).unwrap_or_default();
            let diff = if ex.rel_diff.is_finite() { super::percent(ex.rel_diff) } else { String::new() };
            details.push(format!(
                "{at}{} {} vs {} {} ({diff}{stat}): {}",
                ex.first.name,
                super::shown(ex.first.value),
                ex.second.name,
                super::shown(ex.second.value),
                ex.outcome_word()
            ));
        }
        let single = Claim { clauses: vec![clause.clone()] };
        let summary = match (&clause.body, details.first()) {
            // Say it in words: there is no crossover value to compare.
            (Body::Crossover(_), Some(first)) if first.starts_with("no crossover") => {
                format!("{}: {first}", judgement.verdict)
            }
            _ => judgement.summary(),
        };
        Ok(ClauseReport { statement: single.to_string(), verdict: judgement.verdict, summary, judgement, details })
    }

    /// The rows of a pivot a quantifier speaks about.
    fn points<'p>(pivot: &'p Pivot, set: Option<&lang::PointSet>) -> Vec<(usize, &'p Key)> {
        pivot
            .rows
            .iter()
            .enumerate()
            .filter_map(|(i, key)| {
                let k = key.first()?;
                set.is_none_or(|s| s.contains(&key_value(k))).then_some((i, k))
            })
            .collect()
    }

    /// A clause without `at`/`for all` compares one cell per series; it is
    /// refused when a series' cell holds runs at several points of some
    /// param, since pooling them would compare, say, every concurrency at once.
    fn single_point(&self, clause: &Clause, pivot: &Pivot, series: &[String]) -> std::result::Result<(), ClaimError> {
        for name in series {
            let Some(col) = pivot.cols.iter().position(|c| c.first().is_some_and(|k| k.to_string() == *name)) else {
                continue;
            };
            let Some(cell) = pivot.cells.first().and_then(|row| row[col].as_ref()) else { continue };
            if let Some((param, values)) = self.dataset.varying_params(&cell.runs).first() {
                return Err(ClaimError {
                    offset: clause.offset,
                    msg: format!(
                        "`{name}` has runs at several `{param}` values ({}); say which with `at {param} = …` or `for all {param}`",
                        values.join(", ")
                    ),
                });
            }
        }
        Ok(())
    }

    /// The pivot rows a clause judges, with their key: the quantifier's
    /// points, or the single pooled row of a clause without one.
    fn rows<'p>(pivot: &'p Pivot, q: Option<&lang::Quantifier>) -> Vec<(usize, Option<&'p Key>)> {
        match q {
            Some(q) => Self::points(pivot, Some(&q.points)).into_iter().map(|(i, k)| (i, Some(k))).collect(),
            None => (0..pivot.rows.len()).map(|i| (i, None)).collect(),
        }
    }

    /// The points a quantifier names one by one (`at P = v`, `in (a, b)`)
    /// that no row of the pivot holds: each is reported, never dropped.
    fn named_missing(pivot: &Pivot, q: Option<&lang::Quantifier>) -> Vec<String> {
        let Some(q) = q else { return Vec::new() };
        let named: Vec<&Literal> = match &q.points {
            lang::PointSet::Cmp(Op::Eq, v) => vec![v],
            lang::PointSet::In(vs) => vs.iter().collect(),
            _ => return Vec::new(),
        };
        named
            .into_iter()
            .filter(|lit| {
                !pivot
                    .rows
                    .iter()
                    .filter_map(|r| r.first())
                    .any(|k| lang::compare(lit, &key_value(k)) == Some(std::cmp::Ordering::Equal))
            })
            .map(|lit| format!("no runs at {} = {lit}", q.param.text))
            .collect()
    }

    /// Whether the quantifier names its points one by one.
    fn names_points(q: Option<&lang::Quantifier>) -> bool {
        q.is_some_and(|q| matches!(q.points, lang::PointSet::Cmp(Op::Eq, _) | lang::PointSet::In(_)))
    }

    /// Why a clause found nothing to judge, when nothing it names is missing.
    fn empty_reason(&self, clause: &Clause, pivot: &Pivot, q: Option<&lang::Quantifier>, series: &[String]) -> String {
        let filter = clause.filter.as_ref().map(|w| format!(" where {}", w.source)).unwrap_or_default();
        if pivot.runs_matched == 0 {
            return match &self.as_of {
                Some(d) => format!("no runs of `{}`{filter} on or before {d}", pivot.metric.name),
                None => format!("no runs of `{}`{filter}", pivot.metric.name),
            };
        }
        if let Some(q) = q {
            if Self::points(pivot, Some(&q.points)).is_empty() {
                return format!("no runs at {} {}{filter}", q.param.text, q.points);
            }
        }
        format!("{} have no point in common{filter}", series.join(" and "))
    }

    /// Folds a clause's points as its quantifier says: `for any` needs one,
    /// `at` and `for all` need every one.
    fn fold(points: &[Point], q: Option<&lang::Quantifier>) -> Judgement {
        match q.map(|q| q.kind) {
            Some(QuantKind::ForAny) => combine_any(points),
            _ => combine_all(points),
        }
    }

    fn cell<'p>(pivot: &'p Pivot, row: usize, series: &str) -> Option<CellRuns<'p>> {
        let col = pivot.cols.iter().position(|c| c.first().is_some_and(|k| k.to_string() == series))?;
        let cell = pivot.cells.get(row)?.get(col)?.as_ref()?;
        (!cell.values.is_empty()).then_some(CellRuns { values: &cell.values, sweeps: &cell.sweeps })
    }

    /// The per-run log sd of the metric seen in the pivot's repeated runs
    /// (pooled over every cell with two or more runs), if any.
    fn pooled_log_sd(pivot: &Pivot) -> Option<f64> {
        let (mut ss, mut dof) = (0.0, 0usize);
        for (_, _, cell) in pivot.iter() {
            let logs: Vec<f64> = cell.values.iter().filter(|v| **v > 0.0).map(|v| v.ln()).collect();
            if logs.len() >= 2 {
                let mean = logs.iter().sum::<f64>() / logs.len() as f64;
                ss += logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>();
                dof += logs.len() - 1;
            }
        }
        (dof > 0).then(|| (ss / dof as f64).sqrt())
    }

    fn label(pivot: &Pivot, key: Option<&Key>) -> String {
        match (pivot.row_params.first(), key) {
            (Some(p), Some(k)) => format!("{p}={k}"),
            _ => String::new(),
        }
    }

    fn dates(cells: &[&CellRuns]) -> Vec<String> {
        let set: BTreeSet<&String> = cells.iter().flat_map(|c| c.sweeps.iter()).collect();
        set.into_iter().cloned().collect()
    }

    fn pairwise(
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
        if q.is_none() {
            let mut named = vec![a.clone()];
            named.extend(opponents.iter().cloned());
            self.single_point(clause, &pivot, &named)?;
        }
        let pooled = Self::pooled_log_sd(&pivot);
        let mut points = Vec::new();
        let mut missing = Self::named_missing(&pivot, q);
        let mut gaps = Vec::new();
        let rows = Self::rows(&pivot, q);
        for (row, key) in rows {
            let label = Self::label(&pivot, key);
            let mut lacking = |s: &str| {
                let at = if label.is_empty() { String::new() } else { format!(" at {label}") };
                let list = if Self::names_points(q) { &mut missing } else { &mut gaps };
                list.push(format!("no runs of {s}{at}"));
            };
            let Some(ca) = Self::cell(&pivot, row, &a) else {
                lacking(&a);
                continue;
            };
            for b in &opponents {
                let Some(cb) = Self::cell(&pivot, row, b) else {
                    lacking(b);
                    continue;
                };
                let Ok(c) = stats::compare(ca.values, cb.values, dir, margin, pooled) else { continue };
                points.push(Point::from_comparison(
                    Self::label(&pivot, key),
                    &a,
                    b,
                    &c,
                    test,
                    Self::dates(&[&ca, &cb]),
                ));
            }
        }
        let mut named = vec![a.clone()];
        named.extend(opponents.iter().cloned());
        let j = Self::fold(&points, q);
        Ok(self.settle(j, clause, &pivot, q, missing, gaps, &named))
    }

    /// [`super::settle`] with the reasons this clause has.
    #[allow(clippy::too_many_arguments)]
    fn settle(
        &self,
        j: Judgement,
        clause: &Clause,
        pivot: &Pivot,
        q: Option<&lang::Quantifier>,
        missing: Vec<String>,
        gaps: Vec<String>,
        series: &[String],
    ) -> Judgement {
        let any = q.is_some_and(|q| q.kind == QuantKind::ForAny);
        let mut j = super::settle(j, any, missing, || self.empty_reason(clause, pivot, q, series));
        if j.verdict != Verdict::NoData {
            j.evidence.missing.extend(gaps);
            // The runs of the named series, at every point the pivot holds.
            let ids: Vec<i64> = pivot
                .cols
                .iter()
                .enumerate()
                .filter(|(_, c)| c.first().is_some_and(|k| series.contains(&k.to_string())))
                .flat_map(|(col, _)| pivot.cells.iter().filter_map(move |row| row.get(col)?.as_ref()))
                .flat_map(|cell| cell.runs.iter().copied())
                .collect();
            j.evidence.repeats = self.dataset.repeats_note(&ids);
        }
        j
    }

    fn value(
        &self,
        clause: &Clause,
        v: &lang::ValueClaim,
        metric: &str,
        param: Option<&str>,
        margin: f64,
    ) -> std::result::Result<Judgement, ClaimError> {
        let q = v.quantifier.as_ref();
        if let (Some(agg), None) = (v.aggregate, q) {
            return Err(ClaimError {
                offset: clause.offset,
                msg: format!(
                    "`{}(…)` needs the points it ranges over: add `for all PARAM` inside it, e.g. `{}(A on {metric} for all concurrency)`",
                    agg.as_str(),
                    agg.as_str()
                ),
            });
        }
        let Some(pivot) = self.pivot(clause, metric, param)? else {
            return Ok(combine_all(&[]));
        };
        let pooled = Self::pooled_log_sd(&pivot);
        let series: Vec<String> =
            v.term.series().iter().map(|n| self.series_name(n)).collect::<std::result::Result<_, _>>()?;
        if q.is_none() {
            self.single_point(clause, &pivot, &series)?;
        }
        let scale = self.unit_scale(v, metric)?;
        let (target, upper) = (v.target * scale, v.upper.map(|u| u * scale));
        let name = match &v.term {
            Term::Level(_) => series[0].clone(),
            Term::Ratio(..) => format!("{} / {}", series[0], series[1]),
            Term::Difference(..) => format!("{} - {}", series[0], series[1]),
        };
        let mut estimates = Vec::new();
        let mut missing = Self::named_missing(&pivot, q);
        let mut gaps = Vec::new();
        if let (Some(vs), Some(q)) = (&v.versus, q) {
            // One series at two points of a param: the quantifier's point
            // against the other one.
            let other = lang::Quantifier { points: lang::PointSet::Cmp(Op::Eq, vs.at.clone()), ..q.clone() };
            missing.extend(Self::named_missing(&pivot, Some(&other)));
            let top = Self::rows(&pivot, Some(q)).into_iter().next();
            let bottom = Self::rows(&pivot, Some(&other)).into_iter().next();
            if let (Some((r1, k1)), Some((r2, k2))) = (top, bottom) {
                let (l1, l2) = (Self::label(&pivot, k1), Self::label(&pivot, k2));
                match (Self::cell(&pivot, r1, &series[0]), Self::cell(&pivot, r2, &series[0])) {
                    (Some(c1), Some(c2)) => {
                        let est = if vs.ratio {
                            stats::estimate_ratio(c1.values, c2.values, pooled)
                        } else {
                            stats::estimate_difference(c1.values, c2.values, pooled)
                        };
                        if let Ok(est) = est {
                            estimates.push((
                                est,
                                format!("{l1} {} {l2}", if vs.ratio { "/" } else { "-" }),
                                Self::dates(&[&c1, &c2]),
                            ));
                        }
                    }
                    (c1, _) => {
                        let at = if c1.is_none() { l1 } else { l2 };
                        missing.push(format!("no runs of {} at {at}", series[0]));
                    }
                }
            }
        } else {
            for (row, key) in Self::rows(&pivot, q) {
                let cells: Option<Vec<CellRuns>> = series.iter().map(|s| Self::cell(&pivot, row, s)).collect();
                let Some(cells) = cells else {
                    let label = Self::label(&pivot, key);
                    let at = if label.is_empty() { String::new() } else { format!(" at {label}") };
                    let lacking: Vec<&str> =
                        series.iter().filter(|s| Self::cell(&pivot, row, s).is_none()).map(String::as_str).collect();
                    let list = if Self::names_points(q) { &mut missing } else { &mut gaps };
                    list.push(format!("no runs of {}{at}", lacking.join(" or ")));
                    continue;
                };
                let est = match &v.term {
                    Term::Level(_) => stats::estimate_level(cells[0].values, pooled),
                    Term::Ratio(..) => stats::estimate_ratio(cells[0].values, cells[1].values, pooled),
                    Term::Difference(..) => stats::estimate_difference(cells[0].values, cells[1].values, pooled),
                };
                let Ok(est) = est else { continue };
                let refs: Vec<&CellRuns> = cells.iter().collect();
                estimates.push((est, Self::label(&pivot, key), Self::dates(&refs)));
            }
        }
        let stated = Side { name: "stated".into(), value: target, runs: 0 };
        // `≈`/`=` without `within` on a ratio use the metric's margin too:
        // the same δ as `matches`.
        let point = |est: &stats::Estimate, label: String, dates: Vec<String>| {
            let check = stats::check_value(est, v.op, target, upper, margin);
            let stat = Stat {
                of: StatKind::Value,
                estimate: est.estimate(),
                interval: check.interval,
                level: check.level,
                margin: matches!(v.op, Op::Approx | Op::Eq).then_some(margin),
                band: check.band,
            };
            let mut p = Point::from_check(
                label,
                Side { name: name.clone(), value: est.value, runs: est.runs },
                stated.clone(),
                check.outcome,
                est.single_run,
                dates,
                Some(stat),
            );
            if let (Op::In, Some(hi)) = (v.op, upper) {
                // The stated side of a range is its middle, for the
                // relative difference; the band says the range.
                p.b.name = format!("the middle of {}..{}", format_number(target), format_number(hi));
                p.b.value = f64::midpoint(target, hi);
            }
            p
        };
        let j = if let Some(agg) = v.aggregate {
            let folded: Vec<stats::Estimate> = estimates.iter().map(|e| e.0).collect();
            match stats::aggregate(&folded, agg) {
                None => combine_all(&[]),
                Some((est, at)) => {
                    let label = at.map(|i| estimates[i].1.clone()).unwrap_or_default();
                    let mut dates: Vec<String> = estimates.iter().flat_map(|e| e.2.iter().cloned()).collect();
                    dates.sort();
                    dates.dedup();
                    combine_all(&[point(&est, label, dates)])
                }
            }
        } else {
            let points: Vec<Point> = estimates.iter().map(|(e, l, d)| point(e, l.clone(), d.clone())).collect();
            Self::fold(&points, q)
        };
        let mut j = self.settle(j, clause, &pivot, q, missing, gaps, &series);
        if j.verdict == Verdict::Contradicted && v.unit.is_none() {
            j.evidence.hint = self.unit_hint(metric, &j, target);
        }
        Ok(j)
    }

    /// The factor that turns the number a value clause states (in the unit
    /// written) into the metric's stored unit; 1 without a unit. A unit on
    /// a ratio, on a metric without a known unit, or of another dimension
    /// is an error naming both units.
    fn unit_scale(&self, v: &lang::ValueClaim, metric: &str) -> std::result::Result<f64, ClaimError> {
        let Some(unit) = &v.unit else { return Ok(1.0) };
        let err = |msg: String| ClaimError { offset: unit.offset, msg };
        let ratio = matches!(v.term, Term::Ratio(..)) || v.versus.as_ref().is_some_and(|vs| vs.ratio);
        if ratio {
            return Err(err(format!("a ratio has no unit: drop `{}`", unit.text)));
        }
        let stored = self.dataset.metric_info(metric).ok().and_then(|m| m.unit.clone());
        let Some(stored) = stored else {
            return Err(err(format!(
                "`{metric}` has no stored unit to convert `{}` to; write the number in the metric's own unit without `{}`, or set `unit` under [metrics.{metric}] in reckon.toml",
                unit.text, unit.text
            )));
        };
        let written = crate::metric::unit_scale(&unit.text);
        match (written, crate::metric::unit_scale(&stored)) {
            (Some((dw, fw)), Some((ds, fs))) if dw == ds => Ok(fw / fs),
            _ => {
                Err(err(format!("`{}` cannot be converted to `{stored}`, the unit `{metric}` is stored in", unit.text)))
            }
        }
    }

    /// For a contradicted value stated without a unit: a hint when the
    /// measured value is about 1000× (or 1/1000×) the stated one and the
    /// metric has a time unit, the usual slip between ms, µs and s.
    fn unit_hint(&self, metric: &str, j: &Judgement, target: f64) -> Option<String> {
        let stored = self.dataset.metric_info(metric).ok()?.unit.clone()?;
        let (dim, fs) = crate::metric::unit_scale(&stored)?;
        let measured = j.evidence.example.as_ref()?.first.value;
        let factor = measured / target;
        if dim != "time" || !factor.is_finite() || factor <= 0.0 {
            return None;
        }
        for (unit, f) in [("ns", 1e-9), ("us", 1e-6), ("ms", 1e-3), ("s", 1.0)] {
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

    /// `A on M peaks at P = v`: at every other point of P, A at v is not
    /// lower (beyond the margin) than A there, as `matches or beats` in the
    /// literal direction; contradicted when some point is higher beyond
    /// noise. `is lowest at` is the same downwards.
    fn peak(
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
        let pooled = Self::pooled_log_sd(&pivot);
        let peak_row = Self::rows(&pivot, Some(&at)).into_iter().next();
        let mut points = Vec::new();
        let mut gaps = Vec::new();
        let mut missing = missing;
        let named = format!("{s} at {}={}", p.param.text, p.at);
        let cells: Vec<(usize, Option<&Key>, Option<CellRuns>)> = Self::rows(&pivot, None)
            .into_iter()
            .map(|(r, _)| (r, pivot.rows[r].first(), Self::cell(&pivot, r, &s)))
            .collect();
        // The measured extreme, for the details.
        let extreme = cells
            .iter()
            .filter_map(|(_, k, c)| Some((k.as_ref()?, stats::median(c.as_ref()?.values))))
            .reduce(|x, y| if (y.1 > x.1) == p.highest && y.1 != x.1 { y } else { x });
        if let Some((k, v)) = extreme {
            let word = if p.highest { "highest" } else { "lowest" };
            details.push(format!("{s} is {word} at {} = {k} ({}) in the data", p.param.text, format_number(v)));
        }
        match peak_row.and_then(|(r, _)| Self::cell(&pivot, r, &s).map(|c| (r, c))) {
            None if missing.is_empty() => missing.push(format!("no runs of {named}")),
            None => {}
            Some((r0, c0)) => {
                for (r, k, c) in &cells {
                    if *r == r0 {
                        continue;
                    }
                    let label = k.map(|k| format!("{}={k}", p.param.text)).unwrap_or_default();
                    let Some(c) = c else {
                        gaps.push(format!("no runs of {s} at {label}"));
                        continue;
                    };
                    let Ok(cmp) = stats::compare(c0.values, c.values, dir, margin, pooled) else { continue };
                    points.push(Point::from_comparison(
                        label,
                        named.clone(),
                        s.clone(),
                        &cmp,
                        Test::MatchesOrBeats,
                        Self::dates(&[&c0, c]),
                    ));
                }
            }
        }
        let j = combine_all(&points);
        Ok(self.settle(j, clause, &pivot, None, missing, gaps, std::slice::from_ref(&s)))
    }

    fn crossover(
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
        let pooled = Self::pooled_log_sd(&pivot);
        let mut compared = Vec::new();
        let mut dates = Vec::new();
        for (row, key) in Self::points(&pivot, Some(&c.points)) {
            let (Some(x), Some(ca), Some(cb)) =
                (key.as_f64(), Self::cell(&pivot, row, &a), Self::cell(&pivot, row, &b))
            else {
                continue;
            };
            let Ok(cmp) = stats::compare(ca.values, cb.values, direction, margin, pooled) else { continue };
            dates.extend(Self::dates(&[&ca, &cb]));
            compared.push((x, cmp));
        }
        if compared.is_empty() {
            let filter = clause.filter.as_ref().map(|w| format!(" where {}", w.source)).unwrap_or_default();
            let reason = format!("{a} and {b} have no numeric point of `{param}` in common{filter}");
            return Ok((super::no_data(reason), details));
        }
        dates.sort();
        dates.dedup();
        compared.sort_by(|x, y| x.0.total_cmp(&y.0));
        let describe = |test: fn(&stats::Comparison) -> bool| {
            compared.iter().filter(|(_, c)| test(c)).map(|(x, _)| format_number(*x)).collect::<Vec<_>>().join(", ")
        };
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
                details.push(format!("{a} {word} {b} at {param} = {list}"));
            }
        }
        let found = super::crossover(&compared);
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
            Side { name: format!("crossover({a}, {b})"), value: found.unwrap_or(f64::NAN), runs },
            Side { name: "stated".into(), value: target, runs: 0 },
            outcome,
            single,
            dates,
            None,
        );
        Ok((combine_all(&[point]), details))
    }
}

/// A pivot key as the param value it stands for.
fn key_value(k: &Key) -> Value {
    match k {
        Key::Num(n) => Value::Num(*n),
        Key::Text(t) => Value::Text(t.clone()),
    }
}
