//! What prose can name, and a sentence cut into tokens: mentions of series,
//! metrics, params and points (by name, alias or `[points]` phrase),
//! numbers with their units, dates, words and punctuation.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use regex::Regex;

use super::number::{is_word_char, number_at};
pub(crate) use super::number::{stored_time, Number, Unit};
use super::shared::{shared_values, MetricShared, Shared, Texts};
use super::spelling::Spellings;
use super::Options;
use crate::metric::Direction;
use crate::query::filter::is_pseudo_param;
use crate::query::Dataset;
use crate::run::is_repeat_marker;
use crate::syntax::Op;

/// A point or a range of points of one param.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scope {
    At(String, f64),
    /// `param op value`, op one of `> >= < <=`.
    Range(String, Op, f64),
    Between(String, f64, f64),
    Largest(String),
    Smallest(String),
    /// Every point of the param (`at every size`).
    Every(String),
    /// Some points of the param, listed (`at C=64 and C=128`).
    In(String, Vec<f64>),
    /// A point of a param whose values are text (`on http-router`), as the
    /// data hold it.
    Is(String, String),
}

impl Scope {
    pub(crate) fn param(&self) -> &str {
        match self {
            Scope::At(p, _)
            | Scope::Range(p, _, _)
            | Scope::Between(p, _, _)
            | Scope::Largest(p)
            | Scope::Smallest(p)
            | Scope::Every(p)
            | Scope::In(p, _)
            | Scope::Is(p, _) => p,
        }
    }

    /// Parses a `[points]` value: `p = 1`, `p >= 100`, `p in 2..250`, `the
    /// largest p`, `the smallest p`, `every p`; `{n}` stands for the number
    /// a phrase captured.
    pub(crate) fn parse(spec: &str, n: Option<f64>) -> Option<Scope> {
        let spec = match n {
            Some(n) => spec.replace("{n}", &crate::metric::format_number(n)),
            None => spec.to_string(),
        };
        let s = spec.trim();
        for (word, largest) in
            [("the largest ", true), ("the smallest ", false), ("largest ", true), ("smallest ", false)]
        {
            if let Some(p) = s.strip_prefix(word) {
                let p = p.trim().to_string();
                return Some(if largest { Scope::Largest(p) } else { Scope::Smallest(p) });
            }
        }
        if let Some(p) = s.strip_prefix("every ").or_else(|| s.strip_prefix("all ")) {
            return Some(Scope::Every(p.trim().to_string()));
        }
        if let Some((p, range)) = s.split_once(" in ") {
            let (lo, hi) = range.split_once("..")?;
            return Some(Scope::Between(
                p.trim().to_string(),
                crate::syntax::read_padded(lo)?,
                crate::syntax::read_padded(hi)?,
            ));
        }
        for op in [Op::Ge, Op::Le, Op::Gt, Op::Lt, Op::Eq] {
            if let Some((p, v)) = s.split_once(op.as_str()) {
                let v = crate::syntax::read_padded(v)?;
                let p = p.trim().to_string();
                if p.is_empty() {
                    return None;
                }
                return Some(if op == Op::Eq { Scope::At(p, v) } else { Scope::Range(p, op, v) });
            }
        }
        None
    }
}

/// What a phrase of prose names.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Meaning {
    /// One or more series (more than one: ambiguous).
    Series(Vec<String>),
    Metric(String),
    Param(String),
    Point(Scope),
    /// A text value of a param other than the series' (`fp8` of `dtype`,
    /// `zipf` of `workload`): the param, the value as the data hold it.
    Value(String, String),
}

/// The names the data hold: the series, and each param with its values as
/// text — what a name prose uses is compared with, and what a vocabulary
/// with more aliases is built from.
#[derive(Debug, Clone, Default)]
pub(crate) struct Data {
    pub series: BTreeSet<String>,
    pub params: BTreeMap<String, Vec<String>>,
}

/// The metrics kept as fractions: named for one (`hit_ratio`, `mfu`,
/// `gpu_util`, `error_rate`, `real_time_cv`:
/// [`crate::metric::is_fraction_by_name`], which the judge's reading of a
/// claim's `< 5%` shares; only those have their values looked at), with
/// no unit, every value in 0..=1.
fn fractions(dataset: &Dataset, options: &Options) -> BTreeSet<String> {
    let named = crate::metric::is_fraction_by_name;
    // Over every run, without building each run's record.
    let within = |m: &str| {
        dataset.all_runs().is_ok()
            && dataset.cached_values(m).is_ok_and(|vs| {
                let (mut any, mut all) = (false, true);
                for (_, v) in vs.iter() {
                    any = true;
                    all &= (0.0..=1.0).contains(&v);
                }
                any && all
            })
    };
    options
        .metrics
        .iter()
        .filter(|(m, rule)| rule.unit.is_none() && named(m) && within(m))
        .map(|(m, _)| m.clone())
        .collect()
}

/// A `[points]` phrase with a `{n}` placeholder.
#[derive(Debug)]
struct Template {
    re: Regex,
    spec: String,
}

/// Everything prose can name in one project (`'d`: the data its
/// metrics' runs are read from when a sentence asks about them).
pub(crate) struct Vocabulary<'d> {
    /// Lowercase phrase → meaning, longest phrases first.
    phrases: Vec<(String, Meaning)>,
    /// The phrases that can start with each byte, by index, in order: a
    /// word is compared with those alone ([`phrase_at`]).
    starting: Vec<Vec<u32>>,
    /// The series and metrics by their squashed names (setup's proposals).
    pub spellings: Spellings,
    templates: Vec<Template>,
    /// Metric units and directions, by metric.
    pub units: BTreeMap<String, Option<String>>,
    pub directions: BTreeMap<String, Direction>,
    /// The practical margin δ of each metric.
    pub margins: BTreeMap<String, f64>,
    /// Numeric values of each param, sorted.
    pub param_values: BTreeMap<String, Vec<f64>>,
    /// How many values of each param every series has runs at: a swept
    /// param's points are shared, a measurement stored as a param (a peak
    /// memory per configuration) shares none.
    pub shared_values: BTreeMap<String, usize>,
    /// The same, of each metric's own runs: a label constant over a
    /// metric's runs (`output_len = 256` on every throughput run) is no
    /// axis a sentence on that metric sweeps. Worked out on first ask
    /// ([`Vocabulary::metric_shared`]).
    pub metric_shared: MetricShared<'d>,
    /// The series and params it was built from ([`super::setup`]).
    pub data: Data,
    /// Metrics kept as fractions — named for one (`hit_ratio`, `mfu`) and
    /// every value in 0..=1 — of which `77%` is 0.77.
    pub fractions: BTreeSet<String>,
    /// The series param and the words prose writes for it (its name, with
    /// spaces for `_`, and its aliases; lowercase): `8 threads` of a series
    /// `threads` is a point of the curve across the series.
    pub series_param: (String, Vec<String>),
}

impl<'d> Vocabulary<'d> {
    /// The vocabulary of a dataset's series, metrics and params, as the
    /// project names them.
    pub(crate) fn new(dataset: &'d Dataset<'_>, options: &Options) -> Vocabulary<'d> {
        let series: BTreeSet<String> = dataset.param_values(&options.series).into_iter().collect();
        let mut texts: Texts = dataset
            .params()
            .filter(|p| *p != options.series && !p.contains('.'))
            .map(|p| (p.to_string(), dataset.param_texts(p)))
            .collect();
        // A param named like a pseudo-param (`date`, `source`, …) is, for a
        // run without it, the pseudo-param: its values come from every run.
        let params: BTreeMap<String, Vec<String>> = texts
            .iter()
            .map(|(p, (values, _))| {
                let values = if is_pseudo_param(p) { dataset.param_values(p) } else { values.clone() };
                (p.clone(), values)
            })
            .collect();
        let mut vocab = Vocabulary::build(options, &series, &params);
        texts.retain(|p, _| vocab.param_values.contains_key(p));
        vocab.shared_values = shared_values(&dataset.param_texts(&options.series).1, &texts);
        vocab.metric_shared = MetricShared::of(dataset, &options.series, texts.into_keys().collect());
        vocab.fractions = fractions(dataset, options);
        vocab
    }

    /// [`Vocabulary::shared_values`] of one metric's own runs; `None` for a
    /// metric the project does not know or whose runs hold no value.
    pub(crate) fn metric_shared(&self, metric: &str) -> Option<Shared> {
        self.units.contains_key(metric).then(|| self.metric_shared.get(metric)).flatten()
    }

    /// The vocabulary of the given series, the options' metrics and the
    /// given params (name, values as text). Repeat markers (`trial`,
    /// `seed`, `run`, … see [`crate::run::is_repeat_marker`]) tell repeats
    /// apart, not points: prose never names a point by them, and a sentence
    /// without a point never speaks of every one of them.
    pub(crate) fn build(
        options: &Options,
        series: &BTreeSet<String>,
        params: &BTreeMap<String, Vec<String>>,
    ) -> Vocabulary<'d> {
        let params: BTreeMap<String, Vec<String>> =
            params.iter().filter(|(p, _)| !is_repeat_marker(p)).map(|(p, v)| (p.clone(), v.clone())).collect();
        let params = &params;
        let mut map = names(options, series, params);
        let mut templates = Vec::new();
        for (phrase, spec) in &options.points {
            if phrase.contains("{n}") {
                let mut pattern = String::from("(?i)^");
                for (i, part) in phrase.split("{n}").enumerate() {
                    if i > 0 {
                        pattern.push_str(r"(\d+(?:\.\d+)?)");
                    }
                    pattern.push_str(&regex::escape(part).replace(' ', r"\s*"));
                }
                let on_repeats = Scope::parse(spec, Some(1.0)).is_some_and(|s| is_repeat_marker(s.param()));
                if let (Ok(re), false) = (Regex::new(&pattern), on_repeats) {
                    templates.push(Template { re, spec: spec.clone() });
                }
            } else if let Some(scope) = Scope::parse(spec, None).filter(|s| !is_repeat_marker(s.param())) {
                add_phrase(&mut map, phrase, Meaning::Point(scope));
            }
        }
        let mut phrases = merge_meanings(map);
        phrases.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        let mut param_values = BTreeMap::new();
        for (p, values) in params {
            let mut vs: Vec<f64> = values.iter().filter_map(|v| crate::syntax::read_logged(v)).collect();
            vs.sort_by(f64::total_cmp);
            vs.dedup();
            param_values.insert(p.clone(), vs);
        }
        let rules = &options.metrics;
        Vocabulary {
            starting: starting(&phrases),
            spellings: Spellings::new(series, rules.keys()),
            phrases,
            templates,
            units: rules.iter().map(|(m, r)| (m.clone(), r.unit.clone())).collect(),
            directions: rules.iter().map(|(m, r)| (m.clone(), r.direction)).collect(),
            margins: rules.iter().map(|(m, r)| (m.clone(), r.margin)).collect(),
            shared_values: param_values.iter().map(|(p, v)| (p.clone(), v.len())).collect(),
            metric_shared: MetricShared::default(),
            fractions: BTreeSet::new(),
            series_param: (options.series.clone(), series_words(options)),
            param_values,
            data: Data { series: series.clone(), params: params.clone() },
        }
    }

    /// The unit a metric is stored in, if known.
    pub(crate) fn unit(&self, metric: &str) -> Option<&str> {
        self.units.get(metric).and_then(|u| u.as_deref())
    }
}

/// The words for the series param: its name (`_` also as a space) and its
/// aliases, lowercase.
fn series_words(options: &Options) -> Vec<String> {
    let p = &options.series;
    let mut words = vec![p.to_ascii_lowercase(), p.replace('_', " ").to_ascii_lowercase()];
    words.extend(options.aliases.get(p).into_iter().flatten().map(|a| a.to_ascii_lowercase()));
    words.dedup();
    words
}

/// Every name of a series, metric and param, lowercase: the project's
/// aliases first (a word reckon.toml gives a meaning keeps it over a metric
/// or param that happens to have that name), then the names themselves
/// (metrics and params also with spaces for `_`).
fn names(
    options: &Options,
    series: &BTreeSet<String>,
    params: &BTreeMap<String, Vec<String>>,
) -> BTreeMap<String, Vec<Meaning>> {
    let mut map: BTreeMap<String, Vec<Meaning>> = BTreeMap::new();
    for (canonical, words) in &options.aliases {
        let meaning = if series.contains(canonical) {
            Meaning::Series(vec![canonical.clone()])
        } else if options.metrics.contains_key(canonical) {
            Meaning::Metric(canonical.clone())
        } else if params.contains_key(canonical) {
            Meaning::Param(canonical.clone())
        } else {
            continue;
        };
        for w in words {
            add_phrase(&mut map, w, meaning.clone());
        }
    }
    let explicit: BTreeSet<String> = map.keys().cloned().collect();
    let mut add = |phrase: &str, m: Meaning| {
        if !explicit.contains(&phrase.trim().to_ascii_lowercase()) {
            add_phrase(&mut map, phrase, m);
        }
    };
    // A numeral names a series only beside the series param's name
    // (`micro-batch 4`, `4 threads`): bare, it is a number.
    let param = &options.series;
    let mut forms = vec![param.clone(), param.replace('_', " "), param.replace('_', "-")];
    forms.extend(options.aliases.get(param).into_iter().flatten().cloned());
    for s in series {
        if crate::syntax::read_padded(s).is_some() {
            for f in &forms {
                add(&format!("{f} {s}"), Meaning::Series(vec![s.clone()]));
                add(&format!("{s} {f}"), Meaning::Series(vec![s.clone()]));
            }
        } else {
            add(s, Meaning::Series(vec![s.clone()]));
        }
    }
    for m in options.metrics.keys() {
        add(m, Meaning::Metric(m.clone()));
        add(&m.replace('_', " "), Meaning::Metric(m.clone()));
    }
    for p in params.keys() {
        add(p, Meaning::Param(p.clone()));
        add(&p.replace('_', " "), Meaning::Param(p.clone()));
    }
    // The text values of a param with several: `in fp8`, `the Zipf trace`,
    // `the scan mix` (a value's `-`/`_` read as a space too).
    for (p, values) in params {
        if values.len() < 2 || values.iter().all(|v| crate::syntax::read_padded(v).is_some()) {
            continue;
        }
        for v in values {
            let m = Meaning::Value(p.clone(), v.clone());
            add(v, m.clone());
            add(&v.replace(['-', '_'], " "), m);
        }
    }
    map
}

/// One phrase, several meanings: series merge into one ambiguous mention;
/// otherwise the first meaning given wins (an alias before a name).
fn merge_meanings(map: BTreeMap<String, Vec<Meaning>>) -> Vec<(String, Meaning)> {
    map.into_iter()
        .map(|(k, ms)| {
            let series: BTreeSet<String> = ms
                .iter()
                .filter_map(|m| match m {
                    Meaning::Series(s) => Some(s.clone()),
                    _ => None,
                })
                .flatten()
                .collect();
            let m = if series.is_empty() {
                ms.into_iter().next().unwrap_or(Meaning::Series(Vec::new()))
            } else {
                Meaning::Series(series.into_iter().collect())
            };
            (k, m)
        })
        .collect()
}

fn add_phrase(map: &mut BTreeMap<String, Vec<Meaning>>, phrase: &str, m: Meaning) {
    let key = phrase.trim().to_ascii_lowercase();
    if key.is_empty() {
        return;
    }
    let entry = map.entry(key).or_default();
    if !entry.contains(&m) {
        entry.push(m);
    }
}

/// One token of a sentence, with its byte range in the sentence.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Mention(Meaning),
    Number(Number),
    Date(String),
    /// A lowercase word.
    Word(String),
    Punct(char),
}

static DATE: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"^\d{4}-\d{2}-\d{2}").ok());

/// Cuts a sentence into tokens.
pub(crate) fn tokenize(vocab: &Vocabulary, s: &str) -> Vec<Token> {
    let lower = s.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut i = 0;
    let date = DATE.as_ref();
    while i < s.len() {
        let rest = &s[i..];
        let Some(c) = rest.chars().next() else { break };
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let word_start = s[..i].chars().next_back().is_none_or(|p| !is_word_char(p));
        if let Some(m) = date.as_ref().and_then(|d| d.find(rest)) {
            out.push(Token { kind: Tok::Date(rest[..m.end()].to_string()), start: i, end: i + m.end() });
            i += m.end();
            continue;
        }
        if word_start {
            if let Some((len, scope)) = template_at(vocab, rest) {
                out.push(Token { kind: Tok::Mention(Meaning::Point(scope)), start: i, end: i + len });
                i += len;
                continue;
            }
            if let Some((len, meaning)) = phrase_at(vocab, &lower[i..]) {
                out.push(Token { kind: Tok::Mention(meaning), start: i, end: i + len });
                i += len;
                continue;
            }
        }
        // `bs=32` where `bs` names nothing reckon knows: the setting of some
        // knob, neither a stated value nor a point; read as a plain word.
        let unknown_setting = matches!(
            out.as_slice(),
            [.., Token { kind: Tok::Word(_), .. }, Token { kind: Tok::Punct('='), end, .. }] if *end == i
        );
        if c.is_ascii_digit() && word_start && !unknown_setting {
            let metric_at = |l: &str| match phrase_at(vocab, l) {
                Some((len, Meaning::Metric(m))) => Some((len, m)),
                _ => None,
            };
            if let Some((tok, len)) = number_at(rest, &lower[i..], metric_at) {
                out.push(Token { kind: Tok::Number(tok), start: i, end: i + len });
                i += len;
                continue;
            }
        }
        if is_word_char(c) {
            let len =
                rest.find(|ch: char| !(is_word_char(ch) || ch == '-' || ch == '\'' || ch == '’')).unwrap_or(rest.len());
            let w = rest[..len].trim_end_matches(['-', '\'', '’']);
            let w = w.strip_suffix("'s").or_else(|| w.strip_suffix("’s")).unwrap_or(w).to_lowercase();
            // `more than twice baseline's`: a ratio written as a word.
            let kind = match w.as_str() {
                "twice" => Tok::Number(Number { value: 2.0, precision: 0.0, unit: Unit::Times, binary: None }),
                "thrice" => Tok::Number(Number { value: 3.0, precision: 0.0, unit: Unit::Times, binary: None }),
                _ => Tok::Word(w),
            };
            out.push(Token { kind, start: i, end: i + len });
            i += len;
            continue;
        }
        out.push(Token { kind: Tok::Punct(c), start: i, end: i + c.len_utf8() });
        i += c.len_utf8();
    }
    out
}

fn template_at(vocab: &Vocabulary, rest: &str) -> Option<(usize, Scope)> {
    for t in &vocab.templates {
        if let Some(c) = t.re.captures(rest) {
            let whole = c.get(0)?;
            if rest[whole.end()..].chars().next().is_some_and(is_word_char) {
                continue;
            }
            let n = crate::syntax::read_logged(c.get(1)?.as_str())?;
            if let Some(scope) = Scope::parse(&t.spec, Some(n)) {
                return Some((whole.end(), scope));
            }
        }
    }
    None
}

/// The phrases by the first byte of a text they can start: their own, and
/// `i` of a lone `y` (its plural `ies`).
fn starting(phrases: &[(String, Meaning)]) -> Vec<Vec<u32>> {
    let mut by_byte: Vec<Vec<u32>> = vec![Vec::new(); 256];
    for (k, (p, _)) in phrases.iter().enumerate() {
        let k = u32::try_from(k).unwrap_or(u32::MAX);
        for b in p.as_bytes().first().into_iter().chain((p == "y").then_some(&b'i')) {
            by_byte[usize::from(*b)].push(k);
        }
    }
    by_byte
}

/// The longest phrase of the vocabulary at the start of `lower`, ending at
/// a word boundary (a plural `s`/`es`/`ies` allowed).
pub(super) fn phrase_at(vocab: &Vocabulary, lower: &str) -> Option<(usize, Meaning)> {
    let first = lower.as_bytes().first().map_or(&[][..], |b| vocab.starting[usize::from(*b)].as_slice());
    for (p, m) in first.iter().map(|k| &vocab.phrases[*k as usize]) {
        let mut ends: Vec<usize> = Vec::new();
        if lower.starts_with(p.as_str()) {
            ends.extend([p.len(), p.len() + 1, p.len() + 2]);
        } else if let Some(stem) = p.strip_suffix('y') {
            if lower.starts_with(stem) && lower[stem.len()..].starts_with("ies") {
                ends.push(stem.len() + 3);
            }
        }
        for (k, end) in ends.into_iter().enumerate() {
            if end > lower.len() {
                break;
            }
            if !lower.is_char_boundary(end) {
                continue;
            }
            let plural = &lower[p.len().min(end)..end];
            if k > 0 && !(plural == "s" || plural == "es" || plural.is_empty() || plural == "ies") {
                continue;
            }
            let boundary = lower[end..].chars().next().is_none_or(|c| !is_word_char(c));
            // A phrase ending in a symbol (`tok/s`, `topk=1+v2`) may not run
            // into a longer name.
            let last_ok = p.chars().last().is_some_and(is_word_char) || k == 0;
            if boundary && last_ok {
                return Some((end, m.clone()));
            }
        }
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::claims::judge::Settings;
    use crate::lint::MetricRule;
    use crate::metric::Margins;

    pub(crate) fn vocabulary() -> Vocabulary<'static> {
        let series = ["cublas", "triton", "cutlass"].into_iter().map(String::from).collect();
        let strings = |xs: &[&str]| xs.iter().map(|x| (*x).to_string()).collect::<Vec<_>>();
        let params =
            [("size".to_string(), strings(&["512", "4096", "8192"])), ("cache_mb".to_string(), strings(&["64"]))]
                .into_iter()
                .collect();
        Vocabulary::build(&options(), &series, &params)
    }

    pub(crate) fn options() -> Options {
        let strings = |xs: &[&str]| xs.iter().map(|x| (*x).to_string()).collect::<Vec<_>>();
        // reckon's default margins: 2% for a throughput, 5% for a latency.
        let rule = |name: &str, direction, margin| MetricRule {
            unit: crate::metric::unit_from_name(name).map(str::to_string),
            direction,
            margin,
        };
        Options {
            series: "kernel".into(),
            aliases: [
                ("cublas", strings(&["cuBLAS"])),
                ("triton", strings(&["Triton", "hand-written"])),
                ("cutlass", strings(&["CUTLASS", "hand-written"])),
                ("tflops", strings(&["TFLOPS"])),
                ("size", strings(&["N"])),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
            points: [("large matrices", "size >= 4096"), ("{n} MB", "cache_mb = {n}")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            metrics: [
                ("tflops", rule("tflops", Direction::Higher, 0.02)),
                ("latency_us", rule("latency_us", Direction::Lower, 0.05)),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
            judging: Settings {
                series: "kernel".into(),
                margins: Margins {
                    by_metric: BTreeMap::new(),
                    throughput: 0.02,
                    latency: 0.05,
                    tail_latency: 0.1,
                    other: 0.05,
                },
                supersede: crate::claims::judge::Supersede::Cell,
            },
        }
    }

    #[test]
    fn a_datasets_vocabulary_is_what_its_runs_say() {
        use crate::query::filter::{Field, Fields};
        use crate::run::Value;
        use crate::store::builder::StoreBuilder;
        let (num, text) = (Value::Num, |t: &str| Value::Text(t.into()));
        let run = |kernel: &str, size: f64, peak: Value, source: Option<&str>| {
            let mut p = vec![("kernel", text(kernel)), ("size", num(size)), ("peak_mb", peak)];
            p.extend(source.map(|s| ("source", text(s))));
            (p, 1.0)
        };
        // `size` is swept by every kernel at 512 and 4096 (cutlass also at
        // 8192); `peak_mb` is one number per kernel, once as text that reads
        // like another's number; `source` is a param of some runs only.
        let store = StoreBuilder::new()
            .source(
                "a.jsonl",
                "2026-11-20T09:00:00Z",
                &[
                    run("cublas", 512.0, num(1.0), None),
                    run("cublas", 4096.0, num(1.0), Some("lab")),
                    run("triton", 512.0, text("1"), None),
                    run("triton", 4096.0, text("1"), None),
                ],
            )
            .source(
                "b.jsonl",
                "2026-11-21T09:00:00Z",
                &[
                    run("cutlass", 512.0, num(3.0), None),
                    run("cutlass", 4096.0, num(3.0), None),
                    run("cutlass", 8192.0, num(3.0), None),
                    run("cublas", 512.0, num(1.0), None),
                ],
            )
            .build();
        let dataset = Dataset::load(&store).unwrap();
        let vocab = Vocabulary::new(&dataset, &options());
        // The same read from every run's full record.
        let runs = dataset.runs();
        let texts = |p: &str| -> BTreeSet<String> {
            let text = |f: Field<'_>| match f {
                Field::Value(v) => v.to_string(),
                Field::Text(t) => t.to_string(),
            };
            runs.iter().filter_map(|r| r.field(p)).map(text).collect()
        };
        let series = texts("kernel");
        let params: BTreeMap<String, Vec<String>> =
            ["peak_mb", "size", "source"].iter().map(|p| ((*p).to_string(), texts(p).into_iter().collect())).collect();
        let expect = Vocabulary::build(&options(), &series, &params);
        assert_eq!(vocab.param_values, expect.param_values);
        assert_eq!(vocab.param_values["source"].len(), 0, "source names files and a lab: no numbers");
        let shared = |p: &str| {
            let at = |k: &str| -> BTreeSet<String> {
                runs.iter()
                    .filter(|r| r.params.get("kernel").is_some_and(|v| v.to_string() == k))
                    .filter_map(|r| r.params.get(p).map(ToString::to_string))
                    .collect()
            };
            let held: Vec<BTreeSet<String>> = series.iter().map(|k| at(k)).filter(|v| !v.is_empty()).collect();
            if held.len() < series.len() {
                return 0;
            }
            held.iter().skip(1).fold(held[0].clone(), |acc, v| acc.intersection(v).cloned().collect()).len()
        };
        let expect: BTreeMap<String, usize> =
            ["peak_mb", "size", "source"].iter().map(|p| ((*p).to_string(), shared(p))).collect();
        assert_eq!(vocab.shared_values, expect);
        assert_eq!((expect["size"], expect["peak_mb"], expect["source"]), (2, 0, 0));
    }

    fn kinds(s: &str) -> Vec<Tok> {
        tokenize(&vocabulary(), s).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn tokens_name_series_metrics_points_and_numbers() {
        let t = kinds("cuBLAS reaches 1.2k TFLOPS at N=4096 on large matrices, 2.3x and 12% of 64 MB, 3×");
        assert!(matches!(t.last(), Some(Tok::Number(n)) if n.value == 3.0 && n.unit == Unit::Times), "{t:?}");
        assert_eq!(t[0], Tok::Mention(Meaning::Series(vec!["cublas".into()])));
        assert!(matches!(&t[2], Tok::Number(n) if n.value == 1200.0 && n.unit == Unit::Metric("tflops".into())));
        assert_eq!(t[4], Tok::Mention(Meaning::Param("size".into())));
        assert!(t.contains(&Tok::Mention(Meaning::Point(Scope::Range("size".into(), Op::Ge, 4096.0)))));
        let ratio = |n: &Number| n.value == 2.3 && n.unit == Unit::Times && (n.precision - 0.05 / 2.3).abs() < 1e-12;
        assert!(t.iter().any(|k| matches!(k, Tok::Number(n) if ratio(n))));
        assert!(t.iter().any(|k| matches!(k, Tok::Number(n) if n.value == 12.0 && n.unit == Unit::Percent)));
        assert!(t.contains(&Tok::Mention(Meaning::Point(Scope::At("cache_mb".into(), 64.0)))));
    }

    #[test]
    fn names_with_digits_are_not_numbers_and_shared_aliases_are_ambiguous() {
        let t = kinds("H100 and Llama-3-70B run the hand-written kernels in 11.6 µs or 212ms; TFLOPSµ tflopsé");
        assert!(
            !t.iter().any(|k| matches!(k, Tok::Number(n) if n.value == 100.0 || n.value == 70.0 || n.value == 3.0)),
            "{t:?}"
        );
        assert!(t.contains(&Tok::Mention(Meaning::Series(vec!["cutlass".into(), "triton".into()]))));
        assert!(t.iter().any(|k| matches!(k, Tok::Number(n) if n.value == 11.6 && n.unit == Unit::Time(1e-6))));
        assert!(t.iter().any(|k| matches!(k, Tok::Number(n) if n.value == 212.0 && n.unit == Unit::Time(1e-3))));
    }

    #[test]
    fn a_number_set_on_an_unknown_knob_is_neither_a_value_nor_a_point() {
        // `bs` and `C` name nothing the data hold: `bs=32` is a setting, and
        // reading 32 as a stated throughput would judge a claim nobody made.
        let t = kinds("cuBLAS reaches 240 TFLOPS with bs=32 from C=50 on");
        assert!(t.iter().any(|k| matches!(k, Tok::Number(n) if n.value == 240.0)), "{t:?}");
        assert!(!t.iter().any(|k| matches!(k, Tok::Number(n) if n.value == 32.0 || n.value == 50.0)), "{t:?}");
        assert!(t.contains(&Tok::Word("32".into())), "{t:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]
        /// Any text: tokens and sentences stay on character boundaries.
        #[test]
        fn any_prose_is_read_without_panicking(
            s in concat!(
                "(\\PC|[ .,x×µ%é`\n|#*-]|[0-9]|cuBLAS |TFLOPS| beats | vs |N=| MB| ms",
                "|hand-written|large matrices){0,60}"
            )
        ) {
            let v = vocabulary();
            for t in tokenize(&v, &s) {
                proptest::prop_assert!(s.is_char_boundary(t.start) && s.is_char_boundary(t.end));
            }
            let blocks = crate::lint::prose::blocks(&s, &crate::lint::prose::Ranges::default());
            for sentence in crate::lint::prose::sentences(&blocks) {
                proptest::prop_assert!(s.get(sentence.span.clone()).is_some(), "{:?}", sentence.span);
                let text = &blocks[sentence.block].text[sentence.range.clone()];
                let around = crate::lint::read::Surroundings::default();
                let _ = crate::lint::read::read(&v, &tokenize(&v, text), text, &around, &[]);
            }
        }
    }

    #[test]
    fn scopes_parse() {
        assert_eq!(Scope::parse("max_concurrency = 1", None), Some(Scope::At("max_concurrency".into(), 1.0)));
        assert_eq!(Scope::parse("the largest c", None), Some(Scope::Largest("c".into())));
        assert_eq!(Scope::parse("size >= {n}", Some(4096.0)), Some(Scope::Range("size".into(), Op::Ge, 4096.0)));
        assert_eq!(Scope::parse("c in 2..250", None), Some(Scope::Between("c".into(), 2.0, 250.0)));
        assert_eq!(Scope::parse("nonsense", None), None);
    }
}
