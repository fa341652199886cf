//! Whom a clause speaks of and what a sentence's earlier clauses lend the
//! later ones: the subject (several after `For X and Y, …` or `both X`),
//! the series they compare with (`Relative to X, …`), a point, the values
//! that filter them.

use super::super::vocab::{Scope, Token};
use super::words::{self, words_before, OBJECT};
use super::{scope, Item, Sentence};
use crate::metric::format_number;

/// What a sentence's earlier clauses lend the later ones.
#[derive(Default)]
pub(super) struct Lent {
    /// The subject, and where it was named (for the note).
    pub(super) subject: Option<(String, &'static str)>,
    /// `For X and Y, …`, `Both LTO modes …`: several subjects, each read.
    pub(super) subjects: Vec<String>,
    /// `Relative to X, …`: the series the clauses after compare with.
    pub(super) object: Option<String>,
    pub(super) scope: Option<Scope>,
    pub(super) values: Vec<(String, String)>,
    pub(super) point: Option<String>,
    pub(super) last_param: Option<String>,
    /// The metric an earlier clause read (`X is the fastest kernel, 10%
    /// ahead of Y`: the clause after speaks of the same).
    pub(super) metric: Option<String>,
    /// A size whose point is not known (`a 2 GB cache` the data hold in
    /// neither reading): why, for every clause after it.
    pub(super) unsure: Option<String>,
}

/// Whom a clause speaks of.
pub(super) struct Who {
    /// Each is read in turn (one, unless the clause names several at once).
    pub(super) subjects: Vec<String>,
    /// The series it names, its subjects first.
    pub(super) names: Vec<String>,
    pub(super) borrowed: Option<&'static str>,
    /// `X and Y are within 20% of each other`: the subjects together.
    pub(super) mutual: bool,
    /// Tokens that named them (`both`, `the two`, `each other`).
    pub(super) took: Vec<usize>,
}

impl Sentence<'_> {
    /// Whom a clause speaks of: the series it names (`both X` of a name
    /// that fits two: both), else those an earlier clause named, else — for
    /// `it`, `its` — the sentence before's subject. None when it is no one
    /// (an ambiguous name is said; a clause naming only what a later one is
    /// compared with, `Relative to X,`, lends it).
    pub(super) fn who(
        &self,
        c: &[Token],
        text: &str,
        (series, used): (&[(usize, &Vec<String>)], &[usize]),
        statement: bool,
        lent: &mut Lent,
        out: &mut Vec<Item>,
    ) -> Option<Who> {
        let mut took = Vec::new();
        let mut expanded: Vec<String> = Vec::new();
        for (k, (i, cands)) in series.iter().enumerate().filter(|(_, (_, s))| s.len() > 1) {
            if let (0, Some(words)) = (k, words::names_all(c, *i, cands.len())) {
                took.extend(words);
                expanded.clone_from(cands);
                continue;
            }
            if statement {
                let phrase = text[c[*i].start..c[*i].end].to_string();
                out.push(Item::Ambiguous { phrase, candidates: (*cands).clone() });
            }
            return None;
        }
        let single: Vec<(usize, &Vec<String>)> = series.iter().filter(|(_, s)| s.len() == 1).copied().collect();
        let first = series.first().map(|(i, _)| *i);
        if !statement && expanded.is_empty() {
            if let (Some(i), [(_, s)]) = (first, single.as_slice()) {
                if words::compared_with(c, i) {
                    lent.object = Some(s[0].clone());
                    return None;
                }
            }
        }
        let mutual = words::each_other(c);
        took.extend(mutual.iter().copied());
        let pronoun = words::pronoun_before(c, first.unwrap_or(c.len()), used);
        let previous = self.around.previous_subject.clone().filter(|_| pronoun);
        let subject = lent.subject.clone().or_else(|| previous.clone().map(|s| (s, "the sentence before")));
        let mut names = expanded.clone();
        for n in clause_names(c, &single, subject.as_ref().map(|(s, _)| s.as_str())) {
            if !names.contains(&n) {
                names.push(n);
            }
        }
        // (`X halves Y's latency` says something of X and Y: not a list.)
        let change = words::has(c, words::RAISE)
            || words::has(c, words::CUT)
            || words::CHANGE.iter().any(|(w, _)| words::has(c, &[w]));
        if !expanded.is_empty() || !statement && !change && names.len() >= 2 && lent.subjects.is_empty() {
            let subjects = if expanded.is_empty() { names.clone() } else { expanded };
            if !statement {
                lent.subjects = subjects;
                return None;
            }
            let mutual = !mutual.is_empty() || super::words::same_phrase(c).is_some();
            return Some(Who { subjects, names, borrowed: None, mutual, took });
        }
        // `its p99 is more than twice baseline's`: baseline is compared with,
        // not the subject.
        if let (Some(i), None) = (first, &subject) {
            // `Every other configuration beats X`: X, compared with the others.
            let others_first = super::others::phrase(self.vocab, c).is_some_and(|p| p[0] < i);
            if let (true, [one]) = (others_first, names.as_slice()) {
                let subjects = vec![one.clone()];
                return Some(Who { subjects, names: names.clone(), borrowed: None, mutual: false, took });
            }
            if words::object_word(c, i) {
                return None;
            }
        }
        // (`X and Y show no difference`: the two together, as `each other`.)
        let mutual = !mutual.is_empty() || super::words::same_phrase(c).is_some();
        match names.first() {
            Some(s) => {
                let borrowed =
                    (lent.subject.is_none() && previous.as_ref() == Some(s)).then_some("the sentence before");
                Some(Who { subjects: vec![s.clone()], names, borrowed, mutual, took })
            }
            None if !lent.subjects.is_empty() => Some(Who {
                subjects: lent.subjects.clone(),
                names: lent.subjects.clone(),
                borrowed: Some("earlier in the sentence"),
                mutual,
                took,
            }),
            None => {
                subject.map(|(s, from)| Who { subjects: vec![s], names: vec![], borrowed: Some(from), mutual, took })
            }
        }
    }
}

impl Who {
    /// Each subject with the series its reading names (one pass for a
    /// mutual statement).
    pub(super) fn passes(&self) -> Vec<(String, Vec<String>)> {
        if self.mutual || self.subjects.len() == 1 {
            return vec![(self.subjects[0].clone(), self.names.clone())];
        }
        self.subjects
            .iter()
            .map(|s| {
                let mut names = vec![s.clone()];
                names.extend(self.names.iter().filter(|n| !self.subjects.contains(n)).cloned());
                (s.clone(), names)
            })
            .collect()
    }
}

impl Lent {
    /// A clause's scope — its own, else the one lent — and the filter its
    /// claims take (its second point, the point and values lent, its
    /// headings'); the scope is lent on.
    pub(super) fn settle(
        &mut self,
        scope: Option<Scope>,
        also: Option<String>,
        headings: &[(String, String)],
    ) -> (Option<Scope>, Option<String>) {
        // A point or value governs the clauses after it until another
        // replaces it (`At C=16, X leads on throughput, ties Y on TTFT, …`).
        // `With 100-byte values, X reaches 12,400 QPS at 8 threads`: a lent
        // point on another param than the clause's own is its filter.
        let also = also.or_else(|| match (&scope, &self.scope) {
            (Some(own), Some(Scope::At(p, v))) if own.param() != p => Some(format!("{p} = {}", format_number(*v))),
            _ => None,
        });
        let scope = scope.or_else(|| self.scope.clone());
        self.scope.clone_from(&scope);
        let also = lend_point(also, &mut self.point, scope.as_ref());
        let filter = filter_of(also, scope.as_ref(), headings, &self.values);
        (scope, filter)
    }
}

/// A clause's second point, else the one an earlier clause lent (unless
/// it is on the param of the clause's own scope); it lends it on.
fn lend_point(own: Option<String>, lent: &mut Option<String>, scope: Option<&Scope>) -> Option<String> {
    let param = scope.map(|s| format!("{} = ", s.param()));
    let point = own.or_else(|| lent.clone().filter(|f| param.as_ref().is_none_or(|p| !f.starts_with(p))));
    lent.clone_from(&point);
    point
}

/// The filter a clause's claims end with: its second point, and the
/// values it or an earlier clause names (`in fp8`), else its headings'.
fn filter_of(
    point: Option<String>,
    scope: Option<&Scope>,
    headings: &[(String, String)],
    lent: &[(String, String)],
) -> Option<String> {
    let mut values: Vec<&(String, String)> = Vec::new();
    let taken = |p: &str| {
        scope.is_some_and(|s| s.param() == p) || point.as_ref().is_some_and(|f| f.starts_with(&format!("{p} = ")))
    };
    for pv in headings.iter().chain(lent) {
        values.retain(|(q, _)| *q != pv.0);
        if !taken(&pv.0) {
            values.push(pv);
        }
    }
    let parts: Vec<String> =
        point.into_iter().chain(values.into_iter().map(|(p, v)| format!("{p} = {}", scope::literal(v)))).collect();
    (!parts.is_empty()).then(|| parts.join(" and "))
}

/// The series a clause names, each once, in order. `…, about 3% ahead of
/// DDP`: a clause naming only the object of its comparison speaks of the
/// previous clause's series (`subject`).
fn clause_names(c: &[Token], series: &[(usize, &Vec<String>)], subject: Option<&str>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (_, s) in series {
        if !names.contains(&s[0]) {
            names.push(s[0].clone());
        }
    }
    if let (Some((i, _)), Some(prev)) = (series.first(), subject) {
        let object = words_before(c, *i, 1).first().is_some_and(|w| OBJECT.contains(w));
        if object && names.len() == 1 && names[0] != prev {
            names.insert(0, prev.to_string());
        }
    }
    names
}
