//! A claim judges one point per series: when the cells it compares hold runs
//! at several values of a param the claim does not name, reckon asks which
//! instead of pooling them — with or without a quantifier. Pooled tile sizes
//! would turn a clear win at one tile into an inconclusive mix of three.

mod common;

use std::fmt::Write as _;

use common::Test;

/// Two kernels × two tile sizes × two matrix sizes × three repeats. At tile
/// 128 triton is ahead of cublas at M=8192 by ~6%; at tile 64 it is behind
/// by ~6%, so pooled the two tiles cancel out.
fn gemm_csv() -> String {
    let mut csv = String::from("kernel,tile,M,repeat,tflops\n");
    for (kernel, tile, m, base) in [
        ("cublas", 64, 1024, 40.0),
        ("cublas", 128, 1024, 41.0),
        ("cublas", 64, 8192, 250.0),
        ("cublas", 128, 8192, 240.0),
        ("triton", 64, 1024, 35.0),
        ("triton", 128, 1024, 36.0),
        ("triton", 64, 8192, 235.0),
        ("triton", 128, 8192, 255.0),
    ] {
        for (repeat, jitter) in [(1, -0.4), (2, 0.0), (3, 0.4)] {
            writeln!(csv, "{kernel},{tile},{m},{repeat},{}", base + jitter).expect("writing to a String");
        }
    }
    csv
}

fn plan(claim: &str) -> String {
    format!("# GEMM\n\n<!-- reckon:claim id=large\n     {claim} -->\nTriton wins at 8192.\n<!-- /reckon:claim -->\n")
}

fn study(claim: &str) -> Test {
    Test::new()
        .file("reckon.toml", "series = \"kernel\"\n\n[[source]]\npath = \"logs/gemm.csv\"\n")
        .file("logs/gemm.csv", gemm_csv())
        .file("plan.md", plan(claim))
        .args(["claims", "plan.md"])
}

#[test]
fn a_quantified_claim_over_cells_that_mix_another_param_asks_which() {
    study("triton beats cublas on tflops at M = 8192")
        .status(2)
        .stderr_has("plan.md:4:6: claim `large`")
        .stderr_has("several `tile` values (64, 128) at M=8192")
        .stderr_has("`where tile = …`")
        .run();
}

#[test]
fn naming_the_other_param_judges_one_point() {
    study("triton beats cublas on tflops at M = 8192 where tile = 128").stdout_has("holds").run();
    study("triton beats cublas on tflops at M = 8192 where tile = 64").stdout_has("contradicted").run();
}

#[test]
fn an_unquantified_claim_still_asks_for_the_point() {
    study("triton beats cublas on tflops where tile = 128")
        .status(2)
        .stderr_has("several `M` values (1024, 8192); say which with `at M = …` or `for all M`")
        .run();
}
