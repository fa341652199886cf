//! False answers a researcher's cold trial of reckon found, each on the
//! trial's own files (`tests/fixtures/trial-llm/`: vLLM and llmperf logs of
//! two sweeps, FP8 vs BF16).

mod common;

use common::Test;

fn claim(id: &str, text: &str) -> String {
    format!("<!-- reckon:claim id={id}\n     {text} -->\nSaid.\n<!-- /reckon:claim -->\n\n")
}

/// An error rate (or count) of 0 is every request succeeding, a real
/// measurement: it was left out as "a run whose requests all failed logs 0",
/// so `< 0.01` at a point with no errors had "no data" (and said "no runs"
/// while counting two), and `max(…) < 0.01` judged only the points with
/// errors.
#[test]
fn finding_trial_01_an_error_rate_of_0_is_a_measurement_not_a_failed_run() {
    let doc = [
        claim("at8", "fp8 on error_rate at num_concurrent_requests = 8 < 0.01"),
        claim("count8", "fp8 on number_errors at num_concurrent_requests = 8 <= 0"),
        claim("max", "max(fp8 on error_rate for all num_concurrent_requests) < 0.01"),
    ]
    .concat();
    Test::new()
        .fixture("trial-llm", ".")
        .file("doc.md", &doc)
        .args(["claims", "doc.md"])
        .stdout_has("claim `at8` holds; closest at num_concurrent_requests=8: fp8 0 vs stated 0.01")
        .stdout_has("claim `count8` holds; closest at num_concurrent_requests=8: fp8 0 vs stated 0")
        .stdout_has("claim `max` contradicted at num_concurrent_requests=32: fp8 0.133 vs stated 0.01")
        .stdout_lacks("a run whose requests all failed")
        .stdout_lacks("no runs of fp8")
        .run();
}

/// Two repeats that logged the same error rate have no spread; the
/// evidence said "single runs and no repeats to measure the noise" of a
/// cell of 2 runs.
#[test]
fn finding_trial_03_identical_repeats_have_no_spread_not_no_repeats() {
    Test::new()
        .fixture("trial-llm", ".")
        .file("doc.md", claim("c32", "fp8 on error_rate at num_concurrent_requests = 32 < 0.01"))
        .args(["claims", "doc.md"])
        .stdout_has("estimate 0.133, no spread: the repeated runs logged the same value), 2 runs")
        .stdout_lacks("no repeats")
        .run();
}
