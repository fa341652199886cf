//! Ingest throughput against the physical limit.
//!
//! Generates a corpus of bench_serving JSONL records (default 100,000; set
//! RECKON_BENCH_RECORDS to change), ingests it with reckon, then inserts the
//! identical metric rows with one bare prepared statement in one transaction
//! into a table of the same shape, and prints both rates and their ratio.
//! Rounds alternate so machine noise hits both sides alike; the best round
//! of each is reported.
//!
//! Run: `cargo bench --bench ingest`

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use reckon::ingest::{self, Request};
use reckon::store::{Batch, Store};

fn generate(dir: &Path, records: usize, files: usize) {
    let per_file = records.div_ceil(files);
    let mut n = 0usize;
    for f in 0..files {
        let path = dir.join(format!("logs/2026-11-{:02}/config{}.jsonl", 1 + f % 28, f));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for i in 0..per_file {
            if n == records {
                break;
            }
            n += 1;
            let c = [1, 2, 4, 8, 16, 30, 50, 100, 150, 200, 250][i % 11];
            let x = 1.0 + (n as f64 * 0.618).fract() * 0.05;
            writeln!(
                out,
                concat!(
                    r#"{{"tag": "bench_c{c}", "backend": "sglang", "dataset_name": "random", "request_rate": Infinity, "max_concurrency": {c}, "#,
                    r#""sharegpt_output_len": null, "random_input_len": 1000, "random_output_len": 1000, "random_range_ratio": 1.0, "#,
                    r#""server_info": {{"model_path": "moonshotai/Kimi-K2.5", "tp_size": 8, "speculative_algorithm": null, "enable_spec_v2": false}}, "#,
                    r#""duration": {d}, "completed": 16, "total_input_tokens": 16000, "total_output_tokens": 15997, "total_output_tokens_retokenized": 15992, "#,
                    r#""request_throughput": {a}, "input_throughput": {b}, "output_throughput": {b}, "total_throughput": {e}, "#,
                    r#""mean_e2e_latency_ms": {l}, "median_e2e_latency_ms": {l}, "std_e2e_latency_ms": 440.4, "p99_e2e_latency_ms": {l}, "#,
                    r#""mean_ttft_ms": 189.37, "median_ttft_ms": 176.11, "std_ttft_ms": 56.81, "p99_ttft_ms": 454.48, "#,
                    r#""mean_tpot_ms": 10.83, "median_tpot_ms": 10.72, "std_tpot_ms": 0.54, "p99_tpot_ms": 12.99, "#,
                    r#""mean_itl_ms": 10.83, "median_itl_ms": 10.50, "std_itl_ms": 4.33, "p95_itl_ms": 20.57, "p99_itl_ms": 29.24, "#,
                    r#""concurrency": 0.985, "accept_length": null}}"#
                ),
                c = c,
                d = 173.27 * x,
                a = 0.0923 * c as f64 * x,
                b = 92.32 * c as f64 * x,
                e = 184.66 * c as f64 * x,
                l = 11010.0 * x,
            )
            .unwrap();
        }
    }
}

fn reckon_round(dir: &Path, round: usize) -> (Duration, Vec<(i64, i64, Option<f64>)>) {
    let db = dir.join(format!("reckon-{round}.sqlite"));
    let mut store = Store::open(&db).unwrap();
    let req =
        Request { path: "logs/{date}/{config}.jsonl".into(), format: None, labels: BTreeMap::new(), optional: false };
    let mut batch = Batch::new("bench".into(), None);
    let start = Instant::now();
    let report = ingest::ingest(&mut store, dir, &[req], &ingest::Options::default(), &mut batch, &mut |_, _, _| {});
    let took = start.elapsed();
    assert_eq!(
        report.failed(),
        0,
        "{:?}",
        report.files.iter().find(|f| matches!(f.outcome, ingest::FileOutcome::Failed(_)))
    );
    let rows = {
        let conn = store.connection();
        let mut stmt = conn.prepare("SELECT metric_id, run_id, value FROM measurement").unwrap();
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap();
        rows.collect::<Result<Vec<_>, _>>().unwrap()
    };
    (took, rows)
}

/// Reading and parsing alone (hash, detect, parse; no database), to show
/// where reckon's time goes.
fn parse_round(dir: &Path) -> (Duration, usize) {
    let start = Instant::now();
    let mut runs = 0usize;
    let template = reckon::ingest::PathTemplate::parse("logs/{date}/{config}.jsonl").unwrap();
    for file in template.files(dir).unwrap() {
        let bytes = std::fs::read(&file).unwrap();
        let _hash = blake3::hash(&bytes);
        let format = reckon::ingest::Format::detect(&file, &bytes[..bytes.len().min(256 * 1024)]).unwrap();
        let mut input = &bytes[..];
        format
            .parse(&file, &mut input, &mut |_run| {
                runs += 1;
                Ok(())
            })
            .unwrap();
    }
    (start.elapsed(), runs)
}

fn bare_round(dir: &Path, round: usize, rows: &[(i64, i64, Option<f64>)]) -> Duration {
    let path = dir.join(format!("bare-{round}.sqlite"));
    let mut conn = rusqlite::Connection::open(&path).unwrap();
    conn.query_row("PRAGMA journal_mode=WAL", [], |_| Ok(())).unwrap();
    conn.pragma_update(None, "synchronous", "NORMAL").unwrap();
    conn.execute_batch(
        "CREATE TABLE measurement (metric_id INTEGER NOT NULL, run_id INTEGER NOT NULL, value REAL, PRIMARY KEY (metric_id, run_id)) WITHOUT ROWID;",
    )
    .unwrap();
    let start = Instant::now();
    let tx = conn.transaction().unwrap();
    {
        let mut stmt = tx.prepare("INSERT INTO measurement (metric_id, run_id, value) VALUES (?1, ?2, ?3)").unwrap();
        for (m, r, v) in rows {
            stmt.execute(rusqlite::params![m, r, v]).unwrap();
        }
    }
    tx.commit().unwrap();
    start.elapsed()
}

fn main() {
    // `cargo test --benches` runs bench targets with no `--bench` flag: keep that quick.
    let benching = std::env::args().any(|a| a == "--bench");
    let records: usize = std::env::var("RECKON_BENCH_RECORDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if benching { 100_000 } else { 2_000 });
    let rounds = if benching { 3 } else { 1 };
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), records, 20);
    let bytes: u64 = walk_size(&dir.path().join("logs"));
    let mut best_reckon = Duration::MAX;
    let mut best_bare = Duration::MAX;
    let mut metric_rows = 0;
    let mut best_parse = Duration::MAX;
    for round in 0..rounds {
        let (took, runs) = parse_round(dir.path());
        assert_eq!(runs, records);
        best_parse = best_parse.min(took);
        let (took, rows) = reckon_round(dir.path(), round);
        metric_rows = rows.len();
        best_reckon = best_reckon.min(took);
        best_bare = best_bare.min(bare_round(dir.path(), round, &rows));
    }
    let rate = |d: Duration| metric_rows as f64 / d.as_secs_f64();
    println!("ingest benchmark: {records} bench_serving records, {metric_rows} metric rows, {:.1} MB of JSONL, best of {rounds} round(s)", bytes as f64 / 1e6);
    println!(
        "  reckon ingest (parse + runs + params + metrics): {:>8.3} s  {:>12.0} metric rows/s  {:>10.0} records/s",
        best_reckon.as_secs_f64(),
        rate(best_reckon),
        records as f64 / best_reckon.as_secs_f64()
    );
    println!("    of which reading, hashing and parsing:        {:>8.3} s", best_parse.as_secs_f64());
    println!(
        "  bare prepared INSERT of the same metric rows:    {:>8.3} s  {:>12.0} metric rows/s",
        best_bare.as_secs_f64(),
        rate(best_bare)
    );
    println!("  ratio reckon / bare: {:.2} (target >= 0.50)", best_bare.as_secs_f64() / best_reckon.as_secs_f64());
}

fn walk_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                walk_size(&e.path())
            } else {
                e.metadata().unwrap().len()
            }
        })
        .sum()
}
