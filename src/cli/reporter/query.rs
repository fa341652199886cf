//! `query --format json`: the query, then one object per cell with its
//! key, value and provenance. Keys in the order the types declare them.

use std::collections::BTreeMap;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::json::{JsonReport, Keys};
use crate::metric::format_number;
use crate::query::{Key, Pivot};

/// A pivot as `query --format json` prints it.
#[derive(Serialize)]
pub(crate) struct PivotReport<'a> {
    metric: &'a str,
    /// The metric's unit (null: none known).
    unit: Option<&'a str>,
    /// `higher`, `lower` or `neutral`.
    direction: &'static str,
    /// How a cell's runs are folded into its value (`median`, `mean`, …).
    agg: &'static str,
    /// The `--where` filter as given (empty: none).
    filter: &'a str,
    /// The row params, then the column params.
    rows: &'a [String],
    cols: &'a [String],
    /// Cells with runs, row by row; a cell with none is absent.
    cells: Vec<CellReport<'a>>,
    /// Runs left out for lacking a row or column param: param → how many.
    excluded: &'a BTreeMap<String, usize>,
}

impl JsonReport for PivotReport<'_> {
    const KEYS: Keys = Keys::Declared;
}

/// One cell of the pivot.
#[derive(Serialize)]
pub(crate) struct CellReport<'a> {
    /// Its params and their values, row params first, in query order.
    key: CellKey<'a>,
    /// The aggregate of its runs in its newest sweep.
    value: Number,
    /// How many runs the value rests on.
    runs: usize,
    /// The sweeps the value rests on.
    sweeps: &'a [String],
    /// Runs of older sweeps the newest one replaces.
    superseded: usize,
    /// The values of the runs the value rests on.
    values: Vec<Number>,
    /// The ids of those runs.
    run_ids: &'a [i64],
}

impl<'a> PivotReport<'a> {
    pub(crate) fn of(pivot: &'a Pivot) -> PivotReport<'a> {
        let cells = pivot
            .iter()
            .map(|(r, c, cell)| CellReport {
                key: CellKey { names: pivot.row_params.iter().chain(&pivot.col_params), keys: r.iter().chain(c) },
                value: Number(cell.value),
                runs: cell.run_count(),
                sweeps: &cell.sweeps,
                superseded: cell.superseded,
                values: cell.values.iter().map(|v| Number(*v)).collect(),
                run_ids: &cell.runs,
            })
            .collect();
        PivotReport {
            metric: &pivot.metric.name,
            unit: pivot.metric.unit.as_deref(),
            direction: pivot.metric.direction.as_str(),
            agg: pivot.agg.as_str(),
            filter: &pivot.filter,
            rows: &pivot.row_params,
            cols: &pivot.col_params,
            cells,
            excluded: &pivot.excluded,
        }
    }
}

type NameIter<'a> = std::iter::Chain<std::slice::Iter<'a, String>, std::slice::Iter<'a, String>>;
type KeyIter<'a> = std::iter::Chain<std::slice::Iter<'a, Key>, std::slice::Iter<'a, Key>>;

/// A cell's params as an object, rows then cols, in query order.
struct CellKey<'a> {
    names: NameIter<'a>,
    keys: KeyIter<'a>,
}

impl Serialize for CellKey<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for (n, k) in self.names.clone().zip(self.keys.clone()) {
            map.serialize_entry(n, k)?;
        }
        map.end()
    }
}

/// A number, with non-finite values as reckon prints them (JSON has none).
struct Number(f64);

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64(self.0)
        } else {
            s.serialize_str(&format_number(self.0))
        }
    }
}
