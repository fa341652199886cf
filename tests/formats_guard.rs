//! No silent partial read: every JSON and JSON lines file of the corpus
//! (`tests/fixtures/corpus/`) is read whole, or refused. Each numeric leaf
//! of a file read is stored (a metric's value, a numeric param, the run's
//! time), or lies in a part the reader names as left out on purpose (its
//! outcome's `skipped` notes name the array or object); a file refused says
//! what it is or what it would drop.

use std::io::BufReader;
use std::path::{Path, PathBuf};

use reckon::ingest::generic::GenericOptions;
use reckon::ingest::{pyjson, Format, LineBytes, Outcome};
use reckon::run::RawRun;
use reckon::Error;
use serde_json::Value as Json;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corpus")
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            json_files(&path, out);
        } else if matches!(path.extension().and_then(|e| e.to_str()), Some("json" | "jsonl")) {
            out.push(path);
        }
    }
}

/// The file's JSON values: one document, or one per line (JSON lines, and
/// lines that are not JSON — section labels — left out).
fn documents(bytes: &[u8]) -> Vec<Json> {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(v) = pyjson::parse(text) {
        return vec![v];
    }
    text.split(|&b| b == b'\n').filter_map(|l| pyjson::parse(l).ok()).collect()
}

/// Every numeric leaf with the keys on its way (array indices left out).
fn leaves(v: &Json, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, f64)>) {
    match v {
        Json::Number(n) => {
            if let Some(x) = n.as_f64() {
                out.push((path.clone(), x));
            }
        }
        Json::Array(a) => a.iter().for_each(|x| leaves(x, path, out)),
        Json::Object(o) => {
            for (k, x) in o {
                path.push(k.clone());
                leaves(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn read(path: &Path, format: Format) -> reckon::Result<(Vec<RawRun>, Outcome)> {
    let mut input = BufReader::new(std::fs::File::open(path).unwrap());
    let mut runs = Vec::new();
    let outcome = format.parse_with(path, &mut input, &GenericOptions::default(), LineBytes::default(), &mut |r| {
        runs.push(r);
        Ok(())
    })?;
    Ok((runs, outcome))
}

/// Whether a leaf's value is among those stored (equal up to float
/// parsing, or scaled by a power of 1000 into the stated unit).
fn stored(x: f64, values: &[f64]) -> bool {
    let same = |a: f64, b: f64| (a - b).abs() <= b.abs().max(a.abs()) * 1e-9;
    [1.0, 1e3, 1e6, 1e9, 1e-3, 1e-6, 1e-9].iter().any(|s| values.iter().any(|&v| same(v, x * s)))
}

/// A leaf left out on purpose: a key on its way is named in a note.
fn named(keys: &[String], notes: &[String]) -> bool {
    keys.iter().any(|k| notes.iter().any(|n| n.contains(&format!("`{k}")) || n.contains(&format!("{k}[]"))))
        || notes.iter().any(|n| n.contains(&format!("`{}", keys.join("."))))
}

/// The problems of one file, empty when it is read whole or refused.
fn check(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    let head = &bytes[..bytes.len().min(256 * 1024)];
    let shown = path.strip_prefix(corpus()).unwrap().display().to_string();
    let format = match Format::detect(path, head) {
        Ok(f) => f,
        Err(Error::UnknownFormat { msg, .. }) => {
            let says = msg.contains("looks like") || msg.contains("not read") || msg.contains("not of runs");
            return if says { Vec::new() } else { vec![format!("{shown}: refused without saying why: {msg}")] };
        }
        Err(e) => return vec![format!("{shown}: {e}")],
    };
    let (runs, outcome) = match read(path, format) {
        Ok(r) => r,
        Err(e) => {
            let m = e.to_string();
            let says = m.contains("not read") || m.contains("looks like");
            return if says { Vec::new() } else { vec![format!("{shown}: {m}")] };
        }
    };
    let mut values: Vec<f64> = runs.iter().flat_map(|r| r.metrics.iter().map(|m| m.value)).collect();
    values.extend(runs.iter().flat_map(|r| r.params.iter().filter_map(|(_, v)| v.as_f64())));
    let timed = runs.iter().any(|r| r.time.is_some());
    let run_times: Vec<&str> = runs.iter().filter_map(|r| r.time.as_deref()).collect();
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for doc in documents(&bytes) {
        leaves(&doc, &mut Vec::new(), &mut out);
    }
    for (keys, x) in &out {
        let time = timed && keys.last().is_some_and(|k| reckon::ingest::log_time::is_time_name(k))
            || reckon::ingest::log_time::from_epoch(*x).is_some_and(|t| run_times.contains(&t.as_str()));
        if !(time || stored(*x, &values) || named(keys, &outcome.skipped)) {
            problems.push(format!(
                "{shown} ({}): `{}` = {x} is neither stored nor named",
                format.name(),
                keys.join(".")
            ));
        }
    }
    problems.truncate(5);
    problems
}

#[test]
fn every_numeric_leaf_of_the_corpus_is_stored_named_or_refused() {
    let mut files = Vec::new();
    json_files(&corpus(), &mut files);
    files.sort();
    assert!(files.len() > 40, "the corpus is missing: {} files", files.len());
    let problems: Vec<String> = files.iter().flat_map(|f| check(f)).collect();
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}
