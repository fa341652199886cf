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
use super::words::{word, BETTER, HEDGE, HIGHER, LOWER, WORSE};
use super::{name, Clause};
use crate::metric::{format_number, Direction};

/// Adjectives between `no` and `difference`.
const NOTABLE: &[&str] = &["measurable", "significant", "meaningful", "real", "visible", "noticeable", "practical"];

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
        let (subj, metric, f) = (name(&self.subj), self.metric.clone(), format_number);
        let (cn, cc) = (self.notes.clone(), self.confidence);
        for v in rest {
            let statement = format!(
                "{subj} on {metric} at {p} = {} / at {p} = {} ≈ 1 within {}%",
                f(*v),
                f(*lo),
                f(margin * 100.0)
            );
            self.push(&statement, true, cc, &cn);
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
                Some(s) => quantifier(self.vocab, s).map(|q| format!(" {q}")).unwrap_or_default(),
                None => self.ratio_scope(),
            };
            let term = format!("{} - {} on {}", name(larger), name(smaller), self.metric);
            let cmp = format!("{op} {}", format_number(value));
            let statement = if scope.starts_with(" for ") {
                format!("{term} {cmp}{scope}")
            } else {
                format!("{term}{scope} {cmp}")
            };
            let (cn, cc) = (self.notes.clone(), self.confidence);
            self.push(&statement, true, cc, &cn);
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
fn bound_before(c: &[Token], i: usize) -> (&'static str, Vec<usize>) {
    let mut k = i;
    while k > 0 && word(&c[k - 1]).is_some_and(|w| HEDGE.contains(&w)) {
        k -= 1;
    }
    let pair = (k.checked_sub(2).and_then(|j| word(&c[j])), k.checked_sub(1).and_then(|j| word(&c[j])));
    let op = match pair {
        (Some("more" | "greater"), Some("than")) => ">",
        (Some("at"), Some("least")) => ">=",
        (Some("at"), Some("most")) | (Some("up"), Some("to")) => "<=",
        (Some("less" | "fewer"), Some("than")) => "<",
        _ => return ("≈", Vec::new()),
    };
    (op, vec![k - 2, k - 1])
}

/// Whether value `v` of a param is within scope `s` of it.
pub(super) fn in_scope(s: &Scope, v: f64) -> bool {
    match s {
        Scope::Range(_, op, x) => match *op {
            "<=" => v <= *x,
            "<" => v < *x,
            ">=" => v >= *x,
            _ => v > *x,
        },
        Scope::Between(_, lo, hi) => v >= *lo && v <= *hi,
        Scope::Every(_) => true,
        Scope::In(_, vs) => vs.contains(&v),
        Scope::At(_, x) => v == *x,
        Scope::Largest(_) | Scope::Smallest(_) | Scope::Is(..) => false,
    }
}
