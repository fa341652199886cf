//! End-to-end: repeats the log already holds count as repeats — hyperfine's
//! `times` (tests/fixtures/corpus/hyperfine, real exports) and a CSV's
//! `repeat` column (the GEMM study in tests/fixtures/gemm) — in cells,
//! medians and the evidence of claims.

mod common;
use common::Sandbox;

fn hyperfine_project() -> Sandbox {
    let s = Sandbox::new();
    s.fixture("corpus/hyperfine/1brc-two-commands.json", "bench.json");
    s.write(
        "reckon.toml",
        "series = \"command\"\n\n[aliases]\n\
         \"cargo run --release --bin 1brc measurements_1000000000.txt\" = [\"1brc\"]\n\
         \"cargo run --release --bin lucretiel_1brc measurements_1000000000.txt\" = [\"lucretiel\"]\n",
    );
    s.ok(&["ingest", "bench.json"]);
    s
}

fn query_json(s: &Sandbox, metric: &str, agg: &str) -> Vec<(String, f64)> {
    let v = s.ok(&["query", "--metric", metric, "--rows", "command", "--agg", agg, "--format", "json"]).json();
    let cells = v["cells"].as_array().unwrap_or_else(|| panic!("{v}"));
    cells.iter().map(|c| (c["row"][0].as_str().unwrap_or_default().to_string(), c["value"].as_f64().unwrap())).collect()
}

#[test]
fn hyperfine_repeats_are_runs_whose_statistics_match_hyperfines_own() {
    let s = hyperfine_project();
    let runs = s.ok(&["runs", "--limit", "0", "--format", "json"]).json();
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 6, "three repeats of each of two commands");
    let repeats: Vec<f64> = runs.iter().map(|r| r["params"]["repeat"].as_f64().unwrap()).collect();
    assert_eq!(repeats, [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);

    // n is hyperfine's number of repeats, and the median and mean of `time`
    // are the `median` and `mean` hyperfine itself wrote for each command.
    let count = query_json(&s, "time", "count");
    assert!(count.iter().all(|(_, n)| *n == 3.0), "{count:?}");
    let close = |got: &[(String, f64)], want: [f64; 2]| {
        for ((cmd, g), w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-9, "{cmd}: {g} vs hyperfine's {w}");
        }
    };
    close(&query_json(&s, "time", "median"), [11.81813333352, 12.04923320852]);
    close(&query_json(&s, "time", "mean"), [11.61481411152, 11.55440516752]);
    close(&query_json(&s, "time", "min"), [9.877873458520002, 10.25172425152]);
    // hyperfine's summaries stay one number per command.
    let count = query_json(&s, "mean", "count");
    assert!(count.iter().all(|(_, n)| *n == 1.0), "{count:?}");
}

#[test]
fn claim_evidence_counts_hyperfine_repeats_and_says_where_they_came_from() {
    const REPEATS: &str = "3 repeats per record from hyperfine's `times` (bench.json:3, bench.json:23)";
    let s = hyperfine_project();
    s.write(
        "doc.md",
        "<!-- reckon:claim id=on-time\n     1brc matches lucretiel on time -->\n\
         About the same.\n<!-- /reckon:claim -->\n\n\
         <!-- reckon:claim id=on-mean\n     lucretiel beats 1brc on mean -->\n\
         lucretiel is faster.\n<!-- /reckon:claim -->\n",
    );
    let v = s.test().args(["claims", "doc.md", "--format", "json"]).run().json();
    let evidence = |i: usize| v[i]["claim"]["clauses"][0]["judgement"]["evidence"].clone();
    let on_time = evidence(0);
    assert_eq!((on_time["runs_a"].as_u64(), on_time["runs_b"].as_u64()), (Some(3), Some(3)), "{on_time}");
    assert_eq!(on_time["single_runs"], false);
    assert_eq!(on_time["repeats"], REPEATS);
    // A claim on hyperfine's own summary rests on one number per command,
    // and says where the repeats are.
    let on_mean = evidence(1);
    assert_eq!(on_mean["single_runs"], true, "{on_mean}");
    assert_eq!(
        on_mean["repeats"],
        "each value is hyperfine's summary of up to 3 repeats; the metric `time` holds one per run"
    );
    s.test().args(["claims", "doc.md"]).stdout_has("3 runs each, sweep").stdout_has(&format!("; {REPEATS}")).run();
}

#[test]
fn a_repeat_column_makes_repeats_of_one_point() {
    let s = Sandbox::new();
    s.fixture("gemm/gemm-sep.csv", "gemm.csv");
    s.write("reckon.toml", "series = \"kernel\"\n");
    s.ok(&["ingest", "--label", "sweep=2026-09", "gemm.csv"]);
    // Without `at`: the five repeats of the one 1024³ shape are one point,
    // not runs "at several `repeat` values".
    s.write(
        "doc.md",
        "<!-- reckon:claim id=small\n     cublas beats triton-tiled on latency_us where M = 1024 -->\n\
         cuBLAS wins on small matrices.\n<!-- /reckon:claim -->\n",
    );
    // gemm-sep.csv: cuBLAS 22.34 µs, Triton 27.1 µs (medians of 5).
    s.test()
        .args(["claims", "doc.md"])
        .stdout_has("claim `small` holds")
        .stdout_has("5 runs each")
        .stdout_has("repeats told apart by `repeat` (gemm.csv)")
        .run();
}
