//! The claim language: the statement inside `<!-- reckon:claim id=… … -->`
//! parsed into a [`Claim`], and printed back in canonical form.
//!
//! ```text
//! claim      := clause ("and" clause)*
//! clause     := (pairwise | value | crossover | peak | trend) modifier* ["where" FILTER]
//! pairwise   := SERIES relation opponents "on" METRIC [quantifier]
//!             | "others" plural SERIES "on" METRIC [quantifier]
//! plural     := "beat" | "match" | "match or beat" | "lose to" | "are faster than" | "are slower than"
//!             | relation                       (`others beat A`: each other series beats A)
//! relation   := "beats" | "matches" | "matches or beats" | "loses to" | "is faster than"
//!             | "is slower than" | ">" | ">=" | "≥" | "<" | "<=" | "≤"
//! opponents  := "others" | SERIES ("," SERIES)*
//! value      := AGG "(" term "on" METRIC [quantifier] ")" [quantifier] numop TARGET
//!             | term "on" METRIC [quantifier] numop TARGET
//! TARGET     := NUMBER ["x"]           (`≈ 2.3x` reads as 2.3)
//! AGG        := "max" | "min" | "mean" | "median"
//! term       := SERIES | SERIES "/" SERIES | SERIES " - " SERIES
//! crossover  := "crossover" "(" side "," side "on" METRIC "over" PARAM [points] ")" numop LITERAL
//! side       := SERIES | "others"           (not both `others`)
//! peak       := [SERIES "on"] METRIC extreme "at" PARAM "=" LITERAL   (no SERIES: PARAM is the series)
//! extreme    := "peaks" | "is highest" | "is lowest" | "bottoms out" | "is best" | "is worst"
//! trend      := [SERIES "on"] METRIC (way "with" | "never" way "with" | way "by" bound NUMBER "%" "per step of")
//!               PARAM [points]
//! way        := "increases" | "rises" | "grows" | "decreases" | "falls" | "drops" | "improves" | "worsens"
//! bound      := "at least" | "at most" | "more than" | "less than"
//! numop      := "≈" | "~=" | "=" | "==" | ">" | ">=" | "≥" | "<" | "<=" | "≤"
//! modifier   := "within" NUMBER "%" | quantifier     (any order, each once)
//! quantifier := "at" PARAM "=" LITERAL
//!             | "for" ("all" | "every" | "each" | "any" | "some") PARAM [points]
//! points     := ("=" | ">" | ">=" | "<" | "<=") LITERAL
//!             | "in" "(" LITERAL ("," LITERAL)* ")" | "in" LITERAL ".." LITERAL
//!             | "from" LITERAL ["to" LITERAL] | "up" "to" LITERAL   (`>=`, `in a..b`, `<=`)
//! NUMBER     := digits, thousands grouped by commas in threes or not (`12,400`), …
//! ```
//!
//! Names: a bare SERIES starts with a letter, digit or `_` and goes on with
//! those and `- = + . : @ #` (`eagle-topk1-v2`, `topk=1+v2`); anything else,
//! or a reserved word, is quoted: `'EAGLE topk=1'` or `"…"`. Because `-` may
//! be part of a name, a difference needs spaces around its `-`. METRIC and
//! PARAM are identifiers (letters, digits, `_ . - /`). A LITERAL is a number, a
//! quoted string or a bare word.
//!
//! Binding: `and` separates clauses and binds loosest; `where` ends the
//! clause it belongs to and applies to that clause only. Its text runs to the
//! end of the statement, or to the first `and` (outside quotes and brackets)
//! after which the rest parses as clauses — so `where model = 'k' and tp = 8`
//! keeps both conditions, while `… where model = 'k' and baseline beats x on
//! m` starts a second clause. The filter is kept as raw text with its byte
//! offset; the query module parses it.
//!
//! Meanings the evaluator gives these (documented here because the syntax
//! promises them): `beats`/`matches` follow the metric's direction while
//! `>`/`<` between series are literal ([`Relation::resolve`]); `others` is
//! every other value of the series dimension present at judging time; a
//! quantifier-less pairwise or value clause ranges over every point the data
//! hold; `within` sets the margin δ of a pairwise clause or the tolerance of
//! a `≈`/`=` (default: the metric's noise margin); `=` on a measured value is
//! judged like `≈`.

use super::stats::Aggregate;
use crate::metric::format_number;
use crate::run::Value;
pub(crate) use crate::syntax::{Literal, Op};
use serde::Serialize;

pub(crate) use build::{bare, number, stated};
pub(crate) use curve::{Extreme, Peak, Step, Trend, Way};
pub(crate) use grammar::PERCENT;
use parse::Parser;
pub(crate) use relation::{turned, Relation};
use std::fmt;

/// A problem with a claim statement at a byte offset within it: one that
/// does not parse, or names what the data do not hold when judged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {msg}")]
pub struct ClaimError {
    /// 0-based byte offset within the statement text.
    pub offset: usize,
    pub msg: String,
}

impl ClaimError {
    fn new(offset: usize, msg: impl Into<String>) -> Self {
        ClaimError { offset, msg: msg.into() }
    }

    /// The 0-based line and 0-based column (in characters) of the error
    /// within `statement`, for a statement that spans several lines: add
    /// the statement's own position in the document to report <file:line:col>.
    pub fn line_col(&self, statement: &str) -> (usize, usize) {
        let (line, col) = crate::syntax::line_col(statement, self.offset);
        (line - 1, col - 1)
    }

    /// As a usage error naming the claim (e.g. its id), for callers with no
    /// document position to give.
    pub fn into_error(self, what: &str, statement: &str) -> crate::Error {
        let (line, col) = self.line_col(statement);
        crate::Error::Claim { what: what.to_string(), line: line + 1, col: col + 1, msg: self.msg }
    }
}

/// A name written in the statement (series, metric, param), with the byte
/// offset where it starts, so an evaluator can point at an unknown name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Name {
    pub text: String,
    pub offset: usize,
}

impl Name {
    /// A name not taken from a statement (offset 0).
    pub fn new(text: impl Into<String>) -> Name {
        Name { text: text.into(), offset: 0 }
    }
}

/// A parsed claim statement: clauses joined by `and`, all of which must
/// hold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Claim {
    pub clauses: Vec<Clause>,
}

/// One checkable statement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Clause {
    pub body: Body,
    /// `within P%` as a fraction (0.05): the margin δ of a pairwise clause,
    /// the tolerance of `≈`/`=`. `None`: the metric's noise margin.
    pub within: Option<f64>,
    /// The `where` filter, applying to this clause only.
    pub filter: Option<WhereClause>,
    /// Byte offset where the clause starts.
    pub offset: usize,
}

/// A `where` filter as written: the query module's filter language parses
/// it; `offset` is where `source` starts within the statement, for errors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WhereClause {
    pub source: String,
    pub offset: usize,
}

/// What a clause says.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Body {
    /// `A beats B, C on M …`
    Pairwise(Pairwise),
    /// `max(A / B on M) ≈ 2.3`, `A on M at P = v ≈ 86.8`
    Value(ValueClaim),
    /// `crossover(A, B on M over P) = 4`
    Crossover(Crossover),
    /// `A on M peaks at P = v`, `M is lowest at S = v`
    Peak(Peak),
    /// `A on M increases with P`, `M never decreases with S`, `A on M
    /// increases by less than 1% per step of P`
    Trend(Trend),
}

impl Body {
    /// The metric the clause is about.
    pub fn metric(&self) -> &Name {
        match self {
            Body::Pairwise(p) => &p.metric,
            Body::Value(v) => &v.metric,
            Body::Crossover(c) => &c.metric,
            Body::Peak(p) => &p.metric,
            Body::Trend(t) => &t.metric,
        }
    }

    /// The series the clause names (not the ones `others` stands for).
    pub fn series(&self) -> Vec<&Name> {
        match self {
            Body::Pairwise(p) => {
                let mut v = vec![&p.a];
                if let Opponents::Series(bs) = &p.b {
                    v.extend(bs);
                }
                v
            }
            Body::Value(v) => v.term.series(),
            Body::Crossover(c) => [&c.a, &c.b].into_iter().filter_map(Contender::name).collect(),
            Body::Peak(p) => p.series.iter().collect(),
            Body::Trend(t) => t.series.iter().collect(),
        }
    }

    /// The quantifier, if the clause has one (a crossover's `over` is not
    /// one: see [`Crossover::points`]).
    pub fn quantifier(&self) -> Option<&Quantifier> {
        match self {
            Body::Pairwise(p) => p.quantifier.as_ref(),
            Body::Value(v) => v.quantifier.as_ref(),
            Body::Crossover(_) | Body::Peak(_) | Body::Trend(_) => None,
        }
    }

    /// The param the clause ranges over: its quantifier's, a crossover's
    /// `over`, a peak's.
    pub fn param(&self) -> Option<&Name> {
        match self {
            Body::Crossover(c) => Some(&c.param),
            Body::Peak(p) => Some(&p.param),
            Body::Trend(t) => Some(&t.param),
            body => body.quantifier().map(|q| &q.param),
        }
    }
}

/// A comparison of one series with others, point by point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pairwise {
    pub a: Name,
    pub relation: Relation,
    pub b: Opponents,
    pub metric: Name,
    /// `None`: every point the data hold.
    pub quantifier: Option<Quantifier>,
    /// `others beat A on M`: every other series is the subject and `a` the
    /// one each is compared with (`b` is [`Opponents::Others`]); each
    /// comparison reads `other REL a`, and every one must hold.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub others_first: bool,
}

/// Who A is compared with.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponents {
    /// Named series.
    Series(Vec<Name>),
    /// Every other value of the series dimension the data hold when judged.
    Others,
}

/// A number derived from the data compared with a stated number.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueClaim {
    /// Folds the points of the range into one number; `None`: the term is
    /// judged at each point of the quantifier.
    pub aggregate: Option<Aggregate>,
    pub term: Term,
    pub metric: Name,
    pub quantifier: Option<Quantifier>,
    pub op: Op,
    /// The stated number (the start of the range for `in lo..hi`), in the
    /// unit written (`unit`), else the metric's.
    pub target: f64,
    /// The end of the range of `in lo..hi`.
    pub upper: Option<f64>,
    /// The unit written after the number (`≈ 1.66 ms`), converted to the
    /// metric's stored unit when judged.
    pub unit: Option<Name>,
    /// `A on M at P = v / at P = w` (or ` - at P = w`): the series at the
    /// quantifier's point against itself at another point of the same param.
    pub versus: Option<Versus>,
    /// `A cuts B on M by at least 35%`: the relative change as written; `op`
    /// and `target` hold the bound on A/B it means (A/B ≤ 0.65).
    pub change: Option<Change>,
}

/// One series at another point of the quantifier's param.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Versus {
    /// Ratio (`/`) or difference (`-`).
    pub ratio: bool,
    /// The other point (the denominator or subtrahend).
    pub at: Literal,
}

/// A relative change of A against B, as researchers write it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Change {
    /// `cuts` (A below B) or `raises` (A above B).
    pub cuts: bool,
    pub bound: ChangeBound,
    /// The percentage as written (35 for 35%).
    pub percent: f64,
}

/// How a relative change is bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeBound {
    AtLeast,
    AtMost,
    MoreThan,
    LessThan,
}

impl ChangeBound {
    fn as_str(self) -> &'static str {
        match self {
            ChangeBound::AtLeast => "at least",
            ChangeBound::AtMost => "at most",
            ChangeBound::MoreThan => "more than",
            ChangeBound::LessThan => "less than",
        }
    }
}

impl Change {
    /// The bound on A/B the change means: `cuts by at least 35%` is A/B ≤
    /// 0.65, `raises by more than 20%` is A/B > 1.2.
    pub fn ratio_bound(self) -> (Op, f64) {
        let f = self.percent / 100.0;
        let target = if self.cuts { 1.0 - f } else { 1.0 + f };
        let op = match (self.cuts, self.bound) {
            (true, ChangeBound::AtLeast) | (false, ChangeBound::AtMost) => Op::Le,
            (true, ChangeBound::AtMost) | (false, ChangeBound::AtLeast) => Op::Ge,
            (true, ChangeBound::MoreThan) | (false, ChangeBound::LessThan) => Op::Lt,
            (true, ChangeBound::LessThan) | (false, ChangeBound::MoreThan) => Op::Gt,
        };
        (op, target)
    }
}

/// The number a value clause is about, per point.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Term {
    /// One series' value.
    Level(Name),
    /// A / B, literal.
    Ratio(Name, Name),
    /// A − B, literal.
    Difference(Name, Name),
}

impl Term {
    /// The series the term reads.
    pub fn series(&self) -> Vec<&Name> {
        match self {
            Term::Level(a) => vec![a],
            Term::Ratio(a, b) | Term::Difference(a, b) => vec![a, b],
        }
    }
}

/// One side of a crossover: a series, or every other series (`others`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Contender {
    Series(Name),
    Others,
}

impl Contender {
    /// The series named, if this side names one.
    pub fn name(&self) -> Option<&Name> {
        match self {
            Contender::Series(n) => Some(n),
            Contender::Others => None,
        }
    }
}

/// The smallest point of `param` from which A beats B for good, compared
/// with a stated value. With `others` on one side, from which every other
/// series beats B (or A beats every other) for good.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Crossover {
    pub a: Contender,
    pub b: Contender,
    pub metric: Name,
    pub param: Name,
    /// Restricts the points considered (`over concurrency >= 2`).
    pub points: PointSet,
    pub op: Op,
    pub target: Literal,
}

/// Which points of a param a clause speaks about, and how.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Quantifier {
    pub kind: QuantKind,
    pub param: Name,
    pub points: PointSet,
}

/// How the points of a quantifier combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QuantKind {
    /// `at P = v`: one point (`points` is `= v`).
    At,
    /// `for all P …`: every point the data hold in the set.
    ForAll,
    /// `for any P …`: at least one of them.
    ForAny,
}

/// A set of param values.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PointSet {
    /// Every value the data hold.
    Every,
    /// `= v`, `> v`, `>= v`, `< v`, `<= v`.
    Cmp(Op, Literal),
    /// `in (v1, v2, …)`.
    In(Vec<Literal>),
    /// `in lo..hi`, inclusive.
    Range(Literal, Literal),
}

impl PointSet {
    /// Whether a param value belongs to the set. Numbers compare
    /// numerically (a text value that reads as a number counts as one);
    /// text compares as text.
    pub fn contains(&self, v: &Value) -> bool {
        match self {
            PointSet::Every => true,
            PointSet::Cmp(op, lit) => op.accepts(compare(lit, v)),
            PointSet::In(lits) => lits.iter().any(|l| compare(l, v) == Some(std::cmp::Ordering::Equal)),
            PointSet::Range(lo, hi) => {
                compare(lo, v).is_some_and(|o| o != std::cmp::Ordering::Less)
                    && compare(hi, v).is_some_and(|o| o != std::cmp::Ordering::Greater)
            }
        }
    }
}

/// A param value compared with a literal of the statement
/// (`value.cmp(literal)`), as `--where` compares them: see
/// [`Literal::compare`].
pub(crate) fn compare(lit: &Literal, v: &Value) -> Option<std::cmp::Ordering> {
    let text = match v {
        Value::Text(t) => Some(t.as_str()),
        Value::Num(_) => None,
    };
    lit.compare(v.as_f64(), text)
}

/// Parses a claim statement (the text after `id=…` in a claim directive,
/// possibly spanning lines).
pub(crate) fn parse(statement: &str) -> Result<Claim, ClaimError> {
    if statement.len() > MAX_STATEMENT {
        return Err(ClaimError::new(
            0,
            format!(
                "the statement is {} bytes long; a claim is at most {MAX_STATEMENT} bytes — split it into \
                    several claims",
                statement.len()
            ),
        ));
    }
    let probes = std::cell::RefCell::new(std::collections::HashMap::new());
    let mut p = Parser { src: statement, pos: 0, probes: &probes, depth: 0 };
    let claim = p.claim()?;
    p.skip_ws();
    if p.pos < p.src.len() {
        return Err(p.trailing());
    }
    Ok(claim)
}

impl std::str::FromStr for Claim {
    type Err = ClaimError;
    fn from_str(s: &str) -> Result<Claim, ClaimError> {
        parse(s)
    }
}

/// Words that cannot be bare series names (they are quoted when printed).
const RESERVED: &[&str] = &[
    "and",
    "beats",
    "matches",
    "or",
    "on",
    "others",
    "where",
    "within",
    "at",
    "for",
    "over",
    "in",
    "crossover",
    "cuts",
    "raises",
    "peaks",
    "is",
    "by",
    "of",
    "max",
    "min",
    "mean",
    "median",
];

fn is_series_start(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_series_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '=' | '+' | '.' | ':' | '@' | '#')
}

fn is_ident_char(c: char) -> bool {
    // `/` for metric names as prose writes them (`tok/s`).
    c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | '/')
}

/// The longest claim statement reckon parses. Real statements are a line
/// or two; the limit bounds the work a hostile document can ask of the
/// parser (every `and` after a `where` is a place the filter may end).
pub(crate) const MAX_STATEMENT: usize = 4096;

mod build;
mod curve;
mod grammar;
mod others;
mod parse;
mod print;
mod relation;
mod scope;

#[cfg(test)]
pub(crate) use build::without_offsets;
#[cfg(test)]
mod forms_tests;
#[cfg(test)]
mod tests;
