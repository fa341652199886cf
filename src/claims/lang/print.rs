//! The claim printer: a parsed claim in canonical form, which reads back as
//! the same claim.

use super::{
    fmt, format_number, is_ident_char, is_series_char, is_series_start, Body, Claim, Clause, Contender, Literal, Op,
    Opponents, Pairwise, PointSet, QuantKind, Quantifier, Term, ValueClaim, RESERVED,
};

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
            Body::Pairwise(p) => write!(f, "{p}"),
            Body::Value(v) => write!(f, "{v}"),
            Body::Peak(p) => write!(f, "{p}"),
            Body::Trend(t) => write!(f, "{t}"),
            Body::Crossover(c) => {
                write!(
                    f,
                    "crossover({}, {} on {} over {}",
                    Contended(&c.a),
                    Contended(&c.b),
                    Ident(&c.metric.text),
                    Ident(&c.param.text)
                )?;
                if c.points != PointSet::Every {
                    write!(f, " {}", c.points)?;
                }
                write!(f, ") {} {}", c.op.as_str(), c.target)
            }
        }
    }
}

impl fmt::Display for Pairwise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.others_first {
            write!(f, "others {} {}", super::others::plural(self.relation), SeriesName(&self.a.text))?;
        } else {
            write!(f, "{} {} ", SeriesName(&self.a.text), self.relation.as_str())?;
        }
        match &self.b {
            _ if self.others_first => {}
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
        write!(f, " on {}", Ident(&self.metric.text))?;
        if let Some(q) = &self.quantifier {
            write!(f, " {q}")?;
        }
        Ok(())
    }
}

impl fmt::Display for ValueClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (Some(ch), Term::Ratio(a, b)) = (&self.change, &self.term) {
            let verb = if ch.cuts { "cuts" } else { "raises" };
            write!(f, "{} {verb} {} on {}", SeriesName(&a.text), SeriesName(&b.text), Ident(&self.metric.text))?;
            if let Some(q) = &self.quantifier {
                write!(f, " {q}")?;
            }
            return write!(f, " by {} {}%", ch.bound.as_str(), format_number(ch.percent));
        }
        // The comparison goes before a `for all`/`for any`, whose
        // point set would otherwise swallow it (`for all P <= 0.65`
        // reads `<= 0.65` as points of P); an `at` (and the second
        // point of a comparison between points) stays before it.
        let (before, after) = match (&self.quantifier, self.aggregate) {
            (Some(q), None) if q.kind != QuantKind::At => (None, Some(q)),
            (q, _) => (q.as_ref(), None),
        };
        let inner = |f: &mut fmt::Formatter<'_>| -> fmt::Result {
            write!(f, "{} on {}", self.term, Ident(&self.metric.text))?;
            if let Some(q) = before {
                write!(f, " {q}")?;
            }
            if let (Some(vs), Some(q)) = (&self.versus, before) {
                let op = if vs.ratio { "/" } else { "-" };
                write!(f, " {op} at {} = {}", Ident(&q.param.text), vs.at)?;
            }
            Ok(())
        };
        match self.aggregate {
            Some(a) => {
                write!(f, "{}(", a.as_str())?;
                inner(f)?;
                f.write_str(")")?;
            }
            None => inner(f)?,
        }
        // `5%` glued, as written; a unit after a space (`5 ms`).
        let unit = match &self.unit {
            Some(u) if u.text == super::grammar::PERCENT => u.text.clone(),
            Some(u) => format!(" {}", u.text),
            None => String::new(),
        };
        match (self.op, self.upper) {
            (Op::In, Some(hi)) => write!(f, " in {}..{}{unit}", format_number(self.target), format_number(hi))?,
            (op, _) => write!(f, " {} {}{unit}", op.as_str(), format_number(self.target))?,
        }
        if let Some(q) = after {
            write!(f, " {q}")?;
        }
        Ok(())
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
                    && crate::syntax::read_logged(t).is_none();
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

/// A side of a crossover: a series, or `others`.
struct Contended<'a>(&'a Contender);

impl fmt::Display for Contended<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Contender::Series(n) => write!(f, "{}", SeriesName(&n.text)),
            Contender::Others => f.write_str("others"),
        }
    }
}

/// Prints a series bare when it reads back as the same bare name.
pub(super) struct SeriesName<'a>(pub(super) &'a str);

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
pub(super) struct Ident<'a>(pub(super) &'a str);

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
