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
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::many_single_char_names,
    clippy::return_self_not_must_use
)] // floor-plan debt (issue 7): fix these and delete this line

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

use crate::run::Value;
use crate::store::RunRecord;
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
        Error::Usage(e.to_string())
    }
}

/// A literal with its readings taken once: a filter compares it with
/// every run it is evaluated on.
#[derive(Debug, Clone, PartialEq)]
struct Operand {
    lit: Literal,
    num: Option<f64>,
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

#[derive(Debug, Clone, PartialEq)]
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

impl Fields for RunRecord {
    fn field(&self, name: &str) -> Option<Field<'_>> {
        if let Some(v) = self.params.get(name) {
            return Some(Field::Value(v));
        }
        match name {
            "date" | "sweep" => Some(Field::Text(&self.sweep)),
            "time" => Some(Field::Text(&self.time)),
            "source" => Some(Field::Text(&self.source)),
            _ => None,
        }
    }
}

impl Fields for BTreeMap<String, Value> {
    fn field(&self, name: &str) -> Option<Field<'_>> {
        self.get(name).map(Field::Value)
    }
}

/// How [`Filter::resolve`] rewrites a compared value: given the param's
/// name and the value as written, the value to use (`None`: as written).
pub type ValueResolver<'f, E> = dyn FnMut(&str, &str) -> Result<Option<String>, E> + 'f;

/// A parsed filter expression.
#[derive(Debug, Clone)]
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
        let tokens = lex(text)?;
        let mut p = Parser { tokens, pos: 0, input: text, depth: 0 };
        if p.peek().tok == Tok::End {
            return Ok(Filter { expr: Expr::True, text: text.to_string() });
        }
        let expr = p.or()?;
        let t = p.peek();
        if t.tok != Tok::End {
            let msg = if t.tok == Tok::RParen {
                "unmatched ')'".to_string()
            } else {
                format!("unexpected {} after a complete condition (missing `and` or `or`?)", t.tok.describe())
            };
            return Err(p.err(t.col, msg));
        }
        Ok(Filter { expr, text: text.to_string() })
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
    pub fn matches(&self, run: &RunRecord) -> bool {
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
            let _ = write!(self, "{}", v as i64);
        } else {
            let mag = v.abs().log10().floor() as i32;
            let decimals = (5 - mag).clamp(0, 12) as usize;
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

// ---------------------------------------------------------------- lexer

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Str(String),
    Op(Op),
    Tilde,
    LParen,
    RParen,
    Comma,
    End,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Str(s) => format!("'{s}'"),
            Tok::Op(op) => format!("'{}'", op.as_str()),
            Tok::Tilde => "'~'".into(),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::Comma => "','".into(),
            Tok::End => "the end of the filter".into(),
        }
    }

    fn keyword(&self) -> Option<&'static str> {
        let Tok::Word(w) = self else { return None };
        ["and", "or", "not", "in"].into_iter().find(|k| w.eq_ignore_ascii_case(k))
    }
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    /// 1-based character column.
    col: usize,
}

fn is_word_char(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '(' | ')' | '=' | '!' | '<' | '>' | '~' | ',' | '\'' | '"')
}

fn lex(input: &str) -> Result<Vec<Token>, FilterError> {
    let chars: Vec<char> = input.chars().collect();
    let err = |col: usize, msg: String| FilterError { col, msg, input: input.to_string() };
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let next = chars.get(i + 1).copied();
        let (tok, len) = match c {
            '(' => (Tok::LParen, 1),
            ')' => (Tok::RParen, 1),
            ',' => (Tok::Comma, 1),
            '~' => (Tok::Tilde, 1),
            '=' if next == Some('=') => (Tok::Op(Op::Eq), 2),
            '=' => (Tok::Op(Op::Eq), 1),
            '!' if next == Some('=') => (Tok::Op(Op::Ne), 2),
            '!' => return Err(err(col, "expected '=' after '!' (the operator is '!=')".into())),
            '<' if next == Some('=') => (Tok::Op(Op::Le), 2),
            '<' if next == Some('>') => (Tok::Op(Op::Ne), 2),
            '<' => (Tok::Op(Op::Lt), 1),
            '>' if next == Some('=') => (Tok::Op(Op::Ge), 2),
            '>' => (Tok::Op(Op::Gt), 1),
            '\'' | '"' => {
                let mut s = String::new();
                let mut j = i + 1;
                loop {
                    match chars.get(j) {
                        None => {
                            return Err(err(col, format!("unterminated string: add the closing {c}")));
                        }
                        Some('\\') if matches!(chars.get(j + 1), Some(&q) if q == c || q == '\\') => {
                            s.push(chars[j + 1]);
                            j += 2;
                        }
                        Some(&q) if q == c => break,
                        Some(&o) => {
                            s.push(o);
                            j += 1;
                        }
                    }
                }
                (Tok::Str(s), j + 1 - i)
            }
            _ => {
                let len = chars[i..].iter().take_while(|c| is_word_char(**c)).count();
                (Tok::Word(chars[i..i + len].iter().collect()), len)
            }
        };
        out.push(Token { tok, col });
        i += len;
    }
    out.push(Token { tok: Tok::End, col: chars.len() + 1 });
    Ok(out)
}

// ---------------------------------------------------------------- parser

struct Parser<'a> {
    tokens: Vec<Token>,
    pos: usize,
    input: &'a str,
    /// Parentheses and `not` currently open (see [`MAX_NESTING`]).
    depth: usize,
}

fn is_param_name(w: &str) -> bool {
    let mut cs = w.chars();
    cs.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && cs.all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

impl Parser<'_> {
    fn peek(&self) -> Token {
        // `lex` always ends the list with `End`, and `bump` never passes it.
        self.tokens[self.pos.min(self.tokens.len() - 1)].clone()
    }

    fn bump(&mut self) -> Token {
        let t = self.peek();
        if t.tok != Tok::End {
            self.pos += 1;
        }
        t
    }

    fn err(&self, col: usize, msg: String) -> FilterError {
        FilterError { col, msg, input: self.input.to_string() }
    }

    /// "expected X" pointing at the current token, naming it unless the
    /// filter simply ended.
    fn expected(&self, what: &str) -> FilterError {
        let t = self.peek();
        let msg = match t.tok {
            Tok::End => what.to_string(),
            _ => format!("{what}, found {}", t.tok.describe()),
        };
        self.err(t.col, msg)
    }

    fn at_keyword(&self, kw: &str) -> bool {
        self.peek().tok.keyword() == Some(kw)
    }

    fn or(&mut self) -> Result<Expr, FilterError> {
        let mut items = vec![self.and()?];
        while self.at_keyword("or") {
            self.bump();
            items.push(self.and()?);
        }
        Ok(if items.len() == 1 { items.remove(0) } else { Expr::Or(items) })
    }

    fn and(&mut self) -> Result<Expr, FilterError> {
        let mut items = vec![self.unary()?];
        while self.at_keyword("and") {
            self.bump();
            items.push(self.unary()?);
        }
        Ok(if items.len() == 1 { items.remove(0) } else { Expr::And(items) })
    }

    /// Enters a `not` or a parenthesis, refusing to nest deeper than
    /// [`MAX_NESTING`].
    fn nest(&mut self, col: usize) -> Result<(), FilterError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.err(
                col,
                format!("the filter nests parentheses and `not` more than {MAX_NESTING} deep; write it flatter"),
            ));
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<Expr, FilterError> {
        if self.at_keyword("not") {
            let t = self.bump();
            self.nest(t.col)?;
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(inner)));
        }
        if self.peek().tok == Tok::LParen {
            let open = self.bump();
            self.nest(open.col)?;
            let inner = self.or()?;
            self.depth -= 1;
            if self.peek().tok != Tok::RParen {
                return Err(self.expected(&format!("expected ')' to close the '(' opened at column {},", open.col)));
            }
            self.bump();
            return Ok(inner);
        }
        self.predicate()
    }

    fn predicate(&mut self) -> Result<Expr, FilterError> {
        let t = self.peek();
        let param = match &t.tok {
            Tok::Word(w) if t.tok.keyword().is_none() && is_param_name(w) => w.clone(),
            _ => return Err(self.expected("expected a param name")),
        };
        self.bump();
        let op_tok = self.peek();
        match op_tok.tok {
            Tok::Op(op) => {
                self.bump();
                let lit = self.literal(&format!("after '{}'", op.as_str()))?;
                Ok(Expr::Cmp { param, op, lit })
            }
            Tok::Tilde => {
                self.bump();
                let lit_col = self.peek().col;
                let (text, _) = self.word("after '~'")?;
                let pattern = glob::Pattern::new(&text)
                    .map_err(|e| self.err(lit_col + e.pos, format!("bad glob pattern: {}", e.msg)))?;
                Ok(Expr::Glob { param, pattern })
            }
            _ if self.at_keyword("in") => {
                self.bump();
                Ok(Expr::In { param, lits: self.list()?, negated: false })
            }
            _ if self.at_keyword("not") => {
                self.bump();
                if !self.at_keyword("in") {
                    return Err(self.expected("expected `in` after `not`"));
                }
                self.bump();
                Ok(Expr::In { param, lits: self.list()?, negated: true })
            }
            _ => {
                Err(self
                    .expected(&format!("expected an operator (=, !=, <, <=, >, >=, ~, in, not in) after `{param}`")))
            }
        }
    }

    /// A value: a bare word is a number when it reads as one, a quoted
    /// string is text (which still compares as a number when it reads as
    /// one).
    fn literal(&mut self, after: &str) -> Result<Operand, FilterError> {
        let (text, quoted) = self.word(after)?;
        Ok(Operand::new(if quoted { Literal::Text(text) } else { Literal::bare(&text) }))
    }

    /// The text of a value as written, and whether it was quoted.
    fn word(&mut self, after: &str) -> Result<(String, bool), FilterError> {
        let t = self.peek();
        match t.tok {
            Tok::Str(s) => {
                self.bump();
                Ok((s, true))
            }
            Tok::Word(w) if t.tok.keyword().is_none() => {
                self.bump();
                Ok((w, false))
            }
            Tok::Word(w) => Err(self.err(
                t.col,
                format!("expected a value {after}, found the keyword `{w}` (quote it to use it as text: '{w}')"),
            )),
            _ => Err(self.expected(&format!("expected a value {after}"))),
        }
    }

    fn list(&mut self) -> Result<Vec<Operand>, FilterError> {
        if self.peek().tok != Tok::LParen {
            return Err(self.expected("expected '(' and a list of values after `in`"));
        }
        self.bump();
        let mut lits = vec![self.literal("in the list")?];
        loop {
            match self.peek().tok {
                Tok::RParen => {
                    self.bump();
                    return Ok(lits);
                }
                Tok::Comma => {
                    self.bump();
                    if self.peek().tok == Tok::RParen {
                        continue;
                    }
                    lits.push(self.literal("after ','")?);
                }
                _ => return Err(self.expected("expected ',' or ')' in the list")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_nesting_is_an_error_and_long_chains_are_fine() {
        // Found by a reliability pass: each of these overflowed the stack.
        let parens = format!("{}a = 1{}", "(".repeat(10_000), ")".repeat(10_000));
        let e = Filter::parse(&parens).unwrap_err();
        assert!(e.msg.contains("more than 64 deep"), "{}", e.msg);
        assert_eq!(e.col, 65);
        let nots = format!("{}a = 1", "not ".repeat(100_000));
        assert!(Filter::parse(&nots).unwrap_err().msg.contains("more than 64 deep"));
        // A chain is flat: 20,000 `or` parse, evaluate and drop.
        let chain = vec!["a = 1"; 20_001].join(" or ");
        let f = Filter::parse(&chain).unwrap();
        let chain_and = vec!["a = 1"; 20_001].join(" and ");
        let g = Filter::parse(&chain_and).unwrap();
        let fields: BTreeMap<String, Value> = [("a".to_string(), Value::Num(1.0))].into();
        assert!(f.matches_fields(&fields) && g.matches_fields(&fields));
        assert_eq!(f.params(), ["a"]);
        // Nesting up to the limit is allowed.
        let ok = format!("{}a = 1{}", "(".repeat(64), ")".repeat(64));
        assert!(Filter::parse(&ok).unwrap().matches_fields(&fields));
        let ok = format!("{}a = 2", "not ".repeat(63));
        assert!(Filter::parse(&ok).unwrap().matches_fields(&fields));
    }

    fn run(params: &[(&str, Value)], sweep: &str) -> RunRecord {
        RunRecord {
            id: 1,
            source: "logs/baseline/c8.jsonl".into(),
            line: 3,
            time: format!("{sweep}T10:00:00Z"),
            time_origin: "log".into(),
            sweep: sweep.into(),
            params: params.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        }
    }

    fn t(s: &str) -> Value {
        Value::Text(s.into())
    }

    fn n(v: f64) -> Value {
        Value::Num(v)
    }

    /// A run shaped like the scenario's: config, model, concurrency.
    fn sample() -> RunRecord {
        run(
            &[
                ("config", t("eagle-topk1-v2")),
                ("model", t("kimi-k2.5")),
                ("max_concurrency", n(30.0)),
                ("request_rate", t("inf")),
                ("server_info.speculative_eagle_topk", t("1")),
            ],
            "2026-11-29",
        )
    }

    fn m(filter: &str) -> bool {
        Filter::parse(filter).unwrap_or_else(|e| panic!("{e}")).matches(&sample())
    }

    fn err(filter: &str) -> FilterError {
        Filter::parse(filter).err().unwrap_or_else(|| panic!("`{filter}` parsed"))
    }

    #[test]
    fn each_comparison_operator() {
        assert!(m("max_concurrency = 30"));
        assert!(m("max_concurrency == 30"));
        assert!(!m("max_concurrency != 30"));
        assert!(m("max_concurrency <> 8"));
        assert!(m("max_concurrency < 31") && !m("max_concurrency < 30"));
        assert!(m("max_concurrency <= 30") && !m("max_concurrency <= 29.5"));
        assert!(m("max_concurrency > 8") && !m("max_concurrency > 30"));
        assert!(m("max_concurrency >= 30") && !m("max_concurrency >= 30.01"));
        assert!(m("config = eagle-topk1-v2") && m("config != baseline"));
    }

    #[test]
    fn numbers_compare_numerically_and_text_lexically() {
        // 30 > 8 as numbers, though "30" < "8" as text.
        assert!(m("max_concurrency > 8"));
        // A text param that reads as a number compares as one.
        assert!(m("server_info.speculative_eagle_topk = 1.0"));
        assert!(m("server_info.speculative_eagle_topk < 4"));
        // `inf` is a number: request_rate=inf is above every finite rate.
        assert!(m("request_rate > 1000") && m("request_rate = inf"));
        // A quoted number still reads as one.
        assert!(m("max_concurrency = '30'"));
        // Text compares lexically.
        assert!(m("config > eagle-topk") && m("config < f"));
        // A number never equals a non-numeric text, and does not order with it.
        assert!(!m("max_concurrency = thirty") && m("max_concurrency != thirty"));
        assert!(!m("max_concurrency < thirty") && !m("max_concurrency >= thirty"));
    }

    #[test]
    fn quoting_and_bare_words() {
        assert!(m("model = 'kimi-k2.5'"));
        assert!(m("model = \"kimi-k2.5\""));
        assert!(m("model = kimi-k2.5"));
        assert!(m("model in ('kimi-k2.5', \"other model\")"));
        let r = run(&[("note", t("it's (a) test, = fine"))], "2026-11-29");
        assert!(Filter::parse(r"note = 'it\'s (a) test, = fine'").unwrap().matches(&r));
        assert!(Filter::parse("note = \"it's (a) test, = fine\"").unwrap().matches(&r));
        // Keywords are values only when quoted.
        let r = run(&[("mode", t("and"))], "2026-11-29");
        assert!(Filter::parse("mode = 'and'").unwrap().matches(&r));
    }

    #[test]
    fn in_and_not_in() {
        assert!(m("max_concurrency in (1, 8, 30)"));
        assert!(!m("max_concurrency in (1, 8, 250,)"));
        assert!(m("config in (baseline, eagle-topk1-v2)"));
        assert!(m("config not in (baseline, eagle-topk4-v1)"));
        assert!(!m("config NOT IN (eagle-topk1-v2)"));
    }

    #[test]
    fn glob_match() {
        assert!(m("config ~ 'eagle-*'"));
        assert!(m("config ~ eagle-topk?-v2"));
        assert!(!m("config ~ 'baseline*'"));
        assert!(m("source ~ 'logs/*/c8.jsonl'"));
        // A numeric param is matched through its formatted text.
        assert!(m("max_concurrency ~ '3*'") && !m("max_concurrency ~ '8*'"));
    }

    #[test]
    fn pseudo_params() {
        assert!(m("date = 2026-11-29") && m("sweep = '2026-11-29'"));
        assert!(!m("date = 2026-11-20"));
        assert!(m("date > 2026-11-20"));
        assert!(m("time >= 2026-11-29T00:00:00Z"));
        assert!(m("source = logs/baseline/c8.jsonl"));
        // A run's own `date` param wins over the sweep date.
        let r = run(&[("date", t("2026-01-01"))], "2026-11-29");
        assert!(Filter::parse("date = 2026-01-01").unwrap().matches(&r));
    }

    #[test]
    fn missing_param_fails_all_but_not_equal() {
        assert!(!m("dataset = sharegpt"));
        assert!(m("dataset != sharegpt"));
        assert!(!m("dataset < zzz") && !m("dataset >= 0"));
        assert!(!m("dataset in (sharegpt)") && m("dataset not in (sharegpt)"));
        assert!(!m("dataset ~ '*'"));
        assert!(m("not dataset = sharegpt"));
    }

    #[test]
    fn precedence_of_and_or_not() {
        // and binds tighter than or: true or (false and false) = true.
        assert!(m("config = eagle-topk1-v2 or config = x and model = y"));
        // Parentheses change it: (true or false) and false = false.
        assert!(!m("(config = eagle-topk1-v2 or config = x) and model = y"));
        // not binds tighter than and: (not false) and true.
        assert!(m("not config = baseline and model = kimi-k2.5"));
        // not applies to a parenthesised group.
        assert!(!m("not (config = baseline or model = kimi-k2.5)"));
        assert!(m("NOT NOT config = eagle-topk1-v2"));
        assert!(m("((max_concurrency = 30))"));
    }

    #[test]
    fn blank_filter_passes_everything_and_params_are_listed() {
        let f = Filter::parse("   ").unwrap();
        assert!(f.is_all() && f.matches(&sample()));
        assert!(Filter::all().matches(&sample()));
        let f = Filter::parse("model = x and (config in (a) or model ~ 'k*') and not date = 2026-11-20").unwrap();
        assert_eq!(f.params(), vec!["model", "config", "date"]);
        let both = Filter::parse("config = eagle-topk1-v2").unwrap().and(Filter::parse("model = x").unwrap());
        assert!(!both.matches(&sample()));
        assert_eq!(both.as_str(), "(config = eagle-topk1-v2) and (model = x)");
    }

    #[test]
    fn a_bare_param_map_can_be_filtered() {
        let params: BTreeMap<String, Value> = [("concurrency".to_string(), n(8.0))].into();
        assert!(Filter::parse("concurrency in (8, 16)").unwrap().matches_fields(&params));
        assert!(!Filter::parse("date = 2026-11-29").unwrap().matches_fields(&params));
    }

    #[test]
    fn errors_point_at_the_column() {
        let e = err("model = ");
        assert_eq!((e.col, e.msg.as_str()), (9, "expected a value after '='"));
        assert_eq!(e.to_string(), "filter: expected a value after '=' at column 9\n  model = \n          ^");

        let e = err("model = 'kimi");
        assert_eq!((e.col, e.msg.as_str()), (9, "unterminated string: add the closing '"));

        let e = err("model 'kimi'");
        assert_eq!(e.col, 7);
        assert!(e.msg.starts_with("expected an operator"), "{}", e.msg);

        let e = err("model = a and");
        assert_eq!((e.col, e.msg.as_str()), (14, "expected a param name"));

        let e = err("(model = a");
        assert_eq!(e.col, 11);
        assert_eq!(e.msg, "expected ')' to close the '(' opened at column 1,");

        let e = err("model = a)");
        assert_eq!((e.col, e.msg.as_str()), (10, "unmatched ')'"));

        let e = err("model = a config = b");
        assert_eq!(e.col, 11);
        assert!(e.msg.contains("missing `and` or `or`"), "{}", e.msg);

        let e = err("concurrency in 1, 2");
        assert_eq!(e.col, 16);
        assert_eq!(e.msg, "expected '(' and a list of values after `in`, found `1`");

        let e = err("concurrency in (1 2)");
        assert_eq!((e.col, e.msg.as_str()), (19, "expected ',' or ')' in the list, found `2`"));

        let e = err("mode = and");
        assert_eq!(e.col, 8);
        assert!(e.msg.contains("quote it"), "{}", e.msg);

        let e = err("model ! x");
        assert_eq!(e.col, 7);

        let e = err("config ~ 'eagle-[a'");
        assert!(e.msg.starts_with("bad glob pattern"), "{}", e.msg);

        let e = err("8 = 8");
        assert_eq!((e.col, e.msg.as_str()), (1, "expected a param name, found `8`"));

        let e = err("config not baseline");
        assert_eq!(e.col, 12);

        let e = err("model = x and\n  config =");
        assert_eq!((e.col, e.line_col()), (25, (2, 11)));
        assert_eq!(e.snippet(), "model = x and   config =\n                        ^");

        // Columns count characters, not bytes.
        let e = err("modèle = ");
        assert_eq!(e.col, 10);

        let usage: Error = err("model =").into();
        assert!(matches!(usage, Error::Usage(ref m) if m.starts_with("filter: expected a value")));
    }

    #[test]
    fn stack_formatting_matches_format_number() {
        for v in [
            f64::MAX,
            0.0,
            -0.0,
            1.0,
            30.0,
            759.3,
            0.092340913,
            -12.5,
            1e20,
            123456.789,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -0.0000001,
        ] {
            let mut buf = NumBuf::new();
            assert_eq!(buf.format(v), crate::metric::format_number(v), "{v}");
        }
    }

    #[test]
    fn filters_built_as_values_read_as_written() {
        let f = Filter::eq("config", Literal::Text("it's a \\ test".into()));
        assert_eq!(f.as_str(), r"config = 'it\'s a \\ test'");
        let mut run = BTreeMap::new();
        run.insert("config".to_string(), Value::Text("it's a \\ test".into()));
        assert!(f.matches_fields(&run));
        assert_eq!(Filter::parse(f.as_str()).unwrap().expr, f.expr);
        // A quoted number built as a value still compares as the number.
        run.insert("tp".to_string(), Value::Num(8.0));
        assert!(Filter::eq("tp", Literal::Text("8".into())).matches_fields(&run));
        let pin = Filter::compare("date", Op::Le, Literal::Text("2026-11-20".into()));
        assert_eq!(pin.as_str(), "date <= '2026-11-20'");
    }

    mod round_trip {
        use super::*;
        use proptest::prelude::*;
        use proptest::test_runner::{Config, RngSeed};

        fn literal() -> impl Strategy<Value = Literal> {
            prop_oneof![
                (-1000i32..1000).prop_map(|n| Literal::Num(f64::from(n))),
                any::<f64>().prop_filter("a number", |v| !v.is_nan()).prop_map(Literal::Num),
                Just(Literal::Num(f64::INFINITY)),
                Just(Literal::Num(f64::NEG_INFINITY)),
                prop::sample::select(vec!["8", "inf", "kimi-k2.5", "and", "it's", r"a\b", "say \"hi\"", "", " x "])
                    .prop_map(|t| Literal::Text(t.to_string())),
            ]
        }

        fn leaf() -> impl Strategy<Value = Expr> {
            let param =
                prop::sample::select(vec!["max_concurrency", "config", "server_info.topk", "a-b", "_x", "date"]);
            let op = prop::sample::select(vec![Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge]);
            let glob = prop::sample::select(vec!["eagle*", "a?c", "[ab]x", "it's*", "*"]);
            prop_oneof![
                (param.clone(), op, literal()).prop_map(|(p, op, l)| Expr::Cmp {
                    param: p.to_string(),
                    op,
                    lit: Operand::new(l)
                }),
                (param.clone(), prop::collection::vec(literal(), 1..4), any::<bool>()).prop_map(|(p, ls, negated)| {
                    Expr::In { param: p.to_string(), lits: ls.into_iter().map(Operand::new).collect(), negated }
                }),
                (param, glob).prop_map(|(p, g)| Expr::Glob {
                    param: p.to_string(),
                    pattern: glob::Pattern::new(g).expect("a valid pattern")
                }),
            ]
        }

        fn expr() -> impl Strategy<Value = Expr> {
            leaf().prop_recursive(4, 24, 4, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 2..4).prop_map(Expr::And),
                    prop::collection::vec(inner.clone(), 2..4).prop_map(Expr::Or),
                    inner.prop_map(|e| Expr::Not(Box::new(e))),
                ]
            })
        }

        proptest! {
            // A fixed seed, as the fuzz tests use: a failure shows on every run.
            #![proptest_config(Config {
                cases: 512,
                rng_seed: RngSeed::Fixed(0x7265_636b_6f6e),
                failure_persistence: None,
                ..Config::default()
            })]

            /// parse ∘ print: a filter printed reads back as the same filter.
            #[test]
            fn printing_reads_back_the_same(e in expr()) {
                let printed = e.to_string();
                let parsed = Filter::parse(&printed).unwrap_or_else(|err| panic!("{printed:?}: {err}"));
                prop_assert_eq!(&parsed.expr, &e, "printed as {}", printed);
                prop_assert_eq!(parsed.expr.to_string(), printed);
            }
        }
    }
}
