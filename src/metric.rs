//! What a metric name means: its unit, whether higher or lower is better,
//! and how much difference counts as noise. Built-in rules on names and
//! units, overridable per metric in `reckon.toml`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Which way is better for a metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Higher,
    Lower,
    /// Neither: counts, configuration echoes, durations of a whole sweep.
    Neutral,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Higher => "higher",
            Direction::Lower => "lower",
            Direction::Neutral => "neutral",
        }
    }

    pub fn parse(s: &str) -> Option<Direction> {
        match s {
            "higher" | "higher_is_better" | "up" => Some(Direction::Higher),
            "lower" | "lower_is_better" | "down" => Some(Direction::Lower),
            "neutral" | "none" => Some(Direction::Neutral),
            _ => None,
        }
    }
}

/// The kind of a metric, which sets its default noise margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Throughput,
    /// Mean or median latency.
    Latency,
    /// p90/p95/p99/max/std latency.
    TailLatency,
    Other,
}

fn has_word(name: &str, word: &str) -> bool {
    name.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w.eq_ignore_ascii_case(word))
}

/// The unit a metric name implies (`_ms` → ms, `_s` → s, throughputs → tok/s
/// or req/s), if any. A rate's name (`ops_per_sec`, `tokens_per_s`,
/// `bytes_per_second`, `ops/s`) names a rate, never a time: the
/// unit of its kind where reckon knows it (tok/s, req/s, B/s, MB/s), else
/// none — `ops_per_sec` is a count per second, not seconds.
pub fn unit_from_name(name: &str) -> Option<&'static str> {
    if let Some(counted) = rate_of(name) {
        return unit_of_rate(counted);
    }
    let n = name.to_ascii_lowercase();
    if n.ends_with("_ms") || has_word(&n, "ms") {
        Some("ms")
    } else if n.ends_with("_us") {
        Some("us")
    } else if n.ends_with("_ns") {
        Some("ns")
    } else if n.contains("request_throughput") || n.contains("request_goodput") || n.contains("req_per_s") {
        // Rates before seconds: `tokens_per_s` ends in `_s` but is not a time.
        Some("req/s")
    } else if n.contains("throughput") || n.contains("tokens_per_s") || n.contains("token_per_s") {
        Some("tok/s")
    } else if n.ends_with("_s") || n.ends_with("_sec") || n.ends_with("_seconds") {
        Some("s")
    } else {
        None
    }
}

/// How a rate's name ends: per second, in each spelling names use. The
/// words (`per_sec`) end a name or follow a separator (`ops_per_sec`,
/// `ops-per-sec`; `hyper_s` is no rate); `persec` may be glued
/// (`opspersec`); `/s` follows the thing counted (`ops/s`). Not `_ps`:
/// it is as often picoseconds (`latency_ps`), and a time read as a rate
/// would be judged in the opposite direction — a wrong answer, not a
/// missing one.
const RATE_WORDS: [&str; 3] = ["per_second", "per_sec", "per_s"];
const RATE_GLUED: [&str; 4] = ["persecond", "persec", "/sec", "/s"];

/// The thing a rate's name counts per second (`ops` of `ops_per_sec`,
/// `tokens` of `output_tokens_per_s`, empty for `per_sec` alone), or
/// `None` when the name does not end as a rate's does.
pub fn rate_of(name: &str) -> Option<&str> {
    let lower = name.to_ascii_lowercase();
    let cut = |ending: &str| name.len() - ending.len();
    let word = RATE_WORDS.iter().find(|e| {
        lower.ends_with(*e) && lower[..cut(e)].chars().next_back().is_none_or(|c| !c.is_ascii_alphanumeric())
    });
    let glued = || RATE_GLUED.iter().find(|e| lower.ends_with(*e) && lower.len() > e.len());
    let ending = word.or_else(glued)?;
    // The ending is ASCII, so the name's bytes before it end on a character.
    Some(name[..cut(ending)].trim_end_matches(|c: char| !c.is_alphanumeric()))
}

/// The unit of a rate of `counted` things per second, where reckon knows
/// the kind (tokens, requests, bytes in each size); `None` for a count of
/// anything else (`ops`, `items`), whose rate reckon has no unit for.
fn unit_of_rate(counted: &str) -> Option<&'static str> {
    let last = counted.rsplit(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("").to_ascii_lowercase();
    Some(match last.as_str() {
        "tokens" | "token" | "tok" | "toks" => "tok/s",
        "requests" | "request" | "req" | "reqs" => "req/s",
        "bytes" | "byte" | "b" => "B/s",
        "kb" => "KB/s",
        "mb" => "MB/s",
        "gb" => "GB/s",
        "tb" => "TB/s",
        "kib" => "KiB/s",
        "mib" => "MiB/s",
        "gib" => "GiB/s",
        _ => return None,
    })
}

/// Whether a unit may be written after a number in a claim, and so in
/// reckon.toml's `[metrics.NAME] unit`: one reckon knows ([`unit_scale`]),
/// `%`, or a rate of things reckon does not know per unit of time
/// (`ops/s`, `img/s`, `items/min`), which converts only to itself.
pub fn is_writable_unit(unit: &str) -> bool {
    unit == "%" || unit_scale(unit).is_some() || is_opaque_rate(unit)
}

/// A rate of a thing reckon has no unit for, per a unit of time: a word, a
/// slash and a time (`ops/s`, `elem/s`, `items/min`).
pub fn is_opaque_rate(unit: &str) -> bool {
    rate_written_at(unit).is_some_and(|r| r.len() == unit.len())
        && unit.rsplit_once('/').is_some_and(|(_, per)| dimension(per) == Some("time"))
}

/// What a unit measures and its size in that dimension's base unit
/// (seconds, tokens or requests per second, bytes, bytes per second): `ms`
/// → (time, 0.001).
/// `None` for a unit reckon does not know. Every spelling of micro (`us`,
/// `µs` with the micro sign or the Greek mu) is accepted.
pub fn unit_scale(unit: &str) -> Option<(&'static str, f64)> {
    UNITS.iter().find(|(name, _, _)| *name == unit).map(|(_, dimension, size)| (*dimension, *size))
}

/// The units of a dimension (`time`: ns, us, µs, …, h), every spelling,
/// with their sizes in its base unit.
pub fn units_of(dimension: &str) -> impl Iterator<Item = (&'static str, f64)> + '_ {
    UNITS.iter().filter(move |(_, d, _)| *d == dimension).map(|(name, _, size)| (*name, *size))
}

/// The units reckon knows, by what they measure, for a message: "time:
/// `ns`, `us`, …; token rate: `tok/s`, …".
pub fn known_units() -> String {
    let mut dimensions: Vec<&str> = Vec::new();
    for (_, d, _) in UNITS {
        if !dimensions.contains(&d) {
            dimensions.push(d);
        }
    }
    let by: Vec<String> = dimensions
        .iter()
        .map(|d| {
            let names: Vec<String> = units_of(d).map(|(n, _)| format!("`{n}`")).collect();
            format!("{d}: {}", names.join(", "))
        })
        .collect();
    by.join("; ")
}

/// Every unit reckon knows: its spelling, what it measures, and its size in
/// that dimension's base unit. Every spelling of micro (`us`, `µs` with the
/// micro sign or the Greek mu) is one.
const UNITS: [(&str, &str, f64); 30] = [
    ("ns", "time", 1e-9),
    ("us", "time", 1e-6),
    ("µs", "time", 1e-6),
    ("μs", "time", 1e-6),
    ("ms", "time", 1e-3),
    ("s", "time", 1.0),
    ("sec", "time", 1.0),
    ("min", "time", 60.0),
    ("h", "time", 3600.0),
    ("tok/s", "token rate", 1.0),
    ("tokens/s", "token rate", 1.0),
    ("req/s", "request rate", 1.0),
    ("requests/s", "request rate", 1.0),
    ("req/min", "request rate", 1.0 / 60.0),
    ("requests/min", "request rate", 1.0 / 60.0),
    ("B", "bytes", 1.0),
    ("KB", "bytes", 1e3),
    ("MB", "bytes", 1e6),
    ("GB", "bytes", 1e9),
    ("KiB", "bytes", 1024.0),
    ("MiB", "bytes", 1048576.0),
    ("GiB", "bytes", 1073741824.0),
    // Byte rates, as gbench's `bytes_per_second` and nvbench's
    // `global_mem_bw` are kept (B/s).
    ("B/s", "byte rate", 1.0),
    ("KB/s", "byte rate", 1e3),
    ("MB/s", "byte rate", 1e6),
    ("GB/s", "byte rate", 1e9),
    ("TB/s", "byte rate", 1e12),
    ("KiB/s", "byte rate", 1024.0),
    ("MiB/s", "byte rate", 1048576.0),
    ("GiB/s", "byte rate", 1073741824.0),
];

/// A rate written at the start of `text` (`MB/s`, `img/s`): a word, a
/// slash and a word, ending there.
pub fn rate_written_at(text: &str) -> Option<&str> {
    let word = |s: &str| -> usize {
        s.chars().take_while(|c| c.is_alphabetic() || matches!(c, 'µ' | 'μ')).map(char::len_utf8).sum()
    };
    let top = word(text);
    if top == 0 || !text[top..].starts_with('/') {
        return None;
    }
    let end = top + 1 + word(&text[top + 1..]);
    let ends = text[end..].chars().next().is_none_or(|c| !c.is_alphanumeric() && c != '_');
    (end > top + 1 && ends).then(|| &text[..end])
}

/// Whether a logged 0 of a metric can be the signature of a failed run
/// rather than a measurement: vLLM logs 0 for every metric of a run whose
/// requests all failed, and no working system has a throughput or a
/// latency of 0. A metric where lower is better and that is not a time (an
/// error count, an error rate, a miss count) has a real 0: no errors. A
/// signed metric ([`is_signed`]) has real zeros and negatives: never.
pub fn zero_signals_failure(name: &str, direction: Direction, unit: Option<&str>) -> bool {
    !is_signed(name)
        && !is_score(name)
        && (direction != Direction::Lower || unit.and_then(unit_scale).is_some_and(|(dim, _)| dim == "time"))
}

/// Words naming a score: a fraction of questions answered or of look-ups
/// served (see [`is_score`]).
const SCORES: [&str; 3] = ["acc", "accuracy", "f1"];

/// Whether a metric is a score whose 0 is a result, not a failed run:
/// lm-eval's `exact_match` of 0 is an answer pattern that never matched
/// (a broken chat template), an accuracy of 0 a model that got every
/// question wrong, a hit rate of 0 a cache that served nothing.
pub fn is_score(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    SCORES.iter().any(|w| has_word(&n, w)) || n.contains("exact_match") || n.contains("hit_rate")
}

/// Words naming a signed quantity: a change or a difference of another
/// measurement (see [`is_signed`]).
const SIGNED: [&str; 4] = ["change", "delta", "diff", "difference"];

/// Whether a metric is signed by nature: a change or a difference of
/// another measurement (criterion's `mean_change`, a relative change that
/// is negative when the code got faster; a `delta`, a `diff`), whose 0
/// and negative values are measurements, not failed runs. Its level is
/// read as it is (a bound on the value itself); no ratio of two of its
/// values means anything.
pub fn is_signed(name: &str) -> bool {
    SIGNED.iter().any(|w| has_word(name, w))
}

/// How a value given in one unit is written in another of the same
/// dimension: unchanged, or one multiplication or division by the ratio of
/// the units (a whole number where the ratio is one — 1000 for ms → µs, so
/// 1.5 ms is 1500 µs exactly; the result is the correctly rounded product
/// or quotient, never two roundings).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Conversion {
    Same,
    Times(f64),
    Over(f64),
}

impl Conversion {
    /// From `from` to `to`: `None` when either unit is unknown to reckon
    /// (and they are not the same text) or they measure different things.
    pub fn between(from: &str, to: &str) -> Option<Conversion> {
        if from == to {
            return Some(Conversion::Same);
        }
        let (dim_from, scale_from) = unit_scale(from)?;
        let (dim_to, scale_to) = unit_scale(to)?;
        if dim_from != dim_to {
            return None;
        }
        let whole = |r: f64| {
            let rounded = r.round();
            ((r - rounded).abs() <= rounded * 1e-12).then_some(rounded)
        };
        Some(if scale_from == scale_to {
            Conversion::Same
        } else if scale_from > scale_to {
            let ratio = scale_from / scale_to;
            Conversion::Times(whole(ratio).unwrap_or(ratio))
        } else {
            let ratio = scale_to / scale_from;
            whole(ratio).map_or(Conversion::Times(scale_from / scale_to), Conversion::Over)
        })
    }

    /// The value in the target unit (NaN stays NaN).
    pub fn apply(self, value: f64) -> f64 {
        match self {
            Conversion::Same => value,
            Conversion::Times(k) => value * k,
            Conversion::Over(k) => value / k,
        }
    }
}

/// The unit a metric is shown in, of the units its logs give it in (all
/// of one dimension, or one text reckon does not know): the finest —
/// criterion's ns over hyperfine's s, GenAI-Perf's ms over guidellm's s —
/// and of two spellings of one size (`us`, `µs`) the first bytewise. It
/// depends on which units there are, never on the order the logs came
/// in; and a value converted into the finest unit is multiplied by a
/// whole ratio (1000, 1e9), where a coarser one would divide.
pub fn shown_unit<'a>(units: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let scale = |u: &str| unit_scale(u).map_or(f64::NAN, |(_, k)| k);
    units.into_iter().min_by(|a, b| scale(a).total_cmp(&scale(b)).then_with(|| a.cmp(b)))
}

/// The dimension of a unit reckon knows (`time`, `bytes`, …).
pub fn dimension(unit: &str) -> Option<&'static str> {
    unit_scale(unit).map(|(dim, _)| dim)
}

/// The names a metric holding the standard error of `metric`'s value in
/// the same run may have, as tools spell them: lm-eval's `acc_stderr`
/// beside `acc`, criterion's `mean_change_standard_error` beside
/// `mean_change` (each estimate's bootstrap standard error). The noise of
/// that value, which the judge takes as its spread, never a metric judged
/// better or worse itself. Each is the metric's own name with a suffix, so
/// no name pairs with another metric's error.
pub fn standard_error_of(metric: &str) -> [String; 2] {
    [format!("{metric}_stderr"), format!("{metric}_standard_error")]
}

/// Parts of names that say a metric without a unit is a fraction of a
/// whole, found anywhere in the name (`gpu_util`, `sm_occupancy`, `mfu`);
/// and words that must stand alone, since they hide inside others
/// (`hit_rate` but not `iterations`, `hit_ratio`, Google Benchmark's
/// `real_time_cv`, nvbench's `gpu_noise`, lm-eval's `acc`).
const FRACTION_PARTS: [&str; 6] = ["fraction", "util", "mfu", "accuracy", "occupancy", "efficiency"];
const FRACTION_WORDS: [&str; 7] = ["rate", "ratio", "frac", "share", "noise", "cv", "acc"];

/// Whether a metric's name says it is a fraction, so that a percent
/// written about it (`< 5%`, `77%`) may be 0.05, 0.77. The name alone does
/// not say whether it is logged as 0.05 or as 5: a caller checks that its
/// values lie in 0..=1 (lint's reading of `77%` and the judge's of `< 5%`
/// alike).
pub fn is_fraction_by_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    FRACTION_PARTS.iter().any(|w| n.contains(w)) || FRACTION_WORDS.iter().any(|w| has_word(&n, w))
}

/// Words naming a spread of another metric (see [`direction_from_name`]).
const SPREADS: [&str; 9] = ["stderr", "std", "stddev", "stdev", "variance", "cv", "iqr", "sem", "mad"];
/// Spreads named in more than one word, found anywhere in the name
/// (criterion's `mean_standard_error` and `median_abs_dev`).
const SPREAD_PHRASES: [&str; 4] = ["standard_error", "std_err", "abs_dev", "absolute_deviation"];

/// Whether a metric's name says it is the spread of another metric of its
/// run (a standard error, deviation, CV, IQR, MAD): no performance metric,
/// with no better direction unless a project gives it one.
pub fn is_spread(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    SPREADS.iter().any(|w| has_word(&n, w)) || SPREAD_PHRASES.iter().any(|p| n.contains(p))
}

/// Whether higher or lower is better, from the metric's name and unit.
pub fn direction_from_name(name: &str, unit: Option<&str>) -> Direction {
    let n = name.to_ascii_lowercase();
    // A spread of another metric of the same run — a standard error
    // (lm-eval's `acc_stderr`), a standard deviation over requests, rounds
    // or repetitions (`std_ttft_ms`, pytest's and hyperfine's `stddev`,
    // Google Benchmark's `real_time_stddev`, criterion's `std_dev`), a
    // coefficient of variation, an IQR — is the noise of that metric, no
    // better for being larger or smaller: no performance metric to judge.
    if is_spread(&n) {
        return Direction::Neutral;
    }
    let higher = [
        "throughput",
        "goodput",
        "tok/s",
        "tokens_per_s",
        "token_per_s",
        "accept_length",
        "acceptance",
        "per_s",
        "per_sec",
        "speedup",
        "ops",
        "qps",
        "rps",
        "hit_rate",
        "accuracy",
        "acc",
        "exact_match",
        // lm-eval's other accuracies: 0.3's `multiple_choice_grade` and
        // `exact_str_match` (BIG-bench), TruthfulQA's `mc1`, `mc2`.
        "multiple_choice_grade",
        "exact_str_match",
        "mc1",
        "mc2",
        "f1",
        "bandwidth",
        "flops",
    ];
    let lower = [
        "latency",
        "ttft",
        "itl",
        "tpot",
        "e2el",
        "error",
        "errors",
        "failed",
        "duration",
        "time",
        "miss",
        "jitter",
        "loss",
        "perplexity",
        "ppl",
    ];
    if higher.iter().any(|w| n.contains(w) && (w.len() > 3 || has_word(&n, w))) || rate_of(&n).is_some() {
        return Direction::Higher;
    }
    if let Some(u) = unit {
        let u = u.to_ascii_lowercase();
        if u.contains("/s") || u.contains("/min") || u.ends_with("ps") {
            return Direction::Higher;
        }
        // Every unit of time alike (`µs`, `min` as `ms`): a metric's
        // direction must not hang on which of its logs' units it is shown in.
        if matches!(u.as_str(), "seconds") || dimension(&u) == Some("time") {
            return Direction::Lower;
        }
    }
    if n.ends_with("_ms") || n.ends_with("_s") || n.ends_with("_us") || n.ends_with("_ns") {
        return Direction::Lower;
    }
    if lower.iter().any(|w| has_word(&n, w) || n.contains(&format!("{w}_")) || n.ends_with(w)) {
        return Direction::Lower;
    }
    Direction::Neutral
}

/// Whether a word of a name is a percentile in the tail (`p75`, `p90`,
/// `p95`, `p99`, `p999`, `p99.9` as `p99`): `p` and digits reading as 75
/// or more. `p50` is the median, a middle as the mean is, and `p25` or
/// `p10` lie below it: neither is a tail.
fn is_tail_percentile(word: &str) -> bool {
    let Some(digits) = word.strip_prefix(['p', 'P']) else { return false };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    // `p999` is 99.9: the percentile is the first two digits (`p5` is 5).
    let whole: u32 = digits.bytes().take(2).fold(0, |acc, b| acc * 10 + u32::from(b - b'0'));
    whole >= 75
}

/// The kind of a metric for noise margins: a latency's mean or median
/// (`mean_ttft_ms`, `p50_us`, `median_itl_ms`) gets the latency margin, a
/// tail's (`p99_us`, `p999_ms`, `max_latency`, a standard deviation) the
/// wider tail-latency margin.
pub fn kind_of(name: &str, direction: Direction) -> Kind {
    let n = name.to_ascii_lowercase();
    match direction {
        Direction::Higher => Kind::Throughput,
        Direction::Lower => {
            let tail = n.split(|c: char| !c.is_ascii_alphanumeric()).any(is_tail_percentile)
                || n.starts_with("max")
                || n.starts_with("std")
                || n.contains("stddev");
            if tail {
                Kind::TailLatency
            } else {
                Kind::Latency
            }
        }
        Direction::Neutral => Kind::Other,
    }
}

/// A project's practical margins δ: how much relative difference counts as
/// noise, per metric where reckon.toml says so, else by the metric's kind.
/// Handed to every stage that decides "beyond noise" as a plain value, so
/// none of them reads reckon.toml.
#[derive(Debug, Clone, PartialEq)]
pub struct Margins {
    /// reckon.toml's `margin` of a metric, by its canonical name.
    pub by_metric: BTreeMap<String, f64>,
    pub throughput: f64,
    /// Mean or median latency.
    pub latency: f64,
    pub tail_latency: f64,
    pub other: f64,
}

/// The defaults: 2% throughput, 5% mean and median latency, 10% tail
/// latency, 5% anything else.
impl Default for Margins {
    fn default() -> Self {
        Margins { by_metric: BTreeMap::new(), throughput: 0.02, latency: 0.05, tail_latency: 0.10, other: 0.05 }
    }
}

impl Margins {
    /// The margin of a metric: its own, else the one of its kind.
    pub fn of(&self, metric: &str, direction: Direction) -> f64 {
        match self.by_metric.get(metric) {
            Some(m) => *m,
            None => self.of_kind(kind_of(metric, direction)),
        }
    }

    fn of_kind(&self, kind: Kind) -> f64 {
        match kind {
            Kind::Throughput => self.throughput,
            Kind::Latency => self.latency,
            Kind::TailLatency => self.tail_latency,
            Kind::Other => self.other,
        }
    }
}

/// Formats a number the same way everywhere, deterministically: integers
/// without a fraction, others with up to 6 significant digits, no trailing
/// zeros.
// The casts lose nothing: an integer below 1e15 fits i64 exactly, the
// magnitude of a finite non-zero f64 is within ±330, and the clamped
// decimals are 0..=12.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub fn format_number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v == v.trunc() && v.abs() < 1e15 {
        return format!("{}", v as i64);
    }
    let mag = v.abs().log10().floor() as i32;
    let decimals = (5 - mag).clamp(0, 12) as usize;
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_follow_names_and_units() {
        assert_eq!(direction_from_name("output_throughput", None), Direction::Higher);
        assert_eq!(direction_from_name("accept_length", None), Direction::Higher);
        assert_eq!(direction_from_name("mean_ttft_ms", None), Direction::Lower);
        assert_eq!(direction_from_name("p99_itl_ms", None), Direction::Lower);
        assert_eq!(direction_from_name("median_decode_latency", None), Direction::Lower);
        assert_eq!(direction_from_name("mean", Some("s")), Direction::Lower);
        assert_eq!(direction_from_name("completed", None), Direction::Neutral);
        assert_eq!(direction_from_name("total_input_tokens", None), Direction::Neutral);
        // Training metrics.
        assert_eq!(direction_from_name("val_loss", None), Direction::Lower);
        assert_eq!(direction_from_name("eval_perplexity", None), Direction::Lower);
        assert_eq!(direction_from_name("val_acc", None), Direction::Higher);
        // Evaluation scores, and their standard errors (no direction).
        assert_eq!(direction_from_name("exact_match", None), Direction::Higher);
        assert_eq!(direction_from_name("acc_norm", None), Direction::Higher);
        assert_eq!(direction_from_name("multiple_choice_grade", None), Direction::Higher);
        assert_eq!(direction_from_name("multiple_choice_grade_stderr", None), Direction::Neutral);
        assert_eq!(direction_from_name("acc_stderr", None), Direction::Neutral);
        assert_eq!(direction_from_name("exact_match_stderr", None), Direction::Neutral);
        // Every spread of another metric alike: no direction, whatever its unit.
        for spread in [
            "std_ttft_ms",
            "stddev",
            "std_dev",
            "real_time_stddev",
            "cpu_time_cv",
            "iqr",
            "stddev_outliers",
            "mean_standard_error",
            "mean_change_standard_error",
            "median_abs_dev",
            "latency_sem",
        ] {
            assert_eq!(direction_from_name(spread, Some("s")), Direction::Neutral, "{spread}");
        }
        assert_eq!(direction_from_name("mean_ttft_ms", None), Direction::Lower);
        // A rate ending in `_s` is a rate, not seconds.
        assert_eq!(unit_from_name("tokens_per_s"), Some("tok/s"));
        assert_eq!(unit_from_name("step_time_s"), Some("s"));
        assert_eq!(unit_from_name("latency_sec"), Some("s"));
        // A rate per minute (llmperf's completed requests) is a rate.
        assert_eq!(direction_from_name("num_completed_requests_per_min", Some("req/min")), Direction::Higher);
        assert_eq!(unit_scale("req/min"), Some(("request rate", 1.0 / 60.0)));
    }

    #[test]
    fn a_rates_name_names_a_rate_never_a_time() {
        // Trial 5: `ops_per_sec` was stored in seconds.
        for (name, unit) in [
            ("ops_per_sec", None),
            ("ops_per_s", None),
            ("items_per_second", None),
            ("ops/s", None),
            ("opspersec", None),
            ("write-ops-per-sec", None),
            ("tokens_per_sec", Some("tok/s")),
            ("output_tokens_per_second", Some("tok/s")),
            ("requests_per_second", Some("req/s")),
            ("input_request_rate_req_per_s", Some("req/s")),
            ("bytes_per_sec", Some("B/s")),
            ("read_mb_per_s", Some("MB/s")),
        ] {
            assert_eq!(unit_from_name(name), unit, "{name}");
            assert_eq!(direction_from_name(name, None), Direction::Higher, "{name}");
            assert_eq!(kind_of(name, direction_from_name(name, None)), Kind::Throughput, "{name}");
        }
        assert_eq!(rate_of("ops_per_sec"), Some("ops"));
        assert_eq!(rate_of("hyper_s"), None);
        assert_eq!(rate_of("p99_s"), None);
        assert_eq!(rate_of("latency_ps"), None);
        assert_eq!(unit_from_name("hyper_s"), Some("s"));
        // What a claim and reckon.toml may write.
        for unit in ["ms", "tok/s", "%", "ops/s", "items/min", "elem/s"] {
            assert!(is_writable_unit(unit), "{unit}");
        }
        for unit in ["bogus", "ops", "ops/bogus", "tokens per second", "ks", "/s"] {
            assert!(!is_writable_unit(unit), "{unit}");
        }
    }

    #[test]
    fn tail_latencies_get_a_wider_margin() {
        assert_eq!(kind_of("p99_ttft_ms", Direction::Lower), Kind::TailLatency);
        assert_eq!(kind_of("median_ttft_ms", Direction::Lower), Kind::Latency);
        assert_eq!(Margins::default().of("output_throughput", Direction::Higher), 0.02);
        let mut margins = Margins::default();
        margins.by_metric.insert("p99_ttft_ms".into(), 0.25);
        assert_eq!(margins.of("p99_ttft_ms", Direction::Lower), 0.25);
        assert_eq!(margins.of("p99_itl_ms", Direction::Lower), 0.10);
        // A median is a middle, whatever it is called (trial 5: `p50_us` had
        // the 10% tail margin); every tail percentile is a tail.
        for median in ["p50_us", "latency_p50", "P50_ms", "median_us", "mean_us", "p25_ms"] {
            assert_eq!(kind_of(median, Direction::Lower), Kind::Latency, "{median}");
            assert_eq!(Margins::default().of(median, Direction::Lower), 0.05, "{median}");
        }
        for tail in ["p75_us", "p90_us", "p95_ms", "p99_us", "p999_us", "ttft_p99_ms", "p99.9_ms", "max_us", "std_ms"] {
            assert_eq!(kind_of(tail, Direction::Lower), Kind::TailLatency, "{tail}");
        }
    }

    #[test]
    fn units_of_one_dimension_convert_by_one_exact_step() {
        assert_eq!(Conversion::between("ms", "s"), Some(Conversion::Over(1000.0)));
        assert_eq!(Conversion::between("s", "ns"), Some(Conversion::Times(1e9)));
        assert_eq!(Conversion::between("us", "µs"), Some(Conversion::Same));
        assert_eq!(Conversion::between("ms", "tok/s"), None);
        assert_eq!(Conversion::between("elem/s", "ms"), None);
        assert_eq!(Conversion::between("elem/s", "elem/s"), Some(Conversion::Same));
        assert_eq!(Conversion::Over(1000.0).apply(1500.0), 1.5);
        assert_eq!(Conversion::between("ns", "us").map(|c| c.apply(1234.0)), Some(1.234));
        assert_eq!(Conversion::between("KiB", "KB").map(|c| c.apply(1000.0)), Some(1024.0));
    }

    #[test]
    fn the_shown_unit_is_the_finest_whatever_the_order() {
        for units in [["s", "ns", "ms"], ["ns", "ms", "s"], ["ms", "s", "ns"]] {
            assert_eq!(shown_unit(units), Some("ns"), "{units:?}");
        }
        assert_eq!(shown_unit(["µs", "us"]), Some("us"));
        assert_eq!(shown_unit(["us", "µs"]), Some("us"));
        assert_eq!(shown_unit(["KiB", "KB"]), Some("KB"));
        assert_eq!(shown_unit(["req/min", "req/s"]), Some("req/min"));
        assert_eq!(shown_unit(["elem/s"]), Some("elem/s"));
        assert_eq!(shown_unit(std::iter::empty()), None);
        // Its direction is the same in any unit of time.
        for unit in ["ns", "us", "µs", "μs", "ms", "s", "min", "h"] {
            assert_eq!(direction_from_name("mean", Some(unit)), Direction::Lower, "{unit}");
        }
    }

    #[test]
    fn numbers_format_deterministically() {
        assert_eq!(format_number(759.3), "759.3");
        assert_eq!(format_number(30.0), "30");
        assert_eq!(format_number(0.092340913), "0.0923409");
        assert_eq!(format_number(-0.0), "0");
        assert_eq!(format_number(f64::INFINITY), "inf");
    }
}
