//! Shapes of the corpus files as they reach researchers in the wild: a
//! JSON document behind the console lines its tool printed on the same
//! stream (Google Benchmark's `***WARNING***` lines before
//! `--benchmark_format=json` on stdout), and an llmperf summary whose
//! `results_error_code_frequency` is a JSON object rather than the text
//! of a Python dict. Each is read whole, with the file's own line numbers,
//! or refused at its line.

use std::io::BufReader;

use reckon::ingest::generic::GenericOptions;
use reckon::ingest::{Format, LineBytes};

mod common;
use common::corpus::{close, fixture, head, metric, parse, parse_as};
use common::Sandbox;

const WARNINGS: &str = "***WARNING*** CPU scaling is enabled, the benchmark real time measurements may be noisy \
                        and will incur extra overhead.\n\
                        ***WARNING*** Library was built as DEBUG. Timings may be affected.\n";

/// Google Benchmark's JSON after its warnings: the same runs as the file
/// alone, each at its line of the whole file, and the two lines named.
#[test]
fn gbench_json_behind_warning_lines_is_read_whole_at_its_own_lines() {
    let rel = "corpus/gbench/kokkos-mempool-user-counters-time-unit-s.json";
    let (_, alone, _) = parse(rel);
    let s = Sandbox::new();
    let json = std::fs::read_to_string(fixture(rel)).unwrap();
    let path = s.write("bench.json", format!("{WARNINGS}{json}"));
    let format = Format::detect(&path, &head(&path)).unwrap();
    assert_eq!(format, Format::GbenchJson);
    let (runs, outcome) = parse_as(format, &path, &GenericOptions::default()).unwrap();
    assert_eq!(runs.len(), alone.len());
    assert_eq!(runs.len(), 2);
    for (behind, own) in runs.iter().zip(&alone) {
        assert_eq!(behind.line, own.line + 2);
        assert_eq!(behind.params, own.params);
        assert_eq!(behind.metrics, own.metrics);
        assert_eq!(behind.time, own.time);
    }
    // 3.8410631264108348e-04 s, kept in ns as every Google Benchmark time.
    close(metric(&runs[0], "real_time"), 384_106.312_641_083_5);
    assert!(
        outcome.skipped.iter().any(|n| n
            == "lines 1–2: console output before the JSON (warnings, log lines), not data, \
                                              not stored"),
        "{outcome:?}"
    );
    // Through the command: exit 0, the note said, every value stored.
    let ran = s.ok(&["ingest", "bench.json"]);
    assert!(ran.stderr.contains("2 runs (gbench-json)"), "{ran:?}");
    assert!(ran.stderr.contains("lines 1–2: console output before the JSON"), "{ran:?}");
    let stored = s.counts().2;
    let expected: usize = alone.iter().map(|r| r.metrics.len()).sum();
    assert_eq!(stored, i64::try_from(expected).unwrap());
}

/// A broken document behind the warnings is refused at the line of the
/// break in the whole file, with the CRLF the capture may have.
#[test]
fn gbench_json_behind_warning_lines_broken_is_refused_at_its_line() {
    let s = Sandbox::new();
    let json = concat!(
        "{\n  \"context\": {\"date\": \"2024-05-01T10:00:00+00:00\"},\n  \"benchmarks\": [\n",
        "    {\"name\": \"BM_Copy/8\", \"real_time\": oops}\n  ]\n}\n"
    );
    let text = format!("{WARNINGS}{json}").replace('\n', "\r\n");
    s.write("bench.json", text);
    let ran = s.run(&["ingest", "bench.json"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.contains("bench.json:6"), "the break is on line 6 of the file: {ran:?}");
}

/// Console lines before generic JSON lines are not looked past: a line of
/// data taken for a console message would be dropped without a word.
#[test]
fn console_lines_before_json_no_tool_claims_are_not_skipped() {
    let s = Sandbox::new();
    s.write("log.jsonl", "INFO: starting\n{\"config\": \"a\", \"tps\": 1.5}\n");
    let ran = s.run(&["ingest", "log.jsonl"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert_eq!(s.counts().1, 0);
}

/// llmperf's summary with `results_error_code_frequency` written as a JSON
/// object: `{}` is no failed request (it was refused as "expected
/// `{code: count}`"), `{"429": 3}` a count per code, like its text form.
#[test]
fn llmperf_error_code_frequency_as_an_empty_json_object_is_no_errors() {
    let rel = "corpus/llmperf/yi34b-vllm-c16-summary.json";
    let (_, text_form, _) = parse(rel);
    let original = std::fs::read_to_string(fixture(rel)).unwrap();
    assert!(original.contains("\"results_error_code_frequency\": \"{}\""));
    let s = Sandbox::new();
    let path = s.write(
        "summary.json",
        original.replace("\"results_error_code_frequency\": \"{}\"", "\"results_error_code_frequency\": {}"),
    );
    let format = Format::detect(&path, &head(&path)).unwrap();
    assert_eq!(format, Format::Llmperf);
    let mut input = BufReader::new(std::fs::File::open(&path).unwrap());
    let mut runs = Vec::new();
    let outcome = format
        .parse_with(&path, &mut input, &GenericOptions::default(), LineBytes::default(), &mut |r| {
            runs.push(r);
            Ok(())
        })
        .unwrap();
    assert!(outcome.skipped.is_empty(), "{outcome:?}");
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].metrics, text_form[0].metrics);
    assert_eq!(runs[0].params, text_form[0].params);
    assert_eq!(metric(&runs[0], "error_rate"), 0.0);
    assert!(!runs[0].metrics.iter().any(|m| m.name.starts_with("error_code_frequency")));
    s.ok(&["ingest", "summary.json"]);
    // The lepton summary's 130 errors of code 429, as an object.
    let rel = "corpus/llmperf/leaderboard-lepton-7b-summary-mostly-errors.json";
    let original = std::fs::read_to_string(fixture(rel)).unwrap();
    let as_object = original.replace("\"{429.0: 130}\"", "{\"429.0\": 130}");
    assert_ne!(as_object, original);
    s.write("lepton.json", as_object);
    s.ok(&["ingest", "lepton.json"]);
    let ran = s.ok(&["export", "--format", "jsonl", "--metric", "error_code_frequency.429"]);
    let codes: Vec<serde_json::Value> =
        ran.stdout.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["value"].clone()).collect();
    assert_eq!(codes, [serde_json::json!(130.0)], "{ran:?}");
}
