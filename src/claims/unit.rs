//! The unit a claim's evidence shows the metric's values in: the unit the
//! claim's own number was written in (`≈ 2.1 µs` over a metric stored in
//! seconds), else the stored unit, or — when the stored unit would print
//! the values as strings of zeros or of digits (2.11e-6 s as
//! `0.00000211`) — the unit of its dimension that reads them (`2.11 µs`).
//! Values keep their stored unit everywhere else (the JSON, the statistics).

use serde::Serialize;

use crate::metric::{unit_scale, Conversion};

/// A unit to show values in, with how a stored value is converted to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShownUnit {
    /// The unit as the evidence writes it after each value (`µs`).
    pub unit: String,
    #[serde(skip)]
    conversion: Conversion,
}

/// The units values of each dimension are shown in, smallest first.
const READABLE: [(&str, &[&str]); 3] = [
    ("time", &["ns", "µs", "ms", "s"]),
    ("bytes", &["B", "KB", "MB", "GB"]),
    ("byte rate", &["B/s", "KB/s", "MB/s", "GB/s", "TB/s"]),
];

/// Magnitudes a stored unit shows as they are: from 0.01 (`0.0123`) to
/// below a million (`987654.3`).
const PLAIN: std::ops::Range<f64> = 0.01..1e6;

impl ShownUnit {
    /// The unit a claim wrote its number in, when it is another unit of the
    /// stored one's dimension (`µs` over seconds).
    pub(crate) fn written(written: &str, stored: &str) -> Option<ShownUnit> {
        let conversion = Conversion::between(stored, written)?;
        (conversion != Conversion::Same).then(|| ShownUnit { unit: spelled(written).to_string(), conversion })
    }

    /// A unit of the stored unit's dimension in which `values` (stored) read
    /// as plain numbers, when the stored unit does not: the largest unit in
    /// which the smallest of them is at least 1 (else the smallest unit).
    /// `None` when the stored unit reads them, or its dimension has no
    /// other unit to show them in.
    pub(crate) fn readable(stored: &str, values: impl IntoIterator<Item = f64>) -> Option<ShownUnit> {
        let sizes: Vec<f64> = values.into_iter().map(f64::abs).filter(|v| v.is_finite() && *v > 0.0).collect();
        if sizes.iter().all(|v| PLAIN.contains(v)) {
            return None;
        }
        Self::fitting(stored, sizes)
    }

    /// The largest unit of the stored unit's dimension in which the
    /// smallest nonzero of `values` (stored) is at least 1, else the
    /// dimension's smallest unit; `None` when the stored unit has no
    /// dimension with other units, or no value is nonzero. The stored unit
    /// itself may be the answer.
    pub(crate) fn fitting(stored: &str, values: impl IntoIterator<Item = f64>) -> Option<ShownUnit> {
        let (dim, _) = unit_scale(stored)?;
        let units = READABLE.iter().find(|(d, _)| *d == dim)?.1;
        let smallest =
            values.into_iter().map(f64::abs).filter(|v| v.is_finite() && *v > 0.0).fold(f64::INFINITY, f64::min);
        if !smallest.is_finite() {
            return None;
        }
        let in_unit = |u: &'static str| Conversion::between(stored, u).map(|c| (u, c));
        let chosen = units
            .iter()
            .rev()
            .filter_map(|u| in_unit(u))
            .find(|(_, c)| c.apply(smallest) >= 1.0)
            .or_else(|| in_unit(units[0]))?;
        Some(ShownUnit { unit: chosen.0.to_string(), conversion: chosen.1 })
    }

    /// A stored value in this unit.
    pub(crate) fn convert(&self, stored: f64) -> f64 {
        self.conversion.apply(stored)
    }

    /// A stored value in this unit, as evidence shows numbers (`2.11 µs`).
    pub(crate) fn show(&self, stored: f64) -> String {
        format!("{} {}", super::shown(self.conversion.apply(stored)), self.unit)
    }
}

/// A value as evidence shows it: in `unit` when there is one, else as
/// stored.
pub(crate) fn shown_in(v: f64, unit: Option<&ShownUnit>) -> String {
    unit.map_or_else(|| super::shown(v), |u| u.show(v))
}

/// Micro as the micro sign, however the claim spelled it (`us`, `μs`).
fn spelled(unit: &str) -> &str {
    match unit {
        "us" | "μs" => "µs",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_of_microsecond_scale_read_in_microseconds() {
        let u = ShownUnit::readable("s", [2.11e-6, 9.07e-6, 2.03e-5]).unwrap();
        assert_eq!((u.unit.as_str(), u.show(2.11e-6).as_str()), ("µs", "2.11 µs"));
        assert_eq!(u.show(2.03e-5), "20.3 µs");
        // Plain magnitudes keep the stored unit, unnamed.
        assert_eq!(ShownUnit::readable("ms", [30.2, 1500.0]), None);
        assert_eq!(ShownUnit::readable("tok/s", [1e-4]), None);
        // Nanoseconds below one nanosecond stay in the smallest unit.
        assert_eq!(ShownUnit::readable("s", [2e-12]).unwrap().show(2e-12), "0.002 ns");
        // Gigabytes per second logged in bytes per second.
        assert_eq!(ShownUnit::readable("B/s", [1.25e10, 3e10]).unwrap().show(1.25e10), "12.5 GB/s");
    }

    #[test]
    fn the_claims_own_unit_is_kept() {
        let u = ShownUnit::written("us", "s").unwrap();
        assert_eq!(u.show(2.1e-6), "2.1 µs");
        assert_eq!(ShownUnit::written("s", "s"), None);
        assert_eq!(ShownUnit::written("tok/s", "s"), None);
    }
}
