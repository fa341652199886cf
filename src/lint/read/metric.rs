//! Which metric a clause speaks of. Its own (by name, or as a number's
//! unit) comes first; else one from around it — the sentence, the project's
//! one metric kept in time for a stated time, the block, the heading — but
//! only one that fits the clause's words: `faster`/`slower` speak of a
//! speed (a time or a rate), so `slower` in a paragraph about a hit rate is
//! not a claim on the hit rate; `more memory` speaks of memory, which is no
//! metric the project has. What fits nothing is not judged.

use super::super::vocab::{stored_time, Number, Tok, Token, Unit, Vocabulary};
use super::words::{word, HIGHER, HIGHEST, LOWER, LOWEST, SPEED};
use super::{metric_named, Sentence};

/// Words that may follow a comparative without naming what is compared
/// (`higher than`, `better at C=30`, `lower in every run`).
const CARRY_ON: &[&str] = &[
    "than",
    "and",
    "or",
    "but",
    "at",
    "for",
    "on",
    "in",
    "with",
    "by",
    "from",
    "to",
    "across",
    "overall",
    "still",
    "here",
    "there",
    "now",
    "again",
    "too",
    "as",
    "when",
    "while",
    "under",
    "over",
    "of",
    "per",
    "is",
    "are",
    "was",
    "were",
    "so",
    "then",
    "every",
    "all",
    "each",
    "any",
    "this",
    "that",
    "it",
    "its",
    "up",
    "down",
    "above",
    "below",
    "if",
    "because",
    "since",
    "even",
    "only",
    "one",
    "ones",
    "once",
    "whenever",
    "where",
    "until",
    "throughout",
    "the",
    "a",
    "an",
    "which",
    "who",
    "not",
    "no",
    "yet",
    "already",
    "both",
    "either",
    "neither",
    "nor",
];

/// Words of a race: with no metric anywhere around them, of speed.
const RACE: &[&str] = &[
    "trails",
    "trail",
    "trailed",
    "trailing",
    "ahead",
    "behind",
    "overtakes",
    "overtake",
    "overtook",
    "leads",
    "lags",
    "outpaces",
];

/// What a clause's words ask of a metric it does not name.
enum Demand {
    /// Whatever metric the context offers.
    Any,
    /// A speed: a time or a rate (`faster`, `slower`); the word.
    Speed(String),
    /// A quantity named right after a comparative that is no metric of the
    /// project (`more memory`, `better compression`); the word.
    Other(String),
}

fn demand(c: &[Token]) -> Demand {
    if let Some(w) = c.iter().filter_map(word).find(|w| SPEED.contains(w)) {
        return Demand::Speed(w.to_string());
    }
    for (i, t) in c.iter().enumerate() {
        let Some(w) = word(t) else { continue };
        // Adjectives that take a noun (`higher hit rate`, `better compression`);
        // verbs (`beats`, `trails`) take a series.
        let comparative = [HIGHER, LOWER, HIGHEST, LOWEST, &["better", "worse", "stronger", "weaker"]]
            .iter()
            .any(|ws| ws.contains(&w));
        if let (true, Some(Tok::Word(next))) = (comparative, c.get(i + 1).map(|t| &t.kind)) {
            if !CARRY_ON.contains(&next.as_str()) {
                return Demand::Other(next.clone());
            }
        }
    }
    Demand::Any
}

/// Whether a metric is a percentile of a distribution (`p99_ms`,
/// `latency_p50`, `tail_latency`) rather than the time a thing takes.
fn is_percentile(metric: &str) -> bool {
    let n = metric.to_ascii_lowercase();
    n.contains("tail")
        || n.contains("percentile")
        || n.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w.len() > 1 && w.starts_with('p') && w[1..].chars().all(|c| c.is_ascii_digit()))
}

/// Whether a metric measures speed: kept in a time unit or a rate, or
/// named for one (`throughput`, `latency`, `ttft`, `flops`, `_per_s`, …).
fn measures_speed(vocab: &Vocabulary, metric: &str) -> bool {
    const NAMED: &[&str] = &[
        "throughput",
        "goodput",
        "latency",
        "ttft",
        "tpot",
        "itl",
        "e2el",
        "duration",
        "time",
        "speed",
        "per_s",
        "per_sec",
        "flops",
        "bandwidth",
        "elapsed",
        "runtime",
        "qps",
        "rps",
        "tps",
        "ops",
        "mbps",
        "gbps",
        "tok/s",
        "req/s",
    ];
    let rate = |u: &str| u.contains("/s") || u.ends_with("ps") || u.ends_with("_s");
    let unit_says = vocab.unit(metric).is_some_and(|u| stored_time(u).is_some() || rate(&u.to_ascii_lowercase()));
    let n = metric.to_ascii_lowercase();
    unit_says || NAMED.iter().any(|w| n.contains(w))
}

impl Sentence<'_> {
    /// The metric of a clause (see the module's doc) — else the one an
    /// earlier clause of the sentence read (`lent`) —, with each borrowing
    /// noted and lowering the confidence. `Err(Some(why))` when the
    /// clause's words fit no metric around it, or there is none around it
    /// at all.
    pub(super) fn metric(
        &self,
        c: &[Token],
        lent: Option<String>,
        notes: &mut Vec<String>,
        confidence: &mut f64,
    ) -> Result<String, Option<String>> {
        if let Some(m) = c.iter().find_map(metric_named) {
            return Ok(m);
        }
        let speed = match demand(c) {
            Demand::Other(w) => {
                return Err(Some(format!(
                    "`{w}` is not a metric of this project: name the metric compared (or make `{w}` its alias in \
                     reckon.toml)"
                )))
            }
            Demand::Speed(w) => Some(w),
            Demand::Any => None,
        };
        let fits = |m: &str| speed.is_none() || measures_speed(self.vocab, m);
        let mut offered: Vec<String> = Vec::new();
        let earlier = lent.map(|m| (m, None, 0.0));
        for (m, note, cost) in earlier.into_iter().chain(self.candidates(c, speed.as_deref())) {
            if fits(&m) {
                *confidence -= cost;
                notes.extend(note);
                return Ok(m);
            }
            offered.push(m);
        }
        // `X trails Y by 10%` with no metric anywhere around it: a race, of
        // speed (it was dropped unsaid).
        let race = || c.iter().filter_map(word).find(|w| RACE.contains(w)).map(str::to_string);
        // `LMDB puts take 2.1 µs` where several metrics are kept in time
        // (it was dropped unsaid).
        let timed = c.iter().any(|t| matches!(&t.kind, Tok::Number(Number { unit: Unit::Time(_), .. })));
        let in_time: Vec<String> = self
            .vocab
            .units
            .iter()
            .filter(|(_, u)| u.as_deref().and_then(stored_time).is_some())
            .map(|(m, _)| format!("`{m}`"))
            .collect();
        if timed && speed.is_none() && offered.is_empty() && in_time.len() > 1 {
            return Err(Some(format!(
                "a time is stated and the project keeps several metrics in time ({}): name the one meant",
                in_time.join(", ")
            )));
        }
        let Some(w) = speed.or_else(|| offered.is_empty().then(race).flatten()) else {
            // A comparison with no metric anywhere around it is said, never
            // dropped: `--all` lists every statement it found.
            let list = self.vocab.units.keys().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
            return Err(Some(format!("no metric is named around it: name one of {list}")));
        };
        let speeds: Vec<&String> = self.vocab.units.keys().filter(|m| measures_speed(self.vocab, m)).collect();
        let timed: Vec<&&String> =
            speeds.iter().filter(|m| self.vocab.unit(m).and_then(stored_time).is_some()).collect();
        if let [m] = speeds.as_slice() {
            *confidence -= 0.2;
            notes.push(format!("metric `{m}`, the one speed measured (for `{w}`)"));
            return Ok((*m).clone());
        }
        let timed: Vec<&&String> = timed.into_iter().filter(|m| !is_percentile(m)).collect();
        if let ([m], true) = (timed.as_slice(), offered.is_empty()) {
            *confidence -= 0.2;
            notes.push(format!("metric `{m}`, the one measured in time (for `{w}`)"));
            return Ok((**m).clone());
        }
        let around = match offered.first() {
            Some(m) => format!("the metric around it, `{m}`, is not a speed"),
            None => "no metric is named around it".to_string(),
        };
        let list = speeds.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
        Err(Some(format!("`{w}` speaks of a speed and {around}; name one of {list}")))
    }

    /// The metrics around a clause that names none, in the order they are
    /// tried, each with its note and what borrowing it costs in confidence:
    /// the sentence's; for a stated time, the project's one metric kept in
    /// time; the block's; the heading's. A speed word (`speed`) with no
    /// metric before it — the block's named only after the sentence — speaks
    /// of the time taken: the project's one metric kept in time comes before
    /// the block's (`X is the fastest kernel …; it peaks at 797 TFLOPS`).
    fn candidates(&self, c: &[Token], speed: Option<&str>) -> Vec<(String, Option<String>, f64)> {
        let mut out = Vec::new();
        if let Some(m) = &self.metric {
            out.push((m.clone(), None, 0.0));
        }
        let timed = c.iter().any(|t| matches!(&t.kind, Tok::Number(Number { unit: Unit::Time(_), .. })));
        let time_metrics: Vec<&String> = self
            .vocab
            .units
            .iter()
            .filter(|(_, u)| u.as_deref().and_then(stored_time).is_some())
            .map(|(m, _)| m)
            .collect();
        if let (true, [m]) = (timed, time_metrics.as_slice()) {
            out.push(((*m).clone(), Some(format!("metric `{m}`, the one measured in time")), 0.1));
        }
        let before = self.around.block_metric.is_some() && !self.around.block_metric_later
            || self.around.heading_metric.is_some();
        // A speed word means the time a thing takes, not a tail of it: beside
        // a rate (`qps`), `faster` is no statement about `p99_ms`.
        let taken: Vec<&&String> = time_metrics.iter().filter(|m| !is_percentile(m)).collect();
        if let (Some(w), false, false, [m]) = (speed, timed, before, taken.as_slice()) {
            out.push(((**m).clone(), Some(format!("metric `{m}`, the one measured in time (for `{w}`)")), 0.2));
        }
        // A metric the paragraph names only after the sentence belongs to
        // what follows (`… the merge itself is memory-bound.` does not make
        // the sentence before it a statement about memory).
        if let (Some(m), false) = (&self.around.block_metric, self.around.block_metric_later) {
            out.push((m.clone(), Some(format!("metric `{m}` from the paragraph")), 0.1));
        }
        if let Some(m) = &self.around.heading_metric {
            out.push((m.clone(), Some(format!("metric `{m}` from the section heading")), 0.15));
        }
        out
    }
}
