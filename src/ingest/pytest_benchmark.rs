//! pytest-benchmark JSON (`--benchmark-json`, and the files it keeps under
//! `.benchmarks/<machine>/NNNN_<commit>_<date>.json`): `{machine_info,
//! commit_info, benchmarks: [...], datetime, version}`.
//!
//! * One run per benchmark, with the params `name`, `group` (when set),
//!   `fullname`, each of its `params` by name, its `options`
//!   (`options.min_rounds`, `options.timer`, …), `machine_info.*` and
//!   `commit_info.*` (so runs of two machines or commits are two points),
//!   and `extra_info.*` typed as generic JSON is.
//! * `stats` are metrics: the times `min`, `max`, `mean`, `stddev`,
//!   `median`, `iqr`, `q1`, `q3`, `ld15iqr`, `hd15iqr`, `total` in seconds,
//!   `ops` (calls per second, higher is better), the counts `rounds`,
//!   `iterations`, `iqr_outliers`, `stddev_outliers`. (`outliers` is the
//!   two counts as text, `"160;1726"`, and is not stored again.)
//! * Saved with `--benchmark-save-data`, `stats.data` holds each round's
//!   time: a run per round (param `repeat`, 1, 2, …, a repeat marker;
//!   metric `time` in seconds), the summaries on the first, as hyperfine's.
//! * `datetime` is the time of every run.

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::log_time;
use super::pyjson::{self, Doc, Object};
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// The statistics pytest-benchmark writes in seconds.
const SECONDS: &[&str] = &["min", "max", "mean", "stddev", "median", "iqr", "q1", "q3", "ld15iqr", "hd15iqr", "total"];

/// `pytest --benchmark-json`.
pub struct PytestBenchmark;

impl LogFormat for PytestBenchmark {
    const NAME: &'static str = "pytest-benchmark";

    /// `benchmarks` with `machine_info` or `commit_info`, or rows holding
    /// `fullname` or `stats`.
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff.json.is_some_and(|s| {
            s.first == Some(b'{')
                && s.has("benchmarks")
                && (s.has("machine_info") || s.has("commit_info") || s.has_deep("fullname") || s.has_deep("stats"))
        })
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::limit::read_document(path, input, limit)?;
        let mut scratch = Vec::new();
        let (value, text) = pyjson::parse_doc(&doc, &mut scratch).map_err(|e| e.into_error(path, 1))?;
        let Some(benchmarks) = value.get("benchmarks").and_then(Doc::as_array) else {
            return Err(Error::malformed(path, 1, "expected `{\"benchmarks\": [...]}` as pytest-benchmark writes it"));
        };
        let mut shared = Shared::default();
        for key in ["machine_info", "commit_info"] {
            if let Some(Doc::Obj(o)) = value.get(key) {
                shared.params(key, o);
            }
        }
        if let Some(Doc::Str(v)) = value.get("version") {
            shared.run.param("version", Value::Text(v.to_string()));
        }
        shared.run.time = value.get("datetime").and_then(Doc::as_str).and_then(log_time::from_iso);
        // Each result's line: from the tree, which knows where each object
        // starts, or (where it cannot say) by scanning the text.
        let offsets = value.as_object().and_then(|o| o.element_offsets("benchmarks", text));
        let lines = pyjson::lines_of(text, &offsets.unwrap_or_else(|| pyjson::array_element_offsets(text, 1)));
        for (i, b) in benchmarks.iter().enumerate() {
            let line = lines.get(i).copied().unwrap_or(1);
            let Doc::Obj(obj) = b else {
                return Err(Error::malformed(path, line, "expected an object for each pytest-benchmark result"));
            };
            benchmark(path, line, obj, &mut shared, emit)?;
        }
        let mut outcome = Outcome::default();
        if !shared.lists.is_empty() {
            let names: Vec<String> = shared.lists.iter().map(|n| format!("`{n}`")).collect();
            outcome.skipped.push(format!("lists describing the machine ({}) are not stored", names.join(", ")));
        }
        Ok(outcome)
    }
}

/// What every run of the file shares.
#[derive(Default)]
struct Shared {
    /// The params and time of every run.
    run: RawRun,
    /// Lists met in `machine_info` or `commit_info` (CPU flags).
    lists: Vec<String>,
}

impl Shared {
    /// Every scalar of an object as a param, with dotted names.
    fn params(&mut self, prefix: &str, obj: &Object<'_>) {
        for (k, v) in obj.iter() {
            let mut name = String::with_capacity(prefix.len() + 1 + k.len());
            name.push_str(prefix);
            name.push('.');
            name.push_str(k);
            match v {
                Doc::Obj(o) => self.params(&name, o),
                Doc::Arr(_) => self.lists.push(name),
                Doc::Null => {}
                Doc::Str(s) => self.run.param(name, Value::Text(s.to_string())),
                Doc::Bool(b) => self.run.param(name, Value::Text(b.to_string())),
                Doc::U64(_) | Doc::I64(_) | Doc::F64(_) => {
                    if let Some(x) = v.as_f64() {
                        self.run.param(name, Value::Num(x));
                    }
                }
            }
        }
    }
}

/// The runs of one benchmark: one, or one per saved round.
fn benchmark(path: &Path, line: u64, obj: &Object<'_>, shared: &mut Shared, emit: Emit) -> Result<()> {
    let mut run = RawRun::new(line);
    run.time.clone_from(&shared.run.time);
    // Sized once: most of a run's params are the file's, the same for each.
    let count = |k: &str| obj.get(k).and_then(Doc::as_object).map_or(0, |o| o.iter().count());
    run.params.reserve(4 + count("params") + count("options") + shared.run.params.len());
    run.metrics.reserve(count("stats"));
    for key in ["name", "group", "fullname"] {
        if let Some(Doc::Str(s)) = obj.get(key) {
            run.param(key, Value::Text(s.to_string()));
        }
    }
    if let Some(Doc::Obj(params)) = obj.get("params") {
        for (k, v) in params.iter() {
            match v {
                Doc::Null => {}
                Doc::Str(s) => run.param(k, Value::from_label(s)),
                other => match other.as_f64() {
                    Some(x) => run.param(k, Value::Num(x)),
                    None => run.param(k, Value::Text(other.to_string())),
                },
            }
        }
    } else if let Some(Doc::Str(p)) = obj.get("param") {
        run.param("param", Value::from_label(p));
    }
    if let Some(Doc::Obj(options)) = obj.get("options") {
        let mut opts = Shared::default();
        opts.params("options", options);
        run.params.append(&mut opts.run.params);
    }
    if let Some(Doc::Obj(extra)) = obj.get("extra_info") {
        super::generic::add_object(&mut run, "extra_info", &extra.to_map(), &super::generic::GenericOptions::default())
            .map_err(|m| Error::malformed(path, line, m))?;
    }
    run.params.extend(shared.run.params.iter().cloned());
    let Some(Doc::Obj(stats)) = obj.get("stats") else {
        return Err(Error::malformed(path, line, "this pytest-benchmark result has no `stats`"));
    };
    for (k, v) in stats.iter() {
        // `outliers` is text (`160;1726`); every other statistic
        // pytest-benchmark writes is a number, or `null` where it has none.
        if matches!(k, "outliers" | "data") || v.is_null() {
            continue;
        }
        let Some(x) = v.as_f64() else {
            return Err(Error::malformed(path, line, edited(&format!("`stats.{k}` holds {v}, not a number"))));
        };
        if SECONDS.contains(&k) {
            run.metric_with_unit(k, x, "s");
        } else if k == "ops" {
            run.metric_with_unit(k, x, "ops/s");
        } else {
            run.metric(k, x);
        }
    }
    let Some(Doc::Arr(data)) = stats.get("data") else { return emit(run) };
    // pytest-benchmark's `rounds` is the length of `data`: a time added or
    // taken out by hand leaves every summary beside it of other rounds.
    if let Some(rounds) = stats.get("rounds").and_then(Doc::as_f64) {
        if (data.len() as f64 - rounds).abs() > 0.0 {
            let what = format!("`stats.data` holds {} times but `stats.rounds` says {rounds}", data.len());
            return Err(Error::malformed(path, line, edited(&what)));
        }
    }
    let params = run.params.clone();
    for (r, v) in data.iter().enumerate() {
        let Some(t) = v.as_f64() else {
            let what = format!("`stats.data` holds {v}, not a round's time");
            return Err(Error::malformed(path, line, edited(&what)));
        };
        let mut round = if r == 0 { std::mem::take(&mut run) } else { RawRun::new(line) };
        round.line = line;
        round.time.clone_from(&shared.run.time);
        round.params.clone_from(&params);
        round.param("repeat", Value::Num((r + 1) as f64));
        round.metric_with_unit("time", t, "s");
        emit(round)?;
    }
    Ok(())
}

/// A refusal of a result pytest-benchmark cannot have written: what is
/// wrong, and what to do.
fn edited(what: &str) -> String {
    format!(
        "{what}: pytest-benchmark writes no such result, so the file was edited after it was written; \
         restore it (from `.benchmarks/` or version control) or run the benchmarks again, rather than \
         store numbers whose summaries no longer describe them"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_data_are_repeats_and_params_are_params() {
        let text = r#"{"machine_info": {"node": "box", "cpu": {"count": 8, "flags": ["avx"]}},
          "commit_info": {"id": "abc", "dirty": false}, "datetime": "2024-03-01T10:00:00.5+00:00",
          "version": "4.0.0", "benchmarks": [
            {"group": null, "name": "test_sort[10]", "fullname": "t.py::test_sort[10]", "params": {"n": 10},
             "param": "10", "extra_info": {"note": "x"}, "options": {"min_rounds": 5, "timer": "perf_counter"},
             "stats": {"min": 0.1, "max": 0.3, "mean": 0.2, "stddev": 0.1, "rounds": 3, "median": 0.2,
                       "ops": 5.0, "outliers": "0;0", "data": [0.1, 0.2, 0.3], "iterations": 1}}]}"#;
        let (runs, outcome) = crate::ingest::log_format::collect::<PytestBenchmark>("p.json", text).unwrap();
        assert_eq!(runs.len(), 3);
        let p = |r: &RawRun, k: &str| r.params.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let m = |r: &RawRun, k: &str| r.metrics.iter().find(|x| x.name == k).cloned();
        let r = &runs[0];
        assert_eq!(r.time.as_deref(), Some("2024-03-01T10:00:00Z"));
        assert_eq!(p(r, "n"), Some(Value::Num(10.0)));
        assert_eq!(p(r, "group"), None);
        assert_eq!(p(r, "machine_info.cpu.count"), Some(Value::Num(8.0)));
        assert_eq!(p(r, "commit_info.dirty"), Some(Value::Text("false".into())));
        assert_eq!(p(r, "options.timer"), Some(Value::Text("perf_counter".into())));
        assert_eq!(p(r, "extra_info.note"), Some(Value::Text("x".into())));
        assert_eq!(p(&runs[2], "repeat"), Some(Value::Num(3.0)));
        assert_eq!(m(&runs[2], "time").map(|x| (x.value, x.unit)), Some((0.3, Some("s".into()))));
        assert_eq!(m(r, "mean").and_then(|x| x.unit), Some("s".into()));
        assert_eq!(m(r, "ops").and_then(|x| x.unit), Some("ops/s".into()));
        assert!(m(&runs[1], "mean").is_none(), "summaries once");
        assert_eq!(outcome.skipped, vec!["lists describing the machine (`machine_info.cpu.flags`) are not stored"]);
    }
}
