//! One metric's values as a command holds them (`Dataset::cached_values`),
//! in the smaller of two forms.

/// Values as (position among `Dataset::runs`, value), in run order, NaN
/// left out: a cell's.
pub(crate) type Values = Vec<(u32, f64)>;

/// One metric's values over the runs loaded, held for the command: in run
/// order, NaN left out. A metric most runs have is held as a value per run
/// (NaN where a run has none), 8 bytes a run; one of a few runs as
/// (position, value) pairs, 16 bytes a value.
pub(crate) struct MetricValues(Held);

enum Held {
    /// By position; NaN: no value.
    Dense(Vec<f64>),
    Sparse(Values),
}

impl MetricValues {
    /// The values of `by_run` (NaN: none), `count` of them: as they are
    /// when at least half the runs have one, else as pairs.
    pub(crate) fn new(by_run: Vec<f64>, count: usize) -> MetricValues {
        if count * 2 < by_run.len() {
            let mut pairs: Values = Vec::with_capacity(count);
            pairs.extend(MetricValuesIter::Dense(by_run.iter().enumerate()));
            MetricValues(Held::Sparse(pairs))
        } else {
            MetricValues(Held::Dense(by_run))
        }
    }

    /// Every value as (position, value), in run order.
    pub(crate) fn iter(&self) -> MetricValuesIter<'_> {
        match &self.0 {
            Held::Dense(v) => MetricValuesIter::Dense(v.iter().enumerate()),
            Held::Sparse(v) => MetricValuesIter::Sparse(v.iter()),
        }
    }

    /// The value of the run at `at`, if it has one.
    pub(crate) fn get(&self, at: u32) -> Option<f64> {
        match &self.0 {
            Held::Dense(v) => v.get(at as usize).copied().filter(|v| !v.is_nan()),
            Held::Sparse(v) => v.binary_search_by_key(&at, |(i, _)| *i).ok().map(|k| v[k].1),
        }
    }
}

/// [`MetricValues::iter`].
pub(crate) enum MetricValuesIter<'a> {
    Dense(std::iter::Enumerate<std::slice::Iter<'a, f64>>),
    Sparse(std::slice::Iter<'a, (u32, f64)>),
}

impl Iterator for MetricValuesIter<'_> {
    type Item = (u32, f64);

    fn next(&mut self) -> Option<(u32, f64)> {
        match self {
            MetricValuesIter::Dense(it) => {
                it.find(|(_, v)| !v.is_nan()).map(|(i, v)| (u32::try_from(i).unwrap_or(u32::MAX), *v))
            }
            MetricValuesIter::Sparse(it) => it.next().copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_give_the_same_values_in_run_order() {
        let by_run = vec![f64::NAN, 2.0, f64::NAN, 4.5, -1.0];
        let dense = MetricValues::new(by_run.clone(), 3);
        assert!(matches!(dense.0, Held::Dense(_)));
        let sparse = MetricValues::new([by_run, vec![f64::NAN; 2]].concat(), 3);
        assert!(matches!(sparse.0, Held::Sparse(_)));
        let expected = vec![(1, 2.0), (3, 4.5), (4, -1.0)];
        for held in [&dense, &sparse] {
            assert_eq!(held.iter().collect::<Vec<_>>(), expected);
            assert_eq!(
                (0..6).map(|at| held.get(at)).collect::<Vec<_>>(),
                [None, Some(2.0), None, Some(4.5), Some(-1.0), None]
            );
        }
    }
}
