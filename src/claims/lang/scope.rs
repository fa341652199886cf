//! What a clause ranges over: its quantifier (`at P = v`, `for all P …`),
//! the point sets they name, and where a clause's `where` filter ends.

use super::parse::{Parser, MAX_PROBE_DEPTH};
use super::{ClaimError, Op, PointSet, QuantKind, Quantifier, WhereClause};

/// How a point set compares, longest spelling first.
const POINT_OPS: [(&str, Op); 7] =
    [(">=", Op::Ge), ("≥", Op::Ge), ("<=", Op::Le), ("≤", Op::Le), ("=", Op::Eq), (">", Op::Gt), ("<", Op::Lt)];

impl Parser<'_, '_> {
    pub(super) fn quantifier(&mut self) -> Result<Quantifier, ClaimError> {
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

    pub(super) fn point_set(&mut self) -> Result<PointSet, ClaimError> {
        if self.eat_kw("in") {
            if self.eat("(") {
                let mut lits = vec![self.list_literal("a value inside `in (…)`")?];
                while self.eat(",") {
                    lits.push(self.list_literal("a value after `,`")?);
                }
                self.expect(")", "`)` or `,` in the value list")?;
                return Ok(PointSet::In(lits));
            }
            let lo = self.literal("`(v1, v2, …)` or a range `lo..hi` after `in`")?;
            self.expect("..", "`..` in the range (`in 2..250`)")?;
            let hi = self.literal("the end of the range after `..`")?;
            return Ok(PointSet::Range(lo, hi));
        }
        // As prose writes them: `from 4` is `>= 4`, `from 4 to 64` is
        // `in 4..64`, `up to 64` is `<= 64` (each bound included).
        if self.eat_kw("from") {
            let lo = self.literal("a value after `from` (`from 4`)")?;
            if self.eat_kw("to") {
                let hi = self.literal("the end of the range after `to` (`from 4 to 64`)")?;
                return Ok(PointSet::Range(lo, hi));
            }
            return Ok(PointSet::Cmp(Op::Ge, lo));
        }
        let save = self.pos;
        if self.eat_kw("up") {
            if self.eat_kw("to") {
                let hi = self.literal("a value after `up to` (`up to 64`)")?;
                return Ok(PointSet::Cmp(Op::Le, hi));
            }
            self.pos = save;
        }
        for (s, op) in POINT_OPS {
            if self.eat(s) {
                let v = self.literal(&format!("a value after `{s}`"))?;
                return Ok(PointSet::Cmp(op, v));
            }
        }
        Ok(PointSet::Every)
    }

    /// The `where` text: to the end, or to the first top-level `and` after
    /// which the rest parses as clauses.
    pub(super) fn filter(&mut self) -> Result<WhereClause, ClaimError> {
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
            return Err(ClaimError::new(start, "expected a filter after `where` (`where model = 'kimi-k2.5'`)"));
        }
        self.pos = end;
        Ok(WhereClause { source, offset: start })
    }

    /// Byte offsets of each `and` word outside quotes and brackets, from
    /// `start`.
    pub(super) fn and_candidates(&self, start: usize) -> Vec<usize> {
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
