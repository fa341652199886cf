//! The question a table's `highlight=best` asks at each of its points:
//! does this series beat every other there — the claim `A beats others on
//! METRIC at P = v` (with the table's `where`) — answered as that claim is,
//! through the same comparisons ([`Judge::against`]) and the same fold, so
//! a bold cell and the claim about the same cells cannot disagree.

use std::collections::BTreeMap;

use super::pairwise::How;
use super::{Judge, Supersede};
use crate::claims::lang::Relation;
use crate::claims::{combine_all, settle, Verdict};
use crate::metric::Direction;
use crate::query::{Agg, Filter, Key, Pivot, Query};

/// The verdict of `series beats others at point`, by (point, series): the
/// point is the key of the params a table shows besides the series.
pub(crate) type Standings = BTreeMap<(Vec<Key>, String), Verdict>;

impl Judge<'_, '_> {
    /// For every point of `params` the runs under `filter` hold, and every
    /// series: the verdict of `series beats others on metric` there. The
    /// opponents are every other series the filtered runs hold (a claim's
    /// `others`): one without runs at a point leaves that point unable to
    /// hold. A cell whose runs lie at several values of a param the point
    /// does not name is refused with the claim's reason (pooling them would
    /// compare, say, two models at once).
    pub(crate) fn beats_others(
        &self,
        metric: &str,
        params: &[String],
        filter: Filter,
    ) -> std::result::Result<Standings, String> {
        let mut q = Query::new(metric);
        // Every sweep's runs when a comparison picks its sweep itself.
        if self.settings.supersede == Supersede::Comparison {
            q.agg = Agg::All;
        }
        q.rows = params.to_vec();
        q.cols = vec![self.settings.series.clone()];
        q.filter = filter;
        let pivot = self.dataset.evaluate(&q).map_err(|e| e.to_string())?;
        if crate::metric::is_signed(&pivot.metric.name) {
            return Err(format!(
                "`{}` is a signed change or difference (its 0 and negative values are measurements), so no \
                 series beats another by a ratio of its values: `highlight=best` cannot mark it; drop it",
                pivot.metric.name
            ));
        }
        let direction = self.dataset.metric_info(&pivot.metric.name).map_or(Direction::Higher, |m| m.direction);
        let (test, dir) = Relation::Beats.resolve(direction);
        let margin = self.settings.margins.of(&pivot.metric.name, direction);
        let how = How { test, dir, margin, pooled: self.pooled_log_sd(&pivot) };
        let series: Vec<String> = pivot.cols.iter().filter_map(|c| c.first()).map(ToString::to_string).collect();
        let mut standings = Standings::new();
        // Each series is compared with every other at a point: each cell is
        // read once, not once per opponent.
        let _kept = KeptCells::of(self);
        for (row, key) in pivot.rows.iter().enumerate() {
            let label = point_label(&pivot, key);
            self.pooled_at(&pivot, row, &label, &series)?;
            for a in &series {
                let others: Vec<String> = series.iter().filter(|s| *s != a).cloned().collect();
                let mut missing = Vec::new();
                let points = self.against(&pivot, (row, &label), a, &others, how, &mut missing);
                let judged = settle(combine_all(&points), false, missing, String::new);
                standings.insert((key.clone(), a.clone()), judged.verdict);
            }
        }
        Ok(standings)
    }

    /// The claim's refusal of a cell that pools several points, for a
    /// table's point.
    fn pooled_at(&self, pivot: &Pivot, row: usize, label: &str, series: &[String]) -> std::result::Result<(), String> {
        for (col, name) in series.iter().enumerate() {
            let Some(cell) = pivot.cells.get(row).and_then(|r| r.get(col)?.as_ref()) else { continue };
            if let Some((param, values)) = self.dataset.varying_params(&cell.runs).into_iter().next() {
                return Err(format!(
                    "`{}` has runs at several `{param}` values ({}) at {label}, which a claim would not \
                     compare pooled; name one with `where={param} = …`, or add `{param}` to the table's \
                     rows or columns",
                    self.shown(name),
                    values.join(", ")
                ));
            }
        }
        Ok(())
    }
}

/// Keeps the cells a [`Judge`] reads of one pivot while it lives.
struct KeptCells<'j, 'a, 's>(&'j Judge<'a, 's>);

impl<'j, 'a, 's> KeptCells<'j, 'a, 's> {
    fn of(judge: &'j Judge<'a, 's>) -> Self {
        *judge.cells.borrow_mut() = Some(super::cells::Kept::new());
        KeptCells(judge)
    }
}

impl Drop for KeptCells<'_, '_, '_> {
    fn drop(&mut self) {
        self.0.cells.borrow_mut().take();
    }
}

/// `max_concurrency=30`, `model=k2, max_concurrency=30`.
fn point_label(pivot: &Pivot, key: &[Key]) -> String {
    pivot.row_params.iter().zip(key).map(|(p, k)| format!("{p}={k}")).collect::<Vec<_>>().join(", ")
}
