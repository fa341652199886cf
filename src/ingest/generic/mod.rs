//! Generic CSV and JSON lines: any table of results a script wrote.
//!
//! Every field (a CSV column, a JSON key, nested keys flattened with dots as
//! `a.b.c`) is typed by one rule, the same for every field and both formats,
//! looking at all of the file's values of that field ([`role_of`]):
//!
//! 1. named in `[generic] params` / `metrics` of reckon.toml → that;
//! 2. a repeat marker (`repeat`, `run`, `seed`, `iteration`, `trial`, …, see
//!    [`crate::run::is_repeat_marker`]) → a param that never splits a cell:
//!    runs differing only in it are repeats;
//! 3. any value that is not a number (text, booleans) → param;
//! 4. a name that says the field is a setting of the run
//!    ([`is_identity_name`]: `*concurrency*`, `*_size`, `*_len`, `num_*`,
//!    `request_rate`, `threads`, `lr`, `dropout`, `epoch`, …), or a size
//!    chosen in round numbers (a thing then a size unit: `value_bytes`,
//!    `block_kb`; not `peak_rss_kb`) → param;
//! 5. a name that says it is a measurement ([`is_measurement_name`]: a unit
//!    suffix such as `_ms`, `_us`, `_s`, a word such as `throughput`,
//!    `latency`, `time`, `flops`, `bandwidth`, `errors`, a count of
//!    results such as `tokens`, `requests`, `completed`, `bytes`, or what a
//!    run used: `peak`, `mem`, `rss`, `evictions`, `util`) → metric, even
//!    when its values are round;
//! 6. otherwise, round whole numbers in every value ([`grid_value`]: written
//!    without a decimal point or exponent, and zero, of at most two
//!    significant digits, or an odd number up to 15 times a power of two)
//!    → param, the coordinates of a grid such as `M`, `N`, `K`, `heads`,
//!    `cache_mb`; anything else → metric.
//!
//! `null` and empty CSV cells are left out, arrays are skipped (per-item
//! detail). A field with no value at all in the file is not stored.

mod json_lines;
mod table;

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

pub use json_lines::{add_object, kind_of, parse_jsonl, parse_jsonl_rewind};
pub use table::{parse_csv, parse_csv_rewind, sniff_csv};

use super::log_format::{Chosen, Emit, LogFormat, Outcome, Sniff};
use crate::run::{RawRun, Value};
use crate::Result;

/// Which fields are params and which are metrics, when the default rules
/// get it wrong. Names are matched exactly (flattened JSON names with their
/// dots). `reckon.toml`'s `[generic]` table is read into it as is.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenericOptions {
    /// Names always stored as params.
    #[serde(default)]
    pub params: Vec<String>,
    /// Names always stored as metrics.
    #[serde(default)]
    pub metrics: Vec<String>,
}

/// What a field becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Param,
    Metric,
}

impl GenericOptions {
    /// True when there is nothing to override.
    pub fn is_empty(&self) -> bool {
        self.params.is_empty() && self.metrics.is_empty()
    }

    /// The role forced on `name`, if any.
    pub fn forced(&self, name: &str) -> Option<Role> {
        if self.params.iter().any(|p| p == name) {
            Some(Role::Param)
        } else if self.metrics.iter().any(|m| m == name) {
            Some(Role::Metric)
        } else {
            None
        }
    }
}

/// Whether a numeric field with this name is a setting of the run (an
/// independent variable or an identity) rather than a measurement:
/// `*concurrency*`, `batch_size`, `batch`, `*_size`, `*_len`, `*_length`,
/// `num_*`, `n_*`, `max_num_*`, `request_rate`, `rate`, `qps`, `threads`,
/// `size`, `tp`/`dp`/`pp`/`ep`, `timestamp`, and the repeat markers of
/// [`crate::run::is_repeat_marker`]. Case and `-`/space versus `_` do not
/// matter; a dotted name is judged by its last part.
pub fn is_identity_name(name: &str) -> bool {
    const EXACT: &[&str] = &[
        "batch_size",
        "batch",
        "bs",
        "request_rate",
        "rate",
        "qps",
        "rps",
        "threads",
        "num_threads",
        "size",
        "tp",
        "dp",
        "pp",
        "ep",
        "timestamp",
        "workers",
        "burstiness",
        "input_len",
        "output_len",
        // Training and sampling settings, often fractional (so rule 6
        // would not see them as a grid): learning rate, regularisation,
        // schedule position, sampling.
        "lr",
        "learning_rate",
        "dropout",
        "weight_decay",
        "momentum",
        "warmup",
        "warmup_steps",
        "epoch",
        "epochs",
        "step",
        "steps",
        "temperature",
        "top_p",
        "top_k",
    ];
    let n = leaf_name(name);
    EXACT.contains(&n.as_str())
        || crate::run::is_repeat_marker(&n)
        || n.contains("concurrency")
        || n.ends_with("_len")
        || n.ends_with("_length")
        || n.ends_with("_size")
        || n.starts_with("num_")
        || n.starts_with("n_")
        || n.starts_with("max_num_")
}

/// The last dotted part of a name, lower-case, with `-` and spaces as `_`.
fn leaf_name(name: &str) -> String {
    let leaf = name.rsplit('.').next().unwrap_or(name);
    leaf.chars().map(|c| if c == '-' || c == ' ' { '_' } else { c.to_ascii_lowercase() }).collect()
}

/// Words that make a field a measurement even without a unit: counts of
/// what a run produced and summary statistics.
const MEASUREMENT_WORDS: &[&str] = &[
    "tokens",
    "token",
    "requests",
    "completed",
    "successful",
    "count",
    "total",
    "bytes",
    "cycles",
    "instructions",
    "hits",
    "misses",
    "mean",
    "median",
    "avg",
    "average",
    "std",
    "p50",
    "p90",
    "p95",
    "p99",
    "score",
    "loss",
    "memory",
    // What a run used or did, whatever its values look like: peak memory
    // (`peak_rss_kb`, `peak_mem_gb`), evictions, utilisation.
    "peak",
    "mem",
    "rss",
    "used",
    "usage",
    "footprint",
    "allocated",
    "evictions",
    "eviction",
    "util",
    "utilization",
    "elapsed",
    "energy",
];

/// The last words of a name that make it a size in some unit.
const SIZE_UNITS: &[&str] = &["bytes", "kb", "mb", "gb", "tb", "kib", "mib", "gib"];

/// Words before a size unit that make it an amount moved, not a size chosen
/// (`read_bytes`, `tx_mb`).
const MOVED: &[&str] =
    &["read", "written", "write", "sent", "recv", "received", "rx", "tx", "freed", "copied", "transferred", "spilled"];

/// Whether a name is a size someone chose: a thing then a size unit
/// (`value_bytes`, `block_kb`, `cache_mb`), the thing not itself a
/// measurement (`peak_rss_kb`, `total_bytes`) nor an amount moved
/// (`read_bytes`).
fn is_sized_setting(name: &str) -> bool {
    let n = leaf_name(name);
    match n.rsplit_once('_') {
        Some((thing, unit)) => {
            SIZE_UNITS.contains(&unit)
                && !thing.is_empty()
                && !is_measurement_name(thing)
                && !thing.split('_').any(|w| MOVED.contains(&w))
        }
        None => false,
    }
}

/// Whether a field's name says it is a measurement: a unit the name implies
/// (`_ms`, `_us`, `_ns`, `_s`, throughputs), a better direction it implies
/// (`latency`, `time`, `throughput`, `flops`, `bandwidth`, `errors`, …, see
/// [`crate::metric::direction_from_name`]), or one of the words of counts
/// and statistics (`tokens`, `requests`, `completed`, `count`, `total`,
/// `bytes`, `cycles`, `mean`, `median`, `p99`, …).
pub fn is_measurement_name(name: &str) -> bool {
    let n = leaf_name(name);
    crate::metric::unit_from_name(&n).is_some()
        || crate::metric::direction_from_name(&n, None) != crate::metric::Direction::Neutral
        || n.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| MEASUREMENT_WORDS.contains(&w))
}

/// What the file's values of one field look like.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen {
    /// Some value is not a number (text, a boolean).
    pub text: bool,
    /// Some numeric value is not a grid coordinate ([`grid_value`]).
    pub off_grid: bool,
    /// Some value says something: a number, text, or the word `none`
    /// (`quantization = none` is a setting). A field whose every value is
    /// a "no value" marker (`n/a`, `-`, `?`, …) says nothing and is not
    /// stored: in a one-run file of an out-of-memory run, `mfu_pct = n/a`
    /// was kept as a param, its value the text `n/a`.
    pub says: bool,
}

impl Seen {
    /// Notes one numeric value, and whether it was written as a whole
    /// number.
    pub fn number(&mut self, value: f64, whole: bool) {
        self.off_grid |= !grid_value(value, whole);
        self.says = true;
    }

    /// Notes one text value (a cell or a JSON string that is not a number).
    pub fn text(&mut self, text: &str) {
        let marker = missing_marker(text);
        self.text |= !marker;
        self.says |= !marker || text.trim().eq_ignore_ascii_case("none");
    }

    /// The field's role by the module's rule, `None` when it says nothing
    /// (see [`Seen::says`]).
    pub fn role(self, name: &str, opts: &GenericOptions) -> Option<Role> {
        match opts.forced(name) {
            Some(role) => Some(role),
            None if self.says => Some(role_of(name, self)),
            None => None,
        }
    }
}

/// Whether a number looks like a coordinate of a grid someone chose rather
/// than a measurement: written as a whole number, and round — zero, at most
/// two significant digits (`8`, `96`, `250`, `3000`), or an odd number up
/// to 15 times a power of two (`1024`, `768`, `14336`). Measured counts
/// (`23270` evictions) are rarely round in every row.
pub fn grid_value(value: f64, whole: bool) -> bool {
    if !whole || !value.is_finite() || value.fract() != 0.0 || value.abs() >= 1e15 {
        return false;
    }
    // Whole, finite and below 1e15: the conversion is exact.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let mut v = value.abs() as u64;
    if v == 0 {
        return true;
    }
    let mut odd = v;
    while odd % 2 == 0 {
        odd /= 2;
    }
    if odd <= 15 {
        return true;
    }
    while v % 10 == 0 {
        v /= 10;
    }
    v < 100
}

/// The role of a field by the module's rule (steps 2 to 6; the overrides of
/// step 1 are the caller's).
pub fn role_of(name: &str, seen: Seen) -> Role {
    if crate::run::is_repeat_marker(name) || seen.text || is_identity_name(name) {
        Role::Param
    } else if is_sized_setting(name) && !seen.off_grid {
        // `value_bytes` in round sizes: chosen, though `bytes` names a
        // measurement elsewhere.
        Role::Param
    } else if is_measurement_name(name) || seen.off_grid {
        Role::Metric
    } else {
        Role::Param
    }
}

/// Whether number text is written as a whole number: digits with an
/// optional sign, no point, no exponent.
pub(super) fn written_whole(text: &str) -> bool {
    let t = text.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Moves fields between params and metrics as `opts` forces, for formats
/// whose own rules decided first. A param forced to a metric must read as a
/// number; the message says which one does not.
pub fn apply_overrides(run: &mut RawRun, opts: &GenericOptions) -> std::result::Result<(), String> {
    if opts.is_empty() {
        return Ok(());
    }
    let mut i = 0;
    while i < run.params.len() {
        if opts.forced(&run.params[i].0) == Some(Role::Metric) {
            let (name, value) = run.params.remove(i);
            let Some(v) = value.as_f64().or(match &value {
                Value::Text(t) if t.eq_ignore_ascii_case("nan") => Some(f64::NAN),
                _ => None,
            }) else {
                return Err(format!(
                    "`{name}` is set to be a metric in reckon.toml, but its value `{value}` is not a number"
                ));
            };
            run.metric(name, v);
        } else {
            i += 1;
        }
    }
    let mut i = 0;
    while i < run.metrics.len() {
        if opts.forced(&run.metrics[i].name) == Some(Role::Param) {
            let m = run.metrics.remove(i);
            run.param(m.name, Value::Num(m.value));
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// Whether a cell says "no value here" the way spreadsheets and scripts
/// write it (`n/a`, `NA`, `null`, `none`, `-`, `?`). Such a cell neither
/// makes its column text — one `n/a` once turned a whole file's `hit_rate`
/// into a param, silently hiding that sweep's measurements — nor becomes a
/// metric value; in a column that is a param anyway it stays a value
/// (`quantization = none` is a setting).
pub(super) fn missing_marker(text: &str) -> bool {
    const MARKERS: [&str; 8] = ["n/a", "na", "null", "none", "-", "--", "?", "\u{2014}"];
    let t = text.trim();
    MARKERS.iter().any(|m| t.eq_ignore_ascii_case(m))
}

/// Any CSV with a header row.
pub struct Csv;

impl LogFormat for Csv {
    const NAME: &'static str = "csv";

    /// A header row and the same number of delimiters on each line.
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff_csv(sniff.text).is_some()
    }

    /// Lines stream: the reader bounds each one.
    fn parse(path: &Path, input: &mut dyn BufRead, _: LineBytes, emit: Emit) -> Result<Outcome> {
        parse_csv(path, input, &GenericOptions::default(), emit)
    }
}

/// Any JSON lines file of flat-ish objects.
pub struct Jsonl;

impl LogFormat for Jsonl {
    const NAME: &'static str = "jsonl";

    /// JSON objects no other format claims (asked last).
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff.json.is_some()
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        parse_jsonl(path, input, &GenericOptions::default(), limit, Chosen::Detected, emit)
    }
}

/// An input that can be read again from its start (a file). CSV and JSON
/// lines are read twice: once to type every field from all its values,
/// once to emit the runs, so memory stays bounded by one record whatever
/// the file's size (a 2 GiB CSV once took 14 GiB held whole).
pub trait Rewind: BufRead {
    fn rewind(&mut self) -> std::io::Result<()>;
}

impl<R: BufRead + std::io::Seek> Rewind for R {
    fn rewind(&mut self) -> std::io::Result<()> {
        self.seek(std::io::SeekFrom::Start(0)).map(|_| ())
    }
}

#[cfg(test)]
mod tests;
