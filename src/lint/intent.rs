//! What a sentence is before what it says: a finding standing today, the
//! record of a date (history), or a plan or recommendation (not judged).

use super::context::Layout;
use super::prose::{Block, BlockKind};
use super::vocab::{Tok, Token};

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
fn table_date(blocks: &[Block], tokens: &[Vec<Token>], layout: &Layout, bi: usize) -> Option<String> {
    let BlockKind::TableCell { table, .. } = blocks[bi].kind else { return None };
    let (first, last) = layout.table_blocks(table)?;
    let before = first.checked_sub(1).filter(|j| blocks[*j].kind == BlockKind::Paragraph);
    let after = Some(last + 1).filter(|j| blocks.get(*j).is_some_and(|b| b.kind == BlockKind::Paragraph));
    before.into_iter().chain(after).find_map(|j| block_date(&tokens[j]))
}

/// The date a sentence (tokens `toks` of block `bi`) is the record of: a
/// date it names; a table's caption date; or — for a table, or a sentence
/// in the past tense — the date of a heading above it. A present-tense
/// conclusion under a dated heading stands today.
pub(super) fn history_date(
    blocks: &[Block],
    tokens: &[Vec<Token>],
    layout: &Layout,
    bi: usize,
    toks: &[Token],
) -> Option<String> {
    let in_table = matches!(blocks[bi].kind, BlockKind::TableCell { .. });
    block_date(toks).or_else(|| if in_table { table_date(blocks, tokens, layout, bi) } else { None }).or_else(|| {
        if in_table || is_past_tense(toks) {
            blocks[bi].headings.iter().rev().find_map(|h| block_date(&tokens[*h]))
        } else {
            None
        }
    })
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

/// Whether a sentence is a plan or recommendation: a modal or planning word,
/// `next step`, `need to`, … or an instruction's verb opening it.
pub(super) fn is_plan(toks: &[Token]) -> bool {
    // `…, which is what you would expect`, `…, as it should be`: a comment
    // on the finding, whose modal makes no plan of it.
    let comment = (1..toks.len()).find(|&k| {
        matches!(toks[k - 1].kind, Tok::Punct(','))
            && matches!(&toks[k].kind, Tok::Word(w) if w == "which" || w == "as")
    });
    let words = words(&toks[..comment.map_or(toks.len(), |k| k - 1)]);
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
pub(super) fn is_plan_heading(text: &str) -> bool {
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
