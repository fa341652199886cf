//! Set-up a newcomer can do (issue 18, item 4): a sentence lint cannot
//! read because it names something reckon.toml does not know says which
//! `[aliases]` or `[points]` entry would read it, ready to paste; plain
//! `lint` says how many such sentences there are. Real fixtures: the
//! scenario's plan without the alias of `C`, and the cold set's storage
//! plan without its aliases.

mod common;

use common::{copy_dir, fixtures, Sandbox};
use serde_json::Value;

const PLAN: &str = "eagle-fast-verify.md";

/// The scenario's project with reckon.toml's lines starting with `drop`
/// left out.
fn scenario_without(drop: &str) -> Sandbox {
    let sb = Sandbox::with_scenario();
    copy_dir(&fixtures().join("lint-scenario"), sb.path());
    let toml = sb.read("reckon.toml");
    let kept: Vec<&str> = toml.lines().filter(|l| !l.starts_with(drop)).collect();
    sb.write("reckon.toml", kept.join("\n") + "\n");
    sb
}

fn statements(sb: &Sandbox, doc: &str) -> Vec<Value> {
    let ran = sb.run(&["lint", "--all", "--no-ingest", "--format", "json", doc]);
    assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
    ran.json()["statements"].as_array().unwrap().clone()
}

/// reckon.toml with each proposed line pasted under its table (an alias's
/// line replacing the one of its name, if any).
fn pasted(toml: &str, lines: &[String]) -> String {
    let mut out: Vec<String> = toml.lines().map(str::to_string).collect();
    let mut table = String::new();
    for line in lines {
        if line.starts_with('[') {
            table.clone_from(line);
            if !out.contains(line) {
                out.push(line.clone());
            }
            continue;
        }
        let key = line.split(" = ").next().unwrap();
        out.retain(|l| !l.starts_with(&format!("{key} = ")));
        let at = out.iter().position(|l| *l == table).unwrap() + 1;
        out.insert(at, line.clone());
    }
    out.join("\n") + "\n"
}

/// Without `max_concurrency = ["C", …]`, `by C=8 baseline is already 1.6x
/// ahead` was read as a ratio at every concurrency and reported
/// contradicted (at C=1, where nobody said it); the plateau `from C=50 on`
/// lost its range. Neither is read now: each says the alias that would
/// read it, and pasted, the scenario reads as it does with its own
/// reckon.toml.
#[test]
fn an_unknown_short_name_is_not_read_and_the_alias_that_reads_it_is_proposed() {
    let sb = scenario_without("max_concurrency = ");
    sb.ok(&["ingest"]);
    let plain = sb.run(&["lint", "--no-ingest", PLAN]);
    assert!(
        plain.stdout.contains(
            "reckon lint: 2 sentence(s) name things reckon.toml does not know; `reckon lint --all` shows the aliases \
             that would read them\n"
        ),
        "{plain:?}"
    );
    let all = statements(&sb, PLAN);
    let problems: Vec<&Value> = all.iter().filter(|s| s["problem"] == true).collect();
    assert!(problems.iter().all(|s| !s["sentence"].as_str().unwrap().contains("C=")), "{problems:#?}");
    let unknown: Vec<&Value> = all.iter().filter(|s| s["setup"].is_object()).collect();
    assert_eq!(unknown.len(), 2, "{unknown:#?}");
    let gap = unknown.iter().find(|s| s["sentence"].as_str().unwrap().contains("by C=8")).unwrap();
    assert_eq!(gap["status"], "unjudged");
    let toml: Vec<String> =
        gap["setup"]["toml"].as_array().unwrap().iter().map(|l| l.as_str().unwrap().to_string()).collect();
    assert_eq!(toml[0], "[aliases]");
    assert!(toml[1].starts_with("max_concurrency = [\"C\"]   # `C` is the usual short name of `max_concurrency`"));
    assert_eq!(
        gap["setup"]["reads_as"][0],
        "baseline / eagle-topk4-v1 on output_throughput at max_concurrency = 8 ≈ 1.6 within 3.2%"
    );
    let human = sb.run(&["lint", "--all", "--no-ingest", PLAN]);
    assert!(human.stdout.contains("  reckon.toml reads it with:\n    [aliases]\n    max_concurrency = [\"C\"]   # "));

    // Pasted: the three conclusions the scenario overturns, and no more
    // unknown names.
    sb.write("reckon.toml", pasted(&sb.read("reckon.toml"), &toml));
    let all = statements(&sb, PLAN);
    assert_eq!(all.iter().filter(|s| s["problem"] == true).count(), 3, "{all:#?}");
    assert!(all.iter().all(|s| s["setup"].is_null()), "{all:#?}");
    let gap = all.iter().find(|s| s["sentence"].as_str().unwrap().contains("by C=8")).unwrap();
    assert_eq!(gap["claim"], "baseline / eagle-topk4-v1 on output_throughput at max_concurrency = 8 ≈ 1.6 within 3.2%");
}

/// The cold set's storage plan without its `[aliases]`: `direct I/O` is the
/// series `direct io` with a slash, `p99` the metric `p99_ms` without its
/// unit. Each proposal is one the data support, and pasting them reads the
/// sentences.
#[test]
fn a_series_spelt_otherwise_and_a_metric_without_its_unit_are_proposed() {
    let sb = Sandbox::new();
    copy_dir(&fixtures().join("lint-cold/storage"), sb.path());
    let toml = sb.read("reckon.toml");
    let (head, rest) = toml.split_once("[aliases]").unwrap();
    let tail = rest.split_once("\n[").map_or(String::new(), |(_, t)| format!("\n[{t}"));
    sb.write("reckon.toml", format!("{head}{tail}"));
    sb.ok(&["ingest"]);
    let all = statements(&sb, "plan.md");
    let mut lines: Vec<String> = Vec::new();
    for s in all.iter().filter(|s| s["setup"].is_object()) {
        for l in s["setup"]["toml"].as_array().unwrap() {
            let l = l.as_str().unwrap().to_string();
            if !lines.contains(&l) {
                lines.push(l);
            }
        }
    }
    let direct = lines.iter().find(|l| l.starts_with("\"direct io\" = ")).unwrap();
    assert!(direct.starts_with("\"direct io\" = [\"direct I/O\"]   # `direct I/O` spells `direct io`"), "{direct}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("p99_ms = [\"p99\"]   # `p99` is the metric `p99_ms` without its unit")));
    // Only names of the data: every proposed alias names a series, metric
    // or param the storage data hold.
    let known = ["baseline", "\"group commit\"", "\"direct io\"", "threads", "value_bytes"];
    let metrics = ["throughput_qps", "mean_latency_ms", "p99_ms"];
    for l in lines.iter().filter(|l| !l.starts_with('[')) {
        let key = l.split(" = ").next().unwrap();
        assert!(known.contains(&key) || metrics.contains(&key), "{l}");
    }
    let unread = all.iter().filter(|s| s["setup"].is_object()).count();
    sb.write("reckon.toml", pasted(&format!("{head}{tail}"), &lines));
    let after = statements(&sb, "plan.md");
    assert!(after.iter().filter(|s| s["setup"].is_object()).count() < unread, "{after:#?}");
    for s in all.iter().filter(|s| s["setup"].is_object()) {
        let now: Vec<&Value> = after.iter().filter(|a| a["sentence"] == s["sentence"]).collect();
        assert!(now.iter().any(|a| a["claim"].is_string()), "{s:#}\n{now:#?}");
    }
}
