//! Dynamic completion (`clap_complete`'s `CompleteEnv`, registered with
//! `source <(COMPLETE=bash reckon)`): the names the project's data hold —
//! metrics for `--metric`, params for `--rows`, `--cols` and `--by`, params
//! and their values (the series' names among them) for `--where`, each with
//! reckon.toml's aliases for it. The names are read from the database
//! reckon.toml names, opened read-only: nothing is ingested or written, and
//! any error (no project, no database, a database being written) completes
//! nothing and says nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;

use clap_complete::engine::CompletionCandidate;

use crate::config::Config;
use crate::query::filter::PSEUDO_PARAMS;
use crate::store::Store;

/// At most this many values of one param are offered.
const VALUES: usize = 500;

/// What the project's database and reckon.toml name.
#[derive(Default)]
struct Known {
    metrics: BTreeSet<String>,
    /// Each param with its values as a filter writes them.
    params: BTreeMap<String, BTreeSet<String>>,
    /// Each alias of reckon.toml with the canonical name it stands for.
    aliases: BTreeMap<String, String>,
}

impl Known {
    /// `names` and the aliases of any of them.
    fn with_aliases<'a>(&'a self, names: impl Iterator<Item = &'a String> + Clone) -> Vec<&'a str> {
        let mut all: BTreeSet<&str> = names.clone().map(String::as_str).collect();
        let names: BTreeSet<&String> = names.collect();
        all.extend(self.aliases.iter().filter(|(_, to)| names.contains(to)).map(|(a, _)| a.as_str()));
        all.into_iter().collect()
    }

    /// The values of `param` (or of the param an alias names), each
    /// written as a filter reads it, with the aliases of any of them.
    fn values(&self, param: &str) -> Vec<String> {
        let param = self.aliases.get(param).map_or(param, String::as_str);
        let Some(values) = self.params.get(param) else { return Vec::new() };
        self.with_aliases(values.iter()).into_iter().filter_map(filter_literal).collect()
    }
}

/// What the current folder's project names, read afresh: a completion
/// process answers one word and ends, so nothing is kept for a second ask.
fn known() -> Known {
    read().unwrap_or_default()
}

fn read() -> Option<Known> {
    let cwd = std::env::current_dir().ok()?;
    let cfg = Config::discover(&cwd).ok()?;
    let mut known = Known::default();
    for (name, words) in &cfg.aliases {
        for w in words {
            known.aliases.insert(w.clone(), name.clone());
        }
    }
    if !cfg.database.is_file() {
        return Some(known);
    }
    // A completion must not wait for an ingest holding the database.
    let limits = crate::store::Limits { lock_wait: std::time::Duration::from_millis(200), ..cfg.store_limits() };
    let Ok(store) = Store::open_read_only(&cfg.database, limits) else { return Some(known) };
    known.metrics = store.metrics().ok()?.into_iter().map(|m| m.name).collect();
    let params = &mut known.params;
    let _ = store.for_each_param_set(|_, pairs| {
        for (name, value) in pairs {
            let values = params.entry(name.to_string()).or_default();
            if values.len() < VALUES {
                values.insert(value.to_string());
            }
        }
    });
    Some(known)
}

/// A value as a filter reads it: as it is when it is one word, else quoted.
fn filter_literal(value: &str) -> Option<String> {
    let word = |c: char| !c.is_whitespace() && !"()=!<>~,'\"".contains(c);
    if !value.is_empty() && value.chars().all(word) {
        Some(value.to_string())
    } else if !value.contains('\'') {
        Some(format!("'{value}'"))
    } else if !value.contains('"') {
        Some(format!("\"{value}\""))
    } else {
        None
    }
}

fn candidates<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Vec<CompletionCandidate> {
    names.into_iter().map(|n| CompletionCandidate::new(n.as_ref())).collect()
}

/// Metric names and their aliases (`--metric`).
pub(super) fn metrics() -> Vec<CompletionCandidate> {
    let k = known();
    candidates(k.with_aliases(k.metrics.iter()))
}

/// Param names and their aliases (`--rows`, `--cols`, `--by`).
pub(super) fn params() -> Vec<CompletionCandidate> {
    let k = known();
    candidates(k.with_aliases(k.params.keys()))
}

/// A filter being written (`--where`): the param names (and `date`,
/// `sweep`, …) where a name goes, a param's values after its operator.
pub(super) fn filter(current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(current) = current.to_str() else { return Vec::new() };
    candidates(filter_completions(&known(), current))
}

fn filter_completions(k: &Known, current: &str) -> Vec<String> {
    let is_op = |c: char| "=!<>~".contains(c);
    let start = current.rfind(|c: char| c.is_whitespace() || c == '(' || c == ',').map_or(0, |i| i + 1);
    let (head, word) = current.split_at(start);
    let offer = |prefix: &str, options: Vec<String>, partial: &str| -> Vec<String> {
        let fits =
            |o: &str| o.starts_with(partial) || o.strip_prefix(['\'', '"']).is_some_and(|u| u.starts_with(partial));
        options.into_iter().filter(|o| fits(o)).map(|o| format!("{prefix}{o}")).collect()
    };
    // `name=val…`: the param's values.
    if let Some(p) = word.find(is_op).filter(|p| *p > 0) {
        let op_end = word[p..].find(|c: char| !is_op(c)).map_or(word.len(), |q| p + q);
        return offer(&current[..start + op_end], k.values(&word[..p]), &word[op_end..]);
    }
    // `name = val…`: the same, the operator a word of its own.
    let before = head.trim_end();
    if before.ends_with(is_op) {
        let name_end = before.trim_end_matches(is_op).trim_end();
        let name = name_end.rsplit(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
        return offer(head, k.values(name), word);
    }
    let mut names: Vec<String> = k.with_aliases(k.params.keys()).into_iter().map(str::to_string).collect();
    names.extend(PSEUDO_PARAMS.iter().map(|p| (*p).to_string()));
    names.sort();
    names.dedup();
    offer(head, names, word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Known {
        let mut k = Known::default();
        k.metrics.insert("output_throughput".into());
        k.params.insert("config".into(), ["baseline", "eagle-topk4-v1", "two words"].map(String::from).into());
        k.params.insert("max_concurrency".into(), ["1", "8"].map(String::from).into());
        k.aliases.insert("sglang".into(), "baseline".into());
        k.aliases.insert("tok_s".into(), "output_throughput".into());
        k.aliases.insert("mode".into(), "config".into());
        k
    }

    #[test]
    fn names_come_with_their_aliases() {
        let k = known();
        assert_eq!(k.with_aliases(k.metrics.iter()), ["output_throughput", "tok_s"]);
        assert_eq!(k.with_aliases(k.params.keys()), ["config", "max_concurrency", "mode"]);
    }

    #[test]
    fn a_filter_completes_names_then_values() {
        let k = known();
        assert_eq!(filter_completions(&k, "max"), ["max_concurrency"]);
        assert!(filter_completions(&k, "").contains(&"sweep".to_string()), "date, sweep, … too");
        assert_eq!(filter_completions(&k, "config=eag"), ["config=eagle-topk4-v1"]);
        assert_eq!(filter_completions(&k, "config != s"), ["config != sglang"]);
        assert_eq!(filter_completions(&k, "mode=t"), ["mode='two words'"], "an alias of the param, a quoted value");
        assert_eq!(
            filter_completions(&k, "config = baseline and max_concurrency>="),
            ["config = baseline and max_concurrency>=1", "config = baseline and max_concurrency>=8"]
        );
        assert_eq!(filter_completions(&k, "(conf"), ["(config"]);
        assert!(filter_completions(&k, "unknown=").is_empty());
    }
}
