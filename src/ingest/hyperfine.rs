//! `hyperfine --export-json`: `{"results": [...]}`, one result per
//! benchmarked command, each holding the wall-clock time of every repeat.
//!
//! The repeats hyperfine ran are runs: a result with `times` becomes one run
//! per repeat, with the param `repeat` (1, 2, …, a repeat marker, so the
//! repeats of a command are one point) and the metric `time` (seconds, that
//! repeat's wall-clock time), plus `exit_code` and `memory_usage_byte` where
//! hyperfine recorded them per repeat. Cells, medians and claims on `time`
//! therefore rest on as many runs as hyperfine made.
//!
//! hyperfine's own summaries of the repeats — `mean`, `stddev` (null with a
//! single run: left out), `median`, `user`, `system`, `min`, `max` (seconds)
//! and `max_memory_usage_byte` (bytes, the largest of `memory_usage_byte`) —
//! are one number per command and go on its first repeat only, so they never
//! count as several runs. A result without `times` is one run with the
//! summaries.
//!
//! Params of every run: `command`, and each `-P`/`-L` scan parameter under
//! its own name (numbers read as numbers).

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use serde_json::Value as Json;

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::pyjson;
use crate::run::{RawRun, Value};
use crate::{Error, Result};

const SECONDS: &[&str] = &["mean", "stddev", "median", "user", "system", "min", "max"];

/// Parses a hyperfine JSON export. The file is one document, read whole.
/// `hyperfine --export-json`.
pub struct Hyperfine;

impl LogFormat for Hyperfine {
    const NAME: &'static str = "hyperfine";

    /// `{"results": [{"command": …`.
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff.json.is_some_and(|s| s.first == Some(b'{') && s.has("results") && s.has_deep("command"))
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        parse(path, input, limit, emit)
    }
}

pub fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
    let doc = super::limit::read_document(path, input, limit)?;
    let value = pyjson::parse(&doc).map_err(|e| e.into_error(path, 1))?;
    let Some(results) = value.get("results").and_then(Json::as_array) else {
        return Err(Error::malformed(
            path,
            1,
            "expected `{\"results\": [...]}` as `hyperfine --export-json` writes it",
        ));
    };
    let lines = pyjson::lines_of(&doc, &pyjson::array_element_offsets(&doc, 1));
    let mut outcome = Outcome::default();
    for (i, result) in results.iter().enumerate() {
        let line = lines.get(i).copied().unwrap_or(1);
        let Json::Object(obj) = result else {
            return Err(Error::malformed(path, line, "expected an object for each hyperfine result"));
        };
        let failed = emit_result(&Record { path, line, obj }, emit)?;
        if !failed.is_empty() {
            outcome.skipped.push(failed_note(line, &failed));
        }
    }
    Ok(outcome)
}

/// "line 311: repeat 3 exited with 134 and is not a measurement: not stored,
/// nor hyperfine's summaries of this command, which count it".
fn failed_note(line: u64, failed: &[(usize, f64)]) -> String {
    let repeats: Vec<String> = failed
        .iter()
        .map(|(r, code)| format!("{} (exit code {})", r + 1, crate::metric::format_number(*code)))
        .collect();
    let noun = if failed.len() == 1 { "repeat" } else { "repeats" };
    format!(
        "the command at line {line}: {noun} {} exited non-zero and measured a failure, not the command: not \
         stored, nor hyperfine's summaries of the command (`mean`, `median`, …), which count {}",
        repeats.join(", "),
        if failed.len() == 1 { "it" } else { "them" }
    )
}

/// One entry of `results`, with where it starts for error messages.
struct Record<'a> {
    path: &'a Path,
    line: u64,
    obj: &'a serde_json::Map<String, Json>,
}

impl Record<'_> {
    /// The command and the `--parameter-scan` / `-L` values of a result.
    fn params(&self) -> Result<Vec<(String, Value)>> {
        let mut params = Vec::new();
        match self.obj.get("command") {
            Some(Json::String(c)) => params.push(("command".to_string(), Value::Text(c.clone()))),
            _ => return Err(Error::malformed(self.path, self.line, "this hyperfine result has no `command`")),
        }
        if let Some(Json::Object(scan)) = self.obj.get("parameters") {
            for (k, v) in scan {
                match v {
                    Json::String(s) => params.push((k.clone(), Value::from_label(s))),
                    Json::Null => {}
                    other => match pyjson::as_f64(other) {
                        Some(x) => params.push((k.clone(), Value::Num(x))),
                        None => params.push((k.clone(), Value::Text(other.to_string()))),
                    },
                }
            }
        }
        Ok(params)
    }

    /// A list with one number per repeat (`times`, `exit_codes`,
    /// `memory_usage_byte`), or `None` when the export lacks it.
    fn per_repeat(&self, key: &str) -> Result<Option<Vec<f64>>> {
        let (path, line) = (self.path, self.line);
        match self.obj.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Array(items)) => items
                .iter()
                .map(|v| {
                    pyjson::as_f64(v)
                        .ok_or_else(|| Error::malformed(path, line, format!("`{key}` holds {v}, expected numbers")))
                })
                .collect::<Result<Vec<f64>>>()
                .map(Some),
            Some(other) => Err(Error::malformed(
                path,
                line,
                format!("`{key}` is {}, expected a list with one number per repeat", super::generic::kind_of(other)),
            )),
        }
    }
}

/// A result becomes one run per repeat (its `times`), the first carrying
/// the summary statistics; without `times`, the summary alone. A repeat
/// whose exit code is not 0 timed a failure (a crash, an error exit), not
/// the command: it is left out, and so are the summaries, which hyperfine
/// computed over it too. Returns the repeats left out (index, exit code).
fn emit_result(record: &Record<'_>, emit: Emit) -> Result<Vec<(usize, f64)>> {
    let (path, line) = (record.path, record.line);
    let params = record.params()?;
    let mut summary = RawRun::new(line);
    summary.params.clone_from(&params);
    for name in SECONDS {
        if let Some(x) = record.obj.get(*name).and_then(pyjson::as_f64) {
            summary.metric_with_unit(*name, x, "s");
        }
    }
    let memory = record.per_repeat("memory_usage_byte")?;
    if let Some(max) = memory.as_ref().and_then(|m| m.iter().copied().reduce(f64::max)) {
        summary.metric_with_unit("max_memory_usage_byte", max, "B");
    }
    let times = match record.per_repeat("times")? {
        Some(t) if !t.is_empty() => t,
        _ => return emit(summary).map(|()| Vec::new()),
    };
    let exit_codes = record.per_repeat("exit_codes")?;
    for (list, key) in [(&exit_codes, "exit_codes"), (&memory, "memory_usage_byte")] {
        if list.as_ref().is_some_and(|l| l.len() != times.len()) {
            return Err(Error::malformed(
                path,
                line,
                format!("`{key}` and `times` differ in length; hyperfine writes one entry per repeat in each"),
            ));
        }
    }
    let failed: Vec<(usize, f64)> =
        exit_codes.iter().flatten().copied().enumerate().filter(|(_, code)| *code != 0.0).collect();
    let mut first = true;
    for (r, time) in times.iter().enumerate() {
        if failed.iter().any(|(f, _)| *f == r) {
            continue;
        }
        let mut run = if first && failed.is_empty() { std::mem::take(&mut summary) } else { RawRun::new(line) };
        first = false;
        run.line = line;
        run.params.clone_from(&params);
        run.param("repeat", Value::Num((r + 1) as f64));
        run.metric_with_unit("time", *time, "s");
        if let Some(codes) = &exit_codes {
            run.metric("exit_code", codes[r]);
        }
        if let Some(mem) = &memory {
            run.metric_with_unit("memory_usage_byte", mem[r], "B");
        }
        emit(run)?;
    }
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_null_stddev_and_memory() {
        let text = concat!(
            r#"{"results": [{"command": "sleep 0.1", "mean": 0.1, "stddev": null, "#,
            r#""median": 0.1, "user": 0.0, "system": 0.0, "min": 0.1, "max": 0.1, "#,
            r#""times": [0.1], "memory_usage_byte": [100], "parameters": {"t": "0.1", "#,
            r#""mode": "fast"}}]}"#,
        );
        let runs = parse_text(text).unwrap();
        let r = &runs[0];
        // `parameters` come in name order, then the repeat.
        assert_eq!(r.params[1], ("mode".into(), Value::Text("fast".into())));
        assert_eq!(r.params[2], ("t".into(), Value::Num(0.1)));
        assert_eq!(r.params[3], ("repeat".into(), Value::Num(1.0)));
        assert!(r.metrics.iter().all(|m| m.name != "stddev"));
        let mem = r.metrics.iter().find(|m| m.name == "max_memory_usage_byte").unwrap();
        assert_eq!((mem.value, mem.unit.as_deref()), (100.0, Some("B")));
    }

    fn parse_text(text: &str) -> Result<Vec<RawRun>> {
        Ok(crate::ingest::log_format::collect::<Hyperfine>("h.json", text)?.0)
    }

    #[test]
    fn each_repeat_is_a_run_and_the_summaries_count_once() {
        let text = concat!(
            r#"{"results": [{"command": "a", "mean": 2.0, "stddev": 1.0, "median": 2.0, "#,
            r#""user": 0.5, "system": 0.1, "min": 1.0, "max": 3.0, "times": [1.0, 2.0, 3.0], "#,
            r#""exit_codes": [0, 0, 0], "memory_usage_byte": [10, 30, 20]}]}"#,
        );
        let runs = parse_text(text).unwrap();
        assert_eq!(runs.len(), 3);
        let value = |r: &RawRun, name: &str| r.metrics.iter().find(|m| m.name == name).map(|m| m.value);
        for (i, r) in runs.iter().enumerate() {
            assert_eq!(r.params[1], ("repeat".into(), Value::Num(i as f64 + 1.0)));
            assert_eq!(value(r, "time"), Some(i as f64 + 1.0));
            assert_eq!(r.metrics.iter().find(|m| m.name == "time").unwrap().unit.as_deref(), Some("s"));
            // The summaries are on the first repeat alone.
            assert_eq!(value(r, "mean").is_some(), i == 0);
        }
        assert_eq!(value(&runs[2], "exit_code"), Some(0.0));
        assert_eq!(value(&runs[1], "memory_usage_byte"), Some(30.0));
        assert_eq!(value(&runs[0], "max_memory_usage_byte"), Some(30.0));

        let bad = r#"{"results": [{"command": "a", "times": [1.0, 2.0], "exit_codes": [0]}]}"#;
        let e = parse_text(bad).unwrap_err().to_string();
        assert!(e.contains("`exit_codes` and `times` differ in length"), "{e}");
        let bad = r#"{"results": [{"command": "a", "times": 1.0}]}"#;
        let e = parse_text(bad).unwrap_err().to_string();
        assert!(e.contains("`times` is a number, expected a list"), "{e}");
    }

    /// A repeat that exited non-zero timed a failure: it is no run, and the
    /// summaries (which hyperfine computed over it) are not stored.
    #[test]
    fn a_failed_repeat_is_left_out_and_said() {
        let text = concat!(
            r#"{"results": [{"command": "a", "mean": 1.5, "median": 2.0, "#,
            r#""times": [0.04, 2.0, 3.0], "exit_codes": [134, 0, 0]}]}"#,
        );
        let (runs, outcome) = crate::ingest::log_format::collect::<Hyperfine>("h.json", text).unwrap();
        let times: Vec<f64> =
            runs.iter().flat_map(|r| r.metrics.iter().filter(|m| m.name == "time").map(|m| m.value)).collect();
        assert_eq!(times, [2.0, 3.0]);
        assert!(runs.iter().all(|r| r.metrics.iter().all(|m| m.name != "mean")));
        assert_eq!(runs[0].params[1], ("repeat".into(), Value::Num(2.0)));
        assert_eq!(outcome.skipped.len(), 1);
        assert!(outcome.skipped[0].contains("line 1: repeat 1 (exit code 134) exited non-zero"), "{outcome:?}");
    }
}
