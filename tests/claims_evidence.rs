//! What a verdict's evidence names (issue 20, items 2, 3, 5, 6), on
//! invented data: the truly closest or worst comparison, in one orientation
//! (the claim's subject first); the bound a range claim broke; the clause
//! that decided a long conjunction; series that are numerals, with their
//! param.

mod common;

use std::fmt::Write as _;

use common::Test;

/// Three runs per (config, load) around `base`, `spread` apart.
fn csv(cells: &[(&str, u32, f64, f64)]) -> String {
    let mut csv = String::from("config,load,repeat,tput\n");
    for &(config, load, base, spread) in cells {
        for (repeat, k) in [(1, -1.0), (2, 0.0), (3, 1.0)] {
            writeln!(csv, "{config},{load},{repeat},{:.4}", base * (1.0 + k * spread)).expect("a String");
        }
    }
    csv
}

fn study(series: &str, cells: &[(&str, u32, f64, f64)], claim: &str) -> Test {
    Test::new()
        .file("reckon.toml", format!("series = \"{series}\"\n\n[[source]]\npath = \"logs/runs.csv\"\n"))
        .file("logs/runs.csv", csv(cells).replacen("config", series, 1))
        .file("plan.md", format!("<!-- reckon:claim id=c\n     {claim} -->\nThe words.\n<!-- /reckon:claim -->\n"))
        .args(["claims", "plan.md"])
}

/// x is 6.7% ahead of a noisy b and 4.5% ahead of a steady c: the closest
/// comparison is c's, though b's support is weaker (it was named).
const THREE: [(&str, u32, f64, f64); 3] = [("x", 1, 100.0, 0.001), ("b", 1, 93.3, 0.03), ("c", 1, 95.7, 0.001)];

#[test]
fn evidence_names_the_truly_closest_comparison() {
    study("config", &THREE, "x matches or beats others on tput at load = 1")
        .stdout_has("claim `c` holds (holds against 2 of 2 opponents); closest at load=1: x 100 vs c 95.7 (+4.5%")
        .run();
}

#[test]
fn headline_and_breakdown_keep_the_subject_first() {
    // c loses to x: the headline's worst comparison reads as the breakdown
    // does, c first (it used to read x 100 vs c 95.7, +4.5%).
    study("config", &THREE, "c beats others on tput at load = 1 within 1%")
        .stdout_has("claim `c` contradicted against 1 of 2 opponents; worst at load=1: c 95.7 vs x 100 (-4.3%")
        .stdout_has("  - load=1: c 95.7 vs x 100 (-4.3%")
        .stdout_lacks("x 100 vs c 95.7")
        .run();
}

#[test]
fn a_broken_range_names_the_bound_and_by_how_much() {
    let cells = [("x", 1, 122.7, 0.002)];
    study("config", &cells, "x on tput at load = 1 in 90..100")
        .stdout_has("claim `c` contradicted at load=1: x 122.7 vs the upper bound 100 (+22.7%")
        .stdout_has("must lie in 90 to 100")
        .stdout_lacks("middle")
        .run();
    let cells = [("x", 1, 81.0, 0.002)];
    study("config", &cells, "x on tput at load = 1 in 90..100").stdout_has("x 81 vs the lower bound 90 (-10%").run();
}

/// A long conjunction's line names the clause that decided it, alone, and
/// counts the others (it used to join every clause's evidence into one line).
#[test]
fn a_long_conjunction_names_the_failing_clause_first_and_counts_the_rest() {
    let claim = "x beats c on tput at load = 1 within 1% and x beats c on tput at load = 1 within 2% \
                 and c beats x on tput at load = 1 within 1% and x beats c on tput at load = 1 within 3%";
    study("config", &THREE, claim)
        .stdout_has(
            "claim `c` contradicted: [c beats x on tput at load = 1 within 1%] contradicted at load=1: c 95.7 vs x 100 \
             (-4.3%",
        )
        .stdout_has("; of the other 3 clauses: 3 hold\n")
        .run();
}

/// Series named by numbers are written with their param: "0 cannot tell 3"
/// read as numbers.
#[test]
fn numeral_series_are_written_with_their_param() {
    let cells = [("0", 1, 100.0, 0.001), ("3", 1, 110.0, 0.001), ("0", 2, 200.0, 0.001), ("3", 2, 200.2, 0.001)];
    study("threads", &cells, "3 beats 0 on tput for all load")
        .stdout_has("weakest at load=2: threads=3 200.2 vs threads=0 200 (+0.1%")
        .stdout_has("  - load=1: threads=3 110 vs threads=0 100 (+10%")
        .stdout_lacks(" 3 110 vs 0 100")
        .run();
    study("threads", &cells, "crossover(3, 0 on tput over load) = 1")
        .stdout_has("crossover at load = 1: threads=3 beats threads=0 there")
        .stdout_has("threads=3 matches threads=0 at load = 2")
        .run();
}
