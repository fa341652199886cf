//! The curve forms of the claim language read from prose (issue 20): the
//! best setting of the series (`latency bottoms out at 8 threads`: `p99_ms
//! is lowest at threads = 8`), a trend along a param or across the series
//! (`LFU's hit rate rises with every doubling of the cache`: `lfu on
//! hit_rate increases with cache_mb`; `p99 worsens with each extra shard`:
//! `p99_ms worsens with shards`) and diminishing returns (`past 64 MB, each
//! doubling buys less than 1%`: `… improves by less than 1% per step of
//! cache_mb from 64`).
//!
//! Each reading takes its words in a fixed order and leaves the clause
//! unread when any other word of weight is left over (the whole-clause rule
//! of [`super::whole`]; a clause about the series, which has no subject, is
//! checked here the same way). `every doubling` is read only where the
//! points it steps over are doublings.

use super::super::vocab::{Meaning, Number, Scope, Tok, Token, Unit, Vocabulary};
use super::words::word;
use super::{Clause, Item, Reading};
use crate::claims::lang::{
    self, bare, number, stated, ChangeBound, Extreme, Name, Op, Peak, PointSet, Step, Trend, Way,
};

/// Verbs of a trend, with the way the claim language writes it.
const WAYS: &[(&str, Way)] = &[
    ("rises", Way::Increases),
    ("rise", Way::Increases),
    ("increases", Way::Increases),
    ("grows", Way::Increases),
    ("climbs", Way::Increases),
    ("falls", Way::Decreases),
    ("drops", Way::Decreases),
    ("decreases", Way::Decreases),
    ("declines", Way::Decreases),
    ("improves", Way::Improves),
    ("worsens", Way::Worsens),
    ("degrades", Way::Worsens),
];

/// Words a clause about the series may hold besides what its reading
/// takes.
const FILLER: &[&str] = &["the", "a", "an", "its", "and"];

/// Where a trend's words stop and what they named: the token after them,
/// the tokens taken, whether they step by doublings.
struct Steps {
    next: usize,
    took: Vec<usize>,
    doubling: bool,
}

/// After a trend's verb at `v`: `with` [`every`|`each`] [`doubling of` |
/// `extra` | `additional`] [`the`].
fn steps_after(c: &[Token], v: usize) -> Option<Steps> {
    let w = |k: usize| c.get(k).and_then(word);
    if w(v + 1) != Some("with") {
        return None;
    }
    let mut took = vec![v, v + 1];
    let mut k = v + 2;
    let mut doubling = false;
    if matches!(w(k), Some("every" | "each")) {
        took.push(k);
        k += 1;
        if w(k) == Some("doubling") && w(k + 1) == Some("of") {
            took.extend([k, k + 1]);
            doubling = true;
            k += 2;
        } else if matches!(w(k), Some("extra" | "additional" | "added")) {
            took.push(k);
            k += 1;
        }
    }
    if w(k) == Some("the") {
        took.push(k);
        k += 1;
    }
    Some(Steps { next: k, took, doubling })
}

/// The first trend verb of a clause, its index and the way it says.
fn way(c: &[Token]) -> Option<(usize, Way)> {
    c.iter().enumerate().find_map(|(i, t)| {
        let w = word(t)?;
        WAYS.iter().find(|(said, _)| *said == w).map(|(_, way)| (i, *way))
    })
}

/// Whether the points of a curve from `from` on (all of them without) step
/// by doublings: each twice the one before.
fn doublings(points: &[f64], from: Option<f64>) -> bool {
    let kept: Vec<f64> = points.iter().copied().filter(|v| from.is_none_or(|f| *v >= f)).collect();
    kept.len() >= 2 && kept.windows(2).all(|w| (w[1] / w[0] - 2.0).abs() < 1e-9)
}

/// The numeric values of the series, sorted (none when one is text).
fn series_points(vocab: &Vocabulary) -> Option<Vec<f64>> {
    let mut vs: Vec<f64> = vocab.data.series.iter().map(|s| crate::syntax::read_padded(s)).collect::<Option<_>>()?;
    vs.sort_by(f64::total_cmp);
    Some(vs)
}

/// Whether `w` is a word for the series param (`thread` or `threads` of
/// `threads`).
fn names_series_param(vocab: &Vocabulary, w: &str) -> bool {
    vocab
        .series_param
        .1
        .iter()
        .any(|f| f == w || f.strip_suffix('s') == Some(w) || w.strip_suffix('s') == Some(f.as_str()))
}

/// A scope as the points of a trend (`>= 64`), when it is a bound on
/// `param`.
fn trend_points(scope: Option<&Scope>, param: &str) -> Option<PointSet> {
    match scope {
        None => Some(PointSet::Every),
        Some(Scope::Range(p, op, v)) if p == param => Some(PointSet::Cmp(*op, number(*v))),
        Some(_) => None,
    }
}

/// `[S on] M WAY with P [points]`, every step beyond noise (`series`
/// `None`: the curve across the series, `param` the series').
fn trend(series: Option<&str>, metric: &str, way: Way, param: &str, points: PointSet) -> Trend {
    Trend {
        series: series.map(Name::new),
        metric: Name::new(metric),
        way,
        strict: true,
        param: Name::new(param),
        points,
        step: None,
    }
}

impl Clause<'_> {
    /// A curve clause of one of these forms. Whether one was read.
    pub(super) fn curves(&mut self) -> bool {
        self.series_extreme() || self.trend_along() || self.diminishing()
    }

    /// `Latency bottoms out at 8 threads`: the subject is a setting of the
    /// series (a numeral named with the series param), right after `at`
    /// and a word of an extreme.
    fn series_extreme(&mut self) -> bool {
        let c = self.c;
        let one = std::slice::from_ref(&self.subj);
        let subject = |t: &Token| matches!(&t.kind, Tok::Mention(Meaning::Series(s)) if s.as_slice() == one);
        let Some(at) = c.iter().position(subject) else { return false };
        if crate::syntax::read_logged(&self.subj).is_none() || at < 2 || word(&c[at - 1]) != Some("at") {
            return false;
        }
        let w = |k: usize| c.get(k).and_then(word);
        let before = at.checked_sub(3).and_then(w);
        let (extreme, took) = match (w(at - 2), before) {
            (Some("out"), Some("bottoms" | "bottomed")) | (Some("lowest"), Some("is" | "was")) => {
                (Extreme::Lowest, vec![at - 3, at - 2])
            }
            (Some("out"), Some("tops" | "topped")) | (Some("peaks" | "peaked"), _) => {
                (Extreme::Highest, if w(at - 2) == Some("out") { vec![at - 3, at - 2] } else { vec![at - 2] })
            }
            (Some("highest"), Some("is" | "was")) => (Extreme::Highest, vec![at - 3, at - 2]),
            (Some("best"), Some("is" | "was")) => (Extreme::Best, vec![at - 3, at - 2]),
            _ => return false,
        };
        let peak = Peak {
            series: None,
            metric: Name::new(&self.metric),
            extreme,
            param: Name::new(&self.vocab.series_param.0),
            at: bare(&self.subj),
        };
        let (notes, confidence) = (self.notes.clone(), self.confidence);
        self.push(lang::Clause::new(peak), false, confidence, &notes);
        self.used.extend(took);
        self.used.push(at - 1);
        true
    }

    /// `LFU's hit rate rises with every doubling of the cache`: one series
    /// along a param it names.
    fn trend_along(&mut self) -> bool {
        let c = self.c;
        let Some((v, way)) = way(c) else { return false };
        let Some(steps) = steps_after(c, v) else { return false };
        let Some(Tok::Mention(Meaning::Param(param))) = c.get(steps.next).map(|t| &t.kind) else { return false };
        let Some(points) = trend_points(self.scope.as_ref(), param) else { return false };
        let from = match self.scope.as_ref() {
            Some(Scope::Range(_, Op::Ge | Op::Gt, f)) => Some(*f),
            _ => None,
        };
        let values = self.vocab.param_values.get(param).map_or(&[][..], Vec::as_slice);
        if steps.doubling && !doublings(values, from) {
            return false;
        }
        let along = trend(Some(&self.subj), &self.metric, way, param, points);
        let (notes, confidence) = (self.notes.clone(), self.confidence);
        self.push(lang::Clause::new(along), false, confidence, &notes);
        self.used.extend(steps.took);
        self.used.push(steps.next);
        true
    }

    /// `Past 64 MB, each doubling buys less than 1%`: every step of the
    /// param the scope names, from the scope's point on, improves the
    /// metric by less than the percentage.
    fn diminishing(&mut self) -> bool {
        let c = self.c;
        let word_at = |k: usize| c.get(k).and_then(word);
        let Some(each) =
            (0..c.len()).find(|&k| matches!(word_at(k), Some("each" | "every")) && word_at(k + 1) == Some("doubling"))
        else {
            return false;
        };
        let Some(Scope::Range(param, Op::Gt | Op::Ge, from)) = self.scope.clone() else { return false };
        let past = c.iter().any(|t| matches!(word(t), Some("past" | "beyond" | "after" | "from")));
        let values = self.vocab.param_values.get(&param).map_or(&[][..], Vec::as_slice);
        if !past || !doublings(values, Some(from)) {
            return false;
        }
        let mut took = vec![each, each + 1];
        let mut k = each + 2;
        if word_at(k) == Some("of") {
            let names_param = |t: &Token| matches!(&t.kind, Tok::Mention(Meaning::Param(p)) if *p == param);
            let the = usize::from(word_at(k + 1) == Some("the"));
            if !c.get(k + 1 + the).is_some_and(names_param) {
                return false;
            }
            took.extend(k..=k + 1 + the);
            k += 2 + the;
        }
        if !matches!(word_at(k), Some("buys" | "gains" | "adds")) {
            return false;
        }
        took.push(k);
        let (bound, at) = match (word_at(k + 1), word_at(k + 2)) {
            (Some("less"), Some("than")) => (ChangeBound::LessThan, k + 3),
            (Some("at"), Some("most")) => (ChangeBound::AtMost, k + 3),
            _ => return false,
        };
        let Some(Tok::Number(Number { value, unit: Unit::Percent, .. })) = c.get(at).map(|t| &t.kind) else {
            return false;
        };
        took.extend([k + 1, k + 2, at]);
        let points = PointSet::Cmp(Op::Ge, number(from));
        let step = Some(Step { bound, percent: stated(*value) });
        let improves = Trend { step, ..trend(Some(&self.subj), &self.metric, Way::Improves, &param, points) };
        let (notes, confidence) = (self.notes.clone(), self.confidence);
        self.push(lang::Clause::new(improves), true, confidence, &notes);
        self.used.extend(took);
        true
    }
}

/// `p99 worsens with each extra shard`, `Throughput rises with every
/// doubling of the threads up to 8 threads`, where the series is `shards`,
/// `threads`: a trend across the series itself, on the clause's metric (or
/// the sentence's). Every token must be taken or a filler word, or there is
/// no reading.
pub(super) fn series_trend(vocab: &Vocabulary, c: &[Token], metric: Option<&str>) -> Option<Item> {
    let metric = metric?;
    let (verb, way) = way(c)?;
    let steps = steps_after(c, verb)?;
    let param_word = c.get(steps.next).and_then(word)?;
    if !names_series_param(vocab, param_word) {
        return None;
    }
    let mut took = steps.took;
    took.push(steps.next);
    // `up to 8 threads`, `from 8 threads`, `past 8 threads`.
    let mut points = PointSet::Every;
    let mut from = None;
    let word_at = |after: usize| c.get(after).and_then(word);
    let after = steps.next + 1;
    let (bound, at) = match (word_at(after), word_at(after + 1)) {
        (Some("up"), Some("to")) => (Some(Op::Le), after + 2),
        (Some("from" | "past" | "beyond"), _) => (Some(Op::Ge), after + 1),
        _ => (None, after),
    };
    if let (Some(bound), Some(Tok::Mention(Meaning::Series(s)))) = (bound, c.get(at).map(|t| &t.kind)) {
        let value = crate::syntax::read_padded(s.first()?)?;
        points = PointSet::Cmp(bound, number(value));
        from = (bound == Op::Ge).then_some(value);
        took.extend(after..=at);
    }
    if steps.doubling && !doublings(&series_points(vocab)?, from) {
        return None;
    }
    let whole = c.iter().enumerate().all(|(i, t)| {
        took.contains(&i)
            || matches!(&t.kind, Tok::Mention(Meaning::Metric(m)) if m == metric)
            || matches!(t.kind, Tok::Punct(_))
            || word(t).is_some_and(|w| FILLER.contains(&w))
    });
    if !whole || !c.iter().any(|t| matches!(&t.kind, Tok::Mention(Meaning::Metric(_)))) {
        return None;
    }
    let claim = lang::Clause::new(trend(None, metric, way, &vocab.series_param.0, points)).into();
    Some(Item::Reading(Reading { claim, number: false, confidence: 0.9, notes: Vec::new(), unplaced: None }))
}
