//! A second study in other domains, end to end (issue 9): a vLLM prefix-cache
//! sweep with `--request-rate inf` (vLLM `--append-result` JSON, `"inf"` as
//! a string) and GEMM kernel latencies in µs from a CSV, with 20 claims as a
//! researcher would write them. `tests/fixtures/study-prefix-cache/
//! EXPECTED.md` lists the verdicts expected before reckon judged them, and
//! says where the statistics proved the expectation wrong.
//!
//! Independent values: every interval checked here was computed with scipy
//! on the fixture logs (`scipy.stats.t.interval` and `ttest_1samp` on the
//! logs of one cell; `ttest_ind(log a, log b, equal_var=False)` and its
//! `confidence_interval` for two series), as each test says.

mod common;

use common::{copy_dir, fixtures, Sandbox};
use serde_json::Value;

fn study() -> Sandbox {
    let s = Sandbox::new();
    copy_dir(&fixtures().join("study-prefix-cache"), s.path());
    s
}

fn reports(s: &Sandbox) -> Vec<Value> {
    let r = s.ok(&["claims", "plan.md", "--format", "json"]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    v.as_array().unwrap().iter().map(|i| i["claim"].clone()).collect()
}

fn find<'a>(rs: &'a [Value], id: &str) -> &'a Value {
    rs.iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("no claim {id}"))
}

fn evidence<'a>(rs: &'a [Value], id: &str) -> &'a Value {
    &find(rs, id)["clauses"][0]["judgement"]["evidence"]
}

fn close(v: &Value, want: f64, tol: f64) {
    let got = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!((got - want).abs() <= tol, "{got} vs {want}");
}

#[test]
fn every_claim_of_the_study_gets_its_verdict() {
    let s = study();
    let rs = reports(&s);
    // The verdicts of EXPECTED.md, with the two it got wrong corrected
    // there (tput-light-load, gemm-large: three runs at 1% noise cannot
    // show those within their margins).
    let want = [
        ("ttft-cache-wins", "holds"),
        ("ttft-saturation", "holds"),
        ("ttft-saturation-infinity", "holds"),
        ("tput-saturation", "holds"),
        ("p99-under-2s", "contradicted"),
        ("ttft-growth", "holds"),
        ("cache-cuts-35", "holds"),
        ("cache-cuts-45", "contradicted"),
        ("p99-literal", "holds"),
        ("p99-beats", "inconclusive"),
        ("tput-light-load", "inconclusive"),
        ("tput-saturation-beats", "inconclusive"),
        ("tput-peak", "holds"),
        ("tput-range", "holds"),
        ("gemm-ms", "holds"),
        ("gemm-no-unit", "contradicted"),
        ("gemm-small", "inconclusive"),
        ("gemm-large", "inconclusive"),
        ("no-rate-32", "no_data"),
        ("req-within", "holds"),
    ];
    assert_eq!(rs.len(), want.len());
    for (id, verdict) in want {
        assert_eq!(find(&rs, id)["verdict"], verdict, "{id}: {:#}", find(&rs, id)["summary"]);
    }
    // The saturation point is judged, not dropped: both named points count.
    assert_eq!(evidence(&rs, "p99-under-2s")["points"], 2);
    assert_eq!(evidence(&rs, "p99-under-2s")["example"]["point"], "request_rate=inf");
    // Why more runs cannot decide, instead of a runs-needed hint.
    let sum = find(&rs, "tput-saturation-beats")["summary"].as_str().unwrap();
    assert!(
        sum.ends_with(
            "the difference (+1.2%) is smaller than the 2% margin, so no number of runs makes `beats` hold; \
             a `matches` statement would hold"
        ),
        "{sum}"
    );
    assert!(!sum.contains("more run"), "{sum}");
    // …while a decidable one gets the hint.
    assert!(find(&rs, "gemm-large")["summary"].as_str().unwrap().contains("more runs per side would decide"));
    // The unit slip is named.
    let sum = find(&rs, "gemm-no-unit")["summary"].as_str().unwrap();
    assert!(sum.ends_with("`latency_us` is stored in us: did you mean `1.66 ms`?"), "{sum}");
    assert_eq!(find(&rs, "no-rate-32")["summary"], "no data: no runs at request_rate = 32");
    // A per-point breakdown for `for all`.
    let details = find(&rs, "gemm-small")["clauses"][0]["details"].as_array().unwrap().clone();
    assert_eq!(details.len(), 2, "{details:#?}");
    assert!(
        details[0].as_str().unwrap().starts_with("m=256: cutlass 41 vs triton 45.1 (-9.1%; 95% interval "),
        "{details:#?}"
    );
    assert!(details[1].as_str().unwrap().ends_with(": inconclusive"), "{details:#?}");
    // `check` fails on the contradicted ones and exits 1, not 2.
    let r = s.run(&["check", "plan.md"]);
    assert_eq!(r.code, 1, "{r:?}");
}

/// `≈` against a number: the 90% interval of the geometric mean, checked
/// against scipy on the logs of the three runs (3356.1, 3390, 3423.9):
/// `exp(t.interval(0.90, 2, mean(log x), std(log x, ddof=1)/√3))` =
/// (3333.215352835167, 3447.522176284273), inside 3390 ± 2% on the log
/// scale; TOST `max(ttest_1samp(log x, ln 3390 − ln 1.02,
/// alternative='greater'), ttest_1samp(log x, ln 3390 + ln 1.02,
/// alternative='less')).pvalue` = 0.0379 ≤ 0.05: holds. (The 95% rule the
/// issue reports left this inconclusive.)
#[test]
fn approx_is_tost_on_the_logs() {
    let rs = reports(&study());
    let stat = &evidence(&rs, "tput-saturation")["example"]["stat"];
    close(&stat["interval"]["lo"], 3333.215352835167, 1e-6);
    close(&stat["interval"]["hi"], 3447.522176284273, 1e-6);
    close(&stat["level"], 0.90, 0.0);
    close(&stat["band"]["lo"], 3390.0 / 1.02, 1e-9);
    close(&stat["band"]["hi"], 3390.0 * 1.02, 1e-9);
}

/// `matches` between series: scipy `ttest_ind(log a, log b,
/// equal_var=False).confidence_interval(0.90)` on `output_throughput` at
/// `request_rate` 1 (prefix-cache vs baseline) = (0.9870163174603757,
/// 1.0219836672620073) as a ratio, poking past 1.02: TOST p =
/// 0.0656 > 0.05, inconclusive.
#[test]
fn matches_is_welch_tost_on_the_logs() {
    let rs = reports(&study());
    let stat = &evidence(&rs, "tput-light-load")["example"]["stat"];
    close(&stat["interval"]["lo"], 0.9870163174603757, 1e-9);
    close(&stat["interval"]["hi"], 1.0219836672620073, 1e-9);
    close(&stat["level"], 0.90, 0.0);
    close(&stat["margin"], 0.02, 1e-12);
}

/// A literal `<` between series: Welch on the logs with no margin. scipy
/// `ttest_ind(log p99(prefix-cache, rate 4), log p99(baseline, rate 4),
/// equal_var=False)`: p = 0.000547, `confidence_interval(0.95)` as a ratio
/// (0.9004068810601502, 0.9421717758749907), wholly below 1.
#[test]
fn a_literal_comparison_has_no_practical_margin() {
    let rs = reports(&study());
    let ev = evidence(&rs, "p99-literal");
    let at4 = ev["breakdown"].as_array().unwrap().iter().find(|b| b["point"] == "request_rate=4").unwrap();
    close(&at4["stat"]["interval"]["lo"], 0.9004068810601502, 1e-9);
    close(&at4["stat"]["interval"]["hi"], 0.9421717758749907, 1e-9);
    close(&at4["stat"]["margin"], 0.0, 0.0);
    assert_eq!(at4["outcome"], "holds");
}

/// A unit of another dimension is an error naming both units; the other
/// claims are still judged and the command exits 2 at the end.
#[test]
fn a_unit_mismatch_is_an_error_and_the_rest_is_judged() {
    let s = study();
    let plan = s.read("plan.md");
    s.write(
        "plan.md",
        plan.replace("cutlass on latency_us at m = 1024 ≈ 1.66 ms", "cutlass on latency_us at m = 1024 ≈ 1.66 tok/s"),
    );
    let r = s.run(&["claims", "plan.md"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("`tok/s` cannot be converted to `us`, the unit `latency_us` is stored in"), "{r:?}");
    assert!(r.stdout.contains("claim `gemm-no-unit` contradicted"), "{r:?}");
    assert!(r.stdout.contains("claim `req-within` holds"), "{r:?}");
}
