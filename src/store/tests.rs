//! The store's unit tests: whole sources, replacement, shared transactions.

use std::collections::BTreeMap;

use rusqlite::Connection;

use super::builder::{add_runs, add_runs_by, write_source};
use super::*;
use crate::metric::Direction;
use crate::run::{RawRun, Value};

fn run(line: u64, conc: f64, tput: f64) -> RawRun {
    let mut r = RawRun::new(line);
    r.param("max_concurrency", Value::Num(conc));
    r.param("backend", Value::Text("sglang".into()));
    r.metric("output_throughput", tput);
    r.metric("mean_ttft_ms", f64::NAN);
    r
}

#[test]
fn a_source_goes_in_whole_and_only_once() {
    let mut store = Store::open_in_memory().unwrap();
    let mut batch = Batch::new("test".into(), None);
    let labels: BTreeMap<String, Value> = [
        ("config".to_string(), Value::Text("baseline".into())),
        // A label overrides the log's param of the same name.
        ("backend".to_string(), Value::Text("sglang-patched".into())),
    ]
    .into();
    let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
    let seen = Seen { size: 10, mtime_ns: Some(7), ..Seen::default() };
    let src = NewSource { path: "a.jsonl", hash: "h1", format: "sglang-jsonl", labels: &labels, seen, time: Some(&t) };
    let runs = [run(1, 1.0, 92.7), run(2, 2.0, 175.0)];
    assert_eq!(write_source(&mut store, &mut batch, &src, &t, &runs).unwrap(), Some(2));
    // The same file as stored — what a second ingest running at the same
    // time finds once the first has written it — is not written again
    // (cold trial: two ingests each wrote every file, the second replacing
    // the first's runs).
    let ids = store.runs().unwrap().iter().map(|r| r.id).collect::<Vec<_>>();
    assert_eq!(write_source(&mut store, &mut batch, &src, &t, &runs).unwrap(), None, "already written");
    assert_eq!(store.runs().unwrap().iter().map(|r| r.id).collect::<Vec<_>>(), ids);
    // Other labels on the same path and bytes relabel it.
    let relabelled = BTreeMap::from([("config".to_string(), Value::Text("other".into()))]);
    let relabel = NewSource { labels: &relabelled, ..src.clone() };
    write_source(&mut store, &mut batch, &relabel, &t, &[]).unwrap().expect("relabelled");
    let src = NewSource { labels: &labels, ..src.clone() };
    write_source(&mut store, &mut batch, &src, &t, &runs).unwrap().unwrap();

    // A source dropped without commit leaves nothing behind.
    let src2 = NewSource { hash: "h2", ..src.clone() };
    let mut w = store.writer(&mut batch).unwrap();
    assert!(w.begin_source(&src2).unwrap());
    add_runs(&mut w, &labels, &t, &[run(1, 4.0, 318.2)]).unwrap();
    drop(w);

    let runs = store.runs().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0].params["config"], Value::Text("baseline".into()));
    assert_eq!(runs[0].params["max_concurrency"], Value::Num(1.0));
    assert_eq!(runs[0].params["backend"], Value::Text("sglang-patched".into()));
    assert_eq!(runs[0].sweep, "2026-11-29");
    let values = store.metric_values("output_throughput").unwrap();
    assert_eq!(values.len(), 2);
    assert_eq!(store.metric_values("mean_ttft_ms").unwrap()[0].1, None, "NaN is stored as NULL");
    assert_eq!(store.sources().unwrap().len(), 1);
    let stored = store.stored_source("a.jsonl").unwrap().unwrap();
    assert_eq!((stored.hash.as_str(), stored.seen.size, stored.seen.mtime_ns), ("h1", 10, Some(7)));
    assert_eq!(stored.time, Some(t.clone()));
    assert!(stored.labels.contains("sglang-patched"));
    assert!(store.stored_source("b.jsonl").unwrap().is_none());
    let m = store.metrics().unwrap();
    assert_eq!(m.iter().find(|m| m.name == "output_throughput").unwrap().direction, Direction::Higher);
}

#[test]
fn a_path_ingested_again_replaces_its_runs_and_a_removed_path_leaves_no_trace() {
    let mut store = Store::open_in_memory().unwrap();
    let mut batch = Batch::new("test".into(), None);
    let labels = BTreeMap::new();
    let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
    let ingest = |store: &mut Store, batch: &mut Batch, path: &str, hash: &str, runs: &[RawRun]| {
        let src = NewSource { path, hash, format: "jsonl", labels: &labels, seen: Seen::default(), time: Some(&t) };
        write_source(store, batch, &src, &t, runs).unwrap().unwrap();
    };
    ingest(&mut store, &mut batch, "a.jsonl", "h1", &[run(1, 1.0, 1.0), run(2, 2.0, 2.0)]);
    let mut only_in_b = run(1, 8.0, 8.0);
    only_in_b.metric("p99_itl_ms", 3.0);
    ingest(&mut store, &mut batch, "b.jsonl", "h2", &[only_in_b]);
    // a.jsonl grew by one record: its runs are replaced, not added to.
    ingest(&mut store, &mut batch, "a.jsonl", "h3", &[run(1, 1.0, 1.0), run(2, 2.0, 2.0), run(3, 4.0, 4.0)]);
    assert_eq!(store.runs().unwrap().len(), 4);
    assert_eq!(store.metric_values("output_throughput").unwrap().len(), 4);
    assert_eq!(store.stored_source("a.jsonl").unwrap().unwrap().hash, "h3");

    assert_eq!(store.remove_paths(&["b.jsonl".to_string()]).unwrap(), 1);
    let runs = store.runs().unwrap();
    assert_eq!(runs.len(), 3);
    assert!(runs.iter().all(|r| r.source == "a.jsonl"));
    assert_eq!(store.metric_values("output_throughput").unwrap().len(), 3);
    assert!(store.metrics().unwrap().iter().all(|m| m.name != "p99_itl_ms"), "a metric no run has is gone");
    let sets: i64 = store.conn.query_row("SELECT count(*) FROM param_set", [], |r| r.get(0)).unwrap();
    assert_eq!(sets, 3, "param sets no run uses are gone");
    let measurements: i64 = store.conn.query_row("SELECT count(*) FROM measurement", [], |r| r.get(0)).unwrap();
    assert_eq!(measurements, 6);
}

#[test]
fn sources_share_a_transaction_and_a_failed_one_leaves_nothing_not_even_cached_ids() {
    let mut store = Store::open_in_memory().unwrap();
    let mut batch = Batch::new("test".into(), None);
    let labels = BTreeMap::new();
    let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
    let src = |hash: &'static str| NewSource {
        path: hash,
        hash,
        format: "jsonl",
        labels: &labels,
        seen: Seen::default(),
        time: Some(&t),
    };
    let mut novel = run(1, 7.0, 2.0);
    novel.metric("only_in_b", 3.0);
    let mut w = store.writer(&mut batch).unwrap();
    assert!(w.begin_source(&src("a")).unwrap());
    add_runs(&mut w, &labels, &t, &[run(1, 1.0, 1.0)]).unwrap();
    assert_eq!(w.end_source().unwrap(), 1);
    // A new metric and param set, then the source fails: both go with it.
    assert!(w.begin_source(&src("b")).unwrap());
    add_runs(&mut w, &labels, &t, &[novel.clone()]).unwrap();
    w.abandon_source().unwrap();
    // The same names again must be created again, not taken from a cache.
    assert!(w.begin_source(&src("c")).unwrap());
    add_runs(&mut w, &labels, &t, &[novel, run(2, 1.0, 1.5)]).unwrap();
    assert_eq!(w.end_source().unwrap(), 2);
    w.commit().unwrap();
    drop(w);
    let c = store.connection();
    let n = |sql: &str| c.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    assert_eq!(n("SELECT count(*) FROM source"), 2);
    assert_eq!(n("SELECT count(*) FROM source WHERE hash = 'b'"), 0);
    assert_eq!(n("SELECT count(*) FROM run"), 3);
    assert_eq!(n("SELECT count(*) FROM measurement"), 7);
    assert_eq!(n("SELECT count(*) FROM measurement WHERE metric_id NOT IN (SELECT id FROM metric)"), 0);
    assert_eq!(n("SELECT count(*) FROM run WHERE param_set_id NOT IN (SELECT id FROM param_set)"), 0);
    assert_eq!(n("SELECT count(*) FROM run WHERE source_id NOT IN (SELECT id FROM source)"), 0);
    assert_eq!(n("SELECT count(*) FROM batch"), 1);
}

#[test]
fn runs_come_oldest_first_then_by_id() {
    let mut store = Store::open_in_memory().unwrap();
    let mut batch = Batch::new("test".into(), None);
    let labels = BTreeMap::new();
    // Ingested newest first: ids run against time.
    for (hash, time) in [("h1", "2026-11-29T10:00:00Z"), ("h2", "2026-11-20T10:00:00Z"), ("h3", "2026-11-29T09:00:00Z")]
    {
        let src = NewSource { path: hash, hash, format: "jsonl", labels: &labels, seen: Seen::default(), time: None };
        let t = RunTime { time: time.into(), origin: "log" };
        write_source(&mut store, &mut batch, &src, &t, &[run(1, 1.0, 1.0), run(2, 2.0, 2.0)]).unwrap().unwrap();
    }
    let order: Vec<(String, u64)> = store.runs().unwrap().into_iter().map(|r| (r.source, r.line)).collect();
    let expect = [("h2", 1), ("h2", 2), ("h3", 1), ("h3", 2), ("h1", 1), ("h1", 2)];
    assert_eq!(order, expect.map(|(s, l)| (s.to_string(), l)));
}

#[test]
fn a_database_from_a_newer_reckon_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.sqlite");
    drop(Store::open(&path, Limits::default()).unwrap());
    let c = Connection::open(&path).unwrap();
    c.pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
    drop(c);
    let err = Store::open(&path, Limits::default()).err().unwrap().to_string();
    assert!(err.contains("newer reckon"), "{err}");
}

#[test]
fn a_file_that_is_not_sqlite_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.sqlite");
    std::fs::write(&path, "hello, I am a text file and not a database at all").unwrap();
    let err = Store::open(&path, Limits::default()).err().unwrap().to_string();
    assert!(err.contains("not a SQLite database"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "hello, I am a text file and not a database at all");
}

#[test]
fn a_metric_named_twice_in_a_record_is_refused_even_after_runs_that_named_it_once() {
    let mut store = Store::open_in_memory().unwrap();
    let mut batch = Batch::new("test".into(), None);
    let labels = BTreeMap::new();
    let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
    let src = NewSource { path: "a", hash: "h", format: "jsonl", labels: &labels, seen: Seen::default(), time: None };
    let mut w = store.writer(&mut batch).unwrap();
    assert!(w.begin_source(&src).unwrap());
    // As many metrics as the runs before, one of them twice.
    let mut twice = RawRun::new(3);
    twice.param("max_concurrency", Value::Num(4.0));
    twice.metric("output_throughput", 3.0);
    twice.metric("output_throughput", 4.0);
    let runs = [run(1, 1.0, 1.0), run(2, 2.0, 2.0), twice];
    let err = add_runs(&mut w, &labels, &t, &runs).unwrap_err().to_string();
    assert!(err.contains("metric `output_throughput` appears twice"), "{err}");
    w.abandon_source().unwrap();
    // The source is gone whole; the writer goes on with the next one.
    let src2 = NewSource { path: "b", hash: "h2", ..src.clone() };
    assert!(w.begin_source(&src2).unwrap());
    add_runs(&mut w, &labels, &t, &[run(1, 1.0, 5.0)]).unwrap();
    assert_eq!(w.end_source().unwrap(), 1);
    w.commit().unwrap();
    drop(w);
    let values = store.metric_values("output_throughput").unwrap();
    assert_eq!(values.iter().map(|v| v.1).collect::<Vec<_>>(), [Some(5.0)]);
    assert_eq!(store.runs().unwrap().len(), 1);
}

#[test]
fn more_measurements_than_one_insert_holds_all_arrive_sorted_or_not() {
    let mut store = Store::open_in_memory().unwrap();
    let mut batch = Batch::new("test".into(), None);
    let labels = BTreeMap::new();
    let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
    let src = NewSource { path: "a", hash: "h", format: "jsonl", labels: &labels, seen: Seen::default(), time: None };
    // Runs whose metrics vary: some repeat the last run's names, some not.
    let runs: Vec<RawRun> = (0..1000u32)
        .map(|i| {
            let mut r = RawRun::new(u64::from(i) + 1);
            r.param("i", Value::Num(f64::from(i)));
            for k in 0..(i % 7) {
                r.metric(format!("m{k}"), f64::from(i * 10 + k));
            }
            r.metric("nan", f64::NAN);
            r
        })
        .collect();
    write_source(&mut store, &mut batch, &src, &t, &runs).unwrap().unwrap();
    let count = |sql: &str| store.connection().query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    let expected: u32 = (0..1000u32).map(|i| i % 7 + 1).sum();
    assert_eq!(count("SELECT count(*) FROM measurement"), i64::from(expected));
    assert_eq!(count("SELECT count(*) FROM measurement WHERE value IS NULL"), 1000);
    let m3 = store.metric_values("m3").unwrap();
    assert_eq!(m3.len(), (0..1000).filter(|i| i % 7 > 3).count());
    let runs = store.runs().unwrap();
    for (run_id, value) in m3 {
        let run = runs.iter().find(|r| r.id == run_id).unwrap();
        let Value::Num(at) = run.params["i"] else { panic!() };
        assert_eq!(value, Some(at * 10.0 + 3.0));
    }
}

/// Every row of a database but the batch's wall clock, as text.
fn dump(store: &Store) -> Vec<String> {
    let mut rows = Vec::new();
    for table in ["source", "param_set", "metric", "run", "measurement"] {
        let mut stmt = store.conn.prepare(&format!("SELECT * FROM {table} ORDER BY 1, 2")).unwrap();
        let n = stmt.column_count();
        let mut q = stmt.query([]).unwrap();
        while let Some(r) = q.next().unwrap() {
            let cells: Vec<String> =
                (0..n).map(|i| format!("{:?}", r.get::<_, rusqlite::types::Value>(i).unwrap())).collect();
            rows.push(format!("{table}: {}", cells.join(" | ")));
        }
    }
    rows
}

#[test]
fn runs_write_the_same_rows_however_many_cross_in_one_batch() {
    // A file's metric names cross once, in the batch that first uses them,
    // and later batches name them by index: where the batches break must
    // not change what is stored.
    let labels: BTreeMap<String, Value> = [("config".to_string(), Value::Text("a".into()))].into();
    let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
    let mut runs: Vec<RawRun> = (1..=40).map(|i| run(i, f64::from(u32::try_from(i).unwrap()), 10.0)).collect();
    runs[5].metric_with_unit("duration", 2.0, "s");
    runs[6].time = Some("2026-11-30T01:02:03Z".into());
    runs[7].metrics.reverse();
    // The next file names its metrics in another order: indices are per file.
    runs[15].metrics.reverse();
    let twice = {
        let mut r = run(41, 1.0, 1.0);
        r.metric("output_throughput", 3.0);
        r
    };
    let write = |per_batch: usize, with_twice: bool| {
        let mut store = Store::open_in_memory().unwrap();
        let mut batch = Batch::new("test".into(), None);
        let mut w = store.writer(&mut batch).unwrap();
        for (n, file) in runs.chunks(15).enumerate() {
            let hash = format!("h{n}");
            let path = format!("f{n}.jsonl");
            let src = NewSource {
                path: &path,
                hash: &hash,
                format: "sglang-jsonl",
                labels: &labels,
                seen: Seen::default(),
                time: Some(&t),
            };
            assert!(w.begin_source(&src).unwrap());
            let mut file: Vec<RawRun> = file.to_vec();
            if with_twice && n == 1 {
                file.push(twice.clone());
            }
            match add_runs_by(&mut w, &labels, &t, &file, per_batch) {
                Ok(()) => assert_eq!(w.end_source().unwrap(), file.len() as u64),
                Err(e) => {
                    assert!(e.to_string().contains("output_throughput"), "{e}");
                    w.abandon_source().unwrap();
                }
            }
        }
        w.commit().unwrap();
        drop(w);
        dump(&store)
    };
    for with_twice in [false, true] {
        let whole = write(usize::MAX, with_twice);
        assert!(whole.len() > 100, "{}", whole.len());
        for per_batch in [1, 4] {
            assert_eq!(write(per_batch, with_twice), whole, "{per_batch} a batch, a metric named twice: {with_twice}");
        }
    }
    // The file that names a metric twice is refused whole.
    assert!(write(4, true).len() < write(4, false).len());
}

#[test]
fn a_source_that_fills_the_measurement_buffer_and_fails_takes_only_its_own_rows() {
    use super::measurements::FLUSH_ROWS;
    let mut store = Store::open_in_memory().unwrap();
    let mut batch = Batch::new("test".into(), None);
    let labels = BTreeMap::new();
    let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
    let src = |hash: &'static str| NewSource {
        path: hash,
        hash,
        format: "jsonl",
        labels: &labels,
        seen: Seen::default(),
        time: Some(&t),
    };
    let mut w = store.writer(&mut batch).unwrap();
    assert!(w.begin_source(&src("a")).unwrap());
    add_runs(&mut w, &labels, &t, &[run(1, 1.0, 1.0)]).unwrap();
    w.end_source().unwrap();
    // More rows than the buffer holds (they are inserted before the source
    // ends), then the source fails: the first source keeps its rows.
    assert!(w.begin_source(&src("big")).unwrap());
    let metrics = 128;
    let big: Vec<RawRun> = (0..=FLUSH_ROWS / metrics)
        .map(|line| {
            let mut r = RawRun::new(line as u64 + 1);
            for k in 0..metrics {
                r.metric(format!("m{k}"), k as f64);
            }
            r
        })
        .collect();
    add_runs(&mut w, &labels, &t, &big).unwrap();
    w.abandon_source().unwrap();
    w.commit().unwrap();
    drop(w);
    let n = |sql: &str| store.connection().query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    assert_eq!(n("SELECT count(*) FROM source"), 1);
    assert_eq!(n("SELECT count(*) FROM run"), 1);
    assert_eq!(n("SELECT count(*) FROM measurement"), 2, "the first source's two values");
}

#[test]
fn the_same_bytes_at_two_paths_are_two_sources_also_in_a_database_made_before() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    // A database of schema 3, where a source was its bytes (hash UNIQUE).
    let c = Connection::open(&db).unwrap();
    for sql in &super::open::MIGRATIONS[..3] {
        c.execute_batch(sql).unwrap();
    }
    c.execute_batch(
        "PRAGMA user_version = 3;
         INSERT INTO batch VALUES (1, '2026-11-01T00:00:00Z', 'reckon ingest', NULL);
         INSERT INTO source (id, path, hash, size, format, batch_id, labels, time, time_origin)
             VALUES (7, 'logs/2026-11-01/a.jsonl', 'h1', 10, 'sglang-jsonl', 1, '{\"config\":\"a\"}',
                     '2026-11-01T00:00:00Z', 'path');
         INSERT INTO param_set VALUES (1, '{\"config\":\"a\"}');
         INSERT INTO run VALUES (1, 7, 1, '2026-11-01T00:00:00Z', 'path', '2026-11-01', 1);
         INSERT INTO metric VALUES (1, 'output_throughput', 'tok/s', 'higher');
         INSERT INTO measurement VALUES (1, 1, 100.0);",
    )
    .unwrap();
    drop(c);
    let mut store = Store::open(&db, Limits::default()).unwrap();
    let stored = store.stored_source("logs/2026-11-01/a.jsonl").unwrap().unwrap();
    // It keeps its id through the migrations; schema 5 has it read again
    // (no hash matches a file), its values having been converted into
    // whichever unit the first log gave.
    assert_eq!((stored.id, stored.hash.as_str()), (7, ""), "a source keeps its id through the migration");
    assert_eq!(store.runs().unwrap()[0].source, "logs/2026-11-01/a.jsonl");
    // What it stored reads as before, in the metric's unit, until read again.
    assert_eq!(store.metric_values("output_throughput").unwrap(), [(1, Some(100.0))]);
    let unit: Option<String> = store
        .connection()
        .query_row("SELECT unit FROM source_metric WHERE metric_id = 1 AND source_id = 7", [], |r| r.get(0))
        .unwrap();
    assert_eq!(unit.as_deref(), Some("tok/s"));
    let labels = BTreeMap::from([("config".to_string(), Value::Text("a".into()))]);
    let t = RunTime { time: "2026-11-08T00:00:00Z".into(), origin: "path" };
    let src = NewSource {
        path: "logs/2026-11-08/a.jsonl",
        hash: "h1",
        format: "sglang-jsonl",
        labels: &labels,
        seen: Seen::default(),
        time: Some(&t),
    };
    let mut batch = Batch::new("test".into(), None);
    write_source(&mut store, &mut batch, &src, &t, &[run(1, 1.0, 100.0)])
        .unwrap()
        .expect("the same bytes at another path go in");
    let mut sweeps: Vec<String> = store.runs().unwrap().into_iter().map(|r| r.sweep).collect();
    sweeps.sort();
    assert_eq!(sweeps, ["2026-11-01", "2026-11-08"]);
    assert_eq!(store.sources().unwrap().len(), 2);
}
