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

/// A table whose metric's runs all lack a param it is laid out by (here the
/// series, its default columns, or a `rows=`/`cols=` another log has)
/// rendered its header alone and exited 0.
#[test]
fn finding_table_without_rows_because_runs_lack_a_param_is_an_error_at_its_line() {
    let study = |table: &str| {
        Test::new()
            .file("reckon.toml", "series = \"config\"\n\n[[source]]\npath = \"logs/*.csv\"\n")
            .file("logs/a.csv", "config,c,output_throughput\na,1,100\nb,1,90\n")
            .file("logs/b.csv", "threads,mean_ttft_ms\n1,5\n2,6\n")
            .file("plan.md", format!("# t\n\n<!-- reckon:table {table} -->\n<!-- /reckon:table -->\n"))
            .args(["check", "plan.md"])
            .status(2)
    };
    study("metric=mean_ttft_ms rows=threads")
        .stderr_has(
            "plan.md:3:1: table region: the table of `mean_ttft_ms` has no row: all 2 of its runs lack `config`",
        )
        .stderr_has("its columns (by default the series")
        .run();
    study("metric=output_throughput rows=c cols=threads")
        .stderr_has("plan.md:3:51: table region: the table of `output_throughput` has no row")
        .stderr_has("which `cols=threads` lays it out by; give `cols=` a param its runs have")
        .run();
    study("metric=output_throughput rows=threads")
        .stderr_has("plan.md:3:44: table region: the table of `output_throughput` has no row")
        .stderr_has("`rows=threads` lays it out by; give `rows=` a param")
        .run();
}

/// Point values that read as numbers with words after them (`1k`, `10k`,
/// `2 MB`) sorted as text: 10k before 1k and 2k.
#[test]
fn finding_table_rows_of_numbers_with_units_sort_numerically() {
    let plan = "# t\n\n<!-- reckon:table metric=output_throughput rows=size -->\n<!-- /reckon:table -->\n";
    let ran = Test::new()
        .file("reckon.toml", "series = \"config\"\n\n[[source]]\npath = \"logs/*.csv\"\n")
        .file("logs/a.csv", "config,size,output_throughput\na,10k,3\na,1k,1\na,2k,2\na,BM_x/10,5\na,BM_x/2,4\n")
        .file("plan.md", plan)
        .args(["update", "plan.md"])
        .run();
    let rows: Vec<&str> = ran.stdout.lines().filter_map(|l| l.strip_prefix("+| ")?.split(" |").next()).collect();
    assert_eq!(rows, ["size", "1k", "2k", "10k", "BM_x/2", "BM_x/10"], "{}", ran.stdout);
}

/// A claim in `MB/s` on a metric kept in B/s (gbench's `bytes_per_second`,
/// nvbench's `global_mem_bw`) was refused: the byte rates are units.
#[test]
fn finding_claim_units_accept_byte_rates() {
    let plan = "# t\n\n<!-- reckon:claim id=bw a on bandwidth at c = 1 ≈ 5000 MB/s within 5% -->\nfast\n\
                <!-- /reckon:claim -->\n\n<!-- reckon:claim id=gb a on bandwidth at c = 1 ≈ 5 GB/s -->\nfast\n\
                <!-- /reckon:claim -->\n\n<!-- reckon:claim id=kib a on bandwidth at c = 1 > 4000000 KiB/s -->\nfast\n\
                <!-- /reckon:claim -->\n";
    Test::new()
        .file(
            "reckon.toml",
            "series = \"config\"\n\n[[source]]\npath = \"logs/*.csv\"\n\n[metrics.bandwidth]\nunit = \"B/s\"\n",
        )
        .file("logs/a.csv", "config,c,repeat,bandwidth\na,1,0,5.0e9\na,1,1,5.05e9\na,1,2,4.95e9\n")
        .file("plan.md", plan)
        .args(["claims", "plan.md"])
        .stdout_has("claim `bw` holds")
        .stdout_has("claim `gb` holds")
        .stdout_has("claim `kib` holds")
        .run();
}
