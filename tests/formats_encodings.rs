//! A log reads the same whatever its editor did to it: a UTF-8 byte order
//! mark first (Notepad, PowerShell's `Out-File`), Windows line ends, or
//! both. Every file of the corpus and of the bundled example is detected
//! and parsed as itself and as each variant, and must give the same format
//! and the same runs, or the same refusal.

mod common;

use std::fmt::Write as _;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use common::{fixtures, scenario_logs, Sandbox};
use reckon::ingest::generic::GenericOptions;
use reckon::ingest::{Chosen, Format, LineBytes, Outcome};
use reckon::run::RawRun;

/// The files under `dir`, recursively, sorted.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// What ingest makes of these bytes: the head decides the format, then the
/// whole content streams through its parser (CSV and JSON lines in two
/// passes, as from a file).
fn read(path: &Path, bytes: &[u8]) -> Result<(Format, Vec<RawRun>, Outcome), String> {
    let head = &bytes[..bytes.len().min(256 * 1024)];
    let format = Format::detect(path, head).map_err(|e| format!("refused: {e}"))?;
    let mut runs = Vec::new();
    let mut input = Cursor::new(bytes.to_vec());
    let outcome = format
        .parse_file(path, &mut input, &GenericOptions::default(), LineBytes::default(), Chosen::Detected, &mut |r| {
            runs.push(r);
            Ok(())
        })
        .map_err(|e| format!("failed: {e}"))?;
    Ok((format, runs, outcome))
}

/// `bytes` with every line ending in `\r\n`.
fn crlf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 16);
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' && (i == 0 || bytes[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

fn with_bom(bytes: &[u8]) -> Vec<u8> {
    [&b"\xEF\xBB\xBF"[..], bytes].concat()
}

#[test]
fn finding_08_every_log_reads_the_same_after_a_byte_order_mark_and_with_crlf() {
    let mut all = Vec::new();
    files(&fixtures().join("corpus"), &mut all);
    files(&scenario_logs(), &mut all);
    assert!(all.len() > 40, "the corpus is there: {} files", all.len());
    let mut differ = Vec::new();
    let mut read_as_runs = 0;
    for path in &all {
        let bytes = std::fs::read(path).unwrap();
        let plain = read(path, &bytes);
        read_as_runs += usize::from(plain.as_ref().is_ok_and(|(_, runs, _)| !runs.is_empty()));
        let plain = plain.map_err(|e| e.replace(&path.display().to_string(), "PATH"));
        for (what, variant) in [("a BOM", with_bom(&bytes)), ("CRLF", crlf(&bytes)), ("both", with_bom(&crlf(&bytes)))]
        {
            let got = read(path, &variant).map_err(|e| e.replace(&path.display().to_string(), "PATH"));
            // A refusal may quote the file: compare only what was decided.
            let same = match (&plain, &got) {
                (Ok(a), Ok(b)) => a == b,
                (Err(a), Err(b)) => a.split(':').next() == b.split(':').next(),
                _ => false,
            };
            if !same {
                let summary = |r: &Result<(Format, Vec<RawRun>, Outcome), String>| match r {
                    Ok((f, runs, _)) => format!("{} with {} run(s)", f.name(), runs.len()),
                    Err(e) => e.chars().take(120).collect(),
                };
                differ.push(format!("{} with {what}: {} (plain: {})", path.display(), summary(&got), summary(&plain)));
            }
        }
    }
    assert!(read_as_runs > 30, "most of the corpus reads as runs: {read_as_runs}");
    assert!(differ.is_empty(), "read differently:\n{}", differ.join("\n"));
}

/// The reported case end to end: an `SGLang` JSONL log after a BOM is
/// `SGLang` JSONL with its throughput kept (it was taken for a CSV: runs
/// reported, no measurement).
#[test]
fn finding_08_a_jsonl_log_after_a_byte_order_mark_keeps_its_measurements() {
    let s = Sandbox::new();
    let mut log = String::new();
    for (c, tput) in [(1, 92.5), (2, 175.0), (4, 318.2)] {
        let line = r#"{"backend":"sglang","max_concurrency":C,"completed":16,"output_throughput":T}"#;
        writeln!(log, "{}", line.replace('C', &c.to_string()).replace('T', &tput.to_string())).unwrap();
    }
    s.write("bom.jsonl", with_bom(log.as_bytes()));
    s.test().args(["ingest", "--label", "config=baseline", "bom.jsonl"]).stderr_has("3 runs (sglang-jsonl)").run();
    let r = s.ok(&["query", "--metric", "output_throughput", "--rows", "max_concurrency", "--format", "csv"]);
    for tput in ["92.5", "175", "318.2"] {
        assert!(r.stdout.contains(tput), "{tput} missing:\n{r:?}");
    }
}
