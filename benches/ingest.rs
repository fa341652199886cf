//! Ingest speed against the physical limit, in the shape logs pile up in:
//! thousands of small `bench_serving` files committed to git.
//!
//! Generates 3,000 files (`RECKON_BENCH_FILES`) of 11 `bench_serving` records
//! each (one sweep of concurrencies 1–250 for one configuration), committed
//! over 200 commits of a git repository, with a reckon.toml naming them and
//! a plan with a table region. Then, timing whole `reckon` processes:
//!
//! 1. `reckon ingest` of the 3,000 files into an empty database (run times
//!    come from git: the paths hold no date);
//! 2. `reckon ingest` of the same records as one file;
//! 3. a bare prepared INSERT of the same rows in one transaction into a
//!    fresh database with reckon's schema (the physical limit): every row
//!    reckon's ingest left — the batch, 3,000 sources, the param sets,
//!    metrics, 33,000 runs and 891,000 measurements — read back from its
//!    database and inserted table by table in key order, with no parsing,
//!    no lookups and no file reads. The bench also prints the bare insert of
//!    the measurement rows alone, the baseline of earlier figures;
//! 4. the first `reckon check` of the plan in a fresh `git clone` of the
//!    repository (no database: it ingests every file first).
//!
//! Prints each figure, and the ratios against their targets: many files and
//! one file as a fraction of the bare insert rate, the first check as a
//! multiple of the many-files ingest. Rounds alternate so machine noise hits
//! every side alike; the best round of each is reported. Nothing is
//! asserted about time.
//!
//! 5. issue 25's memory bound: `reckon ingest` of 30,000 such files
//!    (`RECKON_BENCH_MEMORY_FILES`) over 200 commits into an empty
//!    database, its time and peak resident memory (target <= 100 MiB;
//!    the 3,000 files' peak is printed beside their time too);
//!
//! 6. each reader of another tool's JSON — Google Benchmark, nvbench,
//!    pytest-benchmark — on one file of its format grown from the corpus
//!    file, beside the `SGLang` reader on a file of as many values: the
//!    ratio of their rates per value, with the target of within 1.5×
//!    (`formats`).
//!
//! 7. a generic CSV of 20 MB (`RECKON_BENCH_CSV_MB`) and one of ten times
//!    that, each beside a bare import of the rows its ingest left: the time
//!    ratio between the sizes (linear: their size ratio) and each size's
//!    rate against the bare import's (`wide_csv`).
//!
//! Run: `cargo bench --bench ingest`. `RECKON_BIN=PATH` times another reckon
//! binary (an older build, for before/after figures);
//! `RECKON_BENCH_ONLY=formats` times the readers alone (6.),
//! `RECKON_BENCH_ONLY=memory` the 30,000 files alone (5.),
//! `RECKON_BENCH_ONLY=csv` the CSV alone (7.).

mod common;
#[path = "ingest/formats.rs"]
mod formats;
#[path = "ingest/wide_csv.rs"]
mod wide_csv;

use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

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

const TOML: &str = r#"database = "db/reckon.sqlite"
series = "config"

[[source]]
path = "logs/{config}/*.jsonl"
"#;

const PLAN: &str = "# Throughput\n\n\
<!-- reckon:table metric=output_throughput rows=max_concurrency cols=config digits=1 -->\n\
<!-- /reckon:table -->\n";

/// One `bench_serving` record, as `SGLang` writes it.
fn record(out: &mut impl Write, n: usize, c: u32) {
    // An irrational step: no two files hold the same bytes (those would count once).
    let x = 1.0 + (n as f64 * 0.618_033_988_749_895).fract() * 0.05;
    writeln!(
        out,
        concat!(
            r#"{{"tag": "bench_c{c}", "backend": "sglang", "dataset_name": "random", "#,
            r#""request_rate": Infinity, "max_concurrency": {c}, "#,
            r#""sharegpt_output_len": null, "random_input_len": 1000, "#,
            r#""random_output_len": 1000, "random_range_ratio": 1.0, "#,
            r#""server_info": {{"model_path": "moonshotai/Kimi-K2.5", "tp_size": 8, "#,
            r#""speculative_algorithm": null, "enable_spec_v2": false}}, "#,
            r#""duration": {d}, "completed": 16, "total_input_tokens": 16000, "#,
            r#""total_output_tokens": 15997, "total_output_tokens_retokenized": 15992, "#,
            r#""request_throughput": {a}, "input_throughput": {b}, "#,
            r#""output_throughput": {b}, "total_throughput": {e}, "#,
            r#""mean_e2e_latency_ms": {l}, "median_e2e_latency_ms": {l}, "#,
            r#""std_e2e_latency_ms": 440.4, "p99_e2e_latency_ms": {l}, "#,
            r#""mean_ttft_ms": 189.37, "median_ttft_ms": 176.11, "std_ttft_ms": 56.81, "p99_ttft_ms": 454.48, "#,
            r#""mean_tpot_ms": 10.83, "median_tpot_ms": 10.72, "std_tpot_ms": 0.54, "p99_tpot_ms": 12.99, "#,
            r#""mean_itl_ms": 10.83, "median_itl_ms": 10.50, "std_itl_ms": 4.33, "#,
            r#""p95_itl_ms": 20.57, "p99_itl_ms": 29.24, "#,
            r#""concurrency": 0.985, "accept_length": null}}"#
        ),
        c = c,
        d = 173.27 * x,
        a = 0.0923 * f64::from(c) * x,
        b = 92.32 * f64::from(c) * x,
        e = 184.66 * f64::from(c) * x,
        l = 11010.0 * x,
    )
    .unwrap();
}

fn git(dir: &Path, args: &[&str], date: Option<&str>) {
    let mut cmd = Command::new("git");
    cmd.args(["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir);
    if let Some(d) = date {
        cmd.env("GIT_COMMITTER_DATE", d).env("GIT_AUTHOR_DATE", d);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Writes the repository: `files` logs committed over `commits` commits,
/// one day apart, and (with `one`) the same records as one file in
/// `one/all.jsonl`.
fn generate(repo: &Path, one: Option<&Path>, files: usize, commits: usize) {
    std::fs::write(repo.join("reckon.toml"), TOML).unwrap();
    std::fs::write(repo.join(".gitignore"), "db/\n").unwrap();
    std::fs::create_dir_all(repo.join("notebooks")).unwrap();
    std::fs::write(repo.join("notebooks/plan.md"), PLAN).unwrap();
    git(repo, &["init", "-q"], None);
    let mut all = one.map(|one| {
        std::fs::create_dir_all(one).unwrap();
        std::io::BufWriter::new(std::fs::File::create(one.join("all.jsonl")).unwrap())
    });
    let per_commit = files.div_ceil(commits);
    let mut n = 0;
    for f in 0..files {
        let config = CONFIGS[f % CONFIGS.len()];
        let path = repo.join(format!("logs/{config}/sweep-{f:05}.jsonl"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for &c in &CONCURRENCIES {
            n += 1;
            record(&mut out, n, c);
            if let Some(all) = all.as_mut() {
                record(all, n, c);
            }
        }
        drop(out);
        let last_of_commit = (f + 1) % per_commit == 0 || f + 1 == files;
        if last_of_commit {
            let k = f / per_commit;
            let date = format!("{}T12:00:00Z", day(k));
            git(repo, &["add", "-A"], None);
            git(repo, &["commit", "-q", "-m", &format!("sweep {k}")], Some(&date));
        }
    }
}

/// The k-th day from 2026-01-01.
fn day(k: usize) -> String {
    let first = chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
    (first + chrono::Days::new(k as u64)).format("%Y-%m-%d").to_string()
}

/// Runs reckon in `dir` and returns how long the whole process took.
fn timed(bin: &Path, dir: &Path, args: &[&str], ok_codes: &[i32]) -> Duration {
    timed_rss(bin, dir, args, ok_codes).0
}

/// [`timed`], also returning the process's peak resident memory in KiB
/// (from its rusage). Its output goes to files, so a long one cannot fill
/// a pipe while it is waited for.
fn timed_rss(bin: &Path, dir: &Path, args: &[&str], ok_codes: &[i32]) -> (Duration, u64) {
    let stdout = tempfile::tempfile().unwrap();
    let stderr = tempfile::tempfile().unwrap();
    let start = Instant::now();
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdout(stdout.try_clone().unwrap())
        .stderr(stderr.try_clone().unwrap())
        .spawn()
        .unwrap();
    let (status, rss) = common::wait_with_rss(&mut child);
    let took = start.elapsed();
    let code = status.code().unwrap_or(-1);
    let read = |mut f: std::fs::File| {
        use std::io::{Read, Seek};
        let mut text = String::new();
        f.seek(std::io::SeekFrom::Start(0)).unwrap();
        f.read_to_string(&mut text).unwrap();
        text
    };
    assert!(ok_codes.contains(&code), "reckon {args:?} exited {code}: {}{}", read(stdout), read(stderr));
    (took, rss)
}

fn remove_db(db: &Path) {
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
}

fn measurement_rows(db: &Path) -> Vec<(i64, i64, Option<f64>)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn.prepare("SELECT metric_id, run_id, value FROM measurement").unwrap();
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap();
    rows.collect::<Result<Vec<_>, _>>().unwrap()
}

/// Every row of a reckon database but the measurements (read apart, by
/// [`measurement_rows`]), table by table in key order: what the bare
/// baseline inserts.
struct Tables(Vec<(&'static str, Vec<Vec<rusqlite::types::Value>>)>);

/// reckon's tables, parents first.
const TABLES: [&str; 6] = ["batch", "source", "param_set", "metric", "run", "measurement"];

fn all_rows(db: &Path) -> Tables {
    let conn = rusqlite::Connection::open(db).unwrap();
    let tables = TABLES.map(|table| {
        if table == "measurement" {
            return (table, Vec::new());
        }
        let mut stmt = conn.prepare(&format!("SELECT * FROM {table}")).unwrap();
        let n = stmt.column_count();
        let rows = stmt.query_map([], |r| (0..n).map(|i| r.get::<_, rusqlite::types::Value>(i)).collect());
        (table, rows.unwrap().collect::<Result<Vec<Vec<_>>, _>>().unwrap())
    });
    Tables(tables.into())
}

/// An empty database as reckon makes it: WAL, `synchronous=NORMAL`,
/// foreign keys declared but not enforced.
fn empty_db(path: &Path) -> rusqlite::Connection {
    remove_db(path);
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row("PRAGMA journal_mode=WAL", [], |_| Ok(())).unwrap();
    conn.pragma_update(None, "synchronous", "NORMAL").unwrap();
    // As reckon runs: the bundled SQLite enforces foreign keys by default,
    // a lookup in `metric` and `run` for every measurement.
    conn.pragma_update(None, "foreign_keys", "OFF").unwrap();
    conn
}

/// The fair baseline: the same rows reckon's ingest wrote, into the same
/// schema, with one prepared INSERT per table in one transaction.
fn bare_round(dir: &Path, tables: &Tables, measurements: &[(i64, i64, Option<f64>)]) -> Duration {
    let mut conn = empty_db(&dir.join("bare.sqlite"));
    conn.execute_batch(include_str!("../db/migrations/0001_init.sql")).unwrap();
    conn.execute_batch(include_str!("../db/migrations/0002_source_cache.sql")).unwrap();
    // reckon's param sets as it keeps them (their hash under a plain index,
    // migration 8): the bare import inserts the same columns into the same
    // indexes, so it is not slowed by the unique text index reckon dropped.
    conn.execute_batch(include_str!("../db/migrations/0008_param_set_by_hash.sql")).unwrap();
    let start = Instant::now();
    let tx = conn.transaction().unwrap();
    for (table, rows) in &tables.0 {
        if *table == "measurement" {
            // The bulk of the rows, bound as typed values as reckon binds them.
            let mut stmt =
                tx.prepare("INSERT INTO measurement (metric_id, run_id, value) VALUES (?1, ?2, ?3)").unwrap();
            for (m, r, v) in measurements {
                stmt.execute(rusqlite::params![m, r, v]).unwrap();
            }
            continue;
        }
        let Some(first) = rows.first() else { continue };
        let marks = vec!["?"; first.len()].join(", ");
        // A reckon from before migration 8 (`RECKON_BIN`, for before/after
        // figures) keeps no hash: its sets go in with the column's default.
        let columns = if *table == "param_set" && first.len() == 2 { " (id, params)" } else { "" };
        let mut stmt = tx.prepare(&format!("INSERT INTO {table}{columns} VALUES ({marks})")).unwrap();
        for row in rows {
            stmt.execute(rusqlite::params_from_iter(row)).unwrap();
        }
    }
    tx.commit().unwrap();
    start.elapsed()
}

/// The baseline of earlier figures: the measurement rows alone, into a
/// table of the measurement table's shape.
fn bare_measurements_round(dir: &Path, rows: &[(i64, i64, Option<f64>)]) -> Duration {
    let mut conn = empty_db(&dir.join("bare-measurements.sqlite"));
    conn.execute_batch(
        "CREATE TABLE measurement (metric_id INTEGER NOT NULL, run_id INTEGER NOT NULL, value REAL, \
         PRIMARY KEY (metric_id, run_id)) WITHOUT ROWID;",
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

/// The first `reckon check` in a fresh clone of the repository: no database
/// yet, every log to ingest with its commit time from git.
fn first_check_of_clone(bin: &Path, tmp: &Path, repo: &Path, round: usize) -> Duration {
    let clone = tmp.join(format!("clone-{round}"));
    git(tmp, &["clone", "-q", &repo.display().to_string(), &clone.display().to_string()], None);
    let took = timed(bin, &clone, &["check", "notebooks/plan.md"], &[0]);
    std::fs::remove_dir_all(&clone).unwrap();
    took
}

/// A number from the environment, or its default.
fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn main() {
    // `cargo test --benches` runs bench targets with no `--bench` flag: keep that quick.
    let benching = std::env::args().any(|a| a == "--bench");
    let rounds = env_number("RECKON_BENCH_ROUNDS", if benching { 3 } else { 1 });
    let bin = common::reckon_binary();
    // RECKON_BENCH_KEEP=1 keeps the generated project, for profiling.
    let keep = std::env::var_os("RECKON_BENCH_KEEP").is_some();
    let tmp = tempfile::Builder::new().prefix("reckon-bench-ingest").disable_cleanup(keep).tempdir().unwrap();
    if keep {
        eprintln!("keeping {}", tmp.path().display());
    }
    let only = std::env::var("RECKON_BENCH_ONLY").ok();
    if only.is_none() {
        many_files(&bin, tmp.path(), benching, rounds);
    }
    if only.is_none() || only.as_deref() == Some("memory") {
        memory_files(&bin, tmp.path(), benching, rounds);
    }
    if only.as_deref() == Some("memory") {
        return;
    }
    if only.as_deref() != Some("csv") {
        readers(&bin, tmp.path(), benching, rounds);
    }
    if only.as_deref() != Some("formats") {
        let bytes = if benching { env_number("RECKON_BENCH_CSV_MB", 20) * 1_000_000 } else { 200_000 };
        let files = wide_csv::generate(&tmp.path().join("csv"), bytes);
        let mut times = wide_csv::Times::default();
        for _ in 0..rounds {
            files.round(&bin, &mut times);
        }
        println!("a generic CSV at two sizes: best of {rounds} round(s)");
        times.print(&files);
    }
}

/// 6.: each reader of another tool's JSON beside the `SGLang` reader.
fn readers(bin: &Path, tmp: &Path, benching: bool, rounds: usize) {
    let values = env_number("RECKON_BENCH_FORMAT_VALUES", if benching { 100_000 } else { 2_000 });
    let files = formats::generate(&tmp.join("formats"), values, record);
    let mut times = formats::Times::default();
    for _ in 0..rounds {
        files.round(bin, &mut times);
    }
    println!("readers of other tools' JSON: best of {rounds} round(s)");
    times.print();
}

/// 1.–4.: the 3,000 files in git, one file, the bare baseline, the first
/// check of a clone.
fn many_files(bin: &Path, tmp: &Path, benching: bool, rounds: usize) {
    let files = env_number("RECKON_BENCH_FILES", if benching { 3000 } else { 40 });
    let commits = if benching { 200 } else { 10 };
    let repo = tmp.join("repo");
    let one = tmp.join("one");
    std::fs::create_dir_all(&repo).unwrap();
    let generated = Instant::now();
    generate(&repo, Some(&one), files, commits);
    let gen_time = generated.elapsed();
    let repo_db = repo.join("db/reckon.sqlite");
    let one_db = one.join("reckon.sqlite");

    let (mut many, mut single, mut bare, mut bare_measurements, mut first_check) =
        (Duration::MAX, Duration::MAX, Duration::MAX, Duration::MAX, Duration::MAX);
    let mut many_rss = 0;
    let mut rows = Vec::new();
    let mut tables = Tables(Vec::new());
    for round in 0..rounds {
        remove_db(&repo_db);
        let (took, rss) = timed_rss(bin, &repo, &["ingest", "--quiet"], &[0]);
        many = many.min(took);
        many_rss = many_rss.max(rss);
        if round == 0 {
            rows = measurement_rows(&repo_db);
            tables = all_rows(&repo_db);
            // The plan made current, so the clone's check has nothing to flag.
            timed(bin, &repo, &["update", "--write", "notebooks/plan.md"], &[0, 1]);
            git(&repo, &["add", "notebooks/plan.md"], None);
            git(&repo, &["commit", "-q", "-m", "plan"], Some("2027-01-01T00:00:00Z"));
        }
        remove_db(&one_db);
        let db = one_db.display().to_string();
        single = single.min(timed(bin, &one, &["--db", &db, "ingest", "--quiet", "all.jsonl"], &[0]));
        bare = bare.min(bare_round(tmp, &tables, &rows));
        bare_measurements = bare_measurements.min(bare_measurements_round(tmp, &rows));
        first_check = first_check.min(first_check_of_clone(bin, tmp, &repo, round));
    }
    assert_eq!(rows.len(), measurement_rows(&one_db).len(), "both ingests hold the same rows ({})", one_db.display());

    let records = files * CONCURRENCIES.len();
    let rate = |d: Duration| rows.len() as f64 / d.as_secs_f64();
    println!(
        "ingest benchmark: {files} files x {} bench_serving records = {records} records, {} metric rows, \
         {commits} git commits (generated in {:.1} s); {}; best of {rounds} round(s)",
        CONCURRENCIES.len(),
        rows.len(),
        gen_time.as_secs_f64(),
        bin.display()
    );
    let line = |what: &str, d: Duration| {
        println!("  {what:<52} {:>8.3} s  {:>10.0} metric rows/s", d.as_secs_f64(), rate(d));
    };
    line(&format!("reckon ingest, {files} files in git, empty database"), many);
    println!("  {:<52} {:>8.1} MiB (largest of the rounds)", "  (its peak RSS)", mib(many_rss));
    line("reckon ingest, the same records as one file", single);
    line("bare prepared INSERTs of the same rows, one transaction", bare);
    line("  (bare INSERT of the measurement rows alone)", bare_measurements);
    println!("  {:<52} {:>8.3} s", "first reckon check in a fresh clone (no database)", first_check.as_secs_f64());
    let ratio = |d: Duration| bare.as_secs_f64() / d.as_secs_f64();
    let verdict = |ok: bool| if ok { "ok" } else { "MISSES" };
    println!("  many files / bare rate: {:.2} (target >= 0.50) {}", ratio(many), verdict(ratio(many) >= 0.5));
    println!("  one file / bare rate:   {:.2} (target >= 0.70) {}", ratio(single), verdict(ratio(single) >= 0.7));
    let old_ratio = |d: Duration| bare_measurements.as_secs_f64() / d.as_secs_f64();
    println!(
        "  (against the measurement rows alone: many files {:.2}, one file {:.2})",
        old_ratio(many),
        old_ratio(single)
    );
    let check_ratio = first_check.as_secs_f64() / many.as_secs_f64();
    println!(
        "  first check / many-files ingest time: {check_ratio:.2}x (target <= 1.50) {}",
        verdict(check_ratio <= 1.5)
    );
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// Issue 25's memory row: `reckon ingest` of 30,000 small files
/// (`RECKON_BENCH_MEMORY_FILES`) committed over 200 commits, into an empty
/// database, with its peak resident memory against the bound of 100 MiB.
fn memory_files(bin: &Path, tmp: &Path, benching: bool, rounds: usize) {
    let files = env_number("RECKON_BENCH_MEMORY_FILES", if benching { 30_000 } else { 60 });
    let commits = if benching { 200 } else { 10 };
    let repo = tmp.join("repo-memory");
    std::fs::create_dir_all(&repo).unwrap();
    let generated = Instant::now();
    generate(&repo, None, files, commits);
    let gen_time = generated.elapsed();
    let db = repo.join("db/reckon.sqlite");
    let mut times = Vec::with_capacity(rounds);
    let mut peaks = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        remove_db(&db);
        let (took, rss) = timed_rss(bin, &repo, &["ingest", "--quiet"], &[0]);
        times.push(took);
        peaks.push(rss);
    }
    times.sort();
    peaks.sort_unstable();
    let (best, median) = (times[0], times[times.len() / 2]);
    let (least, most) = (peaks[0], peaks[peaks.len() - 1]);
    println!(
        "ingest memory: {files} files x {} bench_serving records in {commits} git commits (generated in {:.1} s), \
         empty database, {rounds} round(s)",
        CONCURRENCIES.len(),
        gen_time.as_secs_f64()
    );
    println!(
        "  reckon ingest: {:.2} s best, {:.2} s median; peak RSS {:.1} MiB (least {:.1}) (target <= 100 MiB) {}",
        best.as_secs_f64(),
        median.as_secs_f64(),
        mib(most),
        mib(least),
        if most <= 100 * 1024 { "ok" } else { "MISSES" }
    );
}
