//! What reckon makes of every JSON-family file in the corpus: the format it
//! detects, the runs it parses, exact values read from each file, or how
//! and why it refuses the file. Expected numbers are copied from the fixture
//! files named in each test (`tests/fixtures/…`). The stdout-style files
//! (`*.txt`, `*.log`, `*.md`) are covered by the stdout parser's tests.

use std::path::Path;

use reckon::ingest::generic::GenericOptions;
use reckon::ingest::Format;
use reckon::run::{RawRun, Value};
use reckon::Error;

mod common;
use common::corpus::{close, fixture, has_field, head, metric, param, parse, parse_as, text, unit};

fn parse_bytes(format: Format, bytes: &[u8]) -> reckon::Result<Vec<RawRun>> {
    let mut input = bytes;
    let mut runs = Vec::new();
    format.parse(Path::new("mem.jsonl"), &mut input, &mut |r| {
        runs.push(r);
        Ok(())
    })?;
    Ok(runs)
}

/// The message of the refusal of a fixture.
fn refused(rel: &str) -> String {
    let path = fixture(rel);
    match Format::detect(&path, &head(&path)) {
        Err(Error::UnknownFormat { msg, .. }) => msg,
        other => panic!("{rel}: expected a refusal, got {other:?}"),
    }
}

// ---------------------------------------------------------------- SGLang

#[test]
fn sglang_oldest_schema_single_line_inf_rate() {
    let (f, runs, _) = parse("corpus/sglang/datacrunch-deepseek-dp-mla-old-schema-inf-rate.jsonl");
    assert_eq!(f, Format::SglangJsonl);
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(r.line, 1);
    assert_eq!(param(r, "request_rate"), Some(&Value::Num(f64::INFINITY)));
    assert_eq!(param(r, "backend"), Some(&text("sglang")));
    assert_eq!(param(r, "random_input_len"), Some(&Value::Num(1.0)));
    assert_eq!(param(r, "max_concurrency"), None, "null is left out");
    close(metric(r, "output_throughput"), 12412.394674113431);
    assert_eq!(metric(r, "completed"), 10000.0);
    assert_eq!(unit(r, "duration"), Some("s"));
    assert_eq!(r.time, None);
}

#[test]
fn sglang_old_schema_rate_sweeps() {
    let (f, runs, _) = parse("corpus/sglang/datacrunch-llama405b-online-rate-sweep-old-schema.jsonl");
    assert_eq!(f, Format::SglangJsonl);
    assert_eq!(runs.len(), 6);
    assert_eq!(param(&runs[0], "request_rate"), Some(&Value::Num(1.0)));
    close(metric(&runs[0], "output_throughput"), 504.95546378579655);
    assert_eq!(runs[5].line, 6);
    assert_eq!(param(&runs[5], "dataset_name"), Some(&text("sharegpt")));
    close(metric(&runs[5], "median_ttft_ms"), 294.7253850288689);

    let (_, runs, _) = parse("corpus/sglang/datacrunch-llama70b-online-rate-sweep-old-schema.jsonl");
    assert_eq!(runs.len(), 7);
    assert_eq!(param(&runs[4], "request_rate"), Some(&Value::Num(16.0)));
    close(metric(&runs[6], "output_throughput"), 1471.0864833760852);

    let (_, runs, _) = parse("corpus/sglang/datacrunch-llama70b-offline-old-schema.jsonl");
    assert_eq!(runs.len(), 7);
    assert!(runs.iter().all(|r| param(r, "request_rate") == Some(&Value::Num(f64::INFINITY))));
    close(metric(&runs[0], "median_ttft_ms"), 91282.20983641222);
    close(metric(&runs[6], "output_throughput"), 3939.9256459856624);
}

#[test]
fn sglang_lora_bench_lines() {
    let (f, runs, _) = parse("corpus/sglang/lorabench-dlora-successful_requests-benchmark_duration_s.jsonl");
    assert_eq!(f, Format::SglangJsonl);
    assert_eq!(runs.len(), 6);
    assert_eq!(metric(&runs[0], "successful_requests"), 100.0);
    close(metric(&runs[0], "benchmark_duration_s"), 55.868500796030276);
    assert_eq!(param(&runs[5], "request_rate"), Some(&Value::Num(1000.0)));
    close(metric(&runs[5], "output_throughput"), 958.2466724664115);
}

#[test]
fn sglang_one_batch_with_section_labels_and_blank_line() {
    // Line 1 is `torch:`, lines 2-17 results, 18 blank, 19 `te:`, 20-35.
    let (f, runs, _) = parse("corpus/sglang/one-batch-hand-pasted-with-section-labels-and-blank-line.jsonl");
    assert_eq!(f, Format::SglangJsonl);
    assert_eq!(runs.len(), 32);
    let first = &runs[0];
    assert_eq!(first.line, 2);
    assert_eq!(param(first, "section"), Some(&text("torch")));
    assert_eq!(param(first, "run_name"), Some(&text("test_run")));
    assert_eq!(param(first, "batch_size"), Some(&Value::Num(1.0)));
    assert_eq!(param(first, "input_len"), Some(&Value::Num(256.0)));
    assert_eq!(param(first, "output_len"), Some(&Value::Num(32.0)));
    close(metric(first, "total_latency"), 0.14148664474487305);
    for s in ["prefill_latency", "median_decode_latency", "total_latency"] {
        assert_eq!(unit(first, s), Some("s"), "{s}");
    }
    assert_eq!(unit(first, "prefill_throughput"), None, "derived from the name later");
    assert_eq!(runs.iter().filter(|r| param(r, "section") == Some(&text("torch"))).count(), 16);
    assert_eq!(runs[16].line, 20);
    assert_eq!(param(&runs[16], "section"), Some(&text("te")));
    let last = &runs[31];
    assert_eq!(last.line, 35);
    assert_eq!(param(last, "batch_size"), Some(&Value::Num(128.0)));
    close(metric(last, "overall_throughput"), 44976.158093184866);
}

#[test]
fn sglang_one_batch_server_lines() {
    let (f, runs, _) = parse("corpus/sglang/one-batch-server-latency-output_throughput.jsonl");
    assert_eq!(f, Format::SglangJsonl);
    assert_eq!(runs.len(), 3);
    assert_eq!(metric(&runs[0], "latency"), 0.0654);
    assert_eq!(unit(&runs[0], "latency"), Some("s"));
    assert_eq!(metric(&runs[0], "output_throughput"), 122.37);
    assert_eq!(param(&runs[2], "batch_size"), Some(&Value::Num(64.0)));
    assert_eq!(metric(&runs[2], "overall_throughput"), 78994.36);
}

#[test]
fn sglang_tag_and_server_info() {
    let (f, runs, _) = parse("corpus/sglang/tonyli-agg-tag-serverinfo-schema.jsonl");
    assert_eq!(f, Format::SglangJsonl);
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(param(r, "tag"), Some(&text("agg_n50_in128_out64_c8")));
    assert_eq!(param(r, "max_concurrency"), Some(&Value::Num(8.0)));
    assert_eq!(param(r, "server_info.tp_size"), Some(&Value::Num(1.0)));
    assert_eq!(param(r, "server_info.model_path"), Some(&text("Qwen/Qwen2.5-3B-Instruct")));
    assert_eq!(param(r, "server_info.skip_tokenizer_init"), Some(&text("false")));
    assert!(r.params.iter().all(|(k, _)| !k.contains("internal_states") && !k.contains("cuda_graph_bs")));
    assert!(!has_field(r, "accept_length"), "null accept_length is left out");
    close(metric(r, "p99_itl_ms"), 24.67247089371085);
    assert!(r.metrics.iter().all(|m| !m.name.starts_with("server_info")), "server config is never a metric");
}

#[test]
fn sglang_pd_disaggregation_lists_are_indexed() {
    let (_, runs, _) = parse("corpus/sglang/tonyli-pd-disagg-nested-serverinfo.jsonl");
    let r = &runs[0];
    assert_eq!(param(r, "tag"), Some(&text("pd_1p2d_n100_in2048_out512_c128")));
    assert_eq!(param(r, "server_info.prefill.0.tp_size"), Some(&Value::Num(1.0)));
    assert_eq!(param(r, "server_info.prefill.0.disaggregation_mode"), Some(&text("prefill")));
    assert_eq!(param(r, "server_info.decode.0.disaggregation_mode"), Some(&text("decode")));
    assert!(r.params.iter().all(|(k, _)| !k.contains("internal_states")));
    close(metric(r, "mean_ttft_ms"), 34647.23834743723);

    let (_, runs, _) = parse("corpus/sglang/tonyli-pd-local-sharegpt-null-tag.jsonl");
    let r = &runs[0];
    assert_eq!(param(r, "tag"), None, "null tag is left out");
    assert_eq!(param(r, "dataset_name"), Some(&text("sharegpt")));
    assert_eq!(param(r, "server_info.prefill.0.port"), Some(&Value::Num(30000.0)));
    assert_eq!(param(r, "server_info.decode.0.port"), Some(&Value::Num(30001.0)));
    close(metric(r, "output_throughput"), 4831.451771319632);
}

#[test]
fn sglang_output_details_arrays_are_skipped() {
    let (f, runs, outcome) = parse("corpus/sglang/benchmaq-output-details-ttfts-itls-texts.jsonl");
    assert_eq!(f, Format::SglangJsonl);
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    for a in ["input_lens", "output_lens", "ttfts", "itls", "generated_texts", "errors"] {
        assert!(!has_field(r, a), "{a}");
    }
    assert_eq!(
        outcome.skipped,
        vec!["per-request arrays (errors, generated_texts, input_lens, itls, output_lens, \
            ttfts) are not stored; reckon keeps the summary fields"
            .to_string()]
    );
    close(metric(r, "output_throughput"), 725.0259146544664);
    assert_eq!(metric(r, "total_input_vision_tokens"), 0.0);
    assert_eq!(metric(r, "max_output_tokens_per_s"), 2580.0);
    assert_eq!(param(r, "server_info.tp_size"), Some(&Value::Num(4.0)));
    assert_eq!(param(r, "request_rate"), Some(&Value::Num(f64::INFINITY)));
}

#[test]
fn scenario_sweeps_of_2026_11_29() {
    for (file, tput0, tput_last, spec_v2, topk) in [
        ("baseline", 92.3236, 720.9751, "false", None),
        ("eagle-topk1-v2", 86.3536, 759.5019, "true", Some(1.0)),
        ("eagle-topk4-v1", 95.7248, 352.9475, "false", Some(4.0)),
    ] {
        let (f, runs, outcome) = parse(&format!("../../notebooks/logs/2026-11-29/{file}.jsonl"));
        assert_eq!(f, Format::SglangJsonl, "{file}");
        assert_eq!(runs.len(), 33, "{file}");
        assert!(outcome.skipped.is_empty());
        let first = &runs[0];
        assert_eq!(metric(first, "output_throughput"), tput0, "{file}");
        assert_eq!(param(first, "request_rate"), Some(&Value::Num(f64::INFINITY)));
        assert_eq!(param(first, "max_concurrency"), Some(&Value::Num(1.0)));
        assert_eq!(param(first, "tag"), Some(&text(&format!("kimi-k2.5-int4_{file}_c1"))));
        assert_eq!(param(first, "server_info.enable_spec_v2"), Some(&text(spec_v2)), "{file}");
        assert_eq!(param(first, "server_info.speculative_eagle_topk"), topk.map(Value::Num).as_ref(), "{file}");
        assert_eq!(param(first, "server_info.tp_size"), Some(&Value::Num(8.0)));
        let last = &runs[32];
        assert_eq!(last.line, 33);
        assert_eq!(param(last, "max_concurrency"), Some(&Value::Num(250.0)));
        assert_eq!(metric(last, "output_throughput"), tput_last, "{file}");
    }
    let (_, runs, _) = parse("../../notebooks/logs/2026-11-29/eagle-topk1-v2.jsonl");
    assert_eq!(metric(&runs[0], "accept_length"), 2.31);
}

// ------------------------------------------------------------------ vLLM

#[test]
fn vllm_all_failed_runs_go_in_as_written() {
    let (f, runs, _) = parse("corpus/vllm/benchmaq-all-failed-connection-refused.json");
    assert_eq!(f, Format::VllmJson);
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(r.time.as_deref(), Some("2026-01-29T10:13:02Z"));
    assert_eq!(metric(r, "completed"), 0.0);
    assert_eq!(metric(r, "failed"), 100.0);
    assert_eq!(metric(r, "output_throughput"), 0.0);
    assert!(!has_field(r, "request_goodput"), "null goodput is left out");
    assert!(!has_field(r, "label"));
    assert!(!has_field(r, "date"), "the date is the run time, not a param");
    assert_eq!(param(r, "request_rate"), Some(&Value::Num(f64::INFINITY)));
    assert_eq!(param(r, "model_id"), Some(&text("/workspace/glm47-fp8")));
    assert_eq!(param(r, "num_prompts"), Some(&Value::Num(100.0)));

    let (_, runs, _) = parse("corpus/vllm/er0080-v0.25.1-all-requests-failed-zeros.json");
    let r = &runs[0];
    assert_eq!(r.time.as_deref(), Some("2026-08-18T04:13:50Z"));
    assert_eq!((metric(r, "completed"), metric(r, "failed")), (0.0, 8.0));
    assert_eq!(metric(r, "rtfx"), 0.0);
    assert_eq!(param(r, "max_concurrency"), None);
}

#[test]
fn vllm_save_detailed_arrays_are_skipped() {
    let (f, runs, outcome) = parse("corpus/vllm/benchmaq-save-detailed-per-request-lists.json");
    assert_eq!(f, Format::VllmJson);
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    close(metric(r, "output_throughput"), 21.817457783087047);
    close(metric(r, "p99_e2el_ms"), 5874.720793283777);
    assert_eq!(unit(r, "duration"), Some("s"));
    assert_eq!(
        outcome.skipped,
        vec!["per-request arrays (errors, generated_texts, input_lens, itls, output_lens, start_times, \
            ttfts) are not stored; reckon keeps the summary fields"
            .to_string()]
    );
}

#[test]
fn vllm_single_objects_compact_sorted_and_indented() {
    let (f, runs, _) = parse("corpus/vllm/benchmaq-vllm-bench-serve-e2el-percentiles.json");
    assert_eq!(f, Format::VllmJson);
    let r = &runs[0];
    assert_eq!(param(r, "max_concurrency"), Some(&Value::Num(100.0)));
    assert_eq!(param(r, "endpoint_type"), Some(&text("vllm")));
    close(metric(r, "p99_e2el_ms"), 8873.754767293576);
    assert_eq!(metric(r, "max_concurrent_requests"), 100.0);

    let (f, runs, _) = parse("corpus/vllm/er0080-v0.25.1-sorted-keys.json");
    assert_eq!(f, Format::VllmJson);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].line, 1);
    assert_eq!(runs[0].time.as_deref(), Some("2026-08-16T16:08:53Z"));
    close(metric(&runs[0], "mean_ttft_ms"), 215.53594200008774);

    let (f, runs, _) = parse("corpus/vllm/er0080-v0.25.1-sweep-run0-indent4-extra-keys.json");
    assert_eq!(f, Format::VllmJson);
    let r = &runs[0];
    assert_eq!(param(r, "run_number"), Some(&Value::Num(0.0)));
    assert_eq!(param(r, "max_num_seqs"), Some(&Value::Num(4.0)));
    assert_eq!(param(r, "backend"), Some(&text("openai")));
    close(metric(r, "p99_e2el_ms"), 876.8009717071254);
}

#[test]
fn vllm_sweep_summary_array_is_one_run_per_element() {
    let (f, runs, _) = parse("corpus/vllm/er0080-v0.25.1-sweep-summary-json-array.json");
    assert_eq!(f, Format::VllmJson);
    assert_eq!(runs.len(), 2);
    assert_eq!((runs[0].line, runs[1].line), (2, 44));
    assert_eq!(param(&runs[1], "run_number"), Some(&Value::Num(1.0)));
    assert_eq!(runs[1].time.as_deref(), Some("2026-08-18T02:13:38Z"));
    close(metric(&runs[0], "output_throughput"), 93.74767963046673);
    close(metric(&runs[1], "output_throughput"), 199.36907134182283);
}

#[test]
fn vllm_append_result_lines() {
    let (f, runs, _) = parse("corpus/vllm/nerdalert-graphs-append-result-12-records.json");
    assert_eq!(f, Format::VllmJson);
    assert_eq!(runs.len(), 12);
    assert_eq!(runs.iter().map(|r| r.line).collect::<Vec<_>>(), (1..=12).collect::<Vec<_>>());
    assert_eq!(runs[0].time.as_deref(), Some("2025-04-14T16:51:48Z"));
    assert_eq!(param(&runs[0], "framework"), Some(&text("vllm")));
    assert_eq!(param(&runs[0], "request_rate"), Some(&Value::Num(1.0)));
    assert!(runs.iter().all(|r| !has_field(r, "request_goodput:") && !has_field(r, "request_goodput")));
    close(metric(&runs[0], "output_throughput"), 120.81006055190667);
    assert_eq!(param(&runs[11], "request_rate"), Some(&Value::Num(f64::INFINITY)));
    close(metric(&runs[11], "output_throughput"), 2694.614157374034);
}

#[test]
fn vllm_metadata_strings_and_goodput_colon() {
    let (f, runs, _) = parse("corpus/vllm/nerdalert-llmd-append-result-jsonl-metadata-goodput-colon.json");
    assert_eq!(f, Format::VllmJson);
    assert_eq!(runs.len(), 9);
    let r = &runs[0];
    assert_eq!(param(r, "gpu"), Some(&text("4xNVIDIA_L40S")));
    assert_eq!(param(r, "deployment"), Some(&text("no-features")));
    assert_eq!(param(r, "input_len"), Some(&Value::Num(1000.0)), "`\"1000\"` reads as a number");
    assert_eq!(param(r, "prefill_replicas"), Some(&Value::Num(0.0)));
    assert_eq!(param(r, "decode_replicas"), Some(&Value::Num(4.0)));
    assert_eq!(param(r, "model"), Some(&text("meta-llama/Llama-3.2-3B-Instruct")));
    close(metric(r, "output_throughput"), 2258.212337970085);
    assert_eq!(runs[8].time.as_deref(), Some("2025-05-30T20:13:04Z"));
    assert_eq!(param(&runs[8], "request_rate"), Some(&Value::Num(f64::INFINITY)));
    close(metric(&runs[8], "output_throughput"), 11011.349280220396);
}

#[test]
fn vllm_goodput_colon_key_is_renamed_when_present() {
    let line =
        br#"{"date": "20250414-165148", "backend": "vllm", "model_id": "m", "request_goodput:": 1.25, "completed": 3}"#;
    let runs = parse_bytes(Format::VllmJson, line).unwrap();
    assert_eq!(metric(&runs[0], "request_goodput"), 1.25);
}

// ------------------------------------------------------------- hyperfine

#[test]
fn hyperfine_two_commands() {
    let (f, runs, _) = parse("corpus/hyperfine/1brc-two-commands.json");
    assert_eq!(f, Format::Hyperfine);
    // Three repeats of each command: one run per repeat.
    assert_eq!(runs.len(), 6);
    let lines: Vec<u64> = runs.iter().map(|r| r.line).collect();
    assert_eq!(lines, [3, 3, 3, 23, 23, 23]);
    assert_eq!(param(&runs[0], "command"), Some(&text("cargo run --release --bin 1brc measurements_1000000000.txt")));
    let repeats: Vec<Option<&Value>> = runs[..3].iter().map(|r| param(r, "repeat")).collect();
    assert_eq!(repeats, [Some(&Value::Num(1.0)), Some(&Value::Num(2.0)), Some(&Value::Num(3.0))]);
    // `times`, in order, one per run.
    close(metric(&runs[0], "time"), 13.148435542520001);
    close(metric(&runs[1], "time"), 11.81813333352);
    close(metric(&runs[2], "time"), 9.877873458520002);
    assert_eq!(unit(&runs[2], "time"), Some("s"));
    assert_eq!(metric(&runs[2], "exit_code"), 0.0);
    // hyperfine's summaries, once per command, on its first repeat.
    close(metric(&runs[0], "mean"), 11.61481411152);
    close(metric(&runs[0], "stddev"), 1.6447334482677183);
    assert_eq!(unit(&runs[0], "mean"), Some("s"));
    assert_eq!(runs[0].metrics.len(), 9, "7 summaries, time and exit_code");
    assert_eq!(runs[1].metrics.len(), 2, "time and exit_code");
    close(metric(&runs[3], "max"), 12.36225804252);
    close(metric(&runs[5], "time"), 10.25172425152);
}

#[test]
fn hyperfine_old_file_without_exit_codes() {
    let (f, runs, _) = parse("corpus/hyperfine/dandavison-error-command-no-exit-codes.json");
    assert_eq!(f, Format::Hyperfine);
    assert_eq!(runs.len(), 3);
    let Some(Value::Text(cmd)) = param(&runs[0], "command") else { panic!("no command") };
    assert!(cmd.ends_with("  [ERROR]"));
    close(metric(&runs[0], "mean"), 3.0220133333329403e-6);
    assert_eq!(metric(&runs[0], "median"), 0.0);
    close(metric(&runs[0], "time"), 9.066039999998821e-6);
    assert_eq!(metric(&runs[1], "time"), 0.0);
    assert!(!has_field(&runs[1], "exit_code"), "this hyperfine wrote no exit codes");
}

// ----------------------------------------------------- refused and generic

#[test]
fn criterion_tukey_is_refused_with_what_to_do() {
    let m = refused("corpus/criterion/fib20-fast-new-tukey.json");
    assert!(m.contains("criterion tukey.json"), "{m}");
    assert!(m.contains("export the numbers you need as CSV or JSON lines"), "{m}");
}

#[test]
fn llmperf_per_request_results_are_refused() {
    let m = refused("corpus/llmperf/leaderboard-lepton-7b-individual-130-of-150-errors.json");
    assert!(m.starts_with("looks like llmperf per-request results"), "{m}");
    assert!(m.contains("`*_summary.json`"), "{m}");
}

/// Every fixture of the corpus, whatever its kind, has a test stating what
/// it reads to (or how it is refused): here, in `formats_neighbours`,
/// `formats_serving`, `formats_console` or `formats_stdout`; a new one must
/// get its own.
#[test]
fn every_corpus_fixture_is_covered() {
    let covered = [
        include_str!("formats_json.rs"),
        include_str!("formats_neighbours.rs"),
        include_str!("formats_serving.rs"),
        include_str!("formats_console.rs"),
        include_str!("formats_stdout.rs"),
    ]
    .concat();
    let mut files = Vec::new();
    let mut dirs = vec![fixture("corpus")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_none_or(|n| n != "SOURCES.md") {
                // A folder's SOURCES.md says where its fixtures come from.
                files.push(path);
            }
        }
    }
    assert!(files.len() > 70, "the corpus is missing: {} files", files.len());
    for path in files {
        let rel = path.strip_prefix(fixture("")).unwrap().display().to_string();
        assert!(covered.contains(&format!("{rel}\"")), "no test for {rel}");
    }
}

// ------------------------------------------------- detection edge cases

#[test]
fn empty_binary_and_prose_files_are_refused() {
    let p = Path::new("x.log");
    let msg = |r: reckon::Result<Format>| match r {
        Err(Error::UnknownFormat { msg, .. }) => msg,
        other => panic!("expected a refusal, got {other:?}"),
    };
    assert_eq!(msg(Format::detect(p, b"")), "the file is empty: there are no runs to ingest");
    assert_eq!(msg(Format::detect(p, b"\n  \n")), "the file is empty: there are no runs to ingest");
    assert!(msg(Format::detect(p, b"\x89PNG\r\n\x1a\n\0\0")).starts_with("this is a binary file"));
    assert!(msg(Format::detect(p, b"caf\xe9 au lait\n")).starts_with("this is a binary file"));
    let m = msg(Format::detect(p, b"Dear diary,\ntoday the GPUs were warm.\n"));
    assert!(m.starts_with("not a benchmark log reckon knows;"), "{m}");
    // The content of a file that is not a log is never quoted (it may be a secret).
    assert!(!m.contains("Dear diary") && !m.contains("GPUs"), "{m}");
    assert!(m.contains("--format"), "{m}");
    assert!(msg(Format::detect(p, b"[]")).contains("empty JSON array"));
    let e = Format::detect(p, b"[1, 2]").unwrap_err().to_string();
    assert!(e.starts_with("x.log: the file is a JSON array of numbers"), "{e}");
}

#[test]
fn a_head_cut_inside_a_character_is_still_text() {
    let mut head = "{\"backend\": \"sglang\", \"completed\": 1, \"t\": \"é".as_bytes().to_vec();
    head.pop();
    assert_eq!(Format::detect(Path::new("x"), &head).unwrap(), Format::SglangJsonl);
}

#[test]
fn csv_and_generic_jsonl_are_detected() {
    let p = Path::new("x");
    assert_eq!(Format::detect(p, b"config,concurrency,output_throughput\nbaseline,8,512.5\n").unwrap(), Format::Csv);
    assert_eq!(
        Format::detect(p, b"{\"config\": \"a\", \"tput\": 1}\n{\"config\": \"b\", \"tput\": 2}\n").unwrap(),
        Format::Jsonl
    );
    assert_eq!(Format::detect(p, b"[{\"config\": \"a\", \"tput\": 1}]").unwrap(), Format::Jsonl);
}

// ------------------------------------------------------- JSON dialect

#[test]
fn truncated_json_line_is_malformed_at_its_line() {
    let full = std::fs::read(fixture("corpus/sglang/datacrunch-llama405b-online-rate-sweep-old-schema.jsonl")).unwrap();
    // Keep lines 1-2 and half of line 3.
    let third = full.iter().enumerate().filter(|(_, &b)| b == b'\n').nth(1).unwrap().0 + 1;
    let cut = &full[..third + 200];
    match parse_bytes(Format::SglangJsonl, cut) {
        Err(Error::Malformed { line, msg, .. }) => {
            assert_eq!(line, 3);
            assert!(msg.contains("cut short"), "{msg}");
        }
        other => panic!("expected Malformed, got {other:?}"),
    }
    // The same for vLLM append-result lines and generic JSON lines.
    let vllm = b"{\"date\": \"20250414-165148\", \"completed\": 1}\n{\"date\": \"2025";
    assert!(matches!(parse_bytes(Format::VllmJson, vllm), Err(Error::Malformed { line: 2, .. })));
    let generic = b"{\"a\": 1}\n\n{\"a\": 2}\n{\"a\": ";
    assert!(matches!(parse_bytes(Format::Jsonl, generic), Err(Error::Malformed { line: 4, .. })));
}

#[test]
fn nan_inside_a_string_is_not_a_token() {
    let line =
        br#"{"backend": "sglang", "completed": 2, "note": "NaN Infinity -Infinity", "generated_texts": ["NaN"]}"#;
    let runs = parse_bytes(Format::SglangJsonl, line).unwrap();
    assert_eq!(param(&runs[0], "note"), Some(&text("NaN Infinity -Infinity")));
    assert_eq!(metric(&runs[0], "completed"), 2.0);
}

#[test]
fn bare_non_finite_tokens_parse() {
    let line = concat!(
        r#"{"backend": "sglang", "request_rate": Infinity, "mean_e2e_latency_ms": NaN, "#,
        r#""odd_ms": -Infinity, "completed": 0}"#,
    )
    .as_bytes();
    let runs = parse_bytes(Format::SglangJsonl, line).unwrap();
    let r = &runs[0];
    assert_eq!(param(r, "request_rate"), Some(&Value::Num(f64::INFINITY)));
    assert!(metric(r, "mean_e2e_latency_ms").is_nan());
    assert_eq!(metric(r, "odd_ms"), f64::NEG_INFINITY);
    let runs = parse_bytes(Format::Jsonl, b"{\"x\": -Infinity, \"y\": [NaN]}").unwrap();
    assert_eq!(metric(&runs[0], "x"), f64::NEG_INFINITY);
}

/// A generic JSONL log and the CSV of the same data are typed alike: one
/// `"NaN"` string (a failed run, a tool that writes floats as strings) left
/// the JSONL's whole `tput` column a param, every run without the metric,
/// while the CSV's `nan` kept it.
#[test]
fn finding_11_a_nan_string_in_generic_jsonl_is_typed_as_csv_types_it() {
    let read = |rel: &str| {
        let path = fixture(rel);
        let format = Format::detect(&path, &head(&path)).unwrap();
        (format, parse_as(format, &path, &GenericOptions::default()).unwrap().0)
    };
    let (jsonl_format, jsonl) = read("findings/22-nan-string/r.jsonl");
    let (csv_format, csv) = read("findings/22-nan-string/r.csv");
    assert_eq!((jsonl_format, csv_format), (Format::Jsonl, Format::Csv));
    assert_eq!(jsonl.len(), 3);
    let sorted = |mut v: Vec<(String, Value)>| {
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    for (j, c) in jsonl.iter().zip(&csv) {
        assert_eq!(sorted(j.params.clone()), sorted(c.params.clone()), "line {}", j.line);
        assert!(param(j, "tput").is_none(), "tput is a param at line {}", j.line);
        let names = |r: &RawRun| r.metrics.iter().map(|m| m.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(j), names(c), "line {}", j.line);
    }
    assert_eq!((metric(&jsonl[0], "tput"), metric(&jsonl[1], "tput")), (100.5, 200.5));
    assert!(metric(&jsonl[2], "tput").is_nan() && metric(&csv[2], "tput").is_nan());
    // Numbers written as strings are numbers, as in a CSV cell; other text stays text.
    let runs = parse_bytes(
        Format::Jsonl,
        b"{\"c\": \"x\", \"n\": \"8\", \"t\": \"1.5\"}\n{\"c\": \"y\", \"n\": 16, \"t\": 2.5}\n",
    )
    .unwrap();
    assert_eq!((param(&runs[0], "c"), param(&runs[0], "n")), (Some(&text("x")), Some(&Value::Num(8.0))));
    assert_eq!(metric(&runs[0], "t"), 1.5);
}

#[test]
fn overrides_apply_to_every_format() {
    // max_concurrent_requests is a metric by SGLang's rules; force it to a
    // param, and the tag (text) to a metric, which must fail.
    let path = fixture("corpus/sglang/benchmaq-output-details-ttfts-itls-texts.jsonl");
    let opts = GenericOptions { params: vec!["max_concurrent_requests".into()], metrics: vec![] };
    let (runs, _) = parse_as(Format::SglangJsonl, &path, &opts).unwrap();
    assert_eq!(param(&runs[0], "max_concurrent_requests"), Some(&Value::Num(100.0)));
    assert!(runs[0].metrics.iter().all(|m| m.name != "max_concurrent_requests"));
    let opts = GenericOptions { params: vec![], metrics: vec!["dataset_name".into()] };
    let e = parse_as(Format::SglangJsonl, &path, &opts).unwrap_err().to_string();
    assert!(
        e.ends_with(":1: `dataset_name` is set to be a metric in reckon.toml, but its value `random` is not a number"),
        "{e}"
    );
}
