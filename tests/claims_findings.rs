//! Findings of the reliability attack on the claim judge (issue 21), each
//! on the data it was found with (`tests/fixtures/findings/`).

mod common;

use common::Test;

/// A failed repeat (vLLM logs 0 for every metric of a run whose requests
/// all failed) is no measurement a ratio can use: it is left out of the
/// cell, and the evidence says so. It used to take the whole cell out of
/// the comparison ("no data: a and onefail have no point in common"), and
/// `check` passed a claim the other two runs contradict.
#[test]
fn finding_13_a_failed_repeat_is_left_out_and_said_not_the_whole_point() {
    let left_out = "1 of 3 runs of onefail at concurrency=1 logged tput 0, left out";
    Test::new()
        .fixture("findings/13-failed-repeat", ".")
        .args(["check", "doc.md"])
        .status(1)
        .stdout_has("claim `c` contradicted at concurrency=1: onefail 120.5 vs a 101 (+19.3%")
        .stdout_has("2 runs vs 3 runs")
        .stdout_has(left_out)
        .stdout_lacks("no point in common")
        .run();
    let ran =
        Test::new().fixture("findings/13-failed-repeat", ".").args(["claims", "--format", "json", "doc.md"]).run();
    let json = ran.json();
    let said = json.to_string();
    assert!(said.contains("\"left_out\":[\"1 of 3 runs of onefail"), "{said}");
    // Every run of a cell failed: that point has no measurement, and the
    // claim says why instead of "no point in common".
    Test::new()
        .fixture("findings/13-failed-repeat", ".")
        .file(
            "doc.md",
            "<!-- reckon:claim id=c a beats onefail on tput at concurrency = 1 where trial = 1 -->\nA wins.\n\
             <!-- /reckon:claim -->\n",
        )
        .args(["claims", "doc.md"])
        .status(0)
        .stdout_has("no data: no runs of onefail at concurrency=1")
        .stdout_has("1 of 1 runs of onefail at concurrency=1 logged tput 0, left out")
        .run();
}
