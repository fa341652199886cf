//! `reckon lint`: checkable statements in prose nobody annotated. The prose
//! of a document ([`prose`]: paragraphs, list items, headings, table cells;
//! not code, not reckon regions) is cut into sentences and tokens
//! ([`vocab`]: the series, metrics, params and `[points]` phrases the
//! project knows), read as claims in reckon's claim language ([`read`]),
//! and judged by the claim engine, as of the newest sweep or — for history
//! (a dated section, table or sentence) — as of its date.
//!
//! A statement is *contradicted* when the data show the opposite beyond
//! noise, *stale* when it states a number an earlier sweep bore out (held or
//! within noise) and the newest data contradict. Plans and recommendations
//! are not judged; a name that fits several series is reported as
//! ambiguous, never guessed.
#![allow(clippy::assigning_clones, clippy::default_trait_access, clippy::too_many_lines, clippy::unused_self)] // floor-plan debt (issue 7): fix these and delete this line

pub mod prose;
pub mod read;
pub mod report;
pub mod vocab;

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::Path;

use serde::Serialize;

use crate::claims::judge::Judge;
use crate::claims::{lang, Verdict};
use crate::config::Config;
use crate::query::Dataset;
use crate::Result;
use prose::{Block, BlockKind};
use read::{Item, Reading, Surroundings};
use vocab::{Meaning, Tok, Token, Unit, Vocabulary};

/// What lint concluded about one statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The data contradict it.
    Contradicted,
    /// It states a number that the data of an earlier sweep bore out (held,
    /// or within noise) and the newest data contradict.
    Stale,
    Holds,
    /// Within noise, or too few runs.
    Inconclusive,
    NoData,
    /// A name that fits several series.
    Ambiguous,
    /// Dated before the newest sweep and right as of its date.
    History,
    /// A plan or recommendation: not judged.
    Plan,
    /// Read as a claim the engine could not judge (e.g. no point given
    /// where the data hold several).
    Unjudged,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Contradicted => "contradicted",
            Status::Stale => "stale",
            Status::Holds => "holds",
            Status::Inconclusive => "inconclusive",
            Status::NoData => "no data",
            Status::Ambiguous => "ambiguous",
            Status::History => "history",
            Status::Plan => "plan",
            Status::Unjudged => "unjudged",
        }
    }

    /// Contradicted or stale: what lint reports as a problem.
    pub fn is_problem(self) -> bool {
        matches!(self, Status::Contradicted | Status::Stale)
    }
}

/// One statement found in prose, with what it was read as and its verdict.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub line: usize,
    pub col: usize,
    /// Byte range of the sentence in the document.
    pub span: Range<usize>,
    pub sentence: String,
    /// The claim it was read as (None: ambiguous).
    pub claim: Option<String>,
    pub status: Status,
    /// The claim engine's verdict (for stale: contradicted).
    pub verdict: Option<Verdict>,
    /// The verdict with its evidence, or why it was not judged.
    pub summary: String,
    /// How sure the reading is, 0 to 1.
    pub confidence: f64,
    /// What the reading took from the context.
    pub notes: Vec<String>,
    /// History: the date it was judged as of.
    pub as_of: Option<String>,
    /// Stale: the sweep as of which it was right.
    pub held_as_of: Option<String>,
    /// Ambiguous: the series the name fits.
    pub candidates: Vec<String>,
    /// Sits in a table cell (not wrapped by `--write`).
    pub in_table: bool,
    /// Byte range of the paragraph, list item or heading it sits in.
    #[serde(skip)]
    pub block_span: Range<usize>,
}

/// Lints one document.
pub struct Linter<'a, 's> {
    dataset: &'a Dataset<'s>,
    cfg: &'a Config,
    vocab: Vocabulary,
    /// Every sweep date, oldest first.
    sweeps: Vec<String>,
    preferred_params: Vec<String>,
    judged: std::cell::RefCell<std::collections::HashMap<(String, Option<String>), VerdictOrWhy>>,
}

type VerdictOrWhy = std::result::Result<(Verdict, String), String>;

impl<'a, 's> Linter<'a, 's> {
    pub fn new(dataset: &'a Dataset<'s>, cfg: &'a Config) -> Self {
        let vocab = Vocabulary::new(dataset, cfg);
        let sweeps: Vec<String> =
            dataset.runs().iter().map(|r| r.sweep.clone()).collect::<BTreeSet<_>>().into_iter().collect();
        let mut preferred_params: Vec<String> = Vec::new();
        for spec in cfg.points.values() {
            if let Some(s) = vocab::Scope::parse(spec, Some(0.0)) {
                if !preferred_params.iter().any(|p| p == s.param()) {
                    preferred_params.push(s.param().to_string());
                }
            }
        }
        Linter { dataset, cfg, vocab, sweeps, preferred_params, judged: Default::default() }
    }

    /// Every statement of the document (`path` names it in errors).
    pub fn lint(&self, path: &Path, text: &str) -> Result<Vec<Finding>> {
        let document = crate::doc::parse(path, text)?;
        let skip: Vec<Range<usize>> = document.regions.iter().map(|r| r.open.start..r.close.end).collect();
        let blocks = prose::blocks(text, &skip);
        let sentences = prose::sentences(&blocks);
        let tokens: Vec<Vec<Token>> = blocks.iter().map(|b| vocab::tokenize(&self.vocab, &b.text)).collect();
        let newest = self.sweeps.last().cloned();
        let mut out = Vec::new();
        for s in &sentences {
            let b = &blocks[s.block];
            if skip.iter().any(|r| s.span.start < r.end && r.start < s.span.end) {
                continue;
            }
            let toks: Vec<Token> = tokens[s.block]
                .iter()
                .filter(|t| t.start >= s.range.start && t.end <= s.range.end)
                .map(|t| Token { kind: t.kind.clone(), start: t.start - s.range.start, end: t.end - s.range.start })
                .collect();
            let sentence_text = &b.text[s.range.clone()];
            let (line, col) = crate::doc::location(text, s.span.start);
            let in_table = matches!(b.kind, BlockKind::TableCell { .. });
            let items = match self.table_cell(&blocks, &tokens, s.block) {
                Some(reading) => vec![Item::Reading(reading)],
                None if in_table
                    && matches!(b.kind, BlockKind::TableCell { col: 0, .. } | BlockKind::TableCell { row: 0, .. }) =>
                {
                    continue
                }
                None => {
                    let around = self.surroundings(&blocks, &tokens, s.block, s.range.start);
                    read::read(&self.vocab, &toks, sentence_text, &around, &self.preferred_params)
                }
            };
            if items.is_empty() {
                continue;
            }
            let plan = is_plan(&toks) || b.headings.iter().any(|h| is_plan_heading(&blocks[*h].text));
            let date = block_date(&toks)
                .or_else(|| if in_table { table_date(&blocks, &tokens, s.block) } else { None })
                // Under a dated heading, tables and sentences in the past
                // tense are the record of that date; sentences in the
                // present tense are conclusions standing today.
                .or_else(|| {
                    if in_table || is_past_tense(&toks) {
                        b.headings.iter().rev().find_map(|h| block_date(&tokens[*h]))
                    } else {
                        None
                    }
                });
            let as_of = match (&date, &newest) {
                (Some(d), Some(n)) if d < n => Some(d.clone()),
                _ => None,
            };
            for item in items {
                let mut f = Finding {
                    line,
                    col,
                    span: s.span.clone(),
                    sentence: sentence_text.to_string(),
                    claim: None,
                    status: Status::Unjudged,
                    verdict: None,
                    summary: String::new(),
                    confidence: 0.0,
                    notes: Vec::new(),
                    as_of: None,
                    held_as_of: None,
                    candidates: Vec::new(),
                    in_table,
                    block_span: b.span.clone(),
                };
                match item {
                    Item::Ambiguous { phrase, candidates } => {
                        f.status = if plan { Status::Plan } else { Status::Ambiguous };
                        f.confidence = 1.0;
                        f.summary = format!("`{phrase}` fits several series: {}; name one", candidates.join(", "));
                        f.candidates = candidates;
                    }
                    Item::Reading(r) => {
                        f.claim = Some(r.statement.clone());
                        f.confidence = r.confidence;
                        f.notes = r.notes.clone();
                        if plan {
                            f.status = Status::Plan;
                            f.summary = "a plan or recommendation: not judged".into();
                        } else {
                            self.judge(&mut f, &r, as_of.as_deref());
                        }
                    }
                }
                out.push(f);
            }
        }
        Ok(out)
    }

    /// Judges a reading now (or as of a history date), and tells a stale
    /// number from a wrong one.
    fn judge(&self, f: &mut Finding, r: &Reading, as_of: Option<&str>) {
        let (verdict, summary) = match self.verdict(&r.statement, as_of) {
            Ok(v) => v,
            Err(msg) => {
                f.status = Status::Unjudged;
                f.summary = msg;
                return;
            }
        };
        f.verdict = Some(verdict);
        f.summary = summary;
        f.status = match verdict {
            Verdict::Holds => Status::Holds,
            Verdict::Inconclusive => Status::Inconclusive,
            Verdict::NoData => Status::NoData,
            Verdict::Contradicted => Status::Contradicted,
        };
        if let Some(d) = as_of {
            f.as_of = Some(d.to_string());
            if verdict == Verdict::Contradicted {
                f.summary = format!("as of {d} (the date it is written under): {}", f.summary);
            } else {
                f.status = Status::History;
            }
            return;
        }
        // Stale: right with the data as they stood before the newest sweep
        // — it held, or they were within noise of it (not contradicted, not
        // without data). One more judgement, only for contradicted numbers.
        if verdict == Verdict::Contradicted && r.number {
            if let Some(before) = self.sweeps.len().checked_sub(2).map(|i| &self.sweeps[i]) {
                if let Ok((Verdict::Holds | Verdict::Inconclusive, _)) = self.verdict(&r.statement, Some(before)) {
                    f.status = Status::Stale;
                    f.held_as_of = Some(before.clone());
                }
            }
        }
    }

    /// The verdict of a statement (as of a date), judged once per lint:
    /// plans repeat their conclusions.
    fn verdict(&self, statement: &str, as_of: Option<&str>) -> VerdictOrWhy {
        let key = (statement.to_string(), as_of.map(str::to_string));
        if let Some(v) = self.judged.borrow().get(&key) {
            return v.clone();
        }
        let v = self.judge_statement(statement, as_of);
        self.judged.borrow_mut().insert(key, v.clone());
        v
    }

    fn judge_statement(&self, statement: &str, as_of: Option<&str>) -> VerdictOrWhy {
        let claim =
            lang::parse(statement).map_err(|e| format!("not a claim reckon can read ({}): {statement}", e.msg))?;
        let settings = self.cfg.judging();
        let mut judge = Judge::new(self.dataset, &settings);
        judge.as_of = as_of.map(str::to_string);
        let (verdict, clauses) = judge.claim(&claim).map_err(|e| e.msg)?;
        let summary = match clauses.as_slice() {
            [one] => one.summary.clone(),
            _ => format!(
                "{verdict}: {}",
                clauses.iter().map(|c| format!("[{}] {}", c.statement, c.summary)).collect::<Vec<_>>().join("; ")
            ),
        };
        Ok((verdict, summary))
    }

    /// What a sentence's surroundings name: series and metric of its block
    /// and section, the metric of its headings.
    fn surroundings(&self, blocks: &[Block], tokens: &[Vec<Token>], bi: usize, at: usize) -> Surroundings {
        let series_of = |toks: &[Token]| -> Vec<(usize, String)> {
            toks.iter()
                .filter_map(|t| match &t.kind {
                    Tok::Mention(Meaning::Series(s)) if s.len() == 1 => Some((t.start, s[0].clone())),
                    _ => None,
                })
                .collect()
        };
        let metric_of = |toks: &[Token]| -> Option<String> {
            toks.iter().find_map(|t| match &t.kind {
                Tok::Mention(Meaning::Metric(m)) => Some(m.clone()),
                Tok::Number(n) => match &n.unit {
                    Unit::Metric(m) => Some(m.clone()),
                    _ => None,
                },
                _ => None,
            })
        };
        // Nearest first: before the sentence (closest first), then after.
        let mut in_block = series_of(&tokens[bi]);
        in_block.sort_by_key(|(p, _)| if *p < at { (0, at - p) } else { (1, p - at) });
        let block_series: Vec<String> = dedup(in_block.into_iter().map(|(_, s)| s));
        let section = blocks[bi].headings.last().copied();
        let same_section = |j: usize| {
            j != bi && blocks[j].headings.last().copied() == section && !matches!(blocks[j].kind, BlockKind::Heading(_))
        };
        let before = (0..bi).rev().filter(|j| same_section(*j));
        let after = (bi + 1..blocks.len()).filter(|j| same_section(*j));
        let section_series = dedup(before.chain(after).flat_map(|j| series_of(&tokens[j]).into_iter().map(|(_, s)| s)));
        let heading_metric = blocks[bi].headings.iter().rev().find_map(|h| metric_of(&tokens[*h]));
        Surroundings { block_series, section_series, block_metric: metric_of(&tokens[bi]), heading_metric }
    }

    /// A numeric table cell read as a value: its column's header names the
    /// series (and perhaps the metric or unit), the first column's header
    /// the param, the row's first cell the point.
    fn table_cell(&self, blocks: &[Block], tokens: &[Vec<Token>], bi: usize) -> Option<Reading> {
        let BlockKind::TableCell { table, row, col } = blocks[bi].kind else { return None };
        if row == 0 || col == 0 {
            return None;
        }
        let [Token { kind: Tok::Number(n), .. }] = tokens[bi].as_slice() else { return None };
        let cell =
            |r: usize, c: usize| blocks.iter().position(|b| b.kind == BlockKind::TableCell { table, row: r, col: c });
        let header = &tokens[cell(0, col)?];
        let series = header.iter().find_map(|t| match &t.kind {
            Tok::Mention(Meaning::Series(s)) if s.len() == 1 => Some(s[0].clone()),
            _ => None,
        })?;
        let param = tokens[cell(0, 0)?].iter().find_map(|t| match &t.kind {
            Tok::Mention(Meaning::Param(p)) => Some(p.clone()),
            _ => None,
        })?;
        let [Token { kind: Tok::Number(point), .. }] = tokens[cell(row, 0)?].as_slice() else { return None };
        let mut notes = Vec::new();
        let mut confidence: f64 = 0.8;
        let metric = header
            .iter()
            .find_map(|t| match &t.kind {
                Tok::Mention(Meaning::Metric(m)) => Some(m.clone()),
                _ => None,
            })
            .or_else(|| {
                let h = blocks[bi].headings.iter().rev().find_map(|h| {
                    tokens[*h].iter().find_map(|t| match &t.kind {
                        Tok::Mention(Meaning::Metric(m)) => Some(m.clone()),
                        _ => None,
                    })
                });
                if let Some(m) = &h {
                    confidence -= 0.15;
                    notes.push(format!("metric `{m}` from the section heading"));
                }
                h
            })?;
        let margin = self.vocab.margins.get(&metric).copied().unwrap_or(0.05);
        let within = if n.precision > margin {
            format!(" within {}%", crate::metric::format_number((n.precision * 1000.0).ceil() / 10.0))
        } else {
            String::new()
        };
        Some(Reading {
            statement: format!(
                "{} on {metric} at {param} = {} ≈ {}{within}",
                read::name(&series),
                crate::metric::format_number(point.value),
                crate::metric::format_number(n.value)
            ),
            number: true,
            confidence,
            notes,
        })
    }
}

fn dedup(it: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in it {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The date a block names (a dated heading or caption), if any.
fn block_date(tokens: &[Token]) -> Option<String> {
    tokens
        .iter()
        .filter_map(|t| match &t.kind {
            Tok::Date(d) => Some(d.clone()),
            _ => None,
        })
        .max()
}

/// A table's date: a dated paragraph right before or after it (its caption).
fn table_date(blocks: &[Block], tokens: &[Vec<Token>], bi: usize) -> Option<String> {
    let BlockKind::TableCell { table, .. } = blocks[bi].kind else { return None };
    let in_table = |j: usize| matches!(blocks[j].kind, BlockKind::TableCell { table: t, .. } if t == table);
    let first = (0..blocks.len()).find(|j| in_table(*j))?;
    let last = (0..blocks.len()).rev().find(|j| in_table(*j))?;
    let before = first.checked_sub(1).filter(|j| blocks[*j].kind == BlockKind::Paragraph);
    let after = Some(last + 1).filter(|j| blocks.get(*j).is_some_and(|b| b.kind == BlockKind::Paragraph));
    before.into_iter().chain(after).find_map(|j| block_date(&tokens[j]))
}

/// Whether a sentence speaks in the past tense: a past form (`peaked`,
/// `beat`, `was`) and no present one (`is`, `beats`, `keeps`).
fn is_past_tense(toks: &[Token]) -> bool {
    const PAST: &[&str] = &[
        "was", "were", "had", "did", "beat", "won", "lost", "led", "ran", "held", "took", "gave", "got", "made", "saw",
        "fell", "rose", "grew", "hit", "stood", "came", "went", "kept", "showed", "shown",
    ];
    const PRESENT: &[&str] = &["is", "are", "has", "have", "does", "do", "beats", "wins", "keeps", "remains", "stays"];
    let words = words(toks);
    let past = words.iter().any(|w| PAST.contains(w) || (w.len() > 4 && w.ends_with("ed") && !w.ends_with("eed")));
    let present = words.iter().any(|w| PRESENT.contains(w));
    past && !present
}

/// Words that make a sentence a plan or recommendation rather than a
/// finding.
const PLAN_WORDS: &[&str] = &[
    "should",
    "could",
    "might",
    "would",
    "todo",
    "plan",
    "planned",
    "planning",
    "will",
    "let's",
    "consider",
    "hypothesis",
    "expect",
    "expected",
    "hope",
    "goal",
    "propose",
    "proposed",
    "intend",
    "want",
];
/// Verbs that, opening a sentence, make it an instruction.
const IMPERATIVES: &[&str] = &[
    "try",
    "rerun",
    "re-run",
    "run",
    "add",
    "upgrade",
    "measure",
    "test",
    "check",
    "investigate",
    "evaluate",
    "compare",
    "profile",
    "tune",
    "turn",
    "switch",
    "use",
    "explore",
    "implement",
    "benchmark",
    "repeat",
    "sweep",
    "write",
    "keep",
    "ship",
    "enable",
    "disable",
    "move",
    "replace",
    "remove",
    "avoid",
    "prefer",
    "pick",
    "choose",
    "deploy",
    "do",
    "don't",
    "make",
];

/// The plain words of a sentence, in order.
fn words(toks: &[Token]) -> Vec<&str> {
    toks.iter()
        .filter_map(|t| match &t.kind {
            Tok::Word(w) => Some(w.as_str()),
            _ => None,
        })
        .collect()
}

fn is_plan(toks: &[Token]) -> bool {
    let words = words(toks);
    let first_is_word = matches!(toks.first().map(|t| &t.kind), Some(Tok::Word(_)));
    words.iter().any(|w| PLAN_WORDS.contains(w))
        || words.windows(2).any(|w| {
            w == ["next", "step"]
                || w == ["next", "steps"]
                || w == ["to", "do"]
                || w == ["need", "to"]
                || w == ["needs", "to"]
                || w == ["going", "to"]
        })
        || (first_is_word && words.first().is_some_and(|w| IMPERATIVES.contains(w)))
}

/// Headings whose sections are plans: `Next`, `Next steps`, `Plan`, `TODO`,
/// `Future work`, `Ideas`, `Open questions`.
fn is_plan_heading(text: &str) -> bool {
    let t = text.trim().to_ascii_lowercase();
    let t = t.trim_end_matches(':');
    [
        "next",
        "next steps",
        "plan",
        "plans",
        "todo",
        "to do",
        "future work",
        "ideas",
        "open questions",
        "hypotheses",
        "next up",
    ]
    .contains(&t)
        || t.starts_with("next step")
        || t.starts_with("todo")
}
