//! False answers the sixth cold trial (a researcher sweeping compiler
//! flags over a few programs) found, each on invented data written as real
//! log files and named for its finding.

mod common;

use common::claims::{judged, verdict_of};
use common::Sandbox;
use std::fmt::Write as _;

/// Runs of `cfg` at `p = 1` with three repeats around `time_s`.
fn log(time_s: f64) -> String {
    let mut out = String::from("p,repeat,time_s\n");
    for (repeat, j) in [(1, -0.01), (2, 0.0), (3, 0.01)] {
        let _ = writeln!(out, "1,{repeat},{}", time_s * (1.0 + j));
    }
    out
}

/// Finding 3: under `[claims] supersede = "comparison"` a comparison reads
/// the newest sweep that holds both sides, and its evidence named the logs
/// of every sweep of both cells (`logs/2026-11-10/…` beside the 11-17 ones
/// it compared). It names the logs of the sweep compared, and no other.
#[test]
fn the_evidence_of_a_comparison_names_the_logs_of_the_sweep_it_compared() {
    let s = Sandbox::new();
    s.write(
        "reckon.toml",
        "series = \"cfg\"\n\n[claims]\nsupersede = \"comparison\"\n\n[[source]]\npath = \"logs/{date}/{cfg}.csv\"\n",
    );
    for (date, a, b) in [("2026-11-10", 1.0, 2.0), ("2026-11-17", 1.1, 2.1)] {
        s.write(&format!("logs/{date}/a.csv"), log(a));
        s.write(&format!("logs/{date}/b.csv"), log(b));
    }
    // `a` alone re-run: the comparison stays on 2026-11-17.
    s.write("logs/2026-11-24/a.csv", log(1.2));
    s.ok(&["ingest"]);
    let got = judged(&s, &[("faster", "a < b on time_s at p = 1")]);
    let faster = verdict_of(&got, "faster");
    assert_eq!(faster.verdict, "holds", "{got:?}");
    assert!(faster.summary.contains("sweep 2026-11-17"), "{got:?}");
    assert!(faster.summary.contains("logs/2026-11-17/a.csv"), "{got:?}");
    for other in ["logs/2026-11-10/", "logs/2026-11-24/a.csv:"] {
        assert!(!faster.summary.contains(other), "names {other}, a sweep it did not compare: {got:?}");
    }
}
