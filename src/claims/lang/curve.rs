//! Clauses about the shape of a curve — one series along a param, or the
//! series themselves in their order: where it peaks (`peaks at`, `is
//! lowest at`, `is best at`), whether it rises or falls step by step
//! (`increases with`, `never decreases with`), and how much each step buys
//! (`increases by less than 1% per step of`). The AST, its grammar and its
//! printing, kept together.

use serde::Serialize;

use super::parse::Parser;
use super::{fmt, format_number, Body, ChangeBound, ClaimError, Literal, Name, PointSet};

/// Where a curve's maximum or minimum lies: one series' over a param
/// (`A on M peaks at P = v`), or over the series (`M is lowest at threads =
/// 8`, where `threads` is the series).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Peak {
    /// `None`: the curve is over the series, `param` names the series.
    pub series: Option<Name>,
    pub metric: Name,
    pub extreme: Extreme,
    pub param: Name,
    pub at: Literal,
}

/// Which end of the curve a peak is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Extreme {
    /// `peaks at`, `is highest at`: the maximum, whatever the direction.
    Highest,
    /// `is lowest at`, `bottoms out at`: the minimum.
    Lowest,
    /// `is best at`: the maximum where higher is better, else the minimum.
    Best,
    /// `is worst at`: the other end.
    Worst,
}

impl Extreme {
    fn words(self) -> &'static str {
        match self {
            Extreme::Highest => "peaks",
            Extreme::Lowest => "is lowest",
            Extreme::Best => "is best",
            Extreme::Worst => "is worst",
        }
    }

    /// Whether the extreme follows the metric's direction.
    pub fn by_direction(self) -> bool {
        matches!(self, Extreme::Best | Extreme::Worst)
    }
}

/// How a curve goes from one point to the next.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trend {
    /// `None`: the curve is over the series, `param` names the series.
    pub series: Option<Name>,
    pub metric: Name,
    pub way: Way,
    /// `increases with` (each step up beyond noise) or `never decreases
    /// with` (no step down beyond the margin). Always true with a `step`.
    pub strict: bool,
    pub param: Name,
    /// The points of the curve, in their order: numbers ascending, or as
    /// listed by `in (…)`.
    pub points: PointSet,
    /// `by less than 1% per step of`: a bound on every step instead.
    pub step: Option<Step>,
}

/// The way a trend goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Way {
    /// `increases`, `rises`, `grows`: literal, up.
    Increases,
    /// `decreases`, `falls`, `drops`: literal, down.
    Decreases,
    /// `improves`: in the metric's better direction.
    Improves,
    /// `worsens`: against it.
    Worsens,
}

impl Way {
    fn word(self) -> &'static str {
        match self {
            Way::Increases => "increases",
            Way::Decreases => "decreases",
            Way::Improves => "improves",
            Way::Worsens => "worsens",
        }
    }

    /// The way a non-strict trend never goes (`never decreases` is a
    /// non-strict increase).
    fn opposite(self) -> Way {
        match self {
            Way::Increases => Way::Decreases,
            Way::Decreases => Way::Increases,
            Way::Improves => Way::Worsens,
            Way::Worsens => Way::Improves,
        }
    }
}

/// A bound on what each step of a curve changes, in its way (`by less
/// than 1%`: next/previous − 1 below 1% at every step).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Step {
    pub bound: ChangeBound,
    /// The percentage as written (1 for 1%).
    pub percent: f64,
}

const WAYS: [(&str, Way); 8] = [
    ("increases", Way::Increases),
    ("rises", Way::Increases),
    ("grows", Way::Increases),
    ("decreases", Way::Decreases),
    ("falls", Way::Decreases),
    ("drops", Way::Decreases),
    ("improves", Way::Improves),
    ("worsens", Way::Worsens),
];

impl Parser<'_, '_> {
    /// A word for where a curve peaks: `peaks`, `is highest`, `is lowest`,
    /// `bottoms out`, `is best`, `is worst` (then `at`).
    pub(super) fn extreme(&mut self) -> Option<Extreme> {
        if self.eat_kw("peaks") {
            return Some(Extreme::Highest);
        }
        let save = self.pos;
        if self.eat_kw("bottoms") && self.eat_kw("out") {
            return Some(Extreme::Lowest);
        }
        self.pos = save;
        if self.eat_kw("is") {
            for (word, e) in [
                ("highest", Extreme::Highest),
                ("lowest", Extreme::Lowest),
                ("best", Extreme::Best),
                ("worst", Extreme::Worst),
            ] {
                if self.eat_kw(word) {
                    return Some(e);
                }
            }
        }
        self.pos = save;
        None
    }

    /// After `[A on] M`: `peaks at P = v` (or another [`Parser::extreme`]
    /// word), if that is what follows.
    pub(super) fn peak(&mut self, series: Option<Name>, metric: &Name) -> Result<Option<Body>, ClaimError> {
        let Some(extreme) = self.extreme() else { return Ok(None) };
        let word = extreme.words();
        self.expect_kw("at", &format!("`at PARAM = VALUE` after `{word}` (`{word} at max_concurrency = 150`)"))?;
        let param = self.ident("a param name after `at`")?;
        self.expect("=", &format!("`=` after the param (`{word} at max_concurrency = 150`)"))?;
        let at = self.literal("a value after `=`")?;
        Ok(Some(Body::Peak(Peak { series, metric: metric.clone(), extreme, param, at })))
    }

    /// A clause over the series that names no series: `M peaks at S = v`,
    /// `M increases with S` (a curve word after the first name makes it
    /// the metric).
    pub(super) fn series_less(&mut self) -> Result<Option<Body>, ClaimError> {
        let save = self.pos;
        let Ok(metric) = self.ident("a metric name") else {
            self.pos = save;
            return Ok(None);
        };
        let probe = self.pos;
        let curve_word = self.extreme().is_some() || self.eat_kw("never") || self.way().is_some();
        self.pos = probe;
        if !curve_word {
            self.pos = save;
            return Ok(None);
        }
        if let Some(body) = self.peak(None, &metric)? {
            return Ok(Some(body));
        }
        self.trend(None, &metric)
    }

    fn way(&mut self) -> Option<Way> {
        WAYS.into_iter().find(|(w, _)| self.eat_kw(w)).map(|(_, way)| way)
    }

    /// After `[A on] M`: a trend (`increases with P`, `never decreases with
    /// P`, `increases by less than 1% per step of P`), if that follows.
    pub(super) fn trend(&mut self, series: Option<Name>, metric: &Name) -> Result<Option<Body>, ClaimError> {
        let save = self.pos;
        let never = self.eat_kw("never");
        let Some(way) = self.way() else {
            if never {
                return Err(self.err("expected `increases`, `decreases`, `improves` or `worsens` after `never`"));
            }
            self.pos = save;
            return Ok(None);
        };
        let (way, strict) = if never { (way.opposite(), false) } else { (way, true) };
        let mut step = None;
        if self.eat_kw("by") {
            if never {
                return Err(
                    self.err("a bound on each step takes no `never`: write `increases by less than 1% per step of P`")
                );
            }
            step = Some(self.step()?);
        } else {
            let w = way.word();
            self.expect_kw(
                "with",
                &format!("`with PARAM` after `{w}` (`{w} with cache_mb`), or `by less than N% per step of PARAM`"),
            )?;
        }
        let param = self.ident("a param name (the curve's points)")?;
        let points = self.point_set()?;
        Ok(Some(Body::Trend(Trend { series, metric: metric.clone(), way, strict, param, points, step })))
    }

    /// `less than 1% per step of` after `by`.
    fn step(&mut self) -> Result<Step, ClaimError> {
        let bound = self.change_bound()?;
        let percent = self.expect_number("a percentage (`1%`)")?;
        if percent < 0.0 {
            return Err(self.err("a bound on each step is a percentage of at least 0"));
        }
        self.expect("%", "`%` after the percentage")?;
        self.expect_kw("per", "`per step of PARAM` after the percentage (`by less than 1% per step of cache_kb`)")?;
        self.expect_kw("step", "`step of PARAM` after `per`")?;
        self.expect_kw("of", "`of PARAM` after `per step`")?;
        Ok(Step { bound, percent })
    }

    /// `at least`, `at most`, `more than`, `less than`.
    pub(super) fn change_bound(&mut self) -> Result<ChangeBound, ClaimError> {
        if self.eat_kw("at") {
            if self.eat_kw("least") {
                return Ok(ChangeBound::AtLeast);
            }
            if self.eat_kw("most") {
                return Ok(ChangeBound::AtMost);
            }
            return Err(self.err("expected `least` or `most` after `by at`"));
        }
        if self.eat_kw("more") {
            self.expect_kw("than", "`than` after `more`")?;
            return Ok(ChangeBound::MoreThan);
        }
        if self.eat_kw("less") {
            self.expect_kw("than", "`than` after `less`")?;
            return Ok(ChangeBound::LessThan);
        }
        Err(self.err("expected `at least`, `at most`, `more than` or `less than` after `by`"))
    }
}

/// `A on M` or `M`, as a curve clause starts.
fn subject(f: &mut fmt::Formatter<'_>, series: Option<&Name>, metric: &Name) -> fmt::Result {
    if let Some(s) = series {
        write!(f, "{} on ", super::print::SeriesName(&s.text))?;
    }
    write!(f, "{}", super::print::Ident(&metric.text))
}

impl fmt::Display for Peak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        subject(f, self.series.as_ref(), &self.metric)?;
        write!(f, " {} at {} = {}", self.extreme.words(), super::print::Ident(&self.param.text), self.at)
    }
}

impl fmt::Display for Trend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        subject(f, self.series.as_ref(), &self.metric)?;
        match self.step {
            Some(step) => write!(
                f,
                " {} by {} {}% per step of",
                self.way.word(),
                step.bound.as_str(),
                format_number(step.percent)
            )?,
            None if self.strict => write!(f, " {} with", self.way.word())?,
            None => write!(f, " never {} with", self.way.opposite().word())?,
        }
        write!(f, " {}", super::print::Ident(&self.param.text))?;
        if self.points != PointSet::Every {
            write!(f, " {}", self.points)?;
        }
        Ok(())
    }
}
