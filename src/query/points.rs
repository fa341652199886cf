//! Which runs are repeats of one point: the one rule every cell follows —
//! a table's, a plot's, a query's, a value's, a claim's — and the cell key
//! `export --newest` and `diff` use.
//!
//! Runs are repeats of one point when they differ in no param that defines
//! a point. Repeat markers (`repeat`, `seed`, …, see
//! [`crate::run::is_repeat_marker`]) tell repeats apart and define nothing.
//! Every other param does, numbers and text alike (an `{engine}` captured
//! from the path, a compiler read from a JSON context), except a text param
//! whose value the others fix: hyperfine's command line beside its
//! `parameters`, gbench's benchmark name beside its family and arguments.
//! Such a param only restates them (its value changes when a binary is
//! renamed between sweeps, and it must not split one point in two); alone,
//! with nothing it restates, it is the point (hyperfine run on two command
//! lines without parameters).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::cell::{Agg, Key};
use super::dataset::Dataset;
use super::pivot::Pivot;
use crate::run::{is_repeat_marker, Value};

/// The params of a cell's runs that differ among them, each with its
/// values: what a cell pooling several points pools over.
pub type Varying = Vec<(String, Vec<String>)>;

/// A cell of a pivot whose runs lie at several points.
#[derive(Debug, Clone, PartialEq)]
pub struct Pooled {
    /// The cell's column (the series), as its header shows it.
    pub column: String,
    /// The cell's row (`threads=1`), empty for a pivot without rows.
    pub row: String,
    /// The first param the runs differ in, and its values.
    pub param: String,
    pub values: Vec<String>,
}

impl Pooled {
    /// "`level` has runs at several `cache_mb` values (64, 1024) at
    /// threads=1; say which with PIN, or add `cache_mb` to ADD": `pin` and
    /// `add` written as the caller's syntax has them, `{param}` in them
    /// replaced by the param.
    pub fn message(&self, pin: &str, add: &str) -> String {
        let at = if self.row.is_empty() { String::new() } else { format!(" at {}", self.row) };
        let name = if self.column.is_empty() { "the cell".to_string() } else { format!("`{}`", self.column) };
        format!(
            "{name} has runs at several `{p}` values ({}){at}, which reckon does not pool as repeats; say which \
             with {}, or add `{p}` to {}",
            self.values.join(", "),
            pin.replace("{param}", &self.param),
            add.replace("{param}", &self.param),
            p = self.param,
        )
    }
}

impl Dataset<'_> {
    /// The params that define points and whose values differ among the
    /// given runs (a cell's), each with its distinct values (sorted, at most
    /// six shown, then `…`). A one-number reading of such runs mixes points
    /// — concurrencies, engines, compilers — so callers ask the author to
    /// pick one. Empty when the runs are repeats of one point.
    pub fn varying_params(&self, run_ids: &[i64]) -> Varying {
        let runs = self.loaded_runs();
        let points: BTreeSet<(u32, u32)> =
            run_ids.iter().filter_map(|id| runs.position(*id)).map(|at| (runs.sweep[at], runs.set[at])).collect();
        // Runs of one param set share every param: none varies.
        if points.iter().all(|(_, set)| points.first().is_some_and(|(_, first)| first == set)) {
            return Varying::default();
        }
        let mut seen: BTreeMap<&str, BTreeSet<Key>> = BTreeMap::new();
        for (_, set) in &points {
            for (name, value) in self.sets.get(*set as usize).iter() {
                if let Some(key) = defining_key(name, value) {
                    seen.entry(name).or_default().insert(key);
                }
            }
        }
        let names: Vec<&str> = seen.iter().filter(|(_, v)| v.len() > 1).map(|(n, _)| *n).collect();
        let rows: Vec<(u32, Vec<Option<String>>)> = points
            .iter()
            .map(|(sweep, set)| {
                let params = self.sets.get(*set as usize);
                (*sweep, names.iter().map(|n| params.get(n).map(Value::to_string)).collect())
            })
            .collect();
        let text: Vec<bool> = names.iter().map(|n| seen[n].iter().any(|k| matches!(k, Key::Text(_)))).collect();
        defining(&text, &rows)
            .into_iter()
            .map(|i| {
                let values = &seen[names[i]];
                let mut shown: Vec<String> = values.iter().take(6).map(Key::to_string).collect();
                if values.len() > 6 {
                    shown.push("…".into());
                }
                (names[i].to_string(), shown)
            })
            .collect()
    }

    /// The first cell of `pivot` (row by row) whose runs lie at several
    /// points, if any. A count of runs counts them wherever they lie and
    /// pools nothing.
    pub fn pooled(&self, pivot: &Pivot) -> Option<Pooled> {
        if pivot.agg == Agg::Count {
            return None;
        }
        let label = |params: &[String], key: &[Key]| {
            params.iter().zip(key).map(|(p, k)| format!("{p}={k}")).collect::<Vec<_>>().join(", ")
        };
        for (r, line) in pivot.cells.iter().enumerate() {
            for (c, cell) in line.iter().enumerate() {
                let Some(cell) = cell else { continue };
                let Some((param, values)) = self.varying_params(&cell.runs).into_iter().next() else { continue };
                let column = pivot.cols.get(c).map(|k| k.iter().map(Key::to_string).collect::<Vec<_>>().join(", "));
                return Some(Pooled {
                    column: column.unwrap_or_default(),
                    row: pivot.rows.get(r).map(|k| label(&pivot.row_params, k)).unwrap_or_default(),
                    param,
                    values,
                });
            }
        }
        None
    }
}

/// A param value as a point compares it, or `None` for a param that never
/// defines a point (a repeat marker, a value that is not a finite number
/// or a text).
fn defining_key(name: &str, value: &Value) -> Option<Key> {
    if is_repeat_marker(name) {
        return None;
    }
    match value {
        Value::Num(n) if !n.is_finite() => None,
        _ => Some(value.clone()),
    }
}

/// Of some params that differ among points (each point a group — its
/// sweep — and a value or none per param), the indices of those that define
/// points: all but the text params whose value the remaining params (with
/// the group) fix. The text param with most values goes first, so a command
/// line restating three params is dropped, not the three.
pub(crate) fn defining(text: &[bool], points: &[(u32, Vec<Option<String>>)]) -> Vec<usize> {
    let distinct = |i: usize| points.iter().map(|(_, v)| v[i].as_deref()).collect::<BTreeSet<_>>().len();
    let mut order: Vec<usize> = (0..text.len()).filter(|&i| text[i]).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(distinct(i)));
    let mut kept: Vec<usize> = (0..text.len()).collect();
    for p in order {
        let others: Vec<usize> = kept.iter().copied().filter(|&j| j != p).collect();
        if others.is_empty() {
            continue;
        }
        let mut fixed: HashMap<(u32, Vec<Option<&str>>), Option<&str>> = HashMap::new();
        let restates = points.iter().all(|(group, values)| {
            let key = (*group, others.iter().map(|&j| values[j].as_deref()).collect());
            *fixed.entry(key).or_insert(values[p].as_deref()) == values[p].as_deref()
        });
        if restates {
            kept = others;
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::defining;

    fn point(group: u32, values: &[&str]) -> (u32, Vec<Option<String>>) {
        (group, values.iter().map(|v| (!v.is_empty()).then(|| (*v).to_string())).collect())
    }

    #[test]
    fn a_command_line_restating_the_params_defines_nothing_but_alone_it_is_the_point() {
        // command, compaction, threads: the command restates the other two.
        let text = [true, true, false];
        let points = [
            point(1, &["db --level -t1", "level", "1"]),
            point(1, &["db --level -t4", "level", "4"]),
            point(1, &["db --univ -t1", "universal", "1"]),
            // A later sweep renamed the binary: the same points.
            point(2, &["db2 --level -t1", "level", "1"]),
        ];
        assert_eq!(defining(&text, &points), [1, 2]);
        // Two engines with one command line: the engine is a point.
        let points = [point(1, &["db", "v9.7"]), point(1, &["db", "v9.8"])];
        assert_eq!(defining(&[true, true], &points), [1]);
        // Two command lines and nothing else: each is its own point.
        let points = [point(1, &["sort a"]), point(1, &["sort b"])];
        assert_eq!(defining(&[true], &points), [0]);
        // A text param the others do not fix stays.
        let points = [point(1, &["gcc13", "1"]), point(1, &["gcc14", "1"]), point(1, &["gcc14", "2"])];
        assert_eq!(defining(&[true, false], &points), [0, 1]);
    }
}
