//! The data outside reckon (issue 23, item 1): `reckon export` as tidy rows,
//! `--newest` keeping what cells use, and the README's Python recipe over
//! the database getting reckon's numbers.

mod common;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::{Command, Stdio};

use common::Sandbox;

const DOC: &str = "notebooks/eagle-fast-verify.md";

/// The example's table once regenerated from both sweeps: (config,
/// `max_concurrency`) → the number it shows, as written.
fn table(s: &Sandbox) -> BTreeMap<(String, String), String> {
    let r = s.run(&["update", "--write", DOC]);
    assert!(r.code <= 1, "{r:?}");
    let text = s.read(DOC);
    let start = text.find("<!-- reckon:table metric=output_throughput").expect("the example's table");
    let end = start + text[start..].find("<!-- /reckon:table").unwrap();
    let rows: Vec<Vec<String>> = text[start..end]
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .map(|l| l.trim_matches('|').split('|').map(|c| c.replace(['*', '≈'], "").trim().to_string()).collect())
        .collect();
    let (header, body) = rows.split_first().unwrap();
    let mut cells = BTreeMap::new();
    for row in body {
        for (config, shown) in header.iter().zip(row).skip(1) {
            cells.insert((config.clone(), row[0].clone()), shown.clone());
        }
    }
    cells
}

/// The medians of an export's `output_throughput` rows per (config,
/// `max_concurrency`), to the table's one digit.
fn medians(csv_text: &str) -> BTreeMap<(String, String), String> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));
    let (config, c, metric, value) = (at("config"), at("max_concurrency"), at("metric"), at("value"));
    let mut cells: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
    for rec in reader.records() {
        let rec = rec.unwrap();
        assert_eq!(&rec[metric], "output_throughput");
        cells.entry((rec[config].to_string(), rec[c].to_string())).or_default().push(rec[value].parse().unwrap());
    }
    cells
        .into_iter()
        .map(|(k, mut v)| {
            v.sort_by(f64::total_cmp);
            let n = v.len();
            let median = if n % 2 == 1 { v[n / 2] } else { f64::midpoint(v[n / 2 - 1], v[n / 2]) };
            (k, format!("{median:.1}"))
        })
        .collect()
}

#[test]
fn export_csv_newest_reproduces_every_number_of_the_example_table() {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    let table = table(&s);
    assert_eq!(table.len(), 33, "3 configs × 11 concurrencies: {table:?}");
    let newest = s.ok(&["export", "--format", "csv", "--newest", "--metric", "tok/s"]).stdout;
    assert_eq!(medians(&newest), table, "the newest sweep per cell, as the table reads it");
    // Without --newest, every sweep: the medians of the superseded runs mixed in differ.
    let every = s.ok(&["export", "--format", "csv", "--metric", "output_throughput"]).stdout;
    let naive = medians(&every);
    let differ = naive.iter().filter(|(k, v)| table.get(*k) != Some(*v)).count();
    assert!(differ > 0, "the older sweep changes some cells when pooled");
    assert_eq!(naive[&("baseline".to_string(), "1".to_string())], "92.9");
    assert_eq!(table[&("baseline".to_string(), "1".to_string())], "92.7");
}

#[test]
fn export_rows_are_tidy_with_their_place_unit_and_direction() {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    s.ok(&["ingest", "-q"]);
    let csv_text = s.ok(&["export", "--where", "config = baseline and max_concurrency = 1"]).stdout;
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(header[..6], ["run", "source", "line", "time", "time_origin", "sweep"]);
    assert_eq!(header[header.len() - 4..], ["metric", "value", "unit", "direction"]);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let tput: Vec<&csv::StringRecord> = rows.iter().filter(|r| &r[header.len() - 4] == "output_throughput").collect();
    assert_eq!(tput.len(), 4, "one run on 2026-11-20, three on 2026-11-29");
    assert!(tput.iter().all(|r| &r[header.len() - 2] == "tok/s" && &r[header.len() - 1] == "higher"));
    assert!(tput.iter().all(|r| r[1].starts_with("notebooks/logs/") && r[2].parse::<u64>().unwrap() >= 1));

    let lines = s.ok(&["export", "--format", "jsonl", "--newest", "--metric", "output_throughput"]).stdout;
    let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(first["metric"], "output_throughput");
    assert_eq!(first["sweep"], "2026-11-29");
    assert!(first["params"]["max_concurrency"].is_number(), "{first}");
    assert_eq!(lines.lines().count(), 99, "33 cells × 3 runs of the newest sweep");
    // Names are checked as everywhere.
    let r = s.run(&["export", "--metric", "throughputt"]);
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn the_readme_python_recipe_gets_reckons_numbers() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: python3 is not on PATH, so the README's recipe cannot run here");
        return;
    }
    let readme = std::fs::read_to_string(common::repo().join("README.md")).unwrap();
    let start = readme.find("```python\nimport sqlite3").expect("the README's Python recipe") + "```python\n".len();
    let recipe = &readme[start..start + readme[start..].find("```").unwrap()];
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    s.ok(&["ingest", "-q"]);
    let mut child = Command::new("python3")
        .args(["-", "db/reckon.sqlite"])
        .current_dir(s.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(recipe.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let python: BTreeMap<(String, String), f64> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            ((f[0].to_string(), f[1].to_string()), f[2].parse().unwrap())
        })
        .collect();
    let query =
        s.ok(&["query", "--metric", "output_throughput", "--rows", "max_concurrency", "--format", "csv"]).stdout;
    let mut lines = query.lines();
    let configs: Vec<&str> = lines.next().unwrap().split(',').skip(1).collect();
    let mut reckon = BTreeMap::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        for (config, v) in configs.iter().zip(&f[1..]) {
            reckon.insert((config.to_string(), f[0].to_string()), v.parse::<f64>().unwrap());
        }
    }
    assert_eq!(python.len(), 33, "{python:?}");
    assert_eq!(python.keys().collect::<Vec<_>>(), reckon.keys().collect::<Vec<_>>());
    for (cell, v) in &python {
        assert!((v - reckon[cell]).abs() < 1e-9, "{cell:?}: python {v}, reckon {}", reckon[cell]);
    }
}
