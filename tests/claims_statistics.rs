//! The fold rules end to end (issue 20, items 1 and 4), on invented data: a
//! `for all` holds when every comparison holds at α (no correction); a
//! verdict resting on any one comparison is Holm-corrected, and a row whose
//! own interval clears the rule shows the interval its corrected decision
//! used.

mod common;

use std::fmt::Write as _;

use common::Test;

/// Four settings × eight loads, three runs each; `a` within ±1% of every
/// other setting, 1.2% run-to-run noise. `b`, `c`, `d` differ from `a` by
/// −1%, +0.5%, +1% times a per-load wobble.
fn equivalence_csv() -> String {
    let mut csv = String::from("config,load,repeat,tput\n");
    for (config, offset) in [("a", 0.0), ("b", -0.01), ("c", 0.005), ("d", 0.01)] {
        for load in [1u32, 2, 4, 8, 16, 32, 64, 128] {
            let wobble = [1.0, 0.6, -0.4, 0.8, -0.9, 0.3, -1.0, 0.1][load.trailing_zeros() as usize];
            let base = 100.0 * f64::from(load) * (1.0 + offset * wobble);
            for (repeat, jitter) in [(1, -0.012), (2, 0.0), (3, 0.012)] {
                writeln!(csv, "{config},{load},{repeat},{:.4}", base * (1.0 + jitter)).expect("a String");
            }
        }
    }
    csv
}

fn study(claim: &str) -> Test {
    Test::new()
        .file("reckon.toml", "series = \"config\"\n\n[[source]]\npath = \"logs/runs.csv\"\n")
        .file("logs/runs.csv", equivalence_csv())
        .file("plan.md", format!("<!-- reckon:claim id=eq\n     {claim} -->\nAll alike.\n<!-- /reckon:claim -->\n"))
        .args(["claims", "plan.md"])
}

/// 24 comparisons, each 90% interval inside ±3.1% against a 5% margin:
/// Holm's correction on the holds side called this "inconclusive (0 of 24
/// comparisons hold)".
#[test]
fn a_for_all_equivalence_over_24_comparisons_holds_when_each_does() {
    study("a matches others on tput for all load within 5%")
        .stdout_has("claim `eq` holds (24 of 24 comparisons hold: 8 points × 3 opponents)")
        .stdout_lacks("Holm")
        .run();
}

/// `for any` rests on one comparison: Holm-corrected. One setting ahead by
/// 3% at one load only (its own interval clears the 1% margin) does not make
/// "a beats b for any load" hold when the correction over the two loads
/// leaves it undecided; the row shows both intervals.
#[test]
fn a_verdict_resting_on_any_one_comparison_shows_its_corrected_interval() {
    let mut csv = String::from("config,load,repeat,tput\n");
    for (config, load, base, spread) in
        [("a", 1, 103.0, 0.008), ("b", 1, 100.0, 0.008), ("a", 2, 200.0, 0.004), ("b", 2, 200.0, 0.004)]
    {
        for (repeat, k) in [(1, -1.0), (2, 0.0), (3, 1.0)] {
            writeln!(csv, "{config},{load},{repeat},{:.4}", base * (1.0 + k * spread)).expect("a String");
        }
    }
    Test::new()
        .file("reckon.toml", "series = \"config\"\n\n[[source]]\npath = \"logs/runs.csv\"\n")
        .file("logs/runs.csv", csv)
        .file(
            "plan.md",
            "<!-- reckon:claim id=any\n     a beats b on tput for any load within 1% -->\nA wins somewhere.\n\
             <!-- /reckon:claim -->\n",
        )
        .args(["claims", "plan.md"])
        .stdout_has("claim `any` inconclusive")
        .stdout_has(
            "- load=1: a 103 vs b 100 (+3%; 95% interval +1.1% to +4.9% (Holm-corrected over 2 comparisons: \
             97.5% interval",
        )
        .stdout_has("1 comparison decided on its own is undecided after Holm's correction over 2 comparisons")
        .run();
}
