//! What reckon makes of the corpus files of the neighbouring fields' tools
//! (kernels, Python, LLM serving harnesses, evaluation): the format it
//! detects and the runs it reads, or how it refuses the file. Expected
//! numbers are copied from the fixture named in each test.

use std::path::Path;

use reckon::ingest::generic::GenericOptions;
use reckon::ingest::Format;
use reckon::run::{RawRun, Value};
use reckon::Error;

mod common;
use common::corpus::{close, fixture, has_field, metric, param, parse, parse_as, text, unit};

// ------------------------------------------------ LLM serving harnesses

#[test]
fn mlperf_reference_results_json() {
    let (f, runs, _) = parse("corpus/mlperf/sdxl-reference-results.json");
    assert_eq!(f, Format::Jsonl);
    assert_eq!(runs.len(), 1);
    assert_eq!(param(&runs[0], "args.scenario"), Some(&Value::Text("Offline".into())));
    // A bare `time` is a time only as ISO text: 1717228058 may as well be a
    // duration, and stays as the log wrote it.
    assert_eq!(runs[0].time.as_deref(), None, "`time`: 1717228058");
    assert!(has_field(&runs[0], "time"), "{:?}", runs[0]);
}

// ------------------------------------------------------------- kernels

/// 5 benchmarks × 100 repetitions, each followed by its 8 aggregate rows:
/// 500 runs, the aggregates on each benchmark's first repetition.
#[test]
fn gbench_json_repetitions_and_aggregates() {
    let (f, runs, outcome) = parse("corpus/gbench/kalman-100-repetitions-aggregates.json");
    assert_eq!(f, Format::GbenchJson);
    assert_eq!(runs.len(), 500);
    let r = &runs[0];
    assert_eq!(r.time.as_deref(), Some("2022-09-11T02:22:43Z"), "context.date, -07:00");
    assert_eq!(param(r, "benchmark"), Some(&text("baseline/repeats:100/manual_time")));
    assert_eq!(param(r, "family"), Some(&text("baseline")));
    assert_eq!(param(r, "repeats"), Some(&Value::Num(100.0)));
    assert_eq!(param(r, "timing"), Some(&text("manual_time")));
    assert_eq!(param(r, "iterations"), None, "chosen by Google Benchmark, not a point");
    close(metric(r, "iterations"), 24664371.0);
    assert_eq!(param(r, "repetition_index"), Some(&Value::Num(0.0)));
    assert_eq!(param(r, "host_name"), Some(&text("FRANCOIS-DESK")));
    close(metric(r, "real_time"), 28.34406358502092);
    assert_eq!(unit(r, "real_time"), Some("ns"));
    close(metric(r, "real_time_mean"), 28.270875989887372);
    assert_eq!(unit(r, "real_time_mean"), Some("ns"));
    close(metric(r, "cpu_time_cv"), 0.003109043172335728);
    assert_eq!(unit(r, "cpu_time_cv"), None, "cv is a fraction");
    close(metric(r, "real_time_BigO"), 28.27087598988737);
    close(metric(r, "real_time_RMS"), 0.0030934588978748035);
    assert!(!has_field(&runs[1], "real_time_mean"));
    close(metric(&runs[99], "real_time"), 28.151445658642725);
    let p = &runs[100];
    assert_eq!(param(p, "benchmark"), Some(&text("predict1x1x0/repeats:100/manual_time")));
    close(metric(&runs[102], "real_time"), 34.064100593465206);
    assert!(outcome.skipped.iter().any(|s| s.contains("`context.caches`")), "{:?}", outcome.skipped);
}

/// Google Benchmark before 1.5 wrote `context.date` as the machine's local
/// time with no offset (its own tools' test input): read as UTC, as
/// before, and now said so instead of silently.
#[test]
fn gbench_json_date_without_an_offset_is_read_as_utc_and_said() {
    let (f, runs, outcome) = parse("corpus/gbench/google-benchmark-test2-run-date-without-offset.json");
    assert_eq!(f, Format::GbenchJson);
    assert_eq!(runs.len(), 10);
    assert_eq!(runs[0].time.as_deref(), Some("2016-08-02T17:44:46Z"));
    assert_eq!(param(&runs[0], "family"), Some(&text("BM_Hi")));
    assert_eq!(outcome.notes.len(), 1, "{:?}", outcome.notes);
    let note = &outcome.notes[0];
    assert!(note.starts_with("`context.date` `2016-08-02 17:44:46` read as UTC: the log gives no offset"), "{note}");
    assert!(note.contains("`--label sweep=YYYY-MM-DD`"), "what to do: {note}");
    // A date with its offset says nothing.
    let (_, _, outcome) = parse("corpus/gbench/kalman-100-repetitions-aggregates.json");
    assert!(outcome.notes.is_empty(), "{:?}", outcome.notes);
}

/// The same data through Google Benchmark's CSV reporter: the same runs.
#[test]
fn gbench_csv_reads_as_its_json() {
    let (f, runs, _) = parse("corpus/gbench/kalman-100-repetitions.derived.csv");
    assert_eq!(f, Format::GbenchCsv);
    assert_eq!(runs.len(), 500);
    let r = &runs[0];
    assert_eq!(r.line, 2);
    assert_eq!(param(r, "benchmark"), Some(&text("baseline/repeats:100/manual_time")));
    assert_eq!(param(r, "repetition_index"), Some(&Value::Num(0.0)));
    assert_eq!(metric(r, "real_time"), 28.3441);
    assert_eq!(unit(r, "real_time"), Some("ns"));
    assert_eq!(metric(r, "real_time_mean"), 28.2709);
    assert_eq!(metric(r, "cpu_time_cv"), 0.00310904);
    assert_eq!(unit(r, "cpu_time_cv"), None);
    assert_eq!(metric(r, "real_time_BigO"), 28.2709);
    assert_eq!(param(&runs[99], "repetition_index"), Some(&Value::Num(99.0)));
    assert_eq!(metric(&runs[99], "real_time"), 28.1514);
    assert_eq!(runs[100].line, 110);
    let (_, json, _) = parse("corpus/gbench/kalman-100-repetitions-aggregates.json");
    for (c, j) in runs.iter().zip(&json) {
        assert_eq!(param(c, "benchmark"), param(j, "benchmark"));
        assert_eq!(param(c, "repetition_index"), param(j, "repetition_index"));
    }
}

/// `--benchmark_out=f.csv --benchmark_out_format=csv`: Google Benchmark
/// writes the console's context into the file before the header (the file
/// reporter's error stream is the file). The date is the runs' time, the
/// executable and the CPU are params, the rows keep their own lines.
#[test]
fn gbench_csv_written_to_a_file_after_its_context() {
    let (f, runs, outcome) = parse("gbench-out/context-then-csv.csv");
    assert_eq!(f, Format::GbenchCsv);
    assert_eq!(runs.len(), 20);
    let r = &runs[0];
    assert_eq!(r.line, 12, "the header is line 11");
    assert_eq!(r.time.as_deref(), Some("2026-11-24T22:13:00Z"));
    assert_eq!(param(r, "executable"), Some(&text("./build/O3/kalman_bench")));
    assert_eq!(param(r, "num_cpus"), Some(&Value::Num(16.0)));
    assert_eq!(param(r, "mhz_per_cpu"), Some(&Value::Num(3400.0)));
    assert_eq!(metric(r, "real_time"), 28.3441);
    assert_eq!(runs[19].line, 31);
    let said = outcome.skipped.join("\n");
    for what in ["CPU caches", "load average", "WARNING"] {
        assert!(said.contains(what), "{what} not named as left out: {said}");
    }
    // Other lines above a gbench header are not its context: not this format.
    let other = fixture("gbench-out/other-lines-then-csv.csv");
    assert_ne!(Format::detect(&other, &std::fs::read(&other).unwrap()).ok(), Some(Format::GbenchCsv));
}

#[test]
fn gbench_json_user_counters_and_seconds() {
    let (f, runs, _) = parse("corpus/gbench/kokkos-mempool-user-counters-time-unit-s.json");
    assert_eq!(f, Format::GbenchJson);
    assert_eq!(runs.len(), 2);
    let r = &runs[0];
    assert_eq!(param(r, "family"), Some(&text("Mempool_Fill")));
    assert_eq!(param(r, "total_alloc_size"), Some(&Value::Num(1000000.0)));
    assert_eq!(param(r, "fill_level"), Some(&Value::Num(70.0)));
    assert_eq!(param(r, "Kokkos Version"), Some(&text("4.0.99")));
    assert_eq!(param(r, "num_cpus"), Some(&Value::Num(2.0)));
    // `time_unit: "s"`: stored in ns, as every Google Benchmark time.
    close(metric(r, "real_time"), 0.0003841063126410835 * 1e9);
    assert_eq!(unit(r, "real_time"), Some("ns"));
    close(metric(r, "FOM: fill ops per second"), 14462141.904943649);
    assert_eq!(r.time.as_deref(), Some("2023-03-03T04:06:30Z"));
    close(metric(&runs[1], "FOM: cycle ops per second"), 75941381.25073309);
}

/// One run per benchmark × state: 126 states of 5 benchmarks, 38 of them
/// skipped by nvbench (conversions that are none or narrowing), axis values
/// as params, the two `Samples`, `Noise` and `Walltime` told apart.
#[test]
fn nvbench_json_one_run_per_state() {
    let (f, runs, outcome) = parse("corpus/nvbench/nvidia-axes-example-test-ref.json");
    assert_eq!(f, Format::NvbenchJson);
    assert_eq!(runs.len(), 126 - 38);
    let said = outcome.skipped.iter().find(|n| n.starts_with("38 states nvbench skipped hold no measurement: `"));
    assert!(said.is_some_and(|n| n.ends_with(", and 33 more")), "{:?}", outcome.skipped);
    assert_eq!(param(&runs[1], "device"), Some(&Value::Num(1.0)));
    assert_eq!(param(&runs[1], "device_name"), Some(&text("Quadro GP100")));
    let grid: Vec<&RawRun> =
        runs.iter().filter(|r| param(r, "benchmark") == Some(&text("copy_sweep_grid_shape"))).collect();
    assert_eq!(grid.len(), 18);
    let r = grid[0];
    assert_eq!(param(r, "BlockSize"), Some(&Value::Num(64.0)));
    assert_eq!(param(r, "NumBlocks"), Some(&Value::Num(64.0)));
    assert_eq!(param(r, "device_name"), Some(&text("Quadro GV100")));
    assert_eq!(metric(r, "samples"), 78.0);
    assert_eq!(metric(r, "batch_samples"), 81.0);
    close(metric(r, "gpu_time"), 0.006485689823444072);
    assert_eq!(unit(r, "gpu_time"), Some("s"));
    close(metric(r, "cpu_noise"), 0.0014400823428293225);
    close(metric(r, "gpu_noise"), 0.001177496193520018);
    assert_eq!(unit(r, "gpu_noise"), None, "a fraction");
    close(metric(r, "items_per_second"), 10347220700.783287);
    close(metric(r, "global_mem_bw"), 82777765606.2663);
    assert_eq!(unit(r, "global_mem_bw"), Some("B/s"));
    close(metric(r, "bandwidth_util"), 0.09510313144102286);
    close(metric(r, "walltime"), 0.507885141);
    close(metric(r, "batch_walltime"), 0.524857216);
    close(metric(r, "batch_gpu_time"), 0.006479606722608024);
    let conv = runs.iter().find(|r| param(r, "In") == Some(&text("I8")) && param(r, "Out") == Some(&text("F64")));
    assert!(conv.is_some(), "type axes are text params");
    assert!(outcome.skipped.iter().any(|n| n.contains("`devices[]`")), "{:?}", outcome.skipped);
}

/// nvbench's CSV writes `Samples` and `Noise` twice: told apart by where
/// they stand (the header was refused: "names column `Noise` twice").
#[test]
fn nvbench_csv_two_noise_columns() {
    let (f, runs, _) = parse("corpus/nvbench/array-add-rtx3080-two-noise-columns.csv");
    assert_eq!(f, Format::NvbenchCsv);
    assert_eq!(runs.len(), 26);
    let r = &runs[1];
    assert_eq!(r.line, 3);
    assert_eq!(param(r, "benchmark"), Some(&text("Not Coalesced (Different Array Sizes)")));
    assert_eq!(param(r, "device_name"), Some(&text("NVIDIA GeForce RTX 3080")));
    assert_eq!(param(r, "Axis Size"), Some(&Value::Num(4.0)));
    assert!(param(r, "Axis Size (pow2)").is_none(), "the `2^2` column repeats the value");
    assert_eq!(metric(r, "num_elements"), 32.0);
    assert_eq!(metric(r, "memory_reads"), 128.0);
    assert_eq!(unit(r, "memory_reads"), Some("B"));
    assert_eq!(metric(r, "samples"), 163272.0);
    close(metric(r, "cpu_time"), 7.2866251163701965e-06);
    close(metric(r, "cpu_noise"), 1.3861253685301742);
    close(metric(r, "gpu_time"), 3.0623845285920975e-06);
    close(metric(r, "gpu_noise"), 0.1217478717839767);
    close(metric(r, "items_per_second"), 10449373.584940262);
    close(metric(r, "global_mem_bw"), 62696241.50964157);
    close(metric(r, "bandwidth_util"), 8.248637184196607e-05);
    assert_eq!(metric(r, "batch_samples"), 291947.0);
    close(metric(r, "batch_gpu_time"), 1.7126492374926044e-06);
    assert_eq!(unit(r, "batch_gpu_time"), Some("s"));
    assert_eq!(param(&runs[13], "benchmark"), Some(&text("Coalesced (Different Array Sizes)")));
}

/// The corpus file edited by hand, as a researcher tidying numbers might:
/// a statistic made text was dropped without a word (the run kept its
/// other summaries); a round's time removed left `rounds` and every
/// summary of other rounds. Each is refused at the result, saying what
/// and what to do.
#[test]
fn a_hand_edited_pytest_benchmark_file_is_refused_with_a_remedy() {
    let path = fixture("corpus/pytest-benchmark/v2.5.0-storage-0030-params-null-no-ops.json");
    let real = std::fs::read_to_string(&path).unwrap();
    let refusal = |text: &str| -> String {
        let mut runs = Vec::new();
        match Format::PytestBenchmark.parse(Path::new("b.json"), &mut text.as_bytes(), &mut |r| {
            runs.push(r);
            Ok(())
        }) {
            Ok(_) => panic!("read {} runs of an edited file", runs.len()),
            Err(e) => e.to_string(),
        }
    };
    let mean = refusal(&real.replacen("\"mean\": 2.61205074138546e-07", "\"mean\": \"0.26 us\"", 1));
    assert!(mean.contains("`stats.mean` holds \"0.26 us\", not a number"), "{mean}");
    assert!(mean.contains("the file was edited after it was written"), "{mean}");
    assert!(mean.contains("run the benchmarks again"), "{mean}");
    let rounds = refusal(&real.replacen("\"rounds\": 9710", "\"rounds\": 9710, \"data\": [2.2e-07, 2.3e-07]", 1));
    assert!(rounds.contains("`stats.data` holds 2 times but `stats.rounds` says 9710"), "{rounds}");
    assert!(rounds.starts_with("b.json:"), "where: {rounds}");
}

#[test]
fn pytest_benchmark_json_and_its_compare_csv() {
    let (f, runs, _) = parse("corpus/pytest-benchmark/v2.5.0-storage-0030-params-null-no-ops.json");
    assert_eq!(f, Format::PytestBenchmark);
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(r.time.as_deref(), Some("2015-08-15T00:04:18Z"));
    assert_eq!(param(r, "name"), Some(&text("test_xfast_parametrized[0]")));
    assert_eq!(param(r, "fullname"), Some(&text("tests/test_normal.py::test_xfast_parametrized[0]")));
    assert_eq!(param(r, "group"), None, "null");
    assert_eq!(param(r, "machine_info.node"), Some(&text("minibox")));
    assert_eq!(param(r, "commit_info.id"), Some(&text("5b78858eb718649a31fb93d8dc96ca2cee41a4cd")));
    assert_eq!(param(r, "options.min_rounds"), Some(&Value::Num(5.0)));
    close(metric(r, "mean"), 2.61205074138546e-07);
    assert_eq!(unit(r, "mean"), Some("s"));
    close(metric(r, "median"), 2.2016379230260297e-07);
    assert_eq!(metric(r, "rounds"), 9710.0);
    assert_eq!(metric(r, "iterations"), 431.0);
    assert!(!has_field(r, "ops"), "2.5.0 wrote no ops");
    // `compare --csv` of the same file: a generic table, units lost.
    let (f, runs, _) = parse("corpus/pytest-benchmark/v2.5.0-storage-0030-compare.derived.csv");
    assert_eq!(f, Format::Csv);
    close(metric(&runs[0], "mean"), 2.61205074138546e-07);
    assert_eq!(unit(&runs[0], "mean"), None);
}

/// One run per benchmark × point of its params product: 10 benchmarks,
/// 222 points, every one measured.
#[test]
fn asv_results_one_run_per_point() {
    let (f, runs, outcome) = parse("corpus/asv/blas-graviton-results.json");
    assert_eq!(f, Format::Asv);
    assert_eq!(runs.len(), 222);
    assert!(outcome.skipped.is_empty(), "{:?}", outcome.skipped);
    let r = &runs[0];
    assert_eq!(param(r, "benchmark"), Some(&text("benchmarks.Nrm2.time_nrm2")));
    assert_eq!(param(r, "param1"), Some(&Value::Num(100.0)));
    assert_eq!(param(r, "param2"), Some(&text("d")));
    assert_eq!(param(r, "machine"), Some(&text("gha-aws-graviton")));
    assert_eq!(param(r, "commit_hash"), Some(&text("03433efb0da15c8827b6a909bc6164a1629b1efb")));
    close(metric(r, "time"), 6.692945209647455e-07);
    assert_eq!(unit(r, "time"), Some("s"));
    assert_eq!(metric(r, "stats_number"), 16408.0);
    assert_eq!(metric(r, "stats_repeat"), 10.0);
    close(metric(r, "duration"), 4.0802);
    assert_eq!(r.time.as_deref(), Some("2024-06-29T12:27:37Z"), "started_at, epoch ms");
    // The second point: the last param varies fastest.
    assert_eq!(param(&runs[1], "param1"), Some(&Value::Num(100.0)));
    assert_eq!(param(&runs[1], "param2"), Some(&text("dz")));
    close(metric(&runs[1], "time"), 7.417786076367723e-07);
    assert!(!has_field(&runs[1], "duration"), "once per benchmark");
    assert_eq!(param(&runs[2], "param1"), Some(&Value::Num(200.0)));
    let (_, runs, _) = parse("corpus/asv/blas-graviton-machine.json");
    assert_eq!(param(&runs[0], "machine"), Some(&text("gha-aws-graviton")));
}

/// asv's own example of its format version 1 (asv before 0.5): it was
/// read as generic JSON, one run of dotted `results.*` names. Refused,
/// saying what rewrites it; `--format asv` says the same.
#[test]
fn asv_results_of_format_version_1_are_refused_with_asv_update() {
    let rel = "corpus/asv/asv-example-results-format-version-1.json";
    let path = fixture(rel);
    let bytes = std::fs::read(&path).unwrap();
    let msg = refused_bytes(&bytes);
    assert!(msg.contains("format version 1") && msg.contains("no `result_columns`"), "{msg}");
    assert!(msg.contains("run `asv update` in the benchmark project"), "{msg}");
    let forced = parse_as(Format::Asv, &path, &GenericOptions::default()).unwrap_err().to_string();
    assert!(forced.contains(":1: ") && forced.contains("run `asv update`"), "{forced}");
}

// ------------------------------------------------------------ criterion

/// A sample's time is the total of its iterations, which grow 100× across
/// a linear sampling: each repeat is `times[i] / iters[i]` (raw.csv's total
/// per sample was stored as the measurement).
#[test]
fn criterion_samples_are_repeats_of_the_time_per_iteration() {
    let (f, runs, _) = parse("corpus/criterion/fib20-fast-new-sample.json");
    assert_eq!(f, Format::CriterionJson);
    assert_eq!(runs.len(), 100);
    close(metric(&runs[0], "time"), 1044826.0 / 202638.0);
    assert_eq!(unit(&runs[0], "time"), Some("ns"));
    close(metric(&runs[1], "time"), 2051345.0 / 405276.0);
    assert_eq!(metric(&runs[1], "iterations"), 405276.0);
    assert_eq!(param(&runs[99], "repeat"), Some(&Value::Num(100.0)));
    assert_eq!(param(&runs[0], "sampling_mode"), Some(&text("Linear")));
    let (_, runs, _) = parse("corpus/criterion/dougch-slow_new_sample.json");
    assert_eq!(runs.len(), 100);
    close(metric(&runs[0], "time"), 1022840.0 / 55.0);

    let (f, runs, _) = parse("corpus/criterion/dougch-fast_base_raw.csv");
    assert_eq!(f, Format::CriterionCsv);
    assert_eq!(runs.len(), 100);
    assert_eq!(runs[0].line, 2);
    assert_eq!(param(&runs[0], "group"), Some(&text("fib 20 - fast")));
    assert_eq!(param(&runs[0], "benchmark"), Some(&text("fib 20 - fast")));
    close(metric(&runs[0], "time"), 1044826.0 / 202638.0);
    assert_eq!(unit(&runs[0], "time"), Some("ns"));
    close(metric(&runs[99], "time"), 97776553.0 / 20263800.0);
    assert_eq!(param(&runs[99], "repeat"), Some(&Value::Num(100.0)));
}

#[test]
fn criterion_estimates_and_ids() {
    let (f, runs, _) = parse("corpus/criterion/fib20-fast-new-estimates.json");
    assert_eq!(f, Format::CriterionJson);
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    close(metric(r, "mean"), 4.8576958822770795);
    assert_eq!(unit(r, "mean"), Some("ns"));
    close(metric(r, "mean_lower"), 4.833180588679826);
    close(metric(r, "mean_upper"), 4.8831753414836);
    close(metric(r, "mean_standard_error"), 0.012745410417897621);
    assert!(has_field(r, "slope") && has_field(r, "median_abs_dev") && has_field(r, "std_dev"));
    assert_eq!(param(r, "confidence_level"), Some(&Value::Num(0.95)));
    for rel in ["corpus/criterion/dougch-fast_new_estimates.json", "corpus/criterion/dougch-slow_new_estimates.json"] {
        let (_, runs, _) = parse(rel);
        assert!(has_field(&runs[0], "median"), "{rel}");
    }
    // change/estimates.json: relative changes, no unit.
    for rel in [
        "corpus/criterion/fib20-fast-change-estimates-mean-median-only.json",
        "corpus/criterion/dougch-slow_change_estimates.json",
    ] {
        let (_, runs, _) = parse(rel);
        assert_eq!(runs[0].metrics.len(), 8, "{rel}: mean and median, each with its interval and error");
    }
    let (_, runs, _) = parse("corpus/criterion/fib20-fast-change-estimates-mean-median-only.json");
    close(metric(&runs[0], "mean_change"), -0.0003173167175444247);
    assert_eq!(unit(&runs[0], "mean_change"), None);
    // benchmark.json: the ids, no run; said.
    for rel in [
        "corpus/criterion/fib20-fast-new-benchmark-null-function-id.json",
        "corpus/criterion/dougch-fast_base_benchmark.json",
    ] {
        let (_, runs, outcome) = parse(rel);
        assert!(runs.is_empty(), "{rel}");
        assert!(outcome.skipped[0].contains("holds no measurement"), "{rel}");
    }
}

/// Inside `target/criterion/<group>/<function>/<value>/new/`, the folders
/// are the ids.
#[test]
fn criterion_ids_from_its_folders() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("target/criterion/fib/recursive/20/new");
    std::fs::create_dir_all(&new).unwrap();
    let sample = new.join("sample.json");
    std::fs::copy(fixture("corpus/criterion/fib20-fast-new-sample.json"), &sample).unwrap();
    let (runs, _) = parse_as(Format::CriterionJson, &sample, &GenericOptions::default()).unwrap();
    let r = &runs[0];
    assert_eq!(param(r, "benchmark"), Some(&text("fib/recursive/20")));
    assert_eq!(param(r, "group"), Some(&text("fib")));
    assert_eq!(param(r, "function"), Some(&text("recursive")));
    assert_eq!(param(r, "value"), Some(&Value::Num(20.0)));
    assert_eq!(param(r, "baseline"), Some(&text("new")));
}

// ------------------------------------------------------------- detection

/// Console lines starting with a bracketed prefix are no JSON array: the
/// trtllm-bench console log was refused as "a JSON array whose elements
/// are not objects" (it is read now: `tests/formats_console.rs`).
#[test]
fn console_prefixes_are_not_json() {
    for head in ["[INFO] starting\n", "[01/18/2025-01:01:13] [TRT-LLM] [I] Preparing\n", "[rank0]: x\n"] {
        let m = match Format::detect(Path::new("x.log"), head.as_bytes()) {
            Err(Error::UnknownFormat { msg, .. }) => msg,
            other => panic!("{head}: {other:?}"),
        };
        assert!(!m.contains("JSON array"), "{head}: {m}");
    }
    // JSON arrays stay JSON.
    assert_eq!(Format::detect(Path::new("x"), b"[{\"config\": \"a\", \"tput\": 1}]").unwrap(), Format::Jsonl);
    let m = refused_bytes(b"[1, 2]\n");
    assert!(m.contains("JSON array of numbers"), "{m}");
}

fn refused_bytes(bytes: &[u8]) -> String {
    match Format::detect(Path::new("x"), bytes) {
        Err(Error::UnknownFormat { msg, .. }) => msg,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Windows line ends change nothing in the tables of the new formats.
#[test]
fn crlf_tables_read_as_their_lf_originals() {
    for rel in [
        "corpus/gbench/kalman-100-repetitions.derived.csv",
        "corpus/nvbench/array-add-rtx3080-two-noise-columns.csv",
        "corpus/criterion/dougch-fast_base_raw.csv",
    ] {
        let (format, lf, _) = parse(rel);
        let text = std::fs::read_to_string(fixture(rel)).unwrap();
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(Format::detect(Path::new("x.csv"), crlf.as_bytes()).unwrap(), format, "{rel}");
        let mut runs = Vec::new();
        format
            .parse(Path::new("x.csv"), &mut crlf.as_bytes(), &mut |r| {
                runs.push(r);
                Ok(())
            })
            .unwrap();
        let lines = |runs: &[RawRun]| runs.iter().map(|r| r.line).collect::<Vec<_>>();
        assert_eq!(lines(&runs), lines(&lf), "{rel}");
        assert!(runs == lf, "{rel}: the runs differ");
    }
}
