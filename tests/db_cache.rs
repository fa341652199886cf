//! The database is a cache of the logs: after logs are edited, appended to,
//! rewritten behind an unchanged size and mtime, or deleted, a long-lived
//! database gives exactly the answers of a fresh one built from the same
//! files.

mod common;

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, SystemTime};

use common::{copy_dir, scenario_logs, Git, Ran, Sandbox};
use serde_json::Value;

const DOC: &str = "notebooks/eagle-fast-verify.md";
const LOGS: &str = "notebooks/logs";

/// The bundled example with both sweeps, every log dated an hour back so
/// that nothing is "racily clean": only a real change makes reckon read a
/// file again.
fn example() -> Sandbox {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    let an_hour_ago = SystemTime::now() - Duration::from_secs(3600);
    for sweep in ["2026-11-20", "2026-11-29"] {
        for e in std::fs::read_dir(s.path().join(LOGS).join(sweep)).unwrap() {
            set_mtime(&e.unwrap().path(), an_hour_ago);
        }
    }
    s
}

fn set_mtime(path: &Path, t: SystemTime) {
    std::fs::File::options().write(true).open(path).unwrap().set_modified(t).unwrap();
}

fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

fn run(s: &Sandbox, args: &[&str]) -> Ran {
    let r = s.run(args);
    assert!(r.code == 0 || r.code == 1, "reckon {args:?}\n{r:?}");
    r
}

/// A query's JSON without run ids, which number runs in the order they were
/// ingested and so differ between databases holding the same runs.
fn query(s: &Sandbox, agg: &str) -> Value {
    let r = s.ok(&[
        "query",
        "--metric",
        "output_throughput",
        "--rows",
        "max_concurrency,date",
        "--agg",
        agg,
        "--format",
        "json",
    ]);
    let mut v: Value = serde_json::from_str(&r.stdout).unwrap();
    for cell in v["cells"].as_array_mut().unwrap() {
        cell.as_object_mut().unwrap().remove("run_ids");
    }
    v
}

/// Everything the test compares: check and claims as JSON (with their exit
/// codes), and every cell's mean and run count over every sweep.
type Answers = (i32, String, i32, String, Value, Value);

fn answers(s: &Sandbox) -> Answers {
    let check = run(s, &["check", DOC, "--format", "json"]);
    let claims = run(s, &["claims", DOC, "--format", "json"]);
    (check.code, check.stdout, claims.code, claims.stdout, query(s, "mean"), query(s, "count"))
}

fn cell(q: &Value, conc: f64, date: &str, config: &str) -> (f64, f64) {
    let c = q["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"]["max_concurrency"] == conc && c["key"]["date"] == date && c["key"]["config"] == config)
        .unwrap_or_else(|| panic!("no cell {conc} {date} {config}"));
    (c["value"].as_f64().unwrap(), c["runs"].as_f64().unwrap())
}

/// Replaces the first `"output_throughput": N` of `line` (1-based) with a
/// number of the same length, so the file keeps its size.
fn same_length_edit(text: &str, line: usize, new_value: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let l = &mut lines[line - 1];
    let key = "\"output_throughput\": ";
    let start = l.find(key).unwrap() + key.len();
    let end = start + l[start..].find([',', '}']).unwrap();
    assert_eq!(end - start, new_value.len(), "the edit keeps the size: {}", &l[start..end]);
    l.replace_range(start..end, new_value);
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

#[test]
fn a_long_lived_database_answers_like_a_fresh_one_after_logs_change() {
    let s = example();
    let before = answers(&s);
    assert_eq!(before.0, 1, "the example's check finds the contradicted conclusions");
    let rewrite = change_the_logs(&s);

    let after = answers(&s);
    let again = answers(&s);
    assert_eq!(after, again, "answering again changes nothing");
    answers_like_a_fresh_copy(&s, &after);
    each_change_is_in_the_answers(&before, &after, &rewrite);
    let runs = s.ok(&["runs", "--limit", "0", "--format", "json"]);
    assert!(!runs.stdout.contains("2026-11-20/eagle-topk4-v1.log"), "runs never shows a file that is gone");
}

const THROUGHPUT_KEY: &str = "\"output_throughput\": ";

/// The value a same-size rewrite changed, before and after.
struct Rewrite {
    old: f64,
    new: f64,
}

/// Changes the example's logs in the four ways a long-lived database must
/// notice, returning the same-size rewrite's values.
fn change_the_logs(s: &Sandbox) -> Rewrite {
    let logs = s.path().join(LOGS);

    // 1. One line of an ingested log edited (the size changes).
    let edited = logs.join("2026-11-29/eagle-topk1-v2.jsonl");
    let text = std::fs::read_to_string(&edited).unwrap();
    let first = text.lines().next().unwrap();
    assert!(first.contains("\"max_concurrency\": 1,"), "{first}");
    std::fs::write(&edited, text.replacen(THROUGHPUT_KEY, "\"output_throughput\": 1", 1)).unwrap();

    // 2. Two runs appended, as `--output-file` / `--append-result` do: the
    //    last record again, twice, with other throughputs.
    let appended = logs.join("2026-11-29/baseline.jsonl");
    let text = std::fs::read_to_string(&appended).unwrap();
    let last = text.lines().last().unwrap();
    assert!(last.contains("\"max_concurrency\": 250,"), "{last}");
    let at = last.find(THROUGHPUT_KEY).unwrap() + THROUGHPUT_KEY.len();
    let end = at + last[at..].find([',', '}']).unwrap();
    let mut more = text.clone();
    for v in ["1.5", "2.5"] {
        writeln!(more, "{}{v}{}", &last[..at], &last[end..]).unwrap();
    }
    std::fs::write(&appended, more).unwrap();

    // 3. A log rewritten with the same size and the same mtime.
    let rewritten = logs.join("2026-11-29/eagle-topk4-v1.jsonl");
    let old_mtime = mtime(&rewritten);
    let text = std::fs::read_to_string(&rewritten).unwrap();
    let line = text.lines().position(|l| l.contains("\"max_concurrency\": 8,")).unwrap() + 1;
    let l = text.lines().nth(line - 1).unwrap();
    let at = l.find(THROUGHPUT_KEY).unwrap() + THROUGHPUT_KEY.len();
    let old_value = &l[at..at + l[at..].find([',', '}']).unwrap()];
    let new_value: String = std::iter::once('9').chain(old_value.chars().skip(1)).collect();
    let new_text = same_length_edit(&text, line, &new_value);
    assert_eq!(new_text.len(), text.len());
    std::fs::write(&rewritten, new_text).unwrap();
    set_mtime(&rewritten, old_mtime);
    assert_eq!(mtime(&rewritten), old_mtime);

    // 4. A log deleted.
    let deleted = logs.join("2026-11-20/eagle-topk4-v1.log");
    std::fs::remove_file(&deleted).unwrap();
    Rewrite { old: old_value.parse().unwrap(), new: new_value.parse().unwrap() }
}

/// A fresh copy of the same files, with no database, gives `after`.
fn answers_like_a_fresh_copy(s: &Sandbox, after: &Answers) {
    let fresh = Sandbox::new();
    std::fs::copy(s.path().join("reckon.toml"), fresh.path().join("reckon.toml")).unwrap();
    copy_dir(&s.path().join("notebooks"), &fresh.path().join("notebooks"));
    assert!(!fresh.db().exists());
    let fresh_answers = answers(&fresh);
    assert_eq!(after.0, fresh_answers.0, "check's exit code");
    assert_eq!(after.1, fresh_answers.1, "check --format json");
    assert_eq!(after.2, fresh_answers.2, "claims' exit code");
    assert_eq!(after.3, fresh_answers.3, "claims --format json");
    assert_eq!(after.4, fresh_answers.4, "every cell's mean");
    assert_eq!(after.5, fresh_answers.5, "every cell's run count");
    assert_eq!(s.counts().1, fresh.counts().1, "as many runs");
}

/// Each change is in the answers, not only in both alike.
fn each_change_is_in_the_answers(before: &Answers, after: &Answers, rewrite: &Rewrite) {
    let (b_mean, b_count) = (&before.4, &before.5);
    let (a_mean, a_count) = (&after.4, &after.5);
    let (b1, n1) = cell(b_mean, 1.0, "2026-11-29", "eagle-topk1-v2");
    let a1 = cell(a_mean, 1.0, "2026-11-29", "eagle-topk1-v2").0;
    assert!((a1 - (b1 + 100.0 / n1)).abs() < 1e-6, "the edited line is read: {b1} -> {a1}");
    assert_eq!(cell(b_count, 250.0, "2026-11-29", "baseline").1, 3.0);
    assert_eq!(cell(a_count, 250.0, "2026-11-29", "baseline").1, 5.0, "two runs appended, none counted twice");
    let (b8, n8) = cell(b_mean, 8.0, "2026-11-29", "eagle-topk4-v1");
    let (a8, _) = cell(a_mean, 8.0, "2026-11-29", "eagle-topk4-v1");
    assert!((a8 - (b8 + (rewrite.new - rewrite.old) / n8)).abs() < 1e-6, "the same-size rewrite is read: {b8} -> {a8}");
    let has_deleted_logs_cell = |q: &Value| {
        q["cells"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["key"]["config"] == "eagle-topk4-v1" && c["key"]["date"] == "2026-11-20")
    };
    assert!(has_deleted_logs_cell(b_mean));
    assert!(!has_deleted_logs_cell(a_mean), "the deleted log's runs are gone");
}

#[test]
fn runs_and_query_forget_a_deleted_log_and_rebuild_starts_from_empty() {
    let s = Sandbox::with_scenario();
    s.ok(&["ingest", "logs/{date}/{config}.jsonl", "logs/2026-11-20/baseline.log"]);
    assert_eq!(s.counts().1, 99 + 11);
    std::fs::remove_file(s.path().join("logs/2026-11-20/baseline.log")).unwrap();
    let r = s.ok(&["runs", "--limit", "0", "--format", "json"]);
    let runs: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(runs.as_array().unwrap().len(), 99);
    assert!(r.stderr.contains("logs/2026-11-20/baseline.log: gone; its 11 run(s) removed"), "{r:?}");
    let r = s.ok(&["query", "--metric", "output_throughput", "--rows", "date", "--agg", "count", "--format", "csv"]);
    assert!(!r.stdout.contains("2026-11-20"), "{r:?}");

    // A file deleted and named again: its runs go, without an error.
    std::fs::remove_file(s.path().join("logs/2026-11-29/baseline.jsonl")).unwrap();
    let r = s.ok(&["ingest", "logs/{date}/{config}.jsonl"]);
    assert!(r.stderr.contains("logs/2026-11-29/baseline.jsonl: gone; its 33 run(s) removed"), "{r:?}");
    assert_eq!(s.counts().1, 66);

    // --rebuild: only what this command names.
    let r = s.ok(&["ingest", "--rebuild", "logs/2026-11-29/eagle-topk1-v2.jsonl"]);
    assert!(r.stderr.contains("33 runs"), "{r:?}");
    assert_eq!(s.counts(), (1, 33, s.counts().2));
}

/// git at a fixed author and commit date.
fn git_at(git: &Git, args: &[&str], date: &str) {
    let out = git.command(args).env("GIT_AUTHOR_DATE", date).env("GIT_COMMITTER_DATE", date).output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// (time, `time_origin`) of every run, as `reckon runs` shows them.
fn times(s: &Sandbox) -> Vec<(String, String)> {
    let r = s.ok(&["runs", "--limit", "0", "--format", "json"]);
    let runs: Value = serde_json::from_str(&r.stdout).unwrap();
    let mut t: Vec<(String, String)> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["time"].as_str().unwrap().to_string(), r["time_origin"].as_str().unwrap().to_string()))
        .collect();
    t.dedup();
    t
}

#[test]
fn a_log_overwritten_but_not_committed_does_not_take_the_commits_time() {
    let s = Sandbox::new();
    let git = Git::init(&s);
    let log = scenario_logs().join("2026-11-29/baseline.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    s.write("results/baseline.jsonl", &text);
    git_at(&git, &["add", "."], "2026-11-20T10:00:00Z");
    git_at(&git, &["commit", "-q", "-m", "old sweep"], "2026-11-20T10:00:00Z");
    s.ok(&["ingest", "results/*.jsonl"]);
    assert_eq!(times(&s), [("2026-11-20T10:00:00Z".to_string(), "git".to_string())]);

    // Overwritten with new results, not committed: new data, not the old sweep.
    let newer = text.replacen("\"output_throughput\": ", "\"output_throughput\": 1", 1);
    s.write("results/baseline.jsonl", &newer);
    s.ok(&["ingest", "results/*.jsonl"]);
    let t = times(&s);
    assert_eq!(t.len(), 1, "{t:?}");
    assert_eq!(t[0].1, "mtime");
    assert_eq!(s.counts().1, 33, "replaced, not added");

    // Committed: the commit's time.
    git_at(&git, &["add", "."], "2026-11-29T10:00:00Z");
    git_at(&git, &["commit", "-q", "-m", "new sweep"], "2026-11-29T10:00:00Z");
    s.ok(&["ingest", "results/*.jsonl"]);
    assert_eq!(times(&s), [("2026-11-29T10:00:00Z".to_string(), "git".to_string())]);
    assert_eq!(s.counts().1, 33);
}
