//! Generic CSV and JSON lines: unit tests.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::*;
use crate::ingest::LineBytes;

fn csv_runs(text: &str, opts: &GenericOptions) -> Result<Vec<RawRun>> {
    let parse = |path: &Path, input: &mut dyn BufRead, emit: Emit| parse_csv(path, input, opts, emit);
    Ok(crate::ingest::log_format::collect_with("t.csv", text, parse)?.0)
}

#[test]
fn csv_columns_take_roles_from_all_rows() {
    let text = "config,concurrency,tput,note\nbase,8,100.5,ok\nbase,16,180,\n\"eagle, v2\",32,nan,7\n";
    let runs = csv_runs(text, &GenericOptions::default()).unwrap();
    assert_eq!(runs.len(), 3);
    assert_eq!(runs[0].line, 2);
    assert_eq!(runs[2].line, 4);
    assert_eq!(
        runs[0].params,
        vec![
            ("config".into(), Value::Text("base".into())),
            ("concurrency".into(), Value::Num(8.0)),
            ("note".into(), Value::Text("ok".into()))
        ]
    );
    assert_eq!(runs[0].metrics[0].name, "tput");
    assert_eq!(runs[0].metrics[0].value, 100.5);
    // Empty cell left out; mixed column `note` is a param.
    assert_eq!(runs[1].params.len(), 2);
    assert_eq!(runs[2].params[0].1, Value::Text("eagle, v2".into()));
    assert_eq!(runs[2].params[2], ("note".into(), Value::Num(7.0)));
    assert!(runs[2].metrics[0].value.is_nan());
}

#[test]
fn csv_overrides_and_errors() {
    let opts = GenericOptions { params: vec!["tput".into()], metrics: vec!["concurrency".into()] };
    let runs = csv_runs("concurrency;tput\n8;1\n", &opts).unwrap();
    assert_eq!(runs[0].params, vec![("tput".into(), Value::Num(1.0))]);
    assert_eq!(runs[0].metrics[0].name, "concurrency");
    let opts = GenericOptions { params: vec![], metrics: vec!["name".into()] };
    let e = csv_runs("name,x\nabc,1\n", &opts).unwrap_err().to_string();
    assert_eq!(
        e,
        "t.csv:2: column `name` is set to be a metric in reckon.toml, but this row has `abc`, which is not a number"
    );
    let e = csv_runs("a,b\n1,2\n3\n", &GenericOptions::default()).unwrap_err().to_string();
    assert_eq!(e, "t.csv:3: this row has 1 fields but the header has 2; every row needs one cell per column");
}

#[test]
fn csv_sniffing() {
    assert_eq!(sniff_csv(b"a,b,c\n1,2,3\n4,5,6\n"), Some(b','));
    assert_eq!(sniff_csv(b"a\tb\n1\t2\n"), Some(b'\t'));
    assert_eq!(sniff_csv(b"1,2\n3,4\n"), None, "no header row");
    assert_eq!(sniff_csv(b"hello, world\nthis is prose\n"), None);
    // A small file whose last row was cut is still a table, so the parser
    // can name that row (cold trial: "not a benchmark log reckon knows").
    let cut = "micro_batch,seq_len,run,tokens_per_sec\n2,1024,1,1000.5\n2,1024,2\n";
    assert_eq!(sniff_csv(cut.as_bytes()), Some(b','));
    let e = csv_runs(cut, &GenericOptions::default()).unwrap_err().to_string();
    assert!(e.contains("t.csv:3:") && e.contains("3 fields but the header has 4"), "{e}");
    // Not when an earlier row disagrees too.
    assert_eq!(sniff_csv(b"a,b,c\n1,2\n3,4,5\n6\n"), None);
}

#[test]
fn identity_names() {
    for n in [
        "concurrency",
        "max_concurrency",
        "batch_size",
        "input_len",
        "num_prompts",
        "request_rate",
        "Threads",
        "server.tp_size",
        "run",
        "lr",
        "learning-rate",
        "dropout",
        "step",
    ] {
        assert!(is_identity_name(n), "{n}");
    }
    for n in ["output_throughput", "mean_ttft_ms", "completed", "max_concurrent_requests", "duration"] {
        assert!(!is_identity_name(n), "{n}");
    }
}

#[test]
fn jsonl_flattens_objects_and_skips_arrays() {
    let text =
        "{\"a\": {\"b\": 1.5, \"c\": \"x\"}, \"l\": [1, 2], \"n\": null, \"t\": true, \"batch_size\": 4, \"r\": NaN}\n";
    let (runs, _) = crate::ingest::log_format::collect::<Jsonl>("t.jsonl", text).unwrap();
    let r = &runs[0];
    assert_eq!(
        r.params,
        vec![
            ("a.c".into(), Value::Text("x".into())),
            ("batch_size".into(), Value::Num(4.0)),
            ("t".into(), Value::Text("true".into()))
        ]
    );
    assert_eq!(r.metrics.len(), 2);
    assert_eq!(r.metrics[0].name, "a.b");
    assert!(r.metrics[1].value.is_nan());
}

#[test]
fn one_rule_types_every_column_of_a_kernel_grid() {
    // M, N, K are the grid; `repeat` marks repeats; the latency in µs
    // is a metric by its unit even where a row writes it whole.
    let text = "kernel,M,N,K,repeat,latency_us,tflops,note\n\
                tiled,1024,1024,1024,1,12.5,171.2,ok\n\
                tiled,1024,1024,1024,2,13,165.1,ok\n\
                tiled,4096,4096,4096,1,640.25,214.7,retry\n";
    let runs = csv_runs(text, &GenericOptions::default()).unwrap();
    let names = |r: &RawRun| r.params.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&runs[0]), ["kernel", "M", "N", "K", "repeat", "note"]);
    let metrics: Vec<&str> = runs[1].metrics.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(metrics, ["latency_us", "tflops"]);
    assert_eq!(runs[1].metrics[0].value, 13.0);
    // A whole-number column with a fraction in any row is a metric, and
    // so is one with a number no one would choose as a setting.
    let runs = csv_runs("config,speed\na,3\nb,3.5\n", &GenericOptions::default()).unwrap();
    assert_eq!(runs[0].metrics[0].name, "speed");
    let runs = csv_runs("policy,cache_mb,evictions\nlru,64,23270\nlru,256,4096\n", &GenericOptions::default()).unwrap();
    assert_eq!(runs[1].params[1], ("cache_mb".into(), Value::Num(256.0)));
    assert_eq!(runs[1].metrics[0].name, "evictions");
    // `[generic]` still decides first.
    let opts = GenericOptions { params: vec![], metrics: vec!["M".into()] };
    let runs = csv_runs(text, &opts).unwrap();
    assert_eq!(runs[0].metrics[0].name, "M");
}

#[test]
fn missing_values_neither_make_a_column_text_nor_become_measurements() {
    // One `n/a` and one `-` among hit rates: still a metric, absent
    // from those two runs only.
    let text = "policy,cache_mb,hit_rate\nlru,64,0.52\nlru,256,n/a\nlfu,64,-\nlfu,256,0.71\n";
    let runs = csv_runs(text, &GenericOptions::default()).unwrap();
    assert_eq!(runs.len(), 4);
    let rates: Vec<usize> = runs.iter().map(|r| r.metrics.len()).collect();
    assert_eq!(rates, [1, 0, 0, 1]);
    assert_eq!(runs[3].metrics[0].name, "hit_rate");
    assert!(runs.iter().all(|r| r.params.iter().all(|(n, _)| n != "hit_rate")));
    // A text column keeps `none` as its value: it is a setting there.
    let runs = csv_runs("quant,tput\nnone,10.5\nfp8,12.25\n", &GenericOptions::default()).unwrap();
    assert_eq!(runs[0].params[0], ("quant".into(), Value::Text("none".into())));
    // The same in JSON lines, where `null` was already skipped.
    let text = "{\"cache_mb\": 64, \"hit_rate\": 0.52}\n{\"cache_mb\": 256, \"hit_rate\": \"n/a\"}\n";
    let mut runs = Vec::new();
    let mut input = std::io::Cursor::new(text.as_bytes().to_vec());
    parse_jsonl_rewind(
        Path::new("t.jsonl"),
        &mut input,
        &GenericOptions::default(),
        LineBytes::default(),
        Chosen::Detected,
        &mut |r| {
            runs.push(r);
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(runs[0].metrics[0].name, "hit_rate");
    assert!(runs[1].metrics.is_empty() && runs[1].params.iter().all(|(n, _)| n != "hit_rate"));
}

/// One file per run, the run out of memory: its measurements all `n/a`.
/// A column that says nothing in this file is left out, not kept as a
/// param valued `n/a` (`mfu_pct` has no measurement word, and no value to
/// be off the grid); `none` alone still names a setting.
#[test]
fn a_column_of_no_values_is_left_out() {
    let text = "micro_batch,seq_len,run,tokens_per_sec,mfu_pct,peak_mem_gb,quant\n8,4096,1,n/a,n/a,80.0,none\n";
    let runs = csv_runs(text, &GenericOptions::default()).unwrap();
    let params: Vec<&str> = runs[0].params.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(params, ["micro_batch", "seq_len", "run", "quant"]);
    let metrics: Vec<&str> = runs[0].metrics.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(metrics, ["peak_mem_gb"]);
    // Said to be a param in reckon.toml: kept as written.
    let opts = GenericOptions { params: vec!["mfu_pct".into()], metrics: vec![] };
    let runs = csv_runs(text, &opts).unwrap();
    assert!(runs[0].params.contains(&("mfu_pct".into(), Value::Text("n/a".into()))));
    // JSON lines alike, one record at a time too.
    let text = "{\"micro_batch\": 8, \"mfu_pct\": \"n/a\", \"peak_mem_gb\": 80.0}\n";
    let mut runs = Vec::new();
    let mut input = std::io::Cursor::new(text.as_bytes().to_vec());
    parse_jsonl_rewind(
        Path::new("t.jsonl"),
        &mut input,
        &GenericOptions::default(),
        LineBytes::default(),
        Chosen::Detected,
        &mut |r| {
            runs.push(r);
            Ok(())
        },
    )
    .unwrap();
    assert!(runs[0].params.iter().all(|(n, _)| n != "mfu_pct"), "{:?}", runs[0].params);
    let obj: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text.trim()).unwrap();
    let mut run = RawRun::new(1);
    add_object(&mut run, "", &obj, &GenericOptions::default()).unwrap();
    assert!(run.params.iter().all(|(n, _)| n != "mfu_pct"), "{:?}", run.params);
}

#[test]
fn jsonl_fields_take_roles_from_every_record() {
    // `score` is whole in the first record and fractional in the
    // second: a metric in both. `M` is whole throughout: a param.
    let text = "{\"M\": 512, \"score\": 3, \"seed\": 7}\n{\"M\": 1024, \"score\": 3.5, \"seed\": 8}\n";
    let (runs, _) = crate::ingest::log_format::collect::<Jsonl>("t.jsonl", text).unwrap();
    for r in &runs {
        assert_eq!(r.params.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["M", "seed"]);
        assert_eq!(r.metrics.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["score"]);
    }
    assert_eq!(runs[0].metrics[0].value, 3.0);
}

#[test]
fn round_numbers_are_grid_values() {
    for v in [0.0, 1.0, 7.0, 16.0, 96.0, 250.0, 768.0, 1024.0, 3000.0, 14336.0, 65536.0, -8.0] {
        assert!(grid_value(v, true), "{v}");
    }
    for v in [23270.0, 45628.0, 137.0, 1001.0] {
        assert!(!grid_value(v, true), "{v}");
    }
    assert!(!grid_value(1024.0, false), "written with a point");
    assert!(!grid_value(f64::INFINITY, true));
}

/// A key-value store benchmark (store × value size, three runs): the value
/// size in bytes is a setting though `bytes` names a measurement elsewhere;
/// evictions and peak memory are measurements though every value is round
/// (0 evictions, 81920 KB). The same in CSV and JSON lines.
#[test]
fn sizes_chosen_and_amounts_used_are_told_by_name() {
    let text = "store,value_bytes,run,bytes_per_sec,evictions,peak_rss_kb,total_bytes\n\
                rocksdb,1024,1,52428800,12,81920,1048576\n\
                rocksdb,4096,1,73400320,40,90112,4194304\n\
                lmdb,1024,1,61865984,0,40960,1048576\n\
                lmdb,4096,1,80740352,0,45056,4194304\n";
    let mut jsonl = String::new();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for line in lines {
        let fields: Vec<String> = header
            .iter()
            .zip(line.split(','))
            .map(|(k, v)| if *k == "store" { format!("\"{k}\": \"{v}\"") } else { format!("\"{k}\": {v}") })
            .collect();
        let _ = writeln!(jsonl, "{{{}}}", fields.join(", "));
    }
    let (from_jsonl, _) = crate::ingest::log_format::collect::<Jsonl>("kv.jsonl", &jsonl).unwrap();
    for runs in [csv_runs(text, &GenericOptions::default()).unwrap(), from_jsonl] {
        // JSON objects come back with their keys sorted: compare as sets.
        let params: BTreeSet<&str> = runs[1].params.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(params, BTreeSet::from(["run", "store", "value_bytes"]));
        let metrics: BTreeSet<&str> = runs[1].metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(metrics, BTreeSet::from(["bytes_per_sec", "evictions", "peak_rss_kb", "total_bytes"]));
    }
    // A size written off the grid is measured, whatever its name.
    let runs = csv_runs("store,value_bytes\nlmdb,1017\nlmdb,2043\n", &GenericOptions::default()).unwrap();
    assert_eq!(runs[0].metrics[0].name, "value_bytes");
    for n in ["peak_mem_gb", "gpu_util", "evictions", "peak_rss_kb"] {
        assert!(is_measurement_name(n), "{n}");
    }
    // An amount moved is measured even in round sizes.
    let runs = csv_runs("store,read_bytes\nlmdb,4096\nlmdb,1048576\n", &GenericOptions::default()).unwrap();
    assert_eq!(runs[0].metrics[0].name, "read_bytes");
}

#[test]
fn names_that_say_measurement() {
    for n in ["latency_us", "mean_ttft_ms", "tflops", "output_throughput", "total_output_tokens", "completed", "errors"]
    {
        assert!(is_measurement_name(n), "{n}");
    }
    for n in ["M", "K", "kernel", "heads", "stages"] {
        assert!(!is_measurement_name(n), "{n}");
    }
}

fn jsonl_as(text: &str, chosen: Chosen) -> Result<(Vec<RawRun>, Outcome)> {
    let parse = |path: &Path, input: &mut dyn BufRead, emit: Emit| {
        parse_jsonl(path, input, &GenericOptions::default(), LineBytes::default(), chosen, emit)
    };
    crate::ingest::log_format::collect_with("t.json", text, parse)
}

/// Results in a layout no reader knows are refused when the file was only
/// detected as JSON (nvbench JSON was one run of no metrics, exit 0), with
/// what would be dropped and the line it starts at; named with `--format
/// jsonl`, the fields outside arrays are read and the outcome says what
/// was not. Lists of numbers are named as not stored either way.
#[test]
fn results_in_arrays_are_refused_or_named_never_dropped_silently() {
    let text = "{\"meta\": {\"v\": 1}, \"latencies\": [1.5, 2.5],\n\
                \"benchmarks\": [{\"name\": \"a\", \"t\": 1.25}, {\"name\": \"b\", \"t\": 2.5}],\n\
                \"grid\": [[1, 2], [3, 4]], \"tags\": [\"x\"]}";
    let e = jsonl_as(text, Chosen::Detected).unwrap_err().to_string();
    assert_eq!(
        e,
        "t.json:1: `benchmarks[]`: 2 results (2 numbers) not read; `grid[]`: 2 lists (4 numbers) not read \
         — reckon does not know this layout, and would drop them; use --format jsonl to read only the fields \
         outside arrays, or write one JSON object per run (JSON lines) and ingest that"
    );
    let (runs, outcome) = jsonl_as(text, Chosen::Named).unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].params, vec![("meta.v".into(), Value::Num(1.0))]);
    assert_eq!(
        outcome.skipped,
        vec![
            "`benchmarks[]`: 2 results (2 numbers) not read; `grid[]`: 2 lists (4 numbers) not read: \
             --format jsonl reads the fields outside arrays only"
                .to_string(),
            "per-item lists `latencies[]` (2 numbers) are not stored; reckon keeps the fields outside them".into(),
        ]
    );
    // The line is the first record holding results, in JSON lines.
    let e = jsonl_as("{\"a\": 1}\n{\"a\": 2, \"r\": [{\"x\": 1}]}\n", Chosen::Detected).unwrap_err();
    assert!(e.to_string().starts_with("t.json:2: `r[]`: 1 result (1 numbers) not read"), "{e}");
}

/// Epoch seconds or ISO 8601 under a time-like name is the run's time:
/// two repeats a minute apart were two points by their `timestamp` param.
#[test]
fn time_like_fields_are_the_run_time() {
    let text = "{\"timestamp\": 1703135943, \"ttft_s\": 0.25}\n{\"timestamp\": 1703136003, \"ttft_s\": 0.5}\n";
    let (runs, _) = jsonl_as(text, Chosen::Detected).unwrap();
    assert_eq!(runs[0].time.as_deref(), Some("2023-12-21T05:19:03Z"));
    assert_eq!(runs[1].time.as_deref(), Some("2023-12-21T05:20:03Z"));
    assert!(runs.iter().all(|r| r.params.is_empty() && r.metrics.len() == 1));
    let (runs, _) = jsonl_as("{\"created_at\": \"2024-01-09T10:00:00+01:00\", \"x\": 1.5}", Chosen::Detected).unwrap();
    assert_eq!(runs[0].time.as_deref(), Some("2024-01-09T09:00:00Z"));
    // A `date` that is no time stays what it is.
    let (runs, _) = jsonl_as("{\"date\": \"soon\", \"x\": 1.5}", Chosen::Detected).unwrap();
    assert_eq!((runs[0].time.as_deref(), runs[0].params.len()), (None, 1));
    // CSV alike, when every cell of the column is a time.
    let runs = csv_runs("date,tput\n2024-01-09,10.5\n2024-01-10 08:00:00,12.25\n", &GenericOptions::default()).unwrap();
    assert_eq!(runs[1].time.as_deref(), Some("2024-01-10T08:00:00Z"));
    assert!(runs[1].params.is_empty());
    let runs = csv_runs("date,tput\n2024-01-09,10.5\nlater,12.25\n", &GenericOptions::default()).unwrap();
    assert_eq!((runs[0].time.as_deref(), runs[0].params.len()), (None, 1));
}

#[test]
fn a_csv_whose_last_row_has_no_newline_is_refused_as_possibly_cut() {
    // Trial 5: `head -c -2` left `…,1801.6,11.3` of `…,11.33`, stored as 11.3.
    let cut = "threads,repeat,ops_per_sec,write_amp\n1,0,53216,11.53\n16,2,601801,11.3";
    let e = csv_runs(cut, &GenericOptions::default()).unwrap_err().to_string();
    assert!(e.starts_with("t.csv:3: the file does not end with a newline"), "{e}");
    assert!(e.contains("nothing of the file was stored") && e.contains("echo >> FILE"), "{e}");
    // Ended by a newline (or CRLF, or followed by empty lines), it is read.
    for whole in [format!("{cut}\n"), format!("{}\r\n", cut.replace('\n', "\r\n")), format!("{cut}\n\n")] {
        assert_eq!(csv_runs(&whole, &GenericOptions::default()).unwrap().len(), 2, "{whole:?}");
    }
}
