//! JSON lines of flat-ish objects: nested keys flattened with dots, every
//! field typed from all the file's records, read in two passes.

use std::io::BufRead;
use std::path::Path;

use serde_json::Value as Json;

use super::super::log_format::{Emit, Outcome};
use super::super::pyjson;
use super::{missing_marker, number, GenericOptions, Rewind, Role, Seen};
use crate::run::{RawRun, Value};
use crate::{Error, Result};

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
    role: &dyn Fn(&str) -> Option<Role>,
) -> std::result::Result<(), String> {
    for (name, field) in fields {
        let Some(role) = role(&name) else { continue };
        match (role, field) {
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
            let mut seen = Seen::default();
            match f {
                JsonField::Num(x, whole) => seen.number(*x, *whole),
                JsonField::Text(t) => seen.text(t),
            }
            (name.clone(), seen)
        })
        .collect();
    add_fields(run, fields, &|name| seen.get(name).copied().unwrap_or_default().role(name, opts))
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
                JsonField::Text(t) => s.text(t),
            }
        }
        Ok(())
    })?;
    let roles: std::collections::HashMap<String, Role> =
        seen.into_iter().filter_map(|(name, s)| s.role(&name, opts).map(|r| (name, r))).collect();
    input.rewind().map_err(|e| Error::io(path, e))?;
    pyjson::read_records(path, &mut *input, &mut |line, value| {
        let obj = record_object(path, line, value)?;
        let mut fields = Vec::new();
        flatten("", &obj, &mut fields);
        let mut run = RawRun::new(line);
        add_fields(&mut run, fields, &|name| roles.get(name).copied()).map_err(|m| Error::malformed(path, line, m))?;
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
