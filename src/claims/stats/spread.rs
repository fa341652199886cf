//! The spread a side without repeats of its own borrows from runs
//! elsewhere: the per-run log sd pooled over groups of repeated runs (a
//! pivot's cells by sweep, a diff's cells by side), and the standard error
//! runs logged beside their value, as one relative spread.

/// The per-run sd of ln(value) pooled over every group of two or more
/// finite positive values (any other value is left out of its group): the
/// groups' squared deviations from their own log mean, summed in the order
/// given, over their degrees of freedom. `None` when no group has two.
pub(crate) fn pooled_log_sd<G: AsRef<[f64]>>(groups: impl IntoIterator<Item = G>) -> Option<f64> {
    let (mut ss, mut dof) = (0.0, 0usize);
    for group in groups {
        let logs: Vec<f64> = group.as_ref().iter().filter(|v| **v > 0.0 && v.is_finite()).map(|v| v.ln()).collect();
        if logs.len() >= 2 {
            let mean = logs.iter().sum::<f64>() / logs.len() as f64;
            ss += logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>();
            dof += logs.len() - 1;
        }
    }
    (dof > 0).then(|| (ss / dof as f64).sqrt())
}

/// The standard errors runs logged beside their values (value, se) as one
/// spread on the log scale: se / value, over several runs the root mean
/// square. `None` without runs, or when a value is not positive or an se
/// not a finite non-negative number.
pub(crate) fn logged_log_se(runs: &[(f64, f64)]) -> Option<f64> {
    let mut squares = 0.0;
    for &(value, se) in runs {
        if !(value > 0.0 && se.is_finite() && se >= 0.0) {
            return None;
        }
        squares += (se / value).powi(2);
    }
    (!runs.is_empty()).then(|| (squares / runs.len() as f64).sqrt())
}

/// [`logged_log_se`] in the metric's own units: the root mean square of
/// the logged standard errors, for a value read on the raw scale (a signed
/// change, whose value may be 0 or negative). `None` when a run logged no
/// finite, non-negative one.
pub(crate) fn logged_raw_se(runs: &[(f64, f64)]) -> Option<f64> {
    let mut squares = 0.0;
    for &(value, se) in runs {
        if !(value.is_finite() && se.is_finite() && se >= 0.0) {
            return None;
        }
        squares += se * se;
    }
    (!runs.is_empty()).then(|| (squares / runs.len() as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pooled_sd_leaves_out_single_runs_and_values_without_a_log() {
        assert_eq!(pooled_log_sd([[1.0].as_slice()]), None);
        assert_eq!(pooled_log_sd([[1.0, 0.0, f64::INFINITY, f64::NAN].as_slice()]), None);
        let g1 = [100.0, 110.0];
        let sd = pooled_log_sd([g1.as_slice(), [5.0].as_slice(), [7.0, -1.0].as_slice()]).unwrap();
        let expect = ((110f64.ln() - 100f64.ln()).powi(2) / 2.0).sqrt();
        assert!((sd - expect).abs() < 1e-12, "{sd} vs {expect}");
        // Two groups: squares over degrees of freedom, not a mean of sds.
        let sd = pooled_log_sd([[1.0, std::f64::consts::E].as_slice(), [1.0, 1.0, 1.0].as_slice()]).unwrap();
        assert!((sd - (0.5f64 / 3.0).sqrt()).abs() < 1e-12, "{sd}");
    }

    #[test]
    fn raw_logged_errors_keep_their_units_and_take_a_signed_value() {
        assert_eq!(logged_raw_se(&[]), None);
        assert_eq!(logged_raw_se(&[(-0.0467, -1.0)]), None);
        assert_eq!(logged_raw_se(&[(-0.0467, 0.004)]), Some(0.004));
        let rms = logged_raw_se(&[(0.0, 0.003), (1.0, 0.004)]).unwrap();
        assert!((rms - (0.000_012_5f64).sqrt()).abs() < 1e-15, "{rms}");
    }

    #[test]
    fn logged_errors_are_relative_and_their_root_mean_square() {
        assert_eq!(logged_log_se(&[]), None);
        assert_eq!(logged_log_se(&[(0.5, 0.01), (0.0, 0.01)]), None);
        assert_eq!(logged_log_se(&[(0.5, f64::NAN)]), None);
        assert_eq!(logged_log_se(&[(0.5, 0.01)]), Some(0.02));
        let two = logged_log_se(&[(0.5, 0.01), (0.25, 0.01)]).unwrap();
        // (0.02² + 0.04²) / 2 = 0.001
        assert!((two - 0.001f64.sqrt()).abs() < 1e-15, "{two}");
    }
}
