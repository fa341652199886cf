//! The filter language read: a lexer for its words, strings and operators,
//! and a recursive-descent parser with a nesting limit.

use super::{Expr, FilterError, Operand, MAX_NESTING};
use crate::syntax::{Literal, Op};

/// The expression a filter text holds; a blank text is [`Expr::True`].
pub(super) fn expression(text: &str) -> Result<Expr, FilterError> {
    let tokens = lex(text)?;
    let mut p = Parser { tokens, pos: 0, input: text, depth: 0 };
    if p.peek().tok == Tok::End {
        return Ok(Expr::True);
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
    Ok(expr)
}

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
            Tok::Word(w) => format!("`{}`", crate::syntax::excerpt(w)),
            Tok::Str(s) => format!("'{}'", crate::syntax::excerpt(s)),
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

/// The text of a string that opens at `chars[0]` (a `'` or `"`) and the
/// characters it spans with its quotes; a backslash escapes the quote and
/// itself. `None` when the string is never closed.
fn quoted(chars: &[char]) -> Option<(String, usize)> {
    let quote = chars[0];
    let mut text = String::new();
    let mut at = 1;
    loop {
        match chars.get(at)? {
            '\\' if matches!(chars.get(at + 1), Some(&next) if next == quote || next == '\\') => {
                text.push(chars[at + 1]);
                at += 2;
            }
            &ch if ch == quote => return Some((text, at + 1)),
            &ch => {
                text.push(ch);
                at += 1;
            }
        }
    }
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
            '\'' | '"' => match quoted(&chars[i..]) {
                Some((text, len)) => (Tok::Str(text), len),
                None => return Err(err(col, format!("unterminated string: add the closing {c}"))),
            },
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
                let param = crate::syntax::excerpt(&param);
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
