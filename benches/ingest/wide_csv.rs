//! A big generic CSV at two sizes: whether ingest is linear in the file's
//! size, and its rate against a bare `SQLite` import of the same rows.
//!
//! The file is a wide sweep as a GEMM script writes one: per row the
//! machine's constant columns (`host`, `gpu`, `driver`, `commit`), the
//! point's (`kernel`, `dtype`, `M`, `N`, `K`), a `repeat` (so every row is
//! a param set of its own) and 12 metrics. The small file is
//! `RECKON_BENCH_CSV_MB` MB (20 by default), the large one ten times that.
//! Each is ingested by a whole `reckon` process into an empty database, and
//! every row that ingest left is then inserted table by table into a fresh
//! database of reckon's schema with one prepared INSERT per table in one
//! transaction (the bare import, as for the JSONL file). Prints the time
//! ratio between the sizes beside their size ratio, and each size's rate
//! as a fraction of the bare import's (targets: the time ratio within 1.2x
//! of the size ratio, the rate at least the bare import's).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How many times the small file the large one is.
const SCALE: usize = 10;

const HEADER: &str = "host,gpu,driver,commit,kernel,dtype,M,N,K,repeat,latency_us,tflops,bandwidth_gbs,\
                      p50_us,p90_us,p99_us,min_us,max_us,stddev_us,occupancy,power_w,temp_c\n";

const SIZES: [u32; 16] = [128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 5120, 6144, 8192, 10240, 12288, 16384];
const DTYPES: [&str; 3] = ["bf16", "fp16", "fp8"];

/// The rows `0..` of the sweep until the file holds `bytes`.
fn write_csv(path: &Path, bytes: usize) {
    let mut out = String::with_capacity(bytes + 256);
    out.push_str(HEADER);
    let mut i = 0usize;
    while out.len() < bytes {
        let (repeat, kk, nn, mm) = (i % 5, SIZES[(i / 5) % 16], SIZES[(i / 80) % 16], SIZES[(i / 1280) % 16]);
        let (dtype, kernel) = (DTYPES[(i / 20480) % 3], i / 61440);
        // An irrational step: values that look measured.
        let x = 1.0 + (i as f64 * 0.618_033_988_749_895).fract() * 0.05;
        let lat = f64::from(mm) * f64::from(nn) * f64::from(kk) * 1e-9 * x;
        writeln!(
            out,
            "bench-node-07,NVIDIA H100 80GB HBM3,550.54.15,3f9c2e1a,gemm_v{kernel}_tn,{dtype},{mm},{nn},{kk},{repeat},\
             {lat:.4},{:.3},{:.2},{:.4},{:.4},{:.4},{:.4},{:.4},{:.5},{:.3},{:.1},{:.1}",
            412.0 / x,
            2800.0 / x,
            lat * 0.99,
            lat * 1.07,
            lat * 1.21,
            lat * 0.97,
            lat * 1.4,
            lat * 0.031,
            0.5 + 0.4 / x,
            612.0 * x,
            61.0 + 9.0 * x,
        )
        .unwrap();
        i += 1;
    }
    std::fs::write(path, out).unwrap();
}

/// The two files.
pub(crate) struct Files {
    dir: PathBuf,
    /// (its size in MB, the file).
    sizes: [(usize, PathBuf); 2],
}

/// Writes the small file of `small` bytes and the large one of ten times
/// that.
pub(crate) fn generate(dir: &Path, small: usize) -> Files {
    std::fs::create_dir_all(dir).unwrap();
    let sizes = [small, small * SCALE].map(|bytes| {
        let path = dir.join(format!("wide-{bytes}.csv"));
        write_csv(&path, bytes);
        (bytes, path)
    });
    Files { dir: dir.to_path_buf(), sizes }
}

/// The best times of one size over the rounds.
#[derive(Default, Clone, Copy)]
struct Best {
    reckon: Option<Duration>,
    bare: Option<Duration>,
    rows: usize,
}

/// The best times of each size.
#[derive(Default)]
pub(crate) struct Times {
    best: [Best; 2],
}

fn min(best: &mut Option<Duration>, took: Duration) {
    *best = Some(best.map_or(took, |b| b.min(took)));
}

impl Files {
    /// One round: each file into an empty database of its own, then the
    /// bare import of what it left.
    pub(crate) fn round(&self, bin: &Path, times: &mut Times) {
        for ((_, path), best) in self.sizes.iter().zip(&mut times.best) {
            let db = self.dir.join("wide.sqlite");
            super::remove_db(&db);
            let args = ["--db", &db.display().to_string(), "ingest", "--quiet", &path.display().to_string()];
            min(&mut best.reckon, super::timed(bin, &self.dir, &args, &[0]));
            let measurements = super::measurement_rows(&db);
            let tables = super::all_rows(&db);
            super::remove_db(&db);
            best.rows = measurements.len();
            min(&mut best.bare, super::bare_round(&self.dir, &tables, &measurements));
        }
    }
}

impl Times {
    pub(crate) fn print(&self, files: &Files) {
        println!("  a generic CSV at two sizes, empty database (metric rows per second):");
        let rate = |d: Option<Duration>, rows: usize| rows as f64 / d.unwrap_or(Duration::MAX).as_secs_f64();
        for ((bytes, _), b) in files.sizes.iter().zip(&self.best) {
            let (r, bare) = (rate(b.reckon, b.rows), rate(b.bare, b.rows));
            let ratio = r / bare;
            let verdict = if ratio >= 1.0 { "ok" } else { "MISSES" };
            println!(
                "    {:>5.0} MB {:>9} values: reckon {:>7.3} s {r:>10.0}/s, bare {:>7.3} s {bare:>10.0}/s: \
                 {ratio:.2} of the bare rate (target >= 1.00) {verdict}",
                *bytes as f64 / 1e6,
                b.rows,
                b.reckon.unwrap_or_default().as_secs_f64(),
                b.bare.unwrap_or_default().as_secs_f64(),
            );
        }
        let [small, large] = self.best;
        let secs = |d: Option<Duration>| d.unwrap_or_default().as_secs_f64();
        let rows = large.rows as f64 / small.rows.max(1) as f64;
        let took = secs(large.reckon) / secs(small.reckon);
        let bare = secs(large.bare) / secs(small.bare);
        let verdict = if took <= rows * 1.2 { "ok" } else { "MISSES" };
        println!(
            "    {rows:.1}x the values took {took:.1}x the time (target <= {:.1}x, linear) {verdict}; \
             the bare import {bare:.1}x",
            rows * 1.2
        );
    }
}
