//! The claim language: the statement inside `<!-- reckon:claim id=… … -->`
//! parsed into a [`Claim`], and printed back in canonical form.
//!
//! ```text
//! claim      := clause ("and" clause)*
//! clause     := (pairwise | value | crossover) modifier* ["where" FILTER]
//! pairwise   := SERIES relation opponents "on" METRIC [quantifier]
//! relation   := "beats" | "matches" | "matches or beats" | ">" | ">=" | "≥" | "<" | "<=" | "≤"
//! opponents  := "others" | SERIES ("," SERIES)*
//! value      := AGG "(" term "on" METRIC [quantifier] ")" [quantifier] numop TARGET
//!             | term "on" METRIC [quantifier] numop TARGET
//! TARGET     := NUMBER ["x"]           (`≈ 2.3x` reads as 2.3)
//! AGG        := "max" | "min" | "mean" | "median"
//! term       := SERIES | SERIES "/" SERIES | SERIES " - " SERIES
//! crossover  := "crossover" "(" SERIES "," SERIES "on" METRIC "over" PARAM [points] ")" numop LITERAL
//! numop      := "≈" | "~=" | "=" | "==" | ">" | ">=" | "≥" | "<" | "<=" | "≤"
//! modifier   := "within" NUMBER "%" | quantifier     (any order, each once)
//! quantifier := "at" PARAM "=" LITERAL
//!             | "for" ("all" | "every" | "each" | "any" | "some") PARAM [points]
//! points     := ("=" | ">" | ">=" | "<" | "<=") LITERAL
//!             | "in" "(" LITERAL ("," LITERAL)* ")" | "in" LITERAL ".." LITERAL
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
#![allow(clippy::too_many_lines)] // floor-plan debt (issue 7): fix these and delete this line

use super::stats::{Aggregate, Test};
use crate::metric::format_number;
use crate::metric::Direction;
use crate::run::Value;
pub use crate::syntax::{Literal, Op};
use serde::Serialize;
use std::fmt;

/// A parse error at a byte offset within the statement.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {msg}")]
pub struct ClaimParseError {
    /// 0-based byte offset within the statement text.
    pub offset: usize,
    pub msg: String,
}

impl ClaimParseError {
    fn new(offset: usize, msg: impl Into<String>) -> Self {
        ClaimParseError { offset, msg: msg.into() }
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
        crate::Error::usage(format!("claim {what}: line {} column {}: {}", line + 1, col + 1, self.msg))
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
    /// `A on M peaks at P = v`
    Peak(Peak),
}

impl Body {
    /// The metric the clause is about.
    pub fn metric(&self) -> &Name {
        match self {
            Body::Pairwise(p) => &p.metric,
            Body::Value(v) => &v.metric,
            Body::Crossover(c) => &c.metric,
            Body::Peak(p) => &p.metric,
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
            Body::Crossover(c) => vec![&c.a, &c.b],
            Body::Peak(p) => vec![&p.series],
        }
    }

    /// The quantifier, if the clause has one (a crossover's `over` is not
    /// one: see [`Crossover::points`]).
    pub fn quantifier(&self) -> Option<&Quantifier> {
        match self {
            Body::Pairwise(p) => p.quantifier.as_ref(),
            Body::Value(v) => v.quantifier.as_ref(),
            Body::Crossover(_) | Body::Peak(_) => None,
        }
    }

    /// The param the clause ranges over: its quantifier's, a crossover's
    /// `over`, a peak's.
    pub fn param(&self) -> Option<&Name> {
        match self {
            Body::Crossover(c) => Some(&c.param),
            Body::Peak(p) => Some(&p.param),
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

/// The relation a pairwise clause asserts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// Better beyond the margin, in the metric's direction.
    Beats,
    /// Equal within the margin.
    Matches,
    /// Not worse beyond the margin, in the metric's direction.
    MatchesOrBeats,
    /// Literal: A greater than B beyond the margin, whatever the direction.
    Gt,
    /// Literal: A not smaller than B beyond the margin.
    Ge,
    /// Literal: A smaller than B beyond the margin.
    Lt,
    /// Literal: A not greater than B beyond the margin.
    Le,
}

impl Relation {
    /// The statistical test and the direction to compare in, for a metric
    /// whose better direction is `direction`: `beats`/`matches` follow it,
    /// the literal operators fix it (`>` is "beats" where higher is better).
    pub fn resolve(self, direction: Direction) -> (Test, Direction) {
        match self {
            Relation::Beats => (Test::Beats, direction),
            Relation::Matches => (Test::Matches, direction),
            Relation::MatchesOrBeats => (Test::MatchesOrBeats, direction),
            Relation::Gt => (Test::Beats, Direction::Higher),
            Relation::Ge => (Test::MatchesOrBeats, Direction::Higher),
            Relation::Lt => (Test::Beats, Direction::Lower),
            Relation::Le => (Test::MatchesOrBeats, Direction::Lower),
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Relation::Beats => "beats",
            Relation::Matches => "matches",
            Relation::MatchesOrBeats => "matches or beats",
            Relation::Gt => ">",
            Relation::Ge => ">=",
            Relation::Lt => "<",
            Relation::Le => "<=",
        }
    }
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

/// Where a series' maximum or minimum over a param lies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Peak {
    pub series: Name,
    pub metric: Name,
    /// `peaks at` (the maximum) or `is lowest at` (the minimum), literal
    /// whatever the metric's direction.
    pub highest: bool,
    pub param: Name,
    pub at: Literal,
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

/// The smallest point of `param` from which A beats B for good, compared
/// with a stated value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Crossover {
    pub a: Name,
    pub b: Name,
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
pub fn compare(lit: &Literal, v: &Value) -> Option<std::cmp::Ordering> {
    let text = match v {
        Value::Text(t) => Some(t.as_str()),
        Value::Num(_) => None,
    };
    lit.compare(v.as_f64(), text)
}

/// Parses a claim statement (the text after `id=…` in a claim directive,
/// possibly spanning lines).
pub fn parse(statement: &str) -> Result<Claim, ClaimParseError> {
    if statement.len() > MAX_STATEMENT {
        return Err(ClaimParseError::new(
            0,
            format!(
                "the statement is {} bytes long; a claim is at most {MAX_STATEMENT} bytes — split it into several claims",
                statement.len()
            ),
        ));
    }
    let probes = std::cell::RefCell::new(std::collections::HashMap::new());
    let mut p = Parser { src: statement, pos: 0, probes: &probes, depth: 0 };
    let claim = p.claim()?;
    p.skip_ws();
    if p.pos < p.src.len() {
        return Err(p.err("expected `and` and another claim, or the end of the statement"));
    }
    Ok(claim)
}

impl std::str::FromStr for Claim {
    type Err = ClaimParseError;
    fn from_str(s: &str) -> Result<Claim, ClaimParseError> {
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

/// The right-hand side of a value comparison as written.
struct Stated {
    op: Op,
    target: f64,
    upper: Option<f64>,
    unit: Option<Name>,
}

/// The longest claim statement reckon parses. Real statements are a line
/// or two; the limit bounds the work a hostile document can ask of the
/// parser (every `and` after a `where` is a place the filter may end).
pub const MAX_STATEMENT: usize = 4096;

/// How many `where … and` cuts may be tried inside one another (each tries
/// to parse the rest of the statement as further clauses).
const MAX_PROBE_DEPTH: usize = 64;

struct Parser<'a, 'm> {
    src: &'a str,
    pos: usize,
    /// Whether the rest of the statement from a byte offset parses as
    /// clauses to its end, for each offset tried: trying each `and` of a
    /// filter as its end would otherwise be exponential in their number.
    probes: &'m std::cell::RefCell<std::collections::HashMap<usize, bool>>,
    depth: usize,
}

impl<'a> Parser<'a, '_> {
    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_ws(&mut self) {
        let trimmed = self.rest().trim_start();
        self.pos = self.src.len() - trimmed.len();
    }

    fn err(&self, msg: impl Into<String>) -> ClaimParseError {
        let found = if self.rest().trim_start().chars().next().is_none() {
            " (found the end of the statement)".to_string()
        } else {
            let word: String = self.rest().trim_start().chars().take_while(|c| !c.is_whitespace()).take(20).collect();
            format!(" (found `{word}`)")
        };
        let offset = self.src.len() - self.rest().trim_start().len();
        ClaimParseError::new(offset, format!("{}{found}", msg.into()))
    }

    /// Consumes `kw` when it is the next word (followed by something that
    /// cannot continue a name).
    fn eat_kw(&mut self, kw: &str) -> bool {
        self.skip_ws();
        let r = self.rest();
        if r.starts_with(kw) && !r[kw.len()..].starts_with(is_series_char) {
            self.pos += kw.len();
            true
        } else {
            false
        }
    }

    fn peek_kw(&mut self, kw: &str) -> bool {
        let save = self.pos;
        let found = self.eat_kw(kw);
        self.pos = save;
        found
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str, what: &str) -> Result<(), ClaimParseError> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.err(format!("expected {what}")))
        }
    }

    fn expect_kw(&mut self, kw: &str, what: &str) -> Result<(), ClaimParseError> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(self.err(format!("expected {what}")))
        }
    }

    fn quoted(&mut self) -> Result<Option<Name>, ClaimParseError> {
        self.skip_ws();
        let start = self.pos;
        let Some(q) = self.peek().filter(|c| *c == '\'' || *c == '"') else {
            return Ok(None);
        };
        let body = &self.rest()[1..];
        match body.find(q) {
            Some(end) => {
                let text = body[..end].to_string();
                self.pos += 1 + end + 1;
                if text.is_empty() {
                    return Err(ClaimParseError::new(start, "empty quoted name"));
                }
                Ok(Some(Name { text, offset: start }))
            }
            None => Err(ClaimParseError::new(start, format!("unclosed quote {q}"))),
        }
    }

    /// A series name: quoted, or a bare word that is not reserved.
    fn series(&mut self, what: &str) -> Result<Name, ClaimParseError> {
        if let Some(n) = self.quoted()? {
            return Ok(n);
        }
        self.skip_ws();
        let start = self.pos;
        if !self.peek().is_some_and(is_series_start) {
            return Err(self.err(format!("expected {what}")));
        }
        let len = self.rest().find(|c| !is_series_char(c)).unwrap_or(self.rest().len());
        let text = &self.rest()[..len];
        if RESERVED.contains(&text) {
            return Err(ClaimParseError::new(
                start,
                format!("expected {what}, found the keyword `{text}` (quote a series with that name: '{text}')"),
            ));
        }
        self.pos += len;
        Ok(Name { text: text.to_string(), offset: start })
    }

    /// A metric or param identifier.
    fn ident(&mut self, what: &str) -> Result<Name, ClaimParseError> {
        if let Some(n) = self.quoted()? {
            return Ok(n);
        }
        self.skip_ws();
        let start = self.pos;
        if !self.peek().is_some_and(|c| c.is_alphabetic() || c == '_') {
            return Err(self.err(format!("expected {what}")));
        }
        let len = self.rest().find(|c| !is_ident_char(c)).unwrap_or(self.rest().len());
        let text = &self.rest()[..len];
        self.pos += len;
        Ok(Name { text: text.to_string(), offset: start })
    }

    /// A number: optional sign, digits, optional fraction (a `.` followed
    /// by a digit, so `2..250` reads 2), optional exponent.
    fn number(&mut self) -> Option<f64> {
        self.number_ext(false)
    }

    /// A number, optionally followed by a glued `x` when `allow_x` (a
    /// ratio written as people write it: `≈ 2.3x`).
    fn number_ext(&mut self, allow_x: bool) -> Option<f64> {
        self.skip_ws();
        let r = self.rest();
        let b = r.as_bytes();
        let mut i = 0;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        let digits_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == digits_start {
            return None;
        }
        if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            let mut j = i + 1;
            if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
                j += 1;
            }
            if j < b.len() && b[j].is_ascii_digit() {
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                i = j;
            }
        }
        let digits_end = i;
        if allow_x && r[i..].starts_with('x') && !r[i + 1..].starts_with(is_series_char) {
            i += 1;
        }
        // A number glued to letters is a word (`4k`, `v2`), not a number,
        // unless the letters are a unit (`1.66ms`).
        if r[i..].starts_with(|c: char| c.is_alphabetic() || c == '_') {
            let word_len = r[i..].find(|c: char| !(c.is_alphanumeric() || c == '/' || c == 'µ')).unwrap_or(r.len() - i);
            crate::metric::unit_scale(&r[i..i + word_len])?;
        }
        let v = crate::syntax::read_number(&r[..digits_end])?;
        self.pos += i;
        Some(v)
    }

    fn expect_number(&mut self, what: &str) -> Result<f64, ClaimParseError> {
        self.number().ok_or_else(|| self.err(format!("expected {what}")))
    }

    /// A param value: number, quoted string or bare word.
    fn literal(&mut self, what: &str) -> Result<Literal, ClaimParseError> {
        if let Some(n) = self.number() {
            return Ok(Literal::Num(n));
        }
        if let Some(q) = self.quoted()? {
            return Ok(Literal::Text(q.text));
        }
        self.skip_ws();
        if self.peek().is_some_and(is_series_start) {
            let len = self.rest().find(|c| !is_series_char(c)).unwrap_or(self.rest().len());
            let text = self.rest()[..len].to_string();
            self.pos += len;
            // A bare word that reads as a number (`inf`, `Infinity`) is one,
            // as in `--where`.
            return Ok(Literal::bare(&text));
        }
        // `-inf`: a sign glued to a word the number reader missed.
        if self.rest().starts_with(['-', '+']) {
            let len = 1 + self.rest()[1..].find(|c| !is_series_char(c)).unwrap_or(self.rest().len() - 1);
            if let Some(n) = crate::syntax::read_number(&self.rest()[..len]) {
                self.pos += len;
                return Ok(Literal::Num(n));
            }
        }
        Err(self.err(format!("expected {what}")))
    }

    fn claim(&mut self) -> Result<Claim, ClaimParseError> {
        let mut clauses = vec![self.clause()?];
        while self.eat_kw("and") {
            clauses.push(self.clause()?);
        }
        Ok(Claim { clauses })
    }

    fn clause(&mut self) -> Result<Clause, ClaimParseError> {
        self.skip_ws();
        let offset = self.pos;
        if self.pos >= self.src.len() {
            return Err(self.err("expected a claim such as `A beats B on METRIC at PARAM = VALUE`"));
        }
        let mut form_within = None;
        let mut body = if self.peek_call("crossover") {
            Body::Crossover(self.crossover()?)
        } else if let Some(agg) = self.aggregate_call() {
            Body::Value(self.aggregate_value(agg)?)
        } else {
            let (body, within) = self.series_first()?;
            form_within = within;
            body
        };
        let mut within = form_within;
        loop {
            self.skip_ws();
            let kw_at = self.pos;
            if self.eat_kw("within") {
                if within.is_some() {
                    return Err(ClaimParseError::new(kw_at, "`within` given twice"));
                }
                within = Some(self.percent()?);
            } else if self.peek_kw("at") || self.peek_kw("for") {
                self.skip_ws();
                let at = self.pos;
                let q = self.quantifier()?;
                if let Body::Value(v) = &body {
                    check_aggregate_quantifier(v.aggregate, &q, at)?;
                }
                let slot = match &mut body {
                    Body::Pairwise(p) => &mut p.quantifier,
                    Body::Value(v) if v.versus.is_none() => &mut v.quantifier,
                    Body::Value(_) => {
                        return Err(ClaimParseError::new(at, "a comparison between two points takes no other quantifier"))
                    }
                    Body::Crossover(_) => {
                        return Err(ClaimParseError::new(
                            at,
                            "a crossover ranges over its `over PARAM`; restrict it there (`over concurrency >= 2`)",
                        ))
                    }
                    Body::Peak(_) => {
                        return Err(ClaimParseError::new(
                            at,
                            "a peak ranges over every point of its param; restrict them with `where` (`where max_concurrency <= 150`)",
                        ))
                    }
                };
                if slot.is_some() {
                    return Err(ClaimParseError::new(
                        at,
                        "a clause takes one quantifier (`at …`, `for all …` or `for any …`)",
                    ));
                }
                *slot = Some(q);
            } else {
                break;
            }
        }
        let filter = if self.eat_kw("where") { Some(self.filter()?) } else { None };
        Ok(Clause { body, within, filter, offset })
    }

    /// `NAME(` ahead, for the call-like forms.
    fn peek_call(&mut self, name: &str) -> bool {
        self.skip_ws();
        let r = self.rest();
        r.starts_with(name) && r[name.len()..].trim_start().starts_with('(')
    }

    fn aggregate_call(&mut self) -> Option<Aggregate> {
        [("max", Aggregate::Max), ("min", Aggregate::Min), ("mean", Aggregate::Mean), ("median", Aggregate::Median)]
            .into_iter()
            .find(|(name, _)| self.peek_call(name))
            .map(|(_, a)| a)
    }

    fn percent(&mut self) -> Result<f64, ClaimParseError> {
        let v = self.expect_number("a percentage after `within` (`within 5%`)")?;
        if v < 0.0 {
            return Err(self.err("a tolerance cannot be negative"));
        }
        self.expect("%", "`%` after the tolerance (`within 5%`)")?;
        Ok(v / 100.0)
    }

    /// Clauses that start with a series: pairwise, a relative change, a
    /// peak, or a value term. Also returns a `within` the form itself
    /// carries (`A within 5% of B`).
    fn series_first(&mut self) -> Result<(Body, Option<f64>), ClaimParseError> {
        let a = self.series("a series name")?;
        // `A within 5% of B on M`: A matches B within 5%.
        let save = self.pos;
        if self.eat_kw("within") {
            let within = self.percent()?;
            if self.eat_kw("of") {
                let b = self.series("a series name after `of`")?;
                self.expect_kw("on", "`on METRIC` after the series names")?;
                let metric = self.ident("a metric name after `on`")?;
                let body = Pairwise {
                    a,
                    relation: Relation::Matches,
                    b: Opponents::Series(vec![b]),
                    metric,
                    quantifier: None,
                };
                return Ok((Body::Pairwise(body), Some(within)));
            }
            self.pos = save;
        }
        if let Some(relation) = self.relation() {
            let b = if self.eat_kw("others") {
                Opponents::Others
            } else {
                let mut list = vec![self.series("a series name or `others` after the relation")?];
                while self.eat(",") {
                    list.push(self.series("a series name after `,`")?);
                }
                Opponents::Series(list)
            };
            self.expect_kw("on", "`on METRIC` after the series names")?;
            let metric = self.ident("a metric name after `on`")?;
            return Ok((Body::Pairwise(Pairwise { a, relation, b, metric, quantifier: None }), None));
        }
        let cuts = if self.eat_kw("cuts") {
            Some(true)
        } else if self.eat_kw("raises") {
            Some(false)
        } else {
            None
        };
        if let Some(cuts) = cuts {
            return Ok((Body::Value(self.change(a, cuts)?), None));
        }
        let term = self.term_rest(a)?;
        self.expect_kw("on", "`beats`, `matches`, a comparison (`>`, `<`, …) or `on METRIC` after the series name")?;
        let metric = self.ident("a metric name after `on`")?;
        if let Term::Level(series) = &term {
            if let Some(highest) = self.peak_word() {
                self.expect_kw("at", "`at PARAM = VALUE` after `peaks` (`peaks at max_concurrency = 150`)")?;
                let param = self.ident("a param name after `at`")?;
                self.expect("=", "`=` after the param (`peaks at max_concurrency = 150`)")?;
                let at = self.literal("a value after `=`")?;
                return Ok((Body::Peak(Peak { series: series.clone(), metric, highest, param, at }), None));
            }
        }
        let mut quantifier = None;
        if self.peek_kw("at") || self.peek_kw("for") {
            quantifier = Some(self.quantifier()?);
        }
        let versus = match &quantifier {
            Some(q) if q.kind == QuantKind::At => self.versus(&q.param, &term)?,
            _ => None,
        };
        let cmp_at = self.pos;
        let st = match self.numeric_comparison() {
            Ok(st) => st,
            Err(e) => {
                // `… for all P <= 0.65`: the comparison was read as the
                // points of P. Say how to write it.
                if let Some(Quantifier { kind: QuantKind::ForAll | QuantKind::ForAny, param, points }) = &quantifier {
                    if !matches!(points, PointSet::Every) {
                        return Err(ClaimParseError::new(
                            cmp_at,
                            format!(
                                "`{} {points}` reads `{points}` as the points of `{}`; to compare the value, write the comparison before the quantifier (`{term} on {} {points} for all {}`)",
                                param.text, param.text, metric.text, param.text
                            ),
                        ));
                    }
                }
                return Err(e);
            }
        };
        let claim = ValueClaim {
            aggregate: None,
            term,
            metric,
            quantifier,
            op: st.op,
            target: st.target,
            upper: st.upper,
            unit: st.unit,
            versus,
            change: None,
        };
        Ok((Body::Value(claim), None))
    }

    /// `peaks` / `is highest` (true), `is lowest` (false).
    fn peak_word(&mut self) -> Option<bool> {
        if self.eat_kw("peaks") {
            return Some(true);
        }
        let save = self.pos;
        if self.eat_kw("is") {
            if self.eat_kw("highest") {
                return Some(true);
            }
            if self.eat_kw("lowest") {
                return Some(false);
            }
        }
        self.pos = save;
        None
    }

    /// After `A on M at P = v`: `/ at P = w` or ` - at P = w`.
    fn versus(&mut self, param: &Name, term: &Term) -> Result<Option<Versus>, ClaimParseError> {
        let save = self.pos;
        self.skip_ws();
        let ratio = if self.eat("/") {
            true
        } else if self.rest().starts_with('-') && self.rest()[1..].starts_with(char::is_whitespace) {
            self.pos += 1;
            false
        } else {
            self.pos = save;
            return Ok(None);
        };
        if !self.peek_kw("at") {
            self.pos = save;
            return Ok(None);
        }
        if !matches!(term, Term::Level(_)) {
            return Err(self.err(
                "compare one series between two points (`A on M at P = 8 / at P = 1`), not a ratio or difference",
            ));
        }
        self.eat_kw("at");
        let p = self.ident("a param name after `at`")?;
        if p.text != param.text {
            return Err(ClaimParseError::new(
                p.offset,
                format!("both points must be of the same param: `{}`, not `{}`", param.text, p.text),
            ));
        }
        self.expect("=", "`=` after the param")?;
        let at = self.literal("a value after `=`")?;
        Ok(Some(Versus { ratio, at }))
    }

    /// After `A cuts`/`A raises`: `B on M [quantifier] by (at least | at
    /// most | more than | less than) N%`.
    fn change(&mut self, a: Name, cuts: bool) -> Result<ValueClaim, ClaimParseError> {
        let verb = if cuts { "cuts" } else { "raises" };
        let b = self.series(&format!("the series `{verb}` is compared with"))?;
        self.expect_kw("on", "`on METRIC` after the series name")?;
        let metric = self.ident("a metric name after `on`")?;
        let mut quantifier = None;
        if self.peek_kw("at") || self.peek_kw("for") {
            quantifier = Some(self.quantifier()?);
        }
        self.expect_kw("by", &format!("`by at least N%` after the metric (`{verb} … by at least 35%`)"))?;
        let bound = if self.eat_kw("at") {
            if self.eat_kw("least") {
                ChangeBound::AtLeast
            } else if self.eat_kw("most") {
                ChangeBound::AtMost
            } else {
                return Err(self.err("expected `least` or `most` after `by at`"));
            }
        } else if self.eat_kw("more") {
            self.expect_kw("than", "`than` after `more`")?;
            ChangeBound::MoreThan
        } else if self.eat_kw("less") {
            self.expect_kw("than", "`than` after `less`")?;
            ChangeBound::LessThan
        } else {
            return Err(self.err("expected `at least`, `at most`, `more than` or `less than` after `by`"));
        };
        let percent = self.expect_number("a percentage (`35%`)")?;
        if percent < 0.0 || (cuts && percent >= 100.0) {
            return Err(self.err(format!("a change `{verb}` by {}% cannot be", format_number(percent))));
        }
        self.expect("%", "`%` after the percentage")?;
        let change = Change { cuts, bound, percent };
        let (op, target) = change.ratio_bound();
        Ok(ValueClaim {
            aggregate: None,
            term: Term::Ratio(a, b),
            metric,
            quantifier,
            op,
            target,
            upper: None,
            unit: None,
            versus: None,
            change: Some(change),
        })
    }

    /// After the first series of a term: `/ B`, ` - B`, or nothing.
    fn term_rest(&mut self, a: Name) -> Result<Term, ClaimParseError> {
        if self.eat("/") {
            let b = self.series("a series name after `/`")?;
            return Ok(Term::Ratio(a, b));
        }
        self.skip_ws();
        // A difference: a lone `-` (a `-` glued to a word would have been
        // read as part of the name).
        if self.rest().starts_with('-') && self.rest()[1..].starts_with(char::is_whitespace) {
            self.pos += 1;
            let b = self.series("a series name after `-`")?;
            return Ok(Term::Difference(a, b));
        }
        Ok(Term::Level(a))
    }

    fn relation(&mut self) -> Option<Relation> {
        if self.eat_kw("beats") {
            return Some(Relation::Beats);
        }
        if self.eat_kw("matches") {
            let save = self.pos;
            if self.eat_kw("or") && self.eat_kw("beats") {
                return Some(Relation::MatchesOrBeats);
            }
            self.pos = save;
            return Some(Relation::Matches);
        }
        for (s, r) in [
            (">=", Relation::Ge),
            ("≥", Relation::Ge),
            ("<=", Relation::Le),
            ("≤", Relation::Le),
            (">", Relation::Gt),
            ("<", Relation::Lt),
        ] {
            if self.eat(s) {
                return Some(r);
            }
        }
        None
    }

    fn num_op(&mut self) -> Option<Op> {
        for (s, op) in [
            ("≈", Op::Approx),
            ("~=", Op::Approx),
            ("==", Op::Eq),
            (">=", Op::Ge),
            ("≥", Op::Ge),
            ("<=", Op::Le),
            ("≤", Op::Le),
            ("=", Op::Eq),
            (">", Op::Gt),
            ("<", Op::Lt),
        ] {
            if self.eat(s) {
                return Some(op);
            }
        }
        None
    }

    /// `≈ 2.3`, `> 100 ms`, `in 350..353`: the operator, the number (and
    /// the range's end) and the unit written, if any.
    fn numeric_comparison(&mut self) -> Result<Stated, ClaimParseError> {
        if self.eat_kw("in") {
            let lo = self.number().ok_or_else(|| self.err("expected a range `lo..hi` after `in` (`in 350..353`)"))?;
            let lo_unit = self.unit();
            self.expect("..", "`..` in the range (`in 350..353`)")?;
            let hi = self.number().ok_or_else(|| self.err("expected the end of the range after `..`"))?;
            let unit = self.unit();
            if let (Some(a), Some(b)) = (&lo_unit, &unit) {
                if a.text != b.text {
                    return Err(ClaimParseError::new(
                        b.offset,
                        format!("a range takes one unit (`{}` and `{}`)", a.text, b.text),
                    ));
                }
            }
            if lo > hi {
                return Err(self.err(format!(
                    "a range runs from low to high: write `in {}..{}`",
                    format_number(hi),
                    format_number(lo)
                )));
            }
            return Ok(Stated { op: Op::In, target: lo, upper: Some(hi), unit: unit.or(lo_unit) });
        }
        let op = self.num_op().ok_or_else(|| {
            self.err("expected a comparison with a number (`≈ 2.3`, `> 100`, `in 350..353`, …) after the metric")
        })?;
        let target = self.number_ext(true).ok_or_else(|| self.err("expected a number after the comparison"))?;
        let unit = self.unit();
        Ok(Stated { op, target, upper: None, unit })
    }

    /// A unit after a number (`ms`, `µs`, `tok/s`), when the next word is
    /// one reckon knows ([`crate::metric::unit_scale`]).
    fn unit(&mut self) -> Option<Name> {
        let save = self.pos;
        // Glued (`1.66ms`) or after a space.
        if self.rest().starts_with(char::is_whitespace) {
            self.skip_ws();
        }
        let start = self.pos;
        let len =
            self.rest().find(|c: char| !(c.is_alphanumeric() || c == '/' || c == 'µ')).unwrap_or(self.rest().len());
        let word = &self.rest()[..len];
        if len > 0 && crate::metric::unit_scale(word).is_some() {
            self.pos += len;
            return Some(Name { text: word.to_string(), offset: start });
        }
        self.pos = save;
        None
    }

    fn aggregate_value(&mut self, aggregate: Aggregate) -> Result<ValueClaim, ClaimParseError> {
        // The name and `(` were seen by `aggregate_call`.
        let len = self.rest().find('(').unwrap_or(0);
        self.pos += len + 1;
        let a = self.series("a series name inside the aggregate")?;
        let term = self.term_rest(a)?;
        self.expect_kw("on", "`on METRIC` after the series name")?;
        let metric = self.ident("a metric name after `on`")?;
        let mut quantifier = None;
        if self.peek_kw("at") || self.peek_kw("for") {
            self.skip_ws();
            let at = self.pos;
            let q = self.quantifier()?;
            check_aggregate_quantifier(Some(aggregate), &q, at)?;
            quantifier = Some(q);
        }
        self.expect(")", "`)` to close the aggregate")?;
        if self.peek_kw("at") || self.peek_kw("for") {
            self.skip_ws();
            let at = self.pos;
            if quantifier.is_some() {
                return Err(ClaimParseError::new(at, "a clause takes one quantifier"));
            }
            let q = self.quantifier()?;
            check_aggregate_quantifier(Some(aggregate), &q, at)?;
            quantifier = Some(q);
        }
        let st = self.numeric_comparison()?;
        Ok(ValueClaim {
            aggregate: Some(aggregate),
            term,
            metric,
            quantifier,
            op: st.op,
            target: st.target,
            upper: st.upper,
            unit: st.unit,
            versus: None,
            change: None,
        })
    }

    fn crossover(&mut self) -> Result<Crossover, ClaimParseError> {
        self.eat_kw("crossover");
        self.expect("(", "`(` after `crossover`")?;
        let a = self.series("the first series of the crossover")?;
        self.expect(",", "`,` between the two series of the crossover")?;
        let b = self.series("the second series of the crossover")?;
        self.expect_kw("on", "`on METRIC` after the series names")?;
        let metric = self.ident("a metric name after `on`")?;
        self.expect_kw("over", "`over PARAM` after the metric (`over concurrency`)")?;
        let param = self.ident("a param name after `over`")?;
        let points = self.point_set()?;
        self.expect(")", "`)` to close the crossover")?;
        let op = self.num_op().ok_or_else(|| self.err("expected a comparison after the crossover (`= 4`)"))?;
        let target = self.literal("a param value after the comparison")?;
        Ok(Crossover { a, b, metric, param, points, op, target })
    }

    fn quantifier(&mut self) -> Result<Quantifier, ClaimParseError> {
        if self.eat_kw("at") {
            let param = self.ident("a param name after `at`")?;
            self.expect("=", "`=` after the param (`at concurrency = 1`)")?;
            let v = self.literal("a value after `=`")?;
            return Ok(Quantifier { kind: QuantKind::At, param, points: PointSet::Cmp(Op::Eq, v) });
        }
        self.expect_kw("for", "`at` or `for`")?;
        let kind = if self.eat_kw("all") || self.eat_kw("every") || self.eat_kw("each") {
            QuantKind::ForAll
        } else if self.eat_kw("any") || self.eat_kw("some") {
            QuantKind::ForAny
        } else {
            return Err(self.err("expected `all` or `any` after `for`"));
        };
        let param = self.ident("a param name after `for all`/`for any`")?;
        let points = self.point_set()?;
        Ok(Quantifier { kind, param, points })
    }

    fn point_set(&mut self) -> Result<PointSet, ClaimParseError> {
        if self.eat_kw("in") {
            if self.eat("(") {
                let mut lits = vec![self.literal("a value inside `in (…)`")?];
                while self.eat(",") {
                    lits.push(self.literal("a value after `,`")?);
                }
                self.expect(")", "`)` or `,` in the value list")?;
                return Ok(PointSet::In(lits));
            }
            let lo = self.literal("`(v1, v2, …)` or a range `lo..hi` after `in`")?;
            self.expect("..", "`..` in the range (`in 2..250`)")?;
            let hi = self.literal("the end of the range after `..`")?;
            return Ok(PointSet::Range(lo, hi));
        }
        for (s, op) in
            [(">=", Op::Ge), ("≥", Op::Ge), ("<=", Op::Le), ("≤", Op::Le), ("=", Op::Eq), (">", Op::Gt), ("<", Op::Lt)]
        {
            if self.eat(s) {
                let v = self.literal(&format!("a value after `{s}`"))?;
                return Ok(PointSet::Cmp(op, v));
            }
        }
        Ok(PointSet::Every)
    }

    /// The `where` text: to the end, or to the first top-level `and` after
    /// which the rest parses as clauses.
    fn filter(&mut self) -> Result<WhereClause, ClaimParseError> {
        self.skip_ws();
        let start = self.pos;
        let mut end = self.src.len();
        for cut in self.and_candidates(start) {
            if self.depth >= MAX_PROBE_DEPTH {
                break;
            }
            let from = cut + "and".len();
            let known = self.probes.borrow().get(&from).copied();
            let rest_parses = if let Some(v) = known {
                v
            } else {
                let mut probe = Parser { src: self.src, pos: from, probes: self.probes, depth: self.depth + 1 };
                let v = probe.claim().is_ok() && {
                    probe.skip_ws();
                    probe.pos == probe.src.len()
                };
                self.probes.borrow_mut().insert(from, v);
                v
            };
            if rest_parses {
                end = cut;
                break;
            }
        }
        let source = self.src[start..end].trim_end().to_string();
        if source.is_empty() {
            return Err(ClaimParseError::new(start, "expected a filter after `where` (`where model = 'kimi-k2.5'`)"));
        }
        self.pos = end;
        Ok(WhereClause { source, offset: start })
    }

    /// Byte offsets of each `and` word outside quotes and brackets, from
    /// `start`.
    fn and_candidates(&self, start: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut quote: Option<char> = None;
        let mut depth = 0i32;
        let mut prev: Option<char> = None;
        for (i, c) in self.src[start..].char_indices() {
            let at = start + i;
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '\'' | '"' => quote = Some(c),
                    '(' | '[' => depth += 1,
                    ')' | ']' => depth -= 1,
                    'a' if depth == 0
                        && prev.is_none_or(char::is_whitespace)
                        && self.src[at..].starts_with("and")
                        && self.src[at + 3..].starts_with(char::is_whitespace) =>
                    {
                        out.push(at);
                    }
                    _ => {}
                },
            }
            prev = Some(c);
        }
        out
    }
}

fn check_aggregate_quantifier(agg: Option<Aggregate>, q: &Quantifier, at: usize) -> Result<(), ClaimParseError> {
    if agg.is_some() && q.kind != QuantKind::ForAll {
        return Err(ClaimParseError::new(
            at,
            "an aggregate runs over a range of points: use `for all PARAM …` (e.g. `for all concurrency >= 50`)",
        ));
    }
    Ok(())
}

// ---- canonical printing ----

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.clauses.iter().enumerate() {
            if i > 0 {
                f.write_str(" and ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.body)?;
        if let Some(w) = self.within {
            write!(f, " within {}%", format_number(round12(w * 100.0)))?;
        }
        if let Some(w) = &self.filter {
            write!(f, " where {}", w.source)?;
        }
        Ok(())
    }
}

/// Drops the float noise of `0.05 * 100`.
fn round12(v: f64) -> f64 {
    (v * 1e9).round() / 1e9
}

impl fmt::Display for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Body::Pairwise(p) => {
                write!(f, "{} {} ", SeriesName(&p.a.text), p.relation.as_str())?;
                match &p.b {
                    Opponents::Others => f.write_str("others")?,
                    Opponents::Series(list) => {
                        for (i, b) in list.iter().enumerate() {
                            if i > 0 {
                                f.write_str(", ")?;
                            }
                            write!(f, "{}", SeriesName(&b.text))?;
                        }
                    }
                }
                write!(f, " on {}", Ident(&p.metric.text))?;
                if let Some(q) = &p.quantifier {
                    write!(f, " {q}")?;
                }
                Ok(())
            }
            Body::Value(v) => {
                if let (Some(ch), Term::Ratio(a, b)) = (&v.change, &v.term) {
                    let verb = if ch.cuts { "cuts" } else { "raises" };
                    write!(f, "{} {verb} {} on {}", SeriesName(&a.text), SeriesName(&b.text), Ident(&v.metric.text))?;
                    if let Some(q) = &v.quantifier {
                        write!(f, " {q}")?;
                    }
                    return write!(f, " by {} {}%", ch.bound.as_str(), format_number(ch.percent));
                }
                // The comparison goes before a `for all`/`for any`, whose
                // point set would otherwise swallow it (`for all P <= 0.65`
                // reads `<= 0.65` as points of P); an `at` (and the second
                // point of a comparison between points) stays before it.
                let (before, after) = match (&v.quantifier, v.aggregate) {
                    (Some(q), None) if q.kind != QuantKind::At => (None, Some(q)),
                    (q, _) => (q.as_ref(), None),
                };
                let inner = |f: &mut fmt::Formatter<'_>| -> fmt::Result {
                    write!(f, "{} on {}", v.term, Ident(&v.metric.text))?;
                    if let Some(q) = before {
                        write!(f, " {q}")?;
                    }
                    if let (Some(vs), Some(q)) = (&v.versus, before) {
                        let op = if vs.ratio { "/" } else { "-" };
                        write!(f, " {op} at {} = {}", Ident(&q.param.text), vs.at)?;
                    }
                    Ok(())
                };
                match v.aggregate {
                    Some(a) => {
                        write!(f, "{}(", a.as_str())?;
                        inner(f)?;
                        f.write_str(")")?;
                    }
                    None => inner(f)?,
                }
                let unit = v.unit.as_ref().map(|u| format!(" {}", u.text)).unwrap_or_default();
                match (v.op, v.upper) {
                    (Op::In, Some(hi)) => write!(f, " in {}..{}{unit}", format_number(v.target), format_number(hi))?,
                    (op, _) => write!(f, " {} {}{unit}", num_op_str(op), format_number(v.target))?,
                }
                if let Some(q) = after {
                    write!(f, " {q}")?;
                }
                Ok(())
            }
            Body::Peak(p) => {
                let word = if p.highest { "peaks" } else { "is lowest" };
                write!(
                    f,
                    "{} on {} {word} at {} = {}",
                    SeriesName(&p.series.text),
                    Ident(&p.metric.text),
                    Ident(&p.param.text),
                    p.at
                )
            }
            Body::Crossover(c) => {
                write!(
                    f,
                    "crossover({}, {} on {} over {}",
                    SeriesName(&c.a.text),
                    SeriesName(&c.b.text),
                    Ident(&c.metric.text),
                    Ident(&c.param.text)
                )?;
                if c.points != PointSet::Every {
                    write!(f, " {}", c.points)?;
                }
                write!(f, ") {} {}", num_op_str(c.op), c.target)
            }
        }
    }
}

fn num_op_str(op: Op) -> &'static str {
    match op {
        Op::Approx => "≈",
        other => other.as_str(),
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Level(a) => write!(f, "{}", SeriesName(&a.text)),
            Term::Ratio(a, b) => write!(f, "{} / {}", SeriesName(&a.text), SeriesName(&b.text)),
            Term::Difference(a, b) => {
                write!(f, "{} - {}", SeriesName(&a.text), SeriesName(&b.text))
            }
        }
    }
}

impl fmt::Display for Quantifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            QuantKind::At => match &self.points {
                PointSet::Cmp(Op::Eq, v) => write!(f, "at {} = {v}", Ident(&self.param.text)),
                // Only built by hand: print as the for-all it means.
                other => write!(f, "for all {} {other}", Ident(&self.param.text)),
            },
            QuantKind::ForAll | QuantKind::ForAny => {
                let word = if self.kind == QuantKind::ForAll { "all" } else { "any" };
                write!(f, "for {word} {}", Ident(&self.param.text))?;
                if self.points != PointSet::Every {
                    write!(f, " {}", self.points)?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for PointSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointSet::Every => Ok(()),
            PointSet::Cmp(op, v) => write!(f, "{} {v}", op.as_str()),
            PointSet::In(vs) => {
                f.write_str("in (")?;
                for (i, v) in vs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(")")
            }
            PointSet::Range(lo, hi) => write!(f, "in {lo}..{hi}"),
        }
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Num(n) => f.write_str(&format_number(*n)),
            Literal::Text(t) => {
                let bare = t.starts_with(is_series_start)
                    && t.chars().all(is_series_char)
                    && !RESERVED.contains(&t.as_str())
                    && t.parse::<f64>().is_err();
                if bare {
                    f.write_str(t)
                } else {
                    write!(f, "{}", quote(t))
                }
            }
        }
    }
}

fn quote(t: &str) -> String {
    if t.contains('\'') {
        format!("\"{t}\"")
    } else {
        format!("'{t}'")
    }
}

/// Prints a series bare when it reads back as the same bare name.
struct SeriesName<'a>(&'a str);

impl fmt::Display for SeriesName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.0;
        let bare = t.starts_with(is_series_start) && t.chars().all(is_series_char) && !RESERVED.contains(&t);
        if bare {
            f.write_str(t)
        } else {
            f.write_str(&quote(t))
        }
    }
}

/// Prints a metric or param bare when it is an identifier.
struct Ident<'a>(&'a str);

impl fmt::Display for Ident<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.0;
        let bare = t.starts_with(|c: char| c.is_alphabetic() || c == '_') && t.chars().all(is_ident_char);
        if bare {
            f.write_str(t)
        } else {
            f.write_str(&quote(t))
        }
    }
}

#[cfg(test)]
mod tests;
