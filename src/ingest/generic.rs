//! Generic CSV and JSON lines: any table of results a script wrote. Numeric
//! fields become metrics and the rest params, except that numbers whose name
//! says they are a setting of the run (concurrency, batch size, lengths,
//! counts of things, rates, repeats) are params; `reckon.toml` overrides the
//! choice per name ([`GenericOptions`]).
//!
//! Rules, in order, for a field `name`:
//! 1. named in `GenericOptions::params` → param; in `GenericOptions::metrics`
//!    → metric (its values must read as numbers);
//! 2. JSON: `null` and empty CSV cells are left out; nested objects are
//!    flattened with dots (`a.b.c`); arrays are skipped (per-item detail);
//!    booleans and strings are params;
//! 3. numbers are metrics unless [`is_identity_name`] says the name is a
//!    setting, then params. A CSV column is numeric when every non-empty cell
//!    of it reads as a number; a column with text in any row is a param.

use std::io::{BufRead, Read};
use std::path::Path;

use serde_json::Value as Json;

use super::format::{Emit, Outcome};
use super::pyjson;
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// Which fields are params and which are metrics, when the default rules
/// get it wrong. Names are matched exactly (flattened JSON names with their
/// dots). Comes from `reckon.toml`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GenericOptions {
    /// Names always stored as params.
    pub params: Vec<String>,
    /// Names always stored as metrics.
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
/// `*concurrency*`, `batch_size`, `*_size`, `*_len`, `*_length`, `num_*`,
/// `n_*`, `max_num_*`, `request_rate`, `rate`, `qps`, `threads`, `size`,
/// `n`, `seed`, `tp`/`dp`/`pp`/`ep`, `iteration`/`run`/`repeat`/`trial`
/// and `timestamp`. Case and `-`/space versus `_` do not matter.
pub fn is_identity_name(name: &str) -> bool {
    let leaf = name.rsplit('.').next().unwrap_or(name);
    let n: String = leaf.chars().map(|c| if c == '-' || c == ' ' { '_' } else { c.to_ascii_lowercase() }).collect();
    const EXACT: &[&str] = &[
        "batch_size",
        "bs",
        "request_rate",
        "rate",
        "qps",
        "rps",
        "threads",
        "num_threads",
        "size",
        "n",
        "seed",
        "tp",
        "dp",
        "pp",
        "ep",
        "iteration",
        "iter",
        "run",
        "repeat",
        "rep",
        "trial",
        "timestamp",
        "workers",
        "run_number",
        "burstiness",
        "input_len",
        "output_len",
    ];
    EXACT.contains(&n.as_str())
        || n.contains("concurrency")
        || n.ends_with("_len")
        || n.ends_with("_length")
        || n.ends_with("_size")
        || n.starts_with("num_")
        || n.starts_with("n_")
        || n.starts_with("max_num_")
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

/// Parses a CSV with a header row. The whole table is read before the first
/// run goes out, because a column's role depends on every row of it.
pub fn parse_csv(path: &Path, input: &mut dyn BufRead, opts: &GenericOptions, emit: Emit) -> Result<Outcome> {
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

    let mut rows: Vec<(u64, csv::StringRecord)> = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        match csv.read_record(&mut record) {
            Ok(true) => {
                let line = record.position().map_or(0, |p| p.line());
                if record.iter().all(str::is_empty) {
                    continue;
                }
                rows.push((line, record.clone()));
            }
            Ok(false) => break,
            Err(e) => return Err(csv_error(path, e)),
        }
    }

    // A column is a metric when all its non-empty cells are numbers.
    let roles: Vec<Option<Role>> = headers
        .iter()
        .enumerate()
        .map(|(i, name)| {
            if name.is_empty() {
                // An unnamed column is the index pandas writes: not data.
                return None;
            }
            if let Some(r) = opts.forced(name) {
                return Some(r);
            }
            let mut cells = rows.iter().filter_map(|(_, r)| r.get(i)).filter(|c| !c.is_empty()).peekable();
            cells.peek()?;
            let numeric = cells.all(|c| number(c).is_some());
            Some(if numeric && !is_identity_name(name) { Role::Metric } else { Role::Param })
        })
        .collect();

    for (line, row) in rows {
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
        emit(run)?;
    }
    Ok(Outcome::default())
}

fn csv_error(path: &Path, e: csv::Error) -> Error {
    let line = e.position().map_or(0, |p| p.line());
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

/// Adds the fields of a JSON object to a run under the generic rules,
/// flattening nested objects with dots and skipping arrays.
pub fn add_object(
    run: &mut RawRun,
    prefix: &str,
    obj: &serde_json::Map<String, Json>,
    opts: &GenericOptions,
) -> std::result::Result<(), String> {
    for (k, v) in obj {
        let name = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        add_field(run, name, v, opts)?;
    }
    Ok(())
}

fn add_field(run: &mut RawRun, name: String, v: &Json, opts: &GenericOptions) -> std::result::Result<(), String> {
    match v {
        Json::Null | Json::Array(_) => {}
        Json::Object(o) => add_object(run, &name, o, opts)?,
        Json::Bool(b) => run.param(name, Value::Text(b.to_string())),
        _ => {
            let num = pyjson::as_f64(v);
            let role = opts.forced(&name).unwrap_or(match num {
                Some(_) if !is_identity_name(&name) => Role::Metric,
                _ => Role::Param,
            });
            match (role, num, v) {
                (Role::Metric, Some(x), _) => run.metric(name, x),
                (Role::Metric, None, Json::String(s)) => match number(s) {
                    Some(x) => run.metric(name, x),
                    None => {
                        return Err(format!(
                            "`{name}` is set to be a metric in reckon.toml, but its value `{s}` is not a number"
                        ))
                    }
                },
                (_, Some(x), _) => run.param(name, Value::Num(x)),
                (_, None, Json::String(s)) => run.param(name, Value::Text(s.clone())),
                (_, None, other) => run.param(name, Value::Text(other.to_string())),
            }
        }
    }
    Ok(())
}

/// Parses JSON lines of objects (one run per line), or one JSON document
/// holding an object (one run) or an array of objects (one run each).
pub fn parse_jsonl(path: &Path, input: &mut dyn BufRead, opts: &GenericOptions, emit: Emit) -> Result<Outcome> {
    pyjson::read_records(path, input, &mut |line, value| {
        let Json::Object(obj) = value else {
            return Err(Error::malformed(
                path,
                line,
                format!("expected a JSON object (one run), found {}", kind_of(&value)),
            ));
        };
        let mut run = RawRun::new(line);
        add_object(&mut run, "", &obj, opts).map_err(|m| Error::malformed(path, line, m))?;
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
        let mut runs = Vec::new();
        let mut input = text.as_bytes();
        parse_csv(Path::new("t.csv"), &mut input, opts, &mut |r| {
            runs.push(r);
            Ok(())
        })?;
        Ok(runs)
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
        ] {
            assert!(is_identity_name(n), "{n}");
        }
        for n in ["output_throughput", "mean_ttft_ms", "completed", "max_concurrent_requests", "duration"] {
            assert!(!is_identity_name(n), "{n}");
        }
    }

    #[test]
    fn jsonl_flattens_objects_and_skips_arrays() {
        let text = "{\"a\": {\"b\": 1, \"c\": \"x\"}, \"l\": [1, 2], \"n\": null, \"t\": true, \"batch_size\": 4, \"r\": NaN}\n";
        let mut runs = Vec::new();
        let mut input = text.as_bytes();
        parse_jsonl(Path::new("t.jsonl"), &mut input, &GenericOptions::default(), &mut |r| {
            runs.push(r);
            Ok(())
        })
        .unwrap();
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
}
