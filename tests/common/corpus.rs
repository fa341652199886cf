//! Reading one corpus fixture the way ingest does, and looking into the
//! runs it gives: what the format tests (`formats_json`,
//! `formats_neighbours`) share.

use std::io::BufReader;
use std::path::{Path, PathBuf};

use reckon::ingest::generic::GenericOptions;
use reckon::ingest::{Format, LineBytes, Outcome};
use reckon::run::{RawRun, Value};

pub(crate) fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(rel)
}

pub(crate) fn head(path: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(path).unwrap();
    bytes.truncate(256 * 1024);
    bytes
}

/// Detects and parses a fixture the way ingest does: the head decides the
/// format, then the file streams through the parser.
pub(crate) fn parse(rel: &str) -> (Format, Vec<RawRun>, Outcome) {
    let path = fixture(rel);
    let format = Format::detect(&path, &head(&path)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let (runs, outcome) = parse_as(format, &path, &GenericOptions::default()).unwrap_or_else(|e| panic!("{rel}: {e}"));
    (format, runs, outcome)
}

pub(crate) fn parse_as(format: Format, path: &Path, opts: &GenericOptions) -> reckon::Result<(Vec<RawRun>, Outcome)> {
    let mut input = BufReader::new(std::fs::File::open(path).unwrap());
    let mut runs = Vec::new();
    let outcome = format.parse_with(path, &mut input, opts, LineBytes::default(), &mut |r| {
        runs.push(r);
        Ok(())
    })?;
    Ok((runs, outcome))
}

pub(crate) fn metric(run: &RawRun, name: &str) -> f64 {
    run.metrics
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no metric {name} in run at line {}", run.line))
        .value
}

pub(crate) fn unit<'a>(run: &'a RawRun, name: &str) -> Option<&'a str> {
    run.metrics.iter().find(|m| m.name == name).and_then(|m| m.unit.as_deref())
}

pub(crate) fn param<'a>(run: &'a RawRun, name: &str) -> Option<&'a Value> {
    run.params.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

pub(crate) fn text(s: &str) -> Value {
    Value::Text(s.to_string())
}

pub(crate) fn has_field(run: &RawRun, name: &str) -> bool {
    param(run, name).is_some() || run.metrics.iter().any(|m| m.name == name)
}

/// Equal to the number written in the file (up to float parsing).
pub(crate) fn close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() <= expected.abs() * 1e-12, "{actual} != {expected}");
}
