//! The record every log format is turned into: a run with its params and
//! metrics, before it reaches the store.

use std::fmt;

/// A param value as the log holds it. Numbers compare and sort numerically.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Text(String),
    Num(f64),
}

impl Value {
    /// The numeric reading of the value, if it has one (`"8"` reads as 8,
    /// `"inf"` as infinity).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Num(n) => Some(*n),
            Value::Text(t) => crate::syntax::read_number(t),
        }
    }

    /// Turns a label given as text (`--label concurrency=8`, a path capture)
    /// into a number when it reads as one, so it sorts numerically.
    pub fn from_label(text: &str) -> Value {
        match text.parse::<f64>() {
            Ok(n) if n.is_finite() && !text.trim().is_empty() => Value::Num(n),
            _ => Value::Text(text.to_string()),
        }
    }
}

/// A literal a filter or claim wrote, as the param value it names.
impl From<&crate::syntax::Literal> for Value {
    fn from(lit: &crate::syntax::Literal) -> Value {
        match lit {
            crate::syntax::Literal::Num(n) => Value::Num(*n),
            crate::syntax::Literal::Text(t) => Value::Text(t.clone()),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Text(t) => f.write_str(t),
            Value::Num(n) => write!(f, "{}", crate::metric::format_number(*n)),
        }
    }
}

/// One measured number of a run. `value` is NaN when the log wrote `NaN`.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    pub name: String,
    pub value: f64,
    /// The unit when the format states it (hyperfine: seconds); otherwise
    /// the built-in rules derive it from the name.
    pub unit: Option<String>,
}

/// One measurement record as a format parser produces it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawRun {
    /// 1-based line in the source file where the record starts.
    pub line: u64,
    pub params: Vec<(String, Value)>,
    pub metrics: Vec<Metric>,
    /// The log's own timestamp for this run, as RFC 3339 UTC
    /// (`2026-11-29T14:02:11Z`), where the format has one.
    pub time: Option<String>,
}

impl RawRun {
    pub fn new(line: u64) -> Self {
        RawRun { line, ..Default::default() }
    }

    pub fn param(&mut self, key: impl Into<String>, value: Value) {
        self.params.push((key.into(), value));
    }

    pub fn metric(&mut self, name: impl Into<String>, value: f64) {
        self.metrics.push(Metric { name: name.into(), value, unit: None });
    }

    pub fn metric_with_unit(&mut self, name: impl Into<String>, value: f64, unit: &str) {
        self.metrics.push(Metric { name: name.into(), value, unit: Some(unit.to_string()) });
    }
}

/// Whether a param with this name tells repeats of one configuration apart
/// (`repeat`, `rep`, `run`, `run_number`, `run_index`, `seed`, `iteration`,
/// `iter`, `trial`, `repetition`; case, `-` and spaces do not matter, and a
/// dotted name is judged by its last part). Such a param is kept, so a run
/// can be found again, but it never makes runs different points: a cell's
/// runs that differ only in it are repeats to aggregate, not configurations
/// to tell apart.
pub fn is_repeat_marker(name: &str) -> bool {
    let leaf = name.rsplit('.').next().unwrap_or(name);
    let n: String = leaf.chars().map(|c| if c == '-' || c == ' ' { '_' } else { c.to_ascii_lowercase() }).collect();
    matches!(
        n.as_str(),
        "repeat"
            | "rep"
            | "run"
            | "run_number"
            | "run_index"
            | "run_idx"
            | "seed"
            | "iteration"
            | "iter"
            | "trial"
            | "repetition"
            | "repetition_index"
    )
}
