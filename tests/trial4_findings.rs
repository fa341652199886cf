//! False answers a fourth cold trial of reckon found, each on the trial's
//! own files (`tests/fixtures/trial4/`: criterion's `change/estimates.json`
//! of a serde study, `MLPerf` loadgen logs and lm-eval results of quantized
//! LLM inference).

mod common;

use common::Test;

fn claim(id: &str, text: &str) -> String {
    format!("<!-- reckon:claim id={id}\n     {text} -->\nSaid.\n<!-- /reckon:claim -->\n\n")
}

/// criterion's `mean_change` is a signed fraction: wirefmt's -0.0059 at
/// 16384 bytes (it got faster) was left out as "a run whose requests all
/// failed logs 0", and `… > 0 for all value` and `min(…) > 0` held on the
/// two points left.
#[test]
fn finding_g1_a_negative_change_is_a_measurement_and_contradicts_a_claim_over_every_point() {
    Test::new()
        .fixture("trial4/serde-change", ".")
        .args(["claims", "change.md"])
        .stdout_has("claim `all-regressed` contradicted at value=16384: wirefmt -0.00592 vs stated 0")
        .stdout_has("claim `no-gain` contradicted at 1 of 3 points; worst at value=16384: wirefmt -0.00592")
        .stdout_lacks("requests all failed")
        .stdout_lacks("claim `all-regressed` holds")
        .stdout_lacks("claim `no-gain` holds")
        .run();
    // An improvement is judged, on the value itself.
    Test::new()
        .fixture("trial4/serde-change", ".")
        .file("t.md", claim("gain", "bincode on mean_change at value = 64 < 0 where group = serialize"))
        .args(["claims", "t.md"])
        .stdout_has("claim `gain` holds; closest at value=64: bincode -0.0101")
        .run();
    // A ratio of signed values means nothing: refused, saying why and what
    // to write instead.
    for (id, text) in [
        ("r", "wirefmt / bincode on mean_change at value = 64 > 1 where group = serialize"),
        ("b", "wirefmt beats bincode on mean_change for all value where group = serialize"),
    ] {
        Test::new()
            .fixture("trial4/serde-change", ".")
            .file("t.md", claim(id, text))
            .args(["claims", "t.md"])
            .status(2)
            .stderr_has("`mean_change` is a signed change or difference")
            .stderr_has("(`wirefmt - bincode on mean_change > 0`)")
            .run();
    }
    // A difference of signed values is one.
    Test::new()
        .fixture("trial4/serde-change", ".")
        .file("t.md", claim("d", "wirefmt - bincode on mean_change at value = 64 > 0 where group = serialize"))
        .args(["claims", "t.md"])
        .stdout_has("claim `d` holds")
        .run();
}

/// Whatever is left out, a `for all` that cannot judge one of its points
/// does not hold: `onefail` logged throughput 0 (vLLM's failed run) at
/// concurrency 2, and `onefail beats a for all concurrency` held on
/// concurrency 1 alone.
#[test]
fn finding_g1_a_for_all_with_a_point_it_cannot_judge_does_not_hold() {
    Test::new()
        .fixture("trial4/failed-point", ".")
        .file("doc.md", claim("c", "onefail beats a on tput for all concurrency"))
        .args(["claims", "doc.md"])
        .stdout_has("claim `c` inconclusive")
        .stdout_has("no run of onefail at concurrency=2 the statistics can use")
        .stdout_has("3 of 3 runs of onefail at concurrency=2 logged tput 0, left out")
        .stdout_lacks("` holds")
        .run();
    Test::new()
        .fixture("trial4/failed-point", ".")
        .file("doc.md", claim("m", "min(onefail on tput for all concurrency) > 100"))
        .args(["claims", "doc.md"])
        .stdout_has("claim `m` inconclusive")
        .stdout_lacks("` holds")
        .run();
    // `for any` is not contradicted by the points it could judge alone.
    Test::new()
        .fixture("trial4/failed-point", ".")
        .file("doc.md", claim("y", "a beats onefail on tput for any concurrency"))
        .args(["claims", "doc.md"])
        .stdout_has("claim `y` inconclusive")
        .run();
}

/// The built-in `sweeps.md` said `3 runs of tokens_per_second from 1 sweep
/// (2026-11-26)` where the runs its filter passes come from two sweeps: it
/// counted only each cell's newest sweep, and said it counted the data.
#[test]
fn finding_g2_the_sweeps_template_counts_every_sweep_its_filter_passes() {
    Test::new()
        .fixture("trial4/llmq", ".")
        .file("t.md", "<!-- reckon:template name=sweeps.md metric=tokens_per_second -->\n<!-- /reckon:template -->\n")
        .args(["update", "t.md"])
        .stdout_has(
            "+4 runs of `tokens_per_second` from 2 sweeps (2026-11-12, 2026-11-26); each cell's newest sweep, \
             which tables and claims read: 2 runs from 1 sweep (2026-11-26).",
        )
        .run();
}
