//! The cold trial's findings (trial 5): a `RocksDB` `db_bench` sweep of
//! compaction styles by thread count, leveled and universal as CSV and
//! FIFO as JSON lines, copied (trimmed) into `tests/fixtures/trial5/kv`.

mod common;

use common::Sandbox;
use serde_json::Value;

/// The kv project, ingested.
fn kv() -> Sandbox {
    let sb = Sandbox::new();
    sb.fixture("trial5/kv", "");
    sb.ok(&["ingest"]);
    sb
}

/// The diff's cell of `metric` at `compaction`, `threads`.
fn diff_cell(json: &Value, metric: &str, compaction: &str, threads: &str) -> Value {
    json["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            let cell = c["cell"].as_array().unwrap();
            c["metric"] == metric
                && cell.iter().any(|kv| kv[0] == "compaction" && kv[1] == compaction)
                && cell.iter().any(|kv| kv[0] == "threads" && kv[1] == threads)
        })
        .unwrap_or_else(|| panic!("no cell {metric} {compaction} {threads}: {json}"))
        .clone()
}

#[test]
fn finding_trial5_2_a_median_latency_gets_the_latency_margin_not_the_tails() {
    let sb = kv();
    let json = sb.ok(&["diff", "--format", "json"]).json();
    let p50 = diff_cell(&json, "p50_us", "fifo", "1");
    assert_eq!(p50["margin"], 0.05, "{p50}");
    // Its interval reaches below −5%: not the same within the margin, only
    // within noise.
    assert_eq!(p50["movement"], "within_noise", "{p50}");
    let p99 = diff_cell(&json, "p99_us", "fifo", "1");
    assert_eq!(p99["margin"], 0.1, "{p99}");
    let text = sb.ok(&["diff"]).stdout;
    let row = text.lines().find(|l| l.starts_with("p50_us") && l.contains("compaction=fifo threads=1 ")).unwrap();
    assert!(row.ends_with("within noise"), "{text}");
}

/// A document holding one claim region `id` stating `spec`.
fn claim(id: &str, spec: &str) -> String {
    format!("# Probe\n\n<!-- reckon:claim id={id}\n     {spec} -->\nx\n<!-- /reckon:claim -->\n")
}

#[test]
fn finding_trial5_1_a_rate_named_per_sec_is_a_rate_never_a_time() {
    let sb = kv();
    let c = rusqlite::Connection::open(sb.db()).unwrap();
    let (unit, direction): (Option<String>, String) = c
        .query_row("SELECT unit, direction FROM metric WHERE name = 'ops_per_sec'", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_eq!((unit, direction.as_str()), (None, "higher"));
    let export = sb.ok(&["export"]).stdout;
    let row = export.lines().find(|l| l.contains(",ops_per_sec,")).unwrap();
    // No unit: a count per second reckon has no unit for.
    assert!(row.ends_with(",,higher"), "{row}");

    // A time stated on it is refused, naming the time and the rate.
    sb.write("probe.md", claim("ops-min", "leveled on ops_per_sec at threads = 8 ≈ 6677 min"));
    let ran = sb.run(&["claims", "probe.md"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.contains("probe.md:4:"), "{ran:?}");
    assert!(ran.stderr.contains("`min` is a time, but `ops_per_sec` is a rate"), "{ran:?}");
    // Its own rate, as its name says it, is read in its own unit.
    sb.write("probe.md", claim("ops-rate", "leveled on ops_per_sec at threads = 8 ≈ 400000 ops/s"));
    let ran = sb.ok(&["claims", "probe.md"]);
    assert!(ran.stdout.contains("claim `ops-rate` holds; closest at threads=8: leveled 400292"), "{ran:?}");
    // Its margin is a throughput's.
    let json = sb.ok(&["diff", "--format", "json"]).json();
    assert_eq!(diff_cell(&json, "ops_per_sec", "leveled", "8")["margin"], 0.02);
}

#[test]
fn finding_trial5_1_a_unit_in_reckon_toml_is_one_a_claim_can_write() {
    let sb = kv();
    let toml = sb.read("reckon.toml");
    sb.write("reckon.toml", format!("{toml}\n[metrics.ops_per_sec]\nunit = \"ops/s\"\n"));
    sb.write("probe.md", claim("ops-rate", "leveled on ops_per_sec at threads = 8 ≈ 400000 ops/s"));
    let ran = sb.ok(&["claims", "probe.md"]);
    assert!(ran.stdout.contains("claim `ops-rate` holds"), "{ran:?}");
    assert!(sb.ok(&["export"]).stdout.lines().any(|l| l.contains(",ops_per_sec,") && l.ends_with(",ops/s,higher")));
    // A time on it names both units.
    sb.write("probe.md", claim("ops-min", "leveled on ops_per_sec at threads = 8 ≈ 6677 min"));
    let ran = sb.run(&["claims", "probe.md"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.contains("`min` cannot be converted to `ops/s`"), "{ran:?}");

    // A unit no claim could write is refused at its line.
    let line = toml.lines().count() + 3;
    sb.write("reckon.toml", format!("{toml}\n[metrics.ops_per_sec]\nunit = \"bogus\"\n"));
    let ran = sb.run(&["claims", "probe.md"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.contains(&format!("reckon.toml:{line}:")), "{ran:?}");
    assert!(ran.stderr.contains("unit `bogus` is not one reckon knows"), "{ran:?}");
}

#[test]
fn finding_trial5_3_a_csv_cut_inside_its_last_number_is_refused_not_stored() {
    let sb = Sandbox::new();
    sb.fixture("trial5/kv/reckon.toml", "reckon.toml");
    sb.fixture("trial5/kv/logs/2026-11-27/universal.csv", "logs/2026-11-27/universal.csv");
    // `head -c -2` of the trial's leveled.csv: its last line ends `…,11.3`
    // where the run wrote 11.33.
    sb.fixture("trial5/cut/leveled.csv", "logs/2026-11-27/leveled.csv");
    let ran = sb.run(&["ingest"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    let all = format!("{}{}", ran.stdout, ran.stderr);
    assert!(all.contains("logs/2026-11-27/leveled.csv:16: the file does not end with a newline"), "{ran:?}");
    // None of its runs is stored; the whole file beside it is.
    let c = rusqlite::Connection::open(sb.db()).unwrap();
    let stored = |path: &str| -> i64 {
        c.query_row(
            "SELECT count(*) FROM run JOIN source ON run.source_id = source.id WHERE source.path LIKE ?1",
            [format!("%{path}")],
            |r| r.get(0),
        )
        .unwrap()
    };
    assert_eq!(stored("leveled.csv"), 0);
    assert_eq!(stored("universal.csv"), 15);
    // Ended with a newline, as the run's writer ends it, it goes in.
    let cut = sb.read("logs/2026-11-27/leveled.csv");
    sb.write("logs/2026-11-27/leveled.csv", format!("{cut}\n"));
    sb.ok(&["ingest"]);
    assert_eq!(stored("leveled.csv"), 15);
}
