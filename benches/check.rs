//! How long `reckon check` takes, the pre-commit command that must feel
//! instant.
//!
//! Spawns the real binary (the one cargo built beside this bench) in a
//! temporary project and times whole invocations — process start, config,
//! re-statting the sources, loading the data, regenerating and judging —
//! over several runs, reporting the fastest and the median:
//!
//! 1. the bundled example (`notebooks/eagle-fast-verify.md` with its logs
//!    and reckon.toml): with a warm database, after `update --write` (the
//!    steady state), and cold (no database yet: the first check ingests);
//! 2. a generated project of 33,792 `bench_serving` runs × ~30 metrics (over
//!    1,000,000 metric values, 512 log files named by reckon.toml) and a
//!    generated document of 100 regions (tables, inline values, plots, SQL,
//!    templates), made current with one `update --write`;
//! 3. a generated document of 100 claims (beats/others, matches or beats,
//!    ratios, plateaus, crossovers, latency) over the same data, timed with
//!    `check` and with `claims`.
//!
//! 4. one table region, over the large project (1,000,000 values), over
//!    a small one of the same shape (over 100,000 values, 4 sweeps) and over
//!    the large project's runs in 3,072 logs of 11 runs each (the cost of
//!    re-checking the logs), that one also with `--no-ingest`;
//!    With `RECKON_BENCH_10M=1`, also over a project of ten times the
//!    sweeps (over 10,000,000 values; about 5 more minutes), else its row
//!    is printed as not run;
//! 5. `lint` of a generated 2,000-line unannotated plan of 200 statements,
//!    and `report` of the 100-region document as an HTML page;
//! 6. how `check` scales: documents of 1k, 10k and 100k inline value
//!    regions, and sections of 1 MB and 10 MB of prose without a heading,
//!    with the ratio of the times between sizes (about 10× for 10× the
//!    input is linear; the 100k-region target is 10 s).
//!
//! `check` runs as a researcher runs it: with reckon.toml's defaults, so it
//! re-checks the sources (nothing changed: nothing is ingested) and lints
//! the document's prose (`[lint] level` defaults to "warn") besides
//! regenerating its regions and judging its claims. The generated logs are
//! let age past reckon's 2 s racy window before any timed check: a log
//! modified that close to its last reading is hashed again by every check,
//! which is right for a log just written and not what a pre-commit check of
//! earlier logs pays.
//!
//! It prints the figures next to the targets of issues 10 and 25 and the
//! peak resident memory of the reckon process (from `wait4`'s rusage),
//! beside issue 25's memory goal where a row has one; nothing
//! is asserted about time. Ingest time is not measured here (see
//! `benches/ingest.rs`).
//!
//! Run: `cargo bench --bench check` (about two minutes on 2 cores). Without
//! `--bench` (`cargo test --benches`) every size is tiny. Set
//! `RECKON_BENCH_KEEP=1` to keep the generated projects for profiling, and
//! `RECKON_BENCH_ONLY=scan` to time the one-region rows alone (4.), among
//! them the same 1,000,000 values in 3,072 logs, with and without
//! `--no-ingest`.

mod common;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The sizes of one benchmark session.
#[derive(Clone, Copy)]
struct Sizes {
    /// Sweep dates of the large project.
    dates: usize,
    /// Models (a `{model}` folder each).
    models: usize,
    /// Configurations (the series), at most [`CONFIGS`].
    configs: usize,
    /// `random_input_len` values, at most [`INPUT_LENS`].
    input_lens: usize,
    /// Repeats of every point within a sweep.
    repeats: usize,
    /// Regions of the generated document.
    regions: usize,
    /// Claims of the generated claims document.
    claims: usize,
    /// Lines and statements of the generated unannotated plan for `lint`.
    lint_lines: usize,
    lint_statements: usize,
    /// Timed runs of each example case.
    example_runs: usize,
    /// Timed cold runs of the example.
    cold_runs: usize,
    /// Timed runs of each large case.
    large_runs: usize,
    /// Value regions of the documents that show how `check` scales.
    scaling_regions: [usize; 3],
    /// Bytes of the sections without headings that show the same of lint.
    scaling_sections: [usize; 2],
    /// Timed runs of each scaling case (the largest: at most 3).
    scaling_runs: usize,
}

const CONFIGS: [&str; 8] = [
    "baseline",
    "eagle-topk4-v1",
    "eagle-topk1-v2",
    "eagle-topk2-v2",
    "eagle-topk4-v2",
    "eagle-topk1-v1",
    "ngram-v1",
    "mtp-v2",
];
const CONCURRENCIES: [u32; 11] = [1, 2, 4, 8, 16, 30, 50, 100, 150, 200, 250];
const INPUT_LENS: [u32; 3] = [1000, 4000, 16000];
const MODELS: [&str; 2] = ["kimi-k2.5", "qwen3-235b"];

/// A deterministic pseudo-random number in [0, 1) from a seed (splitmix64).
fn unit(seed: u64) -> f64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Single-request speed and the concurrency scale where a configuration
/// levels off: throughput(c) = s1 · c / (1 + (c − 1) / knee).
fn shape(config: &str) -> (f64, f64) {
    match config {
        "baseline" => (93.0, 8.5),
        "eagle-topk4-v1" => (96.0, 3.5),
        "eagle-topk1-v2" => (110.0, 7.5),
        "eagle-topk2-v2" => (104.0, 5.5),
        "eagle-topk4-v2" => (100.0, 4.5),
        "eagle-topk1-v1" => (101.0, 6.0),
        "ngram-v1" => (88.0, 7.0),
        _ => (106.0, 6.5),
    }
}

/// Output throughput (tok/s) of one run.
fn throughput(config: &str, c: u32, input_len: u32, model: usize, date: usize, noise: f64) -> f64 {
    let (s1, knee) = shape(config);
    let c = f64::from(c);
    let len = match input_len {
        1000 => 1.0,
        4000 => 0.85,
        _ => 0.6,
    };
    let model = if model == 0 { 1.0 } else { 0.7 };
    s1 * c / (1.0 + (c - 1.0) / knee) * len * model * (1.0 + 0.002 * date as f64) * (1.0 + 0.04 * (noise - 0.5))
}

fn sweep_date(d: usize) -> String {
    // Every third day from 2026-09-01; the calendar does not matter, only order.
    let first = chrono::NaiveDate::from_ymd_opt(2026, 9, 1).unwrap();
    (first + chrono::Days::new(3 * d as u64)).format("%Y-%m-%d").to_string()
}

/// Writes the large project's logs: `logs/{date}/{model}/{config}.jsonl`,
/// one `bench_serving` record per line. Returns the number of runs written.
fn generate_logs(dir: &Path, s: &Sizes) -> usize {
    let mut runs = 0usize;
    for d in 0..s.dates {
        let date = sweep_date(d);
        for (m, model) in MODELS.iter().enumerate().take(s.models) {
            let folder = dir.join(format!("logs/{date}/{model}"));
            std::fs::create_dir_all(&folder).unwrap();
            for config in CONFIGS.iter().take(s.configs) {
                let file = std::fs::File::create(folder.join(format!("{config}.jsonl"))).unwrap();
                let mut out = std::io::BufWriter::new(file);
                for &len in INPUT_LENS.iter().take(s.input_lens) {
                    for _ in 0..s.repeats {
                        for &c in &CONCURRENCIES {
                            runs += 1;
                            writeln!(out, "{}", record(config, c, len, m, model, d, runs as u64)).unwrap();
                        }
                    }
                }
            }
        }
    }
    runs
}

/// A count a little below a round one, from `x` in [0, 64): the whole
/// part, which fits a `u32` and is never negative, so the cast is exact.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn whole(x: f64) -> u32 {
    debug_assert!((0.0..64.0).contains(&x));
    x as u32
}

/// One `bench_serving` JSONL record, shaped like `SGLang` writes it.
#[allow(clippy::too_many_arguments)]
fn record(config: &str, c: u32, len: u32, m: usize, model: &str, d: usize, seed: u64) -> String {
    let noise = |k: u64| unit(seed * 64 + k);
    let tput = throughput(config, c, len, m, d, noise(0));
    let per_req = tput / f64::from(c); // tok/s each request sees
    let token_ms = 1000.0 / per_req;
    let ttft = (60.0 + f64::from(len) * 0.12) * (1.0 + f64::from(c) / 40.0) * (0.9 + 0.2 * noise(1));
    let e2e = ttft + token_ms * 999.0;
    let prompts = (c * 4).max(16);
    let duration = f64::from(prompts) * 1000.0 / tput;
    let spec = config != "baseline";
    let topk = config.split("topk").nth(1).and_then(|t| t[..1].parse::<u32>().ok());
    let spec_v2 = config.ends_with("-v2");
    let accept = if spec { format!("{:.4}", 2.2 + noise(2)) } else { "null".into() };
    let mut s = String::with_capacity(1800);
    write!(
        s,
        concat!(
            r#"{{"tag": "{model}_{config}_c{c}_in{len}", "backend": "sglang", "dataset_name": "random", "#,
            r#""request_rate": Infinity, "#,
            r#""max_concurrency": {c}, "sharegpt_output_len": null, "random_input_len": {len}, "#,
            r#""random_output_len": 1000, "random_range_ratio": 1.0, "#,
            r#""server_info": {{"model_path": "org/{model}", "tp_size": 8, "quantization": "int4", "#,
            r#""cuda_graph_max_bs": 64, "attention_backend": "flashinfer", "#,
            r#""speculative_algorithm": {algo}, "speculative_eagle_topk": {topk}, "speculative_num_steps": "#,
            r#"{steps}, "enable_spec_v2": {v2}}}, "#,
            r#""duration": {duration:.4}, "completed": {prompts}, "total_input_tokens": {tin}, "#,
            r#""total_output_tokens": {tout}, "total_output_tokens_retokenized": {tret}, "#,
            r#""request_throughput": {rt:.6}, "input_throughput": {it:.4}, "output_throughput": {tput:.4}, "#,
            r#""total_throughput": {tt:.4}, "#,
            r#""max_output_tokens_per_s": {peak:.2}, "max_concurrent_requests": {c}, "#,
            r#""mean_e2e_latency_ms": {e2e:.4}, "median_e2e_latency_ms": {e2e_med:.4}, "std_e2e_latency_ms": "#,
            r#"{e2e_sd:.4}, "p99_e2e_latency_ms": {e2e_p99:.4}, "#,
            r#""mean_ttft_ms": {ttft:.4}, "median_ttft_ms": {ttft_med:.4}, "std_ttft_ms": {ttft_sd:.4}, "#,
            r#""p99_ttft_ms": {ttft_p99:.4}, "#,
            r#""mean_tpot_ms": {tpot:.4}, "median_tpot_ms": {tpot_med:.4}, "std_tpot_ms": {tpot_sd:.4}, "#,
            r#""p99_tpot_ms": {tpot_p99:.4}, "#,
            r#""mean_itl_ms": {itl:.4}, "median_itl_ms": {itl_med:.4}, "std_itl_ms": {itl_sd:.4}, "p95_itl_ms": "#,
            r#"{itl_p95:.4}, "p99_itl_ms": {itl_p99:.4}, "#,
            r#""concurrency": {conc:.4}, "accept_length": {accept}}}"#
        ),
        model = model,
        config = config,
        c = c,
        len = len,
        algo = if spec { "\"EAGLE3\"" } else { "null" },
        topk = topk.map_or("null".to_string(), |t| t.to_string()),
        steps = if spec { "3" } else { "null" },
        v2 = spec_v2,
        duration = duration,
        prompts = prompts,
        tin = prompts * len,
        tout = prompts * 1000 - whole(noise(3) * 30.0),
        tret = prompts * 1000 - whole(noise(4) * 40.0),
        rt = tput / 1000.0,
        it = tput * f64::from(len) / 1000.0,
        tput = tput,
        tt = tput * (1.0 + f64::from(len) / 1000.0),
        peak = tput * (1.2 + 0.1 * noise(5)),
        e2e = e2e,
        e2e_med = e2e * (0.98 + 0.02 * noise(6)),
        e2e_sd = e2e * 0.04,
        e2e_p99 = e2e * (1.1 + 0.05 * noise(7)),
        ttft = ttft,
        ttft_med = ttft * (0.92 + 0.04 * noise(8)),
        ttft_sd = ttft * 0.3,
        ttft_p99 = ttft * (2.2 + 0.4 * noise(9)),
        tpot = token_ms,
        tpot_med = token_ms * (0.98 + 0.02 * noise(10)),
        tpot_sd = token_ms * 0.05,
        tpot_p99 = token_ms * (1.15 + 0.1 * noise(11)),
        itl = token_ms * 1.05,
        itl_med = token_ms * (0.97 + 0.03 * noise(12)),
        itl_sd = token_ms * 0.4,
        itl_p95 = token_ms * (1.9 + 0.2 * noise(13)),
        itl_p99 = token_ms * (2.6 + 0.4 * noise(14)),
        conc = f64::from(c) * (0.95 + 0.04 * noise(15)),
        accept = accept,
    )
    .unwrap();
    s
}

const LARGE_TOML: &str = r#"# The generated project of benches/check.rs.
database = "db/reckon.sqlite"
series = "config"

[[source]]
path = "logs/{date}/{model}/{config}.jsonl"
labels = { cluster = "rtx-pro-6000" }

[aliases]
"baseline" = ["no speculation"]
"eagle-topk4-v1" = ["EAGLE topk=4, v1", "topk=4+v1"]
"eagle-topk1-v2" = ["EAGLE topk=1 on the spec_v2 overlap path", "topk=1+v2"]
output_throughput = ["tok/s", "throughput"]
max_concurrency = ["C"]

[points]
"single request" = "max_concurrency = 1"
"saturation" = "the largest max_concurrency"

[noise]
throughput = 0.02
latency = 0.05
tail_latency = 0.10
"#;

const TABLE_METRICS: [&str; 8] = [
    "output_throughput",
    "mean_ttft_ms",
    "p99_ttft_ms",
    "median_tpot_ms",
    "mean_e2e_latency_ms",
    "p99_itl_ms",
    "request_throughput",
    "total_throughput",
];

/// `where=` filters the generated regions cycle through. Each pins the
/// model and the prompt length: a cell pooling two models' runs at one
/// concurrency would be two points taken for repeats, which a region is
/// refused for.
fn region_filter(i: usize, s: &Sizes) -> String {
    let last = sweep_date(s.dates - 1);
    let model = MODELS[i % s.models];
    let len = INPUT_LENS[i % s.input_lens];
    let pin = format!("model = '{model}' and random_input_len = {len}");
    match i % 6 {
        0 | 5 => pin,
        1 => format!("random_input_len = {len} and model = '{model}'"),
        2 => format!("config in ({}, {}) and {pin}", CONFIGS[0], CONFIGS[1 % s.configs]),
        3 => format!("date = {last} and {pin}"),
        _ => format!("max_concurrency >= 30 and {pin}"),
    }
}

/// The `tables` table regions of [`regions_document`], each with its heading.
fn table_regions(doc: &mut String, s: &Sizes, tables: usize) -> usize {
    let aggs = ["median", "median", "mean", "max", "all", "median", "min"];
    for t in 0..tables {
        writeln!(doc, "## Table {t}\n").unwrap();
        let filter = format!(" where=\"{}\"", region_filter(t, s));
        if t % 8 == 7 {
            let config = CONFIGS[t % s.configs];
            writeln!(
                doc,
                "<!-- reckon:table metrics=output_throughput,mean_ttft_ms,p99_tpot_ms series={config} \
                rows=max_concurrency digits=2{filter} -->\n<!-- /reckon:table -->\n"
            )
            .unwrap();
        } else {
            let metric = TABLE_METRICS[t % TABLE_METRICS.len()];
            let extra = if t % 3 == 0 { " highlight=best caption=true" } else { "" };
            let agg = aggs[t % aggs.len()];
            writeln!(
                doc,
                "<!-- reckon:table metric={metric} rows=max_concurrency agg={agg} digits=1{extra}{filter} \
                -->\n<!-- /reckon:table -->\n"
            )
            .unwrap();
        }
    }
    tables
}

/// The `values` inline values of [`regions_document`], one sentence each.
fn value_regions(doc: &mut String, s: &Sizes, values: usize) -> usize {
    writeln!(doc, "## Inline numbers\n").unwrap();
    for v in 0..values {
        let config = CONFIGS[v % s.configs];
        let model = MODELS[v % s.models];
        let len = INPUT_LENS[(v / 2) % s.input_lens];
        let metric = ["output_throughput", "mean_ttft_ms", "p99_itl_ms"][v % 3];
        let what = if v % 4 == 0 {
            "max_over=max_concurrency".to_string()
        } else {
            format!("max_concurrency={}", CONCURRENCIES[v % CONCURRENCIES.len()])
        };
        writeln!(
            doc,
            "With {model} and {len}-token prompts, {config} reaches <!-- reckon:value metric={metric} \
                config={config} model={model} random_input_len={len} {what} digits=1 --><!-- /reckon:value --> \
                ({metric})."
        )
        .unwrap();
    }
    values
}

/// A document of `s.regions` regions: ~40% tables, ~45% inline values, and
/// plots, SQL and templates 5% each, in sections of prose.
fn regions_document(s: &Sizes) -> String {
    let mut doc =
        String::from("# Speculative decoding across models and prompt lengths\n\n_Generated by benches/check.rs._\n\n");
    let n = s.regions;
    let (plots, sqls, templates) = ((n / 20).max(1), (n / 20).max(1), (n / 20).max(1));
    let tables = n * 2 / 5;
    let values = n.saturating_sub(plots + sqls + templates + tables);
    let sql_queries = [
        "SELECT json_extract(p.params, '$.config') AS config, count(*) AS runs, max(sweep) AS latest FROM run JOIN \
            param_set p ON p.id = run.param_set_id GROUP BY 1 ORDER BY 1",
        "SELECT name, unit, direction FROM metric ORDER BY name",
        "SELECT sweep, count(*) AS runs FROM run GROUP BY sweep ORDER BY sweep DESC LIMIT 5",
        "SELECT format, count(*) AS files, sum(size) AS bytes FROM source GROUP BY format",
        "SELECT json_extract(p.params, '$.config') AS config, avg(m.value) AS mean_tput FROM run r JOIN param_set p \
            ON p.id = r.param_set_id JOIN measurement m ON m.run_id = r.id JOIN metric ON metric.id = m.metric_id \
            WHERE metric.name = 'output_throughput' GROUP BY 1 ORDER BY 1",
    ];
    let mut i = table_regions(&mut doc, s, tables);
    i += value_regions(&mut doc, s, values);
    writeln!(doc, "\n## Plots\n").unwrap();
    for p in 0..plots {
        i += 1;
        let model = MODELS[p % s.models];
        let metric = ["output_throughput", "p99_ttft_ms"][p % 2];
        writeln!(
            doc,
            "<!-- reckon:plot metric={metric} x=max_concurrency log=x file=plot-{p}.svg where=\"model = \
            '{model}' and random_input_len = 1000\" -->\n<!-- /reckon:plot -->\n"
        )
        .unwrap();
    }
    writeln!(doc, "## Provenance\n").unwrap();
    for q in 0..sqls {
        i += 1;
        writeln!(
            doc,
            "<!-- reckon:sql query=\"{}\" digits=1 -->\n<!-- /reckon:sql -->\n",
            sql_queries[q % sql_queries.len()]
        )
        .unwrap();
    }
    writeln!(doc, "## Summaries\n").unwrap();
    for t in 0..templates {
        i += 1;
        let model = MODELS[t % s.models];
        let (name, metric) =
            if t % 2 == 0 { ("best-per-row.md", "output_throughput") } else { ("sweeps.md", "p99_ttft_ms") };
        writeln!(
            doc,
            "<!-- reckon:template name={name} metric={metric} rows=max_concurrency digits=1 where=\"model \
            = '{model}' and random_input_len = 1000\" -->\n<!-- /reckon:template -->\n"
        )
        .unwrap();
    }
    assert_eq!(i, n);
    doc
}

/// A document of `s.claims` claims, cycling through the shapes of claims
/// researchers write, each with its prose.
fn claims_document(s: &Sizes) -> String {
    let mut doc =
        String::from("# Conclusions across models and prompt lengths\n\n_Generated by benches/check.rs._\n\n");
    let last = s.dates - 1;
    for k in 0..s.claims {
        let m = k % s.models;
        let model = MODELS[m];
        let len = INPUT_LENS[(k / 3) % s.input_lens];
        // What the generator makes of a configuration, noise aside.
        let expect = |config: &str, c: u32| throughput(config, c, len, m, last, 0.5);
        let ia = (k / 10) % s.configs;
        let (mut a, mut b) = (CONFIGS[ia], CONFIGS[(ia + 1 + (k % 3) % (s.configs - 1)) % s.configs]);
        // Half the claims put the stronger configuration first, so that
        // some conclusions hold, some are contradicted, some undecided.
        if k % 2 == 0 && expect(a, 250) < expect(b, 250) {
            std::mem::swap(&mut a, &mut b);
        }
        // A third of the stated numbers are off by 30%.
        let off = if k % 3 == 0 { 1.3 } else { 1.0 };
        let pinned = format!("model = '{model}' and random_input_len = {len}");
        let max_ratio = CONCURRENCIES.iter().map(|&c| expect(a, c) / expect(b, c)).fold(f64::MIN, f64::max);
        let plateau = CONCURRENCIES.iter().filter(|&&c| c >= 50).map(|&c| expect(a, c)).fold(f64::MIN, f64::max);
        let statement = match k % 10 {
            0 => format!("{a} beats others on output_throughput for all max_concurrency >= 30 where {pinned}"),
            1 => format!("{a} matches or beats {b} on output_throughput for all max_concurrency where {pinned}"),
            2 => format!("{a} beats {b} on output_throughput at max_concurrency = 1 where {pinned}"),
            3 => format!(
                "max({a} / {b} on output_throughput for all max_concurrency) ≈ {:.2} within 5% where \
                {pinned}",
                max_ratio * off
            ),
            4 => format!(
                "{a} / {b} on output_throughput at max_concurrency = 8 ≈ {:.2} within 5% where \
                {pinned}",
                expect(a, 8) / expect(b, 8) * off
            ),
            5 => format!(
                "max({a} on output_throughput for all max_concurrency >= 50) ≈ {:.0} within 3% where \
                {pinned}",
                plateau * off
            ),
            6 => format!(
                "crossover({a}, {b} on output_throughput over max_concurrency) = {} where \
                {pinned}",
                CONCURRENCIES[k % 5]
            ),
            7 => format!("{a} beats {b} on p99_ttft_ms for all max_concurrency >= 100 where {pinned}"),
            8 => format!(
                "{a} matches {b} on mean_tpot_ms for all max_concurrency in (1, 2, 4) where {pinned} and {a} \
                beats {b} on output_throughput for any max_concurrency where {pinned}"
            ),
            _ => format!(
                "{a} matches or beats others on median_e2e_latency_ms for all max_concurrency <= 16 where \
                model = '{model}' and random_input_len = {len} and date >= '{}'",
                sweep_date(s.dates / 2)
            ),
        };
        writeln!(
            doc,
            "<!-- reckon:claim id=c{k}\n     {statement} -->\nConclusion {k}: {a} against {b} on {model} \
            with {len}-token prompts.\n<!-- /reckon:claim -->\n"
        )
        .unwrap();
    }
    doc
}

/// An unannotated plan of about `s.lint_lines` lines holding
/// `s.lint_statements` statements `reckon lint` can read (comparisons,
/// values, ratios, peaks, plateaus, plans), a third of the numbers off by
/// 30%, between lines of prose it has nothing to check in.
fn lint_document(s: &Sizes) -> String {
    const FILLER: [&str; 4] = [
        "The sweep ran on the same nodes as the week before, with the same driver and container image.",
        "Each point was measured after a warm-up of two minutes; the client and server shared nothing else.",
        "Kernel launch overheads and host-side scheduling were profiled separately and are not discussed here.",
        "Logs of every run are kept next to this plan, one file per configuration and sweep.",
    ];
    let mut doc = String::from("# Speculative decoding across configurations\n\n_Generated by benches/check.rs._\n\n");
    let last = s.dates - 1;
    let per = (s.lint_lines / s.lint_statements.max(1)).max(2);
    for k in 0..s.lint_statements {
        // The statements' numbers are of the first model at the first
        // prompt length: each heading says so, or lint would find every
        // statement naming no point among the models and prompt lengths
        // and judge none of them (the row would time reading alone).
        if k % 10 == 0 {
            writeln!(doc, "## Findings {} on {} at random_input_len = {}\n", k / 10 + 1, MODELS[0], INPUT_LENS[0])
                .unwrap();
        }
        let ia = (k / 10) % s.configs;
        let (a, b) = (CONFIGS[ia], CONFIGS[(ia + 1 + k % 3) % s.configs]);
        let c = CONCURRENCIES[k % CONCURRENCIES.len()];
        let off = if k % 3 == 0 { 1.3 } else { 1.0 };
        let expect = |config: &str, c: u32| throughput(config, c, INPUT_LENS[0], 0, last, 0.5);
        let peak = CONCURRENCIES.iter().map(|&c| expect(a, c)).fold(f64::MIN, f64::max);
        let plateau = CONCURRENCIES.iter().filter(|&&c| c >= 50).map(|&c| expect(a, c)).fold(f64::MIN, f64::max);
        let sentence = match k % 10 {
            0 => format!("{a} beats {b} on throughput at C={c}."),
            1 => format!("At C={c}, {a} delivers {:.0} tok/s.", expect(a, c) * off),
            2 => format!("{a} is {:.1}x faster than {b} at C={c}.", expect(a, c) / expect(b, c) * off),
            3 => format!("{a} peaks at {:.0} tok/s.", peak * off),
            4 => format!("{a} vs {b} at C={c}: {:.0} vs {:.0} tok/s.", expect(a, c) * off, expect(b, c)),
            5 => format!("For batch jobs {a} is strictly superior on throughput."),
            6 => format!("{a} plateaus at about {:.0} tok/s from C=50 on.", plateau * off),
            7 => format!("{a} has lower mean_ttft_ms than {b} at C={c}."),
            8 => format!("We should rerun {a} at C={c} with more repeats."),
            _ => format!("{a} matches {b} on throughput at a single request."),
        };
        doc.push_str(&sentence);
        doc.push('\n');
        for f in 0..per.saturating_sub(2) {
            doc.push_str(FILLER[(k + f) % FILLER.len()]);
            doc.push('\n');
        }
        doc.push('\n');
    }
    doc
}

/// How many lint findings of each status a `lint --all --format json` run gave.
fn lint_statuses(out: &Output) -> String {
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut counts: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for st in v["statements"].as_array().unwrap() {
        *counts.entry(st["status"].as_str().unwrap_or("?").to_string()).or_default() += 1;
    }
    counts.iter().map(|(k, n)| format!("{n} {k}")).collect::<Vec<_>>().join(", ")
}

/// Runs reckon in `dir`, returning its output (a usage or input error,
/// exit 2, stops the benchmark: the figures would mean nothing).
fn reckon(bin: &Path, dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(bin).args(args).current_dir(dir).env("NO_COLOR", "1").output().unwrap();
    let code = out.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "reckon {} in {} exited {:?}:\n{}{}",
        args.join(" "),
        dir.display(),
        code,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs reckon in `dir` like [`reckon`], also returning its peak resident
/// memory in KiB (from the child's own rusage; 0 where unavailable). The
/// output goes through files, so a large one cannot fill a pipe while the
/// child is waited for.
fn reckon_measured(bin: &Path, dir: &Path, args: &[&str]) -> (Output, u64) {
    let stdout = tempfile::tempfile().unwrap();
    let stderr = tempfile::tempfile().unwrap();
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(stdout.try_clone().unwrap())
        .stderr(stderr.try_clone().unwrap())
        .spawn()
        .unwrap();
    let (status, rss) = common::wait_with_rss(&mut child);
    let read = |mut f: std::fs::File| {
        use std::io::{Read, Seek};
        let mut v = Vec::new();
        f.seek(std::io::SeekFrom::Start(0)).unwrap();
        f.read_to_end(&mut v).unwrap();
        v
    };
    let out = Output { status, stdout: read(stdout), stderr: read(stderr) };
    let code = out.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "reckon {} in {} exited {:?}:\n{}{}",
        args.join(" "),
        dir.display(),
        code,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out, rss)
}

/// Times `runs` invocations; `before` runs untimed before each one. Returns
/// the sorted times, the last output and the largest peak RSS (KiB).
fn time_runs(bin: &Path, dir: &Path, args: &[&str], runs: usize, mut before: impl FnMut()) -> (Vec<Duration>, Output) {
    let (times, out, _) = time_runs_rss(bin, dir, args, runs, &mut before);
    (times, out)
}

fn time_runs_rss(
    bin: &Path,
    dir: &Path,
    args: &[&str],
    runs: usize,
    before: &mut dyn FnMut(),
) -> (Vec<Duration>, Output, u64) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    let mut peak = 0;
    for _ in 0..runs {
        before();
        let start = Instant::now();
        let (out, rss) = reckon_measured(bin, dir, args);
        times.push(start.elapsed());
        peak = peak.max(rss);
        last = Some(out);
    }
    times.sort();
    (times, last.unwrap(), peak)
}

/// A document of one table region, as a researcher keeps one: throughput by
/// concurrency, a column per configuration, for one model and prompt length.
fn one_table_document() -> String {
    format!(
        "# Throughput\n\nThe newest sweep, by concurrency.\n\n\
         <!-- reckon:table metric=output_throughput rows=max_concurrency digits=1 \
         where=\"model = '{}' and random_input_len = {}\" -->\n<!-- /reckon:table -->\n",
        MODELS[0], INPUT_LENS[0]
    )
}

/// Copies a folder recursively.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Makes `dir` a git repository with one commit, as a pre-commit hook sees
/// it (reckon asks git for HEAD when it ingests). Skipped without git.
fn git_init(dir: &Path) -> bool {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(dir)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    git(&["init", "-q"]) && git(&["add", "reckon.toml"]) && git(&["commit", "-q", "-m", "bench"])
}

/// The example project in a fresh temporary folder.
fn example_project(repo: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo.join("notebooks"), &dir.path().join("notebooks"));
    std::fs::copy(repo.join("reckon.toml"), dir.path().join("reckon.toml")).unwrap();
    git_init(dir.path());
    dir
}

fn remove_database(dir: &Path) {
    for name in ["reckon.sqlite", "reckon.sqlite-wal", "reckon.sqlite-shm"] {
        let _ = std::fs::remove_file(dir.join("db").join(name));
    }
}

/// Generates and ingests a project of `dates` sweeps in `dir`; returns its
/// description and its number of metric values.
fn generated_project(bin: &Path, dir: &Path, s: &Sizes, dates: usize) -> (String, i64) {
    std::fs::write(dir.join("reckon.toml"), LARGE_TOML).unwrap();
    git_init(dir);
    let sized = Sizes { dates, ..*s };
    let generated = Instant::now();
    let written = generate_logs(dir, &sized);
    let gen_time = generated.elapsed();
    let ingested = Instant::now();
    reckon(bin, dir, &["ingest"]);
    let ingest_time = ingested.elapsed();
    let (runs, values) = database_size(dir);
    assert_eq!(usize::try_from(runs).unwrap(), written);
    let files = dates * s.models * s.configs;
    let data = format!("{runs} runs / {values} values / {files} files");
    eprintln!(
        "project: {data}: generated in {:.1} s, ingested in {:.1} s (not measured)",
        gen_time.as_secs_f64(),
        ingest_time.as_secs_f64()
    );
    (data, values)
}

/// Runs and metric values in a project's database.
fn database_size(dir: &Path) -> (i64, i64) {
    let conn =
        rusqlite::Connection::open_with_flags(dir.join("db/reckon.sqlite"), rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let runs = conn.query_row("SELECT count(*) FROM run", [], |r| r.get(0)).unwrap();
    let values = conn.query_row("SELECT count(*) FROM measurement", [], |r| r.get(0)).unwrap();
    (runs, values)
}

/// The verdicts of `reckon claims --format json`, counted.
fn verdicts(out: &Output) -> String {
    let items: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut counts = std::collections::BTreeMap::new();
    for item in items.as_array().unwrap() {
        *counts.entry(item["claim"]["verdict"].as_str().unwrap_or("?").to_string()).or_insert(0usize) += 1;
    }
    counts.iter().map(|(v, n)| format!("{n} {v}")).collect::<Vec<_>>().join(", ")
}

/// One line of the results table.
struct Row {
    case: String,
    data: String,
    times: Vec<Duration>,
    target_ms: f64,
    /// Peak resident memory of the reckon process, KiB.
    rss: Option<u64>,
    /// The goal for that peak, MiB, where the row has one.
    rss_target: Option<u64>,
    note: String,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The one-region rows: `check` of one table region over each project,
/// with the cache warm and, for a reckon that has one, cold.
fn one_region_rows(bin: &Path, projects: &[(&Path, &String, f64, Option<u64>)], s: &Sizes, rows: &mut Vec<Row>) {
    // A reckon with an evaluation cache is timed warm (the first check
    // keeps what the region evaluated to; the fastest and the median are of
    // checks after it) and cold, evaluating as if nothing were kept
    // (`--no-cache`); an older reckon has no cache and no cold row.
    let has_cache = help_mentions(bin, "--no-cache");
    for &(dir, data, target, rss_target) in projects {
        std::fs::write(dir.join("table.md"), one_table_document()).unwrap();
        reckon(bin, dir, &["update", "--write", "table.md"]);
        let (times, out, rss) = time_runs_rss(bin, dir, &["check", "table.md"], s.large_runs, &mut || {});
        let warm = if has_cache { ", cache warm" } else { "" };
        rows.push(Row {
            case: format!("check, 1 table region{warm}"),
            data: data.clone(),
            times,
            target_ms: target,
            rss: Some(rss),
            rss_target,
            note: format!("exit {} (current)", out.status.code().unwrap_or(-1)),
        });
        if has_cache {
            let args = ["check", "--no-cache", "table.md"];
            let (times, out, rss) = time_runs_rss(bin, dir, &args, s.large_runs, &mut || {});
            rows.push(Row {
                case: "check, 1 table region, cache cold (--no-cache)".into(),
                data: data.clone(),
                times,
                target_ms: target,
                rss: Some(rss),
                rss_target,
                note: format!("exit {} (current)", out.status.code().unwrap_or(-1)),
            });
        }
    }
}

/// Whether `reckon check --help` of `bin` mentions `flag`.
fn help_mentions(bin: &Path, flag: &str) -> bool {
    Command::new(bin)
        .args(["check", "--help"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(flag))
}

fn main() {
    // `cargo test --benches` runs bench targets with no `--bench` flag: keep that quick.
    let benching = std::env::args().any(|a| a == "--bench");
    let s = sizes(benching);
    let bin = common::reckon_binary();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut rows = Vec::new();

    // `RECKON_BENCH_ONLY=scan`: the one-region rows alone (how a check's
    // scan of the logs costs), for quick before/after figures.
    let only_scan = std::env::var("RECKON_BENCH_ONLY").as_deref() == Ok("scan");

    // 1. The bundled example.
    let example = example_project(repo);
    if !only_scan {
        example_rows(&bin, example.path(), &s, &mut rows);
    }

    // 2.–5. The large project, and a small one of the same shape.
    let large = tempfile::tempdir().unwrap();
    let lg = large.path();
    let lg_data = generated_project(&bin, lg, &s, s.dates);
    if benching {
        assert!(lg_data.1 >= 1_000_000, "the large case needs at least 1,000,000 metric values, got {}", lg_data.1);
    }
    let lg_data = lg_data.0;
    let small = tempfile::tempdir().unwrap();
    let sm = small.path();
    let small_dates = if benching { 4 } else { 1 };
    let (sm_data, sm_values) = generated_project(&bin, sm, &s, small_dates);
    // The same runs as the large project in six times as many logs (one
    // prompt length and one repeat per file): what a check's scan of the
    // logs costs when nothing changed.
    let many = tempfile::tempdir().unwrap();
    let mn = many.path();
    let many_sizes = Sizes { input_lens: 1, repeats: 1, ..s };
    let many_dates = s.dates * s.input_lens * s.repeats;
    let (mn_data, mn_values) = generated_project(&bin, mn, &many_sizes, many_dates);
    let logs_written = Instant::now();
    if benching {
        assert!(sm_values >= 100_000, "the small case needs at least 100,000 metric values, got {sm_values}");
        assert!(mn_values >= 1_000_000, "the many-logs case needs at least 1,000,000 metric values, got {mn_values}");
    }
    // A log modified within the racy window of when reckon last read it
    // (git's "racily clean" case, 2 s) is hashed again by every check until
    // the window has passed. A pre-commit check runs on logs written well
    // before it; the timed checks measure that steady state, so the logs
    // just written are let age out of the window first (the untimed
    // `update --write` below then records them as settled).
    if benching {
        std::thread::sleep(RACY_WINDOW.saturating_sub(logs_written.elapsed()));
    }

    let projects = [(sm, &sm_data, 10.0, None), (lg, &lg_data, 20.0, None), (mn, &mn_data, 20.0, None)];
    one_region_rows(&bin, &projects, &s, &mut rows);
    // Issue 25's 10M-values row: ten times the large project's sweeps
    // (about 5 minutes to generate and ingest on 2 cores), opt-in.
    let huge = tempfile::tempdir().unwrap();
    if std::env::var_os("RECKON_BENCH_10M").is_some() {
        let (hg_data, hg_values) = generated_project(&bin, huge.path(), &s, s.dates * 10);
        if benching {
            assert!(hg_values >= 10_000_000, "the 10M case needs at least 10,000,000 metric values, got {hg_values}");
        }
        std::thread::sleep(RACY_WINDOW);
        one_region_rows(&bin, &[(huge.path(), &hg_data, 100.0, Some(30))], &s, &mut rows);
    }
    // With --no-ingest the database is trusted: no log is looked at.
    let (times, out, rss) = time_runs_rss(&bin, mn, &["check", "--no-ingest", "table.md"], s.large_runs, &mut || {});
    rows.push(Row {
        case: "check --no-ingest, 1 table region".into(),
        data: mn_data.clone(),
        times,
        target_ms: 20.0,
        rss: Some(rss),
        rss_target: None,
        note: format!("exit {} (current)", out.status.code().unwrap_or(-1)),
    });
    if only_scan {
        print_rows(&bin, &rows);
        keep_if_asked(vec![example, large, small, many, huge]);
        return;
    }

    document_rows(&bin, lg, &lg_data, &s, &mut rows);
    let mut scaling = Vec::new();
    let ratios = scaling_rows(&bin, lg, &lg_data, &s, &mut scaling);

    print_rows(&bin, &rows);
    println!("how check scales with its input (linear: about 10× the time for 10× the input):");
    print_table(&scaling);
    for r in &ratios {
        println!("  {r}");
    }
    keep_if_asked(vec![example, large, small, many, huge]);
    if !benching {
        println!("(test mode: tiny sizes; run `cargo bench --bench check` for the real figures)");
    }
}

/// Keeps the generated projects when `RECKON_BENCH_KEEP` is set.
fn keep_if_asked(projects: Vec<tempfile::TempDir>) {
    if std::env::var_os("RECKON_BENCH_KEEP").is_some() {
        let kept: Vec<String> = projects.into_iter().map(|p| p.keep().display().to_string()).collect();
        println!("kept the projects: {}", kept.join(", "));
    }
}

/// How long after a log was last written reckon keeps hashing it again
/// (`RACY_NS` in src/sources/examine.rs), with a margin.
const RACY_WINDOW: Duration = Duration::from_millis(2_500);

/// The sizes of the real benchmark, or tiny ones for `cargo test --benches`.
fn sizes(benching: bool) -> Sizes {
    if benching {
        Sizes {
            dates: 32,
            models: 2,
            configs: 8,
            input_lens: 3,
            repeats: 2,
            regions: 100,
            claims: 100,
            lint_lines: 2000,
            lint_statements: 200,
            example_runs: 20,
            cold_runs: 5,
            large_runs: 7,
            scaling_regions: [1_000, 10_000, 100_000],
            scaling_sections: [1_000_000, 10_000_000],
            scaling_runs: 3,
        }
    } else {
        Sizes {
            dates: 2,
            models: 1,
            configs: 3,
            input_lens: 1,
            repeats: 1,
            regions: 20,
            claims: 10,
            lint_lines: 100,
            lint_statements: 20,
            example_runs: 1,
            cold_runs: 1,
            large_runs: 1,
            scaling_regions: [10, 100, 1_000],
            scaling_sections: [10_000, 100_000],
            scaling_runs: 1,
        }
    }
}

/// Case 1: `check` on the bundled example, warm, cold and after an update.
fn example_rows(bin: &Path, ex: &Path, s: &Sizes, rows: &mut Vec<Row>) {
    let doc = "notebooks/eagle-fast-verify.md";
    let check = ["check", doc];
    reckon(bin, ex, &["ingest"]);
    let (ex_runs, ex_values) = database_size(ex);
    let ex_data = format!("{ex_runs} runs / {ex_values} values");
    let (times, out) = time_runs(bin, ex, &check, s.example_runs, || {});
    rows.push(Row {
        case: "example: check, warm database".into(),
        data: ex_data.clone(),
        times,
        target_ms: 50.0,
        rss: None,
        rss_target: None,
        note: format!("exit {} (stale, claims flagged)", out.status.code().unwrap_or(-1)),
    });
    let (times, out) = time_runs(bin, ex, &check, s.cold_runs, || remove_database(ex));
    rows.push(Row {
        case: "example: check, cold (ingests first)".into(),
        data: ex_data.clone(),
        times,
        target_ms: 50.0,
        rss: None,
        rss_target: None,
        note: format!("exit {}", out.status.code().unwrap_or(-1)),
    });
    reckon(bin, ex, &["update", "--write", doc]);
    let (times, out) = time_runs(bin, ex, &check, s.example_runs, || {});
    rows.push(Row {
        case: "example: check after update --write".into(),
        data: ex_data,
        times,
        target_ms: 50.0,
        rss: None,
        rss_target: None,
        note: format!("exit {} (current; contradicted claims remain)", out.status.code().unwrap_or(-1)),
    });
}

/// Cases 3–5: many regions, many claims and an unannotated plan, all over
/// the large project.
fn document_rows(bin: &Path, lg: &Path, lg_data: &str, s: &Sizes, rows: &mut Vec<Row>) {
    std::fs::write(lg.join("regions.md"), regions_document(s)).unwrap();
    reckon(bin, lg, &["update", "--write", "regions.md"]);
    let (times, out, rss) = time_runs_rss(bin, lg, &["check", "regions.md"], s.large_runs, &mut || {});
    rows.push(Row {
        case: format!("check, {} regions", s.regions),
        data: lg_data.to_string(),
        times,
        target_ms: 200.0,
        rss: Some(rss),
        rss_target: Some(30),
        note: format!("exit {} (current)", out.status.code().unwrap_or(-1)),
    });
    // The same document as an HTML page (issue 25: <= 1 s, <= 50 MiB).
    let out_dir = lg.join("report");
    let report = ["report", "regions.md", "--out", out_dir.to_str().unwrap()];
    let (times, out, rss) = time_runs_rss(bin, lg, &report, s.large_runs, &mut || {});
    rows.push(Row {
        case: format!("report, {} regions", s.regions),
        data: lg_data.to_string(),
        times,
        target_ms: 1_000.0,
        rss: Some(rss),
        rss_target: Some(50),
        note: format!("exit {}", out.status.code().unwrap_or(-1)),
    });

    std::fs::write(lg.join("claims.md"), claims_document(s)).unwrap();
    reckon(bin, lg, &["update", "--write", "claims.md"]);
    let (times, _, rss) = time_runs_rss(bin, lg, &["check", "claims.md"], s.large_runs, &mut || {});
    let judged = verdicts(&reckon(bin, lg, &["claims", "--format", "json", "claims.md"]));
    rows.push(Row {
        case: format!("check, {} claims", s.claims),
        data: lg_data.to_string(),
        times,
        target_ms: 200.0,
        rss: Some(rss),
        rss_target: None,
        note: judged,
    });
    let (times, _, rss) = time_runs_rss(bin, lg, &["claims", "claims.md"], s.large_runs, &mut || {});
    rows.push(Row {
        case: format!("claims, {} claims", s.claims),
        data: lg_data.to_string(),
        times,
        target_ms: 200.0,
        rss: Some(rss),
        rss_target: None,
        note: String::new(),
    });

    let plan = lint_document(s);
    let plan_lines = plan.lines().count();
    std::fs::write(lg.join("plan.md"), plan).unwrap();
    let (times, _, rss) = time_runs_rss(bin, lg, &["lint", "plan.md"], s.large_runs, &mut || {});
    let found = lint_statuses(&reckon(bin, lg, &["lint", "--all", "--format", "json", "plan.md"]));
    rows.push(Row {
        case: format!("lint, {plan_lines} lines / {} statements", s.lint_statements),
        data: lg_data.to_string(),
        times,
        // Issue 18's (and 25's) goal for lint of the bench plan.
        target_ms: 500.0,
        rss: Some(rss),
        rss_target: None,
        note: found,
    });
}

/// The results table, and the peak memory against its target.
fn print_rows(bin: &Path, rows: &[Row]) {
    println!("reckon check benchmark: {} (whole process, wall clock)", bin.display());
    print_table(rows);
    if std::env::var_os("RECKON_BENCH_10M").is_none() {
        println!(
            "check, 1 table region, 10M values (target <= 100 ms, <= 30 MiB): not run; \
             set RECKON_BENCH_10M=1 to time it (about 5 more minutes)"
        );
    }
    let peak = rows
        .iter()
        .filter(|r| r.data.contains("values") && !r.case.starts_with("report"))
        .filter_map(|r| r.rss)
        .max()
        .unwrap_or(0);
    println!(
        "peak RSS of check/claims/lint over the generated projects: {:.1} MiB (target <= 30 MiB: {})",
        peak as f64 / 1024.0,
        if peak <= 30 * 1024 { "ok" } else { "MISSES" }
    );
}

/// The rows as a table, each against its target.
fn print_table(rows: &[Row]) {
    println!(
        "{:<36} {:<40} {:>4} {:>8} {:>9} {:>8}  {:<6} {:>9} {:<16} note",
        "case", "data", "runs", "min ms", "median ms", "target", "median", "peak RSS", "RSS target"
    );
    for r in rows {
        let min = ms(r.times[0]);
        let median = ms(r.times[r.times.len() / 2]);
        let verdict = if median <= r.target_ms { "ok" } else { "MISSES" };
        let rss = r.rss.map_or_else(|| "-".to_string(), |k| format!("{:.1} MiB", k as f64 / 1024.0));
        let rss_goal = match (r.rss, r.rss_target) {
            (Some(k), Some(t)) => format!("<= {t} MiB {}", if k <= t * 1024 { "ok" } else { "MISSES" }),
            _ => "-".to_string(),
        };
        println!(
            "{:<36} {:<40} {:>4} {:>8.1} {:>9.1} {:>8}  {:<6} {:>9} {:<16} {}",
            r.case,
            r.data,
            r.times.len(),
            min,
            median,
            format!("<= {}", r.target_ms),
            verdict,
            rss,
            rss_goal,
            r.note
        );
    }
}

/// A document of `n` inline value regions, one sentence each in one
/// paragraph (as [`value_regions`] writes them), under one heading.
fn many_values_document(s: &Sizes, n: usize) -> String {
    let mut doc = String::from("# Many inline numbers\n\n_Generated by benches/check.rs._\n\n");
    value_regions(&mut doc, s, n);
    doc
}

/// About `bytes` of prose in one section without headings, as a long note
/// pasted into a PR reads: sentences of plain words, a blank line now and
/// then, and every 200th sentence a statement lint reads and judges.
fn long_section_document(bytes: usize) -> String {
    const WORDS: [&str; 16] = [
        "the",
        "baseline",
        "throughput",
        "is",
        "measured",
        "at",
        "several",
        "points",
        "and",
        "the",
        "plan",
        "says",
        "what",
        "to",
        "try",
        "next",
    ];
    const STATEMENTS: [&str; 3] = [
        "eagle-topk1-v2 is faster than baseline on output_throughput at max_concurrency = 30.",
        "baseline is strictly superior on output_throughput at max_concurrency = 1.",
        "eagle-topk4-v1 plateaus at about 336 tok/s from C=50 on.",
    ];
    let mut doc = String::from("# Notes\n\n");
    let mut k = 0u64;
    while doc.len() < bytes {
        k += 1;
        if unit(k * 7) < 0.1 {
            doc.push('\n');
        } else if k % 200 == 0 {
            writeln!(doc, "{}", STATEMENTS[usize::try_from(k / 200).unwrap() % STATEMENTS.len()]).unwrap();
        } else {
            let pick = |w: u64| usize::try_from(whole(unit(k * 31 + w) * 16.0)).unwrap() % WORDS.len();
            let words: Vec<&str> = (0..14).map(|w| WORDS[pick(w)]).collect();
            writeln!(doc, "{}.", words.join(" ")).unwrap();
        }
    }
    doc
}

/// How the time of `check` grows with its input: documents of 1k, 10k and
/// 100k value regions (made current by one untimed `update --write`), and
/// sections of 1 MB and 10 MB of prose without a heading (linted by
/// `check`), over the large project. Returns the rows and the ratios
/// between sizes: near 10× per 10× input is linear.
fn scaling_rows(bin: &Path, lg: &Path, lg_data: &str, s: &Sizes, rows: &mut Vec<Row>) -> Vec<String> {
    let median = |times: &[Duration]| ms(times[times.len() / 2]);
    let mut ratios = Vec::new();
    let mut last: Option<(usize, f64)> = None;
    for (k, &n) in s.scaling_regions.iter().enumerate() {
        let name = format!("values-{n}.md");
        std::fs::write(lg.join(&name), many_values_document(s, n)).unwrap();
        reckon(bin, lg, &["update", "--write", &name]);
        let runs = if k + 1 == s.scaling_regions.len() { s.scaling_runs.min(3) } else { s.scaling_runs };
        let (times, out, rss) = time_runs_rss(bin, lg, &["check", &name], runs, &mut || {});
        let t = median(&times);
        if let Some((m, before)) = last {
            ratios.push(format!(
                "check {m} → {n} value regions: {:.1}× the time for {}× the regions",
                t / before,
                n / m
            ));
        }
        last = Some((n, t));
        rows.push(Row {
            case: format!("check, {n} value regions"),
            data: lg_data.to_string(),
            times,
            target_ms: if n >= 100_000 { 10_000.0 } else { n as f64 / 10.0 },
            rss: Some(rss),
            rss_target: None,
            note: format!("exit {} (current)", out.status.code().unwrap_or(-1)),
        });
    }
    let mut last: Option<(usize, f64)> = None;
    for &bytes in &s.scaling_sections {
        let name = format!("section-{bytes}.md");
        std::fs::write(lg.join(&name), long_section_document(bytes)).unwrap();
        let (times, out, rss) = time_runs_rss(bin, lg, &["check", &name], s.scaling_runs, &mut || {});
        let t = median(&times);
        let mb = bytes as f64 / 1e6;
        if let Some((b, before)) = last {
            ratios.push(format!(
                "check of a {:.2} MB → {mb:.2} MB section without headings: {:.1}× the time for {}× the text",
                b as f64 / 1e6,
                t / before,
                bytes / b
            ));
        }
        last = Some((bytes, t));
        rows.push(Row {
            case: format!("check, {mb:.2} MB section, no heading"),
            data: lg_data.to_string(),
            times,
            target_ms: 1_000.0 * mb,
            rss: Some(rss),
            rss_target: None,
            note: format!("exit {} (lint warns)", out.status.code().unwrap_or(-1)),
        });
    }
    ratios
}
