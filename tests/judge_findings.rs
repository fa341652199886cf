//! Small silent wrongs the cold trials found in `diff` and in table
//! regions, each named for its finding.

use std::fmt::Write as _;

mod common;

use common::Test;

/// Two sweeps of a CSV log: `rows` are (sweep date, config, c,
/// `output_throughput`).
fn sweeps(rows: &[(&str, &str, u32, f64)]) -> Test {
    let mut test =
        Test::new().file("reckon.toml", "series = \"config\"\n\n[[source]]\npath = \"logs/{date}/run.csv\"\n");
    for date in ["2026-11-20", "2026-11-29"] {
        let mut csv = String::from("config,c,repeat,output_throughput\n");
        for (n, (_, config, c, tput)) in rows.iter().filter(|r| r.0 == date).enumerate() {
            writeln!(csv, "{config},{c},{n},{tput}").expect("writing to a String");
        }
        test = test.file(&format!("logs/{date}/run.csv"), csv);
    }
    test
}

/// `sweep_diff` skipped a cell with a 0 in it without a word: a failed run's
/// 0 has no ratio, so the comparison failed and the cell vanished from the
/// diff (and from its counts), exit 0.
#[test]
fn finding_diff_a_cell_with_a_value_of_0_is_said_never_skipped() {
    let mut rows = Vec::new();
    for v in [100.0, 101.0, 99.0] {
        rows.push(("2026-11-20", "a", 1, v));
        rows.push(("2026-11-20", "a", 2, v));
        rows.push(("2026-11-20", "b", 1, v / 2.0));
        rows.push(("2026-11-29", "b", 1, v / 2.0));
    }
    // At c=1 every new run failed; at c=2 one of three did.
    for v in [0.0, 0.0, 0.0] {
        rows.push(("2026-11-29", "a", 1, v));
    }
    for v in [0.0, 120.0, 121.0] {
        rows.push(("2026-11-29", "a", 2, v));
    }
    sweeps(&rows)
        .args(["diff", "--metric", "output_throughput"])
        .stdout_has("1 of 2 cells moved beyond noise (1 better, 0 worse)")
        .stdout_has("c=2 config=a")
        .stdout_has("3 vs 2")
        .stdout_has("Not compared: output_throughput at c=1 config=a: no run of 2026-11-29 logged a measurement")
        .stdout_has("Left out: 3 of 3 runs of output_throughput at c=1 config=a in 2026-11-29 logged 0 (not a")
        .stdout_has("; 1 of 3 runs of output_throughput at c=2 config=a in 2026-11-29 logged 0 (not a measurement")
        .run();
}

/// `diff` on single values with no repeats anywhere printed a zero-width
/// interval (+5.0%…+5.0%) and called it "within noise": there is no noise
/// to measure, and it says so.
#[test]
fn finding_diff_single_values_have_no_spread_never_within_noise() {
    let ran = sweeps(&[
        ("2026-11-20", "a", 1, 100.0),
        ("2026-11-29", "a", 1, 150.0),
        ("2026-11-20", "b", 1, 90.0),
        ("2026-11-29", "b", 1, 91.0),
    ])
    .args(["diff", "--metric", "output_throughput"])
    .stdout_has("0 within noise; 0 the same within their margin; 2 of single runs with no spread to judge by")
    .stdout_lacks("¹")
    .stdout_has("none (no spread)")
    .stdout_has("no spread to judge (single runs)")
    .run();
    let rows: Vec<&str> = ran.stdout.lines().filter(|l| l.starts_with("output_throughput")).collect();
    assert_eq!(rows.len(), 2, "{}", ran.stdout);
    for row in rows {
        assert!(!row.contains("within noise") && !row.contains('…'), "{row}");
    }
}
