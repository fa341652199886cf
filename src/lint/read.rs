//! Reading a sentence as claims: which series it compares, on which metric,
//! at which points, and what it says — a comparison, a ratio, a number, a
//! peak or a bound — written in reckon's claim language.
//!
//! A sentence is cut into clauses at `;`, at commas outside parentheses and
//! at `while`/`whereas`/`but`. A clause that names no series speaks of the
//! previous clause's; a clause that only sets a point (`At 16 req/s, …`)
//! lends it to the clauses after it. What a sentence does not say is taken
//! from around it, and each such borrowing lowers the reading's confidence:
//! the metric from the block or the section heading, the other series from
//! the block or the section.
#![allow(clippy::match_same_arms, clippy::too_many_lines)] // floor-plan debt (issue 7): fix these and delete this line

use super::vocab::{Meaning, Number, Scope, Tok, Token, Unit, Vocabulary};
use crate::metric::{format_number, Direction};

/// One claim a sentence was read as.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// The claim, in reckon's claim language.
    pub statement: String,
    /// It states a number (a value, ratio, peak or bound), which can go
    /// stale; otherwise it is a comparison.
    pub number: bool,
    pub confidence: f64,
    /// How the reading borrowed from the context.
    pub notes: Vec<String>,
}

/// What a clause yields.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Reading(Reading),
    /// A name that fits several series, with them.
    Ambiguous {
        phrase: String,
        candidates: Vec<String>,
    },
}

/// What the surroundings of a sentence offer.
#[derive(Debug, Default, Clone)]
pub struct Surroundings {
    /// Series named elsewhere in the sentence's block, nearest first.
    pub block_series: Vec<String>,
    /// Series named elsewhere in the section, nearest first.
    pub section_series: Vec<String>,
    /// The first metric the block names.
    pub block_metric: Option<String>,
    /// The first metric the enclosing headings name, innermost first.
    pub heading_metric: Option<String>,
}

const BETTER: &[&str] = &[
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
const WORSE: &[&str] = &[
    "worse", "slower", "behind", "trails", "trail", "trailed", "trailing", "lags", "lag", "lagged", "inferior",
    "weaker", "loses", "lost",
];
const HIGHER: &[&str] = &["higher", "more", "larger", "greater", "bigger"];
const LOWER: &[&str] = &["lower", "less", "smaller", "fewer"];
const BEST: &[&str] = &["fastest", "best", "quickest", "strongest", "dominates", "winner", "wins", "win", "won"];
const HIGHEST: &[&str] = &["highest", "largest", "greatest", "most"];
const LOWEST: &[&str] = &["lowest", "smallest", "fewest", "least"];
const MATCH: &[&str] = &["matches", "match", "matched", "matching", "par", "comparable", "equivalent", "ties", "tied"];
const VS: &[&str] = &["vs", "versus", "against"];
/// Words before the series a comparison is made against.
const OBJECT: &[&str] = &["than", "of", "over", "against", "behind", "vs", "versus"];
const PEAK: &[&str] = &[
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
const UNDER: &[&str] = &["under", "below", "beneath"];
const OVER: &[&str] = &["above", "over", "exceeds", "exceed"];
/// Words after which a bare number is a measured value (`is 790`); not `at`,
/// after which a number is usually a setting (`capped at 64`).
const COPULA: &[&str] = &[
    "is", "was", "are", "were", "of", "reaches", "reached", "reach", "hits", "hit", "sits", "stays", "remains",
    "equals", "be",
];
const HEDGE: &[&str] = &[
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
const CHANGE: &[(&str, f64)] = &[
    ("halves", 0.5),
    ("halved", 0.5),
    ("doubles", 2.0),
    ("doubled", 2.0),
    ("triples", 3.0),
    ("tripled", 3.0),
    ("quadruples", 4.0),
];

fn word(t: &Token) -> Option<&str> {
    match &t.kind {
        Tok::Word(w) => Some(w.as_str()),
        _ => None,
    }
}

fn has(tokens: &[Token], words: &[&str]) -> bool {
    tokens.iter().any(|t| word(t).is_some_and(|w| words.contains(&w)))
}

/// Words before token `i`, nearest first, skipping hedges.
fn words_before(tokens: &[Token], i: usize, n: usize) -> Vec<&str> {
    tokens[..i].iter().rev().filter_map(word).filter(|w| !HEDGE.contains(w)).take(n).collect()
}

/// The clauses of a sentence: token ranges.
fn clauses(tokens: &[Token]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, t) in tokens.iter().enumerate() {
        let cut = match &t.kind {
            Tok::Punct('(' | '[') => {
                depth += 1;
                false
            }
            Tok::Punct(')' | ']') => {
                depth -= 1;
                false
            }
            Tok::Punct(';') => true,
            Tok::Punct(',') => depth <= 0 && !tokens.get(i + 1).is_some_and(|n| matches!(n.kind, Tok::Number(_))),
            Tok::Word(w) => matches!(w.as_str(), "while" | "whereas" | "but" | "although" | "though"),
            _ => false,
        };
        if cut {
            out.push(start..i);
            start = i + 1;
        }
    }
    out.push(start..tokens.len());
    out
}

/// A clause's scope, and the tokens it used.
fn scope_of(tokens: &[Token]) -> (Option<Scope>, Vec<usize>) {
    let mut used = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match &t.kind {
            Tok::Mention(Meaning::Point(s)) => {
                used.push(i);
                let before = words_before(tokens, i, 2);
                // `from 1 req/s to saturation`
                if before.first() == Some(&"from") {
                    if let Some((j, hi)) = next_point(tokens, i + 1, s.param()) {
                        used.extend(j.clone());
                        if let (Some(lo), Some(hi)) = (low_value(s), hi) {
                            return (Some(Scope::Between(s.param().to_string(), lo, hi)), used);
                        }
                    }
                }
                return (Some(ranged(s.clone(), &before, tokens.get(i + 1))), used);
            }
            Tok::Mention(Meaning::Param(p)) => {
                let before = words_before(tokens, i, 2);
                if before.first().is_some_and(|w| matches!(*w, "every" | "all" | "each" | "across" | "any")) {
                    used.push(i);
                    return (Some(Scope::Every(p.clone())), used);
                }
                let mut j = i + 1;
                if matches!(tokens.get(j).map(|t| &t.kind), Some(Tok::Punct('=' | ':'))) {
                    j += 1;
                }
                if let Some(Tok::Number(n)) = tokens.get(j).map(|t| &t.kind) {
                    if n.unit == Unit::None {
                        used.extend([i, j]);
                        let at = Scope::At(p.clone(), n.value);
                        if before.first() == Some(&"from") {
                            if let Some((k, Some(hi))) = next_point(tokens, j + 1, p) {
                                used.extend(k);
                                return (Some(Scope::Between(p.clone(), n.value, hi)), used);
                            }
                        }
                        return (Some(ranged(at, &before, tokens.get(j + 1))), used);
                    }
                }
            }
            _ => {}
        }
    }
    (None, used)
}

fn low_value(s: &Scope) -> Option<f64> {
    match s {
        Scope::At(_, v) | Scope::Range(_, _, v) => Some(*v),
        Scope::Between(_, lo, _) => Some(*lo),
        _ => None,
    }
}

/// After `from X`: `to Y` on the same param (`to C=250`, `to 8 req/s`,
/// `to saturation` as the largest value: None).
fn next_point(tokens: &[Token], from: usize, param: &str) -> Option<(std::ops::Range<usize>, Option<f64>)> {
    let j = from + tokens[from..].iter().position(|t| !matches!(t.kind, Tok::Punct(_)))?;
    if !matches!(word(tokens.get(j)?), Some("to" | "through" | "until")) {
        return None;
    }
    match &tokens.get(j + 1)?.kind {
        Tok::Mention(Meaning::Point(s)) if s.param() == param => match s {
            Scope::At(_, v) => Some((j..j + 2, Some(*v))),
            Scope::Largest(_) => Some((j..j + 2, Some(f64::INFINITY))),
            _ => None,
        },
        Tok::Mention(Meaning::Param(p)) if p == param => {
            let mut k = j + 2;
            if matches!(tokens.get(k).map(|t| &t.kind), Some(Tok::Punct('='))) {
                k += 1;
            }
            match &tokens.get(k)?.kind {
                Tok::Number(n) => Some((j..k + 1, Some(n.value))),
                _ => None,
            }
        }
        Tok::Number(n) if n.unit == Unit::None => Some((j..j + 2, Some(n.value))),
        _ => None,
    }
}

/// A point made a range by the words around it: `from C=50 on`, `above
/// C=8`, `up to C=16`.
fn ranged(s: Scope, before: &[&str], after: Option<&Token>) -> Scope {
    let Scope::At(p, v) = s else { return s };
    let after = after.and_then(word);
    let op = match (before.first().copied(), before.get(1).copied(), after) {
        (Some("from"), _, Some("on" | "onward" | "onwards" | "upward" | "upwards" | "up")) => Some(">="),
        (Some("least"), Some("at"), _) => Some(">="),
        (Some("most"), Some("at"), _) => Some("<="),
        (Some("above" | "beyond" | "past" | "over" | "after"), _, _) => Some(">"),
        (Some("below" | "under" | "before"), _, _) => Some("<"),
        (Some("to" | "until" | "through"), Some("up"), _) => Some("<="),
        _ => None,
    };
    match op {
        Some(op) => Scope::Range(p, op, v),
        None => Scope::At(p, v),
    }
}

/// The quantifier of a scope in the claim language (`None`: the scope is
/// the largest/smallest value of a param the data do not hold).
pub fn quantifier(vocab: &Vocabulary, s: &Scope) -> Option<String> {
    let values = vocab.param_values.get(s.param());
    let f = format_number;
    Some(match s {
        Scope::At(p, v) => format!("at {p} = {}", f(*v)),
        Scope::Range(p, op, v) => format!("for all {p} {op} {}", f(*v)),
        Scope::Between(p, lo, hi) if hi.is_infinite() => format!("for all {p} >= {}", f(*lo)),
        Scope::Between(p, lo, hi) => format!("for all {p} in {}..{}", f(*lo), f(*hi)),
        Scope::Largest(p) => format!("at {p} = {}", f(*values?.last()?)),
        Scope::Smallest(p) => format!("at {p} = {}", f(*values?.first()?)),
        Scope::Every(p) => format!("for all {p}"),
    })
}

/// The param a whole sweep runs over when a sentence names none: one the
/// `[points]` phrases use, else the one with the most values.
fn sweep_param(vocab: &Vocabulary, preferred: &[String]) -> Option<String> {
    if let Some(p) = preferred.iter().find(|p| vocab.param_values.get(*p).is_some_and(|v| v.len() > 1)) {
        return Some(p.clone());
    }
    vocab.param_values.iter().filter(|(_, v)| v.len() > 1).max_by_key(|(_, v)| v.len()).map(|(p, _)| p.clone())
}

/// The stated number in the metric's stored unit.
fn in_metric_unit(vocab: &Vocabulary, metric: &str, n: &Number) -> f64 {
    match &n.unit {
        Unit::Time(secs) => {
            let stored = vocab.unit(metric).and_then(super::vocab::time_unit).unwrap_or(*secs);
            n.value * secs / stored
        }
        _ => n.value,
    }
}

/// Reads the sentence's clauses. `preferred_params` are the params the
/// project's `[points]` phrases use.
pub fn read(
    vocab: &Vocabulary,
    tokens: &[Token],
    text: &str,
    around: &Surroundings,
    preferred_params: &[String],
) -> Vec<Item> {
    let mut out = Vec::new();
    let sentence_metric = tokens.iter().find_map(|t| match &t.kind {
        Tok::Mention(Meaning::Metric(m)) => Some(m.clone()),
        Tok::Number(Number { unit: Unit::Metric(m), .. }) => Some(m.clone()),
        _ => None,
    });
    let sentence_series: Vec<String> = tokens
        .iter()
        .filter_map(|t| match &t.kind {
            Tok::Mention(Meaning::Series(s)) if s.len() == 1 => Some(s[0].clone()),
            _ => None,
        })
        .collect();
    let mut subject: Option<String> = None;
    let mut lent_scope: Option<Scope> = None;
    for range in clauses(tokens) {
        let c = &tokens[range];
        let series: Vec<(usize, &Vec<String>)> = c
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match &t.kind {
                Tok::Mention(Meaning::Series(s)) => Some((i, s)),
                _ => None,
            })
            .collect();
        let (scope, mut used) = scope_of(c);
        let comparative = has(c, BETTER) || has(c, WORSE) || has(c, HIGHER) || has(c, LOWER);
        let has_statement = c.iter().enumerate().filter(|(i, _)| !used.contains(i)).any(|(i, t)| match &t.kind {
            Tok::Number(n) => match n.unit {
                Unit::Metric(_) | Unit::Time(_) => true,
                Unit::Times | Unit::Percent => comparative,
                Unit::None => words_before(c, i, 1).first().is_some_and(|w| COPULA.contains(w) || VS.contains(w)),
            },
            _ => false,
        }) || has(c, BETTER)
            || has(c, WORSE)
            || has(c, BEST)
            || has(c, MATCH)
            || has(c, HIGHEST)
            || has(c, LOWEST)
            || (has(c, HIGHER) || has(c, LOWER)) && has(c, &["than"]);
        if series.is_empty() && !has_statement {
            if scope.is_some() {
                lent_scope = scope;
            }
            continue;
        }
        if let Some((i, cands)) = series.iter().find(|(_, s)| s.len() > 1) {
            if has_statement {
                out.push(Item::Ambiguous {
                    phrase: text[c[*i].start..c[*i].end].to_string(),
                    candidates: (*cands).clone(),
                });
            }
            continue;
        }
        let mut names: Vec<String> = Vec::new();
        for (_, s) in &series {
            if !names.contains(&s[0]) {
                names.push(s[0].clone());
            }
        }
        // `…, about 3% ahead of DDP`: a clause naming only the object of
        // its comparison speaks of the previous clause's series.
        if let (Some((i, _)), Some(prev)) = (series.first(), &subject) {
            let object = words_before(c, *i, 1).first().is_some_and(|w| OBJECT.contains(w));
            if object && names.len() == 1 && names[0] != *prev {
                names.insert(0, prev.clone());
            }
        }
        let mut notes = Vec::new();
        let mut confidence: f64 = 0.9;
        let subj = match names.first() {
            Some(s) => s.clone(),
            None => match &subject {
                Some(s) => {
                    confidence -= 0.1;
                    notes.push(format!("`{s}` from earlier in the sentence"));
                    s.clone()
                }
                None => continue,
            },
        };
        subject = Some(subj.clone());
        let scope = scope.or_else(|| lent_scope.clone());
        // The metric: the clause's, a number's unit, the sentence's, the
        // block's, the heading's.
        let clause_metric = c.iter().find_map(|t| match &t.kind {
            Tok::Mention(Meaning::Metric(m)) => Some(m.clone()),
            Tok::Number(Number { unit: Unit::Metric(m), .. }) => Some(m.clone()),
            _ => None,
        });
        // A time with no metric named: the project's one metric in a time
        // unit, if it has exactly one.
        let timed = c.iter().any(|t| matches!(&t.kind, Tok::Number(Number { unit: Unit::Time(_), .. })));
        let time_metrics: Vec<&String> = vocab
            .units
            .iter()
            .filter(|(_, u)| u.as_deref().and_then(super::vocab::time_unit).is_some())
            .map(|(m, _)| m)
            .collect();
        let metric = if let Some(m) = clause_metric.or_else(|| sentence_metric.clone()) {
            m
        } else if let (true, [m]) = (timed, time_metrics.as_slice()) {
            confidence -= 0.1;
            notes.push(format!("metric `{m}`, the one measured in time"));
            (*m).clone()
        } else if let Some(m) = &around.block_metric {
            confidence -= 0.1;
            notes.push(format!("metric `{m}` from the paragraph"));
            m.clone()
        } else if let Some(m) = &around.heading_metric {
            confidence -= 0.15;
            notes.push(format!("metric `{m}` from the section heading"));
            m.clone()
        } else {
            continue;
        };
        if has(c, HEDGE) {
            confidence -= 0.05;
        }
        let direction = vocab.directions.get(&metric).copied().unwrap_or(Direction::Higher);
        // The other series: the clause's, else the sentence's, the block's,
        // the section's.
        let other_in_clause = names.get(1).cloned();
        let comparator = |notes: &mut Vec<String>, confidence: &mut f64| -> Option<String> {
            if let Some(o) = &other_in_clause {
                return Some(o.clone());
            }
            if let Some(o) = sentence_series.iter().find(|s| **s != subj) {
                return Some(o.clone());
            }
            if let Some(o) = around.block_series.iter().find(|s| **s != subj) {
                *confidence -= 0.15;
                notes.push(format!("compared with `{o}`, named in the paragraph"));
                return Some(o.clone());
            }
            if let Some(o) = around.section_series.iter().find(|s| **s != subj) {
                *confidence -= 0.25;
                notes.push(format!("compared with `{o}`, named in the section"));
                return Some(o.clone());
            }
            None
        };
        let q = scope.as_ref().and_then(|s| quantifier(vocab, s));
        let q_text = q.as_ref().map(|q| format!(" {q}")).unwrap_or_default();
        let mut push = |statement: String, number: bool, confidence: f64, notes: &[String]| {
            // In the claim language's canonical form, as `check` prints it
            // back (a comparison before a `for all`, which would otherwise
            // read it as its points).
            let statement = crate::claims::lang::parse(&statement).map(|c| c.to_string()).unwrap_or(statement);
            out.push(Item::Reading(Reading {
                statement,
                number,
                confidence: confidence.clamp(0.05, 1.0),
                notes: notes.to_vec(),
            }));
        };

        // A. `96 vs 93 tok/s`: one value per series, in the order named.
        let chain: Vec<usize> = vs_chain(c);
        if chain.len() >= 2 {
            let mut order = names.clone();
            let (mut cn, mut cc) = (notes.clone(), confidence);
            if order.len() < chain.len() {
                if let Some(o) = comparator(&mut cn, &mut cc) {
                    if !order.contains(&o) {
                        order.push(o);
                    }
                }
            }
            if order.len() >= chain.len() {
                let parts: Vec<String> = chain
                    .iter()
                    .zip(&order)
                    .filter_map(|(i, s)| match &c[*i].kind {
                        Tok::Number(n) => Some(value_clause(vocab, s, &metric, &q_text, "≈", n)),
                        _ => None,
                    })
                    .collect();
                push(parts.join(" and "), true, cc, &cn);
            }
            used.extend(chain.iter().copied());
        }

        // B. `2.3x better`, `20% faster than`, `halves`.
        let good = has(c, BETTER) || has(c, BEST) && has(c, &["superior"]);
        let bad = has(c, WORSE);
        let up = has(c, HIGHER);
        let down = has(c, LOWER);
        let mut ratio_done = false;
        for (i, t) in c.iter().enumerate() {
            let Tok::Number(n) = &t.kind else { continue };
            // `9% more throughput` is a change, not a comparison: quantity
            // words compare only with `than`.
            let literal = (up || down) && has(c, &["than"]);
            if used.contains(&i) || !matches!(n.unit, Unit::Times | Unit::Percent) || !(good || bad || literal) {
                continue;
            }
            let (mut cn, mut cc) = (notes.clone(), confidence);
            let Some(other) = comparator(&mut cn, &mut cc) else { continue };
            // Literal direction of A relative to B.
            let a_higher = if literal && !(good || bad) {
                up
            } else {
                (good && direction != Direction::Lower) || (bad && direction == Direction::Lower)
            };
            let (num, den, target, precision) = match n.unit {
                Unit::Times if a_higher => (&subj, &other, n.value, n.precision),
                Unit::Times => (&other, &subj, n.value, n.precision),
                _ => {
                    let t = if a_higher { 1.0 + n.value / 100.0 } else { 1.0 - n.value / 100.0 };
                    (&subj, &other, t, n.precision * n.value / 100.0 / t.abs().max(1e-9))
                }
            };
            let up_to = words_before(c, i, 2).first().is_some_and(|w| *w == "to")
                && words_before(c, i, 2).get(1).is_some_and(|w| *w == "up")
                || words_before(c, i, 3).windows(2).any(|w| w == ["much", "as"]);
            let term = format!("{} / {}", name(num), name(den));
            let within = within_text(vocab, &metric, precision, direction);
            let statement = match (&scope, up_to) {
                (Some(Scope::At(..) | Scope::Largest(_) | Scope::Smallest(_)), _) | (_, false) => {
                    format!("{term} on {metric}{q_text} ≈ {}{within}", format_number(target))
                }
                (s, true) => {
                    let Some(over) = aggregate_over(vocab, s.as_ref(), preferred_params) else { continue };
                    format!("max({term} on {metric} {over}) ≈ {}{within}", format_number(target))
                }
            };
            push(statement, true, cc, &cn);
            used.push(i);
            ratio_done = true;
        }
        for (w, f) in CHANGE {
            if !ratio_done && has(c, &[w]) {
                let (mut cn, mut cc) = (notes.clone(), confidence);
                if let Some(other) = comparator(&mut cn, &mut cc) {
                    let within = within_text(vocab, &metric, 0.0, direction);
                    push(
                        format!(
                            "{} / {} on {metric}{q_text} ≈ {}{within}",
                            name(&subj),
                            name(&other),
                            format_number(*f)
                        ),
                        true,
                        cc,
                        &cn,
                    );
                    ratio_done = true;
                }
            }
        }

        // C. Comparisons.
        if !ratio_done {
            let superlative =
                has(c, BEST) || has(c, &["superior"]) && !has(c, &["to", "than"]) && other_in_clause.is_none();
            let relation = if has(c, HIGHEST) && !has(c, &["than"]) {
                Some(("<lit>", ">", true))
            } else if has(c, LOWEST) && !has(c, &["than"]) {
                Some(("<lit>", "<", true))
            } else if superlative {
                Some(("beats", "", true))
            } else if has(c, MATCH) && has(c, &["beats", "exceeds", "outperforms"]) {
                Some(("matches or beats", "", false))
            } else if has(c, MATCH) {
                Some(("matches", "", false))
            } else if good {
                Some(("beats", "", false))
            } else if bad {
                Some(("loses", "", false))
            } else if (up || down) && has(c, &["than"]) {
                Some(("<lit>", if up { ">" } else { "<" }, false))
            } else {
                None
            };
            if let Some((rel, lit, vs_others)) = relation {
                let (mut cn, mut cc) = (notes.clone(), confidence);
                // Verbs (`beats`, `matches`) take their object in the clause;
                // comparatives (`slightly better`) may leave it to the context.
                let verb_needs_object = matches!(rel, "matches" | "matches or beats")
                    || has(
                        c,
                        &["beats", "beat", "outperforms", "outperform", "outperformed", "trails", "trail", "lags"],
                    );
                let other = if vs_others {
                    Some("others".to_string())
                } else if verb_needs_object {
                    other_in_clause.clone()
                } else {
                    comparator(&mut cn, &mut cc)
                };
                // Without a point, a comparison speaks of the whole sweep.
                let q_text = match (&q_text, &scope) {
                    (t, Some(_)) => t.clone(),
                    (_, None) => {
                        aggregate_over(vocab, None, preferred_params).map(|q| format!(" {q}")).unwrap_or_default()
                    }
                };
                if let Some(other) = other {
                    let other_n = if other == "others" { other.clone() } else { name(&other) };
                    let statement = match rel {
                        "loses" => format!("{} beats {} on {metric}{q_text}", other_n, name(&subj)),
                        "<lit>" => format!("{} {lit} {} on {metric}{q_text}", name(&subj), other_n),
                        r => format!("{} {r} {} on {metric}{q_text}", name(&subj), other_n),
                    };
                    if !(rel == "loses" && other == "others") {
                        push(statement, false, cc, &cn);
                    }
                }
            }
        }

        // D. Numbers: values, peaks, bounds.
        if other_in_clause.is_some() && !ratio_done && chain.len() < 2 {
            // Two series and a number: whose number it is is not said.
            continue;
        }
        let from_to: Option<usize> = c.iter().position(|t| word(t) == Some("from")).filter(|i| {
            matches!(c.get(i + 1).map(|t| &t.kind), Some(Tok::Number(n)) if !matches!(n.unit, Unit::Times | Unit::Percent))
        });
        let peak = has(c, PEAK);
        for (i, t) in c.iter().enumerate() {
            let Tok::Number(n) = &t.kind else { continue };
            if used.contains(&i) || matches!(n.unit, Unit::Times | Unit::Percent) {
                continue;
            }
            if from_to == Some(i.wrapping_sub(1)) {
                continue; // `from 450 ms to 300 ms`: the value now is the second
            }
            let before = words_before(c, i, 3);
            // `the 80 GB cards`: a number after an article describes a thing.
            if matches!(c.get(i.wrapping_sub(1)).and_then(word), Some("the" | "a" | "an")) {
                continue;
            }
            let unit_ok = match &n.unit {
                Unit::Metric(m) => *m == metric,
                Unit::Time(_) => vocab.unit(&metric).and_then(super::vocab::time_unit).is_some(),
                Unit::None => {
                    before.first().is_some_and(|w| COPULA.contains(w))
                        || matches!(c.get(i.wrapping_sub(1)).map(|t| &t.kind), Some(Tok::Punct(':' | '=')))
                }
                _ => false,
            };
            if !unit_ok {
                continue;
            }
            let value = in_metric_unit(vocab, &metric, n);
            let within = within_text(vocab, &metric, n.precision, direction);
            let bound = bound_op(&before);
            let statement = if let Some(op) = bound {
                let agg = if matches!(op, "<" | "<=") { "max" } else { "min" };
                match &scope {
                    Some(Scope::At(..) | Scope::Largest(_) | Scope::Smallest(_)) => {
                        format!("{} on {metric}{q_text} {op} {}", name(&subj), format_number(value))
                    }
                    s => {
                        let Some(over) = aggregate_over(vocab, s.as_ref(), preferred_params) else { continue };
                        format!("{agg}({} on {metric} {over}) {op} {}", name(&subj), format_number(value))
                    }
                }
            } else if peak {
                // `peaks at 773 tok/s at C=150`: the peak's value is the
                // claim; where it lies is not judged.
                let s = match &scope {
                    Some(Scope::At(..) | Scope::Largest(_) | Scope::Smallest(_)) => None,
                    s => s.clone(),
                };
                let Some(over) = aggregate_over(vocab, s.as_ref(), preferred_params) else { continue };
                format!("max({} on {metric} {over}) ≈ {}{within}", name(&subj), format_number(value))
            } else {
                value_clause(vocab, &subj, &metric, &q_text, "≈", n)
            };
            push(statement, true, confidence, &notes);
        }
    }
    out
}

/// `for all p [points]` for an aggregate over a scope (or the sweep's
/// param when the sentence names none).
fn aggregate_over(vocab: &Vocabulary, s: Option<&Scope>, preferred: &[String]) -> Option<String> {
    match s {
        Some(s @ (Scope::Range(..) | Scope::Between(..) | Scope::Every(_))) => quantifier(vocab, s),
        Some(Scope::At(..) | Scope::Largest(_) | Scope::Smallest(_)) => None,
        None => sweep_param(vocab, preferred).map(|p| format!("for all {p}")),
    }
}

/// The comparison a bound word asks for (`under 50 ms` → `<`).
fn bound_op(before: &[&str]) -> Option<&'static str> {
    match (before.first().copied(), before.get(1).copied()) {
        (Some("than"), Some("less" | "lower" | "fewer")) => Some("<"),
        (Some("than"), Some("more" | "higher" | "greater")) => Some(">"),
        (Some("most"), Some("at")) => Some("<="),
        (Some("least"), Some("at")) => Some(">="),
        (Some("exceeds" | "exceed"), Some("never" | "not")) => Some("<="),
        (Some(w), _) if UNDER.contains(&w) => Some("<"),
        (Some(w), _) if OVER.contains(&w) => Some(">"),
        _ => None,
    }
}

/// `within P%` when the number was stated less precisely than the
/// metric's margin.
fn within_text(vocab: &Vocabulary, metric: &str, precision: f64, _direction: Direction) -> String {
    let margin = vocab.margins.get(metric).copied().unwrap_or(0.05);
    if precision > margin {
        let pct = (precision * 1000.0).ceil() / 10.0;
        format!(" within {}%", format_number(pct))
    } else {
        String::new()
    }
}

fn value_clause(vocab: &Vocabulary, series: &str, metric: &str, q: &str, op: &str, n: &Number) -> String {
    let v = in_metric_unit(vocab, metric, n);
    let within = within_text(vocab, metric, n.precision, Direction::Higher);
    format!("{} on {metric}{q} {op} {}{within}", name(series), format_number(v))
}

/// The numbers of a `N vs M` chain, as token indices.
fn vs_chain(c: &[Token]) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, t) in c.iter().enumerate() {
        if !word(t).is_some_and(|w| VS.contains(&w)) {
            continue;
        }
        let prev = c[..i].iter().rposition(|t| !matches!(t.kind, Tok::Mention(Meaning::Metric(_))));
        let next = c[i + 1..]
            .iter()
            .position(|t| !HEDGE.contains(&word(t).unwrap_or("")) || word(t).is_none())
            .map(|k| k + i + 1);
        if let (Some(p), Some(n)) = (prev, next) {
            if let (Tok::Number(a), Tok::Number(b)) = (&c[p].kind, &c[n].kind) {
                if !matches!(a.unit, Unit::Times | Unit::Percent) && !matches!(b.unit, Unit::Times | Unit::Percent) {
                    if !out.contains(&p) {
                        out.push(p);
                    }
                    out.push(n);
                }
            }
        }
    }
    out
}

/// A series name as the claim language writes it (quoted when needed).
pub fn name(s: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::super::vocab::{tests::vocabulary, tokenize};
    use super::*;

    fn readings(sentence: &str, around: &Surroundings) -> Vec<Item> {
        let v = vocabulary();
        read(&v, &tokenize(&v, sentence), sentence, around, &[])
    }

    fn statements(sentence: &str) -> Vec<String> {
        readings(sentence, &Surroundings::default())
            .into_iter()
            .filter_map(|i| match i {
                Item::Reading(r) => Some(r.statement),
                Item::Ambiguous { .. } => None,
            })
            .collect()
    }

    #[test]
    fn comparisons() {
        assert_eq!(
            statements("Triton beats cuBLAS on TFLOPS at N=4096."),
            ["triton beats cublas on tflops at size = 4096"]
        );
        assert_eq!(
            statements("Triton is slower than cuBLAS on TFLOPS."),
            ["cublas beats triton on tflops for all size"]
        );
        assert_eq!(
            statements("CUTLASS is the fastest kernel on TFLOPS on large matrices."),
            ["cutlass beats others on tflops for all size >= 4096"]
        );
        assert_eq!(
            statements("cuBLAS has lower latency_us than Triton at N=512."),
            ["cublas < triton on latency_us at size = 512"]
        );
        assert_eq!(
            statements("Triton matches cuBLAS on TFLOPS from N=4096 on."),
            ["triton matches cublas on tflops for all size >= 4096"]
        );
    }

    #[test]
    fn ratios_follow_the_metric_direction() {
        assert_eq!(
            statements("Triton is 1.5x faster than cuBLAS on TFLOPS at N=512."),
            ["triton / cublas on tflops at size = 512 ≈ 1.5 within 3.4%"]
        );
        // Faster on a latency: the other one's time over this one's.
        assert_eq!(
            statements("Triton is 2x faster than cuBLAS on latency_us at N=512."),
            ["cublas / triton on latency_us at size = 512 ≈ 2 within 25%"]
        );
        assert_eq!(
            statements("Triton trails cuBLAS by 20% on TFLOPS at N=512."),
            ["triton / cublas on tflops at size = 512 ≈ 0.8"]
        );
        assert_eq!(
            statements("cuBLAS is up to 1.5x better than Triton on TFLOPS."),
            ["max(cublas / triton on tflops for all size) ≈ 1.5 within 3.4%"]
        );
        // A change, not a comparison.
        assert!(statements("Autotuning gave Triton 9% more TFLOPS.").is_empty());
    }

    #[test]
    fn numbers_peaks_bounds_and_pairs() {
        assert_eq!(statements("At N=4096, cuBLAS delivers 790 TFLOPS."), ["cublas on tflops at size = 4096 ≈ 790"]);
        assert_eq!(statements("cuBLAS takes 1.2 ms at N=8192."), ["cublas on latency_us at size = 8192 ≈ 1200"]);
        assert_eq!(statements("cuBLAS peaks at 830 TFLOPS at N=8192."), ["max(cublas on tflops for all size) ≈ 830"]);
        assert_eq!(statements("cuBLAS stays under 900 TFLOPS."), ["max(cublas on tflops for all size) < 900"]);
        assert_eq!(
            statements("cuBLAS vs Triton at N=512: 42 vs 38 TFLOPS."),
            ["cublas on tflops at size = 512 ≈ 42 and triton on tflops at size = 512 ≈ 38"]
        );
        // A number after an article describes a thing; a bare number
        // after `at` is a setting.
        assert!(statements("cuBLAS runs on the 80 TFLOPS cards.").is_empty());
        assert_eq!(statements("cuBLAS on TFLOPS capped at 64 is fine."), Vec::<String>::new());
    }

    #[test]
    fn context_fills_what_the_sentence_leaves_out() {
        let around = Surroundings {
            block_series: vec!["cublas".into()],
            section_series: vec![],
            block_metric: Some("tflops".into()),
            heading_metric: None,
        };
        let items = readings("By N=512 Triton is already 1.2x ahead.", &around);
        let [Item::Reading(r)] = items.as_slice() else { panic!("{items:?}") };
        assert_eq!(r.statement, "triton / cublas on tflops at size = 512 ≈ 1.2 within 4.2%");
        assert!(r.confidence < 0.9 && r.notes.len() == 2, "{r:?}");
        // The previous clause's series and a lent point.
        assert_eq!(
            statements("At N=4096, cuBLAS reaches 790 TFLOPS, about 4% ahead of Triton."),
            ["cublas on tflops at size = 4096 ≈ 790", "cublas / triton on tflops at size = 4096 ≈ 1.04"]
        );
    }

    #[test]
    fn ambiguous_names_are_never_guessed() {
        let items = readings("The hand-written kernels beat cuBLAS on TFLOPS.", &Surroundings::default());
        assert_eq!(
            items,
            [Item::Ambiguous { phrase: "hand-written".into(), candidates: vec!["cutlass".into(), "triton".into()] }]
        );
        // Named without a statement: nothing to report.
        assert!(readings("The hand-written kernels live in kernels/.", &Surroundings::default()).is_empty());
    }
}
