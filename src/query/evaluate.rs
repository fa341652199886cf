//! How a [`Query`] is answered over a [`Dataset`]: the metric's values
//! that pass the filter grouped into cells by the grouping params' keys,
//! each cell aggregated, the result kept for the next ask of the same
//! query within the command.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

use super::cell::{aggregate, key_of, Cell, Key};
use super::column::{combination, combinations, Column, ColumnFields, ABSENT, MAX_COMBINATIONS};
use super::dataset::{Dataset, MetricValues, Values};
use super::filter::Filter;
use super::pivot::{Pivot, Query};
use crate::store::MetricInfo;
use crate::syntax::ValueRef;
use crate::{Error, Result};

/// Each grouping column's slots by their key (numeric reading first, so `8`
/// and `8.0` are one cell): the distinct keys, and each slot's key index.
type Keys<'c> = Vec<(Vec<ValueRef<'c>>, Vec<u32>)>;

/// The cells' runs before aggregation: each group's key indices and
/// entries, the runs that passed, and those left out per missing param.
struct Groups {
    cells: Vec<(Vec<u32>, Values)>,
    matched: usize,
    excluded: BTreeMap<String, usize>,
}

impl Dataset<'_> {
    /// Groups the metric's values into cells and aggregates each. A query
    /// asked before (by any region, claim or statement of the command) is
    /// answered from the pivot kept then.
    pub fn evaluate(&self, q: &Query) -> Result<Pivot> {
        let resolved = self.resolve_query(q)?;
        let q = &resolved;
        if let Some(p) = self.kept_pivot(q) {
            return Ok(p);
        }
        let info = self.metric_info(&q.metric)?.clone();
        let mut seen = BTreeSet::new();
        for (p, used_in) in q.rows.iter().map(|p| (p, "rows")).chain(q.cols.iter().map(|p| (p, "cols"))) {
            self.check_param(p, used_in)?;
            if !seen.insert(p.as_str()) {
                return Err(Error::usage(format!(
                    "param `{p}` is grouped by twice (rows and cols must name different params)"
                )));
            }
        }
        self.check_filter(&q.filter)?;
        // The runs first: columns and values are over the runs loaded.
        let runs = self.runs_for(&q.filter)?;
        let values = self.cached_values(&q.metric)?;
        let group: Vec<&str> = q.rows.iter().chain(&q.cols).map(String::as_str).collect();
        let group_columns: Vec<Rc<Column>> = group.iter().map(|p| self.column(p)).collect();
        let keys: Keys<'_> = group_columns.iter().map(|c| slot_keys(c)).collect();
        let grouped = self.group(q, &values, &group, &group_columns, &keys);
        let pivot = assemble(q, info, &keys, grouped, |entries| aggregate(q.agg, &runs, entries));
        self.keep_pivot(resolved, &pivot);
        Ok(pivot)
    }

    /// Which of the metric's values pass the filter: judged once per
    /// combination of the values of the fields the filter names (the
    /// result of a run follows from those alone), or per run when there
    /// are too many combinations.
    fn passing(&self, filter: &Filter, values: &MetricValues) -> Vec<bool> {
        let filter_columns: Vec<(&str, Rc<Column>)> =
            filter.params().into_iter().map(|p| (p, self.column(p))).collect();
        let filter_cols = || filter_columns.iter().map(|(_, c)| c.as_ref());
        // 0 = not yet judged, 1 = fails, 2 = passes.
        let mut memo: Option<Vec<u8>> = combinations(filter_cols()).map(|n| vec![0; n]);
        values
            .iter()
            .map(|(i, _)| {
                let at = i as usize;
                let fields = ColumnFields { at, columns: &filter_columns };
                match memo.as_mut() {
                    Some(memo) => {
                        let known = &mut memo[combination(filter_cols(), at)];
                        if *known == 0 {
                            *known = if filter.matches_fields(&fields) { 2 } else { 1 };
                        }
                        *known == 2
                    }
                    None => filter.matches_fields(&fields),
                }
            })
            .collect()
    }

    /// Puts each passing value into its cell's group, in one pass over the
    /// metric's values.
    fn group(
        &self,
        q: &Query,
        values: &MetricValues,
        group: &[&str],
        columns: &[Rc<Column>],
        keys: &Keys<'_>,
    ) -> Groups {
        let passes = self.passing(&q.filter, values);
        // A run's cell follows from the combination of its key indices: a
        // dense table when the combinations are few, else a map.
        let dense = keys.iter().try_fold(1usize, |n, (d, _)| n.checked_mul(d.len()).filter(|n| *n <= MAX_COMBINATIONS));
        let mut cell_of: Vec<u32> = vec![ABSENT; dense.unwrap_or(0)];
        let mut index: HashMap<Vec<u32>, usize> = HashMap::new();
        let mut out = Groups { cells: Vec::new(), matched: 0, excluded: BTreeMap::new() };
        let mut scratch: Vec<u32> = Vec::with_capacity(group.len());
        for ((i, v), pass) in values.iter().zip(passes) {
            if !pass {
                continue;
            }
            out.matched += 1;
            let at = i as usize;
            scratch.clear();
            let mut complete = true;
            for ((p, column), (_, of_slot)) in group.iter().zip(columns).zip(keys) {
                match column.of_run[at] {
                    ABSENT => {
                        complete = false;
                        match out.excluded.get_mut(*p) {
                            Some(count) => *count += 1,
                            None => {
                                out.excluded.insert((*p).to_string(), 1);
                            }
                        }
                    }
                    slot => scratch.push(of_slot[slot as usize]),
                }
            }
            if !complete {
                continue;
            }
            let groups = &mut out.cells;
            let mut new_group = || {
                groups.push((scratch.clone(), Vec::new()));
                groups.len() - 1
            };
            let g = if dense.is_some() {
                let at = scratch.iter().zip(keys).fold(0, |n, (k, (d, _))| n * d.len() + *k as usize);
                if cell_of[at] == ABSENT {
                    cell_of[at] = u32::try_from(new_group()).unwrap_or(ABSENT);
                }
                cell_of[at] as usize
            } else if let Some(g) = index.get(scratch.as_slice()) {
                *g
            } else {
                let g = new_group();
                index.insert(scratch.clone(), g);
                g
            };
            out.cells[g].1.push((i, v));
        }
        out
    }
}

/// A grouping column's distinct keys and each slot's key index.
fn slot_keys(column: &Column) -> (Vec<ValueRef<'_>>, Vec<u32>) {
    let mut distinct: Vec<ValueRef<'_>> = Vec::new();
    let mut index: HashMap<ValueRef<'_>, u32> = HashMap::new();
    let of_slot = column
        .slots
        .iter()
        .map(|slot| {
            let k = key_of(slot.field());
            *index.entry(k).or_insert_with(|| {
                distinct.push(k);
                u32::try_from(distinct.len() - 1).unwrap_or(ABSENT)
            })
        })
        .collect();
    (distinct, of_slot)
}

/// The pivot of the grouped cells: keys sorted, each cell aggregated.
fn assemble(q: &Query, info: MetricInfo, keys: &Keys<'_>, grouped: Groups, agg: impl Fn(&Values) -> Cell) -> Pivot {
    let nrows = q.rows.len();
    let mut keyed: BTreeMap<(Vec<Key>, Vec<Key>), Cell> = BTreeMap::new();
    for (key, entries) in &grouped.cells {
        let key: Vec<Key> = key.iter().zip(keys).map(|(k, (d, _))| Key::from_ref(d[*k as usize])).collect();
        let (r, c) = key.split_at(nrows);
        keyed.insert((r.to_vec(), c.to_vec()), agg(entries));
    }
    let rows: Vec<Vec<Key>> = keyed.keys().map(|(r, _)| r.clone()).collect::<BTreeSet<_>>().into_iter().collect();
    let cols: Vec<Vec<Key>> = keyed.keys().map(|(_, c)| c.clone()).collect::<BTreeSet<_>>().into_iter().collect();
    let mut cells: Vec<Vec<Option<Cell>>> = vec![vec![None; cols.len()]; rows.len()];
    for ((r, c), cell) in keyed {
        if let (Ok(ri), Ok(ci)) = (rows.binary_search(&r), cols.binary_search(&c)) {
            cells[ri][ci] = Some(cell);
        }
    }
    Pivot {
        metric: info,
        agg: q.agg,
        filter: q.filter.as_str().to_string(),
        row_params: q.rows.clone(),
        col_params: q.cols.clone(),
        rows,
        cols,
        cells,
        runs_matched: grouped.matched,
        excluded: grouped.excluded,
    }
}

#[cfg(test)]
mod tests {
    //! The column-based [`Dataset::evaluate`] against a direct reading of
    //! its contract: every run filtered with [`Filter::matches`] and grouped
    //! by [`RunRecord`]'s own fields.

    use super::*;
    use crate::query::filter::Fields;
    use crate::query::Agg;
    use crate::run::Value;
    use crate::store::builder::StoreBuilder;
    use crate::store::{RunRecord, Store};

    /// The aggregation's contract on full records, comparing sweep dates as
    /// text (entries are (run index, value) in run time order).
    fn reference_aggregate(agg: Agg, runs: &[RunRecord], entries: &[(u32, f64)]) -> Cell {
        let used: Vec<(u32, f64)> = match agg {
            Agg::All => entries.to_vec(),
            Agg::Latest => entries.last().copied().into_iter().collect(),
            _ => {
                let newest = entries.iter().map(|(i, _)| runs[*i as usize].sweep.as_str()).max().unwrap_or("");
                entries.iter().copied().filter(|(i, _)| runs[*i as usize].sweep == newest).collect()
            }
        };
        let values: Vec<f64> = used.iter().map(|(_, v)| *v).collect();
        // The fold is shared; what this reference checks is which runs it reads.
        let value = agg.fold(&values);
        let sweeps: BTreeSet<&str> = used.iter().map(|(i, _)| runs[*i as usize].sweep.as_str()).collect();
        Cell {
            value,
            values,
            runs: used.iter().map(|(i, _)| runs[*i as usize].id).collect(),
            sweeps: sweeps.into_iter().map(str::to_string).collect(),
            superseded: entries.len() - used.len(),
        }
    }

    /// The contract, run by run.
    fn reference(ds: &Dataset, q: &Query) -> Pivot {
        let group: Vec<&str> = q.rows.iter().chain(&q.cols).map(String::as_str).collect();
        let mut groups: BTreeMap<Vec<Key>, Values> = BTreeMap::new();
        let mut excluded: BTreeMap<String, usize> = BTreeMap::new();
        let mut matched = 0;
        for (i, v) in ds.cached_values(&q.metric).unwrap().iter() {
            let run = &ds.runs()[i as usize];
            if !q.filter.matches(run) {
                continue;
            }
            matched += 1;
            let key: Vec<Option<Key>> = group.iter().map(|p| run.field(p).map(|f| Key::from_ref(key_of(f)))).collect();
            for (p, k) in group.iter().zip(&key) {
                if k.is_none() {
                    *excluded.entry(p.to_string()).or_insert(0) += 1;
                }
            }
            if let Some(key) = key.into_iter().collect::<Option<Vec<Key>>>() {
                groups.entry(key).or_default().push((i, v));
            }
        }
        let nrows = q.rows.len();
        let rows: Vec<Vec<Key>> =
            groups.keys().map(|k| k[..nrows].to_vec()).collect::<BTreeSet<_>>().into_iter().collect();
        let cols: Vec<Vec<Key>> =
            groups.keys().map(|k| k[nrows..].to_vec()).collect::<BTreeSet<_>>().into_iter().collect();
        let mut cells: Vec<Vec<Option<Cell>>> = vec![vec![None; cols.len()]; rows.len()];
        for (key, entries) in &groups {
            let r = rows.binary_search(&key[..nrows].to_vec()).unwrap();
            let c = cols.binary_search(&key[nrows..].to_vec()).unwrap();
            cells[r][c] = Some(reference_aggregate(q.agg, ds.runs(), entries));
        }
        Pivot {
            metric: ds.metric_info(&q.metric).unwrap().clone(),
            agg: q.agg,
            filter: q.filter.as_str().to_string(),
            row_params: q.rows.clone(),
            col_params: q.cols.clone(),
            rows,
            cols,
            cells,
            runs_matched: matched,
            excluded,
        }
    }

    /// Runs that exercise every corner of grouping and filtering: a label
    /// `8` beside a logged 8.0 and -0 beside 0, runs lacking a param, a
    /// param named like the pseudo-param `date`, a NaN value, three
    /// sweeps, and 1,100 runs with per-run `tag` and `seq` (more
    /// combinations than the tables indexed by combination hold).
    fn store() -> Store {
        let t = |x: &str| Value::Text(x.into());
        let n = Value::Num;
        let run = |config: &str, c: Value, v: f64| (vec![("config", t(config)), ("concurrency", c)], v);
        let s = StoreBuilder::new().source(
            "a.jsonl",
            "2026-11-20T09:00:00Z",
            &[run("baseline", n(8.0), 450.0), run("eagle", n(8.0), 280.0), run("baseline", n(0.0), 1.0)],
        );
        let s = s.source(
            "b.jsonl",
            "2026-11-29T14:00:00Z",
            &[
                run("baseline", t("8"), 460.0),
                run("baseline", n(8.0), 462.0),
                run("eagle", n(-0.0), 2.0),
                run("eagle", n(8.0), f64::NAN),
                (vec![("config", t("eagle"))], 300.0),
                (vec![("config", t("baseline")), ("concurrency", n(30.0)), ("model", t("kimi"))], 640.0),
                (vec![("config", t("eagle")), ("concurrency", n(30.0)), ("date", t("2026-01-01"))], 330.0),
            ],
        );
        let many: Vec<(Vec<(&str, Value)>, f64)> = (0..1100)
            .map(|i| {
                let config = if i % 3 == 0 { "baseline" } else { "eagle" };
                let params = vec![
                    ("config", t(config)),
                    ("concurrency", n([1.0, 8.0, 30.0][i % 3])),
                    ("tag", t(&format!("t{i}"))),
                    ("seq", n(i as f64)),
                ];
                (params, 100.0 + (i % 17) as f64)
            })
            .collect();
        s.source("c.jsonl", "2026-12-01T10:00:00Z", &many).build()
    }

    const GROUPINGS: [(&[&str], &[&str]); 7] = [
        (&["concurrency"], &["config"]),
        (&[], &["config"]),
        (&[], &[]),
        (&["date"], &["source"]),
        (&["model"], &["config"]),
        (&["tag"], &["seq"]),
        (&["concurrency", "config"], &["time"]),
    ];

    const FILTERS: [&str; 9] = [
        "",
        "config in (baseline, eagle) and concurrency >= 4",
        "date = 2026-11-29",
        "date = 2026-01-01 or model = kimi",
        "source ~ 'b*'",
        "time > '2026-11-21'",
        "not (model = 'kimi') or concurrency = 8",
        "tag != 't5' and seq >= 3",
        "concurrency = 0",
    ];

    use super::super::tests::query;

    #[test]
    fn a_dataset_told_the_filters_reads_their_runs_and_answers_as_over_every_run() {
        let s = store();
        let every = Dataset::load(&s).unwrap();
        assert_eq!(every.runs().len(), 1110);
        let mut partial = 0;
        for filter in FILTERS {
            for (rows, cols) in GROUPINGS {
                // A fresh dataset told this query's filter first.
                let ds = Dataset::load(&s).unwrap();
                let q = query(rows, cols, filter, Agg::Mean);
                ds.expect(std::slice::from_ref(&q.filter)).unwrap();
                let read = ds.loaded_runs().len();
                partial += usize::from(read > 0 && read < 1110);
                assert_eq!(ds.evaluate(&q).unwrap(), reference(&every, &q), "rows {rows:?} cols {cols:?} `{filter}`");
                // Then queries it has not read all runs for.
                for then in FILTERS {
                    let q = query(rows, cols, then, Agg::Latest);
                    assert_eq!(ds.evaluate(&q).unwrap(), reference(&every, &q), "`{filter}` then `{then}`");
                }
            }
        }
        assert!(partial >= GROUPINGS.len(), "`concurrency = 0` reads few sets");
        // A filter on params alone reads the runs of the sets it passes.
        let ds = Dataset::load(&s).unwrap();
        let few = Filter::parse("concurrency = 30 and seq < 90").unwrap();
        let passing = every.runs().iter().filter(|r| few.matches(*r)).count();
        assert_eq!(passing, 30);
        ds.expect(&[few, Filter::parse("config = eagle and seq < 90 and seq > 80").unwrap()]).unwrap();
        assert_eq!(ds.loaded_runs().len(), passing + 3, "runs 81..89 not at concurrency 30: 82, 85, 88");
        ds.evaluate(&query(&["concurrency"], &[], "seq = 85", Agg::Mean)).unwrap();
        assert_eq!(ds.loaded_runs().len(), passing + 3, "sets read before: nothing more is read");
        ds.evaluate(&query(&[], &[], "model = kimi", Agg::Mean)).unwrap();
        assert_eq!(ds.loaded_runs().len(), 1110, "more sets: every run");
    }

    #[test]
    fn columns_give_what_reading_each_run_gives() {
        let s = store();
        let ds = Dataset::load(&s).unwrap();
        assert_eq!(ds.runs().len(), 1110);
        let (groupings, filters) = (GROUPINGS, FILTERS);
        let mut compared = 0;
        for (rows, cols) in groupings {
            for filter in filters {
                for agg in Agg::ALL {
                    let q = Query {
                        metric: "output_throughput".into(),
                        rows: rows.iter().map(std::string::ToString::to_string).collect(),
                        cols: cols.iter().map(std::string::ToString::to_string).collect(),
                        filter: Filter::parse(filter).unwrap(),
                        agg,
                    };
                    assert_eq!(
                        ds.evaluate(&q).unwrap(),
                        reference(&ds, &q),
                        "rows {rows:?} cols {cols:?} where `{filter}` agg {agg}"
                    );
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 7 * 9 * 7);
    }

    #[test]
    fn grouping_merges_equal_readings_and_counts_missing_params() {
        let s = store();
        let ds = Dataset::load(&s).unwrap();
        let q = Query {
            metric: "output_throughput".into(),
            rows: vec!["concurrency".into()],
            cols: vec!["config".into()],
            filter: Filter::parse("time < '2026-12-01'").unwrap(),
            agg: Agg::All,
        };
        let p = ds.evaluate(&q).unwrap();
        // The label "8" and the numbers 8.0 from both sweeps: one cell; the NaN is left out.
        assert_eq!(p.lookup(&["8"], &["baseline"]).unwrap().values, vec![450.0, 460.0, 462.0]);
        assert_eq!(p.lookup(&["8"], &["eagle"]).unwrap().values, vec![280.0]);
        // -0 and 0 are one row.
        assert_eq!(p.rows.iter().filter(|r| r[0].as_f64() == Some(0.0)).count(), 1);
        // 9 non-NaN runs before 2026-12-01; the eagle run without concurrency is counted out.
        assert_eq!(p.runs_matched, 9);
        assert_eq!(p.excluded.get("concurrency"), Some(&1));
        // The run whose param `date` is 2026-01-01 reports that, not its sweep.
        let q = Query { filter: Filter::parse("date = 2026-01-01").unwrap(), ..q };
        assert_eq!(ds.evaluate(&q).unwrap().lookup(&["30"], &["eagle"]).unwrap().values, vec![330.0]);
        assert!(ds.has_param("date") && ds.params().any(|p| p == "date"));
        assert!(!ds.params().any(|p| p == "time"), "pseudo-params are not params");
    }
}
