//! One field of every run (a param or a pseudo-param) as a column: its
//! distinct values, and which one each run has.
//!
//! Queries read fields from here by index: looking each run's field up by
//! name in its param map, once per query, dominated a whole document's
//! `check` (runs carry dozens of params with long shared prefixes such as
//! `server_info.`), and a field has few distinct values, so a filter or a
//! grouping is worked out once per value instead of once per run. A param
//! is looked up once per param set (runs of one configuration share one),
//! a pseudo-param once per distinct sweep, time or source.

use std::collections::HashMap;

use super::filter::{Field, Fields};
use super::runs::Runs;
use super::sets::ParamSets;
use crate::run::Value;

/// A run's field held apart from the run: a param's value, or the text of a
/// pseudo-param (which never reads as a number).
pub(crate) enum Slot {
    Param(Value),
    Pseudo(String),
}

impl Slot {
    fn of(field: Field<'_>) -> Slot {
        match field {
            Field::Value(v) => Slot::Param(v.clone()),
            Field::Text(t) => Slot::Pseudo(t.to_string()),
        }
    }

    pub(crate) fn field(&self) -> Field<'_> {
        match self {
            Slot::Param(v) => Field::Value(v),
            Slot::Pseudo(t) => Field::Text(t),
        }
    }

    /// The value as text, as a param listing shows it.
    pub(crate) fn text(&self) -> String {
        match self {
            Slot::Param(v) => v.to_string(),
            Slot::Pseudo(t) => t.clone(),
        }
    }
}

/// A field while a column is built, borrowed, to find the slot an equal
/// field already has.
#[derive(PartialEq, Eq, Hash)]
enum SlotRef<'a> {
    Num(u64),
    Text(&'a str),
    Pseudo(&'a str),
}

impl<'a> SlotRef<'a> {
    fn of(field: Field<'a>) -> SlotRef<'a> {
        match field {
            Field::Value(Value::Num(n)) => SlotRef::Num(n.to_bits()),
            Field::Value(Value::Text(t)) => SlotRef::Text(t),
            Field::Text(t) => SlotRef::Pseudo(t),
        }
    }
}

/// The slots of a column being built, with the slot each distinct field
/// already has.
struct SlotsBuilder<'r> {
    slots: Vec<Slot>,
    seen: HashMap<SlotRef<'r>, u32>,
}

impl<'r> SlotsBuilder<'r> {
    fn slot(&mut self, field: Field<'r>) -> u32 {
        let slots = &mut self.slots;
        *self.seen.entry(SlotRef::of(field)).or_insert_with(|| {
            slots.push(Slot::of(field));
            u32::try_from(slots.len() - 1).unwrap_or(ABSENT)
        })
    }
}

/// Marks a run without the field in [`Column::of_run`].
pub(crate) const ABSENT: u32 = u32::MAX;
/// Marks a param set or pseudo value not yet given a slot.
const UNSEEN: u32 = u32::MAX - 1;

/// One field of every run: its distinct values, and which one each run has.
pub(crate) struct Column {
    /// The distinct fields, in order of first appearance among the runs.
    pub(crate) slots: Vec<Slot>,
    /// Indexed like the runs: the run's slot, or [`ABSENT`].
    pub(crate) of_run: Vec<u32>,
}

/// Which pseudo-param a name is, with the per-run ranks it reads.
fn pseudo_of<'r>(runs: &'r Runs, name: &str) -> Option<(&'r [u32], &'r [String])> {
    match name {
        "date" | "sweep" => Some((&runs.sweep, &runs.sweeps)),
        "time" => Some((&runs.time, &runs.times)),
        "source" => Some((&runs.source, &runs.sources)),
        _ => None,
    }
}

impl Column {
    /// The column of `name` over every run: a run's own param of that name,
    /// else the pseudo-param (a param named like a pseudo-param is what the
    /// run reports for it), else absent.
    pub(crate) fn build(runs: &Runs, sets: &ParamSets, name: &str) -> Column {
        let mut slots = SlotsBuilder { slots: Vec::new(), seen: HashMap::new() };
        let mut of_set = vec![UNSEEN; sets.len()];
        let key = sets.key(name);
        let pseudo = pseudo_of(runs, name);
        let mut of_pseudo = vec![UNSEEN; pseudo.map_or(0, |(_, names)| names.len())];
        let mut of_run = Vec::with_capacity(runs.len());
        for at in 0..runs.len() {
            let set = runs.set[at] as usize;
            if of_set[set] == UNSEEN {
                of_set[set] = match key.and_then(|k| sets.value(set, k)) {
                    Some(v) => slots.slot(Field::Value(v)),
                    None => ABSENT,
                };
            }
            let mut slot = of_set[set];
            if slot == ABSENT {
                if let Some((ranks, names)) = pseudo {
                    let k = ranks[at] as usize;
                    if of_pseudo[k] == UNSEEN {
                        of_pseudo[k] = slots.slot(Field::Text(&names[k]));
                    }
                    slot = of_pseudo[k];
                }
            }
            of_run.push(slot);
        }
        Column { slots: slots.slots, of_run }
    }

    /// How many states a run can be in for this field: a slot, or absent.
    pub(crate) fn states(&self) -> usize {
        self.slots.len() + 1
    }

    /// The run's state: its slot, or `slots.len()` when absent.
    pub(crate) fn state(&self, run: usize) -> usize {
        match self.of_run[run] {
            ABSENT => self.slots.len(),
            s => s as usize,
        }
    }

    /// The run's field, if it has one.
    pub(crate) fn field(&self, run: usize) -> Option<Field<'_>> {
        self.slots.get(self.of_run[run] as usize).map(Slot::field)
    }
}

/// A run as a filter sees it: every field the filter names from its column.
pub(crate) struct ColumnFields<'c> {
    pub(crate) at: usize,
    pub(crate) columns: &'c [(&'c str, std::rc::Rc<Column>)],
}

impl Fields for ColumnFields<'_> {
    fn field(&self, name: &str) -> Option<Field<'_>> {
        self.columns.iter().find(|(n, _)| *n == name).and_then(|(_, column)| column.field(self.at))
    }
}

/// Tables indexed by the combination of several columns' states are kept
/// to this many entries; beyond it (a filter on a per-run field such as
/// `time`) the work is done per run.
pub(crate) const MAX_COMBINATIONS: usize = 1 << 20;

/// The number of combinations of the columns' states, if within
/// [`MAX_COMBINATIONS`].
pub(crate) fn combinations<'c>(mut columns: impl Iterator<Item = &'c Column>) -> Option<usize> {
    columns.try_fold(1usize, |n, c| n.checked_mul(c.states()).filter(|n| *n <= MAX_COMBINATIONS))
}

/// A run's combination of the columns' states, as one index.
pub(crate) fn combination<'c>(columns: impl Iterator<Item = &'c Column>, run: usize) -> usize {
    columns.fold(0, |index, c| index * c.states() + c.state(run))
}
