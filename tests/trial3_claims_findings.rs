//! Claims the third cold trial wrote that reckon read badly, each on the
//! trial's own files (`tests/fixtures/trial3/`: Google Benchmark JSON of
//! SGEMM kernels, pytest-benchmark JSON of key-value stores).

mod common;

use common::Test;

fn claim(id: &str, text: &str) -> String {
    format!("<!-- reckon:claim id={id}\n     {text} -->\nSaid.\n<!-- /reckon:claim -->\n\n")
}

fn gemm(doc: &str) -> Test {
    Test::new().fixture("trial3/gemm-cv", ".").file("notebooks/c.md", doc).args(["claims", "notebooks/c.md"])
}

/// `… real_time_cv at arg1 = 512 < 5%` was refused with "expected `and`
/// and another claim, or the end of the statement (found `%`)". Google
/// Benchmark's `cv` is a fraction (AVX2 at 512: 0.0091), so `< 5%` is
/// `< 0.05`; the claim prints back as written.
#[test]
fn trial3_f10_a_percent_bound_on_a_fraction_metric_is_a_fraction() {
    gemm(&claim("c5", "BM_GemmAVX2 on real_time_cv at arg1 = 512 < 5%"))
        .stdout_has("claim `c5` holds")
        .stdout_has("vs stated 0.05")
        .stdout_has("BM_GemmAVX2 on real_time_cv at arg1 = 512 < 5%\n")
        .run();
    gemm(&claim("c5", "BM_GemmAVX2 on real_time_cv at arg1 = 512 < 0.5 %"))
        .stdout_has("claim `c5` contradicted at arg1=512: BM_GemmAVX2 0.00914 vs stated 0.005")
        .stdout_has("BM_GemmAVX2 on real_time_cv at arg1 = 512 < 0.5%\n")
        .run();
    gemm(&claim("c5", "BM_GemmAVX2 on real_time_cv in 0.1%..2% for all arg1")).stdout_has("holds").run();
}

/// Where a percent's meaning is unclear it is refused, saying what to
/// write: a percent of a time, a ratio as a percent.
#[test]
fn trial3_f10_a_percent_on_a_time_or_a_ratio_is_refused_saying_what_to_write() {
    gemm(&claim("t", "BM_GemmAVX2 on real_time at arg1 = 512 < 5%"))
        .status(2)
        .stderr_has("`real_time` is stored in ns, so `%` names no amount of it: write the bound in ns (`< 0.5 ns`)")
        .stderr_has("`A within 5% of B on real_time`")
        .run();
    gemm(&claim("r", "BM_GemmAVX2 / BM_GemmTiled on real_time at arg1 = 512 < 90%"))
        .status(2)
        .stderr_has("a ratio is written as a number (`≈ 1.05`, `> 2x`), not a percentage")
        .run();
    // A metric whose name does not say it is a fraction.
    gemm(&claim("i", "BM_GemmAVX2 on iterations at arg1 = 512 < 5%"))
        .status(2)
        .stderr_has("`%` on `iterations` is unclear (its name does not say it is a fraction)")
        .stderr_has("set `unit = \"%\"` under [metrics.iterations]")
        .run();
    // A utilization logged in percent (85, not 0.85): `> 80%` is not read
    // as 0.8.
    Test::new()
        .file("reckon.toml", "series = \"kernel\"\n\n[[source]]\npath = \"util.csv\"\n")
        .file("util.csv", "kernel,n,repeat,gpu_util\na,1,1,85\na,1,2,86\n")
        .file("c.md", claim("u", "a on gpu_util at n = 1 > 80%"))
        .args(["claims", "c.md"])
        .status(2)
        .stderr_has("`%` on `gpu_util` is unclear (its values reach 86, so it may be logged in percent)")
        .run();
}

fn kv(doc: &str) -> Test {
    Test::new().fixture("trial3/pb", ".").file("pb.md", doc).args(["claims", "pb.md"])
}

/// Evidence of µs-scale claims printed raw seconds: `lmdb 0.00000211 vs
/// stated 0.0000021`. Values are shown in the claim's own unit, or where
/// the claim names none in a unit of the metric's that reads them.
#[test]
fn trial3_f16_evidence_of_microsecond_claims_is_shown_in_microseconds() {
    kv(&claim("a", "lmdb on time at value_size = 100 ≈ 2.1 µs"))
        .stdout_has("lmdb 2.11 µs vs stated 2.1 µs (+0.3%; estimate 2.09 µs, 90% interval 2.06 µs to 2.12 µs")
        .stdout_lacks("0.000")
        .run();
    kv(&claim("b", "lmdb beats sqlite on time for all value_size"))
        .stdout_has("closest at value_size=10000: lmdb 12.4 µs vs sqlite 20.3 µs (-38.6%")
        .stdout_has("  - value_size=100: lmdb 2.11 µs vs sqlite 9.07 µs (-76.8%")
        .stdout_lacks("0.000")
        .run();
    // Written in nanoseconds, shown in nanoseconds.
    kv(&claim("n", "lmdb on time at value_size = 100 ≈ 2100 ns")).stdout_has("lmdb 2105.6 ns vs stated 2100 ns").run();
    // Plain magnitudes keep the stored unit, unnamed, as before.
    kv(&claim("c", "lmdb beats sqlite on ops at value_size = 10000"))
        .stdout_has("lmdb 81164.6 vs sqlite 49162.9")
        .run();
}
