//! What moved between two sweeps: for every metric and every cell measured
//! in both, the change in the cell's value and whether it is beyond noise,
//! decided by the same statistics as claims ([`crate::claims::stats`]): the
//! newer sweep's runs are compared with the older one's as "A beats B", so a
//! cell "got better" exactly when a claim "the new sweep beats the old one
//! on this metric at this cell" would hold.
//!
//! A cell is the runs sharing the values of the key params: by default the
//! params every run of both sweeps has and that vary within a sweep (the
//! experiment's dimensions, e.g. config and `max_concurrency`). Params that
//! only tell the sweeps apart (a date label, a server version) or that only
//! one sweep records (a per-run tag) are not part of the key, nor are repeat
//! markers (`repeat`, `seed`, … see [`crate::run::is_repeat_marker`]): the
//! runs they tell apart are the repeats a cell compares.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use crate::claims::stats::{self, Interval, Outcome};
use crate::metric::{Direction, Margins};
use crate::query::{Dataset, Filter, Key};
use crate::{Error, Result};

/// Fields every run has that are not params of the experiment.
const PSEUDO: [&str; 3] = ["date", "time", "source"];

/// What to compare.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// The older sweep (default: the second newest).
    pub from: Option<String>,
    /// The newer sweep (default: the newest).
    pub to: Option<String>,
    /// Only these metrics (default: every metric with a direction).
    pub metrics: Vec<String>,
    /// Only runs matching this filter.
    pub filter: Option<Filter>,
    /// The params that make a cell (default: see the module comment).
    pub by: Vec<String>,
}

/// How a cell moved from the older sweep to the newer one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Movement {
    /// Better beyond noise (for the metric's direction; up for a neutral one).
    Better,
    /// Worse beyond noise (down for a neutral metric).
    Worse,
    /// The same within the metric's margin, shown beyond noise.
    Same,
    /// Neither: the change is within noise, or too few runs to tell.
    WithinNoise,
}

impl Movement {
    pub(crate) fn beyond_noise(self) -> bool {
        matches!(self, Movement::Better | Movement::Worse)
    }

    fn words(self, direction: Direction) -> &'static str {
        match (self, direction) {
            (Movement::Better, Direction::Neutral) => "up beyond noise",
            (Movement::Worse, Direction::Neutral) => "down beyond noise",
            (Movement::Better, _) => "better beyond noise",
            (Movement::Worse, _) => "worse beyond noise",
            (Movement::Same, _) => "same within margin",
            (Movement::WithinNoise, _) => "within noise",
        }
    }
}

/// One side of a cell's comparison.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SweepSide {
    /// The median of the cell's runs in that sweep.
    pub value: f64,
    pub runs: usize,
}

/// One cell present in both sweeps.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CellMove {
    pub metric: String,
    pub unit: Option<String>,
    pub direction: Direction,
    /// The key params and their values.
    pub cell: Vec<(String, String)>,
    pub from: SweepSide,
    pub to: SweepSide,
    /// to/from − 1 of the medians.
    pub change: f64,
    /// 95% interval of the ratio to/from (geometric means of the runs).
    pub ratio_ci95: Interval,
    /// The practical margin δ (a fraction).
    pub margin: f64,
    pub movement: Movement,
    /// A side has a single run: its noise is the metric's spread in
    /// repeated runs elsewhere, as for claims.
    pub single_run: bool,
    /// ln(to/from), signed so that positive is better.
    pub effect: f64,
}

impl CellMove {
    pub(crate) fn cell_label(&self) -> String {
        self.cell.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
    }

    pub(crate) fn verdict(&self) -> &'static str {
        self.movement.words(self.direction)
    }
}

/// A claim whose verdict differs as of the two sweeps.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ClaimMove {
    pub path: String,
    pub line: usize,
    pub id: String,
    pub from: crate::claims::Verdict,
    pub to: crate::claims::Verdict,
    /// The evidence as of the newer sweep.
    pub summary: String,
}

/// Everything `reckon diff` says.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SweepDiff {
    pub from: String,
    pub to: String,
    /// The params that make a cell.
    pub by: Vec<String>,
    /// Runs per cell in each sweep: (fewest, most).
    pub from_runs: (usize, usize),
    pub to_runs: (usize, usize),
    /// Every cell in both sweeps, moved beyond noise first, then by size.
    pub cells: Vec<CellMove>,
    /// Cells measured in only one of the sweeps.
    pub only_from: usize,
    pub only_to: usize,
    /// Metrics without a direction, left out unless named.
    pub neutral_skipped: Vec<String>,
    pub claims: Vec<ClaimMove>,
}

/// The sweeps in the data (matching `filter`), oldest first.
pub(crate) fn sweeps(dataset: &Dataset, filter: Option<&Filter>) -> Vec<String> {
    let set: BTreeSet<&str> =
        dataset.runs().iter().filter(|r| filter.is_none_or(|f| f.matches(*r))).map(|r| r.sweep.as_str()).collect();
    set.into_iter().map(str::to_string).collect()
}

/// The two sweeps to compare: as given, else the two newest.
pub(crate) fn pick_sweeps(dataset: &Dataset, opts: &Options) -> Result<(String, String)> {
    let all = sweeps(dataset, opts.filter.as_ref());
    let known = |s: &str, what: &str| -> Result<()> {
        if all.iter().any(|x| x == s) {
            Ok(())
        } else {
            Err(Error::usage(format!(
                "no runs in sweep `{s}` (the {what} sweep); sweeps in the data: {}",
                if all.is_empty() { "none (ingest logs first)".to_string() } else { all.join(", ") }
            )))
        }
    };
    let to = match &opts.to {
        Some(t) => {
            known(t, "newer")?;
            t.clone()
        }
        None => all.last().cloned().ok_or_else(|| Error::usage("no sweeps in the data; ingest logs first"))?,
    };
    let from = match &opts.from {
        Some(f) => {
            known(f, "older")?;
            f.clone()
        }
        None => all.iter().rev().find(|s| **s < to).cloned().ok_or_else(|| {
            Error::usage(format!("no sweep before {to}; a diff needs two (sweeps in the data: {})", all.join(", ")))
        })?,
    };
    if from == to {
        return Err(Error::usage(format!("the older and the newer sweep are the same ({to})")));
    }
    Ok((from, to))
}

/// The default key params: in every run of both sweeps, varying within one.
fn default_by(dataset: &Dataset, from: &str, to: &str, filter: Option<&Filter>) -> Vec<String> {
    let runs: Vec<_> = dataset
        .runs()
        .iter()
        .filter(|r| (r.sweep == from || r.sweep == to) && filter.is_none_or(|f| f.matches(*r)))
        .collect();
    let Some(first) = runs.first() else { return Vec::new() };
    let mut by = Vec::new();
    for name in first.params.keys() {
        if PSEUDO.contains(&name.as_str())
            || crate::run::is_repeat_marker(name)
            || !runs.iter().all(|r| r.params.contains_key(name))
        {
            continue;
        }
        let varies = [from, to].iter().any(|sweep| {
            let values: BTreeSet<String> =
                runs.iter().filter(|r| r.sweep == *sweep).map(|r| r.params[name].to_string()).collect();
            values.len() > 1
        });
        if varies {
            by.push(name.clone());
        }
    }
    by
}

/// A metric a diff compares: name, unit, direction.
type MetricSpec = (String, Option<String>, Direction);

/// One cell's values: the older sweep's runs, the newer sweep's.
type Sides = (Vec<f64>, Vec<f64>);

/// The metrics a diff compares (name, unit, direction), sorted, and the
/// neutral ones left out when none were named.
fn metrics_to_compare(dataset: &Dataset, opts: &Options) -> Result<(Vec<MetricSpec>, Vec<String>)> {
    let mut metrics: Vec<MetricSpec> = Vec::new();
    let mut neutral_skipped = Vec::new();
    if opts.metrics.is_empty() {
        for m in dataset.metrics() {
            if m.direction == Direction::Neutral {
                neutral_skipped.push(m.name.clone());
            } else {
                metrics.push((m.name.clone(), m.unit.clone(), m.direction));
            }
        }
    } else {
        for name in &opts.metrics {
            let m = dataset.metric_info(name)?;
            metrics.push((m.name.clone(), m.unit.clone(), m.direction));
        }
    }
    metrics.sort_by(|a, b| a.0.cmp(&b.0));
    neutral_skipped.sort();

    Ok((metrics, neutral_skipped))
}

/// Each cell's runs of one metric: cell key → (older sweep's values, newer
/// sweep's values).
fn sides_by_cell(
    dataset: &Dataset,
    metric: &str,
    by: &[String],
    (from, to): (&str, &str),
    filter: Option<&Filter>,
) -> Result<BTreeMap<Vec<Key>, Sides>> {
    let mut groups: BTreeMap<Vec<Key>, Sides> = BTreeMap::new();
    for (run, value) in dataset.values(metric)? {
        let newer = run.sweep == to;
        if !(newer || run.sweep == from) || filter.is_some_and(|f| !f.matches(run)) || !value.is_finite() {
            continue;
        }
        let Some(key) = by.iter().map(|p| run.params.get(p).map(|v| Key::parse(&v.to_string()))).collect() else {
            continue;
        };
        let sides = groups.entry(key).or_default();
        if newer { &mut sides.1 } else { &mut sides.0 }.push(value);
    }
    Ok(groups)
}

/// Compares the two sweeps cell by cell.
pub(crate) fn compute(dataset: &Dataset, margins: &Margins, opts: &Options) -> Result<SweepDiff> {
    // Names as the data use them: reckon.toml's aliases resolved.
    let opts =
        &Options { filter: opts.filter.as_ref().map(|f| dataset.resolve_filter(f)).transpose()?, ..opts.clone() };
    let (from, to) = pick_sweeps(dataset, opts)?;
    let filter = opts.filter.as_ref();
    let by = if opts.by.is_empty() {
        default_by(dataset, &from, &to, filter)
    } else {
        opts.by.iter().map(|p| dataset.param_name(p, "--by")).collect::<Result<Vec<_>>>()?
    };
    let (metrics, neutral_skipped) = metrics_to_compare(dataset, opts)?;
    let mut cells = Vec::new();
    let (mut only_from, mut only_to) = (0, 0);
    let (mut from_runs, mut to_runs) = ((usize::MAX, 0), (usize::MAX, 0));
    for (metric, unit, direction) in metrics {
        let groups = sides_by_cell(dataset, &metric, &by, (&from, &to), filter)?;
        let pooled = pooled_log_sd(groups.values().flat_map(|(a, b)| [a.as_slice(), b.as_slice()]));
        let margin = margins.of(&metric, direction);
        for (key, (old, new)) in &groups {
            match (old.is_empty(), new.is_empty()) {
                (true, true) => continue,
                (true, false) => {
                    only_to += 1;
                    continue;
                }
                (false, true) => {
                    only_from += 1;
                    continue;
                }
                _ => {}
            }
            // Ratios need positive values: a zero or negative cell is left out.
            let Ok(c) = stats::compare(new, old, direction, margin, pooled) else { continue };
            from_runs = (from_runs.0.min(old.len()), from_runs.1.max(old.len()));
            to_runs = (to_runs.0.min(new.len()), to_runs.1.max(new.len()));
            let movement = match c.outcome {
                Outcome::Better => Movement::Better,
                Outcome::Worse => Movement::Worse,
                Outcome::Equivalent => Movement::Same,
                Outcome::Inconclusive => Movement::WithinNoise,
            };
            // The comparison's interval is of d signed by direction; the
            // ratio to/from is stated literally.
            let literal =
                if direction == Direction::Lower { Interval { lo: -c.ci95.hi, hi: -c.ci95.lo } } else { c.ci95 };
            cells.push(CellMove {
                metric: metric.clone(),
                unit: unit.clone(),
                direction,
                cell: by.iter().cloned().zip(key.iter().map(Key::to_string)).collect(),
                from: SweepSide { value: c.b_value, runs: c.n_b },
                to: SweepSide { value: c.a_value, runs: c.n_a },
                change: c.rel_diff,
                ratio_ci95: literal.exp(),
                margin,
                movement,
                single_run: c.single_run,
                effect: c.d,
            });
        }
    }
    cells.sort_by(|a, b| {
        b.movement.beyond_noise().cmp(&a.movement.beyond_noise()).then(b.effect.abs().total_cmp(&a.effect.abs()))
    });
    let fix = |r: (usize, usize)| if r.0 == usize::MAX { (0, 0) } else { r };
    Ok(SweepDiff {
        from,
        to,
        by,
        from_runs: fix(from_runs),
        to_runs: fix(to_runs),
        cells,
        only_from,
        only_to,
        neutral_skipped,
        claims: Vec::new(),
    })
}

/// The per-run sd of ln(value) pooled over every group of two or more runs
/// (the spread the claim engine uses for single-run sides).
pub(crate) fn pooled_log_sd<'a>(groups: impl Iterator<Item = &'a [f64]>) -> Option<f64> {
    let (mut ss, mut dof) = (0.0, 0usize);
    for g in groups {
        let logs: Vec<f64> = g.iter().filter(|v| **v > 0.0).map(|v| v.ln()).collect();
        if logs.len() >= 2 {
            let mean = logs.iter().sum::<f64>() / logs.len() as f64;
            ss += logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>();
            dof += logs.len() - 1;
        }
    }
    (dof > 0).then(|| (ss / dof as f64).sqrt())
}

fn runs_phrase(r: (usize, usize)) -> String {
    match r {
        (1, 1) => "single runs (1 run per cell)".to_string(),
        (a, b) if a == b => format!("{a} runs per cell"),
        (a, b) => format!("{a}–{b} runs per cell"),
    }
}

fn pct(x: f64) -> String {
    format!("{:+.1}%", x * 100.0)
}

fn num(v: f64, digits: Option<usize>) -> String {
    crate::query::NumberFormat { precision: digits }.format(v)
}

/// Which cells a rendering lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Listing {
    /// Every cell whose value changed.
    Changed,
    /// Only the cells that moved beyond noise.
    BeyondNoise,
}

impl SweepDiff {
    fn listed(&self, listing: Listing) -> impl Iterator<Item = &CellMove> {
        self.cells.iter().filter(move |c| match listing {
            Listing::Changed => c.from.value != c.to.value || c.movement.beyond_noise(),
            Listing::BeyondNoise => c.movement.beyond_noise(),
        })
    }

    /// "12 of 484 cells moved beyond noise (5 better, 7 worse); …".
    pub(crate) fn headline(&self) -> String {
        let n = self.cells.len();
        let better = self.cells.iter().filter(|c| c.movement == Movement::Better).count();
        let worse = self.cells.iter().filter(|c| c.movement == Movement::Worse).count();
        let same = self.cells.iter().filter(|c| c.movement == Movement::Same).count();
        let noise = n - better - worse - same;
        format!(
            "{} of {n} cells moved beyond noise ({better} better, {worse} worse); {noise} within noise; {same} the \
             same within their margin",
            better + worse
        )
    }

    /// Lines said before and after the cells: the sweeps, the runs, what was
    /// left out.
    fn preamble(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{} → {}, cells by {}: {} has {}, {} has {}.",
            self.from,
            self.to,
            if self.by.is_empty() { "(nothing: one cell per metric)".to_string() } else { self.by.join(", ") },
            self.from,
            runs_phrase(self.from_runs),
            self.to,
            runs_phrase(self.to_runs)
        )];
        if self.from_runs.0 == 1 || self.to_runs.0 == 1 {
            lines.push(
                "A side with a single run has no spread of its own: its noise is the spread of the metric's \
                 repeated runs, as for claims, and such cells are marked ¹."
                    .to_string(),
            );
        }
        lines.push(self.headline() + ".");
        lines
    }

    fn postscript(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.only_from + self.only_to > 0 {
            lines.push(format!(
                "Not compared: {} cell(s) only in {}, {} only in {}.",
                self.only_from, self.from, self.only_to, self.to
            ));
        }
        if !self.neutral_skipped.is_empty() {
            lines.push(format!(
                "Metrics without a better direction not compared (name them with --metric): {}.",
                self.neutral_skipped.join(", ")
            ));
        }
        lines
    }

    fn claim_lines(&self) -> Vec<String> {
        self.claims
            .iter()
            .map(|c| format!("{}:{}: claim `{}`: {} → {}: {}", c.path, c.line, c.id, c.from, c.to, c.summary))
            .collect()
    }

    fn row(c: &CellMove, digits: Option<usize>) -> Vec<String> {
        let mark = if c.single_run { "¹" } else { "" };
        vec![
            c.metric.clone(),
            c.cell_label(),
            num(c.from.value, digits),
            num(c.to.value, digits),
            pct(c.change),
            format!("{}…{}", pct(c.ratio_ci95.lo - 1.0), pct(c.ratio_ci95.hi - 1.0)),
            format!("{} vs {}", c.from.runs, c.to.runs),
            format!("{}{mark}", c.verdict()),
        ]
    }

    fn header(&self) -> Vec<String> {
        ["metric", "cell", &self.from, &self.to, "change", "95% interval", "runs", "verdict"]
            .iter()
            .map(std::string::ToString::to_string)
            .collect()
    }

    /// An aligned table for a terminal.
    pub(crate) fn to_text(&self, listing: Listing, digits: Option<usize>) -> String {
        let mut out = self.preamble().join("\n");
        out.push_str("\n\n");
        let mut rows = vec![self.header()];
        rows.extend(self.listed(listing).map(|c| Self::row(c, digits)));
        if rows.len() == 1 {
            out.push_str("(no cell moved)\n");
        } else {
            let widths: Vec<usize> =
                (0..rows[0].len()).map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
            for row in &rows {
                let mut line = String::new();
                for (i, cell) in row.iter().enumerate() {
                    let pad = widths[i] - cell.chars().count();
                    // Numbers right-aligned, words left-aligned.
                    if (2..=6).contains(&i) {
                        line.push_str(&" ".repeat(pad));
                        line.push_str(cell);
                    } else {
                        line.push_str(cell);
                        line.push_str(&" ".repeat(pad));
                    }
                    line.push_str("  ");
                }
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
        for l in self.postscript() {
            out.push_str(&l);
            out.push('\n');
        }
        if !self.claims.is_empty() {
            let _ = writeln!(out, "\nClaims whose verdict changed from {} to {}:", self.from, self.to);
            for l in self.claim_lines() {
                let _ = writeln!(out, "  {l}");
            }
        }
        out
    }

    /// A markdown section (used by `--format markdown` and `diff` regions).
    pub(crate) fn to_markdown(&self, listing: Listing, digits: Option<usize>) -> String {
        let mut out = self.preamble().join(" ");
        out.push_str("\n\n");
        let body: Vec<Vec<String>> = self
            .listed(listing)
            .map(|c| {
                let mut r = Self::row(c, digits);
                r[1] = r[1].replace('|', "\\|");
                if c.movement.beyond_noise() {
                    r[7] = format!("**{}**", r[7]);
                }
                r
            })
            .collect();
        if body.is_empty() {
            out.push_str("_No cell moved._\n");
        } else {
            let right = [false, false, true, true, true, true, true, false];
            out.push_str(&crate::query::markdown_table(&self.header(), &right, &body));
        }
        let post = self.postscript();
        if !post.is_empty() {
            out.push('\n');
            out.push_str(&post.join(" "));
            out.push('\n');
        }
        if !self.claims.is_empty() {
            let _ = writeln!(out, "\nClaims whose verdict changed from {} to {}:\n", self.from, self.to);
            for c in &self.claims {
                let _ =
                    writeln!(out, "- `{}` ({}:{}): {} → **{}** — {}", c.id, c.path, c.line, c.from, c.to, c.summary);
            }
        }
        out
    }

    pub(crate) fn to_json(&self) -> Result<String> {
        let mut s = serde_json::to_string_pretty(self).map_err(|e| Error::usage(e.to_string()))?;
        s.push('\n');
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pooled_sd_ignores_single_runs() {
        assert_eq!(pooled_log_sd([[1.0].as_slice()].into_iter()), None);
        let g1 = [100.0, 110.0];
        let sd = pooled_log_sd([g1.as_slice(), [5.0].as_slice()].into_iter()).unwrap();
        let expect = ((110f64.ln() - 100f64.ln()).powi(2) / 2.0).sqrt();
        assert!((sd - expect).abs() < 1e-12, "{sd} vs {expect}");
    }

    #[test]
    fn movement_words_follow_direction() {
        assert_eq!(Movement::Better.words(Direction::Lower), "better beyond noise");
        assert_eq!(Movement::Worse.words(Direction::Neutral), "down beyond noise");
        assert!(!Movement::WithinNoise.beyond_noise());
    }
}
