//! `reckon diff` on a metric whose 0 is a measurement (an error rate: every
//! request succeeded), named for the cold trial's finding. Data invented: a
//! CSV log of two sweeps, three repeats per cell.

use std::fmt::Write as _;

mod common;

use common::Test;

/// Two sweeps of `error_rate` (lower is better, no unit): `rows` are
/// (sweep date, config, c, the cell's three runs).
fn sweeps(rows: &[(&str, &str, u32, [f64; 3])]) -> Test {
    let mut test =
        Test::new().file("reckon.toml", "series = \"config\"\n\n[[source]]\npath = \"logs/{date}/run.csv\"\n");
    for date in ["2026-11-20", "2026-11-29"] {
        let mut csv = String::from("config,c,repeat,error_rate,output_throughput\n");
        for (_, config, c, runs) in rows.iter().filter(|r| r.0 == date) {
            for (n, v) in runs.iter().enumerate() {
                writeln!(csv, "{config},{c},{n},{v},100").expect("writing to a String");
            }
        }
        test = test.file(&format!("logs/{date}/run.csv"), csv);
    }
    test
}

/// The older sweep's error rate was 0 everywhere: each cell was "not
/// compared" and its runs "left out" as "a run whose requests all failed
/// logs 0", exit 0 — a rise from no errors to 4% said nothing. A 0 error
/// rate is a measurement, and with a 0 on a side the cells are compared by
/// their difference.
#[test]
fn finding_diff_an_error_rate_of_0_is_a_measurement_compared_by_difference() {
    let rows = [
        ("2026-11-20", "a", 1, [0.0, 0.0, 0.0]),
        ("2026-11-20", "a", 2, [0.0, 0.0, 0.0]),
        ("2026-11-20", "b", 1, [0.0, 0.0, 0.0]),
        ("2026-11-29", "a", 1, [0.04, 0.05, 0.03]),
        ("2026-11-29", "a", 2, [0.0, 0.0, 0.0]),
        ("2026-11-29", "b", 1, [0.0, 0.01, 0.0]),
    ];
    let ran = sweeps(&rows)
        .args(["diff", "--metric", "error_rate"])
        .stdout_has("2026-11-20 has 3 runs per cell, 2026-11-29 has 3 runs per cell")
        .stdout_has(
            "1 of 3 cells moved beyond noise (0 better, 1 worse); 1 within noise; 1 the same within their margin",
        )
        .stdout_lacks("Not compared")
        .stdout_lacks("Left out")
        .stdout_lacks("requests all failed")
        .run();
    let row = |cell: &str| {
        let found = ran.stdout.lines().find(|l| l.starts_with("error_rate") && l.contains(cell));
        found.unwrap_or_else(|| panic!("no row {cell}: {}", ran.stdout)).to_string()
    };
    // 0 → 0.04 (mean 0.04, sd 0.01 over 3 runs): t(2) 4.303 × 0.01/√3.
    let worse = row("c=1 config=a");
    assert!(worse.contains("+0.04 (difference)") && worse.contains("+0.0151586…+0.0648414"), "{worse}");
    assert!(worse.contains("worse beyond noise"), "{worse}");
    // 0 → one 0.01 in three (median 0, not listed) is the one within
    // noise; 0 → 0 the one the same.
    // JSON says how the cells were compared, with the difference's interval.
    let json = sweeps(&rows).args(["diff", "--metric", "error_rate", "--format", "json"]).run();
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    let cells = v["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 3, "{v}");
    for c in cells {
        assert_eq!(c["compared_by"], "difference", "{c}");
        assert!(c.get("ratio_ci95").is_none() && c["difference_ci95"]["lo"].is_number(), "{c}");
    }
}
