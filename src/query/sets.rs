//! The distinct param sets of the runs, read once per command: each set a
//! short list of (name, value) with the names kept once for all sets.
//!
//! Runs of one configuration share a set, so a dataset holds a few hundred
//! sets of a few dozen params. Parsing each into its own map of owned names
//! allocated every name of every set, which cost more than the parse; here
//! a name is a small integer into one sorted table, so a set is looked up by
//! integer and the params some run has are a mark per name.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};

use super::filter::{Field, Fields};
use crate::run::Value;
use crate::syntax::ValueRef;

/// Every param set: the param names once, sorted, and each set's values by
/// name index.
#[derive(Default)]
pub(crate) struct ParamSets {
    /// Every name some set has, sorted: an index into it compares as the
    /// name does.
    names: Vec<String>,
    /// Each set's (name index, value), sorted by name.
    sets: Vec<Vec<(u32, Value)>>,
    /// Each set's repeat marker ([`crate::run::is_repeat_marker`]): the
    /// name index of its first param that tells repeats apart, decided once
    /// per set when the sets are read, not per comparison.
    markers: Vec<Option<u32>>,
}

/// One param set, borrowed from [`ParamSets`].
#[derive(Clone, Copy)]
pub struct ParamSet<'s> {
    names: &'s [String],
    entries: &'s [(u32, Value)],
}

impl<'s> ParamSet<'s> {
    /// The value of a param, if the set has it.
    pub fn get(&self, name: &str) -> Option<&'s Value> {
        let key = self.names.binary_search_by(|n| n.as_str().cmp(name)).ok()?;
        let key = u32::try_from(key).ok()?;
        self.entries.binary_search_by_key(&key, |(k, _)| *k).ok().map(|i| &self.entries[i].1)
    }

    /// The params, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&'s str, &'s Value)> + 's {
        let names = self.names;
        self.entries.iter().map(move |(k, v)| (names[*k as usize].as_str(), v))
    }

    /// The param names, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &'s str> + 's {
        self.iter().map(|(k, _)| k)
    }

    /// The set as a map of owned names and values.
    pub fn to_map(&self) -> BTreeMap<String, Value> {
        self.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
    }
}

/// A filter reads a set's params; a set has no pseudo-params (those are
/// the run's).
impl Fields for ParamSet<'_> {
    fn field(&self, name: &str) -> Option<Field<'_>> {
        self.get(name).map(Field::Value)
    }
}

/// Builds [`ParamSets`] from sets read one after another.
#[derive(Default)]
pub(crate) struct SetsBuilder {
    index: HashMap<String, u32>,
    names: Vec<String>,
    /// The name indices of the set read last: sets of one project mostly
    /// name the same params, so the name at the same position usually
    /// spares a hash.
    previous: Vec<u32>,
    sets: Vec<Vec<(u32, Value)>>,
}

impl SetsBuilder {
    /// Adds a set (its pairs as stored: sorted by name) and returns its index.
    pub(crate) fn add(&mut self, pairs: &[(Cow<'_, str>, Value)]) -> u32 {
        let mut entries = Vec::with_capacity(pairs.len());
        for (i, (name, value)) in pairs.iter().enumerate() {
            let key = match self.previous.get(i) {
                Some(k) if self.names[*k as usize] == name.as_ref() => *k,
                _ => self.name(name),
            };
            entries.push((key, value.clone()));
        }
        self.previous.clear();
        self.previous.extend(entries.iter().map(|(k, _)| *k));
        self.sets.push(entries);
        u32::try_from(self.sets.len() - 1).unwrap_or(u32::MAX)
    }

    /// Adds a set with no params.
    pub(crate) fn add_empty(&mut self) -> u32 {
        self.sets.push(Vec::new());
        u32::try_from(self.sets.len() - 1).unwrap_or(u32::MAX)
    }

    fn name(&mut self, name: &str) -> u32 {
        if let Some(k) = self.index.get(name) {
            return *k;
        }
        let k = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.index.insert(name.to_string(), k);
        self.names.push(name.to_string());
        k
    }

    /// The sets, with the names sorted and each set's entries by name; a
    /// name given twice in one set keeps its last value (as a map built
    /// from the pairs would).
    pub(crate) fn finish(self) -> ParamSets {
        let mut order: Vec<u32> = (0..u32::try_from(self.names.len()).unwrap_or(u32::MAX)).collect();
        order.sort_unstable_by(|a, b| self.names[*a as usize].cmp(&self.names[*b as usize]));
        let mut rank = vec![0u32; order.len()];
        for (old, r) in order.iter().zip(0u32..) {
            rank[*old as usize] = r;
        }
        let mut names = self.names;
        let names: Vec<String> = order.iter().map(|old| std::mem::take(&mut names[*old as usize])).collect();
        let sets = self
            .sets
            .into_iter()
            .map(|mut entries| {
                for e in &mut entries {
                    e.0 = rank[e.0 as usize];
                }
                // Stable: of a name given twice, the later pair stays later.
                if !entries.is_sorted_by_key(|(k, _)| *k) {
                    entries.sort_by_key(|(k, _)| *k);
                }
                let mut kept: Vec<(u32, Value)> = Vec::with_capacity(entries.len());
                for e in entries {
                    match kept.last_mut() {
                        Some(last) if last.0 == e.0 => *last = e,
                        _ => kept.push(e),
                    }
                }
                kept
            })
            .collect::<Vec<Vec<(u32, Value)>>>();
        let marker_name: Vec<bool> = names.iter().map(|n| crate::run::is_repeat_marker(n)).collect();
        let markers =
            sets.iter().map(|entries| entries.iter().map(|(k, _)| *k).find(|k| marker_name[*k as usize])).collect();
        ParamSets { names, sets, markers }
    }
}

impl ParamSets {
    pub(crate) fn len(&self) -> usize {
        self.sets.len()
    }

    /// The set at an index.
    pub(crate) fn get(&self, set: usize) -> ParamSet<'_> {
        ParamSet { names: &self.names, entries: self.sets.get(set).map_or(&[], Vec::as_slice) }
    }

    /// The set's repeat marker, if it has one: the first of its params
    /// (by name) that tells repeats apart, with its value.
    pub(crate) fn repeat_marker(&self, set: usize) -> Option<(&str, &Value)> {
        let key = (*self.markers.get(set)?)?;
        Some((self.names[key as usize].as_str(), self.value(set, key)?))
    }

    /// Every param name some set has, sorted.
    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    /// The index of a param name, if some set has it.
    pub(crate) fn key(&self, name: &str) -> Option<u32> {
        self.names.binary_search_by(|n| n.as_str().cmp(name)).ok().and_then(|k| u32::try_from(k).ok())
    }

    /// A set's value of the param with this index.
    pub(crate) fn value(&self, set: usize, key: u32) -> Option<&Value> {
        let entries = &self.sets[set];
        entries.binary_search_by_key(&key, |(k, _)| *k).ok().map(|i| &entries[i].1)
    }

    /// The distinct values of a param over some sets, in order of first
    /// appearance (numbers by their bits: `1` and `"1"` are two values).
    pub(crate) fn distinct(&self, name: &str, sets: &[usize]) -> Vec<&Value> {
        let Some(key) = self.key(name) else { return Vec::new() };
        let mut seen: HashSet<ValueRef<'_>> = HashSet::new();
        sets.iter().filter_map(|set| self.value(*set, key)).filter(|v| seen.insert(ValueRef::of(v))).collect()
    }

    /// A param over some sets: the distinct texts of its values, in order
    /// of first appearance, and each set's text index, if it has the param.
    /// Each distinct value is written as text once.
    pub(crate) fn texts(&self, name: &str, sets: &[usize]) -> (Vec<String>, Vec<Option<u32>>) {
        let Some(key) = self.key(name) else { return (Vec::new(), vec![None; sets.len()]) };
        let (mut texts, mut by_text): (Vec<String>, HashMap<String, u32>) = (Vec::new(), HashMap::new());
        let mut by_value: HashMap<ValueRef<'_>, u32> = HashMap::new();
        let of_set = sets
            .iter()
            .map(|set| {
                let value = self.value(*set, key)?;
                let id = *by_value.entry(ValueRef::of(value)).or_insert_with(|| {
                    let text = value.to_string();
                    *by_text.entry(text.clone()).or_insert_with(|| {
                        texts.push(text);
                        u32::try_from(texts.len() - 1).unwrap_or(u32::MAX)
                    })
                });
                Some(id)
            })
            .collect();
        (texts, of_set)
    }

    /// The name indices a set has.
    pub(crate) fn keys_of(&self, set: usize) -> impl Iterator<Item = u32> + '_ {
        self.sets[set].iter().map(|(k, _)| *k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs<'a>(items: &[(&'a str, f64)]) -> Vec<(Cow<'a, str>, Value)> {
        items.iter().map(|(k, v)| (Cow::Borrowed(*k), Value::Num(*v))).collect()
    }

    #[test]
    fn sets_read_back_as_the_maps_their_pairs_make() {
        let given: Vec<Vec<(Cow<'_, str>, Value)>> = vec![
            pairs(&[("b", 1.0), ("c", 2.0)]),
            pairs(&[("a", 3.0), ("b", 4.0)]),
            // Out of order, and a name given twice: the last value wins.
            pairs(&[("c", 5.0), ("a", 6.0), ("c", 7.0)]),
            pairs(&[]),
        ];
        let mut builder = SetsBuilder::default();
        for (i, p) in given.iter().enumerate() {
            assert_eq!(builder.add(p) as usize, i);
        }
        let sets = builder.finish();
        assert_eq!(sets.names(), ["a", "b", "c"]);
        for (i, p) in given.iter().enumerate() {
            let expect: BTreeMap<String, Value> = p.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
            let set = sets.get(i);
            assert_eq!(set.to_map(), expect, "set {i}");
            for name in ["a", "b", "c", "d"] {
                assert_eq!(set.get(name), expect.get(name), "set {i}, {name}");
                let by_key = sets.key(name).and_then(|k| sets.value(i, k));
                assert_eq!(by_key, expect.get(name), "set {i}, {name} by key");
            }
        }
        assert_eq!(sets.get(2).get("c"), Some(&Value::Num(7.0)));
    }
}
