//! Whether the readings of a clause account for all of it. Every word that
//! carries meaning — a number, a param, a point, a series, a metric, a
//! quantifier, a negation, a bound on a ratio, a verb of change lint has no
//! form for — must have been used by the reading, or the clause is
//! *unread*: what was read is only part of what it says, and judging that
//! part would report the author wrong about something they did not write
//! (`stays within 10% of the fp16 kernel` is no `beats`; `raises … by at
//! least 5%` is no `<`). An unread clause is never reported; `--all`
//! shows it with the words lint did not understand.

use super::super::vocab::{Meaning, Number, Scope, Tok, Token, Unit};
use super::words::{word, BEST, BETTER, HEDGE, WORSE};
use super::{Clause, Item};
use crate::syntax::Op;

/// Words whose meaning no reading of lint's takes up (yet): a clause that
/// holds one is unread.
const UNREAD: &[&str] = &[
    "within",
    "except",
    "excluding",
    "unaffected",
    "insensitive",
    "stops",
    "stop",
    "difference",
    "between",
    "half",
    "grows",
    "grew",
    "grow",
    "growing",
    "saves",
    "save",
    "saved",
    "adds",
    "add",
    "added",
    "raises",
    "raise",
    "raised",
    "cuts",
    "cut",
    "shrinks",
    "shrink",
    "shrank",
    "costs",
    "cost",
    "buys",
    "buy",
    "recovers",
    "trims",
    "trim",
    "rises",
    "rise",
    "rose",
    "falls",
    "fall",
    "fell",
    "drops",
    "drop",
    "dropped",
    "climbs",
    "flattens",
    "flat",
    "bottoms",
    "lands",
    "leaves",
    "advantage",
    "noise",
    "either",
    "neither",
    "both",
    "second",
    "overtakes",
    "overtake",
    "overtook",
    "crossover",
    "crosses",
    "times",
    "fraction",
    "same",
    "identical",
    "doubling",
    "doublings",
    "quadrupling",
    "improves",
    "lowers",
    "reduces",
    "increases",
    "decreases",
    "collapses",
    "unless",
    "until",
    "scales",
    "scale",
    "scaling",
    "linearly",
    "linear",
    "apart",
];

/// Words of a trend or a change: with a series or metric, a statement
/// lint must say when it does not read it.
const TREND: &[&str] = &[
    "scales",
    "scale",
    "scaling",
    "linearly",
    "grows",
    "rises",
    "falls",
    "drops",
    "climbs",
    "increases",
    "decreases",
    "improves",
    "worsens",
    "declines",
    "degrades",
    "saturates",
    "plateaus",
    "peaks",
    "flattens",
    "doubles",
    "halves",
    "triples",
];

/// Whether a clause names a series or metric together with a ratio, a
/// number in a metric's unit, a comparative or a trend word: one lint lists
/// under `--all` whether or not it reads it.
pub(super) fn candidate(c: &[Token], text: &str) -> bool {
    use super::words::{has, HIGHER, HIGHEST, LOWER, LOWEST, MATCH};
    let names = c.iter().any(|t| matches!(t.kind, Tok::Mention(Meaning::Series(_) | Meaning::Metric(_))));
    // `8x RTX PRO 6000`, `4x H100`: a count of things named after it (a
    // word written with a capital or a digit), not a ratio.
    let count = |i: usize| {
        c.get(i + 1).is_some_and(|t| {
            word(t).is_some() && text[t.start..t.end].chars().any(|ch| ch.is_uppercase() || ch.is_ascii_digit())
        })
    };
    let number = c.iter().enumerate().any(|(i, t)| match &t.kind {
        Tok::Number(n) => match n.unit {
            Unit::Times => !count(i),
            // A measured number: a time, a rate, a metric's own unit, or
            // one lint does not know (`36.4 s` after `the p50 latency`).
            Unit::Percent | Unit::Metric(_) | Unit::Time(_) | Unit::Scaled(..) | Unit::Unknown(_) => true,
            Unit::None => false,
        },
        _ => false,
    });
    let words = [BETTER, WORSE, BEST, HIGHER, LOWER, HIGHEST, LOWEST, MATCH, TREND].iter().any(|ws| has(c, ws));
    names && (number || words)
}

/// Whether a clause that names nothing holds a ratio or a percentage
/// (`…, up to 1.2x`, `, by 15%`): after a clause that was read, it says
/// more of that clause's comparison, and coming to nothing it is said as
/// unread — the reading before it is only part of the sentence.
pub(super) fn bare_ratio(c: &[Token], text: &str) -> bool {
    let names = c.iter().any(|t| matches!(t.kind, Tok::Mention(Meaning::Series(_) | Meaning::Metric(_))));
    let count = |i: usize| {
        c.get(i + 1).is_some_and(|t| {
            word(t).is_some() && text[t.start..t.end].chars().any(|ch| ch.is_uppercase() || ch.is_ascii_digit())
        })
    };
    !names
        && c.iter().enumerate().any(
            |(i, t)| matches!(&t.kind, Tok::Number(n) if matches!(n.unit, Unit::Times | Unit::Percent) && !count(i)),
        )
}

/// What a candidate clause that came to nothing is: unread, with the words
/// lint did not understand, or that no form reads it.
pub(super) fn dropped(c: &[Token], text: &str) -> Item {
    Item::Unjudged { reason: unread_reason(c, text, true).unwrap_or_else(|| no_reading(c, text)) }
}

/// The words of a clause no form of lint's reads.
pub(super) fn unread_words(c: &[Token]) -> Vec<usize> {
    (0..c.len()).filter(|&i| word(&c[i]).is_some_and(|w| UNREAD.contains(&w))).collect()
}

/// `…, except at a single request`: a clause that takes back part of what
/// the clauses before it said (`except`, `excluding`, `unless`,
/// `barring`) makes their readings unread. Whether it did.
pub(super) fn take_back(out: &mut Vec<Item>, c: &[Token], text: &str) -> bool {
    let except = |t: &super::Token| word(t).is_some_and(|w| matches!(w, "except" | "excluding" | "unless" | "barring"));
    let Some(i) = c.iter().position(except) else { return false };
    if out.iter().any(|item| matches!(item, Item::Reading(_))) {
        *out = vec![unread_item(out, &[i], c, text)];
    }
    true
}

/// Negations: read only as the opposite bound (`never exceeds 45 ms`).
const NEGATION: &[&str] = &["not", "never", "no", "nowhere", "without", "nor"];

/// Quantifiers: read only as the scope of the param after them.
const QUANTIFIER: &[&str] = &["every", "each", "all", "any"];

impl Clause<'_> {
    /// The tokens of the clause its readings leave unaccounted for (none
    /// when it produced no reading).
    pub(super) fn unaccounted(&self) -> Vec<usize> {
        // The readings as the author will see them: a word of the clause is
        // accounted for when its reading writes it.
        let printed = printed(&self.out);
        let readings: Vec<&str> = printed.iter().map(String::as_str).collect();
        if readings.is_empty() {
            return Vec::new();
        }
        let c = self.c;
        let used = |i: usize| self.used.contains(&i);
        // The next number within `n` tokens after `i`, if it was used as a
        // value (not a ratio).
        let bounds_value = |i: usize, n: usize| {
            c.iter().enumerate().skip(i + 1).take(n).any(|(j, t)| {
                matches!(&t.kind, Tok::Number(x) if !matches!(x.unit, Unit::Times | Unit::Percent)) && used(j)
            })
        };
        let next_is = |i: usize, f: &dyn Fn(&Tok) -> bool| {
            c[i + 1..].iter().find(|t| !word(t).is_some_and(|w| HEDGE.contains(&w))).is_some_and(|t| f(&t.kind))
        };
        let ratio = |t: &Tok| matches!(t, Tok::Number(x) if matches!(x.unit, Unit::Times | Unit::Percent));
        let number = |t: &Tok| matches!(t, Tok::Number(_));
        // `from 450 ms to 300 ms`: the value now, read.
        let from = |i: usize| i > 0 && word(&c[i - 1]) == Some("from");
        let conflict = (self.has_any(BETTER) || self.has_any(BEST)) && self.has_any(WORSE);
        // `at every block size` where the size is no name reckon knows:
        // every point of the sweep, as a reading over all of it says.
        let every_point = readings.iter().all(|r| r.contains(" for all "));
        let mut out = Vec::new();
        for (i, t) in c.iter().enumerate() {
            let prev = i.checked_sub(1).and_then(|k| word(&c[k]));
            let unread = !used(i)
                && match &t.kind {
                    Tok::Number(_) => !used(i) && !matches!(prev, Some("the" | "a" | "an")),
                    Tok::Mention(Meaning::Param(_) | Meaning::Point(_) | Meaning::Value(..)) => !used(i),
                    // (A name that fits several, `both LTO modes`, is
                    // read when one of them is.)
                    Tok::Mention(Meaning::Series(s)) => !s.iter().any(|one| {
                        let n = name(one);
                        let named = |r: &&str| {
                            if n.starts_with('\'') {
                                r.contains(&n)
                            } else {
                                r.split(|ch: char| " (),/".contains(ch)).any(|w| w == n)
                            }
                        };
                        readings.iter().any(named)
                    }),
                    Tok::Mention(Meaning::Metric(m)) => !readings.iter().any(|r| r.contains(m.as_str())),
                    Tok::Word(w) => {
                        let w = w.as_str();
                        // `C=8` where `C` names nothing reckon knows: a
                        // setting the reading cannot take up.
                        crate::syntax::read_logged(w).is_some()
                            || UNREAD.contains(&w)
                            || QUANTIFIER.contains(&w)
                                && !used(i + 1)
                                && !(every_point && c.get(i + 1).is_some_and(|t| word(t).is_some()))
                            || NEGATION.contains(&w) && !bounds_value(i, 4)
                            || matches!(w, "least" | "most") && prev == Some("at") && !bounds_value(i, 3)
                            || w == "than" && next_is(i, &ratio)
                            // `(long-context only)`: the point it restricts to.
                        || w == "only" && !next_is(i, &number) && !(i > 0 && used(i - 1))
                            || w == "to" && i > 0 && number(&c[i - 1].kind) && next_is(i, &number) && !from(i - 1)
                            || conflict && WORSE.contains(&w)
                            // `…, and unsharded wins below`: a range with no
                            // point of its own, the other side of a point an
                            // earlier clause named; no reading takes it (a
                            // scope lent from that clause would be its
                            // opposite).
                            || matches!(w, "below" | "above" | "beyond" | "past")
                                && c.get(i + 1).is_none_or(|t| matches!(t.kind, Tok::Punct(_)))
                            // `the other kernels`, `all others`: every other
                            // series, as a reading says it, or unread.
                            || matches!(w, "other" | "others")
                    }
                    Tok::Date(_) | Tok::Punct(_) => false,
                };
            if unread {
                out.push(i);
            }
        }
        out
    }

    /// `At saturation (C=128)`, `At low concurrency (C ≤ 16)`: a param set
    /// to the point or range the clause's scope already names restates it;
    /// its tokens are used (the number is no stated value).
    pub(super) fn absorb_restated_scope(&mut self) {
        // `at high concurrency (16 threads and up)`: the same scope again.
        for i in 0..self.c.len() {
            if self.used.contains(&i) || self.scope.is_none() {
                continue;
            }
            let (said, took) = super::scope::scope_of(self.vocab, &self.c[i..]);
            if took.iter().min() == Some(&0) && said == self.scope {
                self.used.extend(took.into_iter().map(|k| k + i));
            }
        }
        for i in 0..self.c.len() {
            let Tok::Mention(Meaning::Param(p)) = &self.c[i].kind else { continue };
            if self.used.contains(&i) {
                continue;
            }
            let mut j = i + 1;
            let op = match self.c.get(j).map(|t| &t.kind) {
                Some(Tok::Punct(ch @ ('=' | ':' | '≤' | '≥' | '<' | '>'))) => Some(*ch),
                _ => None,
            };
            if op.is_some() {
                j += 1;
            }
            let Some(Tok::Number(n)) = self.c.get(j).map(|t| &t.kind) else { continue };
            if n.unit == Unit::None && self.restates(p, op, n.value, n.binary) {
                self.used.extend([i, j]);
            }
        }
    }

    fn restates(&self, p: &str, op: Option<char>, value: f64, binary: Option<f64>) -> bool {
        let values = self.vocab.param_values.get(p);
        let is = |v: f64| v == value || binary == Some(v);
        let point = matches!(op, None | Some('=' | ':'));
        match &self.scope {
            Some(Scope::At(q, v)) => q == p && point && is(*v),
            Some(Scope::Largest(q)) => q == p && point && values.and_then(|v| v.last()).is_some_and(|v| is(*v)),
            Some(Scope::Smallest(q)) => q == p && point && values.and_then(|v| v.first()).is_some_and(|v| is(*v)),
            Some(Scope::Range(q, o, v)) => {
                let same = matches!(
                    (*o, op),
                    (Op::Le, Some('≤')) | (Op::Ge, Some('≥')) | (Op::Lt, Some('<')) | (Op::Gt, Some('>'))
                );
                q == p && same && is(*v)
            }
            _ => false,
        }
    }

    fn has_any(&self, words: &[&str]) -> bool {
        self.c.iter().any(|t| word(t).is_some_and(|w| words.contains(&w)))
    }
}

/// A clause's items; a statement no form of lint's reads is said, never
/// dropped.
pub(super) fn said(items: Vec<Item>, statement: bool, c: &[Token], text: &str) -> Vec<Item> {
    if items.is_empty() {
        unread_reason(c, text, statement).map(|reason| Item::Unjudged { reason }).into_iter().collect()
    } else {
        items
    }
}

/// Why a clause that came to no reading is unread: the words of it no form
/// of lint's reads (`insensitive`, `saves`), else — for a statement — why
/// no form read it. None: it states nothing.
fn unread_reason(c: &[Token], text: &str, statement: bool) -> Option<String> {
    let words: Vec<String> = unread_words(c).iter().map(|&i| format!("`{}`", &text[c[i].start..c[i].end])).collect();
    if !words.is_empty() {
        return Some(format!("unread: lint does not understand {} here; state it as a claim region", words.join(", ")));
    }
    statement.then(|| no_reading(c, text))
}

/// Why a statement came to no reading: a unit lint cannot convert to its
/// metric's, else no form that reads it.
fn no_reading(c: &[Token], text: &str) -> String {
    let unit = c.iter().find_map(|t| match &t.kind {
        Tok::Number(Number { unit: Unit::Unknown(u), .. }) => Some(u.clone()),
        Tok::Number(Number { unit: Unit::Scaled(..), .. }) => Some(text[t.start..t.end].to_string()),
        _ => None,
    });
    match unit {
        Some(u) => format!(
            "unread: `{u}` is in no unit reckon converts to the metric's; state it in the metric's unit, or as a \
             claim region"
        ),
        None => "unread: lint has no form that reads this; state it as a claim region".to_string(),
    }
}

/// A clause's items: its readings when they account for all of it, else
/// one saying it is unread.
pub(super) fn read_whole(clause: &mut Clause, c: &[Token], text: &str) -> Vec<Item> {
    let unread = clause.unaccounted();
    let mut items = if unread.is_empty() {
        std::mem::take(&mut clause.out)
    } else {
        vec![unread_item(&clause.out, &unread, c, text)]
    };
    // What the rest of a clause says beside its parenthetical's values,
    // when no form reads it, is said.
    if let (true, Some(open)) = (items.is_empty(), clause.aside_from) {
        let reason = unread_reason(&c[..open], text, super::has_statement(&c[..open], &clause.used));
        items.extend(reason.map(|reason| Item::Unjudged { reason }));
    }
    items.append(&mut clause.aside);
    items
}

/// A clause whose readings leave words unaccounted for: not judged, with
/// the words and what was read without them.
pub(super) fn unread_item(items: &[Item], unread: &[usize], c: &[Token], text: &str) -> Item {
    let words: Vec<String> = unread.iter().map(|&i| format!("`{}`", &text[c[i].start..c[i].end])).collect();
    let partial = printed(items);
    Item::Unjudged {
        reason: format!(
            "unread: lint does not understand {} here, so its reading `{}` would leave them out; state it as a \
             claim region",
            words.join(", "),
            partial.join(" and ")
        ),
    }
}

/// The claims of the readings among `items`, printed.
pub(crate) fn printed(items: &[Item]) -> Vec<String> {
    items
        .iter()
        .filter_map(|i| match i {
            Item::Reading(r) => Some(r.claim.to_string()),
            Item::Ambiguous { .. } | Item::Unjudged { .. } => None,
        })
        .collect()
}

/// A series name as a printed claim writes it (quoted when needed).
fn name(s: &str) -> String {
    let bare = s.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || "_-=+.:@#".contains(c))
        && !matches!(
            s,
            "beats" | "matches" | "others" | "on" | "at" | "for" | "and" | "or" | "where" | "within" | "over"
        );
    if bare {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', ""))
    }
}
