//! Claims built by a program rather than parsed from a statement — lint's
//! readings of prose: constructors for the AST that give the tree the
//! parser would give for the statement the tree prints as.
//!
//! What a built claim is judged on is what a person reads of it (`lint`
//! shows it, `lint --write` inserts it, `check` parses it back): so a
//! number is kept as the claim language writes it ([`stated`]: six
//! significant digits, as [`format_number`] prints it), and a percentage
//! (`within`, a change's `by`) as the fraction the parser makes of the
//! percentage written. Names carry offset 0: they come from no statement.

use super::{
    format_number, Body, Change, Claim, Clause, Crossover, Literal, Name, Op, Opponents, Pairwise, Peak, PointSet,
    QuantKind, Quantifier, Relation, Term, Trend, ValueClaim,
};
use crate::claims::stats::Aggregate;

/// A number as the claim language states it: `v` with the digits the
/// printer writes, read back as the parser reads them — so a built claim
/// and the statement it prints as are judged alike.
pub(crate) fn stated(v: f64) -> f64 {
    crate::syntax::read_number(&format_number(v)).unwrap_or(v)
}

/// A number as a literal of a statement (a point, a crossover's target).
pub(crate) fn number(v: f64) -> Literal {
    Literal::Num(stated(v))
}

/// A value written bare (`8`, `zipf`) as the parser reads it: a number
/// when it reads as one, else text.
pub(crate) fn bare(word: &str) -> Literal {
    match Literal::bare(word) {
        Literal::Num(n) => number(n),
        text @ Literal::Text(_) => text,
    }
}

impl Claim {
    /// The claim that all of `clauses` hold.
    pub(crate) fn of(clauses: Vec<Clause>) -> Claim {
        Claim { clauses }
    }
}

impl From<Clause> for Claim {
    fn from(clause: Clause) -> Claim {
        Claim { clauses: vec![clause] }
    }
}

impl Clause {
    /// A clause saying `body`, with the metric's own margin and no filter.
    pub(crate) fn new(body: impl Into<Body>) -> Clause {
        Clause { body: body.into(), within: None, filter: None, offset: 0 }
    }

    /// With `within P%`, P as written (`within(Some(5.0))`: 5%).
    #[must_use]
    pub(crate) fn within(mut self, percent: Option<f64>) -> Clause {
        self.within = percent.map(|p| stated(p) / 100.0);
        self
    }
}

impl From<Pairwise> for Body {
    fn from(p: Pairwise) -> Body {
        Body::Pairwise(p)
    }
}

impl From<ValueClaim> for Body {
    fn from(v: ValueClaim) -> Body {
        Body::Value(v)
    }
}

impl From<Crossover> for Body {
    fn from(c: Crossover) -> Body {
        Body::Crossover(c)
    }
}

impl From<Peak> for Body {
    fn from(p: Peak) -> Body {
        Body::Peak(p)
    }
}

impl From<Trend> for Body {
    fn from(t: Trend) -> Body {
        Body::Trend(t)
    }
}

impl Quantifier {
    /// `at P = v`.
    pub(crate) fn at(param: &str, value: Literal) -> Quantifier {
        Quantifier { kind: QuantKind::At, param: Name::new(param), points: PointSet::Cmp(Op::Eq, value) }
    }

    /// `for all P [points]`.
    pub(crate) fn for_all(param: &str, points: PointSet) -> Quantifier {
        Quantifier { kind: QuantKind::ForAll, param: Name::new(param), points }
    }
}

impl Pairwise {
    /// `A REL B on M [quantifier]`, `b` a series or `others`.
    pub(crate) fn new(a: &str, relation: Relation, b: Opponents, metric: &str, quantifier: Option<Quantifier>) -> Self {
        Pairwise { a: Name::new(a), relation, b, metric: Name::new(metric), quantifier, others_first: false }
    }

    /// `others REL A on M [quantifier]`: every other series is the subject
    /// (`others beat a on m`, what the parser gives for that statement).
    pub(crate) fn others_first(relation: Relation, a: &str, metric: &str, quantifier: Option<Quantifier>) -> Self {
        Pairwise { others_first: true, ..Pairwise::new(a, relation, Opponents::Others, metric, quantifier) }
    }
}

impl Opponents {
    /// One named series.
    pub(crate) fn one(series: &str) -> Opponents {
        Opponents::Series(vec![Name::new(series)])
    }
}

impl Term {
    /// One series' value.
    pub(crate) fn level(series: &str) -> Term {
        Term::Level(Name::new(series))
    }

    /// A / B.
    pub(crate) fn ratio(a: &str, b: &str) -> Term {
        Term::Ratio(Name::new(a), Name::new(b))
    }

    /// A − B.
    pub(crate) fn difference(a: &str, b: &str) -> Term {
        Term::Difference(Name::new(a), Name::new(b))
    }
}

impl ValueClaim {
    /// `TERM on M [quantifier] OP target`.
    pub(crate) fn new(term: Term, metric: &str, quantifier: Option<Quantifier>, op: Op, target: f64) -> Self {
        ValueClaim {
            aggregate: None,
            term,
            metric: Name::new(metric),
            quantifier,
            op,
            target: stated(target),
            upper: None,
            unit: None,
            versus: None,
            change: None,
        }
    }

    /// `TERM on M [quantifier] in lo..hi`.
    pub(crate) fn between(term: Term, metric: &str, quantifier: Option<Quantifier>, lo: f64, hi: f64) -> Self {
        ValueClaim { upper: Some(stated(hi)), ..ValueClaim::new(term, metric, quantifier, Op::In, lo) }
    }

    /// The target in `unit` as written (`≈ 1.17 µs`), converted to the
    /// metric's unit when judged; `None` leaves it in the metric's own.
    #[must_use]
    pub(crate) fn in_unit(mut self, unit: Option<&str>) -> Self {
        self.unit = unit.map(Name::new);
        self
    }

    /// `AGG(TERM on M [quantifier]) OP target`: the points folded into one
    /// number.
    #[must_use]
    pub(crate) fn folded(mut self, aggregate: Aggregate) -> Self {
        self.aggregate = Some(aggregate);
        self
    }

    /// `A cuts B on M [quantifier] by BOUND P%` (or `raises`): the change
    /// as written, and the bound on A/B it means.
    pub(crate) fn change(term: Term, metric: &str, quantifier: Option<Quantifier>, change: Change) -> Self {
        let change = Change { percent: stated(change.percent), ..change };
        let (op, target) = change.ratio_bound();
        ValueClaim { change: Some(change), ..ValueClaim::new(term, metric, quantifier, op, target) }
    }
}

/// The claim with every offset 0: a parsed claim as a built one is, to
/// compare the two.
#[cfg(test)]
pub(crate) fn without_offsets(claim: &Claim) -> Claim {
    let mut c = claim.clone();
    let zero = |n: &mut Name| n.offset = 0;
    for k in &mut c.clauses {
        k.offset = 0;
        if let Some(w) = &mut k.filter {
            w.offset = 0;
        }
        let quantifier = |q: &mut Option<Quantifier>| {
            if let Some(q) = q {
                q.param.offset = 0;
            }
        };
        match &mut k.body {
            Body::Pairwise(p) => {
                zero(&mut p.a);
                zero(&mut p.metric);
                if let Opponents::Series(bs) = &mut p.b {
                    bs.iter_mut().for_each(zero);
                }
                quantifier(&mut p.quantifier);
            }
            Body::Value(v) => {
                match &mut v.term {
                    Term::Level(a) => zero(a),
                    Term::Ratio(a, b) | Term::Difference(a, b) => {
                        zero(a);
                        zero(b);
                    }
                }
                zero(&mut v.metric);
                v.unit.iter_mut().for_each(zero);
                quantifier(&mut v.quantifier);
            }
            Body::Crossover(x) => {
                for side in [&mut x.a, &mut x.b] {
                    if let super::Contender::Series(n) = side {
                        zero(n);
                    }
                }
                zero(&mut x.metric);
                zero(&mut x.param);
            }
            Body::Peak(p) => {
                p.series.iter_mut().for_each(zero);
                zero(&mut p.metric);
                zero(&mut p.param);
            }
            Body::Trend(t) => {
                t.series.iter_mut().for_each(zero);
                zero(&mut t.metric);
                zero(&mut t.param);
            }
        }
    }
    c
}
