//! `reckon init` in a folder that already holds logs (issue 18, item 4):
//! the reckon.toml it writes names them (`[[source]]`) and proposes
//! `[aliases]` and `[points]` from what they hold — a param's usual short
//! name, a series written with spaces, a metric without its unit — each
//! under a comment saying why, and never a word that fits two names. The
//! logs are read into a database in memory: init writes none. The toml is
//! parsed back, and lint reads with it a sentence that uses a short name.

mod common;

use common::{copy_dir, fixtures, repo, Sandbox};

/// The reckon.toml init wrote, parsed.
fn written(sb: &Sandbox) -> toml::Table {
    toml::from_str(&sb.read("reckon.toml")).expect("init writes a reckon.toml that parses")
}

fn words(toml: &toml::Table, name: &str) -> Vec<String> {
    toml.get("aliases")
        .and_then(|a| a.get(name))
        .and_then(toml::Value::as_array)
        .map_or_else(Vec::new, |a| a.iter().filter_map(toml::Value::as_str).map(str::to_string).collect())
}

/// The statements `lint --all` finds in a document of `plan`, as (status,
/// claim).
fn lint_all(sb: &Sandbox, plan: &str) -> Vec<(String, String)> {
    sb.write("notebooks/results.md", format!("# Results\n\n{plan}"));
    let ran = sb.run(&["lint", "--all", "--format", "json", "notebooks/results.md"]);
    assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
    ran.json()["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["status"].as_str().unwrap_or("").to_string(), s["claim"].as_str().unwrap_or("").to_string()))
        .collect()
}

#[test]
fn init_beside_the_bundled_examples_logs_names_them_and_proposes_what_lint_then_reads() {
    let sb = Sandbox::new();
    copy_dir(&repo().join("notebooks"), &sb.path().join("notebooks"));
    let ran = sb.ok(&["init"]);
    assert!(ran.stderr.contains("into a database in memory, none written"), "{ran:?}");
    assert!(!sb.path().join("db/reckon.sqlite").exists(), "init wrote a database nobody asked for");
    let toml = written(&sb);
    let sources: Vec<&str> = toml["source"].as_array().unwrap().iter().map(|s| s["path"].as_str().unwrap()).collect();
    assert_eq!(sources, ["notebooks/logs/{date}/{config}.jsonl", "notebooks/logs/{date}/{config}.log"]);
    assert_eq!(toml["series"].as_str(), Some("config"));
    assert!(words(&toml, "max_concurrency").contains(&"C".to_string()), "{toml:#?}");
    assert_eq!(words(&toml, "eagle-topk4-v1"), ["eagle topk4 v1"]);
    assert_eq!(words(&toml, "p99_ttft_ms"), ["p99 ttft"]);
    assert_eq!(toml["points"]["saturation"].as_str(), Some("the largest max_concurrency"));
    // `output_throughput` ends in no unit: `output` is no name of it.
    assert!(words(&toml, "output_throughput").is_empty(), "{toml:#?}");
    // Each proposal says why, on the line above it.
    let text = sb.read("reckon.toml");
    assert!(text.contains("# `C` is a usual short name of `max_concurrency`, a param the data sweep (1 to 250)\n"));

    // With what init wrote, lint reads a sentence that uses `C` and a
    // series written with spaces and capitals.
    let sentence = "At C=8, baseline is 1.6x faster than EAGLE topk4 v1 on output throughput.\n";
    let read = lint_all(&sb, sentence);
    assert!(
        read.iter().any(|(status, c)| {
            status == "holds" && c.contains("baseline / eagle-topk4-v1") && c.contains("max_concurrency = 8")
        }),
        "{read:#?}"
    );
    // Without the aliases init proposed, it is not read.
    let bare: Vec<&str> = text.lines().take_while(|l| !l.starts_with("# Proposed")).collect();
    sb.write("reckon.toml", bare.join("\n") + "\n");
    let unread = lint_all(&sb, sentence);
    assert!(unread.iter().all(|(_, c)| !c.contains("max_concurrency = 8")), "{unread:#?}");
    assert!(unread.iter().all(|(status, _)| status != "holds"), "{unread:#?}");
}

#[test]
fn a_short_name_that_fits_two_params_is_said_and_not_proposed() {
    let sb = Sandbox::new();
    for (kernel, scale) in [("kernel_a", 1), ("kernel_b", 2)] {
        let lines: Vec<String> = [1, 2, 4]
            .iter()
            .map(|c| {
                format!(
                    "{{\"client_concurrency\": {c}, \"server_concurrency\": {}, \"latency_ms\": {}.5}}",
                    c * 2,
                    c * scale
                )
            })
            .collect();
        sb.write(&format!("logs/2026-11-01/{kernel}.jsonl"), lines.join("\n") + "\n");
    }
    sb.ok(&["init"]);
    let toml = written(&sb);
    assert!(words(&toml, "client_concurrency").is_empty() && words(&toml, "server_concurrency").is_empty());
    let text = sb.read("reckon.toml");
    assert!(
        text.contains(
            "# `C` would fit `client_concurrency` and `server_concurrency`: not proposed; add it to the one your \
             prose means"
        ),
        "{text}"
    );
    assert_eq!(words(&toml, "kernel_a"), ["kernel a"]);
    assert_eq!(words(&toml, "latency_ms"), ["latency"]);
}

#[test]
fn init_on_corpus_logs_picks_the_series_the_data_have_and_no_alias_inside_a_word() {
    // hyperfine's two files: the commands are the series, not the file names.
    let sb = Sandbox::new();
    copy_dir(&fixtures().join("corpus/hyperfine"), &sb.path().join("bench"));
    sb.ok(&["init"]);
    let toml = written(&sb);
    assert_eq!(toml["series"].as_str(), Some("command"), "{toml:#?}");
    let sources: Vec<&str> = toml["source"].as_array().unwrap().iter().map(|s| s["path"].as_str().unwrap()).collect();
    assert_eq!(sources, ["bench/*.json"]);
    // A command line is no name to write with spaces.
    assert!(toml.get("aliases").is_none(), "{toml:#?}");

    // Google Benchmark's `repetitions` holds `ep` but is no expert
    // parallelism: no `EP` for it.
    let sb = Sandbox::new();
    copy_dir(&fixtures().join("corpus/gbench"), &sb.path().join("bench"));
    sb.ok(&["init"]);
    let toml = written(&sb);
    assert!(words(&toml, "repetitions").is_empty(), "{toml:#?}");
    let text = sb.read("reckon.toml");
    assert!(text.contains("# No log names a `config`: set `series` to the param"), "{text}");
}
