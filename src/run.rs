//! The record every log format is turned into: a run with its params and
//! metrics, before it reaches the store.

pub use crate::syntax::Value;

/// How ingest reads a label given as text into the one value type.
impl Value {
    /// Turns a label given as text (`--label concurrency=8`, a path capture)
    /// into a number when it reads as one, so it sorts numerically.
    pub fn from_label(text: &str) -> Value {
        Value::label_number(text).map_or_else(|| Value::Text(text.to_string()), Value::Num)
    }

    /// The number a label given as text is read as, if it reads as one
    /// (what [`Value::from_label`] decides, without building the value):
    /// written as a number exactly ([`crate::syntax::read_logged`], no
    /// spaces around it) and finite. `inf` and `nan` stay text: a label
    /// names a configuration as the researcher wrote it, and the store
    /// keeps it so (a query still reads `inf` as a number, see
    /// [`Value::as_f64`]).
    pub fn label_number(text: &str) -> Option<f64> {
        crate::syntax::read_logged(text).filter(|n| n.is_finite())
    }
}

/// A literal a filter or claim wrote, as the param value it names.
impl From<&crate::syntax::Literal> for Value {
    fn from(lit: &crate::syntax::Literal) -> Value {
        match lit {
            crate::syntax::Literal::Num(n) => Value::Num(*n),
            crate::syntax::Literal::Text(t) => Value::Text(t.clone()),
        }
    }
}

/// One measured number of a run. `value` is NaN when the log wrote `NaN`.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    pub name: String,
    pub value: f64,
    /// The unit when the format states it (hyperfine: seconds); otherwise
    /// the built-in rules derive it from the name.
    pub unit: Option<String>,
}

/// One measurement record as a format parser produces it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawRun {
    /// 1-based line in the source file where the record starts.
    pub line: u64,
    pub params: Vec<(String, Value)>,
    pub metrics: Vec<Metric>,
    /// The log's own timestamp for this run, as RFC 3339 UTC
    /// (`2026-11-29T14:02:11Z`), where the format has one.
    pub time: Option<String>,
}

impl RawRun {
    pub fn new(line: u64) -> Self {
        RawRun { line, ..Default::default() }
    }

    pub fn param(&mut self, key: impl Into<String>, value: Value) {
        self.params.push((key.into(), value));
    }

    pub fn metric(&mut self, name: impl Into<String>, value: f64) {
        self.metrics.push(Metric { name: name.into(), value, unit: None });
    }

    pub fn metric_with_unit(&mut self, name: impl Into<String>, value: f64, unit: &str) {
        self.metrics.push(Metric { name: name.into(), value, unit: Some(unit.to_string()) });
    }
}

/// The param a run carries when its tool judged its own result: loadgen's
/// `Result is : VALID` or `INVALID` (`result=INVALID`: the test did not
/// meet its constraints — latency bounds, minimum duration or queries — so
/// its numbers are not a measurement of the configuration it ran).
pub const VALIDITY_PARAM: &str = "result";

/// Whether a param says its run's tool judged the result invalid
/// ([`VALIDITY_PARAM`] = `INVALID`, in any case).
pub fn is_invalid_result(name: &str, value: &Value) -> bool {
    name == VALIDITY_PARAM && matches!(value, Value::Text(t) if t.trim().eq_ignore_ascii_case("INVALID"))
}

/// Whether a param with this name tells repeats of one configuration apart
/// (`repeat`, `rep`, `run`, `run_number`, `run_index`, `seed`, `iteration`,
/// `iter`, `trial`, `repetition`; case, `-` and spaces do not matter, and a
/// dotted name is judged by its last part). Such a param is kept, so a run
/// can be found again, but it never makes runs different points: a cell's
/// runs that differ only in it are repeats to aggregate, not configurations
/// to tell apart.
pub fn is_repeat_marker(name: &str) -> bool {
    let leaf = name.rsplit('.').next().unwrap_or(name);
    // Compared byte by byte, without building the folded name: a verdict's
    // evidence asks this of every param of every run it read.
    REPEAT_MARKERS.iter().any(|m| m.len() == leaf.len() && leaf.bytes().zip(m.bytes()).all(|(c, m)| fold(c) == m))
}

/// The names [`is_repeat_marker`] knows, folded.
const REPEAT_MARKERS: [&str; 12] = [
    "repeat",
    "rep",
    "run",
    "run_number",
    "run_index",
    "run_idx",
    "seed",
    "iteration",
    "iter",
    "trial",
    "repetition",
    "repetition_index",
];

/// A byte of a param name as [`is_repeat_marker`] compares it: `-` and
/// space read as `_`, ASCII letters in lower case (other bytes, UTF-8
/// included, as they are: no marker has them).
fn fold(c: u8) -> u8 {
    match c {
        b'-' | b' ' => b'_',
        c => c.to_ascii_lowercase(),
    }
}

/// The runs of one file on their way from the parser thread to the writer,
/// packed: a batch of runs is four buffers instead of a few allocations per
/// run (a `String` per metric name among them), allocated and freed on two
/// threads. Metrics travel as indices into the file's metric names; the
/// names themselves travel once, in the batch that first uses them.
#[derive(Debug, Default)]
pub struct RunBatch {
    /// Names (with the unit the format states) first used in this batch;
    /// their indices follow those of the file's earlier batches.
    pub new_metrics: Vec<(String, Option<String>)>,
    runs: Vec<PackedRun>,
    /// Every run's metrics: (index of the name, value).
    values: Vec<(u32, f64)>,
    /// Every run's params, encoded, one after another.
    params: String,
}

#[derive(Debug)]
struct PackedRun {
    line: u64,
    time: Option<String>,
    /// Where its params and values end in the batch's buffers.
    params_end: usize,
    values_end: usize,
}

/// One run of a [`RunBatch`].
#[derive(Debug, Clone, Copy)]
pub struct PackedView<'a> {
    pub line: u64,
    pub time: Option<&'a str>,
    /// The params as the store keeps them (see `store::encode_params`).
    pub params_json: &'a str,
    /// (index of the metric's name in the file, value).
    pub metrics: &'a [(u32, f64)],
}

impl RunBatch {
    /// Packs a run: its metrics by index (names new to the file go into
    /// `new_metrics`), and its params as encoded for the store.
    pub fn push(&mut self, run: &RawRun, names: &mut MetricNames, params_json: &str) {
        names.index(run, &mut self.values, &mut self.new_metrics);
        self.params.push_str(params_json);
        self.runs.push(PackedRun {
            line: run.line,
            time: run.time.clone(),
            params_end: self.params.len(),
            values_end: self.values.len(),
        });
    }

    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// Hands the batch over, leaving an empty one with room for as much.
    #[must_use = "the batch taken holds the runs"]
    pub fn take(&mut self) -> RunBatch {
        let empty = RunBatch {
            new_metrics: Vec::new(),
            runs: Vec::with_capacity(self.runs.len()),
            values: Vec::with_capacity(self.values.len()),
            params: String::with_capacity(self.params.len()),
        };
        std::mem::replace(self, empty)
    }

    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The runs, in the order they were pushed.
    pub fn runs(&self) -> impl Iterator<Item = PackedView<'_>> {
        let mut params_at = 0;
        let mut values_at = 0;
        self.runs.iter().map(move |r| {
            let view = PackedView {
                line: r.line,
                time: r.time.as_deref(),
                params_json: self.params.get(params_at..r.params_end).unwrap_or_default(),
                metrics: self.values.get(values_at..r.values_end).unwrap_or_default(),
            };
            params_at = r.params_end;
            values_at = r.values_end;
            view
        })
    }
}

/// The metric names of one file, each with its index, on the parser's
/// side of a [`RunBatch`].
#[derive(Debug, Default)]
pub struct MetricNames {
    /// By name: each unit it came with, and that pair's index.
    by_name: std::collections::HashMap<String, Vec<(Option<String>, u32)>>,
    /// Every name so far, by index.
    names: Vec<(String, Option<String>)>,
    /// The indices of the last run's metrics: the runs of a log name the
    /// same metrics in the same order, so most runs need no lookup.
    last: Vec<u32>,
}

impl MetricNames {
    /// Appends the run's metrics as (index, value) to `values`; names new
    /// to the file go to `new`.
    fn index(&mut self, run: &RawRun, values: &mut Vec<(u32, f64)>, new: &mut Vec<(String, Option<String>)>) {
        let same = run.metrics.len() == self.last.len()
            && run.metrics.iter().zip(&self.last).all(|(m, &i)| {
                let (name, unit) = &self.names[i as usize];
                *name == m.name && *unit == m.unit
            });
        if same {
            values.extend(self.last.iter().zip(&run.metrics).map(|(&i, m)| (i, m.value)));
            return;
        }
        self.last.clear();
        for m in &run.metrics {
            let known = self.by_name.get(&m.name).and_then(|units| units.iter().find(|(u, _)| *u == m.unit));
            let i = if let Some(&(_, i)) = known {
                i
            } else {
                let i = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
                self.by_name.entry(m.name.clone()).or_default().push((m.unit.clone(), i));
                self.names.push((m.name.clone(), m.unit.clone()));
                new.push((m.name.clone(), m.unit.clone()));
                i
            };
            self.last.push(i);
            values.push((i, m.value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeat_markers_are_read_whatever_their_case_dashes_and_prefix() {
        // The rule as first written: the last dotted part, `-` and spaces as
        // `_`, lower case, then one of the names.
        let reference = |name: &str| {
            let leaf = name.rsplit('.').next().unwrap_or(name);
            let n: String =
                leaf.chars().map(|c| if c == '-' || c == ' ' { '_' } else { c.to_ascii_lowercase() }).collect();
            REPEAT_MARKERS.contains(&n.as_str())
        };
        let names = [
            "repeat",
            "Repeat",
            "REP",
            "run",
            "Run-Number",
            "run index",
            "run_idx",
            "seed",
            "bench.seed",
            "Iteration",
            "iter",
            "trial",
            "repetition",
            "Repetition-Index",
            "repeats",
            "re",
            "runs",
            "run_",
            "server.config",
            "seeds",
            "iter.x",
            "a.b.TRIAL",
            "",
            ".",
            "rün",
            "run\u{0301}",
            "ＲＵＮ",
            "config",
            "max_concurrency",
        ];
        for name in names {
            assert_eq!(is_repeat_marker(name), reference(name), "{name:?}");
        }
        let yes: Vec<&str> = names.iter().copied().filter(|n| is_repeat_marker(n)).collect();
        assert_eq!(
            yes,
            [
                "repeat",
                "Repeat",
                "REP",
                "run",
                "Run-Number",
                "run index",
                "run_idx",
                "seed",
                "bench.seed",
                "Iteration",
                "iter",
                "trial",
                "repetition",
                "Repetition-Index",
                "a.b.TRIAL"
            ]
        );
    }

    fn run(line: u64, metrics: &[(&str, f64, Option<&str>)]) -> RawRun {
        let mut r = RawRun::new(line);
        for &(name, value, unit) in metrics {
            match unit {
                Some(u) => r.metric_with_unit(name, value, u),
                None => r.metric(name, value),
            }
        }
        r
    }

    #[test]
    fn packed_runs_give_back_their_metrics_by_name() {
        let runs = [
            run(1, &[("a", 1.0, None), ("b", 2.0, Some("s"))]),
            run(2, &[("a", 3.0, None), ("b", 4.0, Some("s"))]),
            // Another order, a new name, the same name with another unit.
            run(3, &[("c", 5.0, None), ("a", 6.0, None), ("b", 7.0, None)]),
            run(4, &[]),
            run(5, &[("a", f64::NAN, None), ("a", 8.0, None)]),
        ];
        let mut names = MetricNames::default();
        let mut all: Vec<(String, Option<String>)> = Vec::new();
        let mut seen = Vec::new();
        let mut batch = RunBatch::default();
        for (i, r) in runs.iter().enumerate() {
            let mut r = r.clone();
            r.time = (i == 2).then(|| "2026-11-29T00:00:00Z".to_string());
            batch.push(&r, &mut names, &format!("{{\"i\":{i}}}"));
            // Two batches: indices go on across batches of a file.
            if i == 1 || i == runs.len() - 1 {
                let b = batch.take();
                all.extend(b.new_metrics.iter().cloned());
                for v in b.runs() {
                    let metrics: Vec<Metric> = v
                        .metrics
                        .iter()
                        .map(|&(k, value)| {
                            let (name, unit) = all[k as usize].clone();
                            Metric { name, value, unit }
                        })
                        .collect();
                    seen.push((v.line, v.time.map(str::to_owned), v.params_json.to_owned(), metrics));
                }
            }
        }
        assert_eq!(all.len(), 4, "a, b in s, c, b: {all:?}");
        assert_eq!(seen.len(), runs.len());
        for (i, (r, (line, time, params, metrics))) in runs.iter().zip(&seen).enumerate() {
            assert_eq!(*line, r.line);
            assert_eq!(time.is_some(), i == 2);
            assert_eq!(*params, format!("{{\"i\":{i}}}"));
            assert_eq!(format!("{metrics:?}"), format!("{:?}", r.metrics));
        }
    }
}
