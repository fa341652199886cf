//! Claims with units on the benchmark formats of neighbouring fields: the
//! unit a format states (Google Benchmark's `time_unit`, pytest-benchmark's
//! seconds) is the unit a claim's number is converted to. A series name
//! holding `/` is quoted, as everywhere in the claim language (`/` between
//! names is a ratio).

mod common;

use common::claims::{claim, summaries};
use common::Sandbox;

#[test]
fn google_benchmark_times_in_their_time_unit() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"benchmark\"\n");
    let rep = |name: &str, i: u32, t: f64| {
        format!(
            "{{\"name\": \"{name}\", \"run_name\": \"{name}\", \"run_type\": \"iteration\", \"repetitions\": 3, \
             \"repetition_index\": {i}, \"threads\": 1, \"iterations\": 1000, \"real_time\": {t}, \
             \"cpu_time\": {t}, \"time_unit\": \"us\"}}"
        )
    };
    let rows = [
        rep("BM_Copy/1024", 0, 1.52),
        rep("BM_Copy/1024", 1, 1.55),
        rep("BM_Copy/1024", 2, 1.50),
        rep("BM_Copy/8192", 0, 11.5),
        rep("BM_Copy/8192", 1, 11.7),
        rep("BM_Copy/8192", 2, 11.6),
    ];
    s.write(
        "logs/copy.json",
        format!("{{\"context\": {{\"date\": \"2024-05-01T10:00:00+00:00\"}}, \"benchmarks\": [{}]}}", rows.join(",\n")),
    );
    s.fixture("corpus/gbench/kalman-100-repetitions-aggregates.json", "logs/kalman.json");
    s.ok(&["ingest", "logs/copy.json", "logs/kalman.json"]);
    let doc = [
        claim("copy", "'BM_Copy/1024' on real_time < 2 µs"),
        claim("copy-ns", "'BM_Copy/8192' on real_time > 11000 ns"),
        claim("copy-wrong", "'BM_Copy/8192' on real_time < 2 µs"),
        claim("kalman", "'baseline/repeats:100/manual_time' on real_time < 0.03 µs"),
    ]
    .concat();
    s.write("notes.md", doc);
    let got = summaries(&s, "notes.md");
    let verdict = |id: &str| got.iter().find(|(i, _)| i == id).map(|(_, v)| v.clone()).unwrap();
    assert!(verdict("copy").starts_with("holds"), "{got:?}");
    assert!(verdict("copy").contains("3 runs"), "{got:?}");
    assert!(verdict("copy-ns").starts_with("holds"), "{got:?}");
    assert!(verdict("copy-wrong").starts_with("contradicted"), "{got:?}");
    assert!(verdict("kalman").starts_with("holds"), "{got:?}");
    assert!(verdict("kalman").contains("100 runs"), "{got:?}");
}
