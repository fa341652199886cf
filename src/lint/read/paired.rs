//! Values paired with their own points: `from about 2,400 kops/s at 16 MB
//! to about 1,900 kops/s at 1 GB` (each value at the point written after
//! it), and a parenthetical of values after a range of points — `grows
//! from a single request to saturation (21 ms to 420 ms)`, `is flat up to
//! M=64 (23 µs either way)` — the values at the range's two ends. Such a
//! parenthetical states values of its own: it is read even when the words
//! around it are not.

use super::super::vocab::{Scope, Tok, Token, Unit};
use super::equal::in_scope;
use super::scope::{quantifier, scope_of};
use super::statement::value_clause;
use super::words::{word, HEDGE};
use super::Clause;
use crate::claims::lang;

impl Clause<'_> {
    /// Two or more measured values, each followed by `at` and its own point
    /// of one param: each value at its point. Whether they were read.
    pub(super) fn values_at_their_points(&mut self) -> bool {
        let c = self.c;
        let mut pairs: Vec<(usize, f64, Vec<usize>)> = Vec::new();
        let mut param: Option<String> = None;
        for (i, t) in c.iter().enumerate() {
            let Tok::Number(n) = &t.kind else { continue };
            if c.get(i + 1).and_then(word) != Some("at") || !self.measures(i, n) {
                continue;
            }
            let (Some(Scope::At(p, v)), took) = scope_of(self.vocab, &c[i + 2..]) else { continue };
            if took.iter().min() != Some(&0) || param.as_ref().is_some_and(|q| *q != p) {
                continue;
            }
            param = Some(p);
            let mut tokens = vec![i, i + 1];
            tokens.extend(took.into_iter().map(|k| k + i + 2));
            pairs.push((i, v, tokens));
        }
        let Some(p) = param else { return false };
        let distinct = pairs.iter().all(|(i, v, _)| pairs.iter().all(|(j, w, _)| i == j || v != w));
        if pairs.len() < 2 || !distinct {
            return false;
        }
        let parts: Vec<lang::Clause> = pairs
            .iter()
            .filter_map(|(i, v, _)| {
                let Tok::Number(n) = &c[*i].kind else { return None };
                let q = quantifier(self.vocab, &Scope::At(p.clone(), *v))?;
                Some(value_clause(self.vocab, &self.subj, &self.metric, Some(q), n))
            })
            .collect();
        if parts.len() != pairs.len() {
            return false;
        }
        let (cn, cc) = (self.notes.clone(), self.confidence);
        for part in parts {
            self.push(part, true, cc, &cn);
        }
        self.used.extend(pairs.into_iter().flat_map(|(_, _, tokens)| tokens));
        true
    }

    /// `(21 ms to 420 ms)`, `(23 µs either way)` after a clause whose scope
    /// is a range of points: the values at its two ends (the first and last
    /// points the data hold within it), read aside from the rest of the
    /// clause. Whether it was read.
    pub(super) fn values_at_the_ends(&mut self) -> bool {
        let c = self.c;
        let Some((open, close)) = parenthesis(c) else { return false };
        let inner: Vec<usize> =
            (open + 1..close).filter(|&k| !word(&c[k]).is_some_and(|w| HEDGE.contains(&w))).collect();
        let number = |k: usize| match &c[k].kind {
            Tok::Number(n) if n.unit != Unit::None && self.measures(k, n) => Some(k),
            _ => None,
        };
        let (first, second) = match inner.as_slice() {
            [a, to, b] if word(&c[*to]) == Some("to") => (number(*a), number(*b)),
            [a, either, way] if word(&c[*either]) == Some("either") && word(&c[*way]) == Some("way") => {
                (number(*a), number(*a))
            }
            _ => return false,
        };
        let (Some(first), Some(second)) = (first, second) else { return false };
        let Some((p, lo, hi)) = self.ends() else { return false };
        let mut parts = Vec::new();
        for (k, v) in [(first, lo), (second, hi)] {
            let (Tok::Number(n), Some(q)) = (&c[k].kind, quantifier(self.vocab, &Scope::At(p.clone(), v))) else {
                return false;
            };
            parts.push(value_clause(self.vocab, &self.subj, &self.metric, Some(q), n));
        }
        let (cn, cc) = (self.notes.clone(), self.confidence);
        let before = self.out.len();
        for part in parts {
            self.push(part, true, cc, &cn);
        }
        let read: Vec<_> = self.out.drain(before..).collect();
        self.aside.extend(read);
        self.aside_from = Some(open);
        self.used.extend(open..=close);
        true
    }

    /// The param of the clause's range of points and its two ends, as the
    /// data hold them.
    fn ends(&self) -> Option<(String, f64, f64)> {
        let scope = self.scope.as_ref()?;
        let p = scope.param();
        let held: Vec<f64> = self.vocab.param_values.get(p)?.iter().copied().filter(|v| in_scope(scope, *v)).collect();
        let (lo, hi) = (*held.first()?, *held.last()?);
        (lo < hi).then(|| (p.to_string(), lo, hi))
    }
}

/// The last parenthesis of a clause, when only punctuation follows it: its
/// opening and closing token indices.
fn parenthesis(c: &[Token]) -> Option<(usize, usize)> {
    let close = c.iter().rposition(|t| matches!(t.kind, Tok::Punct(')')))?;
    if c[close + 1..].iter().any(|t| !matches!(t.kind, Tok::Punct(_))) {
        return None;
    }
    let open = c[..close].iter().rposition(|t| matches!(t.kind, Tok::Punct('(')))?;
    Some((open, close))
}
