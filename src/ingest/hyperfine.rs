//! `hyperfine --export-json`: `{"results": [...]}`, one run per benchmarked
//! command.
//!
//! Params: `command`, and each `-P`/`-L` scan parameter under its own name
//! (numbers read as numbers). Metrics, all in seconds: `mean`, `stddev`
//! (null with a single run: left out), `median`, `user`, `system`, `min`,
//! `max`; and `max_memory_usage_byte` (bytes) from `memory_usage_byte` when
//! hyperfine measured it. The per-run lists (`times`, `exit_codes`,
//! `memory_usage_byte`) are not stored.

use std::io::BufRead;
use std::path::Path;

use serde_json::Value as Json;

use super::format::{Emit, Outcome};
use super::pyjson;
use crate::run::{RawRun, Value};
use crate::{Error, Result};

const SECONDS: &[&str] = &["mean", "stddev", "median", "user", "system", "min", "max"];

/// Parses a hyperfine JSON export. The file is one document, read whole.
pub fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
    let mut doc = Vec::new();
    input.read_to_end(&mut doc).map_err(|e| Error::io(path, e))?;
    let value = pyjson::parse(&doc).map_err(|e| e.into_error(path, 1))?;
    let Some(results) = value.get("results").and_then(Json::as_array) else {
        return Err(Error::malformed(
            path,
            1,
            "expected `{\"results\": [...]}` as `hyperfine --export-json` writes it",
        ));
    };
    let offsets = pyjson::array_element_offsets(&doc, 1);
    for (i, result) in results.iter().enumerate() {
        let line = offsets.get(i).map_or(1, |&o| pyjson::line_of(&doc, o));
        let Json::Object(obj) = result else {
            return Err(Error::malformed(path, line, "expected an object for each hyperfine result"));
        };
        let mut run = RawRun::new(line);
        match obj.get("command") {
            Some(Json::String(c)) => run.param("command", Value::Text(c.clone())),
            _ => return Err(Error::malformed(path, line, "this hyperfine result has no `command`")),
        }
        if let Some(Json::Object(params)) = obj.get("parameters") {
            for (k, v) in params {
                match v {
                    Json::String(s) => run.param(k.as_str(), Value::from_label(s)),
                    Json::Null => {}
                    other => match pyjson::as_f64(other) {
                        Some(x) => run.param(k.as_str(), Value::Num(x)),
                        None => run.param(k.as_str(), Value::Text(other.to_string())),
                    },
                }
            }
        }
        for name in SECONDS {
            if let Some(x) = obj.get(*name).and_then(pyjson::as_f64) {
                run.metric_with_unit(*name, x, "s");
            }
        }
        if let Some(Json::Array(mem)) = obj.get("memory_usage_byte") {
            if let Some(max) = mem.iter().filter_map(pyjson::as_f64).reduce(f64::max) {
                run.metric_with_unit("max_memory_usage_byte", max, "B");
            }
        }
        emit(run)?;
    }
    Ok(Outcome::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_null_stddev_and_memory() {
        let text = r#"{"results": [{"command": "sleep 0.1", "mean": 0.1, "stddev": null, "median": 0.1, "user": 0.0, "system": 0.0, "min": 0.1, "max": 0.1, "times": [0.1], "memory_usage_byte": [100, 300], "parameters": {"t": "0.1", "mode": "fast"}}]}"#;
        let mut runs = Vec::new();
        let mut input = text.as_bytes();
        parse(Path::new("h.json"), &mut input, &mut |r| {
            runs.push(r);
            Ok(())
        })
        .unwrap();
        let r = &runs[0];
        // `parameters` come in name order.
        assert_eq!(r.params[1], ("mode".into(), Value::Text("fast".into())));
        assert_eq!(r.params[2], ("t".into(), Value::Num(0.1)));
        assert!(r.metrics.iter().all(|m| m.name != "stddev"));
        let mem = r.metrics.iter().find(|m| m.name == "max_memory_usage_byte").unwrap();
        assert_eq!((mem.value, mem.unit.as_deref()), (300.0, Some("B")));
    }
}
