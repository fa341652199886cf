//! What reckon makes of the LLM serving harnesses' files in the corpus:
//! vLLM's offline benchmarks, llmperf, guidellm, GenAI-Perf / `AIPerf` and
//! lm-eval-harness — the format detected, the runs, points, params,
//! metrics with their units and directions, repeats, and a few values
//! copied from the fixture each test names.

use std::path::Path;

use reckon::ingest::generic::GenericOptions;
use reckon::ingest::Format;
use reckon::metric::{direction_from_name, Direction};
use reckon::run::{RawRun, Value};
use reckon::Error;

mod common;
use common::corpus::{close, fixture, has_field, head, metric, param, parse, parse_as, text, unit};

/// The message of a refusal, at detection or when the parse found what it
/// would drop.
fn refused(rel: &str) -> String {
    let path = fixture(rel);
    match Format::detect(&path, &head(&path)) {
        Err(Error::UnknownFormat { msg, .. }) => msg,
        Ok(format) => match parse_as(format, &path, &GenericOptions::default()) {
            Err(e) => e.to_string(),
            Ok((runs, _)) => panic!("{rel}: expected a refusal, read {} runs as {}", runs.len(), format.name()),
        },
        Err(e) => panic!("{rel}: {e}"),
    }
}

/// The direction the store gives a metric of this run (from its name and
/// the unit the format stated).
fn direction(run: &RawRun, name: &str) -> Direction {
    direction_from_name(name, unit(run, name))
}

/// The runs of a fixture read again from its bytes with a BOM and Windows
/// line ends: the same format, the same runs.
fn same_with_bom_and_crlf(rel: &str) {
    let (format, runs, _) = parse(rel);
    let text = std::fs::read_to_string(fixture(rel)).unwrap();
    let crlf = format!("\u{feff}{}", text.replace("\r\n", "\n").replace('\n', "\r\n"));
    assert_eq!(Format::detect(Path::new("x.json"), crlf.as_bytes()).unwrap(), format, "{rel}");
    let mut again = Vec::new();
    format
        .parse(Path::new("x.json"), &mut crlf.as_bytes(), &mut |r| {
            again.push(r);
            Ok(())
        })
        .unwrap();
    assert!(again == runs, "{rel}: the runs differ with a BOM and CRLF");
}

// ------------------------------------------------------------------ vLLM

/// `benchmark_latency --output-json`: the 15 iterations are the repeats of
/// `latency` (they were dropped: `latencies[]` was named as skipped), the
/// percentiles vLLM computed are seconds on the first.
#[test]
fn vllm_benchmark_latency_iterations_are_repeats() {
    let rel = "corpus/vllm-bench/latency-llama8b-tp1.json";
    let (f, runs, outcome) = parse(rel);
    assert_eq!(f, Format::VllmBench);
    assert_eq!(f.name(), "vllm-bench");
    assert_eq!(runs.len(), 15);
    assert!(outcome.skipped.is_empty(), "{:?}", outcome.skipped);
    for (i, r) in runs.iter().enumerate() {
        assert_eq!(r.params, vec![("iteration".to_string(), Value::Num((i + 1) as f64))], "one point");
        assert_eq!(r.line, i as u64 + 4, "each iteration at its own line");
        assert_eq!(unit(r, "latency"), Some("s"));
    }
    close(metric(&runs[0], "latency"), 7.438288155943155);
    close(metric(&runs[14], "latency"), 7.42855210416019);
    close(metric(&runs[0], "avg_latency"), 7.419569773475329);
    close(metric(&runs[0], "latency_p99"), 7.734547998122871);
    close(metric(&runs[0], "latency_p10"), 7.179435640573502);
    assert_eq!(runs[0].metrics.len(), 8, "latency, avg_latency and 6 percentiles");
    assert_eq!(runs[1].metrics.len(), 1, "the summaries once");
    for name in ["latency", "avg_latency", "latency_p50", "latency_p99"] {
        assert_eq!(unit(&runs[0], name), Some("s"), "{name}");
        assert_eq!(direction(&runs[0], name), Direction::Lower, "{name}");
    }
    assert_eq!(runs[0].time, None, "the file holds no time");
    same_with_bom_and_crlf(rel);
}

#[test]
fn vllm_benchmark_throughput_rates_and_counts() {
    let rel = "corpus/vllm-bench/throughput-llama8b-tp1.json";
    let (f, runs, outcome) = parse(rel);
    assert_eq!(f, Format::VllmBench);
    assert_eq!(runs.len(), 1);
    assert!(outcome.skipped.is_empty());
    let r = &runs[0];
    assert_eq!(r.params, vec![("num_requests".to_string(), Value::Num(200.0))]);
    close(metric(r, "tokens_per_second"), 1190.9743920852);
    close(metric(r, "requests_per_second"), 2.7631534315929653);
    close(metric(r, "elapsed_time"), 72.38106929324567);
    assert_eq!(metric(r, "total_num_tokens"), 86204.0);
    let seen: Vec<_> = r.metrics.iter().map(|m| (m.name.as_str(), m.unit.as_deref(), direction(r, &m.name))).collect();
    assert_eq!(
        seen,
        [
            ("elapsed_time", Some("s"), Direction::Lower),
            ("requests_per_second", Some("req/s"), Direction::Higher),
            ("tokens_per_second", Some("tok/s"), Direction::Higher),
            ("total_num_tokens", None, Direction::Neutral),
        ]
    );
    same_with_bom_and_crlf(rel);
}

// --------------------------------------------------------------- llmperf

#[test]
fn llmperf_summary_metrics_units_and_time() {
    let rel = "corpus/llmperf/yi34b-vllm-c16-summary.json";
    let (f, runs, outcome) = parse(rel);
    assert_eq!(f, Format::Llmperf);
    assert_eq!(f.name(), "llmperf");
    assert_eq!(runs.len(), 1);
    assert!(outcome.skipped.is_empty(), "no request failed: {:?}", outcome.skipped);
    let r = &runs[0];
    assert_eq!(r.time.as_deref(), Some("2024-06-12T16:21:16Z"));
    assert!(!has_field(r, "timestamp"));
    assert_eq!(r.metrics.len(), 66, "every `results_*` number but the empty error-code table");
    let params: Vec<&str> = r.params.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        params,
        [
            "mean_input_tokens",
            "mean_output_tokens",
            "model",
            "name",
            "num_concurrent_requests",
            "stddev_input_tokens",
            "stddev_output_tokens",
            "version"
        ]
    );
    assert_eq!(param(r, "num_concurrent_requests"), Some(&Value::Num(16.0)));
    assert_eq!(param(r, "model"), Some(&text("01-ai/Yi-1.5-34B-Chat")));
    close(metric(r, "ttft_s_mean"), 5.367653323758857);
    close(metric(r, "ttft_s_p99"), 7.9380509024299135);
    close(metric(r, "end_to_end_latency_s_p50"), 18.014698060000228);
    close(metric(r, "mean_output_throughput_token_per_s"), 124.29275563556878);
    assert_eq!(metric(r, "number_output_tokens_max"), 167.0, "written as text, read as a number");
    let expect = [
        ("ttft_s_mean", Some("s"), Direction::Lower),
        ("inter_token_latency_s_p90", Some("s"), Direction::Lower),
        ("end_to_end_latency_s_max", Some("s"), Direction::Lower),
        ("request_output_throughput_token_per_s_p50", Some("tok/s"), Direction::Higher),
        ("mean_output_throughput_token_per_s", Some("tok/s"), Direction::Higher),
        ("num_completed_requests_per_min", Some("req/min"), Direction::Higher),
        ("error_rate", None, Direction::Lower),
        ("number_errors", None, Direction::Lower),
        ("num_completed_requests", None, Direction::Neutral),
        ("num_requests_started", None, Direction::Neutral),
        ("number_input_tokens_mean", None, Direction::Neutral),
    ];
    for (name, u, d) in expect {
        assert_eq!((unit(r, name), direction(r, name)), (u, d), "{name}");
    }
    let m = refused("corpus/llmperf/yi34b-vllm-c16-individual-responses.json");
    assert!(m.starts_with("looks like llmperf per-request results"), "{m}");
    same_with_bom_and_crlf(rel);
}

/// One summary per concurrency: each its own point (the `timestamp` that
/// differs between them is their time, not a param); where requests
/// failed, the file says how many and that the numbers are the others'.
#[test]
fn llmperf_concurrency_sweep_one_point_each() {
    let files = [
        (1, "corpus/llmperf/yi34b-sweep/tgi/c1.json"),
        (2, "corpus/llmperf/yi34b-sweep/tgi/c2.json"),
        (4, "corpus/llmperf/yi34b-sweep/tgi/c4.json"),
        (8, "corpus/llmperf/yi34b-sweep/tgi/c8.json"),
        (16, "corpus/llmperf/yi34b-sweep/tgi/c16.json"),
        (32, "corpus/llmperf/yi34b-sweep/tgi/c32.json"),
        (64, "corpus/llmperf/yi34b-sweep/tgi/c64.json"),
    ];
    let mut times = Vec::new();
    let mut noted = Vec::new();
    for (c, rel) in files {
        let (f, runs, outcome) = parse(rel);
        assert_eq!(f, Format::Llmperf, "{rel}");
        assert_eq!(runs.len(), 1);
        assert_eq!(param(&runs[0], "num_concurrent_requests"), Some(&Value::Num(f64::from(c))));
        assert!(!has_field(&runs[0], "timestamp"), "{rel}");
        times.push(runs[0].time.clone().unwrap());
        if !outcome.skipped.is_empty() {
            noted.push((c, metric(&runs[0], "number_errors"), outcome.skipped[0].clone()));
        }
    }
    assert_eq!(times[0], "2024-06-12T15:21:52Z");
    assert_eq!(times[6], "2024-06-12T15:43:24Z");
    close(metric(&parse(files[0].1).1[0], "ttft_s_mean"), 0.5928773132048055);
    close(metric(&parse(files[6].1).1[0], "ttft_s_mean"), 7.531542606476272);
    // Only the summaries whose requests failed say so.
    assert!(noted.iter().all(|(_, errors, note)| *errors > 0.0 && note.contains("failed")), "{noted:?}");
    assert!(noted.iter().any(|(c, errors, _)| *c == 64 && *errors == 86.0), "{noted:?}");
}

#[test]
fn llmperf_leaderboard_summary_user_metadata_are_params() {
    let (f, runs, outcome) = parse("corpus/llmperf/leaderboard-anyscale-7b-summary.json");
    assert_eq!(f, Format::Llmperf);
    assert_eq!(runs.len(), 1);
    assert!(outcome.skipped.is_empty());
    let r = &runs[0];
    assert_eq!(r.line, 1);
    assert_eq!(r.time.as_deref(), Some("2023-12-21T05:19:03Z"));
    assert_eq!(param(r, "framework"), Some(&text("anyscale")));
    assert_eq!(param(r, "model_size"), Some(&text("7b")));
    assert_eq!(param(r, "mean_input_tokens"), Some(&Value::Num(550.0)), "a setting of the run");
    assert_eq!(metric(r, "number_input_tokens_min"), 550.0);
    assert_eq!(metric(r, "number_output_tokens_max"), 151.0);
    close(metric(r, "ttft_s_mean"), 0.22518338954666584);
    let m = refused("corpus/llmperf/leaderboard-lepton-7b-individual-130-of-150-errors.json");
    assert!(m.starts_with("looks like llmperf per-request results"), "{m}");
    assert!(m.contains("`*_summary.json`"), "{m}");
}

/// 130 of 150 requests were refused (HTTP 429): llmperf's latencies are of
/// the 20 that got through. The numbers are stored as llmperf wrote them —
/// they are true of those 20 — with the failures as lower-is-better
/// metrics, one per error code, and a note that says whose numbers they are.
#[test]
fn llmperf_mostly_errors_summary_says_whose_numbers_they_are() {
    let (f, runs, outcome) = parse("corpus/llmperf/leaderboard-lepton-7b-summary-mostly-errors.json");
    assert_eq!(f, Format::Llmperf);
    let r = &runs[0];
    assert_eq!(r.metrics.len(), 67);
    assert_eq!(metric(r, "number_errors"), 130.0);
    close(metric(r, "error_rate"), 0.8666666666666667);
    assert_eq!(metric(r, "error_code_frequency.429"), 130.0);
    assert_eq!(direction(r, "error_code_frequency.429"), Direction::Lower);
    assert_eq!(metric(r, "num_completed_requests"), 20.0);
    assert!(!r.params.iter().any(|(k, _)| k.contains("error")), "failures are no point of the sweep");
    assert_eq!(
        outcome.skipped,
        ["130 requests of 150 failed (`results_number_errors`): llmperf's latencies, token counts and \
          throughputs in this file are of the 20 that completed only"]
    );
}

// -------------------------------------------------------------- guidellm

/// One benchmark (the synchronous strategy): its strategy as params, each
/// metric's successful requests' mean, median, min, max and percentiles in
/// its unit, the request totals as counts, and what is left out named.
#[test]
fn guidellm_benchmarks_json_one_run_per_benchmark() {
    let rel = "corpus/guidellm/qwen3-30b-tp4-fp8-synchronous-benchmarks.json";
    let (f, runs, outcome) = parse(rel);
    assert_eq!(f, Format::Guidellm);
    assert_eq!(f.name(), "guidellm");
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(r.time.as_deref(), Some("2026-03-02T17:44:08Z"), "the benchmark's start_time");
    assert_eq!(param(r, "strategy"), Some(&text("synchronous")));
    assert_eq!(param(r, "max_concurrency"), Some(&Value::Num(1.0)));
    assert_eq!(param(r, "model"), Some(&text("Qwen/Qwen3-30B-A3B")));
    assert_eq!(param(r, "args.profile"), Some(&text("synchronous")));
    assert_eq!(param(r, "args.max_seconds"), Some(&Value::Num(900.0)));
    assert_eq!(param(r, "metadata.guidellm_version"), Some(&text("0.5.0.dev0")));
    assert_eq!(param(r, "args.output_dir"), None, "where it wrote is no point of the sweep");
    // 15 distributions × (mean, median, min, max and 11 percentiles), 4 totals.
    assert_eq!(r.metrics.len(), 15 * 15 + 4);
    close(metric(r, "time_to_first_token_ms_mean"), 59.9928153188605);
    close(metric(r, "time_to_first_token_ms_p99"), 72.79777526855469);
    close(metric(r, "time_to_first_token_ms_p001"), 53.69377136230469);
    close(metric(r, "request_latency_median"), 40.01813006401062);
    close(metric(r, "requests_per_second_mean"), 0.024999999999999994);
    close(metric(r, "output_tokens_per_second_mean"), 25.85976549310205);
    assert_eq!(metric(r, "request_totals_successful"), 19.0);
    assert_eq!(metric(r, "request_totals_errored"), 0.0);
    let expect = [
        ("time_to_first_token_ms_mean", Some("ms"), Direction::Lower),
        ("inter_token_latency_ms_p99", Some("ms"), Direction::Lower),
        ("time_per_output_token_ms_median", Some("ms"), Direction::Lower),
        ("request_latency_p50", Some("s"), Direction::Lower),
        ("requests_per_second_mean", Some("req/s"), Direction::Higher),
        ("output_tokens_per_second_median", Some("tok/s"), Direction::Higher),
        ("tokens_per_second_mean", Some("tok/s"), Direction::Higher),
        ("request_concurrency_mean", None, Direction::Neutral),
        ("prompt_token_count_mean", None, Direction::Neutral),
        ("request_streaming_iterations_count_max", None, Direction::Neutral),
        ("request_totals_total", None, Direction::Neutral),
    ];
    for (name, u, d) in expect {
        assert_eq!((unit(r, name), direction(r, name)), (u, d), "{name}");
    }
    assert!(
        !r.metrics.iter().any(|m| m.name.ends_with("_count") || m.name.contains("variance")),
        "no count of a distribution"
    );
    let notes = outcome.skipped.join("\n");
    for named in ["`requests` (per-request detail)", "`metrics.text`", "`scheduler_state`", "`std_dev`", "`errored`"] {
        assert!(notes.contains(named), "{named} in {notes}");
    }
    same_with_bom_and_crlf(rel);
}

/// The same report written as YAML (`--output-path benchmarks.yaml`) is the
/// same run, at the line its benchmark starts on.
#[test]
fn guidellm_benchmarks_yaml_reads_as_its_json() {
    let (_, json, json_outcome) = parse("corpus/guidellm/qwen3-30b-tp4-fp8-synchronous-benchmarks.json");
    let rel = "corpus/guidellm/qwen3-30b-tp4-fp8-synchronous-benchmarks.derived.yaml";
    let (f, yaml, outcome) = parse(rel);
    assert_eq!(f, Format::Guidellm);
    assert_eq!(yaml.len(), 1);
    assert_eq!(yaml[0].line, 46, "the line of `- type_: generative_benchmark`");
    assert_eq!(yaml[0].params, json[0].params);
    assert_eq!(yaml[0].time, json[0].time);
    assert_eq!(yaml[0].metrics.len(), json[0].metrics.len());
    // Equal up to the last bit of float parsing (serde_json's default
    // parser may round a 17-digit decimal one ulp away from Rust's).
    for (y, j) in yaml[0].metrics.iter().zip(&json[0].metrics) {
        assert_eq!((&y.name, &y.unit), (&j.name, &j.unit));
        close(y.value, j.value);
    }
    assert_eq!(outcome.skipped, json_outcome.skipped);
    same_with_bom_and_crlf(rel);
    let e = reckon::ingest::Format::Guidellm
        .parse(
            Path::new("b.yaml"),
            &mut "benchmarks:\n- type_: generative_benchmark\n  metrics: [\n".as_bytes(),
            &mut |_| Ok(()),
        )
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("b.yaml:"), "{e}");
}

// ------------------------------------------------------ GenAI-Perf / AIPerf

/// The CSV GenAI-Perf's exporter writes: the statistics table as
/// `<metric>_<stat>` in the unit of its parentheses, the system table one
/// metric each (it was refused as no format).
#[test]
fn genai_perf_csv_tables_with_units() {
    let rel = "corpus/genai-perf/profile-export-exporter-test.fixture.csv";
    let (f, runs, outcome) = parse(rel);
    assert_eq!(f, Format::GenaiPerfCsv);
    assert_eq!(f.name(), "genai-perf-csv");
    assert_eq!(runs.len(), 1);
    assert!(outcome.skipped.is_empty(), "{:?}", outcome.skipped);
    let r = &runs[0];
    assert!(r.params.is_empty());
    assert_eq!(r.metrics.len(), 6 * 9 + 3);
    close(metric(r, "time_to_first_token_avg"), 8.0);
    close(metric(r, "time_to_first_token_p99"), 8.98);
    close(metric(r, "request_latency_p25"), 4.5);
    close(metric(r, "output_token_throughput"), 456.0);
    close(metric(r, "request_throughput"), 123.0);
    close(metric(r, "request_count"), 3.0);
    let expect = [
        ("time_to_first_token_avg", Some("ms"), Direction::Lower),
        ("time_to_second_token_p50", Some("ms"), Direction::Lower),
        ("inter_token_latency_max", Some("ms"), Direction::Lower),
        ("output_sequence_length_avg", None, Direction::Neutral),
        ("input_sequence_length_p99", None, Direction::Neutral),
        ("output_token_throughput", Some("tok/s"), Direction::Higher),
        ("request_throughput", Some("req/s"), Direction::Higher),
        ("request_count", None, Direction::Neutral),
    ];
    for (name, u, d) in expect {
        assert_eq!((unit(r, name), direction(r, name)), (u, d), "{name}");
    }
    let text = std::fs::read_to_string(fixture(rel)).unwrap();
    let crlf = format!("\u{feff}{}", text.replace('\n', "\r\n"));
    assert_eq!(Format::detect(Path::new("x.csv"), crlf.as_bytes()).unwrap(), f);
    let mut again = Vec::new();
    f.parse(Path::new("x.csv"), &mut crlf.as_bytes(), &mut |r| {
        again.push(r);
        Ok(())
    })
    .unwrap();
    assert!(again == runs, "the same run with a BOM and CRLF");
}

/// The JSON GenAI-Perf's exporter writes (`profile_export_genai_perf.json`):
/// `{unit, avg, …}` as metrics in that unit, `std` not stored, `unit` no
/// param, `input_config` the params.
#[test]
fn genai_perf_json_unit_objects_are_metrics() {
    let rel = "corpus/genai-perf/profile-export-genai-perf-json-exporter-test.fixture.json";
    let (f, runs, outcome) = parse(rel);
    assert_eq!(f, Format::GenaiPerfJson);
    assert_eq!(f.name(), "genai-perf-json");
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(r.metrics.len(), 1 + 9 * 3 + 1 + 9 * 3);
    close(metric(r, "request_throughput"), 7.0);
    close(metric(r, "time_to_first_token_p99"), 12.0);
    close(metric(r, "request_latency_min"), 9.0);
    close(metric(r, "output_token_throughput"), 31.0);
    close(metric(r, "input_sequence_length_p50"), 66.0);
    assert!(!r.metrics.iter().any(|m| m.name.ends_with("_std")), "std is no metric with a direction");
    assert!(!r.params.iter().any(|(k, _)| k.ends_with("unit")), "unit is never a param");
    assert_eq!(param(r, "model"), Some(&text("gpt2_vllm")));
    assert_eq!(param(r, "concurrency"), Some(&Value::Num(1.0)));
    assert_eq!(param(r, "streaming"), Some(&text("true")));
    assert_eq!(param(r, "extra_inputs.max_tokens"), Some(&Value::Num(256.0)));
    assert_eq!(param(r, "artifact_dir"), None, "where it wrote is no point of the sweep");
    let expect = [
        ("request_throughput", Some("req/s"), Direction::Higher),
        ("time_to_first_token_avg", Some("ms"), Direction::Lower),
        ("request_latency_p99", Some("ms"), Direction::Lower),
        ("output_token_throughput_per_request_p50", Some("tok/s"), Direction::Higher),
        ("output_sequence_length_avg", None, Direction::Neutral),
    ];
    for (name, u, d) in expect {
        assert_eq!((unit(r, name), direction(r, name)), (u, d), "{name}");
    }
    assert_eq!(outcome.skipped.len(), 2, "{:?}", outcome.skipped);
    assert!(outcome.skipped[0].contains("`std`"), "{:?}", outcome.skipped);
    assert!(outcome.skipped[1].contains("`input_config.artifact_dir`"), "{:?}", outcome.skipped);
    same_with_bom_and_crlf(rel);
}

// --------------------------------------------------------------- lm-eval

/// One run per task × filter; `…_stderr` the standard error beside its
/// metric, with no direction (it was a metric with direction higher, and
/// the file one run for every task).
#[test]
fn lm_eval_a_run_per_task_and_filter() {
    let rel = "corpus/lm-eval/llama3-8b-instruct-arc.json";
    let (f, runs, outcome) = parse(rel);
    assert_eq!(f, Format::LmEval);
    assert_eq!(f.name(), "lm-eval");
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(r.time.as_deref(), Some("2024-04-19T09:27:55Z"), "`date` is the run's time");
    assert_eq!(param(r, "task"), Some(&text("arc_challenge")));
    assert_eq!(param(r, "filter"), Some(&text("none")));
    assert_eq!(param(r, "num_fewshot"), Some(&Value::Num(25.0)));
    assert_eq!(param(r, "task_version"), Some(&Value::Num(1.0)));
    assert_eq!(param(r, "model"), Some(&text("meta-llama/Meta-Llama-3-8B-Instruct")));
    assert_eq!(param(r, "config.bootstrap_iters"), Some(&Value::Num(100_000.0)));
    assert!(!has_field(r, "date"));
    let names: Vec<&str> = r.metrics.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["acc", "acc_norm", "acc_norm_stderr", "acc_stderr"]);
    close(metric(r, "acc"), 0.5853242320819113);
    close(metric(r, "acc_stderr"), 0.014397070564409172);
    close(metric(r, "acc_norm"), 0.6220136518771331);
    assert_eq!(direction(r, "acc"), Direction::Higher);
    assert_eq!(direction(r, "acc_norm"), Direction::Higher);
    assert_eq!(direction(r, "acc_stderr"), Direction::Neutral);
    assert_eq!(direction(r, "acc_norm_stderr"), Direction::Neutral);
    assert!(
        outcome.skipped.iter().any(|n| n.contains("`configs`") && n.contains("`pretty_env_info`")),
        "{:?}",
        outcome.skipped
    );
    same_with_bom_and_crlf(rel);

    let (f, runs, _) = parse("corpus/lm-eval/llama3-8b-instruct-gsm8k.json");
    assert_eq!(f, Format::LmEval);
    assert_eq!(runs.len(), 2, "strict-match and flexible-extract");
    assert_eq!(param(&runs[1], "filter"), Some(&text("strict-match")));
    close(metric(&runs[1], "exact_match"), 0.7558756633813495);
    close(metric(&runs[0], "exact_match"), 0.7528430629264594);
    close(metric(&runs[0], "exact_match_stderr"), 0.011881764043717087);
    assert_eq!(direction(&runs[0], "exact_match"), Direction::Higher);
    assert_eq!(direction(&runs[0], "exact_match_stderr"), Direction::Neutral);
    assert_eq!(param(&runs[0], "num_fewshot"), Some(&Value::Num(5.0)));
}

/// lm-eval 0.4 writes a group's aggregate in `results` beside its tasks
/// (`mmlu` over 4 subgroups over 57 subjects; `truthfulqa` over its 3
/// tasks), naming the groups in `groups` and `group_subtasks`. A group is
/// no task: its runs have `group` and no `task` (they were 5 more tasks,
/// so `for all task` and `rows=task` counted mmlu beside its subjects).
#[test]
fn lm_eval_a_groups_aggregate_is_a_group_run_not_a_task() {
    let rel = "corpus/lm-eval/llama3-8b-instruct-mmlu.json";
    let (f, runs, _) = parse(rel);
    assert_eq!(f, Format::LmEval);
    assert_eq!(runs.len(), 62);
    let groups: Vec<&RawRun> = runs.iter().filter(|r| param(r, "group").is_some()).collect();
    let tasks: Vec<&RawRun> = runs.iter().filter(|r| param(r, "task").is_some()).collect();
    assert_eq!((groups.len(), tasks.len()), (5, 57));
    assert!(groups.iter().all(|r| param(r, "task").is_none()));
    assert!(tasks.iter().all(|r| param(r, "group").is_none()));
    let mmlu = groups.iter().find(|r| param(r, "group") == Some(&text("mmlu"))).unwrap();
    close(metric(mmlu, "acc"), 0.6581683520865973);
    close(metric(mmlu, "acc_stderr"), 0.003793336441546875);
    assert_eq!(param(mmlu, "filter"), Some(&text("none")));
    // lm-eval's `n-shot` says 0 for mmlu; its 57 subjects ran 5-shot.
    assert_eq!(param(mmlu, "num_fewshot"), Some(&Value::Num(5.0)));
    let stem = groups.iter().find(|r| param(r, "group") == Some(&text("mmlu_stem"))).unwrap();
    assert_eq!(param(stem, "alias"), Some(&text("stem")), "the tree's ` - ` is no part of the alias");
    close(metric(stem, "acc"), 0.5664446558832857);
    let algebra = tasks.iter().find(|r| param(r, "task") == Some(&text("mmlu_abstract_algebra"))).unwrap();
    assert_eq!(param(algebra, "alias"), Some(&text("abstract_algebra")));
    assert_eq!(param(algebra, "num_fewshot"), Some(&Value::Num(5.0)));
    close(metric(algebra, "acc"), 0.31);

    let (_, runs, outcome) = parse("corpus/lm-eval/llama3-8b-instruct-truthfulqa.json");
    assert_eq!(runs.len(), 4);
    let group: Vec<&RawRun> = runs.iter().filter(|r| param(r, "group").is_some()).collect();
    assert_eq!(group.len(), 1);
    assert_eq!(param(group[0], "group"), Some(&text("truthfulqa")));
    assert!(param(group[0], "task").is_none());
    close(metric(group[0], "acc"), 0.43972315197022993);
    assert_eq!(param(group[0], "num_fewshot"), Some(&Value::Num(0.0)));
    let names: Vec<&Value> = runs.iter().filter_map(|r| param(r, "task")).collect();
    assert_eq!(names, [&text("truthfulqa_gen"), &text("truthfulqa_mc1"), &text("truthfulqa_mc2")]);
    // `groups` is read (a copy of the groups' entries), not named as left.
    assert!(outcome.skipped.iter().all(|n| !n.contains("`groups`")), "{:?}", outcome.skipped);
}
