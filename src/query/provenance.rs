//! What a verdict or an inline value says about the runs behind a cell:
//! the points they mix, and where their repeats come from.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::dataset::Dataset;
use super::runs::Runs;
use super::{Filter, Query};
use crate::run::Value;

impl Dataset<'_> {
    /// The positions of the runs with these ids among the runs loaded.
    fn positions(runs: &Runs, run_ids: &[i64]) -> Vec<usize> {
        run_ids.iter().filter_map(|id| runs.position(*id)).collect()
    }

    /// Each run's sweep, in the order of `run_ids`: its rank among the
    /// sweeps (a later sweep ranks higher) and its date. A run not loaded
    /// has rank 0 and no date.
    pub fn sweeps_of(&self, run_ids: &[i64]) -> Vec<(u32, String)> {
        let runs = self.loaded_runs();
        run_ids
            .iter()
            .map(|id| runs.position(*id).map_or((0, String::new()), |at| (runs.sweep[at], runs.sweep_name(at).into())))
            .collect()
    }

    /// For each run (in the order of `run_ids`), whether its tool judged
    /// its result invalid ([`crate::run::is_invalid_result`]).
    pub fn invalid_runs(&self, run_ids: &[i64]) -> Vec<bool> {
        let runs = self.loaded_runs();
        let invalid = |at: usize| {
            let params = self.sets.get(runs.set[at] as usize);
            params
                .get(crate::run::VALIDITY_PARAM)
                .is_some_and(|v| crate::run::is_invalid_result(crate::run::VALIDITY_PARAM, v))
        };
        run_ids.iter().map(|id| runs.position(*id).is_some_and(invalid)).collect()
    }

    /// `filter` as claims read their `where`: runs their tool judged
    /// invalid (`result=INVALID`: the test did not meet its constraints)
    /// left out, unless the filter names `result` itself — so a table's,
    /// value's or query's number is the one a claim about it is judged on.
    /// Unchanged when no run has a `result`.
    pub fn valid_results(&self, filter: Filter) -> Filter {
        if self.leaves_out_invalid(&filter) {
            filter.valid_results()
        } else {
            filter
        }
    }

    fn leaves_out_invalid(&self, filter: &Filter) -> bool {
        let param = crate::run::VALIDITY_PARAM;
        self.has_param(param) && !filter.params().contains(&param)
    }

    /// What [`Dataset::valid_results`] left out of `q` (its filter as
    /// written), said: `None` when no run of its metric it passes is
    /// invalid.
    ///
    /// # Errors
    /// When the query cannot be evaluated.
    pub fn invalid_left_out(&self, q: &Query) -> crate::Result<Option<String>> {
        let n = self.invalid_count(q)?;
        let param = crate::run::VALIDITY_PARAM;
        Ok((n > 0).then(|| {
            let runs = if n == 1 { "run is" } else { "runs are" };
            format!(
                "{n} {runs} `{param}=INVALID` by the tool's own judgement (the test did not meet its \
                 constraints), left out as claims leave them out: an invalid result is no measurement of the \
                 configuration (`{param} = INVALID` in the filter shows them)"
            )
        }))
    }

    /// What [`Dataset::valid_results`] left out of an inline value's `q`,
    /// said in a few words the sentence around it can carry (the table's
    /// note, shortened): `None` when no run of its metric it passes is
    /// invalid.
    ///
    /// # Errors
    /// When the query cannot be evaluated.
    pub fn invalid_left_out_inline(&self, q: &Query) -> crate::Result<Option<String>> {
        let n = self.invalid_count(q)?;
        let param = crate::run::VALIDITY_PARAM;
        Ok((n > 0).then(|| {
            let (runs, them) = if n == 1 { ("run is", "it") } else { ("runs are", "them") };
            format!("{n} {runs} `{param}=INVALID` by the tool's own judgement, left out as claims leave {them} out")
        }))
    }

    /// How many runs of `q`'s metric its filter as written passes that
    /// [`Dataset::valid_results`] leaves out.
    fn invalid_count(&self, q: &Query) -> crate::Result<usize> {
        if !self.leaves_out_invalid(&q.filter) {
            return Ok(0);
        }
        let only = Query { filter: q.filter.clone().invalid_results(), ..q.clone() };
        Ok(self.evaluate(&only)?.runs_matched)
    }

    /// Where the repeats among these runs come from, for a verdict's
    /// evidence: several runs read from one log record (hyperfine's
    /// `times`: "3 repeats per record from hyperfine's `times` (b.json:3,
    /// b.json:23)"), or runs told apart by a repeat marker param ("repeats
    /// told apart by `repeat` (gemm.csv)"). `None` when every run is its own
    /// record with no marker: repeats only by sharing a configuration.
    pub fn repeats_note(&self, run_ids: &[i64]) -> Option<String> {
        let runs = self.loaded_runs();
        let at = Self::positions(&runs, run_ids);
        // Runs of one record are its repeats only when they share their
        // params but for a repeat marker: lm-eval writes one result per
        // filter at one line, hyperfine's `times` are one record's
        // repeats told apart by their index.
        let mut per_set: BTreeMap<(&str, u64, Vec<String>), usize> = BTreeMap::new();
        for a in &at {
            let set = runs.set[*a] as usize;
            let marker = self.sets.repeat_marker(set).map(|(name, _)| name);
            let params: Vec<String> = self
                .sets
                .get(set)
                .iter()
                .filter(|(name, _)| Some(*name) != marker)
                .map(|(name, v)| format!("{name}={v}"))
                .collect();
            *per_set.entry((runs.source_name(*a), runs.line[*a], params)).or_default() += 1;
        }
        let mut records: BTreeMap<(&str, u64), usize> = BTreeMap::new();
        for ((src, line, _), n) in per_set {
            let most = records.entry((src, line)).or_default();
            *most = (*most).max(n);
        }
        let format_of: BTreeMap<&str, &str> =
            runs.sources.iter().zip(&runs.formats).map(|(p, f)| (p.as_str(), f.as_str())).collect();
        let hyperfine = |src: &str| format_of.get(src).is_some_and(|f| *f == "hyperfine");
        let shared: Vec<(&(&str, u64), &usize)> = records.iter().filter(|(_, n)| **n > 1).collect();
        if !shared.is_empty() {
            let (lo, hi) = (
                shared.iter().map(|(_, n)| **n).min().unwrap_or(0),
                shared.iter().map(|(_, n)| **n).max().unwrap_or(0),
            );
            let per = if lo == hi { lo.to_string() } else { format!("{lo}–{hi}") };
            let from = if shared.iter().all(|((src, _), _)| hyperfine(src)) {
                "hyperfine's `times`"
            } else {
                "the log's per-repeat lists"
            };
            let at = places(&shared.iter().map(|((src, line), _)| format!("{src}:{line}")).collect::<Vec<_>>());
            return Some(format!("{per} repeats per record from {from} ({at})"));
        }
        // A value from hyperfine's summaries (`mean`, `median`, …) is one
        // number per command though hyperfine ran several repeats: say
        // where they are.
        if !records.is_empty() && records.keys().all(|(src, _)| hyperfine(src)) {
            let mut all: BTreeMap<(&str, u64), usize> = records.keys().map(|k| (*k, 0)).collect();
            // A record's runs may have other param sets than those loaded.
            let every = self.all_runs().unwrap_or_else(|_| Rc::clone(&runs));
            for r in 0..every.len() {
                if let Some(n) = all.get_mut(&(every.source_name(r), every.line[r])) {
                    *n += 1;
                }
            }
            let most = all.values().copied().max().unwrap_or(0);
            if most > 1 {
                return Some(format!(
                    "each value is hyperfine's summary of up to {most} repeats; the metric `time` holds one per run"
                ));
            }
        }
        // Each set's marker was decided once, when the sets were read.
        let marker = at.iter().find_map(|a| self.sets.repeat_marker(runs.set[*a] as usize))?.0;
        let distinct: BTreeSet<String> =
            at.iter().filter_map(|a| self.sets.get(runs.set[*a] as usize).get(marker)).map(Value::to_string).collect();
        if distinct.len() < 2 {
            return None;
        }
        let sources: BTreeSet<&str> = at.iter().map(|a| runs.source_name(*a)).collect();
        let at = places(&sources.into_iter().map(str::to_string).collect::<Vec<_>>());
        Some(format!("repeats told apart by `{marker}` ({at})"))
    }
}

/// The first two places, then how many more.
fn places(items: &[String]) -> String {
    let mut shown: Vec<String> = items.iter().take(2).cloned().collect();
    if items.len() > 2 {
        shown.push(format!("{} more", items.len() - 2));
    }
    shown.join(", ")
}

/// Per param, its values among one side's runs.
type SideSettings<'a> = BTreeMap<&'a str, BTreeSet<String>>;

/// A param's values among the runs of each side's series.
type BothSides = (BTreeSet<String>, BTreeSet<String>);

impl Dataset<'_> {
    /// Each param's values among the runs `ids`.
    fn side_settings(&self, runs: &Runs, ids: &[i64]) -> SideSettings<'_> {
        let mut values: SideSettings<'_> = BTreeMap::new();
        for at in Self::positions(runs, ids) {
            for (name, value) in self.sets.get(runs.set[at] as usize).iter() {
                values.entry(name).or_default().insert(value.to_string());
            }
        }
        values
    }

    /// The run settings the two sides of a comparison differ in, as
    /// `host_name bench-02 vs bench-01`: params both sides' runs record —
    /// not `series`, not a repeat marker — whose values among `a`'s runs
    /// are not those among `b`'s, and which do not merely restate the
    /// sides' names: in some sweep both sides' series ran with the same
    /// values of it (a host both used then; an executable's path named for
    /// its flags differs in every sweep and is not said). Empty when the
    /// data cannot tell.
    pub fn settings_between(&self, a: &[i64], b: &[i64], series: &str) -> Vec<String> {
        let runs = self.loaded_runs();
        let side = |ids: &[i64]| self.side_settings(&runs, ids);
        let (sa, sb) = (side(a), side(b));
        let (Some(series_a), Some(series_b)) = (sa.get(series), sb.get(series)) else { return Vec::new() };
        if series_a == series_b {
            return Vec::new();
        }
        let differ: Vec<&str> = sa
            .iter()
            .filter(|(name, values)| {
                **name != series && !crate::run::is_repeat_marker(name) && sb.get(*name).is_some_and(|w| w != *values)
            })
            .map(|(name, _)| *name)
            .collect();
        if differ.is_empty() {
            return Vec::new();
        }
        // Per sweep, param and side: the values the sides' series ran with.
        let mut seen: BTreeMap<(u32, &str), BothSides> = BTreeMap::new();
        for at in 0..runs.len() {
            let set = self.sets.get(runs.set[at] as usize);
            let Some(s) = set.get(series).map(ToString::to_string) else { continue };
            let (in_a, in_b) = (series_a.contains(&s), series_b.contains(&s));
            if !in_a && !in_b {
                continue;
            }
            for name in &differ {
                if let Some(v) = set.get(name) {
                    let sides = seen.entry((runs.sweep[at], name)).or_default();
                    if in_a { &mut sides.0 } else { &mut sides.1 }.insert(v.to_string());
                }
            }
        }
        differ
            .into_iter()
            .filter(|name| seen.iter().any(|((_, n), (x, y))| n == name && !x.is_empty() && x == y))
            .map(|name| {
                let list = |s: &SideSettings<'_>| s[name].iter().cloned().collect::<Vec<_>>().join(", ");
                format!("{name} {} vs {}", list(&sa), list(&sb))
            })
            .collect()
    }
}

/// Params whose value names the program that ran or the machine it ran on
/// (Google Benchmark's `executable` and `host_name`, a GPU's name): a
/// series that differs from the subject in one of them is another program
/// or machine. Any other param a subset of the series shares (a v2
/// worker's `enable_spec_v2`) is what tells the configurations apart.
fn names_program_or_machine(param: &str) -> bool {
    let last = param.rsplit('.').next().unwrap_or(param).to_ascii_lowercase();
    matches!(
        last.as_str(),
        "executable" | "host_name" | "hostname" | "host" | "machine" | "node_name" | "device_name" | "gpu_name"
    )
}

impl Dataset<'_> {
    /// For `A beats others`: the opponents that ran as another program or
    /// on another machine than the subject and the opponents like it — a
    /// param naming one ([`names_program_or_machine`]; not `series`, not a
    /// point's) with one value in every series' runs, which the subject
    /// shares with some opponents and these do not: "`Mempool_Fill`, `Mempool_Alloc_Dealloc`
    /// ran with executable …/Mempool where baseline ran with kalman.exe".
    /// `None` when every opponent ran as the subject did, or each series in a
    /// setting of its own (a param that only restates the series' names).
    /// Said beside a verdict, never weighed in it.
    pub fn others_apart(&self, subject: &[i64], opponents: &[(String, Vec<i64>)], skip: &[&str]) -> Option<String> {
        let runs = self.loaded_runs();
        let side = |ids: &[i64]| self.side_settings(&runs, ids);
        let own = side(subject);
        let theirs: Vec<(&str, SideSettings<'_>)> = opponents.iter().map(|(n, ids)| (n.as_str(), side(ids))).collect();
        let single = |s: &SideSettings<'_>, p: &str| s.get(p).filter(|v| v.len() == 1).and_then(|v| v.first().cloned());
        let mut apart: BTreeMap<&str, Vec<(String, String)>> = BTreeMap::new();
        let mut said: Vec<(String, String)> = Vec::new();
        let mut alone: Vec<(String, String, String)> = Vec::new();
        for (param, _) in own.iter().filter(|(p, v)| v.len() == 1 && !skip.contains(p) && names_program_or_machine(p)) {
            let Some(mine) = single(&own, param) else { continue };
            let Some(values): Option<Vec<String>> = theirs.iter().map(|(_, s)| single(s, param)).collect() else {
                continue;
            };
            let (like, unlike): (Vec<usize>, Vec<usize>) = (0..values.len()).partition(|i| values[*i] == mine);
            if like.is_empty() && unlike.len() > 1 && values.iter().all(|v| *v == values[0]) {
                // The subject is the odd one: every opponent ran alike.
                alone.push(((*param).to_string(), mine.clone(), values[0].clone()));
                continue;
            }
            if like.is_empty() || unlike.is_empty() {
                continue;
            }
            said.push(((*param).to_string(), mine.clone()));
            for i in unlike {
                apart.entry(theirs[i].0).or_default().push(((*param).to_string(), values[i].clone()));
            }
        }
        // The first three settings, enough to tell the program or machine.
        let shown = |pairs: &[(String, String)]| {
            let mut s: Vec<String> =
                pairs.iter().take(3).map(|(p, v)| format!("{p} {}", crate::syntax::excerpt(v))).collect();
            if pairs.len() > 3 {
                s.push(format!("and {} more", pairs.len() - 3));
            }
            s.join(", ")
        };
        if apart.is_empty() {
            if alone.is_empty() {
                return None;
            }
            let mine: Vec<(String, String)> = alone.iter().map(|(p, m, _)| (p.clone(), m.clone())).collect();
            let theirs: Vec<(String, String)> = alone.into_iter().map(|(p, _, t)| (p, t)).collect();
            return Some(format!(
                "the subject ran with {} where every one of `others` ran with {}: another program or machine, \
                 compared as the claim says",
                shown(&mine),
                shown(&theirs)
            ));
        }
        // Opponents that ran alike, said together: `remote` (host_name
        // LAB-02), `simd` (executable simd.exe).
        let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, pairs) in &apart {
            groups.entry(shown(pairs)).or_default().push(format!("`{name}`"));
        }
        let mut listed: Vec<String> = groups
            .iter()
            .take(3)
            .map(|(settings, names)| {
                let names = if names.len() > 3 {
                    format!("{} and {} more", names[..3].join(", "), names.len() - 3)
                } else {
                    names.join(", ")
                };
                format!("{names} (ran with {settings})")
            })
            .collect();
        if groups.len() > 3 {
            listed.push(format!("and {} more", groups.len() - 3));
        }
        Some(format!(
            "`others` counts {} where the subject ran with {}: another program or machine, compared as the claim \
             says; name the opponents to leave them out",
            listed.join("; "),
            shown(&said)
        ))
    }
}

/// Metrics in which a serving benchmark counts the requests that
/// completed (vLLM's `completed`, guidellm's and `GenAI-Perf`'s successful
/// requests): a run that logged 0 of them had every request fail.
const COMPLETED: [&str; 4] = ["completed", "successful_requests", "completed_requests", "num_completed"];

impl Dataset<'_> {
    /// Whether each of `run_ids` says itself that all its requests failed:
    /// it logged 0 under a completed-requests metric ([`COMPLETED`]). A run
    /// that logs no such count is never said to have failed.
    pub fn requests_all_failed(&self, run_ids: &[i64]) -> Vec<bool> {
        let runs = self.loaded_runs();
        let counts: Vec<_> = COMPLETED.iter().filter_map(|m| self.cached_values(m).ok()).collect();
        run_ids
            .iter()
            .map(|id| {
                let Some(at) = runs.position(*id).and_then(|at| u32::try_from(at).ok()) else { return false };
                counts.iter().any(|values| values.get(at) == Some(0.0))
            })
            .collect()
    }
}
