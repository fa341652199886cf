//! The claim grammar: clauses and their forms (pairwise, value, change,
//! peak, crossover), quantifiers, point sets and the `where` filter's extent.

use super::parse::{Parser, Stated};
use super::{
    format_number, Aggregate, Body, Change, Claim, ClaimError, Clause, Name, Op, Opponents, Pairwise, PointSet,
    QuantKind, Quantifier, Relation, Term, ValueClaim, Versus,
};

/// The unit a stated number takes when `%` follows it.
pub(crate) const PERCENT: &str = "%";

impl Parser<'_, '_> {
    pub(super) fn claim(&mut self) -> Result<Claim, ClaimError> {
        let mut clauses = vec![self.clause()?];
        while self.eat_kw("and") {
            clauses.push(self.clause()?);
        }
        Ok(Claim { clauses })
    }

    pub(super) fn clause(&mut self) -> Result<Clause, ClaimError> {
        self.skip_ws();
        let offset = self.pos;
        if self.pos >= self.src.len() {
            return Err(self.err("expected a claim such as `A beats B on METRIC at PARAM = VALUE`"));
        }
        let mut form_within = None;
        let mut body = if self.peek_call("crossover") {
            Body::Crossover(self.crossover()?)
        } else if let Some(body) = self.series_less()? {
            body
        } else if self.eat_kw("others") {
            Body::Pairwise(self.others_first()?)
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
                    return Err(ClaimError::new(kw_at, "`within` given twice"));
                }
                within = Some(self.percent()?);
            } else if self.peek_kw("at") || self.peek_kw("for") {
                self.skip_ws();
                let at = self.pos;
                let q = self.quantifier()?;
                if let Body::Value(v) = &body {
                    check_aggregate_quantifier(v.aggregate, &q, at)?;
                }
                let slot = quantifier_slot(&mut body, at)?;
                if slot.is_some() {
                    return Err(ClaimError::new(
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
    pub(super) fn peek_call(&mut self, name: &str) -> bool {
        self.skip_ws();
        let r = self.rest();
        r.starts_with(name) && r[name.len()..].trim_start().starts_with('(')
    }

    pub(super) fn aggregate_call(&mut self) -> Option<Aggregate> {
        [("max", Aggregate::Max), ("min", Aggregate::Min), ("mean", Aggregate::Mean), ("median", Aggregate::Median)]
            .into_iter()
            .find(|(name, _)| self.peek_call(name))
            .map(|(_, a)| a)
    }

    pub(super) fn percent(&mut self) -> Result<f64, ClaimError> {
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
    /// The other side of a pairwise clause: `others`, or series names.
    fn opponents(&mut self) -> Result<Opponents, ClaimError> {
        if self.eat_kw("others") {
            return Ok(Opponents::Others);
        }
        let mut list = vec![self.series("a series name or `others` after the relation")?];
        while self.eat(",") {
            list.push(self.series("a series name after `,`")?);
        }
        Ok(Opponents::Series(list))
    }

    pub(super) fn series_first(&mut self) -> Result<(Body, Option<f64>), ClaimError> {
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
                    others_first: false,
                };
                return Ok((Body::Pairwise(body), Some(within)));
            }
            self.pos = save;
        }
        if let Some(relation) = self.relation() {
            let b = self.opponents()?;
            self.expect_kw("on", "`on METRIC` after the series names")?;
            let metric = self.ident("a metric name after `on`")?;
            let body = Pairwise { a, relation, b, metric, quantifier: None, others_first: false };
            return Ok((Body::Pairwise(body), None));
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
            if let Some(body) = self.peak(Some(series.clone()), &metric)? {
                return Ok((body, None));
            }
            if let Some(body) = self.trend(Some(series.clone()), &metric)? {
                return Ok((body, None));
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
        let st =
            self.numeric_comparison().map_err(|e| misread_points(e, cmp_at, quantifier.as_ref(), &term, &metric))?;
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

    /// After `A on M at P = v`: `/ at P = w` or ` - at P = w`.
    pub(super) fn versus(&mut self, param: &Name, term: &Term) -> Result<Option<Versus>, ClaimError> {
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
            return Err(ClaimError::new(
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
    pub(super) fn change(&mut self, a: Name, cuts: bool) -> Result<ValueClaim, ClaimError> {
        let verb = if cuts { "cuts" } else { "raises" };
        let b = self.series(&format!("the series `{verb}` is compared with"))?;
        self.expect_kw("on", "`on METRIC` after the series name")?;
        let metric = self.ident("a metric name after `on`")?;
        let mut quantifier = None;
        if self.peek_kw("at") || self.peek_kw("for") {
            quantifier = Some(self.quantifier()?);
        }
        self.expect_kw("by", &format!("`by at least N%` after the metric (`{verb} … by at least 35%`)"))?;
        let bound = self.change_bound()?;
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
    pub(super) fn term_rest(&mut self, a: Name) -> Result<Term, ClaimError> {
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

    pub(super) fn relation(&mut self) -> Option<Relation> {
        if self.eat_kw("beats") {
            return Some(Relation::Beats);
        }
        let save = self.pos;
        if self.eat_kw("loses") && self.eat_kw("to") {
            return Some(Relation::LosesTo);
        }
        self.pos = save;
        if self.eat_kw("is") {
            for (word, r) in [("faster", Relation::Faster), ("slower", Relation::Slower)] {
                if self.eat_kw(word) && self.eat_kw("than") {
                    return Some(r);
                }
            }
        }
        self.pos = save;
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

    pub(super) fn num_op(&mut self) -> Option<Op> {
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
    pub(super) fn numeric_comparison(&mut self) -> Result<Stated, ClaimError> {
        if self.eat_kw("in") {
            self.skip_ws();
            let start = self.pos;
            let lo = self.number().ok_or_else(|| self.err("expected a range `lo..hi` after `in` (`in 350..353`)"))?;
            if let Some(e) = self.misgrouped(start) {
                return Err(e);
            }
            let lo_unit = self.unit();
            self.expect("..", "`..` in the range (`in 350..353`)")?;
            let hi = self.number().ok_or_else(|| self.err("expected the end of the range after `..`"))?;
            let unit = self.unit();
            if let (Some(a), Some(b)) = (&lo_unit, &unit) {
                if a.text != b.text {
                    return Err(ClaimError::new(
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
        if self.peek_kw("where") {
            return Err(self.number_after_where());
        }
        let op = self.num_op().ok_or_else(|| {
            self.err("expected a comparison with a number (`≈ 2.3`, `> 100`, `in 350..353`, …) after the metric")
        })?;
        self.skip_ws();
        let start = self.pos;
        let target = self.number_ext(true).ok_or_else(|| self.err("expected a number after the comparison"))?;
        if let Some(e) = self.misgrouped(start) {
            return Err(e);
        }
        let unit = self.unit();
        Ok(Stated { op, target, upper: None, unit })
    }

    /// `A on M at P = 8 where Q = 128 ≈ 255`: the filter ends a clause, so
    /// the number goes before it. Says so at the `where`, with the claim
    /// rewritten when the number can be found after the filter.
    fn number_after_where(&self) -> ClaimError {
        let head = self.src[..self.pos].trim_end();
        let at = self.src.len() - self.rest().trim_start().len();
        let after = &self.src[at + "where".len()..];
        // Where the number's comparison starts: at the first `≈` (a filter
        // never uses one, the number after it may be mistyped, and a later
        // one belongs to the next clause), else at the last operator a
        // number follows — the filter's own `=`/`>=` come before it.
        let approx = ["≈", "~="].iter().filter_map(|op| after.find(op)).min();
        let split = approx.or_else(|| {
            after
                .char_indices()
                .map(|(i, _)| i)
                .filter(|&i| {
                    let mut p = Parser { src: &after[i..], pos: 0, probes: self.probes, depth: self.depth };
                    !after[..i].ends_with(['<', '>', '=', '!']) && p.numeric_comparison().is_ok()
                })
                .max()
        });
        let rewritten = match split {
            Some(i) => {
                // The number's clause ends at the next `and`; the filter goes
                // with it, before the clauses after.
                let end = after[i..].find(" and ").map_or(after.len(), |k| i + k);
                format!("{head} {} where {}{}", after[i..end].trim(), after[..i].trim(), &after[end..])
            }
            None => format!("{head} ≈ N where {}", after.trim()),
        };
        ClaimError::new(at, format!("the number comes before `where`, which ends the clause: write `{rewritten}`"))
    }

    /// A unit after a number (`ms`, `µs`, `tok/s`, `ops/s`), when the next
    /// word is one a claim may write ([`crate::metric::is_writable_unit`]:
    /// one reckon knows, or a rate of a thing per a time), or `%` (a bound on
    /// a fraction written as people write it, `< 5%`; the judge decides
    /// what it means for the metric).
    pub(super) fn unit(&mut self) -> Option<Name> {
        let save = self.pos;
        // Glued (`1.66ms`) or after a space.
        if self.rest().starts_with(char::is_whitespace) {
            self.skip_ws();
        }
        let start = self.pos;
        if self.rest().starts_with('%') {
            self.pos += 1;
            return Some(Name { text: PERCENT.to_string(), offset: start });
        }
        let len =
            self.rest().find(|c: char| !(c.is_alphanumeric() || c == '/' || c == 'µ')).unwrap_or(self.rest().len());
        let word = &self.rest()[..len];
        if len > 0 && crate::metric::is_writable_unit(word) {
            self.pos += len;
            return Some(Name { text: word.to_string(), offset: start });
        }
        self.pos = save;
        None
    }

    pub(super) fn aggregate_value(&mut self, aggregate: Aggregate) -> Result<ValueClaim, ClaimError> {
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
                return Err(ClaimError::new(at, "a clause takes one quantifier"));
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
}

/// Where a quantifier written after a clause's form goes, or why that
/// form takes none.
fn quantifier_slot(body: &mut Body, at: usize) -> Result<&mut Option<Quantifier>, ClaimError> {
    let why = match body {
        Body::Pairwise(p) => return Ok(&mut p.quantifier),
        Body::Value(v) if v.versus.is_none() => return Ok(&mut v.quantifier),
        Body::Value(_) => "a comparison between two points takes no other quantifier".to_string(),
        Body::Crossover(_) => {
            "a crossover ranges over its `over PARAM`; restrict it there (`over concurrency >= 2`)".to_string()
        }
        Body::Peak(_) => "a peak ranges over every point of its param; restrict them with `where` (`where \
                          max_concurrency <= 150`)"
            .to_string(),
        Body::Trend(t) => format!(
            "a trend ranges over its `with {0}`; restrict its points there (`with {0} >= 64`) and other params \
             with `where`",
            t.param.text
        ),
    };
    Err(ClaimError::new(at, why))
}

fn check_aggregate_quantifier(agg: Option<Aggregate>, q: &Quantifier, at: usize) -> Result<(), ClaimError> {
    if agg.is_some() && q.kind != QuantKind::ForAll {
        return Err(ClaimError::new(
            at,
            "an aggregate runs over a range of points: use `for all PARAM …` (e.g. `for all concurrency >= 50`)",
        ));
    }
    Ok(())
}

// ---- canonical printing ----

/// A value comparison that did not parse after a `for all P …`: when the
/// comparison was read as the points of P, say how to write it; else the
/// error as it is.
fn misread_points(e: ClaimError, at: usize, quantifier: Option<&Quantifier>, term: &Term, metric: &Name) -> ClaimError {
    match quantifier {
        Some(Quantifier { kind: QuantKind::ForAll | QuantKind::ForAny, param, points })
            if !matches!(points, PointSet::Every) =>
        {
            let p = &param.text;
            ClaimError::new(
                at,
                format!(
                    "`{p} {points}` reads `{points}` as the points of `{p}`; to compare the value, write the \
                     comparison before the quantifier (`{term} on {} {points} for all {p}`)",
                    metric.text
                ),
            )
        }
        _ => e,
    }
}
