//! The console-log reader's unit tests.

use super::labels::snake;
use super::namespace::PyVal;
use super::*;

fn run_all(text: &str) -> Result<(Vec<RawRun>, Outcome)> {
    crate::ingest::log_format::collect::<ServingStdout>("t.log", text)
}

fn param<'a>(run: &'a RawRun, key: &str) -> Option<&'a Value> {
    run.params.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn metric(run: &RawRun, name: &str) -> Option<f64> {
    run.metrics.iter().find(|m| m.name == name).map(|m| m.value)
}

const SMALL: &str = "\
============ Serving Benchmark Result ============
Backend:                                 sglang    
Traffic request rate:                    inf       
Max request concurrency:                 8         
Successful requests:                     16        
Output token throughput (tok/s):         93.10     
Total token throughput (tok/s):          186.21    
---------------Time to First Token----------------
Mean TTFT (ms):                          189.46    
P99.9 TTFT (ms):                         454.70    
==================================================
";

#[test]
fn reads_a_small_sglang_block() {
    let (runs, outcome) = run_all(SMALL).expect("parses");
    assert_eq!(runs.len(), 1);
    assert!(outcome.skipped.is_empty());
    let run = &runs[0];
    assert_eq!(run.line, 1);
    assert_eq!(param(run, "backend"), Some(&Value::Text("sglang".into())));
    assert_eq!(param(run, "request_rate"), Some(&Value::Num(f64::INFINITY)));
    assert_eq!(param(run, "max_concurrency"), Some(&Value::Num(8.0)));
    assert_eq!(metric(run, "completed"), Some(16.0));
    assert_eq!(metric(run, "output_throughput"), Some(93.10));
    assert_eq!(metric(run, "total_throughput"), Some(186.21));
    assert_eq!(metric(run, "mean_ttft_ms"), Some(189.46));
    assert_eq!(metric(run, "p99.9_ttft_ms"), Some(454.70));
}

#[test]
fn truncated_block_is_malformed_at_its_header() {
    let cut = "noise\n============ Serving Benchmark Result ============\nBackend: sglang\nSuccessful requests: 3\n";
    let err = run_all(cut).expect_err("cut block");
    match err {
        Error::Malformed { line, msg, .. } => {
            assert_eq!(line, 2);
            assert!(msg.contains("block not closed"), "{msg}");
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn a_second_header_before_the_close_is_malformed() {
    let text = format!("============ Serving Benchmark Result ============\nSuccessful requests: 3\n{SMALL}");
    match run_all(&text).expect_err("unclosed") {
        Error::Malformed { line, msg, .. } => {
            assert_eq!(line, 1);
            assert!(msg.contains("another block starts at line 3"), "{msg}");
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn non_number_in_a_numeric_row_is_malformed_at_that_row() {
    let text = SMALL.replace("189.46    ", "fast");
    match run_all(&text).expect_err("bad value") {
        Error::Malformed { line, msg, .. } => {
            assert_eq!(line, 9);
            assert!(msg.contains("Mean TTFT (ms)"), "{msg}");
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn garbage_inside_a_block_is_malformed_at_that_line() {
    let text = SMALL.replace("Successful requests:", "100%|#####| 16/16\nSuccessful requests:");
    match run_all(&text).expect_err("junk") {
        Error::Malformed { line, .. } => assert_eq!(line, 5),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn no_block_is_unknown_format() {
    match run_all("just a log\nNamespace(a=1)\n").expect_err("no block") {
        Error::UnknownFormat { msg, .. } => {
            assert!(msg.contains("no \"Serving Benchmark Result\" block found"));
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn diffusion_block_is_skipped_with_its_line() {
    let text = "\
intro
================= Serving Benchmark Result =================
Backend:                                 sglang-image
Model:                                   black-forest-labs/FLUX.1-dev
--------------------------------------------------
Benchmark duration (s):                  50.97
Successful requests:                     1/1
Latency Mean (s):                        50.9681
Peak Memory Max (MB):                    27905.19
============================================================
";
    let (runs, outcome) = run_all(text).expect("skips");
    assert!(runs.is_empty());
    assert_eq!(
        outcome.skipped,
        vec!["line 2: SGLang diffusion (image) benchmark block skipped: reckon reads LLM serving results only"
            .to_string()]
    );
}

#[test]
fn namespace_values_of_every_shape() {
    let args = "backend='sglang', base_url=None, port=30000, ratio=0.5, rate=inf, neg=-1e-05, \
                flag=True, off=False, esc='it\\'s \\x41\\u00e9', dq=\"a,b\", \
                fn=<function Foo.cmd at 0x7f>, nested={(1, 2): 0.5, 'k': [1, 2]}, \
                lst=['CPU', 'GPU'], path=PosixPath('/x, y'), bytes=b'raw', tail='end')";
    let parsed = parse_namespace(args);
    let get = |k: &str| parsed.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    assert_eq!(get("backend"), Some(PyVal::Str("sglang".into())));
    assert_eq!(get("base_url"), Some(PyVal::None));
    assert_eq!(get("port"), Some(PyVal::Num(30000.0)));
    assert_eq!(get("ratio"), Some(PyVal::Num(0.5)));
    assert_eq!(get("rate"), Some(PyVal::Num(f64::INFINITY)));
    assert_eq!(get("neg"), Some(PyVal::Num(-1e-05)));
    assert_eq!(get("flag"), Some(PyVal::Bool(true)));
    assert_eq!(get("off"), Some(PyVal::Bool(false)));
    assert_eq!(get("esc"), Some(PyVal::Str("it's Aé".into())));
    assert_eq!(get("dq"), Some(PyVal::Str("a,b".into())));
    assert_eq!(get("fn"), Some(PyVal::Other));
    assert_eq!(get("nested"), Some(PyVal::Other));
    assert_eq!(get("lst"), Some(PyVal::List(vec![PyVal::Str("CPU".into()), PyVal::Str("GPU".into())])));
    assert_eq!(get("path"), Some(PyVal::Other));
    assert_eq!(get("bytes"), Some(PyVal::Str("raw".into())));
    assert_eq!(get("tail"), Some(PyVal::Str("end".into())));
}

#[test]
fn a_cut_namespace_keeps_the_keys_before_the_cut() {
    let parsed = parse_namespace("num_prompts=16, model='moonshotai/Kim");
    assert_eq!(parsed[0], ("num_prompts".to_string(), PyVal::Num(16.0)));
    assert_eq!(parsed.len(), 2);
    assert_eq!(parsed[1].1, PyVal::Other);
}

#[test]
fn namespace_feeds_only_the_next_block_and_rows_win() {
    let text = format!(
        "benchmark_args=Namespace(backend='vllm', max_concurrency=4, num_prompts=16, request_rate=2.0, \
         tokenizer=None, metadata=['tp=8', 'gpu=H100'], port=1)\n{SMALL}{SMALL}"
    );
    let (runs, _) = run_all(&text).expect("parses");
    assert_eq!(runs.len(), 2);
    let first = &runs[0];
    assert_eq!(first.line, 2);
    // Rows win: Backend sglang, concurrency 8, rate inf.
    assert_eq!(param(first, "backend"), Some(&Value::Text("sglang".into())));
    assert_eq!(param(first, "max_concurrency"), Some(&Value::Num(8.0)));
    assert_eq!(param(first, "request_rate"), Some(&Value::Num(f64::INFINITY)));
    assert_eq!(param(first, "num_prompts"), Some(&Value::Num(16.0)));
    assert_eq!(param(first, "tp"), Some(&Value::Text("8".into())));
    assert_eq!(param(first, "gpu"), Some(&Value::Text("H100".into())));
    assert_eq!(param(first, "tokenizer"), None);
    assert_eq!(param(first, "port"), None);
    // Not carried past the block it preceded.
    assert_eq!(param(&runs[1], "num_prompts"), None);
    assert_eq!(param(&runs[1], "tp"), None);
}

#[test]
fn crlf_carriage_returns_and_timestamps() {
    let text = "[2026-11-20 14:02:11] start\r\n 50%|##  | 8/16\r100%|####| 16/16\r\n".to_string()
        + &SMALL.replace('\n', "\r\n");
    let (runs, _) = run_all(&text).expect("parses");
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].line, 3);
    assert_eq!(runs[0].time.as_deref(), Some("2026-11-20T14:02:11Z"));
    assert_eq!(metric(&runs[0], "mean_ttft_ms"), Some(189.46));
}

#[test]
fn bracket_prefixed_block_lines_are_read() {
    let text = SMALL.lines().map(|l| format!("[2026-11-21T08:00:00Z] {l}\n")).collect::<Vec<_>>().concat();
    let (runs, _) = run_all(&text).expect("parses");
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].time.as_deref(), Some("2026-11-21T08:00:00Z"));
    assert_eq!(metric(&runs[0], "output_throughput"), Some(93.10));
}

#[test]
fn unknown_rows_and_sections_keep_their_data() {
    let text = "\
============ Serving Benchmark Result ============
Successful requests:                     5
Total nonempty serving response chunks:  42
Input request rate (req/s):              1.50000
----------------End-to-end Latency----------------
Mean E2EL (ms):                          10.00
-------Queue-inclusive End-to-end Latency---------
Mean E2EL (ms):                          12.00
Mode:                                    steady
---------------Speculative Decoding---------------
Acceptance rate (%):                     61.25
Acceptance length:                       2.84
Drafts:                                  100
Per-position acceptance (%):
  Position 0:                            80.00
  Position 1:                            55.50
==================================================
";
    let (runs, _) = run_all(text).expect("parses");
    let run = &runs[0];
    assert_eq!(metric(run, "total_nonempty_serving_response_chunks"), Some(42.0));
    assert_eq!(metric(run, "input_request_rate_req_per_s"), Some(1.5));
    assert_eq!(metric(run, "mean_e2el_ms"), Some(10.0));
    assert_eq!(metric(run, "queue_inclusive_end_to_end_latency_mean_e2el_ms"), Some(12.0));
    assert_eq!(param(run, "queue_inclusive_end_to_end_latency_mode"), Some(&Value::Text("steady".into())));
    assert_eq!(metric(run, "spec_decode_acceptance_rate"), Some(61.25));
    assert_eq!(metric(run, "spec_decode_acceptance_length"), Some(2.84));
    assert_eq!(metric(run, "spec_decode_num_drafts"), Some(100.0));
    assert_eq!(metric(run, "spec_decode_acceptance_position_0"), Some(80.0));
    assert_eq!(metric(run, "spec_decode_acceptance_position_1"), Some(55.5));
}

#[test]
fn very_long_lines_are_capped() {
    let mut text = String::from("x");
    text.push_str(&"#".repeat(MAX_SEGMENT * 2));
    text.push('\n');
    text.push_str(SMALL);
    let (runs, _) = run_all(&text).expect("parses");
    assert_eq!(runs[0].line, 2);
}

#[test]
fn not_set_concurrency_and_trace_rate() {
    let text = SMALL
        .replace("Max request concurrency:                 8", "Max request concurrency:                 not set")
        .replace("Traffic request rate:                    inf", "Traffic request rate:                    trace");
    let text = format!("Namespace(max_concurrency=4, request_rate=inf)\n{text}");
    let (runs, _) = run_all(&text).expect("parses");
    let run = &runs[0];
    assert_eq!(param(run, "max_concurrency"), None);
    assert_eq!(param(run, "request_rate"), Some(&Value::Text("trace".into())));
}

#[test]
fn vllm_preamble_lines_feed_the_block() {
    let text = "Traffic request rate: 4.0\nBurstiness factor: 1.0 (Poisson process)\n\
                Maximum request concurrency: 32\n\
                ============ Serving Benchmark Result ============\n\
                Successful requests:                     10\n\
                Total token throughput (tok/s):          50.00\n\
                ==================================================\n";
    let (runs, _) = run_all(text).expect("parses");
    let run = &runs[0];
    assert_eq!(run.line, 4);
    assert_eq!(param(run, "request_rate"), Some(&Value::Num(4.0)));
    assert_eq!(param(run, "burstiness"), Some(&Value::Num(1.0)));
    assert_eq!(param(run, "max_concurrency"), Some(&Value::Num(32.0)));
    // No Backend row: vLLM's name for the total.
    assert_eq!(metric(run, "total_token_throughput"), Some(50.0));
    assert_eq!(metric(run, "total_throughput"), None);
}

#[test]
fn sniff_finds_the_header() {
    assert!(sniff(SMALL.as_bytes()));
    assert!(sniff(b"progress\r============ Serving Benchmark Result ============\r\n"));
    assert!(!sniff(b"{\"backend\": \"vllm\"}\n"));
    assert!(!sniff(b"Serving Benchmark Result in prose\n"));
}

#[test]
fn snake_and_stat_names() {
    assert_eq!(stat_name("Mean E2E Latency (ms):").as_deref(), Some("mean_e2e_latency_ms"));
    assert_eq!(stat_name("P90 E2E Latency (ms)").as_deref(), Some("p90_e2e_latency_ms"));
    assert_eq!(stat_name("Max ITL (ms)").as_deref(), Some("max_itl_ms"));
    assert_eq!(stat_name("Latency Mean (s)"), None);
    assert_eq!(snake("RTFx (Inverse Real-Time Factor):"), "rtfx_inverse_real_time_factor");
    assert_eq!(snake("Peak Memory Max (MB)"), "peak_memory_max_mb");
    assert_eq!(snake("Rate (%)"), "rate_pct");
}

#[test]
fn the_clients_command_line_gives_the_next_blocks_params() {
    let text = format!(
        "$ python3 benchmarks/benchmark_serving.py --backend openai-chat --model /m/Qwen-72B-w8a8 \
         --num-prompts 10 --save-result --host 10.0.0.1\n{SMALL}\
         vllm serve /m/Qwen-72B --max-num-seqs 2048\n\
         python3 benchmarks/benchmark_serving.py --model=/m/Qwen-72B --num-prompts 32 --request-rate inf\n{SMALL}\
         see benchmark_serving.py for the options\n{SMALL}"
    );
    let (runs, _) = run_all(&text).expect("parses");
    assert_eq!(runs.len(), 3);
    assert_eq!(param(&runs[0], "model"), Some(&Value::Text("/m/Qwen-72B-w8a8".into())));
    assert_eq!(param(&runs[0], "num_prompts"), Some(&Value::Num(10.0)));
    // Host, output switches and the server's own launch are no params.
    assert_eq!(param(&runs[0], "host"), None);
    assert_eq!(param(&runs[0], "save_result"), None);
    assert_eq!(param(&runs[1], "max_num_seqs"), None);
    assert_eq!(param(&runs[1], "model"), Some(&Value::Text("/m/Qwen-72B".into())));
    assert_eq!(param(&runs[1], "num_prompts"), Some(&Value::Num(32.0)));
    // Prose naming the client sets nothing; each command feeds one block.
    assert_eq!(param(&runs[2], "model"), None);
}
