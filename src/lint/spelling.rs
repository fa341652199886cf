//! Names as another spelling of them is compared: squashed (lowercase,
//! without spaces, hyphens, underscores, dots or slashes), a metric's name
//! also without its unit; and the series and metrics of a vocabulary by
//! their squashed names, worked out once, so that a word of prose is looked
//! up, not compared with every name.

use std::collections::{BTreeSet, HashMap};

/// Lowercase, without spaces, hyphens, underscores, dots or slashes: how
/// two spellings of one name are compared.
pub(crate) fn squashed(s: &str) -> String {
    const DROPPED: &[u8] = b" -_./";
    if s.is_ascii() {
        // The same, a byte at a time: ASCII lowercases to itself in ASCII.
        let bytes = s.bytes().filter(|b| !DROPPED.contains(b)).map(|b| char::from(b.to_ascii_lowercase()));
        return bytes.collect();
    }
    s.chars().filter(|c| !" -_./".contains(*c)).flat_map(char::to_lowercase).collect()
}

/// A metric's name without its unit suffix (`p99_ms` → `p99`), when the
/// suffix is a unit reckon reads (`output_throughput` is no `output` in
/// tok/s: its last word names the quantity, not the unit).
pub(crate) fn unit_dropped(metric: &str) -> Option<&str> {
    let (base, suffix) = metric.rsplit_once('_')?;
    let unit = |u: &str| crate::metric::unit_scale(u).is_some();
    // `_min` is as often the minimum as minutes, and `tokens_per_s` is a
    // rate whose `s` is no unit of its own.
    let rate = base.rsplit('_').next() == Some("per");
    let unit = suffix != "min" && !rate && (unit(suffix) || unit(&suffix.to_ascii_uppercase()));
    (unit && !base.is_empty()).then_some(base)
}

/// The series and metrics of a vocabulary by their squashed names.
#[derive(Debug, Clone, Default)]
pub(crate) struct Spellings {
    /// The first series (in order; no numeral) of each squashed name.
    series: HashMap<String, String>,
    /// The metrics, in order, whose name or name without its unit squashes
    /// to each key (a metric once per key).
    metrics: HashMap<String, Vec<String>>,
}

impl Spellings {
    pub(crate) fn new<'m>(series: &BTreeSet<String>, metrics: impl Iterator<Item = &'m String>) -> Spellings {
        let mut spelt = Spellings::default();
        for s in series.iter().filter(|s| crate::syntax::read_logged(s).is_none()) {
            spelt.series.entry(squashed(s)).or_insert_with(|| s.clone());
        }
        for m in metrics {
            let whole = squashed(m);
            let base = unit_dropped(m).map(squashed).filter(|b| *b != whole);
            for key in std::iter::once(whole).chain(base) {
                spelt.metrics.entry(key).or_default().push(m.clone());
            }
        }
        spelt
    }

    /// The series (no numeral) spelt `key` squashed.
    pub(crate) fn series(&self, key: &str) -> Option<&String> {
        self.series.get(key)
    }

    /// The metrics spelt `key` squashed, with or without their unit.
    pub(crate) fn metrics(&self, key: &str) -> &[String] {
        self.metrics.get(key).map_or(&[], Vec::as_slice)
    }
}
