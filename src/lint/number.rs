//! Numbers as prose writes them: digits with `,` thousands and `k`/`M`/`G`
//! magnitudes, a ratio (`2.3x`) or a share (`20%`), and the unit written
//! after them (`212ms`, `300 MB/s`, `tok/s`) — read with the number, so a
//! value is never judged in a unit it was not stated in.

use std::sync::LazyLock;

use regex::Regex;

/// A number as written, with its unit.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Number {
    pub value: f64,
    /// Half the last written digit, relative to the value: how precisely it
    /// was stated (`2.3` → 0.05 / 2.3).
    pub precision: f64,
    pub unit: Unit,
    /// With a `k`/`M` suffix, the value read as powers of two (`16k` →
    /// 16384): how sizes and sequence lengths are often written.
    pub binary: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Unit {
    None,
    /// `2.3x`
    Times,
    /// `20%`
    Percent,
    /// A time unit, as seconds per unit.
    Time(f64),
    /// A metric named as the unit (`tok/s`, `TFLOPS`).
    Metric(String),
    /// A rate reckon converts (`MB/s`, `req/s`): its dimension and its size
    /// in that dimension's base unit, as `metric::unit_scale` gives them.
    Scaled(&'static str, f64),
    /// A rate reckon does not know (`img/s`): the number is no measurement
    /// lint can judge, so the clause holding it is unread.
    Unknown(String),
}

static NUMBER: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"^(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?").ok());

/// Letters, digits and `_`: what a word of prose is made of.
pub(super) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The length in seconds of a time unit a metric is kept in, as
/// `metric`'s table of units has it (`ms`, `min`, `h`, …): the one table
/// the store converts with too.
pub(crate) fn stored_time(unit: &str) -> Option<f64> {
    crate::metric::unit_scale(unit).filter(|(dimension, _)| *dimension == "time").map(|(_, seconds)| seconds)
}

/// The length in seconds of a time unit written after a number in prose
/// (lowercase), by `metric`'s table: the units prose writes for a time
/// (`secs` is `s`), not `min` (as often the minimum: `min TTFT`) or `h`
/// (`8h` names a thing as often as a time).
fn written_time(word: &str) -> Option<f64> {
    let unit = match word {
        "secs" => "s",
        "ns" | "us" | "µs" | "μs" | "ms" | "s" | "sec" => word,
        _ => return None,
    };
    stored_time(unit)
}

/// A number at the start of `rest` (with `,` thousands, `k`/`M`/`G`
/// magnitudes), followed by its unit if there is one — a metric named as
/// its unit when `metric_at` finds one where the unit would start (the
/// metric and the phrase's length). `None` when the digits belong to a name
/// (`H100`, `70B`, `v2`).
pub(super) fn number_at(
    rest: &str,
    lower: &str,
    metric_at: impl Fn(&str) -> Option<(usize, String)>,
) -> Option<(Number, usize)> {
    let re = NUMBER.as_ref()?;
    let m = re.find(rest)?;
    let digits = m.as_str();
    let mut value = crate::syntax::read_grouped(digits)?;
    let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len());
    // A number's digits fit an i32 (the regex read them from one line).
    let mut half = 0.5 * 10f64.powi(-i32::try_from(decimals).unwrap_or(i32::MAX));
    let mut len = m.end();
    let after = &rest[len..];
    let next = after.chars().next();
    let mut unit = Unit::None;
    let mut binary = None;
    // What follows the suffix character, if there is one.
    let past_next = &after[next.map_or(0, char::len_utf8)..];
    let suffix_ends = past_next.chars().next().is_none_or(|c| !is_word_char(c));
    // Magnitude or ratio suffix glued to the number.
    match next {
        Some('x' | '×' | 'X') if suffix_ends => {
            len += next.map_or(0, char::len_utf8);
            unit = Unit::Times;
        }
        Some('%') => {
            len += 1;
            unit = Unit::Percent;
        }
        Some(c @ ('k' | 'K' | 'M' | 'G')) if suffix_ends => {
            let (f, b) = match c {
                'k' | 'K' => (1e3, 1024.0),
                'M' => (1e6, 1024.0 * 1024.0),
                _ => (1e9, 1024.0 * 1024.0 * 1024.0),
            };
            binary = Some(value * b);
            value *= f;
            half *= f;
            len += 1;
        }
        Some(c) if is_word_char(c) && !after.starts_with("µ") && !after.starts_with("μ") => {
            // glued unit like `212ms`
            let w: String = after.chars().take_while(|c| c.is_alphabetic() || *c == 'µ' || *c == 'μ').collect();
            match written_time(&w.to_lowercase()) {
                Some(t) if after[w.len()..].chars().next().is_none_or(|c| !is_word_char(c)) => {
                    len += w.len();
                    unit = Unit::Time(t);
                }
                _ => return None,
            }
        }
        _ => {}
    }
    if unit == Unit::None {
        // A unit after a space: a metric's phrase or a time unit.
        let gap = rest[len..].len() - rest[len..].trim_start().len();
        let at = len + gap;
        if gap <= 1 && at < rest.len() {
            if let Some((l, metric)) = metric_at(&lower[at..]) {
                unit = Unit::Metric(metric);
                len = at + l;
            } else {
                let w: String =
                    rest[at..].chars().take_while(|c| c.is_alphabetic() || *c == 'µ' || *c == 'μ').collect();
                let boundary = rest[at + w.len()..].chars().next().is_none_or(|c| !is_word_char(c) && c != '/');
                if let (Some(t), true) = (written_time(&w.to_lowercase()), boundary) {
                    unit = Unit::Time(t);
                    len = at + w.len();
                } else if let Some((u, l)) = rate_unit_at(&rest[at..]) {
                    unit = u;
                    len = at + l;
                }
            }
        }
    }
    let precision = if value == 0.0 { 0.0 } else { half / value.abs() };
    Some((Number { value, precision, unit, binary }, len))
}

/// A rate written after a number (`MB/s`): converted where reckon knows it,
/// else a unit it cannot read (`img/s`), never dropped.
fn rate_unit_at(rest: &str) -> Option<(Unit, usize)> {
    let text = crate::metric::rate_written_at(rest)?;
    let unit =
        crate::metric::unit_scale(text).map_or_else(|| Unit::Unknown(text.to_string()), |(d, k)| Unit::Scaled(d, k));
    Some((unit, text.len()))
}
