//! One name per concept across log formats, through the real binary: each
//! corpus log (tests/fixtures/corpus, real files from the tools) is
//! ingested alone and its runs must carry `model`, `backend`,
//! `dataset_name`, `request_rate`, `max_concurrency`, `input_len` and
//! `output_len` where the log holds them, under those names whatever the
//! format called them. The values are read from the files themselves (e.g.
//! `server_info.model_path` of the `SGLang` JSONL, `model_id` of the vLLM
//! JSON, `model='…'` in the console log's Namespace).

mod common;

use std::collections::BTreeMap;

use common::{fixtures, Sandbox};
use serde_json::Value;

/// Each shared param's distinct values over the runs of one log, as text.
fn shared_params(file: &str) -> BTreeMap<String, Vec<String>> {
    let s = Sandbox::new();
    let path = fixtures().join("corpus").join(file);
    s.ok(&["ingest", path.to_str().unwrap()]);
    let runs: Value = serde_json::from_str(&s.ok(&["runs", "--limit", "0", "--format", "json"]).stdout).unwrap();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for run in runs.as_array().unwrap() {
        for name in ["model", "backend", "dataset_name", "request_rate", "max_concurrency", "input_len", "output_len"] {
            if let Some(v) = run["params"].get(name) {
                let text = match v {
                    Value::String(t) => t.clone(),
                    Value::Number(n) => reckon::metric::format_number(n.as_f64().unwrap()),
                    other => other.to_string(),
                };
                let values = out.entry(name.to_string()).or_default();
                if !values.contains(&text) {
                    values.push(text);
                }
            }
        }
    }
    out
}

fn expect(file: &str, want: &[(&str, &[&str])]) {
    let got = shared_params(file);
    let want: BTreeMap<String, Vec<String>> =
        want.iter().map(|(k, vs)| (k.to_string(), vs.iter().map(std::string::ToString::to_string).collect())).collect();
    assert_eq!(got, want, "{file}");
}

#[test]
fn sglang_jsonl_names_the_model_from_server_info() {
    expect(
        "sglang/tonyli-agg-tag-serverinfo-schema.jsonl",
        &[
            ("backend", &["sglang"]),
            ("dataset_name", &["random"]),
            ("input_len", &["128"]),
            ("max_concurrency", &["8"]),
            ("model", &["Qwen/Qwen2.5-3B-Instruct"]),
            ("output_len", &["64"]),
            ("request_rate", &["inf"]),
        ],
    );
    // Prefill/decode disaggregation keeps the server info per role.
    let pd = shared_params("sglang/tonyli-pd-disagg-nested-serverinfo.jsonl");
    assert_eq!(pd["model"], ["Qwen/Qwen2.5-3B-Instruct"]);
}

#[test]
fn sglang_lengths_come_only_from_the_dataset_that_uses_them() {
    // ShareGPT runs carry random_input_len as a default the tool writes
    // anyway: no input_len for them.
    let sharegpt = shared_params("sglang/tonyli-pd-local-sharegpt-null-tag.jsonl");
    assert_eq!(sharegpt["dataset_name"], ["sharegpt"]);
    assert!(!sharegpt.contains_key("input_len") && !sharegpt.contains_key("output_len"), "{sharegpt:?}");
    let old = shared_params("sglang/datacrunch-llama70b-offline-old-schema.jsonl");
    assert_eq!(old["input_len"], ["1024", "4096", "256"]);
    // bench_one_batch names them input_len / output_len itself.
    expect(
        "sglang/one-batch-server-latency-output_throughput.jsonl",
        &[("input_len", &["1024"]), ("output_len", &["8"])],
    );
}

#[test]
fn sglang_console_log_and_its_jsonl_agree() {
    // The same benchmark, as the console printed it and as --output-file
    // wrote it.
    let stdout = shared_params("sglang/benchmaq-stdout-with-namespace-tqdm.txt");
    let jsonl = shared_params("sglang/benchmaq-output-details-ttfts-itls-texts.jsonl");
    assert_eq!(stdout, jsonl);
    assert_eq!(stdout["model"], ["/workspace/gpt-oss-120b"]);
    assert_eq!(stdout["input_len"], ["1024"]);
}

#[test]
fn vllm_json_names_the_model_from_model_id() {
    expect(
        "vllm/er0080-v0.25.1-sorted-keys.json",
        &[
            ("backend", &["vllm"]),
            ("max_concurrency", &["2"]),
            ("model", &["facebook/opt-125m"]),
            ("request_rate", &["inf"]),
        ],
    );
    // Metadata given with --metadata joins in under the same names.
    let meta = shared_params("vllm/nerdalert-llmd-append-result-jsonl-metadata-goodput-colon.json");
    assert_eq!(meta["model"], ["meta-llama/Llama-3.2-3B-Instruct"]);
    assert_eq!(meta["input_len"], ["1000"]);
}

#[test]
fn vllm_console_log_and_its_json_agree_on_the_model() {
    let stdout = shared_params("vllm/benchmaq-vllm-bench-serve-stdout.txt");
    let json = shared_params("vllm/benchmaq-vllm-bench-serve-e2el-percentiles.json");
    for name in ["model", "backend", "max_concurrency", "request_rate"] {
        assert_eq!(stdout[name], json[name], "{name}");
    }
    assert_eq!(stdout["input_len"], ["1024"]);
    assert_eq!(stdout["output_len"], ["128"]);
}

/// The scenario's two sweeps, with no labels: the console logs
/// (2026-11-20) and the JSONL logs (2026-11-29) both answer to `model`.
#[test]
fn the_scenarios_sweeps_agree_on_model() {
    let s = Sandbox::with_scenario();
    s.write(
        "reckon.toml",
        "[[source]]\npath = \"logs/{date}/{config}.log\"\n\n[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n",
    );
    s.ok(&["ingest"]);
    let csv = s
        .ok(&[
            "query",
            "--metric",
            "output_throughput",
            "--rows",
            "date",
            "--cols",
            "config",
            "--where",
            "model = 'moonshotai/Kimi-K2.5' and max_concurrency = 1 and input_len = 1000",
            "--agg",
            "all",
            "--format",
            "csv",
        ])
        .stdout;
    let dates: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(dates, ["2026-11-20", "2026-11-29"], "{csv}");
}
