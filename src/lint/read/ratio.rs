//! Ratios of a clause's subject to another series: `2.3x better`, `20%
//! faster than`, `up to 1.5x`; a range (`1.2x to 1.5x faster`, `between 8%
//! and 15% faster`, `slower …, by 15% to 45%`) as `in lo..hi`; a bound (`at
//! least 3% faster`, `more than 15x`) as `>=`/`>`; `2.3x the baseline
//! throughput`; and `within 10% of Y` (`of each other`).

use super::super::vocab::{Meaning, Number, Scope, Tok, Token, Unit};
use super::scope::aggregate_over;
use super::statement::within;
use super::words::{has, word, words_before, BEST, BETTER, CUT, HEDGE, HIGHER, LOWER, RAISE, WORSE};
use super::Clause;
use crate::claims::lang::{self, Change, ChangeBound, Op, Opponents, Pairwise, Relation, Term, ValueClaim};
use crate::claims::stats::Aggregate;
use crate::metric::Direction;

/// A ratio's factor as stated: whether the subject is the numerator, the
/// factor, its stated precision (relative).
struct Factor {
    subject_over: bool,
    value: f64,
    precision: f64,
}

/// `20% faster`: the better one's value is 1.2 times the other's in the
/// metric's direction; `20% higher than` (literal): A is 1.2 B, `30% lower`
/// A is 0.7 B; `2x`: as written, the higher one over the lower.
fn factor(n: &Number, a_higher: bool, literal: bool) -> Factor {
    let p = n.value / 100.0;
    match n.unit {
        Unit::Times => Factor { subject_over: a_higher, value: n.value, precision: n.precision },
        _ if literal => {
            let t = if a_higher { 1.0 + p } else { 1.0 - p };
            Factor { subject_over: true, value: t, precision: n.precision * p / t.abs().max(1e-9) }
        }
        _ => Factor { subject_over: a_higher, value: 1.0 + p, precision: n.precision * p / (1.0 + p) },
    }
}

fn is_ratio(t: &Token) -> Option<&Number> {
    match &t.kind {
        Tok::Number(n) if matches!(n.unit, Unit::Times | Unit::Percent) => Some(n),
        _ => None,
    }
}

/// `1.2x to 1.5x`, `8% and 15%` after `between`: the second number's
/// index and the words joining them.
fn range_end(c: &[Token], i: usize) -> Option<(usize, Vec<usize>)> {
    let unit = &is_ratio(&c[i])?.unit;
    let join = word(c.get(i + 1)?)?;
    let between = i >= 1 && word(&c[i - 1]) == Some("between");
    if !(join == "to" || join == "and" && between) {
        return None;
    }
    let j = i + 2;
    if is_ratio(c.get(j)?)?.unit != *unit {
        return None;
    }
    let mut words = vec![i + 1];
    words.extend(between.then(|| i - 1));
    Some((j, words))
}

/// `2.3x the baseline throughput`, `10x that of FIFO`, `10x the write
/// amplification of FIFO`: the series, and the tokens.
pub(super) fn times_the(c: &[Token], i: usize) -> Option<(String, Vec<usize>)> {
    let one = |k: usize| match &c.get(k)?.kind {
        Tok::Mention(Meaning::Series(s)) if s.len() == 1 => Some(s[0].clone()),
        _ => None,
    };
    let metric = |k: usize| matches!(c.get(k).map(|t| &t.kind), Some(Tok::Mention(Meaning::Metric(_))));
    match (word(c.get(i + 1)?)?, c.get(i + 2).and_then(word)) {
        ("the", _) if metric(i + 2) && c.get(i + 3).and_then(word) == Some("of") => {
            Some((one(i + 4)?, vec![i + 1, i + 3, i + 4]))
        }
        ("the", _) => Some((one(i + 2)?, vec![i + 1, i + 2])),
        ("that", Some("of")) => Some((one(i + 3)?, vec![i + 1, i + 2, i + 3])),
        _ => None,
    }
}

/// `at least`, `at most`, `more than`, `less than` before a ratio: its
/// comparison and the tokens.
fn bound_before(c: &[Token], i: usize) -> Option<(Op, Vec<usize>)> {
    let mut k = i;
    while k > 0 && word(&c[k - 1]).is_some_and(|w| HEDGE.contains(&w)) {
        k -= 1;
    }
    let (first, second) = (word(c.get(k.checked_sub(2)?)?)?, word(c.get(k - 1)?)?);
    let op = match (first, second) {
        ("at", "least") => Op::Ge,
        ("at", "most") => Op::Le,
        ("more" | "greater", "than") => Op::Gt,
        ("less" | "fewer", "than") => Op::Lt,
        _ => return None,
    };
    Some((op, vec![k - 2, k - 1]))
}

/// The bound the other way round (`>=` of B/A is `<=` of A/B).
fn flip(op: Op) -> Op {
    match op {
        Op::Ge => Op::Le,
        Op::Le => Op::Ge,
        Op::Gt => Op::Lt,
        _ => Op::Gt,
    }
}

impl Clause<'_> {
    /// Ratios of the subject to the other series, in the metric's
    /// direction. Whether any was read.
    pub(super) fn ratios(&mut self) -> bool {
        let c = self.c;
        let good = has(c, BETTER) || has(c, BEST) && has(c, &["superior"]);
        let bad = has(c, WORSE);
        let (up, down) = (has(c, HIGHER), has(c, LOWER));
        // `9% more throughput` is a change, not a comparison: quantity
        // words compare only with `than`.
        let literal = (up || down) && has(c, &["than"]) && !(good || bad);
        let mut done = false;
        for i in 0..c.len() {
            let Some(n) = is_ratio(&c[i]).filter(|_| !self.used.contains(&i)) else { continue };
            let range = range_end(c, i);
            let the = times_the(c, range.as_ref().map_or(i, |r| r.0));
            if !(good || bad || literal || the.is_some()) || super::others::passive(c).is_some() {
                continue;
            }
            let (mut cn, mut cc) = (self.notes.clone(), self.confidence);
            let other = match &the {
                Some((s, _)) => s.clone(),
                None => match self.comparator(&mut cn, &mut cc) {
                    Some(o) => o,
                    None => continue,
                },
            };
            let a_higher = if the.is_some() {
                true
            } else if literal {
                up
            } else {
                (good && self.direction != Direction::Lower) || (bad && self.direction == Direction::Lower)
            };
            let f = factor(n, a_higher, literal && the.is_none());
            let subj = self.subj.clone();
            let (num, den) = if f.subject_over { (&subj, &other) } else { (&other, &subj) };
            let term = Term::ratio(num, den);
            let hi = range.as_ref().and_then(|(j, _)| is_ratio(&c[*j])).map(|m| factor(m, a_higher, literal).value);
            let bound = bound_before(c, i);
            let Some(clause) = self.ratio_statement(term, &f, hi, bound.as_ref().map(|b| b.0), i) else {
                continue;
            };
            self.push(clause, true, cc, &cn);
            self.used.push(i);
            if let Some((j, words)) = range {
                self.used.push(j);
                self.used.extend(words);
            }
            self.used.extend(the.into_iter().flat_map(|t| t.1).chain(bound.into_iter().flat_map(|b| b.1)));
            done = true;
        }
        done
    }

    /// The claim of one ratio: a range, a bound, `up to` (the largest over
    /// the scope), else the ratio itself.
    fn ratio_statement(
        &self,
        term: Term,
        f: &Factor,
        hi: Option<f64>,
        bound: Option<Op>,
        i: usize,
    ) -> Option<lang::Clause> {
        let metric = &self.metric;
        let q = self.ratio_scope();
        if let Some(hi) = hi {
            let (lo, hi) = if f.value <= hi { (f.value, hi) } else { (hi, f.value) };
            return Some(lang::Clause::new(ValueClaim::between(term, metric, q, lo, hi)));
        }
        if let Some(op) = bound {
            // `at least 30% lower` (literal): A / B <= 0.7.
            let op = if f.value < 1.0 { flip(op) } else { op };
            return Some(lang::Clause::new(ValueClaim::new(term, metric, q, op, f.value)));
        }
        let within = within(self.vocab, metric, f.precision);
        let before = words_before(self.c, i, 3);
        let up_to = before.first() == Some(&"to") && before.get(1) == Some(&"up")
            || before.windows(2).any(|w| w == ["much", "as"]);
        let value = match (&self.scope, up_to) {
            (Some(Scope::At(..) | Scope::Largest(_) | Scope::Smallest(_) | Scope::Is(..)), _) | (_, false) => {
                ValueClaim::new(term, metric, q, Op::Approx, f.value)
            }
            (s, true) => {
                let over = aggregate_over(self.vocab, s.as_ref(), self.preferred, &self.metric)?;
                ValueClaim::new(term, metric, Some(over), Op::Approx, f.value).folded(Aggregate::Max)
            }
        };
        Some(lang::Clause::new(value).within(within))
    }

    /// `X stays within 10% of Y`, `X and Y are within 20% of each other`:
    /// X matches Y within 10%. Whether one was read.
    pub(super) fn within_of(&mut self) -> bool {
        let toks = self.c;
        let Some(at) = toks.iter().position(|t| word(t) == Some("within")) else { return false };
        let Some(Tok::Number(pct)) = toks.get(at + 1).map(|t| &t.kind) else { return false };
        if pct.unit != Unit::Percent || toks.get(at + 2).and_then(word) != Some("of") {
            return false;
        }
        let mut took = vec![at, at + 1, at + 2];
        let (subj, other) = match toks.get(at + 3).map(|t| &t.kind) {
            Some(Tok::Mention(Meaning::Series(s))) if s.len() == 1 && s[0] != self.subj => {
                took.push(at + 3);
                (self.subj.clone(), s[0].clone())
            }
            Some(Tok::Word(w)) if w == "each" && toks.get(at + 4).and_then(word) == Some("other") => {
                let [one, two] = self.names.as_slice() else { return false };
                took.extend([at + 3, at + 4]);
                (one.clone(), two.clone())
            }
            _ => return false,
        };
        let q = match &self.scope {
            Some(_) => self.quantifier.clone(),
            None => aggregate_over(self.vocab, None, self.preferred, &self.metric),
        };
        let matches = Pairwise::new(&subj, Relation::Matches, Opponents::one(&other), &self.metric, q);
        let (cn, cc) = (self.notes.clone(), self.confidence);
        self.push(lang::Clause::new(matches).within(Some(pct.value)), false, cc, &cn);
        self.used.extend(took);
        true
    }
}

impl Clause<'_> {
    /// `X raises Y's M by at least 5%`, `shrinks M by more than 10%
    /// relative to Y`: the relative change (`X raises Y on M by at least
    /// 5%`); `trims about 12% off Y's M`, `cuts M by 30%`: the ratio (`X / Y
    /// ≈ 0.88`). Literal, whatever the metric's direction. Whether one was
    /// read.
    pub(super) fn relative_change(&mut self) -> bool {
        let toks = self.c;
        let Some((verb_at, cuts)) = toks.iter().enumerate().find_map(|(i, t)| {
            let w = word(t)?;
            (RAISE.contains(&w) || CUT.contains(&w)).then_some((i, CUT.contains(&w)))
        }) else {
            return false;
        };
        let mut took = vec![verb_at];
        let mut k = verb_at + 1;
        // Up to a few words (the metric, the other series) before `by`.
        let by = (k..toks.len().min(k + 6)).find(|&j| word(&toks[j]) == Some("by"));
        if let Some(j) = by {
            took.push(j);
            k = j + 1;
        }
        while k < toks.len() && word(&toks[k]).is_some_and(|w| HEDGE.contains(&w)) {
            k += 1;
        }
        let pair = (toks.get(k).and_then(word), toks.get(k + 1).and_then(word));
        let bound = match pair {
            (Some("at"), Some("least")) => Some(ChangeBound::AtLeast),
            (Some("at"), Some("most")) => Some(ChangeBound::AtMost),
            (Some("more"), Some("than")) => Some(ChangeBound::MoreThan),
            (Some("less"), Some("than")) => Some(ChangeBound::LessThan),
            _ => None,
        };
        if bound.is_some() {
            took.extend([k, k + 1]);
            k += 2;
        }
        let Some(Tok::Number(pct)) = toks.get(k).map(|t| &t.kind) else { return false };
        let off = toks.get(k + 1).and_then(word) == Some("off");
        if pct.unit != Unit::Percent || !(by.is_some() || off) || cuts && pct.value >= 100.0 {
            return false;
        }
        took.push(k);
        if off {
            took.push(k + 1);
        }
        let Some(other) = self.object.clone() else { return false };
        let (term, metric, q) = (Term::ratio(&self.subj, &other), &self.metric, self.ratio_scope());
        let value = if let Some(bound) = bound {
            ValueClaim::change(term, metric, q, Change { cuts, bound, percent: pct.value })
        } else {
            let f = if cuts { 1.0 - pct.value / 100.0 } else { 1.0 + pct.value / 100.0 };
            ValueClaim::new(term, metric, q, Op::Approx, f)
        };
        let (cn, cc) = (self.notes.clone(), self.confidence);
        self.push(lang::Clause::new(value), true, cc, &cn);
        self.used.extend(took);
        true
    }
}
