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

/// Two lm-eval runs of each model (a re-run with batch nondeterminism, acc
/// moved by under 0.001, or a byte-identical greedy re-run) replaced the
/// `acc_norm_stderr` the files log (±2.5%, the noise of 1,172 questions)
/// with their own spread, and `int8 matches fp16 … within 1%` held.
#[test]
fn finding_g4_repeats_of_an_eval_keep_the_standard_error_it_logged() {
    let lossless = claim("int8-lossless", "int8 matches fp16 on acc_norm for all task within 1%");
    Test::new()
        .fixture("trial4/llmq-rerun", ".")
        .file("t.md", &lossless)
        .args(["claims", "t.md"])
        .stdout_has("claim `int8-lossless` inconclusive")
        .stdout_has("the spread is the standard error each run logged beside acc_norm (`acc_norm_stderr`)")
        .stdout_lacks("claim `int8-lossless` holds")
        .stdout_lacks("more run")
        .run();
    // Byte-identical copies: no "no spread".
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/trial4/llmq/evals/2026-11-26");
    let read = |p: &str| std::fs::read_to_string(format!("{dir}/{p}")).unwrap();
    let (fp16, int8) = ("fp16/results_2026-11-26T14-05-00.000000", "int8/results_2026-11-26T15-05-00.000000");
    Test::new()
        .fixture("trial4/llmq", ".")
        .file(&format!("evals/2026-11-26/{fp16}-rerun.json"), read(&format!("{fp16}.json")))
        .file(&format!("evals/2026-11-26/{int8}-rerun.json"), read(&format!("{int8}.json")))
        .file("t.md", &lossless)
        .args(["claims", "t.md"])
        .stdout_has("claim `int8-lossless` inconclusive")
        .stdout_has("2 runs each")
        .stdout_lacks("no spread")
        .run();
}

/// The README and the evidence write a numeral series with its param
/// (`threads=3 beats threads=0`), and the claim parser refused `wbits=4` as
/// an unknown series.
#[test]
fn finding_g_numeral_series_written_with_their_param_parse() {
    Test::new()
        .fixture("trial4/numeral", ".")
        .file("t.md", claim("w", "wbits=4 beats wbits=16 on tokens_per_s at batch = 1"))
        .args(["claims", "t.md"])
        .stdout_has("claim `w` holds; closest at batch=1: wbits=4 211 vs wbits=16 101")
        .run();
    Test::new()
        .fixture("trial4/numeral", ".")
        .file("t.md", claim("w", "wbits=3 beats wbits=16 on tokens_per_s at batch = 1"))
        .args(["claims", "t.md"])
        .status(2)
        .stderr_has("unknown series `wbits=3`")
        .run();
}

/// An `exact_match` of 0 (the answer pattern never matched: a broken chat
/// template) was left out as a failed run, and `min(int4 on exact_match for
/// all filter) > 0.7` held on the other filter.
#[test]
fn finding_g1b_a_score_of_0_is_a_result() {
    Test::new()
        .fixture("trial4/llmq-zero", ".")
        .file("t.md", claim("z3", "min(int4 on exact_match for all filter) > 0.7 where task = gsm8k"))
        .args(["claims", "t.md"])
        .stdout_has("claim `z3` contradicted at filter=strict-match: int4 0 vs stated 0.7")
        .stdout_lacks("requests all failed")
        .run();
}
