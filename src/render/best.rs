//! `highlight=best`: which cells of a table are the best at their point,
//! asked of the claims' judge. At each point (the values of every param the
//! table shows besides the series) each series is asked `A beats others on
//! METRIC at P = v` with the table's filter — the claim a researcher would
//! write about those cells — and its cell is bold when that claim holds.
//! Where no series' claim holds, each whose claim is inconclusive is bold
//! and marked ≈; a contradicted one, or one without data, is plain. Best
//! is always among the series at one point, whether the series are the
//! table's columns or its rows.

use super::{Context, RegionError};
use crate::doc::Given;
use std::collections::BTreeMap;

use crate::claims::judge::{Judge, Settings, Standings};
use crate::claims::Verdict;
use crate::metric::Direction;
use crate::query::{Filter, Key, Pivot};

/// How one cell is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mark {
    Plain,
    /// `A beats others` holds: bold.
    Best,
    /// It is inconclusive: bold, marked ≈.
    Tie,
}

/// The marks of a table's cells, `[row][column]` of its pivot.
pub(super) struct Marks {
    pub(super) cells: Vec<Vec<Mark>>,
    /// Whether each ≈ of a point has another beside it and no series lacks
    /// runs there, so the caption may call them ties.
    pub(super) ties_only: bool,
}

/// The marks of `pivot`'s cells (its runs read under `filter`); `None` when
/// the metric has no better direction.
pub(super) fn marks(
    ctx: &Context,
    pivot: &Pivot,
    filter: Filter,
    highlight: Option<&Given<bool>>,
) -> Result<Option<Marks>, RegionError> {
    if pivot.metric.direction == Direction::Neutral {
        return Ok(None);
    }
    let series = &ctx.settings.series;
    let params: Vec<&String> = pivot.row_params.iter().chain(&pivot.col_params).collect();
    let Some(at) = params.iter().position(|p| *p == series) else {
        return Err(RegionError::near(
            highlight,
            format!(
                "highlight=best marks the best of the series (`{series}`) at each point, and this table has no \
                 `{series}` in its rows or columns; add `cols={series}` (or `rows=`), or drop highlight=best"
            ),
        ));
    };
    let point_params: Vec<String> =
        params.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, p)| (*p).clone()).collect();
    let settings =
        Settings { series: series.clone(), margins: ctx.settings.margins.clone(), supersede: ctx.settings.supersede };
    let standings = Judge::new(ctx.dataset, &settings)
        .beats_others(&pivot.metric.name, &point_params, filter)
        .map_err(|e| RegionError::near(highlight, format!("highlight=best: {e}")))?;
    Ok(Some(layout(pivot, at, &standings)))
}

/// Each cell's mark from the verdicts, the series read at `at` of the
/// cell's row key followed by its column key. Where one series holds, it
/// alone is marked: the others are behind it, whatever their own claim
/// says.
fn layout(pivot: &Pivot, at: usize, standings: &Standings) -> Marks {
    let mut cells = vec![vec![Mark::Plain; pivot.cols.len()]; pivot.rows.len()];
    // Per point: whether a series holds there, its ≈ cells, and whether a
    // series lacks a value there.
    let mut points: BTreeMap<Vec<Key>, (bool, usize, bool)> = BTreeMap::new();
    let mut placed = Vec::new();
    for (r, row) in pivot.rows.iter().enumerate() {
        for (c, col) in pivot.cols.iter().enumerate() {
            let mut key: Vec<Key> = row.iter().chain(col).cloned().collect();
            let name = key.remove(at).to_string();
            let verdict = standings.get(&(key.clone(), name)).copied();
            let point = points.entry(key.clone()).or_default();
            point.0 |= verdict == Some(Verdict::Holds);
            point.1 += usize::from(verdict == Some(Verdict::Inconclusive));
            point.2 |= pivot.cells[r][c].is_none();
            placed.push((r, c, key, verdict));
        }
    }
    for (r, c, key, verdict) in placed {
        let held = points.get(&key).is_some_and(|p| p.0);
        cells[r][c] = match verdict {
            Some(Verdict::Holds) => Mark::Best,
            Some(Verdict::Inconclusive) if !held => Mark::Tie,
            _ => Mark::Plain,
        };
    }
    let ties_only = points.values().all(|&(held, ties, lacking)| held || ties == 0 || (ties >= 2 && !lacking));
    Marks { cells, ties_only }
}

#[cfg(test)]
#[path = "best_tests.rs"]
mod tests;
