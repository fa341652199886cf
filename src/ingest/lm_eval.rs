//! lm-evaluation-harness results (`lm_eval --output_path`,
//! `results_<date>.json`): `{results: {task: {"acc,none": …,
//! "acc_stderr,none": …, alias}}, n-shot, versions, configs, config, date,
//! …}`.
//!
//! * One run per task × filter (`acc,none` is `acc` under the filter
//!   `none`; gsm8k's `strict-match` and `flexible-extract` are two runs),
//!   with the params `task`, `filter`, `alias` (where it differs),
//!   `num_fewshot` (from `n-shot`), `task_version` (from `versions`),
//!   `model` (`model_name`, else the `pretrained=` of
//!   `config.model_args`), the command's `config.*` and the file's own
//!   text (`git_hash`, `transformers_version`). `date` (epoch seconds) is
//!   the run's time; `start_time`, `end_time` (the process clock) and
//!   `total_evaluation_time_seconds` are named as not stored.
//! * Each metric is stored by its name (`acc`, `acc_norm`, `exact_match`
//!   higher is better, `perplexity` lower); its `…_stderr` is stored beside
//!   it as the standard error of that metric — a metric with no direction,
//!   never judged as better or worse (`N/A` is left out, and said).
//! * A group's aggregate (lm-eval 0.4: `mmlu` over its subjects,
//!   `truthfulqa` over `truthfulqa_mc1`/`_mc2`/`_gen`; a key of `groups`, or
//!   of `group_subtasks` with members) is no task: its runs have the param
//!   `group` and no `task`, so what reads tasks (`rows=task`, `for all
//!   task`) never counts it beside its own subtasks, while `where group =
//!   mmlu` reads its score. Its `num_fewshot` is its tasks' when they all
//!   agree (lm-eval writes 0 for a group whose tasks ran 5-shot), its
//!   version `group_version`; `groups`, a copy of those entries of
//!   `results`, is read for a group `results` lacks.
//! * The task configs (`configs`: prompts, metric settings) and other
//!   tables (`group_subtasks`, `higher_is_better`, `n-samples`, …) and the
//!   environment dump (`pretty_env_info`) are named as not stored.
//! * lm-eval 0.3 wrote the same results without filters and without
//!   `configs`: `{results: {task: {"multiple_choice_grade": …,
//!   "multiple_choice_grade_stderr": …}}, versions, config: {model,
//!   model_args, num_fewshot, …}}` — one run per task, no `filter` param,
//!   each score stored by its name as above. Read as generic JSON it was
//!   one run of dotted names, and a task called `…_error_detection` made
//!   its accuracy lower-is-better.

use crate::ingest::LineBytes;
use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;

use serde_json::{Map, Value as Json};

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::{log_time, pyjson};
use crate::run::{RawRun, Value};
use crate::syntax::read_padded;
use crate::{Error, Result};

/// Top-level tables read for every task, by task name.
const PER_TASK: [(&str, &str); 2] = [("n-shot", "num_fewshot"), ("versions", "task_version")];

/// An lm-evaluation-harness results file.
pub struct LmEval;

impl LogFormat for LmEval {
    const NAME: &'static str = "lm-eval";

    /// `results` beside `configs` and one of `n-shot`, `versions`,
    /// `group_subtasks`, `config`; or, as lm-eval 0.3 wrote it, `results`
    /// beside `versions` and `config` with no `configs`.
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff.json.is_some_and(|s| {
            s.first == Some(b'{')
                && s.has("results")
                && if s.has("configs") {
                    ["n-shot", "versions", "group_subtasks", "config"].iter().any(|k| s.has(k))
                } else {
                    s.has("versions") && s.has("config")
                }
        })
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::limit::read_document(path, input, limit)?;
        let value = pyjson::parse(&doc).map_err(|e| e.into_error(path, 1))?;
        let (Json::Object(top), Some(Json::Object(results))) = (&value, value.get("results")) else {
            return Err(Error::malformed(path, 1, "expected `{\"results\": {task: {…}}}` as lm-eval writes it"));
        };
        let mut left = BTreeSet::new();
        let mut clocks = BTreeSet::new();
        let shared = shared(top, &mut left, &mut clocks);
        // lm-eval 0.3: scores named without a filter (`acc`, not `acc,none`).
        let filtered = top.contains_key("configs");
        let start = pyjson::member_offset(&doc, "results").unwrap_or(0);
        let groups = Groups::of(top);
        let mut no_stderr = BTreeSet::new();
        let in_groups = top.get("groups").and_then(Json::as_object).into_iter().flatten();
        let only_in_groups = in_groups.filter(|(name, _)| !results.contains_key(*name));
        let groups_start = pyjson::member_offset(&doc, "groups").unwrap_or(0);
        let entries = results
            .iter()
            .map(|(name, scores)| (name, scores, "results", start))
            .chain(only_in_groups.map(|(name, scores)| (name, scores, "groups", groups_start)));
        for (name, scores, table, from) in entries {
            let Json::Object(scores) = scores else {
                return Err(Error::malformed(path, 1, format!("`{table}.{name}` is not an object of scores")));
            };
            let line = find_line(&doc, from, name);
            let entry = Entry { name, filtered, group: groups.contains(name) };
            for run in task_runs(path, line, &entry, scores, top, &shared, &mut no_stderr)? {
                emit(run)?;
            }
        }
        let mut outcome = Outcome::default();
        if !no_stderr.is_empty() {
            let names: Vec<String> = no_stderr.iter().map(|n| format!("`{n}`")).collect();
            outcome.skipped.push(format!(
                "standard errors lm-eval could not compute (`N/A`: {}) are not stored",
                names.join(", ")
            ));
        }
        if !clocks.is_empty() {
            let names: Vec<String> = clocks.iter().map(|n| format!("`{n}`")).collect();
            outcome.skipped.push(format!(
                "{} (the process clock at the evaluation's start and end, and how long it ran: times of the run, \
                 not settings of a task) are not stored",
                names.join(", ")
            ));
        }
        if !left.is_empty() {
            let names: Vec<String> = left.iter().map(|n| format!("`{n}`")).collect();
            outcome
                .skipped
                .push(format!("{} (task configs, tables and the environment) are not stored", names.join(", ")));
        }
        Ok(outcome)
    }
}

/// The params and time every task's runs share. `start_time` and
/// `end_time` (`time.perf_counter()` readings, seconds since some point of
/// the machine's, not a time of day) and `total_evaluation_time_seconds`
/// are times of the run, never params (a re-run would be another point,
/// and no cell would pair across sweeps): they go to `clocks`, to be named.
fn shared(top: &Map<String, Json>, left: &mut BTreeSet<String>, clocks: &mut BTreeSet<String>) -> RawRun {
    let mut run = RawRun::default();
    for (k, v) in top {
        match (k.as_str(), v) {
            // `groups` repeats the groups' entries of `results`: read there.
            ("results" | "groups" | "model_name", _) => {}
            ("start_time" | "end_time" | "total_evaluation_time_seconds", _) => {
                clocks.insert(k.clone());
            }
            (_, _) if PER_TASK.iter().any(|(t, _)| t == k) => {}
            ("date", _) => run.time = pyjson::as_f64(v).and_then(log_time::from_epoch),
            ("config", Json::Object(config)) => {
                for (ck, cv) in config {
                    pyjson::setting(&format!("config.{ck}"), cv, &mut run, left);
                }
            }
            ("pretty_env_info", _) => {
                left.insert(k.clone());
            }
            _ => pyjson::setting(k, v, &mut run, left),
        }
    }
    let pretrained = top
        .get("config")
        .and_then(|c| c.get("model_args"))
        .and_then(Json::as_str)
        .and_then(|a| a.split(',').find_map(|kv| kv.trim().strip_prefix("pretrained=")).map(str::to_string));
    if let Some(model) = top.get("model_name").and_then(Json::as_str).map(str::to_string).or(pretrained) {
        run.param("model", Value::Text(model));
    }
    run
}

/// An entry of `results`: a task, or a group's aggregate.
struct Entry<'a> {
    name: &'a str,
    /// Scores named with their filter (`acc,none`): lm-eval 0.4.
    filtered: bool,
    group: bool,
}

/// The groups of a results file: the keys of `groups`, and those of
/// `group_subtasks` with members (a task is listed there with none).
struct Groups<'a> {
    subtasks: Option<&'a Map<String, Json>>,
    names: BTreeSet<&'a str>,
}

impl<'a> Groups<'a> {
    fn of(top: &'a Map<String, Json>) -> Groups<'a> {
        let subtasks = top.get("group_subtasks").and_then(Json::as_object);
        let listed = subtasks.into_iter().flatten().filter(|(_, v)| v.as_array().is_some_and(|a| !a.is_empty()));
        let aggregated = top.get("groups").and_then(Json::as_object).into_iter().flatten();
        let names = listed.chain(aggregated).map(|(k, _)| k.as_str()).collect();
        Groups { subtasks, names }
    }

    fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }
}

/// The tasks under a group, through its subgroups (each name once; a
/// cycle, which lm-eval never writes, ends where it closes).
fn leaf_tasks<'a>(top: &'a Map<String, Json>, group: &'a str) -> BTreeSet<&'a str> {
    let groups = Groups::of(top);
    let mut seen = BTreeSet::new();
    let mut leaves = BTreeSet::new();
    let mut todo = vec![group];
    while let Some(name) = todo.pop() {
        if !seen.insert(name) {
            continue;
        }
        let members = groups.subtasks.and_then(|t| t.get(name)).and_then(Json::as_array);
        match members.filter(|m| !m.is_empty()) {
            Some(members) => todo.extend(members.iter().filter_map(Json::as_str)),
            None if name != group => {
                leaves.insert(name);
            }
            None => {}
        }
    }
    leaves
}

/// A group's `num_fewshot`: its tasks' when they all give one and agree
/// (lm-eval's own entry for a group is bookkeeping: 0 for `mmlu`, whose
/// subjects ran 5-shot), else none.
fn group_fewshot(top: &Map<String, Json>, group: &str) -> Option<f64> {
    let table = top.get("n-shot")?;
    let mut shots = leaf_tasks(top, group).into_iter().map(|t| table.get(t).and_then(pyjson::as_f64));
    let first = shots.next()??;
    shots.all(|s| s == Some(first)).then_some(first)
}

/// The runs of one entry: one per filter its scores name (`filtered`), or
/// the one run of an lm-eval 0.3 task, whose every member is a score.
fn task_runs(
    path: &Path,
    line: u64,
    entry: &Entry<'_>,
    scores: &Map<String, Json>,
    top: &Map<String, Json>,
    shared: &RawRun,
    no_stderr: &mut BTreeSet<String>,
) -> Result<Vec<RawRun>> {
    let (task, filtered) = (entry.name, entry.filtered);
    let mut runs: Vec<(Option<&str>, RawRun)> = Vec::new();
    for (key, v) in scores {
        let (metric, filter) = match key.split_once(',') {
            Some((metric, filter)) if filtered => (metric, Some(filter)),
            // 0.4's members without a filter: `alias`, and the like.
            None if filtered => continue,
            _ => (key.as_str(), None),
        };
        let x = match v {
            Json::String(s) if s.trim() == "N/A" => {
                no_stderr.insert(format!("results.{task}.{key}"));
                continue;
            }
            Json::String(s) => read_padded(s),
            other => pyjson::as_f64(other),
        };
        let Some(x) = x else {
            return Err(Error::malformed(path, line, format!("`results.{task}.{key}` holds {v}, expected a score")));
        };
        let at = runs.iter().position(|(f, _)| *f == filter).unwrap_or_else(|| {
            runs.push((filter, task_run(line, entry, filter, scores, top, shared)));
            runs.len() - 1
        });
        runs[at].1.metric(metric.to_string(), x);
    }
    Ok(runs.into_iter().map(|(_, r)| r).collect())
}

/// An entry's run under one filter (none in lm-eval 0.3), before its
/// scores: a task's, with `task`, or a group's, with `group`.
fn task_run(
    line: u64,
    entry: &Entry<'_>,
    filter: Option<&str>,
    scores: &Map<String, Json>,
    top: &Map<String, Json>,
    shared: &RawRun,
) -> RawRun {
    let name = entry.name;
    let mut run = RawRun { line, time: shared.time.clone(), ..RawRun::default() };
    run.param(if entry.group { "group" } else { "task" }, Value::Text(name.to_string()));
    if let Some(filter) = filter {
        run.param("filter", Value::Text(filter.to_string()));
    }
    // lm-eval indents an alias under its group as it prints the tree
    // (`  - formal_logic`): the marks are no part of the name.
    let alias = scores.get("alias").and_then(Json::as_str).map(|a| {
        let a = a.trim();
        a.strip_prefix("- ").map_or(a, str::trim)
    });
    if let Some(alias) = alias.filter(|a| !a.is_empty() && *a != name) {
        run.param("alias", Value::Text(alias.to_string()));
    }
    if entry.group {
        if let Some(shots) = group_fewshot(top, name) {
            run.param("num_fewshot", Value::Num(shots));
        }
        if let Some(v) = top.get("versions").and_then(|t| t.get(name)).and_then(pyjson::as_f64) {
            run.param("group_version", Value::Num(v));
        }
    } else {
        for (table, param) in PER_TASK {
            if let Some(v) = top.get(table).and_then(|t| t.get(name)).and_then(pyjson::as_f64) {
                run.param(param, Value::Num(v));
            }
        }
    }
    run.params.extend(shared.params.iter().cloned());
    run
}

/// The line of `"task":` inside `results` (from `start`), for the runs'
/// provenance.
fn find_line(doc: &[u8], start: usize, task: &str) -> u64 {
    let needle = format!("\"{task}\"");
    let at = doc[start..].windows(needle.len()).position(|w| w == needle.as_bytes()).map_or(start, |i| start + i);
    pyjson::line_of(doc, at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::log_format::collect;

    #[test]
    fn a_run_per_task_and_filter_with_stderr_beside_its_metric() {
        let text = r#"{"results": {"gsm8k": {"exact_match,strict-match": 0.75, "exact_match_stderr,strict-match": 0.01,
              "exact_match,flexible-extract": 0.74, "exact_match_stderr,flexible-extract": "N/A", "alias": "gsm8k"}},
            "configs": {"gsm8k": {"task": "gsm8k"}}, "n-shot": {"gsm8k": 5}, "versions": {"gsm8k": 3.0},
            "config": {"model": "hf", "model_args": "pretrained=org/m,dtype=auto", "batch_sizes": []},
            "date": 1713525419.7, "git_hash": "3196e907"}"#;
        let (runs, outcome) = collect::<LmEval>("r.json", text).unwrap();
        assert_eq!(runs.len(), 2);
        let p = |r: &RawRun, k: &str| r.params.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        assert_eq!(p(&runs[0], "filter"), Some(Value::Text("flexible-extract".into())));
        assert_eq!(p(&runs[1], "num_fewshot"), Some(Value::Num(5.0)));
        assert_eq!(p(&runs[1], "model"), Some(Value::Text("org/m".into())));
        assert_eq!(p(&runs[1], "git_hash"), Some(Value::Text("3196e907".into())));
        assert_eq!(runs[1].time.as_deref(), Some("2024-04-19T11:16:59Z"));
        let names: Vec<&str> = runs[1].metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["exact_match", "exact_match_stderr"]);
        assert_eq!(outcome.skipped.len(), 2, "{:?}", outcome.skipped);
        assert!(outcome.skipped[0].contains("`results.gsm8k.exact_match_stderr,flexible-extract`"));
        assert!(outcome.skipped[1].contains("`config.batch_sizes`, `configs`"), "{:?}", outcome.skipped);
    }
}
