//! Sameness and differences in the metric's own unit: two series the same
//! (`the same M as Y`, `no difference in M`, `within noise of Y`, `within
//! noise of each other`, `identical`: `X matches Y`; `the fastest or within
//! noise of the fastest`: `X matches or beats others`), one series the same
//! across a param (`insensitive to P`, `unaffected by P`, `P makes no
//! difference to X`: each point of P against the first, `≈ 1` within the
//! metric's margin), and a difference stated in the metric's unit (`3 ms
//! faster than Y`, `saves more than 3 µs per call over Y`: `Y - X on M … >
//! 3`).

use super::super::vocab::{Meaning, Scope, Tok, Token, Unit};
use super::scope::quantifier;
use super::words::{word, BETTER, HEDGE, HIGHER, LOWER, NOTABLE, WORSE};
use super::Clause;
use crate::claims::lang::{self, number, Op, Quantifier, Term, ValueClaim, Versus};
use crate::metric::Direction;

/// `insensitive to P`, `unaffected by P`, `independent of P`, `P makes no
/// difference to X`: the param and the tokens saying so.
fn insensitive_to(c: &[Token]) -> Option<(String, Vec<usize>)> {
    let param = |i: usize| match c.get(i).map(|t| &t.kind) {
        Some(Tok::Mention(Meaning::Param(p))) => Some(p.clone()),
        _ => None,
    };
    let w = |i: usize| c.get(i).and_then(word);
    if let Some(k) = c.iter().position(|t| matches!(word(t), Some("insensitive" | "unaffected" | "independent"))) {
        // (`insensitive to the number of clients`: the param within a few words.)
        let j = (k + 1..c.len().min(k + 6)).find(|&j| param(j).is_some())?;
        let words = (k + 1..j).all(|i| word(&c[i]).is_some());
        return words.then(|| (param(j).unwrap_or_default(), (k..j).collect()));
    }
    // `The block size makes no measurable difference to X's throughput`.
    let d = c.iter().position(|t| word(t) == Some("difference"))?;
    let adj = d > 1 && w(d - 1).is_some_and(|x| NOTABLE.contains(&x));
    let no = if adj { d - 2 } else { d.checked_sub(1)? };
    if w(no) != Some("no") || !w(d + 1).is_some_and(|x| matches!(x, "to" | "for" | "on")) {
        return None;
    }
    let verb = no.checked_sub(1).filter(|&v| w(v).is_some_and(|x| matches!(x, "makes" | "make" | "made" | "has")))?;
    let p = (0..verb).find_map(param)?;
    Some((p, (verb..=d + 1).collect()))
}

impl Clause<'_> {
    /// A series the same across a param: each point of it (within the
    /// clause's range of it, else every point) against the first, `≈ 1`
    /// within the metric's margin. Whether it was read.
    pub(super) fn insensitive(&mut self) -> bool {
        let Some((p, took)) = insensitive_to(self.c) else { return false };
        let held = self.vocab.param_values.get(&p).cloned().unwrap_or_default();
        let points: Vec<f64> = match &self.scope {
            None => held,
            Some(s) if s.param() == p => held.into_iter().filter(|v| in_scope(s, *v)).collect(),
            Some(_) => return false,
        };
        let [lo, rest @ ..] = points.as_slice() else { return false };
        if rest.is_empty() {
            return false;
        }
        let margin = self.vocab.margins.get(&self.metric).copied().unwrap_or(0.05);
        let (cn, cc) = (self.notes.clone(), self.confidence);
        for v in rest {
            let at = Some(Quantifier::at(&p, number(*v)));
            let against = Versus { ratio: true, at: number(*lo) };
            let value = ValueClaim {
                versus: Some(against),
                ..ValueClaim::new(Term::level(&self.subj), &self.metric, at, Op::Approx, 1.0)
            };
            self.push(lang::Clause::new(value).within(Some(margin * 100.0)), true, cc, &cn);
        }
        self.used.extend(took);
        // The param named is the scope read.
        self.used.extend(
            (0..self.c.len()).filter(|&i| matches!(&self.c[i].kind, Tok::Mention(Meaning::Param(q)) if *q == p)),
        );
        true
    }

    /// `3 ms faster than Y`, `saves more than 3 µs per call over Y`, `7 ms
    /// lower than Y's`: the difference of the two series in the metric's
    /// unit (the better one's lead, in the metric's direction; literal for
    /// `lower`/`higher`). Whether one was read.
    pub(super) fn difference(&mut self) -> bool {
        let toks = self.c;
        let Some(other) = self.object.clone() else { return false };
        let lower_better = self.direction == Direction::Lower;
        for (i, tok) in toks.iter().enumerate() {
            let Tok::Number(num) = &tok.kind else { continue };
            if matches!(num.unit, Unit::None | Unit::Times | Unit::Percent) || !self.measures(i, num) {
                continue;
            }
            // Whether the subject's value is the larger.
            let after = toks.get(i + 1).and_then(word);
            let saves = (0..i).rev().take(4).find(|&k| matches!(word(&toks[k]), Some("saves" | "save" | "saved")));
            let subject_larger = match (after, saves) {
                (_, Some(_)) if lower_better => false,
                (_, Some(_)) => return false,
                (Some(w), None) if BETTER.contains(&w) => !lower_better,
                (Some(w), None) if WORSE.contains(&w) => lower_better,
                (Some(w), None) if HIGHER.contains(&w) => true,
                (Some(w), None) if LOWER.contains(&w) => false,
                _ => continue,
            };
            let (op, bound) = bound_before(toks, i);
            let (larger, smaller) = if subject_larger { (&self.subj, &other) } else { (&other, &self.subj) };
            let value = super::statement::in_metric_unit(self.vocab, &self.metric, num);
            let scope = match &self.scope {
                Some(s) => quantifier(self.vocab, s),
                None => self.ratio_scope(),
            };
            let term = Term::difference(larger, smaller);
            let (cn, cc) = (self.notes.clone(), self.confidence);
            self.push(lang::Clause::new(ValueClaim::new(term, &self.metric, scope, op, value)), true, cc, &cn);
            self.used.push(i);
            self.used.extend(bound);
            self.used.extend(saves);
            if saves.is_none() {
                self.used.push(i + 1);
            }
            return true;
        }
        false
    }
}

/// `more than`, `at least`, `up to`, `at most`, `less than` before number
/// `i` (past hedges): the comparison and its tokens; else `≈`.
fn bound_before(c: &[Token], i: usize) -> (Op, Vec<usize>) {
    let mut k = i;
    while k > 0 && word(&c[k - 1]).is_some_and(|w| HEDGE.contains(&w)) {
        k -= 1;
    }
    let pair = (k.checked_sub(2).and_then(|j| word(&c[j])), k.checked_sub(1).and_then(|j| word(&c[j])));
    let op = match pair {
        (Some("more" | "greater"), Some("than")) => Op::Gt,
        (Some("at"), Some("least")) => Op::Ge,
        (Some("at"), Some("most")) | (Some("up"), Some("to")) => Op::Le,
        (Some("less" | "fewer"), Some("than")) => Op::Lt,
        _ => return (Op::Approx, Vec::new()),
    };
    (op, vec![k - 2, k - 1])
}

/// Whether value `v` of a param is within scope `s` of it.
pub(super) fn in_scope(s: &Scope, v: f64) -> bool {
    match s {
        Scope::Range(_, op, x) => op.accepts(v.partial_cmp(x)),
        Scope::Between(_, lo, hi) => v >= *lo && v <= *hi,
        Scope::Every(_) => true,
        Scope::In(_, vs) => vs.contains(&v),
        Scope::At(_, x) => v == *x,
        Scope::Largest(_) | Scope::Smallest(_) | Scope::Is(..) => false,
    }
}
