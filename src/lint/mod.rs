//! `reckon lint`: checkable statements in prose nobody annotated. The prose
//! of a document ([`prose`]: paragraphs, list items, headings, table cells;
//! not code, not reckon regions) is cut into sentences and tokens
//! ([`vocab`]: the series, metrics, params and `[points]` phrases the
//! project knows), read as claims in reckon's claim language ([`read`]),
//! and judged by the claim engine ([`verdict`]), as of the newest sweep or —
//! for history (a dated section, table or sentence, [`intent`]) — as of its
//! date.
//!
//! A statement is *contradicted* when the data show the opposite beyond
//! noise, *stale* when it states a number an earlier sweep bore out (held or
//! within noise) and the newest data contradict. Plans and recommendations
//! are not judged; a name that fits several series is reported as
//! ambiguous, never guessed.
//!
//! Lint knows nothing of reckon.toml: what it needs of the project comes as
//! [`Options`], the claim engine's settings among them.

mod context;
mod intent;
mod number;
pub(crate) mod propose;
pub(crate) mod prose;
pub(crate) mod read;
pub(crate) mod report;
pub(crate) mod setup;
mod shared;
mod spelling;
mod verdict;
pub(crate) mod vocab;

use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::Path;
use std::rc::Rc;

use serde::Serialize;

use crate::claims::judge::Settings;
use crate::claims::Verdict;
use crate::metric::Direction;
use crate::query::Dataset;
use crate::Result;
use prose::{Block, BlockKind, Sentence};
use read::Item;
use vocab::{Token, Vocabulary};

/// What lint needs to know of the project (reckon.toml turns into this).
#[derive(Debug, Clone)]
pub struct Options {
    /// The param whose values name the series being compared.
    pub series: String,
    /// Words prose uses for a series, metric or param, by canonical name.
    pub aliases: BTreeMap<String, Vec<String>>,
    /// How prose names points and ranges: phrase → `P = v`, `P >= v`, `P in
    /// a..b`, `the largest P`, `every P` (`{n}`: the number written).
    pub points: BTreeMap<String, String>,
    /// Each metric of the data as the project reads it.
    pub metrics: BTreeMap<String, MetricRule>,
    /// What the claim engine judges with (the series param, margins).
    pub judging: Settings,
}

/// How a metric is read: its unit, which way is better, its practical
/// margin (a fraction).
#[derive(Debug, Clone, PartialEq)]
pub struct MetricRule {
    pub unit: Option<String>,
    pub direction: Direction,
    pub margin: f64,
}

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
    /// Not read for a name reckon.toml does not know: the entries that
    /// would read it, and what it would read as.
    pub setup: Option<setup::Setup>,
}

/// Lints documents against one dataset.
pub struct Linter<'a, 's> {
    vocab: Vocabulary<'a>,
    /// Every sweep date, oldest first.
    /// Read on first need: a document whose prose states nothing needs no
    /// run that its regions did not.
    sweeps: OnceCell<Vec<String>>,
    /// The params the `[points]` phrases use: what a sentence without a
    /// point speaks of first.
    preferred_params: Vec<String>,
    dataset: &'a Dataset<'s>,
    /// What the claim engine judges with.
    judging: Settings,
    /// Verdicts by (statement, as of): plans repeat their conclusions.
    judged: RefCell<HashMap<(String, Option<String>), verdict::VerdictOrWhy>>,
    /// The project's options: what a proposed alias joins.
    options: Options,
    /// Vocabularies with proposed entries added, by the entries: a plan's
    /// sentences mostly lack the same names.
    proposed: RefCell<HashMap<Vec<setup::Entry>, Rc<Vocabulary<'a>>>>,
}

/// A document's prose, cut and tokenized once.
struct Prose<'t> {
    blocks: Vec<Block>,
    /// The tokens of each block's text.
    tokens: Vec<Vec<Token>>,
    /// Reckon regions: their prose is theirs.
    regions: prose::Ranges,
    /// What each block names, its section and table, read once.
    layout: context::Layout,
    /// Where each line of the text starts.
    lines: crate::syntax::Lines<'t>,
}

impl<'a, 's> Linter<'a, 's> {
    /// A linter over `dataset`, as `options` say the project reads it.
    pub fn new(dataset: &'a Dataset<'s>, options: &Options) -> Self {
        let vocab = Vocabulary::new(dataset, options);
        let mut preferred_params: Vec<String> = Vec::new();
        for spec in options.points.values() {
            if let Some(s) = vocab::Scope::parse(spec, Some(0.0)) {
                if !preferred_params.iter().any(|p| p == s.param()) {
                    preferred_params.push(s.param().to_string());
                }
            }
        }
        Linter {
            vocab,
            sweeps: OnceCell::new(),
            preferred_params,
            dataset,
            judging: options.judging.clone(),
            judged: RefCell::default(),
            options: options.clone(),
            proposed: RefCell::default(),
        }
    }

    /// Every sweep date, oldest first (none if the store cannot be read).
    fn sweeps(&self) -> &[String] {
        self.sweeps.get_or_init(|| self.dataset.sweeps().unwrap_or_default())
    }

    /// Every statement of the document (`path` names it in errors).
    pub fn lint(&self, path: &Path, text: &str) -> Result<Vec<Finding>> {
        let document = crate::doc::parse(path, text)?;
        let regions = prose::Ranges::new(document.regions.iter().map(|r| r.open.start..r.close.end).collect());
        let blocks = prose::blocks(text, &regions);
        let tokens: Vec<Vec<Token>> = blocks.iter().map(|b| vocab::tokenize(&self.vocab, &b.text)).collect();
        let sentences = prose::sentences(&blocks);
        let layout = context::Layout::new(&self.vocab, &blocks, &tokens, &sentences);
        let prose = Prose { blocks, tokens, regions, layout, lines: crate::syntax::Lines::new(text) };
        let mut out = Vec::new();
        for (k, s) in sentences.iter().enumerate() {
            let previous = k.checked_sub(1).map(|j| &sentences[j]).filter(|p| p.block == s.block);
            out.extend(self.sentence(&prose, s, previous));
        }
        Ok(out)
    }

    /// The findings of one sentence (`previous`: the one before it in its
    /// block).
    fn sentence(&self, prose: &Prose, s: &Sentence, previous: Option<&Sentence>) -> Vec<Finding> {
        let b = &prose.blocks[s.block];
        if prose.regions.meets(&s.span) {
            return Vec::new();
        }
        // The block's tokens are in text order: the sentence's are found by
        // a binary search, not a scan of the whole block for each sentence.
        let block_tokens = &prose.tokens[s.block];
        let first = block_tokens.partition_point(|t| t.start < s.range.start);
        let toks: Vec<Token> = block_tokens[first..]
            .iter()
            .take_while(|t| t.start < s.range.end)
            .filter(|t| t.end <= s.range.end)
            .map(|t| Token { kind: t.kind.clone(), start: t.start - s.range.start, end: t.end - s.range.start })
            .collect();
        let sentence_text = &b.text[s.range.clone()];
        let in_table = matches!(b.kind, BlockKind::TableCell { .. });
        let mut found_setup = None;
        let items = match context::table_cell(&self.vocab, &prose.layout, &prose.blocks, &prose.tokens, s.block) {
            Some(reading) => vec![Item::Reading(reading)],
            // Headers and the points column are labels, not statements.
            None if matches!(b.kind, BlockKind::TableCell { col: 0, .. } | BlockKind::TableCell { row: 0, .. }) => {
                return Vec::new();
            }
            None => {
                let before = previous.map(|p| p.range.clone());
                let around = prose.layout.surroundings(&prose.blocks, s.block, s.range.start, before);
                let items = read::read(&self.vocab, &toks, sentence_text, &around, &self.preferred_params);
                let (items, setup) = self.unknown_names(&toks, sentence_text, &around, items);
                found_setup = setup;
                items
            }
        };
        if items.is_empty() {
            return Vec::new();
        }
        let plan = intent::is_plan(&toks) || b.headings.iter().any(|h| intent::is_plan_heading(&prose.blocks[*h].text));
        let as_of = intent::history_date(&prose.blocks, &prose.tokens, &prose.layout, s.block, &toks)
            .filter(|d| self.sweeps().last().is_some_and(|newest| d < newest));
        let (line, col) = prose.lines.line_col(s.span.start);
        let blank = Finding {
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
            setup: None,
        };
        let mut out: Vec<Finding> =
            items.into_iter().map(|item| self.finding(blank.clone(), item, plan, as_of.as_deref())).collect();
        for f in out.iter_mut().filter(|f| matches!(f.status, Status::Unjudged | Status::Ambiguous)) {
            f.setup.clone_from(&found_setup);
        }
        out
    }

    /// A sentence's items, and — when it names what reckon.toml does not
    /// know and reads (otherwise) once it does — the entries that would
    /// read it. A sentence without a reading then says so (unjudged); one
    /// read without them is read from what is left of it (`At C=8 X beats
    /// Y` with `C` unknown is no `for all`): unjudged too.
    fn unknown_names(
        &self,
        toks: &[Token],
        text: &str,
        around: &read::Surroundings,
        items: Vec<Item>,
    ) -> (Vec<Item>, Option<setup::Setup>) {
        let sweep = read::sweep_param(&self.vocab, &self.preferred_params);
        let entries = setup::proposals(&self.vocab, sweep.as_deref(), toks, text);
        if entries.is_empty() {
            return (items, None);
        }
        let vocab =
            Rc::clone(self.proposed.borrow_mut().entry(entries.clone()).or_insert_with(|| {
                Rc::new(setup::rebuilt(&self.vocab, &setup::with_entries(&self.options, &entries)))
            }));
        let again = read::read(&vocab, &vocab::tokenize(&vocab, text), text, around, &self.preferred_params);
        let (now, then) = (read::printed(&items), read::printed(&again));
        if then.is_empty() || then == now {
            return (items, None);
        }
        let names: Vec<String> = entries.iter().map(|e| format!("`{}`", e.value)).collect();
        let reason = format!(
            "names {} that reckon.toml does not know; with the entries below lint reads it as `{}`",
            names.join(", "),
            then.join(" and ")
        );
        let setup = setup::Setup { toml: setup::toml_lines(&self.options, &entries), reads_as: then, entries };
        (vec![Item::Unjudged { reason }], Some(setup))
    }

    /// What one reading (or ambiguous name) of a sentence comes to.
    fn finding(&self, mut f: Finding, item: Item, plan: bool, as_of: Option<&str>) -> Finding {
        match item {
            Item::Ambiguous { phrase, candidates } => {
                f.status = if plan { Status::Plan } else { Status::Ambiguous };
                f.confidence = 1.0;
                f.summary = format!("`{phrase}` fits several series: {}; name one", candidates.join(", "));
                f.candidates = candidates;
            }
            Item::Unjudged { reason } => {
                f.status = if plan { Status::Plan } else { Status::Unjudged };
                f.confidence = 1.0;
                f.summary = reason;
            }
            Item::Reading(r) => {
                f.claim = Some(r.claim.to_string());
                f.confidence = r.confidence;
                f.notes.clone_from(&r.notes);
                if plan {
                    f.status = Status::Plan;
                    f.summary = "a plan or recommendation: not judged".into();
                } else {
                    self.judge(&mut f, &r, as_of);
                }
            }
        }
        f
    }
}
