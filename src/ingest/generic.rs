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
//!    `request_rate`, `threads`, `lr`, `dropout`, `epoch`, …) → param;
//! 5. a name that says it is a measurement ([`is_measurement_name`]: a unit
//!    suffix such as `_ms`, `_us`, `_s`, a word such as `throughput`,
//!    `latency`, `time`, `flops`, `bandwidth`, `errors`, or a count of
//!    results such as `tokens`, `requests`, `completed`, `bytes`) → metric;
//! 6. otherwise, round whole numbers in every value ([`grid_value`]: written
//!    without a decimal point or exponent, and zero, of at most two
//!    significant digits, or an odd number up to 15 times a power of two)
//!    → param, the coordinates of a grid such as `M`, `N`, `K`, `heads`,
//!    `cache_mb`; anything else → metric.
//!
//! `null` and empty CSV cells are left out, arrays are skipped (per-item
//! detail). A field with no value at all in the file is not stored.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::default_trait_access,
    clippy::items_after_statements,
    clippy::needless_pass_by_value
)] // floor-plan debt (issue 7): fix these and delete this line

use std::io::{BufRead, Read};
use std::path::Path;

use serde_json::Value as Json;

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::pyjson;
use crate::run::{RawRun, Value};
use crate::{Error, Result};

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
    let n = leaf_name(name);
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
];

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
}

impl Seen {
    /// Notes one numeric value, and whether it was written as a whole
    /// number.
    pub fn number(&mut self, value: f64, whole: bool) {
        self.off_grid |= !grid_value(value, whole);
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
    } else if is_measurement_name(name) || seen.off_grid {
        Role::Metric
    } else {
        Role::Param
    }
}

/// Whether number text is written as a whole number: digits with an
/// optional sign, no point, no exponent.
fn written_whole(text: &str) -> bool {
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
fn missing_marker(text: &str) -> bool {
    const MARKERS: [&str; 8] = ["n/a", "na", "null", "none", "-", "--", "?", "\u{2014}"];
    let t = text.trim();
    MARKERS.iter().any(|m| t.eq_ignore_ascii_case(m))
}

/// Reads a cell or string as a number the way a CSV means it: decimal,
/// exponent, `inf`, `nan` (any case).
fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    // Rust accepts "infinity"/"nan" in any case, which is what Python and
    // spreadsheets write; reject things like "1_000" it would not anyway.
    t.parse::<f64>().ok()
}

/// Any CSV with a header row.
pub struct Csv;

impl LogFormat for Csv {
    const NAME: &'static str = "csv";

    /// A header row and the same number of delimiters on each line.
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff_csv(sniff.text).is_some()
    }

    fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
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

    fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
        parse_jsonl(path, input, &GenericOptions::default(), emit)
    }
}

/// The delimiter of a CSV head, when the first lines look like a table with
/// a header row: the same number (≥ 1) of one of `,` tab `;` `|` outside
/// quotes on each of at least two lines, and a header with no numeric cell.
pub fn sniff_csv(head: &[u8]) -> Option<u8> {
    let text = std::str::from_utf8(head).ok().or_else(|| {
        // A head cut in the middle of a character: use the valid prefix.
        std::str::from_utf8(&head[..head.len().saturating_sub(3)]).ok()
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Only complete lines count: the last one may be cut.
    let complete = match text.rfind('\n') {
        Some(i) => &text[..i],
        None => text,
    };
    let lines: Vec<&str> = complete.lines().filter(|l| !l.trim().is_empty()).take(50).collect();
    if lines.len() < 2 {
        return None;
    }
    let mut best: Option<(u8, usize)> = None;
    for d in [b',', b'\t', b';', b'|'] {
        let counts: Vec<usize> = lines.iter().map(|l| count_outside_quotes(l.as_bytes(), d)).collect();
        let n = counts[0];
        // Most rows agreeing with the header is enough to call it CSV: the
        // parser then names the row that does not, at its line.
        let agreeing = counts.iter().filter(|&&c| c == n).count();
        if n >= 1 && agreeing * 5 >= lines.len() * 4 && best.is_none_or(|(_, b)| n > b) {
            best = Some((d, n));
        }
    }
    let (d, _) = best?;
    let header_ok =
        lines[0].split(d as char).map(|c| c.trim().trim_matches('"')).all(|c| c.is_empty() || number(c).is_none())
            && lines[0].split(d as char).any(|c| !c.trim().trim_matches('"').is_empty());
    header_ok.then_some(d)
}

fn count_outside_quotes(line: &[u8], d: u8) -> usize {
    let mut quoted = false;
    let mut n = 0;
    for &b in line {
        if b == b'"' {
            quoted = !quoted;
        } else if b == d && !quoted {
            n += 1;
        }
    }
    n
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

/// Parses a CSV with a header row, from any input: it is read into memory
/// first (a file is better given to [`parse_csv_rewind`], which streams).
pub fn parse_csv(path: &Path, input: &mut dyn BufRead, opts: &GenericOptions, emit: Emit) -> Result<Outcome> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
    parse_csv_rewind(path, &mut std::io::Cursor::new(bytes), opts, emit)
}

/// A CSV reader over a rewindable input, its header line read back in.
type CsvReader<'a> = csv::Reader<std::io::Chain<std::io::Cursor<Vec<u8>>, &'a mut dyn Rewind>>;

/// A CSV reader over `input` past its header row, and the header. The
/// delimiter is the one of `,` tab `;` `|` the header uses most.
fn csv_open<'a>(path: &Path, input: &'a mut dyn Rewind) -> Result<(CsvReader<'a>, csv::StringRecord)> {
    let mut first = Vec::new();
    input.read_until(b'\n', &mut first).map_err(|e| Error::io(path, e))?;
    if first.starts_with(b"\xEF\xBB\xBF") {
        first.drain(..3);
    }
    let delimiter = [b',', b'\t', b';', b'|']
        .into_iter()
        .max_by_key(|&d| (count_outside_quotes(&first, d), d == b','))
        .filter(|&d| count_outside_quotes(&first, d) > 0)
        .unwrap_or(b',');
    let reader = std::io::Cursor::new(first).chain(input);
    let mut csv =
        csv::ReaderBuilder::new().delimiter(delimiter).has_headers(true).trim(csv::Trim::All).from_reader(reader);
    let headers = csv.headers().map_err(|e| csv_error(path, e))?.clone();
    Ok((csv, headers))
}

/// Reads each non-blank row with its line number.
fn csv_rows<R: Read>(
    path: &Path,
    csv: &mut csv::Reader<R>,
    each: &mut dyn FnMut(u64, &csv::StringRecord) -> Result<()>,
) -> Result<()> {
    let mut record = csv::StringRecord::new();
    loop {
        match csv.read_record(&mut record) {
            Ok(true) => {
                if record.iter().all(str::is_empty) {
                    continue;
                }
                each(record.position().map_or(0, csv::Position::line), &record)?;
            }
            Ok(false) => return Ok(()),
            Err(e) => return Err(csv_error(path, e)),
        }
    }
}

/// Parses a CSV with a header row in two passes over `input`: the first
/// types each column by the module's rule from all its non-empty cells, the
/// second emits one run per row.
pub fn parse_csv_rewind(path: &Path, input: &mut dyn Rewind, opts: &GenericOptions, emit: Emit) -> Result<Outcome> {
    let (mut csv, headers) = csv_open(path, input)?;
    if headers.is_empty() {
        return Err(Error::UnknownFormat {
            path: path.to_path_buf(),
            msg: "the CSV file is empty: it needs a header row and one row per run".into(),
        });
    }
    for (i, h) in headers.iter().enumerate() {
        if !h.is_empty() && headers.iter().take(i).any(|o| o == h) {
            return Err(Error::malformed(
                path,
                1,
                format!("the header names column `{h}` twice; give every column its own name"),
            ));
        }
    }

    // Pass 1: what each column's non-empty cells look like.
    let mut seen: Vec<Option<Seen>> = vec![None; headers.len()];
    csv_rows(path, &mut csv, &mut |_, row| {
        for (i, c) in row.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
            let Some(slot) = seen.get_mut(i) else { continue };
            let s = slot.get_or_insert_with(Seen::default);
            match number(c) {
                None if missing_marker(c) => {}
                None => s.text = true,
                Some(v) => s.number(v, written_whole(c)),
            }
        }
        Ok(())
    })?;
    drop(csv);
    // Each column's role by the module's rule, from all its non-empty cells.
    let roles: Vec<Option<Role>> = headers
        .iter()
        .zip(&seen)
        .map(|(name, seen)| {
            if name.is_empty() {
                // An unnamed column is the index pandas writes: not data.
                return None;
            }
            if let Some(r) = opts.forced(name) {
                return Some(r);
            }
            seen.map(|s| role_of(name, s))
        })
        .collect();

    // Pass 2: the runs.
    input.rewind().map_err(|e| Error::io(path, e))?;
    let (mut csv, _) = csv_open(path, input)?;
    csv_rows(path, &mut csv, &mut |line, row| {
        let mut run = RawRun::new(line);
        for (i, cell) in row.iter().enumerate() {
            let (Some(Some(role)), Some(name)) = (roles.get(i), headers.get(i)) else {
                continue;
            };
            if cell.is_empty() {
                continue;
            }
            match role {
                Role::Param => run.param(name, Value::from_label(cell)),
                Role::Metric => match number(cell) {
                    Some(v) => run.metric(name, v),
                    None if missing_marker(cell) => {}
                    None => {
                        return Err(Error::malformed(
                            path,
                            line,
                            format!("column `{name}` is set to be a metric in reckon.toml, but this row has `{cell}`, which is not a number"),
                        ))
                    }
                },
            }
        }
        emit(run)
    })?;
    Ok(Outcome::default())
}

fn csv_error(path: &Path, e: csv::Error) -> Error {
    let line = e.position().map_or(0, csv::Position::line);
    match e.kind() {
        csv::ErrorKind::Io(_) => Error::io(path, std::io::Error::other(e.to_string())),
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => Error::malformed(
            path,
            line,
            format!("this row has {len} fields but the header has {expected_len}; every row needs one cell per column"),
        ),
        csv::ErrorKind::Utf8 { .. } => Error::malformed(path, line, "this row is not valid UTF-8 text"),
        _ => Error::malformed(path, line, e.to_string()),
    }
}

/// One field of a JSON record, flattened, before its role is known.
#[derive(Debug, Clone)]
enum JsonField {
    /// A number and whether it was written as a whole number.
    Num(f64, bool),
    Text(String),
}

/// Flattens a JSON object's fields with dotted names, skipping `null` and
/// arrays; strings holding `Infinity`/`NaN` read as numbers.
fn flatten(prefix: &str, obj: &serde_json::Map<String, Json>, out: &mut Vec<(String, JsonField)>) {
    for (k, v) in obj {
        let name = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        match v {
            Json::Null | Json::Array(_) => {}
            Json::Object(o) => flatten(&name, o, out),
            Json::Bool(b) => out.push((name, JsonField::Text(b.to_string()))),
            Json::Number(n) => {
                if let Some(x) = n.as_f64() {
                    out.push((name, JsonField::Num(x, !n.is_f64())));
                }
            }
            Json::String(s) => match pyjson::sentinel_f64(s) {
                Some(x) => out.push((name, JsonField::Num(x, false))),
                None => out.push((name, JsonField::Text(s.clone()))),
            },
        }
    }
}

/// Adds flattened fields to a run, each in the role `role` gives its name.
fn add_fields(
    run: &mut RawRun,
    fields: Vec<(String, JsonField)>,
    role: &dyn Fn(&str) -> Role,
) -> std::result::Result<(), String> {
    for (name, field) in fields {
        match (role(&name), field) {
            (Role::Metric, JsonField::Num(x, _)) => run.metric(name, x),
            (Role::Metric, JsonField::Text(s)) => match number(&s) {
                Some(x) => run.metric(name, x),
                None if missing_marker(&s) => {}
                None => {
                    return Err(format!(
                        "`{name}` is set to be a metric in reckon.toml, but its value `{s}` is not a number"
                    ))
                }
            },
            (Role::Param, JsonField::Num(x, _)) => run.param(name, Value::Num(x)),
            (Role::Param, JsonField::Text(s)) => run.param(name, Value::Text(s)),
        }
    }
    Ok(())
}

/// Adds the fields of one JSON object to a run by the module's rule, judging
/// each field by this object's value alone (for formats that read one
/// object at a time).
pub fn add_object(
    run: &mut RawRun,
    prefix: &str,
    obj: &serde_json::Map<String, Json>,
    opts: &GenericOptions,
) -> std::result::Result<(), String> {
    let mut fields = Vec::new();
    flatten(prefix, obj, &mut fields);
    let seen: std::collections::HashMap<String, Seen> = fields
        .iter()
        .map(|(name, f)| {
            let seen = match f {
                JsonField::Num(x, whole) => {
                    let mut s = Seen::default();
                    s.number(*x, *whole);
                    s
                }
                JsonField::Text(t) => Seen { text: !missing_marker(t), off_grid: false },
            };
            (name.clone(), seen)
        })
        .collect();
    add_fields(run, fields, &|name| {
        opts.forced(name).unwrap_or_else(|| role_of(name, seen.get(name).copied().unwrap_or_default()))
    })
}

/// Parses JSON lines of objects (one run per line), or one JSON document
/// holding an object (one run) or an array of objects (one run each), from
/// any input: it is read into memory first (a file is better given to
/// [`parse_jsonl_rewind`], which streams).
pub fn parse_jsonl(path: &Path, input: &mut dyn BufRead, opts: &GenericOptions, emit: Emit) -> Result<Outcome> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
    parse_jsonl_rewind(path, &mut std::io::Cursor::new(bytes), opts, emit)
}

/// A record as a JSON object, or the error saying what it is instead.
fn record_object(path: &Path, line: u64, value: Json) -> Result<serde_json::Map<String, Json>> {
    match value {
        Json::Object(obj) => Ok(obj),
        other => {
            Err(Error::malformed(path, line, format!("expected a JSON object (one run), found {}", kind_of(&other))))
        }
    }
}

/// [`parse_jsonl`] in two passes over `input`: the first types each field
/// by the module's rule from all its values, the second emits the runs.
pub fn parse_jsonl_rewind(path: &Path, input: &mut dyn Rewind, opts: &GenericOptions, emit: Emit) -> Result<Outcome> {
    let mut seen: std::collections::HashMap<String, Seen> = std::collections::HashMap::new();
    let mut fields = Vec::new();
    pyjson::read_records(path, &mut *input, &mut |line, value| {
        let obj = record_object(path, line, value)?;
        fields.clear();
        flatten("", &obj, &mut fields);
        for (name, f) in &fields {
            let s = match seen.get_mut(name) {
                Some(s) => s,
                None => seen.entry(name.clone()).or_default(),
            };
            match f {
                JsonField::Num(x, whole) => s.number(*x, *whole),
                JsonField::Text(t) => s.text |= !missing_marker(t),
            }
        }
        Ok(())
    })?;
    let roles: std::collections::HashMap<String, Role> = seen
        .into_iter()
        .map(|(name, s)| {
            let role = opts.forced(&name).unwrap_or_else(|| role_of(&name, s));
            (name, role)
        })
        .collect();
    input.rewind().map_err(|e| Error::io(path, e))?;
    pyjson::read_records(path, &mut *input, &mut |line, value| {
        let obj = record_object(path, line, value)?;
        let mut fields = Vec::new();
        flatten("", &obj, &mut fields);
        let mut run = RawRun::new(line);
        add_fields(&mut run, fields, &|name| roles.get(name).copied().unwrap_or(Role::Param))
            .map_err(|m| Error::malformed(path, line, m))?;
        emit(run)
    })?;
    Ok(Outcome::default())
}

/// A short name for the kind of a JSON value, for messages.
pub fn kind_of(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(s) if pyjson::sentinel_f64(s).is_some() => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv_runs(text: &str, opts: &GenericOptions) -> Result<Vec<RawRun>> {
        let parse = |path: &Path, input: &mut dyn BufRead, emit: Emit| parse_csv(path, input, opts, emit);
        Ok(crate::ingest::log_format::collect_with("t.csv", text, parse)?.0)
    }

    #[test]
    fn csv_columns_take_roles_from_all_rows() {
        let text = "config,concurrency,tput,note\nbase,8,100.5,ok\nbase,16,180,\n\"eagle, v2\",32,nan,7\n";
        let runs = csv_runs(text, &GenericOptions::default()).unwrap();
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[0].line, 2);
        assert_eq!(runs[2].line, 4);
        assert_eq!(
            runs[0].params,
            vec![
                ("config".into(), Value::Text("base".into())),
                ("concurrency".into(), Value::Num(8.0)),
                ("note".into(), Value::Text("ok".into()))
            ]
        );
        assert_eq!(runs[0].metrics[0].name, "tput");
        assert_eq!(runs[0].metrics[0].value, 100.5);
        // Empty cell left out; mixed column `note` is a param.
        assert_eq!(runs[1].params.len(), 2);
        assert_eq!(runs[2].params[0].1, Value::Text("eagle, v2".into()));
        assert_eq!(runs[2].params[2], ("note".into(), Value::Num(7.0)));
        assert!(runs[2].metrics[0].value.is_nan());
    }

    #[test]
    fn csv_overrides_and_errors() {
        let opts = GenericOptions { params: vec!["tput".into()], metrics: vec!["concurrency".into()] };
        let runs = csv_runs("concurrency;tput\n8;1\n", &opts).unwrap();
        assert_eq!(runs[0].params, vec![("tput".into(), Value::Num(1.0))]);
        assert_eq!(runs[0].metrics[0].name, "concurrency");
        let opts = GenericOptions { params: vec![], metrics: vec!["name".into()] };
        let e = csv_runs("name,x\nabc,1\n", &opts).unwrap_err().to_string();
        assert_eq!(e, "t.csv:2: column `name` is set to be a metric in reckon.toml, but this row has `abc`, which is not a number");
        let e = csv_runs("a,b\n1,2\n3\n", &GenericOptions::default()).unwrap_err().to_string();
        assert_eq!(e, "t.csv:3: this row has 1 fields but the header has 2; every row needs one cell per column");
    }

    #[test]
    fn csv_sniffing() {
        assert_eq!(sniff_csv(b"a,b,c\n1,2,3\n4,5,6\n"), Some(b','));
        assert_eq!(sniff_csv(b"a\tb\n1\t2\n"), Some(b'\t'));
        assert_eq!(sniff_csv(b"1,2\n3,4\n"), None, "no header row");
        assert_eq!(sniff_csv(b"hello, world\nthis is prose\n"), None);
    }

    #[test]
    fn identity_names() {
        for n in [
            "concurrency",
            "max_concurrency",
            "batch_size",
            "input_len",
            "num_prompts",
            "request_rate",
            "Threads",
            "server.tp_size",
            "run",
            "lr",
            "learning-rate",
            "dropout",
            "step",
        ] {
            assert!(is_identity_name(n), "{n}");
        }
        for n in ["output_throughput", "mean_ttft_ms", "completed", "max_concurrent_requests", "duration"] {
            assert!(!is_identity_name(n), "{n}");
        }
    }

    #[test]
    fn jsonl_flattens_objects_and_skips_arrays() {
        let text = "{\"a\": {\"b\": 1.5, \"c\": \"x\"}, \"l\": [1, 2], \"n\": null, \"t\": true, \"batch_size\": 4, \"r\": NaN}\n";
        let (runs, _) = crate::ingest::log_format::collect::<Jsonl>("t.jsonl", text).unwrap();
        let r = &runs[0];
        assert_eq!(
            r.params,
            vec![
                ("a.c".into(), Value::Text("x".into())),
                ("batch_size".into(), Value::Num(4.0)),
                ("t".into(), Value::Text("true".into()))
            ]
        );
        assert_eq!(r.metrics.len(), 2);
        assert_eq!(r.metrics[0].name, "a.b");
        assert!(r.metrics[1].value.is_nan());
    }

    #[test]
    fn one_rule_types_every_column_of_a_kernel_grid() {
        // M, N, K are the grid; `repeat` marks repeats; the latency in µs
        // is a metric by its unit even where a row writes it whole.
        let text = "kernel,M,N,K,repeat,latency_us,tflops,note\n\
                    tiled,1024,1024,1024,1,12.5,171.2,ok\n\
                    tiled,1024,1024,1024,2,13,165.1,ok\n\
                    tiled,4096,4096,4096,1,640.25,214.7,retry\n";
        let runs = csv_runs(text, &GenericOptions::default()).unwrap();
        let names = |r: &RawRun| r.params.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(names(&runs[0]), ["kernel", "M", "N", "K", "repeat", "note"]);
        let metrics: Vec<&str> = runs[1].metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(metrics, ["latency_us", "tflops"]);
        assert_eq!(runs[1].metrics[0].value, 13.0);
        // A whole-number column with a fraction in any row is a metric, and
        // so is one with a number no one would choose as a setting.
        let runs = csv_runs("config,speed\na,3\nb,3.5\n", &GenericOptions::default()).unwrap();
        assert_eq!(runs[0].metrics[0].name, "speed");
        let runs = csv_runs("policy,cache_mb,evictions\nlru,64,23270\nlru,256,4096\n", &Default::default()).unwrap();
        assert_eq!(runs[1].params[1], ("cache_mb".into(), Value::Num(256.0)));
        assert_eq!(runs[1].metrics[0].name, "evictions");
        // `[generic]` still decides first.
        let opts = GenericOptions { params: vec![], metrics: vec!["M".into()] };
        let runs = csv_runs(text, &opts).unwrap();
        assert_eq!(runs[0].metrics[0].name, "M");
    }

    #[test]
    fn missing_values_neither_make_a_column_text_nor_become_measurements() {
        // One `n/a` and one `-` among hit rates: still a metric, absent
        // from those two runs only.
        let text = "policy,cache_mb,hit_rate\nlru,64,0.52\nlru,256,n/a\nlfu,64,-\nlfu,256,0.71\n";
        let runs = csv_runs(text, &GenericOptions::default()).unwrap();
        assert_eq!(runs.len(), 4);
        let rates: Vec<usize> = runs.iter().map(|r| r.metrics.len()).collect();
        assert_eq!(rates, [1, 0, 0, 1]);
        assert_eq!(runs[3].metrics[0].name, "hit_rate");
        assert!(runs.iter().all(|r| r.params.iter().all(|(n, _)| n != "hit_rate")));
        // A text column keeps `none` as its value: it is a setting there.
        let runs = csv_runs("quant,tput\nnone,10.5\nfp8,12.25\n", &GenericOptions::default()).unwrap();
        assert_eq!(runs[0].params[0], ("quant".into(), Value::Text("none".into())));
        // The same in JSON lines, where `null` was already skipped.
        let text = "{\"cache_mb\": 64, \"hit_rate\": 0.52}\n{\"cache_mb\": 256, \"hit_rate\": \"n/a\"}\n";
        let mut runs = Vec::new();
        let mut input = std::io::Cursor::new(text.as_bytes().to_vec());
        parse_jsonl_rewind(Path::new("t.jsonl"), &mut input, &GenericOptions::default(), &mut |r| {
            runs.push(r);
            Ok(())
        })
        .unwrap();
        assert_eq!(runs[0].metrics[0].name, "hit_rate");
        assert!(runs[1].metrics.is_empty() && runs[1].params.iter().all(|(n, _)| n != "hit_rate"));
    }

    #[test]
    fn jsonl_fields_take_roles_from_every_record() {
        // `score` is whole in the first record and fractional in the
        // second: a metric in both. `M` is whole throughout: a param.
        let text = "{\"M\": 512, \"score\": 3, \"seed\": 7}\n{\"M\": 1024, \"score\": 3.5, \"seed\": 8}\n";
        let (runs, _) = crate::ingest::log_format::collect::<Jsonl>("t.jsonl", text).unwrap();
        for r in &runs {
            assert_eq!(r.params.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["M", "seed"]);
            assert_eq!(r.metrics.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["score"]);
        }
        assert_eq!(runs[0].metrics[0].value, 3.0);
    }

    #[test]
    fn round_numbers_are_grid_values() {
        for v in [0.0, 1.0, 7.0, 16.0, 96.0, 250.0, 768.0, 1024.0, 3000.0, 14336.0, 65536.0, -8.0] {
            assert!(grid_value(v, true), "{v}");
        }
        for v in [23270.0, 45628.0, 137.0, 1001.0] {
            assert!(!grid_value(v, true), "{v}");
        }
        assert!(!grid_value(1024.0, false), "written with a point");
        assert!(!grid_value(f64::INFINITY, true));
    }

    #[test]
    fn names_that_say_measurement() {
        for n in
            ["latency_us", "mean_ttft_ms", "tflops", "output_throughput", "total_output_tokens", "completed", "errors"]
        {
            assert!(is_measurement_name(n), "{n}");
        }
        for n in ["M", "K", "kernel", "heads", "stages"] {
            assert!(!is_measurement_name(n), "{n}");
        }
    }
}
