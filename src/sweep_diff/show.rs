//! How a sweep diff is said: the preamble (sweeps, runs per cell, what keys
//! the cells), an aligned table for a terminal, a markdown section. (The
//! JSON is [`SweepDiff`] itself, serialized by the CLI.)

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{CellKey, CellMove, ComparedBy, Movement, SweepDiff};

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

/// A difference with its sign: `+0.03`, `-0.01`, `0`.
fn signed(v: f64, digits: Option<usize>) -> String {
    let n = num(v, digits);
    if v > 0.0 && !n.starts_with('+') {
        format!("+{n}")
    } else {
        n
    }
}

/// How many cells a list of cells only in one sweep names before "and N more".
const NAMED_CELLS: usize = 3;

/// ` (time at flags=O2 program=lua, …, and 85 more)`, or nothing.
fn named_cells(cells: &[CellKey]) -> String {
    if cells.is_empty() {
        return String::new();
    }
    let mut named: Vec<String> = cells.iter().take(NAMED_CELLS).map(CellKey::label).collect();
    if cells.len() > NAMED_CELLS {
        named.push(format!("and {} more", cells.len() - NAMED_CELLS));
    }
    format!(" ({})", named.join(", "))
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

    /// "12 of 484 cells moved beyond noise (5 better, 7 worse); …", or,
    /// when no cell was compared, that nothing was.
    pub(crate) fn headline(&self) -> String {
        let n = self.cells.len();
        if n == 0 {
            return if self.not_compared.is_empty() {
                format!(
                    "Nothing compared: {} and {} share no cell of the metrics compared, so this diff cannot say \
                     whether anything moved",
                    self.from, self.to
                )
            } else {
                format!(
                    "Nothing compared: no cell in both {} and {} could be compared (below), so this diff cannot say \
                     whether anything moved",
                    self.from, self.to
                )
            };
        }
        let better = self.cells.iter().filter(|c| c.movement == Movement::Better).count();
        let worse = self.cells.iter().filter(|c| c.movement == Movement::Worse).count();
        let same = self.cells.iter().filter(|c| c.movement == Movement::Same).count();
        let bare = self.cells.iter().filter(|c| c.movement == Movement::NoSpread).count();
        let noise = n - better - worse - same - bare;
        let mut line = format!(
            "{} of {n} cells moved beyond noise ({better} better, {worse} worse); {noise} within noise; {same} the \
             same within their margin",
            better + worse
        );
        if bare > 0 {
            let _ = write!(
                line,
                "; {bare} of single runs with no spread to judge by (no repeats of the metric anywhere: run \
                 repeats to tell a change from noise)"
            );
        }
        line
    }

    /// Lines said before and after the cells: the sweeps, the runs, what was
    /// left out.
    fn preamble(&self) -> Vec<String> {
        let mut lines = vec![if self.cells.is_empty() {
            format!("{} → {}, cells by {}.", self.from, self.to, self.keys_phrase())
        } else {
            format!(
                "{} → {}, cells by {}: {} has {}, {} has {}.",
                self.from,
                self.to,
                self.keys_phrase(),
                self.from,
                runs_phrase(self.from_runs),
                self.to,
                runs_phrase(self.to_runs)
            )
        }];
        if self.cells.iter().any(|c| c.single_run && c.movement != Movement::NoSpread) {
            lines.push(
                "A side with a single run has no spread of its own: its noise is the spread of the metric's \
                 repeated runs, as for claims, and such cells are marked ¹."
                    .to_string(),
            );
        }
        if !self.unkeyed.is_empty() {
            // Grouped by what they lack: a hyperfine log lacks the same
            // params for each of its metrics.
            let mut by_params: Vec<(String, Vec<String>)> = Vec::new();
            for u in &self.unkeyed {
                let lack = u.params.join(", ");
                let runs = format!("{} {} run(s)", u.runs, u.metric);
                match by_params.iter_mut().find(|(l, _)| *l == lack) {
                    Some((_, list)) => list.push(runs),
                    None => by_params.push((lack, vec![runs])),
                }
            }
            let each: Vec<String> =
                by_params.iter().map(|(lack, runs)| format!("{} lack {lack}", runs.join(", "))).collect();
            lines.push(format!(
                "Runs that lack a key param are not pooled with those that have it: they form cells of their own, \
                 labelled by the params they have ({}).",
                each.join("; ")
            ));
        }
        lines.push(self.headline() + ".");
        lines
    }

    /// `config, max_concurrency`, or, when the metrics' runs record
    /// different params, each key with the metrics it keys.
    fn keys_phrase(&self) -> String {
        let list =
            |by: &[String]| if by.is_empty() { "(nothing: one cell per metric)".to_string() } else { by.join(", ") };
        let mut groups: Vec<(&[String], Vec<&str>)> = Vec::new();
        for (metric, by) in &self.by_metric {
            match groups.iter_mut().find(|(b, _)| *b == by.as_slice()) {
                Some((_, metrics)) => metrics.push(metric),
                None => groups.push((by, vec![metric])),
            }
        }
        if groups.len() < 2 {
            return list(&self.by);
        }
        groups
            .iter()
            .map(|(by, metrics)| format!("{} for {}", list(by), metrics.join(", ")))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// "Sides differ in a run setting …: `host_name` bench-01 vs bench-02
    /// in 5 cell(s) (…)", grouped by the change, or nothing.
    fn settings_line(&self) -> Option<String> {
        let mut by_change: BTreeMap<String, Vec<CellKey>> = BTreeMap::new();
        for c in &self.cells {
            for change in &c.settings {
                let key = CellKey { metric: c.metric.clone(), cell: c.cell.clone() };
                by_change.entry(change.phrase()).or_default().push(key);
            }
        }
        if by_change.is_empty() {
            return None;
        }
        let each: Vec<String> = by_change
            .iter()
            .map(|(phrase, cells)| format!("{phrase} in {} cell(s){}", cells.len(), named_cells(cells)))
            .collect();
        Some(format!(
            "Sides differ in a run setting outside the cell key (a change there may be the setting's; the verdicts \
             do not take it into account): {}.",
            each.join("; ")
        ))
    }

    fn postscript(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.settings_line().into_iter().collect();
        if self.only_from + self.only_to > 0 {
            lines.push(format!(
                "Not compared: {} cell(s) only in {}{}, {} only in {}{}.",
                self.only_from,
                self.from,
                named_cells(&self.only_from_cells),
                self.only_to,
                self.to,
                named_cells(&self.only_to_cells)
            ));
        }
        if !self.suggested.is_empty() {
            let each: Vec<String> = self
                .suggested
                .iter()
                .map(|p| {
                    format!(
                        "{} shares {} cell(s) with {} (`reckon diff --from {} --to {}`)",
                        p.from, p.cells, p.to, p.from, p.to
                    )
                })
                .collect();
            let why = if self.not_compared.is_empty() {
                " (a sweep split over two days by a run past midnight puts its logs in two sweeps)"
            } else {
                ""
            };
            lines.push(format!("Sweeps that share cells{why}: {}.", each.join("; ")));
        }
        if !self.not_compared.is_empty() {
            lines.push(format!("Not compared: {}.", self.not_compared.join("; ")));
        }
        if !self.left_out.is_empty() {
            lines.push(format!("Left out: {}.", self.left_out.join("; ")));
        }
        if !self.neutral_skipped.is_empty() {
            lines.push(format!(
                "Metrics without a better direction not compared (name them with --metric): {}.",
                self.neutral_skipped.join(", ")
            ));
        }
        if !self.summaries_skipped.is_empty() {
            lines.push(format!(
                "Metrics with one value per cell and no repeats, summaries of the repeats the compared metrics hold, \
                 not compared (name them with --metric): {}.",
                self.summaries_skipped.join(", ")
            ));
        }
        if !self.unrepeated_skipped.is_empty() {
            lines.push(format!(
                "Metrics with one value per cell (no repeats), so they cannot be judged beyond noise, not compared \
                 (name them with --metric): {}.",
                self.unrepeated_skipped.join(", ")
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
        let mark = if c.single_run && c.movement != Movement::NoSpread { "¹" } else { "" };
        vec![
            c.metric.clone(),
            c.cell_label(),
            num(c.from.value, digits),
            num(c.to.value, digits),
            match c.compared_by {
                ComparedBy::Ratio => pct(c.change),
                ComparedBy::Difference => format!("{} (difference)", signed(c.change, digits)),
            },
            match (c.movement, c.ratio_ci95, c.difference_ci95) {
                (Movement::NoSpread, ..) => "none (no spread)".to_string(),
                (_, Some(r), _) => format!("{}…{}", pct(r.lo - 1.0), pct(r.hi - 1.0)),
                (_, None, Some(d)) => format!("{}…{}", signed(d.lo, digits), signed(d.hi, digits)),
                (_, None, None) => String::new(),
            },
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
    /// Names, params and sweeps come from logs: each line and cell with
    /// its control characters written visibly.
    pub(crate) fn to_text(&self, listing: Listing, digits: Option<usize>) -> String {
        let shown = crate::escape::terminal;
        let mut out = self.preamble().iter().map(|l| shown(l)).collect::<Vec<_>>().join("\n");
        out.push_str("\n\n");
        let mut rows = vec![self.header().iter().map(|c| shown(c)).collect::<Vec<_>>()];
        rows.extend(self.listed(listing).map(|c| Self::row(c, digits).iter().map(|c| shown(c)).collect()));
        if rows.len() == 1 {
            out.push_str(if self.cells.is_empty() { "(nothing compared)\n" } else { "(no cell moved)\n" });
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
            out.push_str(&shown(&l));
            out.push('\n');
        }
        if !self.claims.is_empty() {
            let _ = writeln!(out, "\nClaims whose verdict changed from {} to {}:", shown(&self.from), shown(&self.to));
            for l in self.claim_lines() {
                let _ = writeln!(out, "  {}", shown(&l));
            }
        }
        out
    }

    /// A markdown section (used by `--format markdown` and `diff` regions).
    pub(crate) fn to_markdown(&self, listing: Listing, digits: Option<usize>) -> String {
        // Names, params and sweeps come from logs: every piece of text is
        // escaped, as markdown text.
        let md = crate::escape::markdown;
        let mut out = md(&self.preamble().join(" "));
        out.push_str("\n\n");
        let body: Vec<Vec<String>> = self
            .listed(listing)
            .map(|c| {
                let mut r: Vec<String> = Self::row(c, digits).iter().map(|t| md(t)).collect();
                if c.movement.beyond_noise() {
                    r[7] = format!("**{}**", r[7]);
                }
                r
            })
            .collect();
        if body.is_empty() {
            out.push_str(if self.cells.is_empty() { "_Nothing compared._\n" } else { "_No cell moved._\n" });
        } else {
            let right = [false, false, true, true, true, true, true, false];
            let header: Vec<String> = self.header().iter().map(|t| md(t)).collect();
            out.push_str(&crate::query::markdown_rows(&header, &right, &body));
        }
        let post = self.postscript();
        if !post.is_empty() {
            out.push('\n');
            out.push_str(&md(&post.join(" ")));
            out.push('\n');
        }
        if !self.claims.is_empty() {
            let _ = writeln!(out, "\nClaims whose verdict changed from {} to {}:\n", md(&self.from), md(&self.to));
            for c in &self.claims {
                let (id, path, summary) = (md(&c.id), md(&c.path), md(&c.summary));
                let _ = writeln!(out, "- {id} ({path}:{}): {} → **{}** — {summary}", c.line, c.from, c.to);
            }
        }
        out
    }
}
