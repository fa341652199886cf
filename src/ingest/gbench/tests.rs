//! Google Benchmark: unit tests (the corpus files are in
//! `tests/formats_neighbours.rs`).

use super::*;
use crate::ingest::log_format::collect;

fn param<'a>(run: &'a RawRun, k: &str) -> Option<&'a Value> {
    run.params.iter().find(|(n, _)| n == k).map(|(_, v)| v)
}

fn metric<'a>(run: &'a RawRun, k: &str) -> Option<&'a crate::run::Metric> {
    run.metrics.iter().find(|m| m.name == k)
}

#[test]
fn names_split_into_family_and_arguments() {
    let p = name_params("BM_Copy/1024/8");
    assert_eq!(
        p,
        vec![
            ("family".into(), Value::Text("BM_Copy".into())),
            ("arg1".into(), Value::Num(1024.0)),
            ("arg2".into(), Value::Num(8.0))
        ]
    );
    let p = name_params("BM_Sort<int>/threads:8/repeats:3/manual_time");
    assert_eq!(p[1], ("threads".into(), Value::Num(8.0)));
    assert_eq!(p[2], ("repeats".into(), Value::Num(3.0)));
    assert_eq!(p[3], ("timing".into(), Value::Text("manual_time".into())));
}

#[test]
fn json_repetitions_are_runs_and_aggregates_summaries() {
    let text = r#"{"context": {"date": "2024-05-01T10:00:00+02:00", "host_name": "h", "num_cpus": 8,
      "caches": [{"size": 32768}]},
     "benchmarks": [
      {"name": "BM_Copy/1024", "run_name": "BM_Copy/1024", "run_type": "iteration", "repetitions": 2,
       "repetition_index": 0, "threads": 1, "iterations": 1000, "real_time": 1.5, "cpu_time": 1.4,
       "time_unit": "us", "bytes_per_second": 6.8e8, "hits": 3},
      {"name": "BM_Copy/1024", "run_name": "BM_Copy/1024", "run_type": "iteration", "repetitions": 2,
       "repetition_index": 1, "threads": 1, "iterations": 1000, "real_time": 1.7, "cpu_time": 1.6,
       "time_unit": "us", "bytes_per_second": 6.0e8, "hits": 4},
      {"name": "BM_Copy/1024_mean", "run_name": "BM_Copy/1024", "run_type": "aggregate", "repetitions": 2,
       "threads": 1, "aggregate_name": "mean", "iterations": 2, "real_time": 1.6, "cpu_time": 1.5,
       "time_unit": "us"},
      {"name": "BM_Copy/1024_cv", "run_name": "BM_Copy/1024", "run_type": "aggregate", "repetitions": 2,
       "threads": 1, "aggregate_name": "cv", "aggregate_unit": "percentage", "iterations": 2,
       "real_time": 0.08, "cpu_time": 0.09, "time_unit": "us"}]}"#;
    let (runs, outcome) = collect::<GbenchJson>("b.json", text).unwrap();
    assert_eq!(runs.len(), 2, "two repetitions; the aggregates are no runs");
    let r = &runs[0];
    assert_eq!(r.time.as_deref(), Some("2024-05-01T08:00:00Z"));
    assert_eq!(param(r, "benchmark"), Some(&Value::Text("BM_Copy/1024".into())));
    assert_eq!(param(r, "arg1"), Some(&Value::Num(1024.0)));
    assert_eq!(param(r, "iterations"), None, "Google Benchmark chose it: no point of the sweep");
    assert_eq!(metric(r, "iterations").unwrap().value, 1000.0);
    assert_eq!(param(r, "repetition_index"), Some(&Value::Num(0.0)));
    assert_eq!(param(r, "host_name"), Some(&Value::Text("h".into())));
    let rt = metric(r, "real_time").unwrap();
    assert_eq!((rt.value, rt.unit.as_deref()), (1500.0, Some("ns")), "times are stored in ns");
    assert_eq!(metric(r, "bytes_per_second").unwrap().unit.as_deref(), Some("B/s"));
    assert_eq!(metric(r, "hits").unwrap().value, 3.0);
    let mean = metric(r, "real_time_mean").unwrap();
    assert_eq!((mean.value, mean.unit.as_deref()), (1600.0, Some("ns")));
    let cv = metric(r, "real_time_cv").unwrap();
    assert_eq!((cv.value, cv.unit.as_deref()), (0.08, None), "a fraction, not microseconds");
    assert!(metric(&runs[1], "real_time_mean").is_none(), "summaries once, on the first repetition");
    assert_eq!(param(&runs[1], "repetition_index"), Some(&Value::Num(1.0)));
    assert!(outcome.skipped.iter().any(|s| s.contains("`context.caches`")), "{:?}", outcome.skipped);
}

#[test]
fn csv_rows_aggregates_and_counters() {
    let text = "name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,label,\
                error_occurred,error_message,\"FOM: ops\"\n\
                \"BM_A/8\",100,2.5,2.4,ns,,,,,,7\n\
                \"BM_A/8\",100,2.7,2.6,ns,,,,,,8\n\
                \"BM_A/8_mean\",2,2.6,2.5,ns,,,,,,7.5\n\
                \"BM_A/8_cv\",2,0.05,0.05,,,,,,,0.1\n\
                \"BM_B\",10,9,9,ms,,,fast,,,\n";
    let (runs, _) = collect::<GbenchCsv>("b.csv", text).unwrap();
    assert_eq!(runs.len(), 3);
    assert_eq!(runs[0].line, 2);
    assert_eq!(param(&runs[1], "repetition_index"), Some(&Value::Num(1.0)));
    assert_eq!(metric(&runs[0], "real_time").unwrap().unit.as_deref(), Some("ns"));
    assert_eq!(metric(&runs[0], "FOM: ops").unwrap().value, 7.0);
    assert_eq!(metric(&runs[0], "real_time_mean").unwrap().value, 2.6);
    assert_eq!(metric(&runs[0], "real_time_cv").unwrap().unit, None);
    assert_eq!(param(&runs[2], "label"), Some(&Value::Text("fast".into())));
    assert_eq!(param(&runs[2], "repetition_index"), None, "one row: one run, no repetitions");
    let ms = metric(&runs[2], "real_time").unwrap();
    assert_eq!((ms.value, ms.unit.as_deref()), (9e6, Some("ns")), "9 ms");
}

/// Two builds of one benchmark, the faster run for more iterations (as
/// Google Benchmark chooses them): the same point, so a regression between
/// them is a move of one cell, not two cells each in one sweep.
#[test]
fn iterations_chosen_by_the_framework_are_no_point() {
    let row = |it: u32, t: f64| {
        format!(
            r#"{{"name": "BM_Parse/1024", "run_name": "BM_Parse/1024", "run_type": "iteration",
              "iterations": {it}, "real_time": {t}, "cpu_time": {t}, "time_unit": "ns"}}"#
        )
    };
    let params = |text: String| {
        let (runs, _) = collect::<GbenchJson>("b.json", &text).unwrap();
        let mut p = runs[0].params.clone();
        p.sort_by(|a, b| a.0.cmp(&b.0));
        p
    };
    let fast = params(format!(r#"{{"benchmarks": [{}]}}"#, row(619_195, 1100.0)));
    let slow = params(format!(r#"{{"benchmarks": [{}]}}"#, row(526_315, 1300.0)));
    assert_eq!(fast, slow);
}

#[test]
fn a_repetition_that_reported_an_error_is_named_and_not_stored() {
    let text = r#"{"benchmarks": [
      {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetition_index": 0,
       "iterations": 10, "real_time": 5, "cpu_time": 5, "time_unit": "ns"},
      {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetition_index": 1,
       "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ns",
       "error_occurred": true, "error_message": "parse failed"}]}"#;
    let (runs, outcome) = collect::<GbenchJson>("b.json", text).unwrap();
    assert_eq!(runs.len(), 1, "the failed repetition's 0 is no time");
    assert!(
        outcome.skipped.iter().any(|s| s.contains("`BM_A` at line") && s.contains("parse failed")),
        "{:?}",
        outcome.skipped
    );
    let csv = "name,iterations,real_time,cpu_time,time_unit,error_occurred,error_message\n\
               \"BM_A\",10,5,5,ns,,\n\
               \"BM_A\",0,0,0,ns,true,\"parse failed\"\n";
    let (runs, outcome) = collect::<GbenchCsv>("b.csv", csv).unwrap();
    assert_eq!(runs.len(), 1);
    assert!(outcome.skipped.iter().any(|s| s.contains("at line 3")), "{:?}", outcome.skipped);
}

#[test]
fn a_value_that_is_not_a_number_is_an_error_at_its_line() {
    let text = "{\"benchmarks\": [\n{\"name\": \"BM_A\", \"run_type\": \"iteration\", \"iterations\": 10,\n\
                \"real_time\": \"NaN-ish\", \"cpu_time\": 5, \"time_unit\": \"ns\"}]}";
    let e = collect::<GbenchJson>("b.json", text).unwrap_err().to_string();
    assert!(e.contains("`real_time`") && e.contains("not a number"), "{e}");
    let csv = "name,iterations,real_time,cpu_time,time_unit\n\"BM_A\",10,5,5,ns\n\"BM_A\",10,fast,5,ns\n";
    let e = collect::<GbenchCsv>("b.csv", csv).unwrap_err().to_string();
    assert!(e.contains("b.csv:3") && e.contains("`real_time`"), "{e}");
}
