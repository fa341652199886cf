//! How a table's cells are written: each cell's text with its marks, the
//! runs behind each, and a cell's value over its measured runs.

use super::Column;
use crate::escape;
use crate::query::{Agg, Key, OLDER_SWEEP_MARK};
use crate::render::best::Mark;
use crate::render::failed::Measured;
use crate::store::MetricInfo;

/// A cell over its measured runs ([`super::failed`]); what it left out
/// is said under the table.
pub(super) fn measured_said(
    dataset: &crate::query::Dataset,
    cell: &crate::query::Cell,
    agg: Agg,
    metric: &MetricInfo,
    at: &str,
    notes: &mut Vec<String>,
) -> Measured {
    let m = crate::render::failed::measured(dataset, cell, agg, metric);
    if m.left_out > 0 {
        notes.push(escape::markdown(&crate::render::failed::said(&m, cell.values.len(), &metric.name, at)));
    }
    m
}

/// The runs of each cell as written: rows in `order`, a row's keys with
/// none, an empty cell with none.
pub(super) fn traced_cells(order: &[usize], row_keys: &[Vec<Key>], columns: &[Column]) -> Vec<Vec<Vec<i64>>> {
    order
        .iter()
        .map(|&r| {
            let keys = row_keys[r].iter().map(|_| Vec::new());
            keys.chain(columns.iter().map(|c| if c.values[r].is_some() { c.runs[r].clone() } else { Vec::new() }))
                .collect()
        })
        .collect()
}

/// One cell of row `r` in column `ci` (of which the first `compared` are
/// values, the rest ratios): `-` when empty, a ratio column's value as
/// `1.23x`, others with `number`; the best of its point in bold, `≈` after
/// each of a tie; `†` after a value from an older sweep than the table's
/// newest, or a ratio of one.
pub(super) fn cell_text(
    col: &Column,
    (ci, compared): (usize, usize),
    r: usize,
    (mark, older): (Mark, bool),
    number: &dyn Fn(f64) -> String,
) -> String {
    let text = match col.values[r] {
        None => "-".to_string(),
        Some(v) if col.ratio.is_some() && ci >= compared => {
            // Two digits, unless they would write a ratio of 0.00004 as 0.00.
            let two = crate::query::NumberFormat { precision: Some(2) };
            format!("{}x", if two.hides(v) { crate::metric::format_number(v) } else { two.format(v) })
        }
        Some(v) => number(v),
    };
    let text = escape::markdown(&text);
    let text = if older && col.values[r].is_some() { format!("{text}{OLDER_SWEEP_MARK}") } else { text };
    match mark {
        _ if col.values[r].is_none() || ci >= compared => text,
        Mark::Best => format!("**{text}**"),
        Mark::Tie => format!("**{text}** ≈"),
        Mark::Plain => text,
    }
}
