//! What reckon.toml would need to read a sentence lint could not: a name
//! the prose uses that the project does not know, proposed as an
//! `[aliases]` or `[points]` entry — only where the data support it: a
//! series or metric the data hold, spelt with other spaces, hyphens or
//! case (`EAGLE v1` for `eagle-v1`); a param's usual short name or part of
//! its name set to a value within the param's (`C=8` of
//! `max_concurrency`, `8 threads` of `num_threads`); `saturation` for the
//! largest value of the swept param. The linter keeps a proposal only when
//! the sentence, read again with it, gives a reading ([`super::Linter`]).

use std::collections::BTreeMap;

use serde::Serialize;

use super::spelling::squashed;
use super::vocab::{Tok, Token, Vocabulary};
use super::Options;
use crate::metric::format_number;

/// One entry of reckon.toml a sentence needs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Entry {
    /// `aliases` or `points`.
    pub table: &'static str,
    /// The canonical name (an alias) or the phrase (a point).
    pub key: String,
    /// The words prose uses (an alias) or the point's spec (a point).
    pub value: String,
    /// Why the data support it.
    pub why: String,
}

/// The same data read with other options (more aliases or `[points]`), its
/// shared values kept.
pub(crate) fn rebuilt<'d>(vocab: &Vocabulary<'d>, options: &Options) -> Vocabulary<'d> {
    let mut again = Vocabulary::build(options, &vocab.data.series, &vocab.data.params);
    again.shared_values.clone_from(&vocab.shared_values);
    again.metric_shared.clone_from(&vocab.metric_shared);
    again
}

/// Whether `phrase` (any case) is, whole, a name or phrase the project
/// knows.
pub(super) fn knows(vocab: &Vocabulary, phrase: &str) -> bool {
    let lower = phrase.trim().to_lowercase();
    super::vocab::phrase_at(vocab, &lower).is_some_and(|(len, _)| len >= lower.len())
}

/// What a sentence lint could not read needs of reckon.toml, and what
/// lint would then read it as.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Setup {
    pub entries: Vec<Entry>,
    /// The entries as lines to paste (see [`toml_lines`]).
    pub toml: Vec<String>,
    /// The claims the sentence reads as with them.
    pub reads_as: Vec<String>,
}

/// The usual short names of params, each with the words a param's name
/// holds when it is the one meant (`C` of `max_concurrency`).
pub(super) const SHORT_NAMES: &[(&[&str], &[&str])] = &[
    (&["c", "conc", "concurrency"], &["concurrency"]),
    (&["tp"], &["tensor_parallel", "tp_size", "tp"]),
    (&["pp"], &["pipeline_parallel", "pp_size", "pp"]),
    (&["dp"], &["data_parallel", "dp_size", "dp"]),
    (&["ep"], &["expert_parallel", "ep_size", "ep"]),
    (&["bs", "batch"], &["batch"]),
    (&["mbs", "micro-batch"], &["micro_batch", "microbatch"]),
    (&["isl"], &["input_len", "prompt_len", "input_tokens"]),
    (&["osl"], &["output_len", "output_tokens", "gen_len"]),
    (&["rps", "qps", "rate"], &["request_rate", "rate"]),
    (&["seq", "seqlen"], &["seq_len", "sequence_len"]),
    (&["gpus"], &["gpus"]),
    (&["threads"], &["threads"]),
];

/// A number written right after `i` (`C=8`, `TP 4`) or right before it
/// (`8 threads`), unknown settings (`bs=32`, a word) included.
fn number_beside(toks: &[Token], i: usize) -> Option<f64> {
    let value = |t: &Token| match &t.kind {
        Tok::Number(n) => Some(n.value),
        Tok::Word(w) => crate::syntax::read_logged(w),
        _ => None,
    };
    let mut j = i + 1;
    if matches!(toks.get(j).map(|t| &t.kind), Some(Tok::Punct('=' | ':'))) {
        j += 1;
    }
    toks.get(j).and_then(value).or_else(|| i.checked_sub(1).and_then(|k| value(&toks[k])))
}

/// The entries reckon.toml would need for the names of a sentence (its
/// tokens, its text) that the project does not know.
pub(crate) fn proposals(vocab: &Vocabulary, sweep: Option<&str>, toks: &[Token], text: &str) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let Tok::Word(w) = &t.kind else { continue };
        if crate::syntax::read_logged(w).is_some() {
            continue;
        }
        let written = &text[t.start..t.end];
        if let Some(n) = number_beside(toks, i) {
            out.extend(param_alias(vocab, w, written, n));
        }
        out.extend(spelling(vocab, toks, i, text));
        if w == "saturation" {
            if let Some(p) = sweep.filter(|p| vocab.param_values.get(*p).is_some_and(|v| v.len() > 1)) {
                out.push(Entry {
                    table: "points",
                    key: "saturation".into(),
                    value: format!("the largest {p}"),
                    why: format!("the largest value of `{p}`, the param swept"),
                });
            }
        }
    }
    out.sort();
    out.dedup_by(|a, b| a.table == b.table && a.key == b.key && a.value == b.value);
    out
}

/// Whether `word` (lowercase) is a usual short name of the param `p`,
/// part of its name or its name spelt otherwise (`c`, `concurrency` of
/// `max_concurrency`; `threads` of `num_threads`).
pub(super) fn short_name_fits(word: &str, p: &str) -> bool {
    let singular = word.strip_suffix('s').unwrap_or(word);
    let lower = p.to_ascii_lowercase();
    // A held word starts a word of the name (`ep` is in `ep_size`, not in
    // `repetitions`).
    let starts_word =
        |h: &str| lower.match_indices(h).any(|(i, _)| !lower[..i].chars().next_back().is_some_and(char::is_alphabetic));
    let short = SHORT_NAMES.iter().any(|(words, holds)| words.contains(&word) && holds.iter().any(|h| starts_word(h)));
    let segment = lower.split('_').any(|s| s.len() >= 3 && (s == word || s == singular));
    short || segment || squashed(p) == squashed(word)
}

/// `C=8`, `8 threads`: the one param whose usual short name, name spelt
/// otherwise or part of its name `word` is, that has values around `n`.
fn param_alias(vocab: &Vocabulary, word: &str, written: &str, n: f64) -> Option<Entry> {
    let fits = |p: &str| short_name_fits(word, p);
    let within = |p: &str| {
        vocab
            .param_values
            .get(p)
            .is_some_and(|v| v.first().is_some_and(|lo| *lo <= n) && v.last().is_some_and(|hi| n <= *hi))
    };
    let params: Vec<&String> = vocab.param_values.keys().filter(|p| fits(p) && within(p)).collect();
    let [p] = params.as_slice() else { return None };
    let why = if squashed(p) == squashed(word) {
        format!("`{written}` is how the prose spells the param `{p}`")
    } else if SHORT_NAMES.iter().any(|(words, _)| words.contains(&word)) {
        format!(
            "`{written}` is the usual short name of `{p}`, a param the data sweep ({} is within its values)",
            format_number(n)
        )
    } else {
        format!(
            "`{written}` is part of the name of `{p}`, a param the data sweep ({} is within its values)",
            format_number(n)
        )
    };
    Some(Entry { table: "aliases", key: (*p).clone(), value: written.to_string(), why })
}

/// Up to four words from `i` that spell a series or metric of the data
/// with other spaces, hyphens or case (`EAGLE v1` for `eagle-v1`), or a
/// metric's name without its unit (`p99` for `p99_ms`).
fn spelling(vocab: &Vocabulary, toks: &[Token], i: usize, text: &str) -> Option<Entry> {
    let mut best = None;
    for len in 1..=4 {
        let run = toks.get(i..i + len)?;
        if !run.iter().all(|t| matches!(t.kind, Tok::Word(_) | Tok::Punct('-' | '/' | '.'))) {
            break;
        }
        let written = &text[run[0].start..run[len - 1].end];
        let key = squashed(written);
        let (series, metrics) = (vocab.spellings.series(&key), vocab.spellings.metrics(&key));
        // What the project knows already needs no entry (looked at only
        // when the words spell something: most words spell nothing).
        if key.is_empty() || (series.is_none() && metrics.len() != 1) || knows(vocab, written) {
            continue;
        }
        if let Some(s) = series {
            let why = format!("`{written}` spells `{s}`, a series of the data, with other spaces, hyphens or case");
            best = Some(Entry { table: "aliases", key: s.clone(), value: written.to_string(), why });
            continue;
        }
        if let [m] = metrics {
            let why = if squashed(m) == key {
                format!("`{written}` spells `{m}`, a metric of the data, with other spaces, hyphens or case")
            } else {
                format!("`{written}` is the metric `{m}` without its unit")
            };
            best = Some(Entry { table: "aliases", key: (*m).clone(), value: written.to_string(), why });
        }
    }
    best
}

/// The project's options with the entries added.
pub(crate) fn with_entries(options: &Options, entries: &[Entry]) -> Options {
    let mut o = options.clone();
    for e in entries {
        match e.table {
            "aliases" => o.aliases.entry(e.key.clone()).or_default().push(e.value.clone()),
            _ => {
                o.points.insert(e.key.clone(), e.value.clone());
            }
        }
    }
    o
}

/// The entries as lines to paste into reckon.toml, under their tables: an
/// alias joined with the ones the project already gives that name (the
/// line replaces its own), each with why as a comment.
pub(crate) fn toml_lines(options: &Options, entries: &[Entry]) -> Vec<String> {
    let quoted = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let bare = |k: &str| k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let key = |k: &str| if bare(k) { k.to_string() } else { quoted(k) };
    let mut out = Vec::new();
    let mut aliases: BTreeMap<&str, (Vec<String>, Vec<&str>)> = BTreeMap::new();
    for e in entries.iter().filter(|e| e.table == "aliases") {
        let (words, why) = aliases
            .entry(&e.key)
            .or_insert_with(|| (options.aliases.get(&e.key).cloned().unwrap_or_default(), Vec::new()));
        if !words.contains(&e.value) {
            words.push(e.value.clone());
        }
        why.push(&e.why);
    }
    if !aliases.is_empty() {
        out.push("[aliases]".to_string());
        for (k, (words, why)) in aliases {
            let list: Vec<String> = words.iter().map(|w| quoted(w)).collect();
            out.push(format!("{} = [{}]   # {}", key(k), list.join(", "), why.join("; ")));
        }
    }
    let points: Vec<&Entry> = entries.iter().filter(|e| e.table == "points").collect();
    if !points.is_empty() {
        out.push("[points]".to_string());
        for e in points {
            out.push(format!("{} = {}   # {}", quoted(&e.key), quoted(&e.value), e.why));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::vocab::{tests::vocabulary, tokenize};

    fn entries(sentence: &str) -> Vec<Entry> {
        let v = vocabulary();
        proposals(&v, Some("size"), &tokenize(&v, sentence), sentence)
    }

    #[test]
    fn only_names_the_data_hold_are_proposed() {
        // `cu-blas` is `cublas` hyphenated; `latency` the metric
        // `latency_us` without its unit; `size` of `N`-less prose is known.
        let found = entries("cu-BLAS has the lower latency at 512 sizes.");
        let keys: Vec<(&str, &str)> = found.iter().map(|e| (e.key.as_str(), e.value.as_str())).collect();
        assert_eq!(keys, [("cublas", "cu-BLAS"), ("latency_us", "latency")]);
        // A short name set to a value outside its param's: not proposed.
        assert!(entries("cuBLAS wins at C=100000.").is_empty());
        // `saturation`: the largest of the swept param.
        let sat = entries("cuBLAS wins at saturation.");
        assert_eq!((sat[0].table, sat[0].value.as_str()), ("points", "the largest size"));
    }

    #[test]
    fn lines_join_the_aliases_a_name_has_and_quote_what_toml_needs() {
        let mut options = crate::lint::vocab::tests::options();
        options.aliases.insert("triton split-k".into(), vec!["split-K".into()]);
        let e =
            |key: &str, value: &str| Entry { table: "aliases", key: key.into(), value: value.into(), why: "w".into() };
        let lines = toml_lines(&options, &[e("cublas", "cu \"BLAS\""), e("triton split-k", "Triton splitK")]);
        assert_eq!(
            lines,
            [
                "[aliases]",
                "cublas = [\"cuBLAS\", \"cu \\\"BLAS\\\"\"]   # w",
                "\"triton split-k\" = [\"split-K\", \"Triton splitK\"]   # w",
            ]
        );
        let toml: toml::Value = toml::from_str(&lines.join("\n")).unwrap();
        assert_eq!(toml["aliases"]["cublas"][1].as_str(), Some("cu \"BLAS\""));
    }
}
