//! `reckon diff`: what moved between two sweeps, checked against values
//! computed independently from the raw logs with scipy
//! (`tests/fixtures/reference/sweep_diff.py`, whose output is quoted below),
//! and the `diff` region kind.

use std::fmt::Write as _;

mod common;
use common::Sandbox;
use serde_json::Value;

fn scenario() -> Sandbox {
    let s = Sandbox::with_scenario();
    s.ok(&["ingest", "-q", "logs/{date}/{config}.jsonl", "logs/{date}/{config}.log"]);
    s
}

fn cell<'a>(json: &'a Value, config: &str, c: &str) -> &'a Value {
    json["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| {
            let cell = m["cell"].as_array().unwrap();
            cell.iter().any(|kv| kv[0] == "config" && kv[1] == config)
                && cell.iter().any(|kv| kv[0] == "max_concurrency" && kv[1] == c)
        })
        .unwrap_or_else(|| panic!("no cell {config} {c}"))
}

fn close(a: &Value, b: f64, tol: f64) {
    let a = a.as_f64().unwrap();
    assert!((a - b).abs() <= tol, "{a} vs {b}");
}

#[test]
fn scenario_cells_match_the_scipy_reference() {
    let s = scenario();
    let out = s.ok(&["diff", "--metric", "output_throughput", "--format", "json"]).stdout;
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["from"], "2026-11-20");
    assert_eq!(json["to"], "2026-11-29");
    assert_eq!(json["by"], serde_json::json!(["config", "max_concurrency"]));
    // python3 tests/fixtures/reference/sweep_diff.py:
    // ('baseline', 30): change +7.42% ratio 95% [1.05855, 1.08911] beyond noise True
    // ('baseline', 250): change -5.16% ratio 95% [0.93573, 0.96115] beyond noise True
    // ('eagle-topk4-v1', 100): change +5.18% ratio 95% [1.03599, 1.06893] beyond noise True
    // ('baseline', 8): change +0.78% ratio 95% [0.99340, 1.02318] beyond noise False
    let expected = [
        ("baseline", "30", 0.0742, 1.05855, 1.08911, "better"),
        ("baseline", "250", -0.0516, 0.93573, 0.96115, "worse"),
        ("eagle-topk4-v1", "100", 0.0518, 1.03599, 1.06893, "better"),
        ("baseline", "8", 0.0078, 0.99340, 1.02318, "within_noise"),
    ];
    for (config, c, change, lo, hi, movement) in expected {
        let m = cell(&json, config, c);
        close(&m["change"], change, 5e-5);
        close(&m["ratio_ci95"]["lo"], lo, 5e-5);
        close(&m["ratio_ci95"]["hi"], hi, 5e-5);
        assert_eq!(m["movement"], movement, "{config} {c}: {m}");
        assert_eq!(m["from"]["runs"], 1);
        assert_eq!(m["to"]["runs"], 3);
        assert_eq!(m["single_run"], true);
    }
    // Beyond noise first, then by size of the effect.
    let cells = json["cells"].as_array().unwrap();
    let beyond: Vec<bool> = cells.iter().map(|m| m["movement"] == "better" || m["movement"] == "worse").collect();
    assert!(beyond.windows(2).all(|w| w[0] >= w[1]), "moved cells come first");
    assert_eq!(json["only_to"], 11, "eagle-topk1-v2 is only in the new sweep");
}

#[test]
fn table_says_runs_per_side_and_single_runs() {
    let s = scenario();
    let out = s.ok(&["diff", "--metric", "output_throughput"]).stdout;
    assert!(out.contains("2026-11-20 has single runs (1 run per cell), 2026-11-29 has 3 runs per cell"), "{out}");
    assert!(out.contains("11 of 22 cells moved beyond noise"), "{out}");
    let row = out.lines().find(|l| l.contains("config=baseline max_concurrency=30 ")).unwrap();
    for part in ["641.8", "689.4", "+7.4%", "+5.9%…+8.9%", "1 vs 3", "better beyond noise¹"] {
        assert!(row.contains(part), "{part} in {row}");
    }
    // --only-moved drops the cells within noise.
    let only = s.ok(&["diff", "--metric", "output_throughput", "--only-moved"]).stdout;
    assert!(!only.contains("config=baseline max_concurrency=8 "), "{only}");
    assert!(only.contains("config=baseline max_concurrency=250 "), "{only}");
    // Markdown: a table with the moved verdicts in bold.
    let md = s.ok(&["diff", "--metric", "output_throughput", "--format", "markdown"]).stdout;
    assert!(md.contains("| metric | cell | 2026-11-20 | 2026-11-29 |"), "{md}");
    assert!(md.contains("**worse beyond noise¹**"), "{md}");
}

#[test]
fn three_runs_a_side_use_welch_as_scipy_does() {
    let s = Sandbox::new();
    let mut a = String::from("series,size,throughput\n");
    let mut b = String::from("series,size,throughput\n");
    for (series, before, after) in
        [("fast", [100.0, 102.0, 98.0], [110.0, 111.0, 109.0]), ("slow", [50.0, 51.0, 49.0], [50.5, 49.5, 50.2])]
    {
        for v in before {
            let _ = writeln!(a, "{series},64,{v}");
        }
        for v in after {
            let _ = writeln!(b, "{series},64,{v}");
        }
    }
    s.write("logs/2026-01-05/run.csv", a);
    s.write("logs/2026-01-12/run.csv", b);
    s.ok(&["ingest", "-q", "logs/{date}/run.csv"]);
    let out = s.ok(&["diff", "--metric", "throughput", "--format", "json"]).stdout;
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["by"], serde_json::json!(["series"]), "size is the same everywhere, date tells sweeps apart");
    let find = |name: &str| json["cells"].as_array().unwrap().iter().find(|m| m["cell"][0][1] == name).unwrap().clone();
    // python3 tests/fixtures/reference/sweep_diff.py:
    // synthetic fast: df 2.7924 ratio 95% [1.05474, 1.14745]
    // synthetic slow: df 2.9857 ratio 95% [0.96079, 1.04379]
    let fast = find("fast");
    close(&fast["ratio_ci95"]["lo"], 1.05474, 5e-5);
    close(&fast["ratio_ci95"]["hi"], 1.14745, 5e-5);
    assert_eq!(fast["movement"], "better");
    assert_eq!(fast["single_run"], false);
    let slow = find("slow");
    close(&slow["ratio_ci95"]["lo"], 0.96079, 5e-5);
    close(&slow["ratio_ci95"]["hi"], 1.04379, 5e-5);
    assert_eq!(slow["movement"], "within_noise");
    let text = s.ok(&["diff", "--metric", "throughput"]).stdout;
    assert!(text.contains("2026-01-05 has 3 runs per cell, 2026-01-12 has 3 runs per cell"), "{text}");
    assert!(!text.contains('¹'), "no single runs here: {text}");
}

#[test]
fn claims_whose_verdict_changed_are_listed() {
    let s = scenario();
    std::fs::copy(common::repo().join("notebooks/eagle-fast-verify.md"), s.path().join("plan.md")).unwrap();
    let out = s.ok(&["diff", "--metric", "output_throughput", "plan.md"]).stdout;
    let claims = &out[out.find("Claims whose verdict changed from 2026-11-20 to 2026-11-29").expect(&out)..];
    assert!(claims.contains("claim `throughput-baseline-wins`: holds → contradicted"), "{claims}");
    assert!(!claims.contains("`gap-at-c8`"), "a verdict that did not change is not listed: {claims}");
}

#[test]
fn bad_sweeps_are_refused_with_the_known_ones() {
    let s = scenario();
    let r = s.run(&["diff", "--from", "2026-01-01"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("no runs in sweep `2026-01-01`"), "{r:?}");
    assert!(r.stderr.contains("2026-11-20, 2026-11-29"), "{r:?}");
    let r = s.run(&["diff", "--to", "2026-11-20"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("no sweep before 2026-11-20"), "{r:?}");
}

#[test]
fn diff_region_is_a_living_section() {
    let s = scenario();
    s.write(
        "plan.md",
        "# Plan\n\n<!-- reckon:diff metric=output_throughput only=moved digits=1 -->\n<!-- /reckon:diff -->\n\nTail.\n",
    );
    s.ok(&["update", "--write", "--no-ingest", "plan.md"]);
    let doc = s.read("plan.md");
    assert!(doc.contains("2026-11-20 → 2026-11-29"), "{doc}");
    assert!(doc.contains("| output_throughput | config=baseline max_concurrency=250 | 757.2 | 718.1 |"), "{doc}");
    assert!(!doc.contains("max_concurrency=8 |"), "only=moved: {doc}");
    assert_eq!(s.run(&["check", "--no-ingest", "plan.md"]).code, 0, "current after update --write");
    s.write("plan.md", "<!-- reckon:diff from=1999-01-01 -->\n<!-- /reckon:diff -->\n");
    let r = s.run(&["check", "--no-ingest", "plan.md"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("plan.md:1:") && r.stderr.contains("no runs in sweep `1999-01-01`"), "{r:?}");
}

/// A cache study: a CSV sweep over policy × cache size (three repeats), a
/// warm-up CSV that records hit rate per policy only, and hyperfine timings
/// of the trace replay per policy. Only LFU at 512 MB moves (+12%).
fn cache_study() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"policy\"\n\n[metrics.hit_rate]\ndirection = \"higher\"\nmargin = 0.02\n");
    for (sweep, lfu_512, warm_rate) in [("2026-03-02", 0.66, 0.300), ("2026-03-16", 0.74, 0.301)] {
        let mut csv = String::from("policy,cache_mb,repeat,hit_rate\n");
        let mut warm = String::from("policy,repeat,hit_rate\n");
        for (policy, rates) in [("lru", [0.40, 0.55, 0.70]), ("lfu", [0.42, 0.58, lfu_512])] {
            for (mb, rate) in [128, 256, 512].iter().zip(rates) {
                for (rep, jitter) in [(1, 0.998), (2, 1.0), (3, 1.002)] {
                    let _ = writeln!(csv, "{policy},{mb},{rep},{:.4}", rate * jitter);
                }
            }
            for (rep, jitter) in [(1, 0.999), (2, 1.0), (3, 1.001)] {
                let _ = writeln!(warm, "{policy},{rep},{:.4}", warm_rate * jitter);
            }
        }
        s.write(&format!("logs/{sweep}/hits.csv"), csv);
        s.write(&format!("logs/{sweep}/warm.csv"), warm);
        let result = |policy: &str, t: f64| {
            format!(
                r#"{{"command": "replay --policy {policy}", "mean": {t}, "stddev": 0.01, "median": {t}, "user": {t},
                "system": 0.01, "min": {lo}, "max": {hi}, "times": [{lo}, {t}, {hi}], "exit_codes": [0, 0, 0],
                "parameters": {{"policy": "{policy}"}}}}"#,
                lo = t - 0.01,
                hi = t + 0.01
            )
        };
        let replay = format!(r#"{{"results": [{}, {}]}}"#, result("lru", 2.10), result("lfu", 2.30));
        s.write(&format!("logs/{sweep}/replay.json"), replay);
    }
    s.ok(&["ingest", "-q", "logs/{date}/hits.csv", "logs/{date}/warm.csv", "logs/{date}/replay.json"]);
    s
}

#[test]
fn cells_keep_the_params_of_a_sweep_that_another_format_lacks() {
    let s = cache_study();
    // The replay timings (hyperfine) know only `policy`; the hit rates are
    // still told apart by cache size, so the one cell that moved shows.
    let all: Value = serde_json::from_str(&s.ok(&["diff", "--format", "json"]).stdout).unwrap();
    assert_eq!(all["by_metric"]["hit_rate"], serde_json::json!(["cache_mb", "policy"]), "{}", all["by_metric"]);
    assert!(all["by_metric"]["time"].as_array().unwrap().iter().all(|p| p != "cache_mb"), "{}", all["by_metric"]);
    let moved: Vec<&Value> = all["cells"].as_array().unwrap().iter().filter(|c| c["movement"] == "better").collect();
    assert_eq!(moved.len(), 1, "{moved:?}");
    assert_eq!(moved[0]["metric"], "hit_rate");
    assert_eq!(moved[0]["cell"], serde_json::json!([["cache_mb", "512"], ["policy", "lfu"]]));
    close(&moved[0]["change"], 0.74 / 0.66 - 1.0, 5e-3);

    // The warm-up runs record hit rate without a cache size: never pooled
    // with the sized runs, they are cells of their own, and the diff says so.
    let hits: Value =
        serde_json::from_str(&s.ok(&["diff", "--metric", "hit_rate", "--format", "json"]).stdout).unwrap();
    let cells = hits["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 8, "6 sized cells and 2 warm-up cells: {cells:?}");
    let warm: Vec<&Value> = cells.iter().filter(|c| c["cell"].as_array().unwrap().len() == 1).collect();
    assert_eq!(warm.len(), 2, "{cells:?}");
    assert!(warm.iter().all(|c| c["from"]["runs"] == 3 && (c["from"]["value"].as_f64().unwrap() - 0.3).abs() < 1e-9));
    assert_eq!(hits["unkeyed"], serde_json::json!([{"metric": "hit_rate", "params": ["cache_mb"], "runs": 12}]));
    let text = s.ok(&["diff", "--metric", "hit_rate", "--only-moved"]).stdout;
    assert!(text.contains("cells by cache_mb, policy:"), "{text}");
    assert!(text.contains("12 hit_rate run(s) lack cache_mb"), "{text}");
    assert!(text.contains("1 of 8 cells moved beyond noise"), "{text}");
    let text = s.ok(&["diff"]).stdout;
    assert!(text.contains("cache_mb, policy for hit_rate;"), "each metric's key is said: {text}");
}
