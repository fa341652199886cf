//! A `reckon ingest` killed with SIGKILL at any moment leaves a sound
//! database in which every file is either whole or absent, and the next
//! ingest completes the set. Many files share a transaction (each under its
//! own savepoint), so this is what makes that batching safe.

mod common;

use std::collections::BTreeMap;
use std::io::Write;
use std::time::{Duration, Instant};

use common::Sandbox;

/// Lines written to each file, by path: 11-record sweeps, with one large
/// file among them so that kills also land in the middle of a long file.
fn write_logs(s: &Sandbox) -> BTreeMap<String, i64> {
    let mut expected = BTreeMap::new();
    let concurrencies = [1, 2, 4, 8, 16, 30, 50, 100, 150, 200, 250];
    let mut n = 0u64;
    for f in 0..600 {
        let lines = if f == 300 { 4000 } else { concurrencies.len() };
        let rel = format!("logs/cfg{}/sweep-{f:04}.jsonl", f % 4);
        let path = s.path().join(&rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for i in 0..lines {
            n += 1;
            let c = concurrencies[i % concurrencies.len()];
            writeln!(
                out,
                concat!(
                    r#"{{"backend": "sglang", "max_concurrency": {c}, "random_input_len": 1000, "duration": {d}, "#,
                    r#""completed": 16, "request_throughput": {t}, "output_throughput": {o}, "#,
                    r#""mean_ttft_ms": {l}, "p99_ttft_ms": {p}}}"#,
                ),
                c = c,
                d = 100.0 + (n % 97) as f64,
                t = 0.1 * f64::from(c),
                o = 90.0 * f64::from(c) + (n % 13) as f64,
                l = 180.0 + (n % 31) as f64,
                p = 450.0 + (n % 7) as f64,
            )
            .unwrap();
        }
        expected.insert(rel, i64::try_from(lines).unwrap());
    }
    expected
}

/// A small deterministic pseudo-random sequence (xorshift), so a failure
/// can be reproduced.
struct Rng(u64);

impl Rng {
    fn next_unit(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Checks the database a killed ingest left: sound, and each source with
/// all its runs and all their measurements. Returns how many sources it has.
fn check_whole_or_absent(s: &Sandbox, expected: &BTreeMap<String, i64>, metrics_per_run: i64) -> usize {
    if !s.db().exists() {
        return 0;
    }
    let c = rusqlite::Connection::open(s.db()).unwrap();
    let integrity: String = c.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(integrity, "ok");
    let Ok(mut stmt) = c.prepare(
        "SELECT s.path, (SELECT count(*) FROM run r WHERE r.source_id = s.id),
                (SELECT count(*) FROM measurement m JOIN run r ON r.id = m.run_id WHERE r.source_id = s.id)
         FROM source s",
    ) else {
        // Killed before the schema was created.
        return 0;
    };
    let rows: Vec<(String, i64, i64)> =
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
    let mut seen = std::collections::BTreeSet::new();
    for (path, runs, values) in &rows {
        assert!(seen.insert(path.clone()), "{path} is in twice");
        let want = expected.get(path).unwrap_or_else(|| panic!("unknown source {path}"));
        assert_eq!(runs, want, "{path}: a source is in whole or not at all");
        assert_eq!(*values, runs * metrics_per_run, "{path}: every run has all its measurements");
    }
    let orphans: i64 = c
        .query_row("SELECT count(*) FROM run WHERE source_id NOT IN (SELECT id FROM source)", [], |r| r.get(0))
        .unwrap();
    assert_eq!(orphans, 0, "no runs without their source");
    rows.len()
}

fn remove_db(s: &Sandbox) {
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", s.db().display()));
    }
}

#[test]
fn an_ingest_killed_at_any_moment_leaves_every_file_whole_or_absent() {
    let s = Sandbox::new();
    // Transactions of at most 20 ms, each of several files: a whole ingest
    // here takes well under the default bound (2 s), in which it would be
    // one transaction, and a kill could only leave none of it or all.
    s.write("reckon.toml", "[limits]\ncommit_seconds = 0.02\n");
    let expected = write_logs(&s);
    let args = ["ingest", "--quiet", "logs/*/*.jsonl"];

    // How long a whole ingest takes here, to spread the kills over it.
    let start = Instant::now();
    s.ok(&args);
    let full = start.elapsed();
    let (sources, runs, values) = s.counts();
    assert_eq!(usize::try_from(sources).unwrap(), expected.len());
    assert_eq!(runs, expected.values().sum::<i64>());
    let metrics_per_run = values / runs;
    assert_eq!(values, runs * metrics_per_run);
    remove_db(&s);

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut partial = 0;
    // Kill until several kills landed mid-ingest (a kill before the first
    // commit or after the last shows less), within a bound.
    for round in 0..60 {
        if round >= 12 && partial >= 4 {
            break;
        }
        // Each round either starts afresh or continues what the last left.
        if round % 3 == 0 {
            remove_db(&s);
        }
        let mut child = s.command(&args).spawn().unwrap();
        let wait = full.mul_f64(rng.next_unit() * 1.1);
        std::thread::sleep(wait.max(Duration::from_millis(1)));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let n = check_whole_or_absent(&s, &expected, metrics_per_run);
        eprintln!("round {round}: killed after {wait:?} of {full:?}: {n} of {} files in", expected.len());
        if n > 0 && n < expected.len() {
            partial += 1;
        }
    }
    // The kills must have landed mid-ingest some of the time, or the test
    // shows nothing.
    assert!(partial > 0, "no kill left a partial ingest in 60 tries; the test did not exercise anything");

    // The next ingest completes the set, exactly.
    s.ok(&args);
    assert_eq!(check_whole_or_absent(&s, &expected, metrics_per_run), expected.len());
    assert_eq!(s.counts(), (sources, runs, values));
}
