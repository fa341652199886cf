//! `MLPerf` Inference's loadgen logs: `mlperf_log_summary.txt`, the report it
//! prints at the end of a test (`summary`), and `mlperf_log_detail.txt`, one
//! `:::MLLOG {json}` event per line (`detail`). Either file of a test is one
//! run with the same names: the scenario, mode and `result` (VALID or
//! INVALID) and the test's settings as params; the result's samples (or
//! tokens) per second, higher is better, and its latencies in ns, lower is
//! better, as metrics (`samples_per_second`, `mean_latency_ns`,
//! `p99_latency_ns`, …).

mod detail;
mod summary;

pub use detail::MlperfDetail;
pub use summary::MlperfSummary;

use std::path::{Path, PathBuf};

use crate::run::Value;
use crate::syntax::read_logged;

/// The names loadgen gives the two logs of one test, written side by side
/// in its output folder: both hold the test's results, so they are one run.
pub const SUMMARY_FILE: &str = "mlperf_log_summary.txt";
pub const DETAIL_FILE: &str = "mlperf_log_detail.txt";

/// For a file named as loadgen names its detail log, the summary log of
/// the same test beside it (whether or not it is there).
pub fn summary_beside(path: &Path) -> Option<PathBuf> {
    (path.file_name()? == DETAIL_FILE).then(|| path.with_file_name(SUMMARY_FILE))
}

/// loadgen's mode of a test that measures no performance.
const ACCURACY_ONLY: &str = "AccuracyOnly";

/// The refusal of a test in a mode with no performance result
/// (`AccuracyOnly`: loadgen issues every sample once and logs the
/// responses for the benchmark's accuracy script; its timings are of that
/// pass, not a measurement), or `None` for a performance mode.
pub(super) fn no_performance(mode: &str) -> Option<String> {
    mode.trim().eq_ignore_ascii_case(ACCURACY_ONLY).then(|| {
        format!(
            "this loadgen test ran in {ACCURACY_ONLY} mode, which measures no performance: its timings are of the \
             accuracy pass and its result is the accuracy of mlperf_log_accuracy.json, scored by the benchmark's \
             accuracy script. Ingest the logs of the PerformanceOnly test (e.g. `performance/run_1/`), not those of \
             `accuracy/`"
        )
    })
}

/// A loadgen name in reckon's spelling: `90th percentile latency` and
/// `50.00_percentile_latency` become `p90_latency`, `p50_latency`
/// (`99.90` → `p99.9`), words joined by `_` in lower case.
pub(super) fn snake(label: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    for word in label.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.')).filter(|w| !w.is_empty()) {
        let word = word.trim_matches('.').to_ascii_lowercase();
        if word.is_empty() {
            continue;
        }
        if word == "percentile" {
            if let Some(p) = words.last().and_then(|w| percent(w)) {
                words.pop();
                words.push(format!("p{p}"));
                continue;
            }
        }
        words.push(word);
    }
    words.join("_")
}

/// `90th`, `90.00`, `99.9th` as a percentile's number (`90`, `99.9`).
fn percent(word: &str) -> Option<String> {
    let digits = word.trim_end_matches("th").trim_end_matches("st").trim_end_matches("nd").trim_end_matches("rd");
    let n = read_logged(digits)?;
    Some(crate::metric::format_number(n))
}

/// A setting's value: a number, or text (a seed past 2^53 stays its digits).
pub(super) fn setting(text: &str) -> Value {
    let text = text.trim();
    match read_logged(text) {
        Some(n) if n.is_finite() && (n.abs() < 9_007_199_254_740_992.0 || text.contains(['.', 'e', 'E'])) => {
            Value::Num(n)
        }
        _ => Value::Text(text.to_owned()),
    }
}

/// The unit of a metric loadgen names: latencies are in ns whether or not
/// the label says so, rates per second.
pub(super) fn unit_of(name: &str) -> Option<&'static str> {
    if name.ends_with("_ns") || name.contains("latency") || name.contains("estimate") {
        Some("ns")
    } else if name.contains("samples_per_second") {
        Some("samples/s")
    } else if name.contains("tokens_per_second") {
        Some("tok/s")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loadgen_names_read_as_reckon_spells_them() {
        assert_eq!(snake("90th percentile latency (ns)"), "p90_latency_ns");
        assert_eq!(snake("99.90 percentile latency (ns)"), "p99.9_latency_ns");
        assert_eq!(snake("50.00_percentile_latency_ns"), "p50_latency_ns");
        assert_eq!(snake("Samples per second"), "samples_per_second");
        assert_eq!(snake("* Early stopping 90th percentile estimate"), "early_stopping_p90_estimate");
        assert_eq!(setting("13281865557512327830"), Value::Text("13281865557512327830".into()));
        assert_eq!(setting("0.99"), Value::Num(0.99));
        assert_eq!(snake("target_latency_percentile"), "target_latency_percentile");
    }
}
