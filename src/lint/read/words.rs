//! The words a reading turns on: comparatives, superlatives, verbs of
//! matching, peaks, bounds, hedges — and small helpers to find them among a
//! clause's tokens.

use super::super::vocab::{Tok, Token};

pub(super) const BETTER: &[&str] = &[
    "better",
    "faster",
    "ahead",
    "outperforms",
    "outperform",
    "outperformed",
    "outperforming",
    "beats",
    "beat",
    "beating",
    "quicker",
    "stronger",
    "leads",
    "superior",
];
pub(super) const WORSE: &[&str] = &[
    "worse", "slower", "behind", "trails", "trail", "trailed", "trailing", "lags", "lag", "lagged", "inferior",
    "weaker", "loses", "lost",
];
pub(super) const HIGHER: &[&str] = &["higher", "more", "larger", "greater", "bigger"];
pub(super) const LOWER: &[&str] = &["lower", "less", "smaller", "fewer"];
pub(super) const BEST: &[&str] =
    &["fastest", "best", "quickest", "strongest", "dominates", "winner", "wins", "win", "won"];
pub(super) const HIGHEST: &[&str] = &["highest", "largest", "greatest", "most"];
pub(super) const LOWEST: &[&str] = &["lowest", "smallest", "fewest", "least"];
pub(super) const MATCH: &[&str] =
    &["matches", "match", "matched", "matching", "par", "comparable", "equivalent", "ties", "tied"];
pub(super) const VS: &[&str] = &["vs", "versus", "against"];
/// Words before the series a comparison is made against.
pub(super) const OBJECT: &[&str] = &[
    "than",
    "of",
    "over",
    "against",
    "behind",
    "vs",
    "versus",
    "to",
    "beats",
    "beat",
    "ties",
    "matches",
    "trails",
    "outperforms",
    "overtakes",
];
/// Verbs that open a clause of their own after `and` (`… and reaches 4,300
/// tok/s`, `… and loses to baseline`).
pub(super) const CLAUSE_VERBS: &[&str] = &[
    "reaches", "reached", "stays", "remains", "beats", "beat", "loses", "lost", "trails", "matches", "ties", "peaks",
    "plateaus", "delivers", "takes", "hits", "falls", "leads", "keeps", "gives", "has", "is", "was",
];
pub(super) const PEAK: &[&str] = &[
    "peak",
    "peaks",
    "peaked",
    "peaking",
    "plateau",
    "plateaus",
    "plateaued",
    "plateauing",
    "tops",
    "maximum",
    "max",
    "levels",
    "saturates",
];
pub(super) const UNDER: &[&str] = &["under", "below", "beneath"];
pub(super) const OVER: &[&str] = &["above", "over", "exceeds", "exceed"];
/// Words after which a bare number is a measured value (`is 790`); not `at`,
/// after which a number is usually a setting (`capped at 64`).
pub(super) const COPULA: &[&str] = &[
    "is", "was", "are", "were", "of", "reaches", "reached", "reach", "hits", "hit", "sits", "stays", "remains",
    "equals", "be",
];
pub(super) const HEDGE: &[&str] = &[
    "about",
    "around",
    "roughly",
    "approximately",
    "approx",
    "nearly",
    "almost",
    "only",
    "just",
    "slightly",
    "~",
    "some",
    "circa",
];
pub(super) const CHANGE: &[(&str, f64)] = &[
    ("halves", 0.5),
    ("halved", 0.5),
    ("doubles", 2.0),
    ("doubled", 2.0),
    ("triples", 3.0),
    ("tripled", 3.0),
    ("quadruples", 4.0),
];

pub(super) fn word(t: &Token) -> Option<&str> {
    match &t.kind {
        Tok::Word(w) => Some(w.as_str()),
        _ => None,
    }
}

pub(super) fn has(tokens: &[Token], words: &[&str]) -> bool {
    tokens.iter().any(|t| word(t).is_some_and(|w| words.contains(&w)))
}

/// Words before token `i`, nearest first, skipping hedges.
pub(super) fn words_before(tokens: &[Token], i: usize, n: usize) -> Vec<&str> {
    tokens[..i].iter().rev().filter_map(word).filter(|w| !HEDGE.contains(w)).take(n).collect()
}

/// Comparatives of speed: they speak of a time or a rate, never of a hit
/// rate or an accuracy.
pub(super) const SPEED: &[&str] =
    &["faster", "slower", "quicker", "fastest", "slowest", "quickest", "speedup", "speedups", "slowdown", "slowdowns"];
