//! Google Benchmark's JSON reporter: `{"context": {…}, "benchmarks": […]}`.

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use super::super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::super::log_time;
use super::super::pyjson::{self, Doc, Object};
use super::{emit_rows, Row, Shared};
use crate::run::Value;
use crate::{Error, Result};

/// Keys of a benchmark row that are not values of the run.
const ROW_KEYS: &[&str] = &[
    "name",
    "run_name",
    "run_type",
    "family_index",
    "per_family_instance_index",
    "repetitions",
    "repetition_index",
    "threads",
    "iterations",
    "time_unit",
    "aggregate_name",
    "aggregate_unit",
    "label",
    "error_occurred",
    "error_message",
    "big_o",
    "real_coefficient",
    "cpu_coefficient",
    "rms",
];

/// Keys of a benchmark row that hold numbers.
const NUMBER_KEYS: &[&str] = &[
    "family_index",
    "per_family_instance_index",
    "repetitions",
    "repetition_index",
    "threads",
    "iterations",
    "real_coefficient",
    "cpu_coefficient",
    "rms",
];

/// `--benchmark_format=json` / `--benchmark_out_format=json`.
pub struct GbenchJson;

impl LogFormat for GbenchJson {
    const NAME: &'static str = "gbench-json";

    /// `benchmarks` with `context`, or rows holding `real_time` or
    /// `run_type`.
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff.json.is_some_and(|s| {
            s.first == Some(b'{')
                && s.has("benchmarks")
                && (s.has("context") || s.has_deep("real_time") || s.has_deep("run_type"))
        })
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::super::limit::read_document(path, input, limit)?;
        let mut scratch = Vec::new();
        let (value, text) = pyjson::parse_doc(&doc, &mut scratch).map_err(|e| e.into_error(path, 1))?;
        let Some(benchmarks) = value.get("benchmarks").and_then(Doc::as_array) else {
            return Err(Error::malformed(path, 1, "expected `{\"benchmarks\": [...]}` as Google Benchmark writes it"));
        };
        let mut shared = Shared::default();
        if let Some(Doc::Obj(context)) = value.get("context") {
            read_context(context, &mut shared);
        }
        // Each result's line: from the tree, which knows where each object
        // starts, or (where it cannot say) by scanning the text.
        let offsets = value.as_object().and_then(|o| o.element_offsets("benchmarks", text));
        let lines = pyjson::lines_of(text, &offsets.unwrap_or_else(|| pyjson::array_element_offsets(text, 1)));
        let mut rows = Vec::with_capacity(benchmarks.len());
        for (i, b) in benchmarks.iter().enumerate() {
            let line = lines.get(i).copied().unwrap_or(1);
            let Doc::Obj(obj) = b else {
                return Err(Error::malformed(path, line, "expected an object for each Google Benchmark result"));
            };
            rows.push(row(path, line, obj, &mut shared)?);
        }
        emit_rows(rows, shared, emit)
    }
}

/// The run time and the params of `context`.
fn read_context(context: &Object<'_>, shared: &mut Shared) {
    for (k, v) in context.iter() {
        match v {
            Doc::Str(s) if k == "date" => match log_time::from_iso_zoned(s) {
                Some((t, zoned)) => {
                    if !zoned {
                        shared.notes.insert(no_offset("`context.date`", s));
                    }
                    shared.time = Some(t);
                }
                None => shared.params.push((k.to_string(), Value::Text(s.to_string()))),
            },
            Doc::Str(s) => shared.params.push((k.to_string(), Value::Text(s.to_string()))),
            Doc::Bool(b) => shared.params.push((k.to_string(), Value::Text(b.to_string()))),
            Doc::U64(_) | Doc::I64(_) | Doc::F64(_) => {
                if let Some(x) = v.as_f64() {
                    shared.params.push((k.to_string(), Value::Num(x)));
                }
            }
            Doc::Arr(_) | Doc::Obj(_) => {
                shared.skipped.insert(format!("`context.{k}` describes the machine and is not stored"));
            }
            Doc::Null => {}
        }
    }
}

/// The note for a run time read as UTC because the log gave no offset
/// (Google Benchmark before 1.5 wrote the machine's local time so).
pub(super) fn no_offset(what: &str, text: &str) -> String {
    format!(
        "{what} `{}` read as UTC: the log gives no offset (if the machine kept local time and that \
         moves the run to another day, name its sweep: `--label sweep=YYYY-MM-DD`, or `{{sweep}}` in the path)",
        crate::syntax::excerpt(text)
    )
}

/// One benchmark row.
fn row(path: &Path, line: u64, obj: &Object<'_>, shared: &mut Shared) -> Result<Row> {
    let text = |k: &str| obj.get(k).and_then(Doc::as_str).map(str::to_string);
    let num = |k: &str| obj.get(k).and_then(Doc::as_f64);
    let Some(name) = text("name") else {
        return Err(Error::malformed(path, line, "this Google Benchmark result has no `name`"));
    };
    // Google Benchmark writes every value of a row as a JSON number: one that
    // is not would be dropped from the run without a word.
    for (k, v) in obj.iter() {
        let numeric = !ROW_KEYS.contains(&k) || NUMBER_KEYS.contains(&k);
        if numeric && !v.is_null() && v.as_f64().is_none() {
            return Err(Error::malformed(
                path,
                line,
                format!(
                    "`{}`: `{k}` is {}, not a number; Google Benchmark writes every value as one",
                    crate::syntax::excerpt(&name),
                    crate::syntax::excerpt(&v.to_string())
                ),
            ));
        }
    }
    let aggregate = text("aggregate_name").filter(|_| text("run_type").as_deref() != Some("iteration"));
    let run_name = text("run_name").unwrap_or_else(|| match &aggregate {
        Some(a) => name.strip_suffix(&format!("_{a}")).unwrap_or(&name).to_string(),
        None => name.clone(),
    });
    let mut row = Row {
        line,
        run_name,
        repetition: num("repetition_index"),
        repetitions: num("repetitions"),
        iterations: num("iterations"),
        threads: num("threads"),
        time_unit: text("time_unit"),
        ..Row::default()
    };
    for k in ["label", "error_message"] {
        if let Some(v) = text(k).filter(|v| !v.is_empty()) {
            row.texts.push((k.to_string(), v));
        }
    }
    if let Some(Doc::Bool(true)) = obj.get("error_occurred") {
        row.texts.push(("error_occurred".into(), "true".into()));
    }
    for (k, v) in obj.iter() {
        if ROW_KEYS.contains(&k) {
            continue;
        }
        if let Some(x) = v.as_f64() {
            row.values.push((k.to_string(), x));
        }
    }
    if let Some(a) = aggregate.filter(|a| !a.is_empty()) {
        let pair = |v: Option<f64>, name: &str, row: &mut Row| {
            if let Some(x) = v {
                row.values.push((name.to_string(), x));
            }
        };
        match a.as_str() {
            "BigO" => {
                pair(num("real_coefficient"), "real_time", &mut row);
                pair(num("cpu_coefficient"), "cpu_time", &mut row);
                if obj.contains_key("big_o") {
                    shared.skipped.insert("`big_o` (the fitted complexity, text) is not stored".into());
                }
            }
            // The RMS of the fit, which the CSV reporter writes in both
            // time columns.
            "RMS" => {
                pair(num("rms"), "real_time", &mut row);
                pair(num("rms"), "cpu_time", &mut row);
            }
            _ => {}
        }
        row.aggregate = Some(a);
    }
    if ["family_index", "per_family_instance_index"].iter().any(|k| obj.contains_key(k)) {
        shared
            .skipped
            .insert("`family_index` and `per_family_instance_index` (indices of the name, which is stored)".into());
    }
    Ok(row)
}
