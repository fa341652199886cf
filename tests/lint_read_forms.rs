//! Forms of prose lint reads (issue 18), each on sentences written for it
//! against an invented project: three message brokers (`kestrel`, `osprey`,
//! `heron`) swept over the number of clients, with a p50 latency and a
//! throughput. Each test states a form both true and false of the data, so a
//! reading is checked by its verdict as well as its words.

mod common;

use std::fmt::Write as _;

use common::Sandbox;
use serde_json::Value;

/// p50 latency (ms) and throughput (ops/s) of each broker at 1, 4, 16 and 64
/// clients.
const BROKERS: [(&str, [f64; 4], [f64; 4]); 3] = [
    ("kestrel", [9.0, 7.0, 5.0, 4.0], [100.0, 380.0, 1400.0, 5000.0]),
    ("osprey", [12.0, 12.1, 11.9, 18.0], [101.0, 379.0, 1401.0, 4990.0]),
    ("heron", [5.0, 8.0, 12.0, 20.0], [80.0, 300.0, 1000.0, 3000.0]),
];

const CLIENTS: [u32; 4] = [1, 4, 16, 64];

const CONFIG: &str = r#"series = "broker"
documents = ["plan.md"]

[[source]]
path = "data/{date}/results.csv"

[aliases]
kestrel = ["Kestrel"]
osprey = ["Osprey"]
heron = ["Heron"]
p50_ms = ["p50", "p50 latency"]
ops_per_s = ["throughput"]
clients = ["client", "clients"]

[points]
"saturation" = "the largest clients"

[metrics.p50_ms]
direction = "lower"
margin = 0.05
"#;

/// The brokers' log: three trials a cell, a fraction of a percent apart.
fn log() -> String {
    let mut out = String::from("broker,clients,trial,p50_ms,ops_per_s\n");
    for (broker, p50, ops) in BROKERS {
        for (k, clients) in CLIENTS.iter().enumerate() {
            for (trial, f) in [0.998, 1.0, 1.002].iter().enumerate() {
                writeln!(out, "{broker},{clients},{},{:.4},{:.2}", trial + 1, p50[k] * f, ops[k] * f).unwrap();
            }
        }
    }
    out
}

/// What `lint --all` says of each sentence of a plan made of `sentences`
/// (one paragraph each): the statements, in order.
fn lint(sentences: &[&str]) -> Vec<Value> {
    let sb = Sandbox::new();
    sb.write("reckon.toml", CONFIG);
    sb.write("data/2026-01-10/results.csv", log());
    let plan = sentences.join("\n\n");
    sb.write("plan.md", format!("# Brokers\n\n{plan}\n"));
    let ran = sb.run(&["lint", "--all", "--format", "json", "plan.md"]);
    assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
    ran.json()["statements"].as_array().unwrap().clone()
}

/// The claims read of sentence `n` (0-based) with their statuses.
fn read_as(all: &[Value], n: usize) -> Vec<(String, String)> {
    let line = 3 + 2 * n as u64;
    all.iter()
        .filter(|s| s["line"] == line && s["claim"].is_string())
        .map(|s| (s["claim"].as_str().unwrap().to_string(), s["status"].as_str().unwrap().to_string()))
        .collect()
}

/// Why sentence `n` was left unread, if it was.
fn unread(all: &[Value], n: usize) -> Vec<String> {
    let line = 3 + 2 * n as u64;
    all.iter()
        .filter(|s| s["line"] == line && s["status"] == "unjudged" && s["claim"].is_null())
        .map(|s| s["summary"].as_str().unwrap().to_string())
        .collect()
}

fn pairs(xs: &[(&str, &str)]) -> Vec<(String, String)> {
    xs.iter().map(|(a, b)| ((*a).to_string(), (*b).to_string())).collect()
}

#[test]
fn values_are_read_at_the_points_written_after_them() {
    let all = lint(&[
        "Kestrel's p50 is about 9.0 ms at 1 client and about 4.0 ms at 64 clients.",
        "Kestrel's p50 improves with more clients, from about 9.0 ms at 1 client to about 6.0 ms at 64 clients.",
    ]);
    assert_eq!(
        read_as(&all, 0),
        pairs(&[
            ("kestrel on p50_ms at clients = 1 ≈ 9 ms", "holds"),
            ("kestrel on p50_ms at clients = 64 ≈ 4 ms", "holds")
        ]),
        "{all:#?}"
    );
    // The second value is judged at its own point, where it is wrong.
    assert_eq!(
        read_as(&all, 1),
        pairs(&[
            ("kestrel on p50_ms at clients = 1 ≈ 9 ms", "holds"),
            ("kestrel on p50_ms at clients = 64 ≈ 6 ms", "contradicted")
        ]),
        "{all:#?}"
    );
    // What the clause before them says (`improves`) is said, not dropped.
    assert!(unread(&all, 1).iter().any(|r| r.contains("`improves`")), "{all:#?}");
}

#[test]
fn a_parenthetical_of_values_is_read_at_the_ends_of_its_range() {
    let all = lint(&[
        "Heron's p50 climbs from 1 client to saturation (5.0 ms to 20 ms).",
        "Heron's p50 climbs from 1 client to saturation (5.0 ms to 25 ms).",
        "Osprey's p50 is flat up to 16 clients (12 ms either way).",
    ]);
    assert_eq!(
        read_as(&all, 0),
        pairs(&[
            ("heron on p50_ms at clients = 1 ≈ 5 ms", "holds"),
            ("heron on p50_ms at clients = 64 ≈ 20 ms", "holds")
        ]),
        "{all:#?}"
    );
    assert_eq!(read_as(&all, 1)[1], ("heron on p50_ms at clients = 64 ≈ 25 ms".into(), "contradicted".into()));
    // The words around the values that no form reads are said.
    assert!(unread(&all, 0).iter().any(|r| r.contains("`climbs`")), "{all:#?}");
    assert_eq!(
        read_as(&all, 2),
        pairs(&[
            ("osprey on p50_ms at clients = 1 ≈ 12 ms", "holds"),
            ("osprey on p50_ms at clients = 16 ≈ 12 ms", "holds")
        ]),
        "{all:#?}"
    );
    assert!(unread(&all, 2).iter().any(|r| r.contains("`flat`")), "{all:#?}");
}

#[test]
fn a_comment_after_the_finding_makes_no_plan_of_it() {
    let all = lint(&[
        "Kestrel has lower p50 than Heron at 16 clients, which is what we would expect.",
        "Heron has lower p50 than Kestrel at 16 clients, as one would expect.",
        "We would pick Kestrel at 16 clients, which has lower p50 than Heron.",
    ]);
    assert_eq!(read_as(&all, 0), pairs(&[("kestrel < heron on p50_ms at clients = 16", "holds")]), "{all:#?}");
    assert_eq!(read_as(&all, 1), pairs(&[("heron < kestrel on p50_ms at clients = 16", "contradicted")]), "{all:#?}");
    // A modal in the sentence itself still makes it a plan.
    assert!(all.iter().filter(|s| s["line"] == 7).all(|s| s["status"] == "plan"), "{all:#?}");
}

#[test]
fn a_statement_no_form_reads_is_said_with_the_words_lint_does_not_understand() {
    let all = lint(&["Kestrel's p50 collapses at 64 clients."]);
    assert!(read_as(&all, 0).is_empty(), "{all:#?}");
    assert!(unread(&all, 0).iter().any(|r| r.contains("`collapses`")), "{all:#?}");
}

#[test]
fn a_series_insensitive_to_a_param_is_the_same_at_each_of_its_points() {
    let all = lint(&[
        "Osprey's p50 is insensitive to clients up to 16.",
        "Osprey's p50 is insensitive to the number of clients.",
        "Clients make no measurable difference to Osprey's p50 up to 16 clients.",
    ]);
    // (`≈ 1` within the metric's margin, 5%.)
    let up_to_16 = pairs(&[
        ("osprey on p50_ms at clients = 4 / at clients = 1 ≈ 1 within 5%", "holds"),
        ("osprey on p50_ms at clients = 16 / at clients = 1 ≈ 1 within 5%", "holds"),
    ]);
    assert_eq!(read_as(&all, 0), up_to_16, "{all:#?}");
    // Over every point of the sweep it is not: 18 ms at 64 clients.
    let every = read_as(&all, 1);
    assert_eq!(every.len(), 3, "{all:#?}");
    assert_eq!(
        every[2],
        ("osprey on p50_ms at clients = 64 / at clients = 1 ≈ 1 within 5%".into(), "contradicted".into())
    );
    assert_eq!(read_as(&all, 2), up_to_16, "{all:#?}");
}

#[test]
fn two_series_the_same_are_a_match_and_the_best_or_within_noise_of_it_matches_or_beats_the_others() {
    let all = lint(&[
        "Kestrel and Osprey show no difference in throughput.",
        "Kestrel has the same throughput as Osprey.",
        "Kestrel and Osprey are within noise of each other on throughput.",
        "Heron has the same throughput as Kestrel.",
        "Kestrel is the fastest or within noise of the fastest on throughput at every client count.",
        "Heron is the fastest or within noise of the fastest on throughput at every client count.",
    ]);
    let same = pairs(&[("kestrel matches osprey on ops_per_s for all clients", "holds")]);
    assert_eq!(read_as(&all, 0), same, "{all:#?}");
    assert_eq!(read_as(&all, 1), same, "{all:#?}");
    assert_eq!(read_as(&all, 2), same, "{all:#?}");
    assert_eq!(read_as(&all, 3), pairs(&[("heron matches kestrel on ops_per_s for all clients", "contradicted")]));
    assert_eq!(read_as(&all, 4), pairs(&[("kestrel matches or beats others on ops_per_s for all clients", "holds")]));
    assert_eq!(
        read_as(&all, 5),
        pairs(&[("heron matches or beats others on ops_per_s for all clients", "contradicted")])
    );
}

#[test]
fn a_difference_in_the_metrics_unit_is_a_difference_of_the_two_series() {
    let all = lint(&[
        "At 16 clients Kestrel is 7 ms faster than Heron on p50.",
        "At 16 clients Kestrel saves more than 5 ms per request over Heron on p50.",
        "At 16 clients Kestrel saves more than 9 ms per request over Heron on p50.",
        "At 16 clients Heron's p50 is 7 ms higher than Kestrel's.",
    ]);
    assert_eq!(read_as(&all, 0), pairs(&[("heron - kestrel on p50_ms at clients = 16 ≈ 7", "holds")]), "{all:#?}");
    assert_eq!(read_as(&all, 1), pairs(&[("heron - kestrel on p50_ms at clients = 16 > 5", "holds")]), "{all:#?}");
    assert_eq!(read_as(&all, 2), pairs(&[("heron - kestrel on p50_ms at clients = 16 > 9", "contradicted")]));
    assert_eq!(read_as(&all, 3), pairs(&[("heron - kestrel on p50_ms at clients = 16 ≈ 7", "holds")]), "{all:#?}");
}
