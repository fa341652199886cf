//! How many values of each param every series has runs at: over every run
//! ([`shared_values`]), and over each metric's own runs ([`MetricShared`]),
//! decided for a metric when a sentence first asks about it. The second
//! reads the metric's values to learn which param sets its runs have, so a
//! lint reads the values of the metrics its prose speaks of — which the
//! judge reads anyway — and no others.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::query::Dataset;

/// Each param's texts over some param sets, as [`Dataset::param_texts`]
/// gives them.
pub(crate) type Texts = BTreeMap<String, (Vec<String>, Vec<Option<u32>>)>;

/// For each param, how many of its values every series has runs at (one
/// pass over the distinct param sets, `texts` by param as
/// [`Dataset::param_texts`] gives them: runs sharing a set add nothing).
pub(crate) fn shared_values(series_of: &[Option<u32>], texts: &Texts) -> BTreeMap<String, usize> {
    let series_count = series_of.iter().flatten().collect::<BTreeSet<_>>().len();
    texts
        .iter()
        .map(|(p, (_, of_set))| {
            // The values of `p` each series has, by series.
            let mut seen: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
            for (s, v) in series_of.iter().zip(of_set) {
                if let (Some(s), Some(v)) = (s, v) {
                    seen.entry(*s).or_default().insert(*v);
                }
            }
            let mut sets = seen.values();
            let first = sets.next().cloned().unwrap_or_default();
            let common: BTreeSet<u32> = sets.fold(first, |acc, vs| acc.intersection(vs).copied().collect());
            (p.clone(), if seen.len() == series_count { common.len() } else { 0 })
        })
        .collect()
}

/// How many values of each param every series has runs at, by param.
pub(crate) type Shared = Rc<BTreeMap<String, usize>>;

/// What a metric's shared values are worked out from.
type Reckoner<'d> = dyn Fn(&str) -> Option<BTreeMap<String, usize>> + 'd;

/// [`shared_values`] of each metric's own runs, worked out on first ask and
/// kept (shared by the vocabularies rebuilt from one with more entries).
#[derive(Clone, Default)]
pub(crate) struct MetricShared<'d> {
    kept: Rc<RefCell<BTreeMap<String, Option<Shared>>>>,
    /// `None`: no data behind the vocabulary (every ask is `None`).
    reckon: Option<Rc<Reckoner<'d>>>,
}

impl<'d> MetricShared<'d> {
    /// Over the dataset's runs of each metric: the series param and the
    /// params to count, as [`shared_values`] takes them.
    pub(crate) fn of(dataset: &'d Dataset<'_>, series: &str, params: Vec<String>) -> Self {
        let series = series.to_string();
        let reckon = move |metric: &str| {
            let sets = dataset.metric_sets(metric).ok().filter(|s| !s.is_empty())?;
            let of = |p: &str| dataset.param_texts_in(p, &sets);
            let texts: Texts = params.iter().map(|p| (p.clone(), of(p))).collect();
            Some(shared_values(&of(&series).1, &texts))
        };
        MetricShared { kept: Rc::default(), reckon: Some(Rc::new(reckon)) }
    }

    /// The shared values of one metric's runs; `None` when it has none.
    pub(crate) fn get(&self, metric: &str) -> Option<Shared> {
        if let Some(kept) = self.kept.borrow().get(metric) {
            return kept.clone();
        }
        let found = self.reckon.as_ref().and_then(|r| r(metric)).map(Rc::new);
        self.kept.borrow_mut().insert(metric.to_string(), found.clone());
        found
    }
}
