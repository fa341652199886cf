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
/// Verbs of a relative change: `raises X by at least 5%` (the subject
/// above X) …
pub(super) const RAISE: &[&str] =
    &["raises", "raise", "raised", "increases", "increase", "increased", "lifts", "lift", "boosts", "boost"];
/// … and `cuts X by 30%`, `trims 12% off X` (below it).
pub(super) const CUT: &[&str] = &[
    "cuts",
    "cut",
    "reduces",
    "reduce",
    "reduced",
    "lowers",
    "lowered",
    "shrinks",
    "shrink",
    "shrank",
    "trims",
    "trim",
    "trimmed",
    "decreases",
    "decrease",
    "decreased",
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

/// `both X`, `the two X`, `all three X` right before token `i`: those
/// words, when they count `n` series (a name that fits them all).
pub(super) fn names_all(c: &[Token], at: usize, count: usize) -> Option<Vec<usize>> {
    let back = |k: usize| at.checked_sub(k).and_then(|j| c.get(j)).and_then(word);
    let number = |x: &str| match x {
        "two" => Some(2),
        "three" => Some(3),
        "four" => Some(4),
        _ => None,
    };
    if back(1) == Some("both") && count == 2 {
        return Some(vec![at - 1]);
    }
    match (back(2), back(1).and_then(number)) {
        (Some("the" | "all"), Some(k)) if k == count => Some(vec![at - 2, at - 1]),
        _ => None,
    }
}

/// `Relative to X`, `Compared with X`, `Against X`: the series at `i` is
/// what the clauses after are compared with.
pub(super) fn compared_with(c: &[Token], i: usize) -> bool {
    let before = words_before(c, i, 2);
    match (before.first().copied(), before.get(1).copied()) {
        (Some("to" | "with"), Some("relative" | "compared" | "comparison" | "respect")) => true,
        (Some("against" | "versus" | "vs"), _) => c.first().and_then(word) == before.first().copied(),
        _ => false,
    }
}

/// The series at `i` follows a word that makes it the one compared with
/// (`than X`, `behind X`, `over X`), not the subject.
pub(super) fn object_word(c: &[Token], i: usize) -> bool {
    // (`of` and `to` name what is compared only after a comparative.)
    words_before(c, i, 1).first().is_some_and(|w| OBJECT.contains(w) && !matches!(*w, "of" | "to"))
}

/// `it`, `its`, `they`, `their` before token `i`, heading the clause: only
/// its scope (`used`) and articles or prepositions before it (`Relative to
/// X, it raises …`, `At a single thread its p99 …`).
pub(super) fn pronoun_before(c: &[Token], i: usize, used: &[usize]) -> bool {
    for (k, t) in c.iter().enumerate().take(i) {
        match word(t) {
            Some("it" | "its" | "they" | "their") => return true,
            Some("at" | "in" | "on" | "for" | "with" | "a" | "an" | "the" | "and" | "so" | "then") => {}
            _ if used.contains(&k) || word(t).is_none() && !matches!(t.kind, Tok::Mention(_)) => {}
            _ => return false,
        }
    }
    false
}

/// The tokens of `each other` and `one another`.
pub(super) fn each_other(c: &[Token]) -> Vec<usize> {
    (1..c.len())
        .filter(|&k| {
            matches!((word(&c[k - 1]), word(&c[k])), (Some("each"), Some("other")) | (Some("one"), Some("another")))
        })
        .flat_map(|k| [k - 1, k])
        .collect()
}

/// Adjectives between `no` and `difference`.
pub(super) const NOTABLE: &[&str] =
    &["measurable", "significant", "meaningful", "real", "visible", "noticeable", "practical"];

/// The tokens of a phrase saying two series are the same, if the clause
/// has one: `the same (M) as`, `identical (to)`, `no (measurable)
/// difference (in|between)`, `within noise (of)`, `indistinguishable
/// (from)`.
pub(super) fn same_phrase(c: &[Token]) -> Option<Vec<usize>> {
    let w = |i: usize| c.get(i).and_then(word);
    let then = |i: usize, ws: &[&str]| w(i).is_some_and(|x| ws.contains(&x)).then_some(i);
    for i in 0..c.len() {
        let took: Vec<usize> = match w(i) {
            Some("same") if i > 0 && w(i - 1) == Some("the") => {
                let mut t = vec![i - 1, i];
                t.extend((i + 1..c.len().min(i + 4)).find(|&k| w(k) == Some("as")));
                t
            }
            Some("identical") => [Some(i), then(i + 1, &["to"])].into_iter().flatten().collect(),
            Some("indistinguishable") => [Some(i), then(i + 1, &["from"])].into_iter().flatten().collect(),
            Some("noise") if i > 0 && w(i - 1) == Some("within") => {
                [Some(i - 1), Some(i), then(i + 1, &["of"])].into_iter().flatten().collect()
            }
            Some("difference") => {
                let adj = i > 1 && w(i - 1).is_some_and(|x| NOTABLE.contains(&x));
                let no = if adj { i - 2 } else { i.wrapping_sub(1) };
                if w(no) != Some("no") {
                    continue;
                }
                let mut t: Vec<usize> = (no..=i).collect();
                t.extend(then(i + 1, &["in", "on"]));
                // `no difference in wall time between X and Y`
                t.extend((i + 1..c.len().min(i + 5)).find(|&k| w(k) == Some("between")));
                t
            }
            _ => continue,
        };
        return Some(took);
    }
    None
}
