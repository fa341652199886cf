//! The filter language shared by `reckon query --where`, document directives
//! (`where="model = 'kimi-k2.5'"`) and claims (`where model = 'kimi-k2.5'`).
//!
//! ```text
//! expr   := or
//! or     := and ('or' and)*
//! and    := unary ('and' unary)*
//! unary  := 'not' unary | '(' expr ')' | pred
//! pred   := param OP value            OP: = == != <> < <= > >=
//!         | param ['not'] 'in' '(' value (',' value)* ')'
//!         | param '~' value           glob: * ? [abc]
//! value  := 'single' | "double" | bare-word
//! ```
//!
//! Keywords are case-insensitive. A bare word that reads as a number (`8`,
//! `1e-3`, `inf`) is a number, any other bare word is text
//! (`2026-11-20`, `eagle-topk1-v2`). Two sides compare as numbers when both
//! read as numbers (a text param `"8"`, a quoted `'8'`), as text when both
//! are text. A number never equals nor orders with a non-numeric text. A
//! run without the param fails every test except `!=` and `not in`. A
//! claim's points (`at tp = '8'`) read values the same way
//! ([`crate::syntax::Literal::compare`]).
//!
//! Pseudo-params every run has: `date` / `sweep` (the run's sweep date),
//! `time` (RFC 3339 UTC) and `source` (the log's path). A run's own param of
//! the same name (a field of the log itself: labels cannot take these
//! names) wins over the pseudo-param.

mod parse;

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

use crate::run::Value;
use crate::syntax::{compare_read, Literal, Op};
use crate::Error;

/// The params every run has without a log or label naming them.
pub const PSEUDO_PARAMS: &[&str] = &["date", "sweep", "time", "source"];

/// Whether `name` is one of [`PSEUDO_PARAMS`].
pub fn is_pseudo_param(name: &str) -> bool {
    PSEUDO_PARAMS.contains(&name)
}

/// A filter that could not be parsed: the message and the 1-based column
/// (in characters) of the offending text, so a document can turn it into
/// `file:line:col`.
#[derive(Debug, Clone, PartialEq)]
pub struct FilterError {
    /// 1-based character column in the filter text.
    pub col: usize,
    /// What is wrong, without the position (`expected a value after '='`).
    pub msg: String,
    /// The filter text as given.
    pub input: String,
}

impl FilterError {
    /// The 1-based line and column of the error within a filter text that
    /// spans lines (a claim directive wrapped over several lines).
    pub fn line_col(&self) -> (usize, usize) {
        crate::syntax::line_col(&self.input, self.offset())
    }

    /// The byte offset of the error in the filter text.
    pub fn offset(&self) -> usize {
        crate::syntax::byte_of_col(&self.input, self.col)
    }

    /// The filter text with a caret under the offending column, two lines.
    pub fn snippet(&self) -> String {
        // Newlines and tabs would break the caret's alignment.
        let chars: Vec<char> = self.input.chars().map(|c| if c.is_whitespace() { ' ' } else { c }).collect();
        // A long filter is shown around the column only: the message stays
        // a line, whatever the filter's length.
        let at = self.col.saturating_sub(1);
        let start = at.saturating_sub(60);
        let end = chars.len().min(at + 20);
        let lead = if start > 0 { "…" } else { "" };
        let tail = if end < chars.len() { "…" } else { "" };
        let line: String = chars[start.min(end)..end].iter().collect();
        format!("{lead}{line}{tail}\n{}^", " ".repeat(at - start + lead.chars().count()))
    }
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let snippet = self.snippet().replace('\n', "\n  ");
        write!(f, "filter: {} at column {}\n  {snippet}", self.msg, self.col)
    }
}

impl std::error::Error for FilterError {}

impl From<FilterError> for Error {
    fn from(e: FilterError) -> Error {
        Error::Filter { col: e.col, snippet: e.snippet().replace('\n', "\n  "), msg: e.msg }
    }
}

/// A literal with its readings taken once: a filter compares it with
/// every run it is evaluated on. Equal (and hashed) as its literal: the
/// reading follows from it.
#[derive(Debug, Clone)]
struct Operand {
    lit: Literal,
    num: Option<f64>,
}

impl PartialEq for Operand {
    fn eq(&self, other: &Operand) -> bool {
        self.lit == other.lit
    }
}

impl Eq for Operand {}

impl std::hash::Hash for Operand {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.lit.hash(h);
    }
}

impl Operand {
    fn new(lit: Literal) -> Operand {
        Operand { num: lit.number(), lit }
    }

    /// A field compared with the literal: see [`Literal::compare`].
    fn compare(&self, field: Field<'_>) -> Option<Ordering> {
        compare_read(field.as_f64(), field.as_text(), self.num, self.lit.as_text())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Expr {
    True,
    Cmp {
        param: String,
        op: Op,
        lit: Operand,
    },
    In {
        param: String,
        lits: Vec<Operand>,
        negated: bool,
    },
    Glob {
        param: String,
        pattern: glob::Pattern,
    },
    /// Every operand holds. A chain `a and b and c` is one node, so a long
    /// chain is flat: evaluating and dropping it needs no deep recursion.
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Not(Box<Expr>),
}

/// How deeply parentheses and `not` may nest in a filter. Real filters nest
/// two or three levels; the limit keeps a hostile `where=` (10,000 nested
/// parentheses, 100,000 `not`) from overflowing the stack while parsing,
/// evaluating or dropping the filter. Chains of `and` / `or` are flat and
/// not limited by it.
pub const MAX_NESTING: usize = 64;

/// A field of a run as the filter sees it: a param value, or the text of a
/// pseudo-param.
#[derive(Debug, Clone, Copy)]
pub enum Field<'a> {
    Value(&'a Value),
    Text(&'a str),
}

impl<'a> Field<'a> {
    /// The numeric reading, if any. Pseudo-params (dates, times, paths) are
    /// text.
    pub fn as_f64(self) -> Option<f64> {
        match self {
            Field::Value(v) => v.as_f64(),
            Field::Text(_) => None,
        }
    }

    /// The text, for fields that are text.
    pub fn as_text(self) -> Option<&'a str> {
        match self {
            Field::Value(Value::Text(t)) => Some(t),
            Field::Text(t) => Some(t),
            Field::Value(Value::Num(_)) => None,
        }
    }
}

/// Something a filter can be evaluated on: looks fields up by name without
/// allocating.
pub trait Fields {
    fn field(&self, name: &str) -> Option<Field<'_>>;
}

impl Fields for BTreeMap<String, Value> {
    fn field(&self, name: &str) -> Option<Field<'_>> {
        self.get(name).map(Field::Value)
    }
}

/// How [`Filter::resolve`] rewrites a compared value: given the param's
/// name and the value as written, the value to use (`None`: as written).
pub type ValueResolver<'f, E> = dyn FnMut(&str, &str) -> Result<Option<String>, E> + 'f;

/// A parsed filter expression. Two filters are equal when their
/// expressions and their texts are (the text is what messages and a
/// pivot quote).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Filter {
    expr: Expr,
    text: String,
}

impl Filter {
    /// The filter every run passes.
    pub fn all() -> Filter {
        Filter { expr: Expr::True, text: String::new() }
    }

    /// Parses a filter; a blank text is [`Filter::all`].
    pub fn parse(text: &str) -> Result<Filter, FilterError> {
        Ok(Filter { expr: parse::expression(text)?, text: text.to_string() })
    }

    /// The filter `param op value`, built as a value (never by writing text
    /// and parsing it, so no value can break out of its quotes); its text,
    /// for messages, is how the filter language writes it.
    pub fn compare(param: &str, op: Op, value: Literal) -> Filter {
        let expr = Expr::Cmp { param: param.to_string(), op, lit: Operand::new(value) };
        Filter { text: expr.to_string(), expr }
    }

    /// The filter `param = value`.
    pub fn eq(param: &str, value: Literal) -> Filter {
        Filter::compare(param, Op::Eq, value)
    }

    /// Both filters; the text joins theirs so messages can quote it.
    #[must_use]
    pub fn and(self, other: Filter) -> Filter {
        match (&self.expr, &other.expr) {
            (Expr::True, _) => other,
            (_, Expr::True) => self,
            _ => Filter {
                text: format!("({}) and ({})", self.text, other.text),
                expr: Expr::And(vec![self.expr, other.expr]),
            },
        }
    }

    /// This filter, passing no run whose tool judged its result invalid
    /// ([`crate::run::is_invalid_result`]: `result=INVALID`, in any case).
    /// Its text stays as written: messages quote what the researcher wrote,
    /// and the rule is said beside the numbers it changes.
    #[must_use]
    pub fn valid_results(self) -> Filter {
        let invalid = invalid_result();
        let expr = match self.expr {
            Expr::True => Expr::Not(Box::new(invalid)),
            e => Expr::And(vec![e, Expr::Not(Box::new(invalid))]),
        };
        Filter { expr, text: self.text }
    }

    /// This filter, passing only the runs whose tool judged their result
    /// invalid: the runs [`Filter::valid_results`] leaves out.
    #[must_use]
    pub fn invalid_results(self) -> Filter {
        let expr = match self.expr {
            Expr::True => invalid_result(),
            e => Expr::And(vec![e, invalid_result()]),
        };
        Filter { expr, text: self.text }
    }

    /// The `param = value` (and `param in (…)`) comparisons every passing
    /// run must meet: those at the top of the filter or under `and`, never
    /// under `or` or `not`. A value among them that no run has is a
    /// likely typo, however the rest of the filter reads.
    pub fn required_values(&self) -> Vec<(&str, &Literal)> {
        fn walk<'a>(e: &'a Expr, out: &mut Vec<(&'a str, &'a Literal)>) {
            match e {
                Expr::Cmp { param, op: Op::Eq, lit } => out.push((param, &lit.lit)),
                Expr::In { param, lits, negated: false } => out.extend(lits.iter().map(|l| (param.as_str(), &l.lit))),
                Expr::And(items) => items.iter().for_each(|e| walk(e, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(&self.expr, &mut out);
        out
    }

    /// Whether this is the filter every run passes.
    pub fn is_all(&self) -> bool {
        matches!(self.expr, Expr::True)
    }

    /// The text the filter was parsed from.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The names of the params the filter refers to, each once, in the order
    /// they first appear (pseudo-params included; see [`is_pseudo_param`]).
    pub fn params(&self) -> Vec<&str> {
        let mut out = Vec::new();
        collect_params(&self.expr, &mut out);
        out
    }

    /// The filter with every param name passed through `param` and every
    /// value an `=`, `!=` or `in` compares with passed through `value`
    /// (given the param's resolved name; `None` keeps the value as written):
    /// how the names of reckon.toml's `[aliases]` reach a filter. The text
    /// stays as written, for messages.
    pub fn resolve<E>(
        &self,
        param: &mut dyn FnMut(&str) -> Result<String, E>,
        value: &mut ValueResolver<'_, E>,
    ) -> Result<Filter, E> {
        Ok(Filter { expr: resolve_expr(&self.expr, param, value)?, text: self.text.clone() })
    }

    /// Whether a run passes.
    pub fn matches<F: Fields + ?Sized>(&self, run: &F) -> bool {
        self.matches_fields(run)
    }

    /// Whether anything with fields passes (a run, a bare param map).
    pub fn matches_fields<F: Fields + ?Sized>(&self, fields: &F) -> bool {
        eval(&self.expr, fields)
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Prints an expression in the filter language, so that parsing the text
/// gives the expression back.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::True => Ok(()),
            Expr::Cmp { param, op, lit } => write!(f, "{param} {} {}", op.as_str(), lit.lit_text()),
            Expr::In { param, lits, negated } => {
                let not = if *negated { "not " } else { "" };
                let items: Vec<String> = lits.iter().map(Operand::lit_text).collect();
                write!(f, "{param} {not}in ({})", items.join(", "))
            }
            Expr::Glob { param, pattern } => write!(f, "{param} ~ {}", quote(pattern.as_str())),
            Expr::And(items) => join(f, items, " and ", |e| matches!(e, Expr::And(_) | Expr::Or(_))),
            Expr::Or(items) => join(f, items, " or ", |e| matches!(e, Expr::Or(_))),
            Expr::Not(inner) => match **inner {
                Expr::And(_) | Expr::Or(_) => write!(f, "not ({inner})"),
                _ => write!(f, "not {inner}"),
            },
        }
    }
}

/// Writes the operands of a chain, in parentheses where `grouped` says the
/// chain would otherwise read them differently.
fn join(f: &mut fmt::Formatter<'_>, items: &[Expr], sep: &str, grouped: fn(&Expr) -> bool) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        if grouped(item) {
            write!(f, "({item})")?;
        } else {
            write!(f, "{item}")?;
        }
    }
    Ok(())
}

/// A text value in single quotes, its quotes and backslashes escaped as
/// the lexer reads them.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

impl Operand {
    /// The literal as the filter language writes it: a number bare (Rust's
    /// shortest form reads back as the same number), text quoted.
    fn lit_text(&self) -> String {
        match &self.lit {
            Literal::Num(n) => n.to_string(),
            Literal::Text(t) => quote(t),
        }
    }
}

fn resolve_expr<E>(
    e: &Expr,
    param: &mut dyn FnMut(&str) -> Result<String, E>,
    value: &mut ValueResolver<'_, E>,
) -> Result<Expr, E> {
    let lit = |p: &str, l: &Operand, value: &mut ValueResolver<'_, E>| {
        Ok::<_, E>(match value(p, &l.lit.text())? {
            Some(text) => Operand::new(Literal::Text(text)),
            None => l.clone(),
        })
    };
    Ok(match e {
        Expr::True => Expr::True,
        Expr::Cmp { param: p, op, lit: l } => {
            let p = param(p)?;
            let l = if matches!(op, Op::Eq | Op::Ne) { lit(&p, l, value)? } else { l.clone() };
            Expr::Cmp { param: p, op: *op, lit: l }
        }
        Expr::In { param: p, lits, negated } => {
            let p = param(p)?;
            let lits = lits.iter().map(|l| lit(&p, l, value)).collect::<Result<Vec<_>, E>>()?;
            Expr::In { param: p, lits, negated: *negated }
        }
        Expr::Glob { param: p, pattern } => Expr::Glob { param: param(p)?, pattern: pattern.clone() },
        Expr::And(items) => {
            Expr::And(items.iter().map(|e| resolve_expr(e, param, value)).collect::<Result<Vec<_>, E>>()?)
        }
        Expr::Or(items) => {
            Expr::Or(items.iter().map(|e| resolve_expr(e, param, value)).collect::<Result<Vec<_>, E>>()?)
        }
        Expr::Not(a) => Expr::Not(Box::new(resolve_expr(a, param, value)?)),
    })
}

fn collect_params<'a>(e: &'a Expr, out: &mut Vec<&'a str>) {
    let mut push = |p: &'a str| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    match e {
        Expr::True => {}
        Expr::Cmp { param, .. } | Expr::In { param, .. } | Expr::Glob { param, .. } => push(param),
        Expr::And(items) | Expr::Or(items) => {
            for item in items {
                collect_params(item, out);
            }
        }
        Expr::Not(a) => collect_params(a, out),
    }
}

/// `result ~ INVALID` in any case, as [`crate::run::is_invalid_result`]
/// reads it.
fn invalid_result() -> Expr {
    let pattern = glob::Pattern::new("[Ii][Nn][Vv][Aa][Ll][Ii][Dd]").unwrap_or_default();
    Expr::Glob { param: crate::run::VALIDITY_PARAM.to_string(), pattern }
}

fn eval<F: Fields + ?Sized>(e: &Expr, fields: &F) -> bool {
    match e {
        Expr::True => true,
        Expr::Cmp { param, op, lit } => op.accepts(fields.field(param).and_then(|f| lit.compare(f))),
        Expr::In { param, lits, negated } => {
            let found = match fields.field(param) {
                Some(f) => lits.iter().any(|l| l.compare(f) == Some(Ordering::Equal)),
                None => false,
            };
            found != *negated
        }
        Expr::Glob { param, pattern } => match fields.field(param) {
            Some(Field::Value(Value::Num(n))) => {
                let mut buf = NumBuf::new();
                pattern.matches(buf.format(*n))
            }
            Some(f) => f.as_text().is_some_and(|t| pattern.matches(t)),
            None => false,
        },
        Expr::And(items) => items.iter().all(|e| eval(e, fields)),
        Expr::Or(items) => items.iter().any(|e| eval(e, fields)),
        Expr::Not(a) => !eval(a, fields),
    }
}

/// Formats a number on the stack exactly as [`crate::metric::format_number`]
/// does, so a glob over a numeric param does not allocate per run.
struct NumBuf {
    buf: [u8; 512],
    len: usize,
}

impl fmt::Write for NumBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl NumBuf {
    fn new() -> NumBuf {
        NumBuf { buf: [0; 512], len: 0 }
    }

    fn format(&mut self, v: f64) -> &str {
        use fmt::Write;
        self.len = 0;
        if v.is_nan() {
            let _ = self.write_str("NaN");
        } else if v.is_infinite() {
            let _ = self.write_str(if v > 0.0 { "inf" } else { "-inf" });
        } else if v == v.trunc() && v.abs() < 1e15 {
            // A whole number below 1e15: exact as an i64.
            #[allow(clippy::cast_possible_truncation)]
            let _ = write!(self, "{}", v as i64);
        } else {
            // The exponent of a finite non-zero f64 is within ±324: it fits.
            #[allow(clippy::cast_possible_truncation)]
            let mag = v.abs().log10().floor() as i32;
            let decimals = usize::try_from((5 - mag).clamp(0, 12)).unwrap_or(0);
            let _ = write!(self, "{v:.decimals$}");
            let s = self.as_str();
            self.len = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').len() } else { s.len() };
            if self.as_str() == "-0" {
                self.len = 0;
                let _ = self.write_str("0");
            }
        }
        self.as_str()
    }

    fn as_str(&self) -> &str {
        // Only whole `&str`s are ever written, so this cannot fail.
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

#[cfg(test)]
mod tests;
