//! Run settings a cell's two sides differ in: params reckon keeps that do
//! not key the cell (they are the same for every run of a sweep, or the
//! others fix them — a host name per flag set), whose values on the older
//! side are not those on the newer one: a benchmark moved to another
//! machine, a compiler upgraded. The change in such a cell may be theirs;
//! the diff says so beside it and judges the cell all the same.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::MetricRuns;
use crate::query::Key;

/// A run setting whose values differ between a cell's sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct SettingChange {
    pub param: String,
    /// Its values among the older sweep's runs of the cell, sorted.
    pub from: Vec<String>,
    /// Among the newer sweep's.
    pub to: Vec<String>,
}

impl SettingChange {
    /// `host_name bench-01 vs bench-02`.
    pub(crate) fn phrase(&self) -> String {
        format!("{} {} vs {}", self.param, self.from.join(", "), self.to.join(", "))
    }
}

/// A cell's key, as `sides_by_cell` keys it.
type CellOf = Vec<Option<Key>>;

/// Per param, its values on each side (older, newer).
type SideValues = BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>;

/// For each cell of `runs` keyed by `by`, the settings its sides differ in
/// (params both sides record, outside the key, not repeat markers).
pub(super) fn changes(runs: &MetricRuns<'_>, by: &[String]) -> BTreeMap<CellOf, Vec<SettingChange>> {
    let mut cells: BTreeMap<CellOf, SideValues> = BTreeMap::new();
    for (run, newer, _) in runs {
        let key = by.iter().map(|p| run.params.get(p).map(Key::key)).collect();
        let values = cells.entry(key).or_default();
        for (name, value) in &run.params {
            if by.contains(name) || crate::run::is_repeat_marker(name) {
                continue;
            }
            let sides = values.entry(name.clone()).or_default();
            if *newer { &mut sides.1 } else { &mut sides.0 }.insert(value.to_string());
        }
    }
    cells
        .into_iter()
        .map(|(key, values)| {
            let differ = values
                .into_iter()
                .filter(|(_, (old, new))| !old.is_empty() && !new.is_empty() && old != new)
                .map(|(param, (old, new))| SettingChange {
                    param,
                    from: old.into_iter().collect(),
                    to: new.into_iter().collect(),
                })
                .collect();
            (key, differ)
        })
        .collect()
}
