//! The claim parser's reading of the statement text: keywords, quoted and
//! bare names, numbers with their units, literals.

use super::{is_ident_char, is_series_char, is_series_start, ClaimError, Literal, Name, Op, RESERVED};

/// The right-hand side of a value comparison as written.
pub(super) struct Stated {
    pub(super) op: Op,
    pub(super) target: f64,
    pub(super) upper: Option<f64>,
    pub(super) unit: Option<Name>,
}

/// How many `where … and` cuts may be tried inside one another (each tries
/// to parse the rest of the statement as further clauses).
pub(super) const MAX_PROBE_DEPTH: usize = 64;

pub(super) struct Parser<'a, 'm> {
    pub(super) src: &'a str,
    pub(super) pos: usize,
    /// Whether the rest of the statement from a byte offset parses as
    /// clauses to its end, for each offset tried: trying each `and` of a
    /// filter as its end would otherwise be exponential in their number.
    pub(super) probes: &'m std::cell::RefCell<std::collections::HashMap<usize, bool>>,
    pub(super) depth: usize,
}

impl<'a> Parser<'a, '_> {
    pub(super) fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    pub(super) fn skip_ws(&mut self) {
        let trimmed = self.rest().trim_start();
        self.pos = self.src.len() - trimmed.len();
    }

    pub(super) fn err(&self, msg: impl Into<String>) -> ClaimError {
        let found = if self.rest().trim_start().chars().next().is_none() {
            " (found the end of the statement)".to_string()
        } else {
            let word: String = self.rest().trim_start().chars().take_while(|c| !c.is_whitespace()).take(20).collect();
            format!(" (found `{word}`)")
        };
        let offset = self.src.len() - self.rest().trim_start().len();
        ClaimError::new(offset, format!("{}{found}", msg.into()))
    }

    /// Consumes `kw` when it is the next word (followed by something that
    /// cannot continue a name).
    pub(super) fn eat_kw(&mut self, kw: &str) -> bool {
        self.skip_ws();
        let r = self.rest();
        if r.starts_with(kw) && !r[kw.len()..].starts_with(is_series_char) {
            self.pos += kw.len();
            true
        } else {
            false
        }
    }

    pub(super) fn peek_kw(&mut self, kw: &str) -> bool {
        let save = self.pos;
        let found = self.eat_kw(kw);
        self.pos = save;
        found
    }

    pub(super) fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    pub(super) fn expect(&mut self, s: &str, what: &str) -> Result<(), ClaimError> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.err(format!("expected {what}")))
        }
    }

    pub(super) fn expect_kw(&mut self, kw: &str, what: &str) -> Result<(), ClaimError> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(self.err(format!("expected {what}")))
        }
    }

    pub(super) fn quoted(&mut self) -> Result<Option<Name>, ClaimError> {
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
                    return Err(ClaimError::new(start, "empty quoted name"));
                }
                Ok(Some(Name { text, offset: start }))
            }
            None => Err(ClaimError::new(start, format!("unclosed quote {q}"))),
        }
    }

    /// A series name: quoted, or a bare word that is not reserved.
    pub(super) fn series(&mut self, what: &str) -> Result<Name, ClaimError> {
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
            return Err(ClaimError::new(
                start,
                format!("expected {what}, found the keyword `{text}` (quote a series with that name: '{text}')"),
            ));
        }
        self.pos += len;
        Ok(Name { text: text.to_string(), offset: start })
    }

    /// A metric or param identifier.
    pub(super) fn ident(&mut self, what: &str) -> Result<Name, ClaimError> {
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

    /// A number: optional sign, digits (thousands may be grouped by commas,
    /// `12,400`), optional fraction (a `.` followed by a digit, so `2..250`
    /// reads 2), optional exponent.
    pub(super) fn number(&mut self) -> Option<f64> {
        self.number_ext(false)
    }

    /// A number, optionally followed by a glued `x` when `allow_x` (a
    /// ratio written as people write it: `≈ 2.3x`).
    pub(super) fn number_ext(&mut self, allow_x: bool) -> Option<f64> {
        self.number_with(allow_x, true)
    }

    fn number_with(&mut self, allow_x: bool, grouped: bool) -> Option<f64> {
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
        // Thousands separators: groups of exactly three digits after one to
        // three leading ones (`12,400`, `1,000,000`); anything else stops
        // the number before its comma (and the caller says what is wrong).
        let mut separators = false;
        if grouped && i - digits_start <= 3 {
            while b.get(i) == Some(&b',') && group_of_three(&b[i + 1..]) {
                i += 4;
                separators = true;
            }
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
            let in_unit = |c: char| c.is_alphanumeric() || c == '/' || c == 'µ';
            let word_len = r[i..].find(|c: char| !in_unit(c)).unwrap_or(r.len() - i);
            crate::metric::is_writable_unit(&r[i..i + word_len]).then_some(())?;
        }
        let v = if separators {
            crate::syntax::read_number(&r[..digits_end].replace(',', ""))?
        } else {
            crate::syntax::read_number(&r[..digits_end])?
        };
        self.pos += i;
        Some(v)
    }

    /// The error for words left after a whole claim: what they most
    /// likely are when that can be told — a region argument written in the
    /// statement (`as_of=2026-11-20`), a unit reckon does not know after a
    /// number (`< 300 msec`) — else what may follow a claim.
    pub(super) fn trailing(&self) -> ClaimError {
        let rest = self.rest().trim_start();
        let at = self.src.len() - rest.len();
        let word_len = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
        let word = &rest[..word_len];
        if let Some(value) = word.strip_prefix("as_of") {
            let value = value.trim_start_matches('=');
            let value = if value.is_empty() { "DATE" } else { value };
            return ClaimError::new(
                at,
                format!(
                    "`as_of` is an argument of the claim region, not a word of its statement: write it before \
                     the statement, after the id — `<!-- reckon:claim id=ID as_of={} STATEMENT -->`",
                    crate::syntax::excerpt(value)
                ),
            );
        }
        let after_number = self.src[..at].trim_end().ends_with(|c: char| c.is_ascii_digit());
        let unit_len = rest.find(|c: char| !(c.is_alphanumeric() || c == '/' || c == 'µ')).unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        let wordlike = unit.starts_with(|c: char| c.is_alphabetic() || c == 'µ');
        if after_number && wordlike && !super::RESERVED.contains(&unit) {
            return ClaimError::new(
                at,
                format!(
                    "unknown unit `{}` after the number; write a unit reckon knows — {}; or `%`, or a rate per a \
                     time (`ops/s`) —, or end the claim there",
                    crate::syntax::excerpt(unit),
                    crate::metric::known_units()
                ),
            );
        }
        self.err("expected `and` and another claim, or the end of the statement")
    }

    /// After a number: a comma glued to digits that are not a group of
    /// three (`12,40`, `12,5`) is an error saying how numbers are written.
    pub(super) fn misgrouped(&self, start: usize) -> Option<ClaimError> {
        let r = self.rest();
        if !(r.starts_with(',') && r[1..].starts_with(|c: char| c.is_ascii_digit())) {
            return None;
        }
        let end = r[1..].find(|c: char| !c.is_ascii_digit()).map_or(r.len(), |k| k + 1);
        let written = &self.src[start..self.pos + end];
        Some(ClaimError::new(
            start,
            format!(
                "`{}` is not a number: a comma groups thousands in threes (`12,400`); a fraction is written \
                 with a point (`12.4`)",
                written.trim()
            ),
        ))
    }

    /// A number where one is required, its thousands grouped or not.
    pub(super) fn expect_number(&mut self, what: &str) -> Result<f64, ClaimError> {
        self.number().ok_or_else(|| self.err(format!("expected {what}")))
    }

    /// A param value: number, quoted string or bare word.
    pub(super) fn literal(&mut self, what: &str) -> Result<Literal, ClaimError> {
        self.literal_with(what, true)
    }

    /// A value of an `in (…)` list, where a comma separates values.
    pub(super) fn list_literal(&mut self, what: &str) -> Result<Literal, ClaimError> {
        self.literal_with(what, false)
    }

    fn literal_with(&mut self, what: &str, grouped: bool) -> Result<Literal, ClaimError> {
        self.skip_ws();
        let start = self.pos;
        if let Some(n) = self.number_with(false, grouped) {
            if let Some(e) = self.misgrouped(start).filter(|_| grouped) {
                return Err(e);
            }
            return Ok(Literal::Num(n));
        }
        if let Some(q) = self.quoted()? {
            return Ok(Literal::Text(q.text));
        }
        self.skip_ws();
        if self.peek().is_some_and(is_series_start) {
            let len = self.rest().find(|c| !is_series_char(c)).unwrap_or(self.rest().len());
            let text = self.rest()[..len].to_string();
            if let Some(e) = self.unquoted_value(start, len) {
                return Err(e);
            }
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
}

impl Parser<'_, '_> {
    /// A bare value glued to a character a bare word cannot hold
    /// (`BM_Copy/1024`, `threads:2`): the error that says to quote it,
    /// at the value, rather than a puzzle about what follows its first
    /// part.
    fn unquoted_value(&self, start: usize, len: usize) -> Option<ClaimError> {
        let rest = self.rest();
        let next = rest[len..].chars().next()?;
        if !matches!(next, '/' | ':' | '@' | '#' | '\\' | '|' | '^' | '~' | '$' | '?') {
            return None;
        }
        let whole = rest.find(|c: char| c.is_whitespace() || matches!(c, ',' | ')')).unwrap_or(rest.len());
        let value = crate::syntax::excerpt(&rest[..whole]);
        Some(ClaimError::new(
            start,
            format!("a value holding `{next}` is written in quotes: '{value}' (a bare word ends before `{next}`)"),
        ))
    }
}

/// Whether `b` starts with exactly three digits (a thousands group).
fn group_of_three(b: &[u8]) -> bool {
    b.len() >= 3 && b[..3].iter().all(u8::is_ascii_digit) && !b.get(3).is_some_and(u8::is_ascii_digit)
}
