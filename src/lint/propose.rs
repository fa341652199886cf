//! What `reckon init` proposes for reckon.toml from the data alone, before
//! any prose is written: the words researchers usually write for the
//! project's names, by the same rules as the entries `lint --all` proposes
//! for a sentence ([`super::setup`]): a param's usual short name (`C` of
//! `max_concurrency`, `TP` of `tp_size`), a series of the data with spaces
//! for its hyphens and underscores (`eagle topk4 v1` of `eagle-topk4-v1`;
//! prose's capitals are read whatever they are), a metric's name without
//! its unit (`p99` of `p99_ms`), and `saturation` as the largest value of
//! the one load param swept. A word that would fit two names is never
//! proposed for either: it is returned as a [`Clash`] naming both, for
//! the author to give to the one prose means.

use std::collections::{BTreeMap, BTreeSet};

use super::setup::{short_name_fits, Entry, SHORT_NAMES};
use super::vocab::Vocabulary;
use super::Options;
use crate::metric::format_number;
use crate::query::Dataset;

/// A word that fits several names of the data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Clash {
    pub(crate) word: String,
    /// The names it fits, sorted.
    pub(crate) names: Vec<String>,
}

/// What the data support adding to reckon.toml.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Proposals {
    pub(crate) entries: Vec<Entry>,
    pub(crate) clashes: Vec<Clash>,
}

/// The proposals for a dataset read with `options` (the series param and
/// the aliases the project has already).
pub(crate) fn from_data(dataset: &Dataset, options: &Options) -> Proposals {
    let vocab = Vocabulary::new(dataset, options);
    let mut found: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    let mut add = |e: Entry| {
        let word = e.value.to_lowercase();
        if !super::setup::knows(&vocab, &e.value) {
            found.entry(word).or_default().push(e);
        }
    };
    for e in short_names(&vocab).into_iter().chain(series_spellings(&vocab)).chain(metric_bases(&vocab)) {
        add(e);
    }
    let mut out = Proposals::default();
    for (_, mut entries) in found {
        entries.dedup_by(|a, b| a.key == b.key);
        if let [_] = entries.as_slice() {
            out.entries.extend(entries);
        } else {
            let written = entries[0].value.clone();
            let names: BTreeSet<String> = entries.into_iter().map(|e| e.key).collect();
            out.clashes.push(Clash { word: written, names: names.into_iter().collect() });
        }
    }
    out.entries.extend(saturation(&vocab));
    out.entries.sort();
    out
}

/// The params the data sweep: two or more numeric values.
fn swept<'v>(vocab: &'v Vocabulary<'_>) -> impl Iterator<Item = (&'v String, &'v Vec<f64>)> {
    vocab.param_values.iter().filter(|(_, v)| v.len() > 1)
}

/// How prose writes a short name: initialisms in capitals (`C`, `TP`,
/// `ISL`), words as words (`bs`, `batch`, `concurrency`).
fn as_written(word: &str) -> String {
    let initialism = word.len() <= 3 && !matches!(word, "bs" | "mbs" | "seq");
    if initialism {
        word.to_ascii_uppercase()
    } else {
        word.to_string()
    }
}

/// Each usual short name of a swept param (`C`, `conc`, `concurrency` of
/// `max_concurrency`).
fn short_names(vocab: &Vocabulary) -> Vec<Entry> {
    let mut out = Vec::new();
    for (words, _) in SHORT_NAMES {
        for word in *words {
            for (p, values) in swept(vocab).filter(|(p, _)| short_name_fits(word, p)) {
                let written = as_written(word);
                let span = format!("{} to {}", format_number(values[0]), format_number(values[values.len() - 1]));
                let why = format!("`{written}` is a usual short name of `{p}`, a param the data sweep ({span})");
                out.push(Entry { table: "aliases", key: p.clone(), value: written, why });
            }
        }
    }
    out
}

/// Each series written with hyphens, underscores, dots or slashes, with
/// spaces for them (prose writes `EAGLE topk4 v1` for `eagle-topk4-v1`).
fn series_spellings(vocab: &Vocabulary) -> Vec<Entry> {
    vocab
        .data
        .series
        .iter()
        // A name, not a command line or a path (hyperfine's series).
        .filter(|s| crate::syntax::read_logged(s).is_none() && s.len() <= 40)
        .filter(|s| s.chars().all(|c| c.is_alphanumeric() || "-_.".contains(c)))
        .filter_map(|s| {
            let spaced = s.split(['-', '_', '.', '/']).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
            (spaced != *s && !spaced.is_empty()).then(|| Entry {
                table: "aliases",
                key: s.clone(),
                value: spaced.clone(),
                why: format!(
                    "`{s}`, a series of the data, written with spaces (prose's capitals are read as they come)"
                ),
            })
        })
        .collect()
}

/// Each metric whose name ends in a unit, without it (`p99` of `p99_ms`).
fn metric_bases(vocab: &Vocabulary) -> Vec<Entry> {
    vocab
        .units
        .keys()
        .filter_map(|m| {
            let base = super::spelling::unit_dropped(m)?;
            Some(Entry {
                table: "aliases",
                key: m.clone(),
                value: base.replace('_', " "),
                why: format!("`{m}`, a metric of the data, without its unit"),
            })
        })
        .collect()
}

/// `saturation` as the largest value of the one load param swept (a
/// concurrency or request rate).
fn saturation(vocab: &Vocabulary) -> Option<Entry> {
    let load: Vec<&String> =
        swept(vocab).filter(|(p, _)| ["c", "rps"].iter().any(|w| short_name_fits(w, p))).map(|(p, _)| p).collect();
    let [p] = load.as_slice() else { return None };
    let known = super::setup::knows(vocab, "saturation");
    (!known).then(|| Entry {
        table: "points",
        key: "saturation".into(),
        value: format!("the largest {p}"),
        why: format!("the largest value of `{p}`, the load the data sweep"),
    })
}

/// The proposals as reckon.toml lines, each under a comment saying why;
/// a clash as a comment only. `has` is what the project has already
/// (those aliases are kept on the line that replaces theirs).
pub(crate) fn toml_lines(options: &Options, p: &Proposals) -> Vec<String> {
    let quoted = |s: &str| toml::Value::String(s.to_string()).to_string();
    let key = |k: &str| {
        if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            k.to_string()
        } else {
            quoted(k)
        }
    };
    let mut out = Vec::new();
    let mut aliases: BTreeMap<&str, (Vec<String>, Vec<&str>)> = BTreeMap::new();
    for e in p.entries.iter().filter(|e| e.table == "aliases") {
        let (words, why) = aliases
            .entry(&e.key)
            .or_insert_with(|| (options.aliases.get(&e.key).cloned().unwrap_or_default(), Vec::new()));
        if !words.contains(&e.value) {
            words.push(e.value.clone());
        }
        why.push(&e.why);
    }
    if !aliases.is_empty() || !p.clashes.is_empty() {
        out.push("[aliases]".to_string());
        for (k, (words, why)) in aliases {
            out.extend(why.iter().map(|w| format!("# {w}")));
            let list: Vec<String> = words.iter().map(|w| quoted(w)).collect();
            out.push(format!("{} = [{}]", key(k), list.join(", ")));
        }
        for c in &p.clashes {
            let names: Vec<String> = c.names.iter().map(|n| format!("`{n}`")).collect();
            out.push(format!(
                "# `{}` would fit {}: not proposed; add it to the one your prose means",
                c.word,
                names.join(" and ")
            ));
        }
    }
    let points: Vec<&Entry> = p.entries.iter().filter(|e| e.table == "points").collect();
    if !points.is_empty() {
        out.push(String::new());
        out.push("[points]".to_string());
        for e in points {
            out.push(format!("# {}", e.why));
            out.push(format!("{} = {}", quoted(&e.key), quoted(&e.value)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initialisms_are_written_in_capitals_and_words_as_words() {
        assert_eq!(as_written("c"), "C");
        assert_eq!(as_written("tp"), "TP");
        assert_eq!(as_written("isl"), "ISL");
        assert_eq!(as_written("bs"), "bs");
        assert_eq!(as_written("concurrency"), "concurrency");
    }
}
