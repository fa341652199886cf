//! JSON lines of flat-ish objects: nested keys flattened with dots, every
//! field typed from all the file's records, read in two passes.

use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;

use serde_json::Value as Json;

use super::super::log_format::{Chosen, Emit, Outcome};
use super::super::{log_time, pyjson};
use super::{missing_marker, written_whole, GenericOptions, Rewind, Role, Seen};
use crate::ingest::LineBytes;
use crate::run::{RawRun, Value};
use crate::syntax::read_padded;
use crate::{Error, Result};

/// One field of a JSON record, flattened, before its role is known.
#[derive(Debug, Clone)]
enum JsonField {
    /// A number and whether it was written as a whole number.
    Num(f64, bool),
    Text(String),
}

impl JsonField {
    /// Notes this value in what its field's values look like. A string is
    /// typed as a CSV cell with the same text is — one that reads as a
    /// number (`"NaN"`, `"1e3"`, `"100.5"`) counts as that number — so the
    /// same data give the same params and metrics as JSON lines and as CSV
    /// (one `"NaN"` of a failed run turned a whole metric column into a
    /// param).
    fn note(&self, seen: &mut Seen) {
        match self {
            JsonField::Num(x, whole) => seen.number(*x, *whole),
            JsonField::Text(t) => match read_padded(t) {
                Some(x) => seen.number(x, written_whole(t)),
                None => seen.text(t),
            },
        }
    }
}

/// A record read for the generic reader: its fields flattened, the run's
/// time when a time-like top-level field holds one, and the arrays left out.
#[derive(Debug, Default)]
struct Flat {
    fields: Vec<(String, JsonField)>,
    time: Option<String>,
    dropped: Vec<(String, Unread)>,
}

/// An array the generic reader does not store, and what it holds.
#[derive(Debug, Clone, Copy, Default)]
struct Unread {
    /// Elements that are objects or arrays holding numbers: results in a
    /// layout reckon does not know.
    structured: usize,
    /// Of those, objects (the rest are lists).
    objects: usize,
    /// Numbers anywhere inside it.
    numbers: usize,
}

impl Flat {
    fn of(obj: &serde_json::Map<String, Json>) -> Flat {
        let mut flat = Flat::default();
        flat.add("", obj);
        flat
    }

    /// Flattens a JSON object's fields with dotted names, skipping `null`
    /// and noting arrays; strings holding `Infinity`/`NaN` read as numbers.
    fn add(&mut self, prefix: &str, obj: &serde_json::Map<String, Json>) {
        // A bare `time` gives way to a `timestamp`, `date`, … beside it.
        let named_time = prefix.is_empty()
            && obj.iter().any(|(k, v)| {
                log_time::is_time_name(k)
                    && !log_time::is_bare_time(k)
                    && match v {
                        Json::String(s) => log_time::from_text(s).is_some(),
                        other => pyjson::as_f64(other).and_then(log_time::from_epoch).is_some(),
                    }
            });
        for (k, v) in obj {
            let name = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
            if prefix.is_empty() && log_time::is_time_name(k) && !(named_time && log_time::is_bare_time(k)) {
                let time = match v {
                    Json::String(s) => log_time::from_named_text(k, s),
                    other => pyjson::as_f64(other).and_then(|v| log_time::from_named_epoch(k, v)),
                };
                if let Some(time) = time {
                    // The first time-like field is the run's time; another
                    // one is no param either.
                    self.time.get_or_insert(time);
                    continue;
                }
            }
            match v {
                Json::Null => {}
                Json::Array(items) => {
                    let unread = unread(items);
                    if unread.numbers > 0 {
                        self.dropped.push((name, unread));
                    }
                }
                Json::Object(o) => self.add(&name, o),
                Json::Bool(b) => self.fields.push((name, JsonField::Text(b.to_string()))),
                Json::Number(n) => {
                    if let Some(x) = n.as_f64() {
                        self.fields.push((name, JsonField::Num(x, !n.is_f64())));
                    }
                }
                Json::String(s) => match pyjson::sentinel_f64(s) {
                    Some(x) => self.fields.push((name, JsonField::Num(x, false))),
                    None => self.fields.push((name, JsonField::Text(s.clone()))),
                },
            }
        }
    }
}

/// What an array the generic reader leaves out holds.
fn unread(items: &[Json]) -> Unread {
    let mut u = Unread::default();
    for item in items {
        let n = numbers_in(item);
        u.numbers += n;
        if n > 0 && matches!(item, Json::Object(_) | Json::Array(_)) {
            u.structured += 1;
            u.objects += usize::from(matches!(item, Json::Object(_)));
        }
    }
    u
}

fn numbers_in(v: &Json) -> usize {
    match v {
        Json::Number(_) => 1,
        Json::String(s) if pyjson::sentinel_f64(s).is_some() => 1,
        Json::Array(a) => a.iter().map(numbers_in).sum(),
        Json::Object(o) => o.values().map(numbers_in).sum(),
        _ => 0,
    }
}

/// Adds flattened fields to a run, each in the role `role` gives its name.
fn add_fields(
    run: &mut RawRun,
    fields: Vec<(String, JsonField)>,
    role: &dyn Fn(&str) -> Option<Role>,
) -> std::result::Result<(), String> {
    for (name, field) in fields {
        let Some(role) = role(&name) else { continue };
        match (role, field) {
            (Role::Metric, JsonField::Num(x, _)) => run.metric(name, x),
            (Role::Metric, JsonField::Text(s)) => match read_padded(&s) {
                Some(x) => run.metric(name, x),
                None if missing_marker(&s) => {}
                None => {
                    return Err(format!(
                        "`{name}` is set to be a metric in reckon.toml, but its value `{s}` is not a number"
                    ))
                }
            },
            (Role::Param, JsonField::Num(x, _)) => run.param(name, Value::Num(x)),
            // As a CSV cell: text that reads as a finite number is that number.
            (Role::Param, JsonField::Text(s)) => run.param(name, Value::from_label(&s)),
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
    let mut flat = Flat::default();
    flat.add(prefix, obj);
    if let Some(time) = flat.time {
        run.time.get_or_insert(time);
    }
    let fields = flat.fields;
    let seen: std::collections::HashMap<String, Seen> = fields
        .iter()
        .map(|(name, f)| {
            let mut seen = Seen::default();
            f.note(&mut seen);
            (name.clone(), seen)
        })
        .collect();
    add_fields(run, fields, &|name| seen.get(name).copied().unwrap_or_default().role(name, opts))
}

/// Parses JSON lines of objects (one run per line), or one JSON document
/// holding an object (one run) or an array of objects (one run each), from
/// any input: it is read into memory first (a file is better given to
/// [`parse_jsonl_rewind`], which streams).
pub fn parse_jsonl(
    path: &Path,
    input: &mut dyn BufRead,
    opts: &GenericOptions,
    limit: LineBytes,
    chosen: Chosen,
    emit: Emit,
) -> Result<Outcome> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
    parse_jsonl_rewind(path, &mut std::io::Cursor::new(bytes), opts, limit, chosen, emit)
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
///
/// Nothing numeric is left behind without a word. Lists of numbers
/// (per-request latencies, raw samples) are named in the outcome as not
/// stored. Arrays of objects or of lists holding numbers are results in a
/// layout no reader of reckon knows: a file detected as generic JSON is
/// refused, naming them and where they start, before any run is emitted;
/// named with `--format jsonl`, its top-level fields are read and the
/// outcome says what was not.
pub fn parse_jsonl_rewind(
    path: &Path,
    input: &mut dyn Rewind,
    opts: &GenericOptions,
    limit: LineBytes,
    chosen: Chosen,
    emit: Emit,
) -> Result<Outcome> {
    let mut seen: std::collections::HashMap<String, Seen> = std::collections::HashMap::new();
    let mut unread = Unreads::default();
    pyjson::read_records(path, &mut *input, limit, &mut |line, value| {
        let obj = record_object(path, line, value)?;
        let flat = Flat::of(&obj);
        unread.note(line, flat.dropped);
        for (name, f) in &flat.fields {
            let s = match seen.get_mut(name) {
                Some(s) => s,
                None => seen.entry(name.clone()).or_default(),
            };
            f.note(s);
        }
        Ok(())
    })?;
    if chosen == Chosen::Detected {
        if let Some((line, msg)) = unread.refusal() {
            return Err(Error::malformed(path, line, msg));
        }
    }
    let roles: std::collections::HashMap<String, Role> =
        seen.into_iter().filter_map(|(name, s)| s.role(&name, opts).map(|r| (name, r))).collect();
    input.rewind().map_err(|e| Error::io(path, e))?;
    pyjson::read_records(path, &mut *input, limit, &mut |line, value| {
        let obj = record_object(path, line, value)?;
        let flat = Flat::of(&obj);
        let mut run = RawRun::new(line);
        run.time = flat.time;
        add_fields(&mut run, flat.fields, &|name| roles.get(name).copied())
            .map_err(|m| Error::malformed(path, line, m))?;
        emit(run)
    })?;
    Ok(unread.outcome())
}

/// The arrays a file's records leave out, by flattened name, with the line
/// of the first record holding each.
#[derive(Debug, Default)]
struct Unreads {
    by_name: std::collections::BTreeMap<String, (u64, Unread)>,
}

impl Unreads {
    fn note(&mut self, line: u64, dropped: Vec<(String, Unread)>) {
        for (name, u) in dropped {
            let slot = self.by_name.entry(name).or_insert((line, Unread::default()));
            slot.1.structured += u.structured;
            slot.1.objects += u.objects;
            slot.1.numbers += u.numbers;
        }
    }

    /// The arrays of results, as said in a message.
    fn results(&self) -> Vec<String> {
        self.by_name
            .iter()
            .filter(|(_, (_, u))| u.structured > 0)
            .map(|(name, (_, u))| {
                let lists = u.structured - u.objects;
                let what = match (u.objects, lists) {
                    (n, 0) => format!("{n} result{}", plural(n)),
                    (0, n) => format!("{n} list{}", plural(n)),
                    (o, l) => format!("{o} result{} and {l} list{}", plural(o), plural(l)),
                };
                format!("`{name}[]`: {what} ({} numbers) not read", u.numbers)
            })
            .collect()
    }

    /// Why a detected file is refused, at the line of its first array of
    /// results.
    fn refusal(&self) -> Option<(u64, String)> {
        let line = self.by_name.values().filter(|(_, u)| u.structured > 0).map(|(l, _)| *l).min()?;
        Some((
            line,
            format!(
                "{} — reckon does not know this layout, and would drop them; \
                 use --format jsonl to read only the fields outside arrays, \
                 or write one JSON object per run (JSON lines) and ingest that",
                listed(&self.results())
            ),
        ))
    }

    /// What a parse that went ahead says it did not store.
    fn outcome(&self) -> Outcome {
        let mut outcome = Outcome::default();
        let results = self.results();
        if !results.is_empty() {
            outcome.skipped.push(format!("{}: --format jsonl reads the fields outside arrays only", listed(&results)));
        }
        let lists: Vec<String> = self
            .by_name
            .iter()
            .filter(|(_, (_, u))| u.structured == 0)
            .map(|(name, (_, u))| format!("`{name}[]` ({} numbers)", u.numbers))
            .collect();
        if !lists.is_empty() {
            outcome.skipped.push(format!(
                "per-item lists {} are not stored; reckon keeps the fields outside them",
                listed(&lists)
            ));
        }
        outcome
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Up to three items, then how many more.
fn listed(items: &[String]) -> String {
    let mut text = items.iter().take(3).cloned().collect::<Vec<_>>().join("; ");
    if items.len() > 3 {
        let _ = write!(text, "; and {} more arrays", items.len() - 3);
    }
    text
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
