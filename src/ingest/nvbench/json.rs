//! nvbench's JSON: `{meta, devices: [...], benchmarks: [{name, axes,
//! states: [{device, axis_values, summaries: [{tag, name, hint, data}]}]}]}`,
//! every value written as text with its type beside it.

use crate::ingest::LineBytes;
use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;

use super::super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::super::pyjson::{self, Doc, Object};
use super::Namer;
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// The settings of a state, stored as params.
const SETTINGS: &[&str] = &["min_samples", "min_time", "max_noise", "skip_time", "timeout"];

/// `nvbench --json FILE`.
pub struct NvbenchJson;

impl LogFormat for NvbenchJson {
    const NAME: &'static str = "nvbench-json";

    /// `benchmarks` whose entries hold `states`, beside `devices` or
    /// `meta`.
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff.json.is_some_and(|s| {
            s.first == Some(b'{') && s.has("benchmarks") && s.has_deep("states") && (s.has("devices") || s.has("meta"))
        })
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::super::limit::read_document(path, input, limit)?;
        let mut scratch = Vec::new();
        let (value, text) = pyjson::parse_doc(&doc, &mut scratch).map_err(|e| e.into_error(path, 1))?;
        let Some(benchmarks) = value.get("benchmarks").and_then(Doc::as_array) else {
            return Err(Error::malformed(path, 1, "expected `{\"benchmarks\": [...]}` as nvbench --json writes it"));
        };
        let devices: Vec<(f64, String)> = value
            .get("devices")
            .and_then(Doc::as_array)
            .into_iter()
            .flatten()
            .filter_map(|d| Some((d.get("id").and_then(Doc::as_f64)?, d.get("name")?.as_str()?.to_string())))
            .collect();
        let mut notes = BTreeSet::new();
        if value.get("devices").is_some() {
            notes.insert("`devices[]` describes the GPUs: each run keeps its device's id and name".to_string());
        }
        if value.get("meta").is_some() {
            notes.insert("`meta` (nvbench's version and command line) is not stored".to_string());
        }
        let mut places = Places::new(text, value.as_object());
        let mut skipped: Vec<String> = Vec::new();
        for (i, bench) in benchmarks.iter().enumerate() {
            let Doc::Obj(bench) = bench else {
                return Err(Error::malformed(path, 1, "expected an object for each nvbench benchmark"));
            };
            let name = bench.get("name").and_then(Doc::as_str).unwrap_or_default();
            if bench.get("axes").is_some_and(|a| !a.is_null()) {
                notes.insert("`axes` lists the values the states hold (each state's are its params)".to_string());
            }
            let states = bench.get("states").and_then(Doc::as_array).unwrap_or_default();
            let lines = places.state_lines(i, bench, states);
            for (j, state) in states.iter().enumerate() {
                let line = lines.get(j).copied().unwrap_or(1);
                let Doc::Obj(state) = state else {
                    return Err(Error::malformed(path, line, "expected an object for each nvbench state"));
                };
                if state.get("is_skipped").and_then(Doc::as_bool) == Some(true) {
                    let state_name = state.get("name").and_then(Doc::as_str).unwrap_or_default();
                    let why = state.get("skip_reason").and_then(Doc::as_str).unwrap_or("no reason given");
                    skipped.push(format!("`{name} {state_name}` at line {line} ({why})"));
                    continue;
                }
                emit(state_run(path, line, name, state, &devices)?)?;
            }
        }
        notes.insert("`index` and `type_config_index` number the benchmarks and type configurations".to_string());
        if !skipped.is_empty() {
            // Each skipped state by name, with nvbench's reason (the first
            // few: a sweep can skip hundreds for one reason).
            let n = skipped.len();
            let more = if n > 5 { format!(", and {} more", n - 5) } else { String::new() };
            skipped.truncate(5);
            notes.insert(format!(
                "{n} state{} nvbench skipped hold{} no measurement: {}{more}",
                if n == 1 { "" } else { "s" },
                if n == 1 { "s" } else { "" },
                skipped.join(", ")
            ));
        }
        Ok(Outcome { skipped: notes.into_iter().collect(), ..Outcome::default() })
    }
}

/// The lines the states of each benchmark start on. Each state object knows
/// its place in the text; where one does not (an empty state, a first key
/// with an escape) or a key is repeated (the text's first `benchmarks` or
/// `states` is not the one read), the elements of the text's arrays are
/// found by scanning it, as before.
struct Places<'t> {
    text: &'t [u8],
    lines: pyjson::Lines<'t>,
    /// Each benchmark's start, scanned for once the first is needed.
    scanned: Option<Vec<usize>>,
    top_repeats: bool,
}

impl<'t> Places<'t> {
    fn new(text: &'t [u8], top: Option<&Object<'_>>) -> Self {
        let top_repeats = top.is_some_and(Object::repeats_a_key);
        Places { text, lines: pyjson::Lines::new(text), scanned: None, top_repeats }
    }

    fn state_lines(&mut self, bench_index: usize, bench: &Object<'_>, states: &[Doc<'_>]) -> Vec<u64> {
        let known: Option<Vec<usize>> = if self.top_repeats || bench.repeats_a_key() {
            None
        } else {
            states.iter().map(|s| s.as_object().and_then(|o| o.offset_in(self.text))).collect()
        };
        let starts = if let Some(starts) = known {
            starts
        } else {
            let text = self.text;
            let benches = self.scanned.get_or_insert_with(|| element_starts(text, 0, "benchmarks"));
            let at = benches.get(bench_index).copied().unwrap_or(0);
            element_starts(text, at, "states")
        };
        starts.iter().map(|&o| self.lines.of(o)).collect()
    }
}

/// The byte offsets of the elements of the array under `key` in the
/// object starting at `at`.
fn element_starts(doc: &[u8], at: usize, key: &str) -> Vec<usize> {
    let Some(value) = pyjson::member_offset(&doc[at..], key) else { return Vec::new() };
    let start = at + value;
    pyjson::array_element_offsets(&doc[start..], 0).into_iter().map(|o| o + start).collect()
}

/// A value nvbench wrote as text with its type: a number for the numeric
/// types.
fn typed(v: &Object<'_>) -> Option<Value> {
    let text = match v.get("value")? {
        Doc::Str(s) => s.as_ref(),
        other => return other.as_f64().map(Value::Num),
    };
    let numeric = v.get("type").and_then(Doc::as_str).is_some_and(|t| t.starts_with("int") || t.starts_with("float"));
    Some(match crate::syntax::read_logged(text) {
        Some(x) if numeric => Value::Num(x),
        _ => Value::Text(text.to_string()),
    })
}

fn state_run(path: &Path, line: u64, bench: &str, state: &Object<'_>, devices: &[(f64, String)]) -> Result<RawRun> {
    let mut run = RawRun::new(line);
    run.param("benchmark", Value::Text(bench.to_string()));
    if let Some(id) = state.get("device").and_then(Doc::as_f64) {
        run.param("device", Value::Num(id));
        if let Some((_, name)) = devices.iter().find(|(d, _)| *d == id) {
            run.param("device_name", Value::Text(name.clone()));
        }
    }
    for axis in state.get("axis_values").and_then(Doc::as_array).into_iter().flatten() {
        let Doc::Obj(axis) = axis else { continue };
        if let (Some(name), Some(v)) = (axis.get("name").and_then(Doc::as_str), typed(axis)) {
            run.param(name, v);
        }
    }
    for key in SETTINGS {
        if let Some(x) = state.get(key).and_then(Doc::as_f64) {
            run.param(*key, Value::Num(x));
        }
    }
    let mut namer = Namer::default();
    for summary in state.get("summaries").and_then(Doc::as_array).into_iter().flatten() {
        let Doc::Obj(s) = summary else { continue };
        let name = s.get("name").and_then(Doc::as_str).unwrap_or_default();
        let hint = s.get("hint").and_then(Doc::as_str);
        let tag = s.get("tag").and_then(Doc::as_str).unwrap_or_default();
        let (mut metric, unit) = namer.name(name, hint);
        if tag.contains("/batch/") && !metric.starts_with("batch_") {
            metric = format!("batch_{metric}");
        }
        let data = s.get("data").and_then(Doc::as_array).into_iter().flatten().filter_map(Doc::as_object);
        let Some(value) = data.into_iter().find(|d| d.get("name").and_then(Doc::as_str) == Some("value")) else {
            continue;
        };
        let x = match typed(value) {
            Some(Value::Num(x)) => x,
            Some(Value::Text(t)) => {
                return Err(Error::malformed(path, line, format!("summary `{name}` holds `{t}`, expected a number")))
            }
            None => continue,
        };
        match unit {
            Some(u) => run.metric_with_unit(metric, x, u),
            None => run.metric(metric, x),
        }
    }
    Ok(run)
}
