//! `every other configuration`, `all the others`, `the other kernels`:
//! a phrase that means every other series, as the subject (`Every other
//! configuration beats X`: `others beat X`) or the object (`X loses to all
//! others`: `others beat X`; `X beats every other variant`: `X beats
//! others`) of a comparison; and the passive `X is beaten by Y` (`Y beats
//! X`). Anything else `other` or `others` says is left to the whole-clause
//! rule: unread.

use super::super::vocab::{Meaning, Tok, Token, Vocabulary};
use super::words::word;
use crate::claims::lang::{Opponents, Pairwise, Quantifier, Relation};

/// Generic words for a series (`configuration`, `kernel`, …), singular.
const SERIES_WORDS: &[&str] = &[
    "configuration",
    "config",
    "variant",
    "kernel",
    "setting",
    "option",
    "mode",
    "engine",
    "backend",
    "system",
    "implementation",
    "method",
    "strategy",
    "policy",
    "scheduler",
    "style",
    "approach",
    "build",
    "library",
    "version",
    "candidate",
    "alternative",
    "design",
    "setup",
];

/// Whether `w` is a word for a series: a generic one or the series
/// param's own (its name or an alias), singular or (`plural`) plural.
fn series_word(vocab: &Vocabulary, w: &str, plural: bool) -> bool {
    let own = std::iter::once(vocab.series_param.0.as_str()).chain(vocab.series_param.1.iter().map(String::as_str));
    let fits = |s: &str| {
        if plural {
            w.strip_suffix('s').is_some_and(|x| x == s) || s.strip_suffix('y').is_some_and(|x| w == format!("{x}ies"))
        } else {
            w == s
        }
    };
    SERIES_WORDS.iter().copied().chain(own).any(|s| !s.contains(' ') && fits(&s.to_lowercase()))
}

/// The tokens of a phrase meaning every other series, if the clause has
/// one: `every other <word>`, `all (the) other <word>s`, `all (the) others`,
/// `the other <word>s`.
pub(super) fn phrase(vocab: &Vocabulary, c: &[Token]) -> Option<Vec<usize>> {
    let w = |i: usize| c.get(i).and_then(word);
    for i in 0..c.len() {
        let found = match (w(i), w(i + 1), w(i + 2), w(i + 3)) {
            (Some("every"), Some("other"), Some(x), _) if series_word(vocab, x, false) => vec![i, i + 1, i + 2],
            (Some("all"), Some("other"), Some(x), _) if series_word(vocab, x, true) => vec![i, i + 1, i + 2],
            (Some("all"), Some("others"), ..) => vec![i, i + 1],
            (Some("all"), Some("the"), Some("others"), _) => vec![i, i + 1, i + 2],
            (Some("all"), Some("the"), Some("other"), Some(x)) if series_word(vocab, x, true) => {
                vec![i, i + 1, i + 2, i + 3]
            }
            (Some("the"), Some("other"), Some(x), _)
                if series_word(vocab, x, true) && w(i.wrapping_sub(1)) != Some("all") =>
            {
                vec![i, i + 1, i + 2]
            }
            _ => continue,
        };
        return Some(found);
    }
    None
}

/// Where the phrase stands: the subject (before any series the clause
/// names, after no word that makes it the one compared with) or the object
/// (right after `than`, `to`, `by`, `beats`, …); None: neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Subject,
    Object,
}

const BEFORE_OBJECT: &[&str] = &[
    "than",
    "to",
    "by",
    "beats",
    "beat",
    "outperforms",
    "outperform",
    "matches",
    "match",
    "over",
    "against",
    "ties",
    "trails",
    "trail",
    "of",
];

pub(super) fn role(c: &[Token], phrase: &[usize]) -> Option<Role> {
    let start = *phrase.first()?;
    let before = c[..start].iter().rev().find_map(word);
    if before.is_some_and(|b| BEFORE_OBJECT.contains(&b)) {
        return Some(Role::Object);
    }
    let series_before = c[..start].iter().any(|t| matches!(t.kind, Tok::Mention(Meaning::Series(_))));
    (!series_before && before.is_none_or(|b| matches!(b, "and" | "but" | "while" | "yet" | "so")))
        .then_some(Role::Subject)
}

/// The comparison of `x` and every other series: `relation` as the clause
/// states it of its subject (the phrase, for `Role::Subject`; `x` for
/// `Role::Object`).
pub(super) fn compare(
    x: &str,
    relation: Relation,
    role: Role,
    metric: &str,
    quantifier: Option<&Quantifier>,
) -> Option<Pairwise> {
    let others_first = |r: Relation| Pairwise::others_first(r, x, metric, quantifier.cloned());
    let x_first = |r: Relation| Pairwise::new(x, r, Opponents::Others, metric, quantifier.cloned());
    Some(match (role, relation) {
        (Role::Object, Relation::LosesTo) | (Role::Subject, Relation::Beats) => others_first(Relation::Beats),
        (Role::Subject, Relation::LosesTo) => x_first(Relation::Beats),
        (
            Role::Object,
            r @ (Relation::Beats | Relation::Matches | Relation::MatchesOrBeats | Relation::Gt | Relation::Lt),
        ) => x_first(r),
        (Role::Subject, r @ (Relation::Matches | Relation::MatchesOrBeats | Relation::Gt | Relation::Lt)) => {
            others_first(r)
        }
        _ => return None,
    })
}

/// `is beaten by`, `was outperformed by`: the tokens of a passive
/// comparison (its object the series after `by` beats the subject).
pub(super) fn passive(c: &[Token]) -> Option<Vec<usize>> {
    let w = |i: usize| c.get(i).and_then(word);
    (1..c.len()).find_map(|k| {
        let verb = matches!(w(k), Some("beaten" | "outperformed" | "outpaced" | "bested" | "surpassed" | "outclassed"));
        let aux = matches!(w(k - 1), Some("is" | "are" | "was" | "were" | "be" | "been" | "being" | "gets" | "got"));
        (verb && aux && w(k + 1) == Some("by")).then(|| vec![k, k + 1])
    })
}
