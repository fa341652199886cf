//! What is said under a table: its caption, and the unit its numbers are
//! shown in when `digits=` would write some of them as zero.

use super::super::best::{Mark, Marks};
use super::Table;
use crate::doc::spec::{TableMetrics, TableSpec};
use crate::escape;
use crate::query::{Agg, Pivot};
use crate::render::RegionError;

/// With `digits=N`, a nonzero value that would be written as zero
/// (`0.000` for 3.2 µs stored in seconds) reads as no time at all, bold
/// where best. Such columns are written in the unit of their dimension
/// that keeps every value (µs), their values converted here, and the note
/// naming it is returned; without a unit to move to, the table is refused,
/// naming the value and the digits that would keep it.
pub(super) fn shown_units(spec: &TableSpec, agg: Agg, table: &mut Table) -> Result<Option<String>, RegionError> {
    let Some(digits) = spec.format.precision else { return Ok(None) };
    if agg == Agg::Count {
        return Ok(None);
    }
    let zeroed = |v: f64| spec.format.hides(v);
    let compared = table.columns.iter().filter(|c| c.ratio.is_none()).count();
    // One metric: one unit for the whole table; several: one per column.
    let groups: Vec<(Vec<usize>, usize)> = match &spec.metrics {
        TableMetrics::One(_) => vec![((0..compared).collect(), 0)],
        TableMetrics::Several { .. } => (0..compared).map(|ci| (vec![ci], ci)).collect(),
    };
    let mut said = Vec::new();
    for (cols, pivot) in groups {
        let values = || cols.iter().flat_map(|&ci| table.columns[ci].values.iter().flatten().copied());
        // The smallest, for the digits that would keep every value.
        let Some(first) = values().filter(|v| zeroed(*v)).min_by(|a, b| a.abs().total_cmp(&b.abs())) else {
            continue;
        };
        let metric = &table.pivots[pivot.min(table.pivots.len() - 1)].metric;
        let shown = metric.unit.as_deref().and_then(|u| Some((u, crate::claims::ShownUnit::fitting(u, values())?)));
        let still = shown
            .as_ref()
            .and_then(|(_, s)| values().filter(|v| zeroed(s.convert(*v))).min_by(|a, b| a.abs().total_cmp(&b.abs())));
        let (Some((stored, unit)), None) = (shown, still) else {
            let v = still.unwrap_or(first);
            let needed = crate::query::digits_to_show(v).max(digits + 1);
            let unit = metric.unit.as_deref().map(|u| format!(" {u}")).unwrap_or_default();
            return Err(RegionError::region(format!(
                "digits={digits} writes {}{unit} of `{}` as {}: a nonzero value would read as zero; \
                 write digits={needed} or more, or leave digits= out",
                crate::metric::format_number(v),
                metric.name,
                spec.format.format(v)
            )));
        };
        for &ci in &cols {
            let col = &mut table.columns[ci];
            for v in col.values.iter_mut().flatten() {
                *v = unit.convert(*v);
            }
            if let TableMetrics::Several { .. } = &spec.metrics {
                col.header = format!("{} ({})", col.name, unit.unit);
            }
        }
        said.push(format!(
            "{} in {} (logged in {stored}; digits={digits} would write some as {})",
            metric.name,
            unit.unit,
            spec.format.format(first)
        ));
    }
    Ok((!said.is_empty()).then(|| said.join("; ")))
}

/// What is said under a table's rows: the unit its numbers were moved
/// to, its caption when it has one (naming the unit of one metric's
/// numbers), and what its numbers leave out.
pub(super) fn push_notes(
    content: &mut String,
    spec: &TableSpec,
    scaled: Option<&str>,
    (pivots, agg): (&[Pivot], Agg),
    marks: Option<&Marks>,
    notes: &[String],
) {
    // Numbers in another unit than the logs' are said whatever the
    // caption: the reader would take them for the stored unit.
    if let Some(note) = scaled {
        content.push_str("\n_");
        content.push_str(&escape::markdown(note));
        content.push_str("._\n");
    }
    if spec.caption {
        let unit = match (&spec.metrics, pivots.first()) {
            (TableMetrics::One(_), Some(p)) if scaled.is_none() && agg != Agg::Count => {
                p.metric.unit.as_deref().map(|u| format!("{} in {u}", p.metric.name))
            }
            _ => None,
        };
        push_caption(content, pivots, agg, marks, unit.as_deref());
    }
    // Said under the table whether or not it has a caption: its numbers
    // are not what a reader summing the logs would get.
    for note in notes {
        content.push('\n');
        content.push('_');
        content.push_str(note);
        content.push_str("._\n");
    }
}

/// The caption under a table, with what its ≈ marks mean when it has any.
fn push_caption(content: &mut String, pivots: &[Pivot], agg: Agg, marks: Option<&Marks>, unit: Option<&str>) {
    content.push('\n');
    content.push_str(&caption(pivots, agg, unit));
    match marks {
        Some(m) if m.cells.iter().flatten().any(|c| *c == Mark::Tie) && m.ties_only => {
            content.push_str(" _≈: tied for best, none of them ahead of the others beyond noise._");
        }
        Some(m) if m.cells.iter().flatten().any(|c| *c == Mark::Tie) => content.push_str(
            " _≈: might be best, not shown ahead of every other series beyond noise (tied within noise, \
             or a series has no runs there)._",
        ),
        _ => {}
    }
    content.push('\n');
}

/// "_121 runs; sweeps 2026-11-20, 2026-11-29; median of each cell's newest sweep._"
fn caption(pivots: &[Pivot], agg: Agg, unit: Option<&str>) -> String {
    let runs: usize = pivots.iter().map(Pivot::run_count).max().unwrap_or(0);
    let mut sweeps: Vec<&str> = pivots.iter().flat_map(|p| p.sweeps()).collect();
    sweeps.sort_unstable();
    sweeps.dedup();
    let how = match agg {
        Agg::Median => "median of each cell's newest sweep",
        Agg::Mean => "mean of each cell's newest sweep",
        Agg::Min => "minimum of each cell's newest sweep",
        Agg::Max => "maximum of each cell's newest sweep",
        Agg::Count => "runs in each cell's newest sweep",
        Agg::Latest => "each cell's latest run",
        Agg::All => "median over every sweep",
    };
    let s = if sweeps.len() == 1 { "sweep" } else { "sweeps" };
    let r = if runs == 1 { "run" } else { "runs" };
    let unit = unit.map(|u| format!("; {}", escape::markdown(u))).unwrap_or_default();
    format!("_{runs} {r}; {s} {}; {how}{unit}._", escape::markdown(&sweeps.join(", ")))
}
