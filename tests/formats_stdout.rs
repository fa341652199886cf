//! The "Serving Benchmark Result" stdout reader against every console log
//! in the fixture corpus and the scenario's old sweep. Expected numbers are
//! copied from the fixture files themselves (line numbers given).

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use reckon::ingest::stdout::{parse, sniff};
use reckon::ingest::Outcome;
use reckon::run::{RawRun, Value};
use reckon::Error;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(rel)
}

fn read(rel: &str) -> Result<(Vec<RawRun>, Outcome), Error> {
    let path = fixture(rel);
    let file = File::open(&path).expect("fixture exists");
    let mut input = BufReader::new(file);
    let mut runs = Vec::new();
    let mut sink = |run: RawRun| -> reckon::Result<()> {
        runs.push(run);
        Ok(())
    };
    let outcome = parse(&path, &mut input, &mut sink)?;
    Ok((runs, outcome))
}

fn ok(rel: &str) -> (Vec<RawRun>, Outcome) {
    match read(rel) {
        Ok(v) => v,
        Err(e) => panic!("{rel}: {e}"),
    }
}

fn sniffed(rel: &str) -> bool {
    let bytes = std::fs::read(fixture(rel)).expect("fixture exists");
    sniff(&bytes[..bytes.len().min(256 * 1024)])
}

fn metric(run: &RawRun, name: &str) -> f64 {
    run.metrics
        .iter()
        .find(|m| m.name == name)
        .map_or_else(|| panic!("run at line {} has no metric {name}", run.line), |m| m.value)
}

fn has_metric(run: &RawRun, name: &str) -> bool {
    run.metrics.iter().any(|m| m.name == name)
}

fn param<'a>(run: &'a RawRun, key: &str) -> Option<&'a Value> {
    run.params.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

// Wrapped because every use compares with `param()`, which returns an Option.
#[allow(clippy::unnecessary_wraps)]
fn text(s: &str) -> Option<Value> {
    Some(Value::Text(s.to_string()))
}

#[allow(clippy::unnecessary_wraps)] // compared with `param()`, as `text`
fn num(n: f64) -> Option<Value> {
    Some(Value::Num(n))
}

fn lines(runs: &[RawRun]) -> Vec<u64> {
    runs.iter().map(|r| r.line).collect()
}

// --- SGLang -----------------------------------------------------------------

#[test]
fn sglang_benchmaq_namespace_and_tqdm() {
    let rel = "corpus/sglang/benchmaq-stdout-with-namespace-tqdm.txt";
    assert!(sniffed(rel));
    let (runs, outcome) = ok(rel);
    assert!(outcome.skipped.is_empty());
    // One block, header at line 43, after both a `benchmark_args=Namespace`
    // and a `Namespace` dump (lines 6-7) and 28 tqdm lines.
    assert_eq!(lines(&runs), vec![43]);
    let run = &runs[0];
    assert_eq!(run.time, None);
    assert_eq!(param(run, "backend").cloned(), text("sglang"));
    assert_eq!(param(run, "dataset_name").cloned(), text("random"));
    assert_eq!(param(run, "model").cloned(), text("/workspace/gpt-oss-120b"));
    assert_eq!(param(run, "num_prompts").cloned(), num(100.0));
    assert_eq!(param(run, "random_input_len").cloned(), num(1024.0));
    assert_eq!(param(run, "random_output_len").cloned(), num(128.0));
    assert_eq!(param(run, "random_range_ratio").cloned(), num(0.0));
    assert_eq!(param(run, "request_rate").cloned(), num(f64::INFINITY));
    assert_eq!(param(run, "max_concurrency").cloned(), num(100.0));
    // `tokenizer=None` and `dataset_path=''` give no param; host/port are
    // not identity.
    assert_eq!(param(run, "tokenizer"), None);
    assert_eq!(param(run, "dataset_path"), None);
    assert_eq!(param(run, "port"), None);
    // Block rows, lines 44-78.
    assert_eq!(metric(run, "completed"), 100.0);
    assert_eq!(metric(run, "duration"), 8.42);
    assert_eq!(metric(run, "total_input_text_tokens"), 50561.0);
    assert_eq!(metric(run, "total_output_tokens_retokenized"), 6097.0);
    assert_eq!(metric(run, "output_throughput"), 725.03);
    assert_eq!(metric(run, "max_output_tokens_per_s"), 2580.0);
    assert_eq!(metric(run, "max_concurrent_requests"), 100.0);
    assert_eq!(metric(run, "total_throughput"), 6726.67);
    assert_eq!(metric(run, "concurrency"), 79.64);
    assert_eq!(metric(run, "p90_e2e_latency_ms"), 8046.13);
    assert_eq!(metric(run, "p99_tpot_ms"), 431.83);
    assert_eq!(metric(run, "p95_itl_ms"), 27.22);
    assert_eq!(metric(run, "max_itl_ms"), 3322.13);
    assert!(!has_metric(run, "total_token_throughput"));
}

/// The same run was also saved as JSONL (the `--output-file` of the command
/// in the stdout log): every metric the block prints has the JSONL key's
/// name and the JSONL value rounded to 2 decimals.
#[test]
fn sglang_stdout_names_match_the_jsonl_of_the_same_run() {
    let (runs, _) = ok("corpus/sglang/benchmaq-stdout-with-namespace-tqdm.txt");
    let raw = std::fs::read_to_string(fixture("corpus/sglang/benchmaq-output-details-ttfts-itls-texts.jsonl"))
        .expect("fixture");
    // The only non-finite token in the line; serde_json rejects it.
    let raw = raw.replace("\"request_rate\": Infinity", "\"request_rate\": null");
    let json: serde_json::Value = serde_json::from_str(raw.trim()).expect("json line");
    let mut compared = 0;
    for m in &runs[0].metrics {
        if m.name == "max_itl_ms" {
            // Printed in stdout only; SGLang's JSONL has no max ITL.
            continue;
        }
        let v = json[&m.name].as_f64().unwrap_or_else(|| panic!("JSONL has no {}", m.name));
        assert!((v - m.value).abs() <= 0.005 + 1e-9, "{}: stdout {} vs jsonl {v}", m.name, m.value);
        compared += 1;
    }
    assert_eq!(compared, 27);
    for key in ["backend", "dataset_name", "random_input_len", "random_output_len", "max_concurrency"] {
        let p = param(&runs[0], key).expect("param");
        match (&json[key], p) {
            (serde_json::Value::String(s), Value::Text(t)) => assert_eq!(s, t),
            (serde_json::Value::Number(n), Value::Num(v)) => assert_eq!(n.as_f64(), Some(*v)),
            (j, p) => panic!("{key}: jsonl {j} vs stdout {p:?}"),
        }
    }
}

#[test]
fn sglang_diffusion_blocks_are_skipped_not_misread() {
    let rel = "corpus/sglang/cookbook-flux-diffusion-variant-60col-header-NOT-llm.txt";
    // It is this format (the title is there) ...
    assert!(sniffed(rel));
    let (runs, outcome) = ok(rel);
    // ... but both blocks (60-wide headers at lines 1 and 22, `Backend:
    // sglang-image`, `Successful requests: 1/1`, latencies in seconds) are
    // image-generation results, not LLM serving runs.
    assert!(runs.is_empty());
    assert_eq!(
        outcome.skipped,
        vec![
            "line 1: SGLang diffusion (image) benchmark block skipped: reckon reads LLM serving results only",
            "line 22: SGLang diffusion (image) benchmark block skipped: reckon reads LLM serving results only",
        ]
    );
}

#[test]
fn sglang_glm51_accept_length_without_trailing_padding() {
    let rel = "corpus/sglang/cookbook-glm51-stdout-accept-length-no-padding.txt";
    assert!(sniffed(rel));
    let (runs, outcome) = ok(rel);
    assert!(outcome.skipped.is_empty());
    // Two blocks, headers at lines 1 and 40, no Namespace before them.
    assert_eq!(lines(&runs), vec![1, 40]);
    let (a, b) = (&runs[0], &runs[1]);
    assert_eq!(param(a, "backend").cloned(), text("sglang"));
    assert_eq!(param(a, "max_concurrency").cloned(), num(1.0));
    assert_eq!(param(a, "request_rate").cloned(), num(f64::INFINITY));
    assert_eq!(param(a, "dataset_name"), None);
    assert_eq!(metric(a, "accept_length"), 3.48); // line 18
    assert_eq!(metric(a, "output_throughput"), 117.96); // line 13
    assert_eq!(metric(a, "mean_ttft_ms"), 290.88); // line 25
    assert_eq!(metric(a, "max_concurrent_requests"), 2.0); // line 15
    assert_eq!(param(b, "max_concurrency").cloned(), num(100.0)); // line 43
    assert_eq!(metric(b, "completed"), 1000.0); // line 44
    assert_eq!(metric(b, "accept_length"), 3.50); // line 57
    assert_eq!(metric(b, "total_throughput"), 2435.38); // line 55
    assert_eq!(metric(b, "max_itl_ms"), 1307.02); // line 76
}

#[test]
fn sglang_lorabench_blocks_in_markdown_with_negative_zero() {
    let rel = "corpus/sglang/lorabench-dlora-stdout-in-md-negative-zero-tpot.md";
    assert!(sniffed(rel));
    let (runs, outcome) = ok(rel);
    assert!(outcome.skipped.is_empty());
    // Six blocks under `# request rate: N` markdown headings.
    assert_eq!(lines(&runs), vec![3, 35, 67, 99, 131, 163]);
    let rates: Vec<_> = runs.iter().map(|r| param(r, "request_rate").cloned()).collect();
    assert_eq!(rates, vec![num(2.0), num(4.0), num(8.0), num(16.0), num(32.0), num(64.0)]);
    let first = &runs[0];
    // lora_bench's "Total throughput (tok/s)" (line 14) is SGLang's
    // total_throughput; no Max request concurrency row → no param.
    assert_eq!(metric(first, "total_throughput"), 2121.89);
    assert_eq!(param(first, "max_concurrency"), None);
    assert_eq!(metric(first, "median_tpot_ms"), 0.0); // `-0.00`, line 24
    assert!(metric(first, "median_tpot_ms").is_sign_negative());
    // "Inter-token" with a lower-case t still names the ITL rows.
    assert_eq!(metric(first, "p99_itl_ms"), 0.0); // line 29
    assert_eq!(metric(first, "p99_ttft_ms"), 15089.74); // line 21
    assert_eq!(metric(&runs[5], "output_throughput"), 832.48); // line 173
    assert_eq!(metric(&runs[5], "total_output_tokens_retokenized"), 104145.0); // line 170
}

// --- vLLM -------------------------------------------------------------------

#[test]
fn vllm_all_failed_with_tracebacks_still_has_a_block() {
    let rel = "corpus/vllm/benchmaq-all-failed-connection-refused-tracebacks.txt";
    assert!(sniffed(rel));
    let (runs, outcome) = ok(rel);
    assert!(outcome.skipped.is_empty());
    // Ten connection-refused tracebacks (lines 17-387), then a real block (line
    // 388) that says 0 succeeded, 100 failed, every metric 0.00.
    assert_eq!(lines(&runs), vec![388]);
    let run = &runs[0];
    assert_eq!(metric(run, "completed"), 0.0);
    assert_eq!(metric(run, "failed"), 100.0);
    assert_eq!(metric(run, "duration"), 0.16);
    assert_eq!(metric(run, "output_throughput"), 0.0);
    assert_eq!(metric(run, "mean_e2el_ms"), 0.0);
    assert_eq!(param(run, "max_concurrency").cloned(), num(100.0));
    // From the Namespace on line 3.
    assert_eq!(param(run, "model").cloned(), text("/workspace/glm47-fp8"));
    assert_eq!(param(run, "random_input_len").cloned(), num(2048.0));
    assert_eq!(param(run, "backend").cloned(), text("vllm"));
}

#[test]
fn vllm_json_files_are_not_this_format() {
    // The JSON halves of the all-failed pairs: no block, so refused with
    // UnknownFormat (they belong to the vLLM JSON reader).
    for rel in [
        "corpus/vllm/benchmaq-all-failed-connection-refused.json",
        "corpus/vllm/er0080-v0.25.1-all-requests-failed-zeros.json",
    ] {
        assert!(!sniffed(rel), "{rel}");
        match read(rel) {
            Err(Error::UnknownFormat { msg, .. }) => {
                assert!(msg.contains("no \"Serving Benchmark Result\" block found"), "{msg}");
            }
            other => panic!("{rel}: expected UnknownFormat, got {other:?}"),
        }
    }
}

#[test]
fn vllm_bench_serve_stdout_with_e2el() {
    let rel = "corpus/vllm/benchmaq-vllm-bench-serve-stdout.txt";
    assert!(sniffed(rel));
    let (runs, _) = ok(rel);
    assert_eq!(lines(&runs), vec![19]);
    let run = &runs[0];
    // Namespace on line 3 holds `dispatch_function=<function ...>` and
    // dicts keyed by tuples; the keys around them still read.
    assert_eq!(param(run, "backend").cloned(), text("vllm"));
    assert_eq!(param(run, "model").cloned(), text("/workspace/glm47"));
    assert_eq!(param(run, "num_prompts").cloned(), num(100.0));
    assert_eq!(param(run, "random_input_len").cloned(), num(1024.0));
    assert_eq!(param(run, "random_output_len").cloned(), num(128.0));
    assert_eq!(param(run, "request_rate").cloned(), num(f64::INFINITY));
    assert_eq!(param(run, "max_concurrency").cloned(), num(100.0));
    assert_eq!(param(run, "tokenizer"), None);
    // vLLM's name for the total (no Backend row → vLLM).
    assert_eq!(metric(run, "total_token_throughput"), 12961.15);
    assert!(!has_metric(run, "total_throughput"));
    assert_eq!(metric(run, "max_concurrent_requests"), 100.0); // `100.00`
    assert_eq!(metric(run, "failed"), 0.0);
    assert_eq!(metric(run, "mean_e2el_ms"), 8709.20);
    assert_eq!(metric(run, "p99_itl_ms"), 299.08);
}

/// Result blocks pasted into a shell script as comments: every line of a
/// block carries `# `, and so do the `Traffic request rate:` / `Maximum
/// request concurrency:` lines before it (refused as "no block found").
#[test]
fn vllm_blocks_pasted_as_shell_comments_are_read_as_printed() {
    let rel = "corpus/vllm/yiliu30-pp-results-pasted-as-shell-comments.sh";
    assert!(sniffed(rel));
    let (runs, _) = ok(rel);
    assert_eq!(lines(&runs), vec![5, 31]);
    for run in &runs {
        assert_eq!(param(run, "request_rate").cloned(), num(f64::INFINITY));
        assert_eq!(param(run, "max_concurrency").cloned(), num(32.0));
        assert_eq!(param(run, "burstiness").cloned(), num(1.0));
        assert_eq!(metric(run, "completed"), 32.0);
        assert_eq!(run.metrics.len(), 16, "every row of the block");
    }
    assert_eq!(metric(&runs[0], "duration"), 150.87);
    assert_eq!(metric(&runs[0], "p99_itl_ms"), 72.47);
    assert_eq!(metric(&runs[1], "output_throughput"), 329.86);
    assert_eq!(metric(&runs[1], "median_ttft_ms"), 6272.98);
}

/// A commented header over rows that are not: no block, as its lines do
/// not all carry the prefix — refused at the first that does not, saying
/// so, never read in part.
#[test]
fn a_commented_header_over_uncommented_lines_is_refused_at_the_line() {
    let text = std::fs::read_to_string(fixture("corpus/vllm/yiliu30-pp-results-pasted-as-shell-comments.sh")).unwrap();
    let cut = text.replacen("# Benchmark duration (s):", "Benchmark duration (s):", 1);
    let path = Path::new("pasted.sh");
    let err = parse(path, &mut cut.as_bytes(), &mut |_| Ok(())).unwrap_err().to_string();
    assert!(err.starts_with("pasted.sh:7: "), "{err}");
    assert!(err.contains("starts at line 5 carries the prefix `#`"), "{err}");
    assert!(err.contains("take the prefixes off"), "{err}");
}

/// The same run's result JSON: stdout metric names are its keys and the
/// values agree to the printed 2 decimals.
#[test]
fn vllm_stdout_names_match_the_json_of_the_same_run() {
    let (runs, _) = ok("corpus/vllm/benchmaq-vllm-bench-serve-stdout.txt");
    let raw = std::fs::read_to_string(fixture("corpus/vllm/benchmaq-vllm-bench-serve-e2el-percentiles.json"))
        .expect("fixture");
    let json: serde_json::Value = serde_json::from_str(&raw).expect("json");
    for m in &runs[0].metrics {
        let v = json[&m.name].as_f64().unwrap_or_else(|| panic!("JSON has no {}", m.name));
        assert!((v - m.value).abs() <= 0.005 + 1e-9, "{}: stdout {} vs json {v}", m.name, m.value);
    }
    assert_eq!(runs[0].metrics.len(), 22);
}

#[test]
fn vllm_k8s_job_log_reads_the_blocks_not_the_json() {
    let rel = "corpus/vllm/nerdalert-k8s-job-logs-stdout-plus-embedded-json.log";
    assert!(sniffed(rel));
    let (runs, _) = ok(rel);
    // Three jobs (10, 30, inf QPS), each a block followed by its JSON
    // between <<<RESULT_START>>> markers: the blocks are the runs.
    assert_eq!(lines(&runs), vec![47, 109, 171]);
    let rates: Vec<_> = runs.iter().map(|r| param(r, "request_rate").cloned()).collect();
    assert_eq!(rates, vec![num(10.0), num(30.0), num(f64::INFINITY)]);
    let first = &runs[0];
    // Old benchmark_serving.py: "Total Token throughput" (capital T).
    assert_eq!(metric(first, "total_token_throughput"), 10566.33); // line 54
    assert_eq!(metric(first, "output_throughput"), 2249.25); // line 53
    assert_eq!(metric(first, "mean_ttft_ms"), 54.58); // line 56
    assert!(!has_metric(first, "failed"));
    // `max_concurrency=None` and `Maximum request concurrency: None`.
    assert_eq!(param(first, "max_concurrency"), None);
    assert_eq!(param(first, "num_prompts").cloned(), num(300.0));
    assert_eq!(param(&runs[1], "num_prompts").cloned(), num(900.0));
    // `metadata=['deployment=base', 'gpu=4xNVIDIA_L40S', ...]` becomes
    // string params, as in vLLM's result JSON.
    assert_eq!(param(first, "gpu").cloned(), text("4xNVIDIA_L40S"));
    assert_eq!(param(first, "decode_replicas").cloned(), text("4"));
    assert_eq!(metric(&runs[2], "p99_itl_ms"), 66.37); // line 190
    assert_eq!(metric(&runs[2], "completed"), 900.0);
}

#[test]
fn vllm_newer_with_failed_line_and_p95() {
    let rel = "corpus/vllm/wentao-vllm-bench-serve-newer-failed-requests-tqdm.log";
    assert!(sniffed(rel));
    let (runs, _) = ok(rel);
    assert_eq!(lines(&runs), vec![28]);
    let run = &runs[0];
    assert_eq!(param(run, "backend").cloned(), text("openai-chat"));
    assert_eq!(param(run, "served_model_name").cloned(), text("minimax-m2.5"));
    assert_eq!(param(run, "max_concurrency").cloned(), num(128.0));
    assert_eq!(param(run, "random_input_len").cloned(), num(10240.0));
    assert_eq!(param(run, "temperature").cloned(), num(0.7));
    assert_eq!(metric(run, "failed"), 0.0);
    // `124081.37 ` fills the 10-wide column exactly.
    assert_eq!(metric(run, "mean_ttft_ms"), 124081.37);
    assert_eq!(metric(run, "p95_tpot_ms"), 61.49);
    assert_eq!(metric(run, "max_concurrent_requests"), 191.0);
    assert_eq!(metric(run, "total_token_throughput"), 8618.28);
}

#[test]
fn vllm_older_rocm_log_without_failed_row() {
    let rel = "corpus/vllm/wentao-vllm-bench-serve-older-no-failed-line-rocm.log";
    assert!(sniffed(rel));
    let (runs, _) = ok(rel);
    // 322 tqdm lines before the block at line 338.
    assert_eq!(lines(&runs), vec![338]);
    let run = &runs[0];
    assert!(!has_metric(run, "failed"));
    assert_eq!(param(run, "max_concurrency").cloned(), num(1.0));
    assert_eq!(param(run, "model").cloned(), text("/data/models/MiniMax-M2.5-bf16"));
    assert_eq!(metric(run, "duration"), 13148.00);
    assert_eq!(metric(run, "total_token_throughput"), 255.32); // capital-T row
    assert_eq!(metric(run, "p99_itl_ms"), 191.32);
}

// --- the scenario's old sweep ------------------------------------------------

const CONCURRENCY: [f64; 11] = [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 50.0, 100.0, 150.0, 200.0, 250.0];

fn column(runs: &[RawRun], name: &str) -> Vec<f64> {
    runs.iter().map(|r| metric(r, name)).collect()
}

fn check_sweep(runs: &[RawRun]) {
    assert_eq!(runs.len(), 11);
    for (run, c) in runs.iter().zip(CONCURRENCY) {
        assert_eq!(param(run, "max_concurrency").cloned(), num(c));
        assert_eq!(param(run, "backend").cloned(), text("sglang"));
        assert_eq!(param(run, "dataset_name").cloned(), text("random"));
        assert_eq!(param(run, "random_input_len").cloned(), num(1000.0));
        assert_eq!(param(run, "random_output_len").cloned(), num(1000.0));
        assert_eq!(param(run, "request_rate").cloned(), num(f64::INFINITY));
        assert_eq!(param(run, "model").cloned(), text("moonshotai/Kimi-K2.5"));
        // From the `[2026-11-20 14:02:11]` line that opens the log.
        assert_eq!(run.time.as_deref(), Some("2026-11-20T14:02:11Z"));
    }
    // Each block's Namespace has its own num_prompts (4 × concurrency
    // from 8 up).
    let prompts: Vec<_> = runs.iter().map(|r| param(r, "num_prompts").and_then(Value::as_f64)).collect();
    let want: Vec<_> = [16.0, 16.0, 16.0, 32.0, 64.0, 120.0, 200.0, 400.0, 600.0, 800.0, 1000.0].map(Some).to_vec();
    assert_eq!(prompts, want);
}

#[test]
fn scenario_baseline_sweep() {
    let rel = "../../notebooks/logs/2026-11-20/baseline.log";
    assert!(sniffed(rel));
    let (runs, outcome) = ok(rel);
    assert!(outcome.skipped.is_empty());
    assert_eq!(lines(&runs), vec![9, 44, 79, 114, 149, 184, 219, 254, 289, 324, 359]);
    check_sweep(&runs);
    // `Output token throughput`, `Mean TTFT`, `P99 ITL` rows of each block.
    assert_eq!(
        column(&runs, "output_throughput"),
        vec![93.10, 174.20, 316.00, 458.90, 592.40, 641.80, 690.30, 735.60, 773.00, 769.40, 757.20]
    );
    assert_eq!(
        column(&runs, "mean_ttft_ms"),
        vec![189.46, 199.40, 217.56, 254.61, 331.84, 462.92, 663.15, 1136.52, 1615.25, 2092.40, 2553.85]
    );
    assert_eq!(
        column(&runs, "p99_itl_ms"),
        vec![29.00, 31.00, 34.18, 47.07, 72.92, 126.21, 195.57, 367.05, 523.93, 701.85, 891.44]
    );
    let first = &runs[0];
    assert_eq!(metric(first, "input_throughput"), 93.11); // line 19
    assert_eq!(metric(first, "total_throughput"), 186.21); // line 21
    assert_eq!(metric(first, "concurrency"), 0.98); // line 22
    assert_eq!(metric(first, "mean_e2e_latency_ms"), 10919.85); // line 24
    assert!(runs.iter().all(|r| !has_metric(r, "accept_length")));
}

#[test]
fn scenario_eagle_topk4_v1_sweep() {
    let rel = "../../notebooks/logs/2026-11-20/eagle-topk4-v1.log";
    assert!(sniffed(rel));
    let (runs, outcome) = ok(rel);
    assert!(outcome.skipped.is_empty());
    assert_eq!(lines(&runs), vec![9, 45, 81, 117, 153, 189, 225, 261, 297, 333, 369]);
    check_sweep(&runs);
    assert_eq!(
        column(&runs, "output_throughput"),
        vec![96.00, 150.40, 219.80, 286.50, 317.60, 329.50, 334.90, 335.80, 336.10, 335.20, 333.00]
    );
    assert_eq!(
        column(&runs, "mean_ttft_ms"),
        vec![189.23, 198.43, 217.52, 254.71, 334.13, 460.22, 669.01, 1147.50, 1590.91, 2107.01, 2523.72]
    );
    assert_eq!(
        column(&runs, "p99_itl_ms"),
        vec![85.50, 109.15, 149.37, 229.19, 413.50, 747.31, 1225.44, 2444.31, 3663.20, 4897.37, 6162.16]
    );
    assert_eq!(column(&runs, "accept_length"), vec![3.04; 11]);
}

// --- damaged input built from real files -----------------------------------

fn parse_bytes(bytes: &[u8]) -> Result<Vec<RawRun>, Error> {
    let mut runs = Vec::new();
    let mut sink = |run: RawRun| -> reckon::Result<()> {
        runs.push(run);
        Ok(())
    };
    let mut input = std::io::Cursor::new(bytes.to_vec());
    parse(Path::new("cut.log"), &mut input, &mut sink)?;
    Ok(runs)
}

#[test]
fn a_sweep_cut_inside_its_last_block_is_malformed_at_that_header() {
    let full = std::fs::read_to_string(fixture("../../notebooks/logs/2026-11-20/baseline.log")).expect("fixture");
    // Keep lines 1..=370: the last block (header at line 359) loses its
    // latency sections and closing rule.
    let cut: String = full.split_inclusive('\n').take(370).collect();
    match parse_bytes(cut.as_bytes()) {
        Err(Error::Malformed { line, msg, .. }) => {
            assert_eq!(line, 359);
            assert!(msg.contains("block not closed"), "{msg}");
        }
        other => panic!("expected Malformed, got {other:?}"),
    }
}

#[test]
fn crlf_and_progress_bar_carriage_returns_change_nothing() {
    let full = std::fs::read_to_string(fixture("../../notebooks/logs/2026-11-20/baseline.log")).expect("fixture");
    let crlf = full.replace('\n', "\r\n").replace("100%|", " 10%|#         | 1/16\r 50%|#####     | 8/16\r100%|");
    let runs = parse_bytes(crlf.as_bytes()).expect("parses");
    let (plain, _) = ok("../../notebooks/logs/2026-11-20/baseline.log");
    assert_eq!(runs, plain);
}

#[test]
fn fenced_markdown_copy_with_stripped_padding_reads_the_same() {
    let full = std::fs::read_to_string(fixture("corpus/sglang/lorabench-dlora-stdout-in-md-negative-zero-tpot.md"))
        .expect("fixture");
    // Put each block in a ``` fence (one line before its header, one after
    // its closing rule) and strip the `{:<10}` padding, as docs do.
    let mut doc = String::new();
    for line in full.lines() {
        let line = line.trim_end();
        if line.contains("Serving Benchmark Result") {
            doc.push_str("```text\n");
        }
        doc.push_str(line);
        doc.push('\n');
        if line.starts_with("=====") && !line.contains("Serving") {
            doc.push_str("```\n");
        }
    }
    let runs = parse_bytes(doc.as_bytes()).expect("parses");
    let (plain, _) = ok("corpus/sglang/lorabench-dlora-stdout-in-md-negative-zero-tpot.md");
    assert_eq!(runs.len(), 6);
    // Lines shift by the fences added before each block; values do not.
    for (i, (a, b)) in runs.iter().zip(&plain).enumerate() {
        assert_eq!(a.line, b.line + 2 * i as u64 + 1);
        assert_eq!(a.metrics, b.metrics);
        assert_eq!(a.params, b.params);
    }
}
