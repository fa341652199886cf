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
        .stdout_has("claim `c` contradicted at concurrency=1: a 101 vs onefail 120.5 (-16.2%")
        .stdout_has("3 runs vs 2 runs")
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
        .stdout_has("no data: no run of onefail at concurrency=1 the statistics can use")
        .stdout_has("1 of 1 runs of onefail at concurrency=1 logged tput 0, left out")
        .run();
}

/// After a partial re-sweep (b re-run on 2026-11-08 at `max_concurrency=4`
/// only) each cell reads its own newest sweep, and the evidence says which
/// side came from which, in the text and the JSON; it used to say only
/// "sweeps 2026-11-01, 2026-11-08". `[claims] supersede = "comparison"`
/// supersedes a point's runs only when its whole comparison was re-run.
#[test]
fn finding_14_a_comparison_across_a_partial_resweep_names_each_sides_sweep() {
    Test::new()
        .fixture("findings/14-partial-resweep", ".")
        .args(["claims", "doc.md"])
        .stdout_has(
            "claim `c4` holds; closest at max_concurrency=4: b 500.5 (sweep 2026-11-08) vs a 400.5 (sweep 2026-11-01)",
        )
        .stdout_has("the two sides come from different sweeps (each cell its newest; `[claims] supersede")
        .stdout_has("1 of 3 comparisons pair sides that come from different sweeps")
        .stdout_has("- max_concurrency=4: b 500.5 (sweep 2026-11-08) vs a 400.5 (sweep 2026-11-01) (+25%")
        // Sides of one sweep are shown as before.
        .stdout_has("- max_concurrency=1: b 90.5 vs a 100.5 (-10%")
        .run();
    let json = Test::new()
        .fixture("findings/14-partial-resweep", ".")
        .args(["claims", "--format", "json", "doc.md"])
        .run()
        .json();
    let ev = &json[0]["claim"]["clauses"][0]["judgement"]["evidence"];
    assert_eq!(ev["example"]["first"]["name"], "b");
    assert_eq!(ev["example"]["first"]["sweeps"], serde_json::json!(["2026-11-08"]));
    assert_eq!(ev["example"]["second"]["sweeps"], serde_json::json!(["2026-11-01"]));
    assert_eq!(ev["across_sweeps"], 1);
    // The whole-comparison rule: a was not re-run at 4, so b's runs of
    // 2026-11-08 there do not supersede; both sides of 2026-11-01.
    let toml =
        "database = \"db/r.sqlite\"\nseries = \"config\"\n\n[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n\n\
                [claims]\nsupersede = \"comparison\"\n";
    Test::new()
        .fixture("findings/14-partial-resweep", ".")
        .file("reckon.toml", toml)
        .args(["claims", "doc.md"])
        .stdout_has("claim `c4` contradicted at max_concurrency=4: b 360.5 vs a 400.5 (-10%")
        .stdout_has("the runs of b at max_concurrency=4 of sweep 2026-11-08 are left out: a was not re-run then")
        .stdout_lacks("different sweeps")
        .run();
    Test::new()
        .fixture("findings/14-partial-resweep", ".")
        .file("reckon.toml", toml.replace("\"comparison\"", "\"sweep\""))
        .args(["claims", "doc.md"])
        .status(2)
        .stderr_has("claims.supersede `sweep`: expected `cell` or `comparison`")
        .run();
}
