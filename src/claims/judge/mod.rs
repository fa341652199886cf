//! Judging claims against the data: each clause of a parsed claim is turned
//! into cells (the runs of each series at each point of the clause's param,
//! from each cell's newest sweep), compared with the statistics of
//! [`super::stats`], and folded into a verdict with its evidence. A claim
//! can be judged as of any sweep date, which is how `reckon claims
//! --history` finds the sweep that overturned it.

mod best;
mod cells;
pub(crate) mod crossing;
mod crossover;
mod curve;
mod pairwise;
mod shape;
mod value;

use std::collections::BTreeSet;

use serde::Serialize;

use super::lang::{self, Body, Claim, Clause, QuantKind};
use super::{combine_all, combine_and, combine_any, Judgement, Point, Verdict};
use crate::metric::{Direction, Margins};
use crate::query::{Dataset, Filter, Key, Pivot, Query};
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

/// Where a conjunction's clauses are told besides the summary line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Clauses {
    /// Each on a line of its own below it (`reckon claims`, a claim
    /// region's report): the line names the clause that decided.
    ListedBelow,
    /// Nowhere else (lint's findings): the line names every clause.
    InLine,
}

/// The one line of a claim's verdict: a single clause's summary; for a
/// conjunction whose clauses are listed below it, the clause that decided
/// it first and alone (`[statement] summary`), the others counted by
/// verdict, so that a long `and` is not one line of every clause's
/// evidence; for one whose clauses are told nowhere else, every clause
/// with its summary.
pub(crate) fn claim_summary(verdict: Verdict, clauses: &[ClauseReport], told: Clauses) -> String {
    if let [one] = clauses {
        return one.summary.clone();
    }
    if told == Clauses::InLine {
        let each: Vec<String> = clauses.iter().map(|c| format!("[{}] {}", c.statement, c.summary)).collect();
        return format!("{verdict}: {}", each.join("; "));
    }
    let n = clauses.len();
    let Some(decisive) = clauses.iter().position(|c| c.verdict == verdict && verdict != Verdict::Holds) else {
        return format!("{verdict}: all {n} clauses hold");
    };
    let shown = &clauses[decisive];
    let mut counts: Vec<String> = Vec::new();
    for v in [Verdict::Contradicted, Verdict::Inconclusive, Verdict::NoData, Verdict::Holds] {
        let k = clauses.iter().enumerate().filter(|(i, c)| *i != decisive && c.verdict == v).count();
        if k > 0 {
            let word = if v == Verdict::Holds && k == 1 {
                "holds".to_string()
            } else if v == Verdict::Holds {
                "hold".to_string()
            } else {
                v.to_string()
            };
            counts.push(format!("{k} {word}"));
        }
    }
    format!(
        "{verdict}: [{}] {}; of the other {} clause{}: {}",
        shown.statement,
        shown.summary,
        n - 1,
        if n == 2 { "" } else { "s" },
        counts.join(", ")
    )
}

pub(crate) use super::lang::ClaimError;
pub(crate) use best::Standings;
use cells::{CellRuns, Scale};

/// What a project says about judging, as plain values (the caller reads
/// them from reckon.toml): the param whose values are the series a claim
/// compares, and the practical margin δ of each metric. Metric directions
/// are the dataset's, with the project's overrides already applied there.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub series: String,
    pub margins: Margins,
    /// Which runs of a point a comparison reads after a partial re-sweep.
    pub supersede: Supersede,
}

/// Which runs of a point a comparison reads after a partial re-sweep
/// (reckon.toml's `[claims] supersede`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Supersede {
    /// Each cell its own newest sweep, as a table shows it: a series re-run
    /// alone is compared with the other side's older runs, and the evidence
    /// names each side's sweep.
    #[default]
    Cell,
    /// A point's older runs are superseded only when its whole comparison
    /// was re-run: both sides from the newest sweep that holds both (each
    /// its newest when no sweep holds both).
    Comparison,
}

/// Judges claims over one dataset, optionally as of a sweep date.
pub(crate) struct Judge<'a, 's> {
    pub dataset: &'a Dataset<'s>,
    pub settings: &'a Settings,
    /// Only data from sweeps on or before this date (`YYYY-MM-DD`).
    pub as_of: Option<String>,
    /// The values of the series dimension the data hold, read once.
    series_values: std::cell::OnceCell<BTreeSet<String>>,
    /// What the clause being judged left out of its statistics (runs that
    /// logged no measurement), said in its evidence.
    left_out: std::cell::RefCell<BTreeSet<String>>,
    /// What the clause being judged could not judge at a point it ranges
    /// over — a cell whose runs were all left out, two cells that cannot be
    /// compared —, as said in its evidence: a `for all` cannot hold
    /// without it, a `for any` cannot be contradicted.
    unjudged: std::cell::RefCell<BTreeSet<String>>,
    /// The runs of the cells the clause being judged read, for the
    /// evidence's "repeats told apart by …": only its own cells' runs.
    read: std::cell::RefCell<BTreeSet<i64>>,
    /// Whose repeats the pooled spread the clause borrowed came from, said in its evidence.
    pooled_from: std::cell::RefCell<Option<String>>,
    /// The cells read so far of the pivot `highlight=best` asks about: each read once, not per opponent.
    cells: std::cell::RefCell<Option<cells::Kept>>,
}

impl<'a, 's> Judge<'a, 's> {
    pub(crate) fn new(dataset: &'a Dataset<'s>, settings: &'a Settings) -> Self {
        Judge {
            dataset,
            settings,
            as_of: None,
            series_values: std::cell::OnceCell::new(),
            left_out: std::cell::RefCell::default(),
            unjudged: std::cell::RefCell::default(),
            read: std::cell::RefCell::default(),
            pooled_from: std::cell::RefCell::default(),
            cells: std::cell::RefCell::default(),
        }
    }

    /// Judges every clause of a claim; the claim's verdict folds them.
    pub(crate) fn claim(&self, claim: &Claim) -> std::result::Result<(Verdict, Vec<ClauseReport>), ClaimError> {
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
        // A series written with its param, as the evidence writes a numeral
        // one (`threads=3`): the value after `=` when the name before it is
        // the series param (or an alias of it).
        if let Some((param, value)) = name.text.split_once('=') {
            let of_series = self.dataset.param_name(param.trim(), "the claim").is_ok_and(|p| p == *series);
            if of_series {
                let value = value.trim();
                let canonical = self.dataset.value_name(series, value).map_err(|e| at(e.to_string()))?;
                let canonical = canonical.unwrap_or_else(|| value.to_string());
                if held.contains(&canonical) {
                    return Ok(canonical);
                }
            }
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

    /// A series as evidence names it: with its param when the name is a
    /// numeral (`threads=0`, not `0`, which reads as a number).
    fn shown(&self, series: &str) -> String {
        if crate::syntax::read_number(series).is_some() {
            format!("{}={series}", self.settings.series)
        } else {
            series.to_string()
        }
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
        // Every sweep's runs when a comparison picks its sweep itself.
        if self.settings.supersede == Supersede::Comparison {
            q.agg = crate::query::Agg::All;
        }
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
        self.left_out.borrow_mut().clear();
        self.unjudged.borrow_mut().clear();
        self.read.borrow_mut().clear();
        self.pooled_from.borrow_mut().take();
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
        Self::signed_reads_values(clause, &metric)?;
        let direction = self.dataset.metric_info(&metric).map_or(Direction::Higher, |m| m.direction);
        let margin = clause.within.unwrap_or_else(|| self.settings.margins.of(&metric, direction));
        let mut details = Vec::new();
        let mut judgement = match &clause.body {
            Body::Pairwise(p) => self.pairwise(clause, p, &metric, param.as_deref(), direction, margin)?,
            Body::Value(v) => self.value(clause, v, &metric, param.as_deref(), margin)?,
            Body::Peak(p) => self.peak(clause, p, &metric, direction, margin, &mut details)?,
            Body::Trend(t) => self.trend(clause, t, &metric, direction, margin)?,
            Body::Crossover(c) => {
                let (judgement, found) = self.crossover(clause, c, &metric, param.as_deref(), direction, margin)?;
                details = found;
                judgement
            }
        };
        self.say_pooled(judgement.evidence.single_runs, &metric);
        judgement.evidence.left_out = std::mem::take(&mut *self.left_out.borrow_mut()).into_iter().collect();
        judgement.evidence.shown_in = self.shown_unit(&clause.body, &metric, &judgement.evidence);
        // The per-point breakdown of a claim over several points or
        // opponents, A first as written.
        let unit = judgement.evidence.shown_in.as_ref();
        details.extend(judgement.evidence.breakdown.iter().map(|ex| ex.line(unit)));
        let single = Claim { clauses: vec![clause.clone()] };
        let summary = match (&clause.body, details.first()) {
            // Say it in words: there is no crossover value to compare.
            (Body::Crossover(_), Some(first)) if !first.starts_with("crossover at") => {
                format!("{}: {first}", judgement.verdict)
            }
            _ => judgement.summary(),
        };
        Ok(ClauseReport { statement: single.to_string(), verdict: judgement.verdict, summary, judgement, details })
    }

    /// A signed metric (a change, a difference: see
    /// [`crate::metric::is_signed`]) is judged on its values, never on
    /// ratios of them: a bound on the value (`A on M < 0`, read on the raw
    /// scale) or a difference (`A - B on M > 0`). Every other form compares
    /// ratios — `beats`, `matches`, `<` between series, `/`, trends, peaks,
    /// crossovers — and is refused, saying why and what to write.
    fn signed_reads_values(clause: &Clause, metric: &str) -> Result<(), ClaimError> {
        if !crate::metric::is_signed(metric) {
            return Ok(());
        }
        let form = match &clause.body {
            Body::Value(v) if matches!(v.term, lang::Term::Ratio(..)) => "a ratio `A / B`",
            Body::Value(v) if v.versus.as_ref().is_some_and(|vs| vs.ratio) => "a ratio of two points",
            Body::Value(_) => return Ok(()),
            Body::Pairwise(_) => "a comparison of two series (it reads the ratio of their values)",
            Body::Peak(_) => "where a curve peaks (it compares points by their ratios)",
            Body::Trend(_) => "a trend (it compares adjacent points by their ratios)",
            Body::Crossover(_) => "a crossover (it compares the series by their ratios)",
        };
        let names = clause.body.series();
        let name = |i: usize, or: &str| names.get(i).map_or_else(|| or.to_string(), |n| n.text.clone());
        let (a, b) = (name(0, "A"), name(1, "B"));
        Err(ClaimError {
            offset: clause.offset,
            msg: format!(
                "`{metric}` is a signed change or difference (its 0 and negative values are measurements, not \
                 failed runs), so no ratio of its values means anything and {form} \
                 cannot be judged on it: bound the value itself (`{a} on {metric} < 0`) or compare by difference \
                 (`{a} - {b} on {metric} > 0`)"
            ),
        })
    }

    /// Records what the clause could not judge at a point (see
    /// [`Judge::settle`]) and gives it back, to be said where it was found.
    fn not_judged(&self, text: String) -> String {
        self.unjudged.borrow_mut().insert(text.clone());
        text
    }

    /// The rows of a pivot a quantifier speaks about.
    fn points<'p>(pivot: &'p Pivot, set: Option<&lang::PointSet>) -> Vec<(usize, &'p Key)> {
        pivot
            .rows
            .iter()
            .enumerate()
            .filter_map(|(i, key)| {
                let k = key.first()?;
                set.is_none_or(|s| s.contains(k)).then_some((i, k))
            })
            .collect()
    }

    /// Each cell a clause judges must hold one point: a clause without
    /// `at`/`for all` compares one cell per series, a quantified one a cell
    /// per series at each of its points. A cell whose runs lie at several
    /// values of some other param is refused, since pooling them would
    /// compare, say, every concurrency (or every tile size at one matrix
    /// size) at once; repeat markers tell repeats apart and do not count.
    fn single_point(
        &self,
        clause: &Clause,
        pivot: &Pivot,
        q: Option<&lang::Quantifier>,
        series: &[String],
    ) -> std::result::Result<(), ClaimError> {
        for (row, key) in Self::rows(pivot, q) {
            for name in series {
                let Some(col) = pivot.cols.iter().position(|c| c.first().is_some_and(|k| k.to_string() == *name))
                else {
                    continue;
                };
                let Some(cell) = pivot.cells.get(row).and_then(|r| r[col].as_ref()) else { continue };
                let Some((param, values)) = self.dataset.varying_params(&cell.runs).into_iter().next() else {
                    continue;
                };
                let values = values.join(", ");
                let msg = match key {
                    None => format!(
                        "`{name}` has runs at several `{param}` values ({values}); say which with \
                         `at {param} = …` or `for all {param}`"
                    ),
                    Some(k) => format!(
                        "`{name}` has runs at several `{param}` values ({values}) at {}; say which with \
                         `where {param} = …` after the claim",
                        Self::label(pivot, Some(k))
                    ),
                };
                return Err(ClaimError { offset: clause.offset, msg });
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
                    .any(|k| lang::compare(lit, k) == Some(std::cmp::Ordering::Equal))
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
        let as_of = self.as_of.as_ref().map(|d| format!(" on or before {d}")).unwrap_or_default();
        if pivot.runs_matched == 0 {
            return format!("no runs of `{}`{filter}{as_of}", pivot.metric.name);
        }
        // A series with no run under the filter and the date has nothing
        // in common with any other: say which, not that they share no point.
        let absent: Vec<String> = series
            .iter()
            .filter(|s| !pivot.cols.iter().any(|k| k.first().is_some_and(|v| v.to_string() == **s)))
            .map(|s| self.shown(s))
            .collect();
        if !absent.is_empty() {
            let has = if absent.len() == 1 { "has" } else { "have" };
            return format!("{} {has} no runs of `{}`{filter}{as_of}", absent.join(" and "), pivot.metric.name);
        }
        if let Some(q) = q {
            if Self::points(pivot, Some(&q.points)).is_empty() {
                return format!("no runs at {} {}{filter}", q.param.text, q.points);
            }
        }
        let shown: Vec<String> = series.iter().map(|s| self.shown(s)).collect();
        format!("{} have no point in common{filter}", shown.join(" and "))
    }

    /// Folds a clause's points as its quantifier says: `for any` needs one,
    /// `at` and `for all` need every one.
    fn fold(points: &[Point], q: Option<&lang::Quantifier>) -> Judgement {
        match q.map(|q| q.kind) {
            Some(QuantKind::ForAny) => combine_any(points),
            _ => combine_all(points),
        }
    }

    fn label(pivot: &Pivot, key: Option<&Key>) -> String {
        match (pivot.row_params.first(), key) {
            (Some(p), Some(k)) => format!("{p}={k}"),
            _ => String::new(),
        }
    }

    /// What the points of a range lacked — a side that ran there and one
    /// that did not — weighs as points the clause could not judge, said
    /// among what is missing: a `for all` cannot hold, a `for any` cannot
    /// be contradicted. Where the clause judged no point at all, they are
    /// only said, and the reason it has no data is the clause's own
    /// ([`Judge::empty_reason`]: a series with no runs by the date, …).
    fn weigh_lacking(j: &Judgement, mut missing: Vec<String>, lacking: Vec<String>) -> (Vec<String>, Vec<String>) {
        if j.evidence.points == 0 {
            return (missing, lacking);
        }
        missing.extend(lacking);
        (missing, Vec::new())
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
        // A point the clause could not judge weighs as a point it names
        // and the data lack: said once, among what is missing.
        let (mut missing, mut gaps) = (missing, gaps);
        for text in std::mem::take(&mut *self.unjudged.borrow_mut()) {
            gaps.retain(|g| *g != text);
            if !missing.contains(&text) {
                missing.push(text);
            }
        }
        let mut j = super::settle(j, any, missing, || self.empty_reason(clause, pivot, q, series));
        if j.verdict != Verdict::NoData {
            j.evidence.missing.extend(gaps);
            // The runs of the cells the clause read: never another point's.
            let ids: Vec<i64> = self.read.borrow().iter().copied().collect();
            j.evidence.repeats = self.dataset.repeats_note(&ids);
            if let Some(ex) = &j.evidence.example {
                let (a, b) = (ex.first.run_ids.as_slice(), ex.second.run_ids.as_slice());
                j.evidence.settings = self.dataset.settings_between(a, b, &self.settings.series);
            }
        }
        j
    }
}
