//! What reckon makes of the corpus files tools print as text (console
//! reports, summaries, tables): the format it detects and the runs it reads
//! — params, metrics, units, directions, repeats — or how it refuses the
//! file. Expected numbers are copied from the fixture named in each test.

use reckon::ingest::generic::GenericOptions;
use reckon::ingest::Format;
use reckon::metric::{direction_from_name, Direction};
use reckon::run::{RawRun, Value};

mod common;
use common::corpus::{close, metric, param, parse, text, unit};

/// The direction a metric of a run is stored with (the store takes it from
/// the name and the unit the reader gives).
fn direction(run: &RawRun, name: &str) -> Direction {
    direction_from_name(name, unit(run, name).or_else(|| reckon::metric::unit_from_name(name)))
}

// ------------------------------------------------------------ trtllm-bench

#[test]
fn trtllm_bench_throughput_report_behind_console_prefixes_is_one_run() {
    let (format, runs, outcome) = parse("corpus/trtllm-bench/throughput_stdout_excerpt.log");
    assert_eq!(format, Format::TrtllmBench);
    assert!(outcome.skipped.is_empty(), "{outcome:?}");
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    // The report starts at its first rule's title, after the console lines.
    assert_eq!(r.line, 8);
    assert_eq!(param(r, "model"), Some(&text("meta-llama/Llama-3.1-8B")));
    assert_eq!(param(r, "backend"), Some(&text("tensorrt")));
    assert_eq!(param(r, "dtype"), Some(&text("bfloat16")));
    assert_eq!(param(r, "kv_cache_dtype"), Some(&text("FP8")));
    assert_eq!(param(r, "quantization"), Some(&text("FP8")));
    assert_eq!(param(r, "version"), Some(&text("0.17.0")));
    assert_eq!(param(r, "max_seq_len"), Some(&Value::Num(256.0)));
    assert_eq!(param(r, "tp_size"), Some(&Value::Num(1.0)));
    assert_eq!(param(r, "pp_size"), Some(&Value::Num(1.0)));
    assert_eq!(param(r, "max_batch_size"), Some(&Value::Num(4096.0)));
    assert_eq!(param(r, "scheduling_policy"), Some(&text("Guaranteed No Evict")));
    assert_eq!(param(r, "kv_cache_percentage"), Some(&Value::Num(0.9)));
    assert_eq!(param(r, "issue_rate"), Some(&Value::Num(5.0689e14)));
    let names: Vec<&str> = r.metrics.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "num_requests",
            "avg_input_length",
            "avg_output_length",
            "token_throughput",
            "request_throughput_req_s",
            "total_latency_ms"
        ]
    );
    close(metric(r, "token_throughput"), 28390.4265);
    close(metric(r, "request_throughput_req_s"), 221.8002);
    close(metric(r, "total_latency_ms"), 13525.6862);
    assert_eq!(metric(r, "num_requests"), 3000.0);
    assert_eq!(unit(r, "token_throughput"), Some("tok/s"));
    assert_eq!(unit(r, "request_throughput_req_s"), Some("req/s"));
    assert_eq!(unit(r, "total_latency_ms"), Some("ms"));
    assert_eq!(direction(r, "token_throughput"), Direction::Higher);
    assert_eq!(direction(r, "request_throughput_req_s"), Direction::Higher);
    assert_eq!(direction(r, "total_latency_ms"), Direction::Lower);
    assert_eq!(direction(r, "num_requests"), Direction::Neutral);
}

#[test]
fn trtllm_bench_pytorch_report_reads_its_latency_breakdown() {
    let (format, runs, _) = parse("corpus/trtllm-bench/pytorch_multimodal_excerpt.log");
    assert_eq!(format, Format::TrtllmBench);
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(param(r, "ep_size"), None, "`EP Size: None` is not set");
    assert_eq!(param(r, "scheduling_policy"), Some(&text("GUARANTEED_NO_EVICT")));
    assert_eq!(param(r, "max_num_tokens"), Some(&Value::Num(12288.0)));
    assert_eq!(r.metrics.len(), 18);
    close(metric(r, "avg_num_concurrent_requests"), 5.3019);
    close(metric(r, "system_output_throughput_tok_s"), 185.8351);
    close(metric(r, "system_total_throughput_tok_s"), 780.1607);
    close(metric(r, "output_throughput_per_user_tok_s"), 38.1959);
    close(metric(r, "output_throughput_per_gpu_tok_s"), 185.8351);
    close(metric(r, "avg_request_latency_ms"), 3671.8441);
    close(metric(r, "request_latency_p50_ms"), 3936.3022);
    close(metric(r, "request_latency_p99_ms"), 5514.4701);
    close(metric(r, "request_latency_min_ms"), 2397.1047);
    close(metric(r, "request_latency_avg_ms"), 3671.8441);
    assert_eq!(unit(r, "output_throughput_per_user_tok_s"), Some("tok/s/user"));
    assert_eq!(unit(r, "request_latency_p90_ms"), Some("ms"));
    assert_eq!(direction(r, "output_throughput_per_gpu_tok_s"), Direction::Higher);
    assert_eq!(direction(r, "request_latency_max_ms"), Direction::Lower);
}

#[test]
fn trtllm_bench_reports_one_after_another_are_runs_of_their_own() {
    let one =
        std::fs::read_to_string(common::fixtures().join("corpus/trtllm-bench/throughput_stdout_excerpt.log")).unwrap();
    let two = format!("{one}{}", one.replace("28390.4265", "29000.5"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.log");
    std::fs::write(&path, two.replace('\n', "\r\n")).unwrap();
    let format = Format::detect(&path, two.as_bytes()).unwrap();
    let (runs, _) = common::corpus::parse_as(format, &path, &GenericOptions::default()).unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!((runs[0].line, runs[1].line), (8, 51));
    close(metric(&runs[1], "token_throughput"), 29000.5);
    assert_eq!(param(&runs[1], "model"), Some(&text("meta-llama/Llama-3.1-8B")));
}

#[test]
fn a_trtllm_bench_report_cut_before_its_numbers_is_refused() {
    let text = "===========================================================\n= ENGINE DETAILS\n\
                ===========================================================\nModel:   m\nDtype:   float16\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.log");
    std::fs::write(&path, text).unwrap();
    assert_eq!(Format::detect(&path, text.as_bytes()).unwrap(), Format::TrtllmBench);
    let e = common::corpus::parse_as(Format::TrtllmBench, &path, &GenericOptions::default()).unwrap_err().to_string();
    assert!(e.contains("cut.log:2: this trtllm-bench report has no request or performance section"), "{e}");
}

// ------------------------------------------------------------ MLPerf loadgen

/// The run both of a test's loadgen files give: the same names and values.
fn assert_sdxl_offline(r: &RawRun) {
    assert_eq!(param(r, "scenario"), Some(&text("Offline")));
    assert_eq!(param(r, "mode"), Some(&text("PerformanceOnly")));
    assert_eq!(param(r, "result"), Some(&text("VALID")));
    assert_eq!(param(r, "sut_name"), Some(&text("PySUT")));
    assert_eq!(param(r, "min_duration_satisfied"), Some(&text("Yes")));
    assert_eq!(param(r, "early_stopping_satisfied"), Some(&text("Yes")));
    assert_eq!(param(r, "samples_per_query"), Some(&Value::Num(10.0)));
    assert_eq!(param(r, "target_latency_ns"), Some(&Value::Num(0.0)));
    assert_eq!(param(r, "min_duration_ms"), Some(&Value::Num(0.0)));
    assert_eq!(param(r, "performance_sample_count"), Some(&Value::Num(5000.0)));
    // A seed past 2^53 keeps its digits.
    assert_eq!(param(r, "qsl_rng_seed"), Some(&text("13281865557512327830")));
    close(metric(r, "samples_per_second"), 0.165037);
    assert_eq!(unit(r, "samples_per_second"), Some("samples/s"));
    assert_eq!(direction(r, "samples_per_second"), Direction::Higher);
    for (name, v) in [
        ("min_latency_ns", 6_268_465_782.0),
        ("max_latency_ns", 60_592_566_749.0),
        ("mean_latency_ns", 33_431_331_185.0),
        ("p50_latency_ns", 36_448_535_095.0),
        ("p99.9_latency_ns", 60_592_566_749.0),
    ] {
        assert_eq!(metric(r, name), v, "{name}");
        assert_eq!(unit(r, name), Some("ns"), "{name}");
        assert_eq!(direction(r, name), Direction::Lower, "{name}");
    }
}

#[test]
fn mlperf_loadgen_summary_is_one_run_with_its_scenario_result_and_latencies_in_ns() {
    let (format, runs, outcome) = parse("corpus/mlperf/sdxl-offline-mlperf_log_summary.txt");
    assert_eq!(format, Format::MlperfSummary);
    assert!(outcome.skipped.is_empty(), "{outcome:?}");
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(r.line, 2);
    assert_sdxl_offline(r);
    let names: Vec<&str> = r.metrics.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "samples_per_second",
            "min_latency_ns",
            "max_latency_ns",
            "mean_latency_ns",
            "p50_latency_ns",
            "p90_latency_ns",
            "p95_latency_ns",
            "p97_latency_ns",
            "p99_latency_ns",
            "p99.9_latency_ns"
        ]
    );
}

#[test]
fn mlperf_loadgen_detail_events_give_the_summary_run_and_its_time() {
    let (format, runs, outcome) = parse("corpus/mlperf/sdxl-offline-mlperf_log_detail.txt");
    assert_eq!(format, Format::MlperfDetail);
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_sdxl_offline(r);
    assert_eq!(r.time.as_deref(), Some("2024-06-01T14:48:08Z"));
    assert_eq!(param(r, "loadgen_version"), Some(&text("4.0 @ fa4fe53e53")));
    assert_eq!(metric(r, "query_count"), 1.0);
    assert_eq!(param(r, "target_latency_percentile"), Some(&Value::Num(0.99)));
    // Every metric of the summary file, under the same name.
    let (_, summary, _) = parse("corpus/mlperf/sdxl-offline-mlperf_log_summary.txt");
    for m in &summary[0].metrics {
        assert_eq!(metric(r, &m.name), m.value, "{}", m.name);
    }
    // What is not stored is named.
    assert!(outcome.skipped.iter().any(|n| n.contains("requested_*")), "{outcome:?}");
    assert!(
        outcome.skipped.iter().any(|n| n.contains("loaded_qsl_set") && n.contains("generated_query_count")),
        "{outcome:?}"
    );
}

// ------------------------------------------------------------ nvbench --md

#[test]
fn nvbench_markdown_tables_give_the_runs_the_json_and_csv_readers_give() {
    let (format, runs, outcome) = parse("corpus/nvbench/histogram-rtx3060-markdown.md");
    assert_eq!(format, Format::NvbenchMarkdown);
    assert!(outcome.skipped.is_empty(), "{outcome:?}");
    // Four benchmarks: 26 + 26 array sizes, then 6 block sizes each.
    assert_eq!(runs.len(), 64);
    let r = &runs[0];
    assert_eq!(param(r, "benchmark"), Some(&text("Simple Histogram (Different Array sizes)")));
    assert_eq!(param(r, "device"), Some(&Value::Num(0.0)));
    assert_eq!(param(r, "device_name"), Some(&text("NVIDIA GeForce RTX 3060")));
    // Axes, named by the log's `Run:` lines; a power of two is its value.
    assert_eq!(param(r, "Array Size"), Some(&Value::Num(2.0)));
    assert_eq!(param(r, "Num Bins"), Some(&Value::Num(512.0)));
    assert_eq!(param(r, "Num Threads"), Some(&Value::Num(512.0)));
    let names: Vec<&str> = r.metrics.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "num_elements",
            "memory_reads",
            "memory_writes",
            "samples",
            "cpu_time",
            "cpu_noise",
            "gpu_time",
            "gpu_noise",
            "items_per_second",
            "global_mem_bw",
            "bandwidth_util",
            "batch_samples",
            "batch_gpu_time"
        ]
    );
    assert_eq!(metric(r, "num_elements"), 2.0);
    assert_eq!((metric(r, "memory_reads"), unit(r, "memory_reads")), (8.0, Some("B")));
    assert_eq!(metric(r, "memory_writes"), 2048.0);
    assert_eq!((metric(r, "samples"), metric(r, "batch_samples")), (73958.0, 96903.0));
    close(metric(r, "cpu_time"), 27.050e-6);
    close(metric(r, "gpu_time"), 6.761e-6);
    close(metric(r, "batch_gpu_time"), 5.160e-6);
    assert_eq!(unit(r, "gpu_time"), Some("s"));
    close(metric(r, "cpu_noise"), 3.0504);
    close(metric(r, "gpu_noise"), 0.134);
    close(metric(r, "items_per_second"), 295_832.0);
    assert_eq!(unit(r, "items_per_second"), Some("items/s"));
    close(metric(r, "global_mem_bw"), 304.115e6);
    assert_eq!(unit(r, "global_mem_bw"), Some("B/s"));
    close(metric(r, "bandwidth_util"), 0.0008);
    assert_eq!(direction(r, "gpu_time"), Direction::Lower);
    assert_eq!(direction(r, "items_per_second"), Direction::Higher);
    // The last row of the first table: ms, MiB and G in their cells.
    let last = &runs[25];
    assert_eq!(param(last, "Array Size"), Some(&Value::Num(67_108_864.0)));
    close(metric(last, "gpu_time"), 36.271e-3);
    assert_eq!(metric(last, "memory_reads"), 256.0 * 1_048_576.0);
    close(metric(last, "items_per_second"), 1.850e9);
    let grid = &runs[52];
    assert_eq!(param(grid, "benchmark"), Some(&text("Simple Histogram (Different Grid and Block sizes)")));
    assert_eq!(param(grid, "Num Threads"), Some(&Value::Num(32.0)));
}

#[test]
fn nvbench_markdown_without_its_log_is_refused_naming_the_exports_that_work() {
    let md = std::fs::read_to_string(common::fixtures().join("corpus/nvbench/histogram-rtx3060-markdown.md")).unwrap();
    let results = &md[md.find("# Benchmark Results").unwrap()..];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.md");
    std::fs::write(&path, results).unwrap();
    let e = common::corpus::parse_as(Format::NvbenchMarkdown, &path, &GenericOptions::default()).unwrap_err();
    assert!(e.to_string().contains("no log `Run:` lines") && e.to_string().contains("`--json` or `--csv`"), "{e}");
}

// ------------------------------------------- refused, with the export that works

fn refused(rel: &str) -> String {
    let path = common::fixtures().join(rel);
    match Format::detect(&path, &common::corpus::head(&path)) {
        Err(reckon::Error::UnknownFormat { msg, .. }) => msg,
        other => panic!("{rel}: expected a refusal, got {other:?}"),
    }
}

#[test]
fn perf_stat_output_is_refused_naming_the_tool_and_an_export_that_works() {
    // German locale: `39.293.025.980` cycles, `19.730,56 msec`.
    let m = refused("corpus/perf-stat/tiled-matmul-de_DE.profile");
    assert!(m.starts_with("looks like `perf stat` output"), "{m}");
    assert!(m.contains("CSV with a header row"), "{m}");
}

#[test]
fn a_torch_benchmark_compare_table_is_refused_naming_the_export_that_works() {
    let m = refused("corpus/torch-benchmark/interpolate-pr-vs-nightly-compare.md");
    assert!(m.starts_with("looks like a `torch.utils.benchmark` `Compare` table"), "{m}");
    assert!(m.contains("JSON lines") && m.contains("m.median"), "{m}");
}
