//! Each reader's rate per value beside the `SGLang` reader's, in one run.
//!
//! For Google Benchmark JSON, nvbench JSON and pytest-benchmark JSON, the
//! corpus file (`tests/fixtures/corpus`) is grown into one file of about
//! `RECKON_BENCH_FORMAT_VALUES` values (100,000 by default): its results
//! written again and again, each copy under names of its own (a family
//! `BM_x` becomes `BM_x_c7`, a benchmark `test_x[0]` `test_x_c7[0]`), the
//! file's other members kept once, as the tool writes them. An `SGLang`
//! `bench_serving` file of as many values is the yardstick. Each file is
//! ingested by a whole `reckon` process into an empty database; the rate is
//! the measurements the database holds after it, per second. The ratio of
//! each reader's rate to the `SGLang` reader's is printed with the target
//! (at least 1/1.5 of it).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value as Json};

/// The corpus file each reader is timed on, and how one copy of a result
/// is renamed.
struct Format {
    name: &'static str,
    fixture: &'static str,
    rename: fn(&mut Map<String, Json>, usize),
}

const FORMATS: [Format; 3] = [
    Format { name: "gbench-json", fixture: "gbench/kalman-100-repetitions-aggregates.json", rename: rename_gbench },
    Format { name: "nvbench-json", fixture: "nvbench/nvidia-axes-example-test-ref.json", rename: rename_nvbench },
    Format {
        name: "pytest-benchmark",
        fixture: "pytest-benchmark/v2.5.0-storage-0030-params-null-no-ops.json",
        rename: rename_pytest,
    },
];

/// The files of one bench, written once and ingested each round.
pub(crate) struct Files {
    dir: PathBuf,
    sglang: PathBuf,
    formats: Vec<(&'static str, PathBuf)>,
}

/// Google Benchmark's family is the name before the first `/`.
fn rename_gbench(row: &mut Map<String, Json>, copy: usize) {
    for key in ["name", "run_name"] {
        if let Some(Json::String(s)) = row.get_mut(key) {
            let (family, rest) = s.split_once('/').map_or((s.as_str(), ""), |(f, r)| (f, r));
            *s = if rest.is_empty() { format!("{family}_c{copy}") } else { format!("{family}_c{copy}/{rest}") };
        }
    }
}

fn rename_nvbench(bench: &mut Map<String, Json>, copy: usize) {
    if let Some(Json::String(s)) = bench.get_mut("name") {
        write!(s, "_c{copy}").unwrap();
    }
}

/// pytest's `test_x[params]`: the copy goes before the brackets, in `name`
/// and `fullname` alike.
fn rename_pytest(bench: &mut Map<String, Json>, copy: usize) {
    for key in ["name", "fullname"] {
        if let Some(Json::String(s)) = bench.get_mut(key) {
            let at = s.find('[').unwrap_or(s.len());
            s.insert_str(at, &format!("_c{copy}"));
        }
    }
}

/// The numbers under a JSON value (text numbers too: nvbench writes its
/// values as strings), an upper bound of the values a copy holds.
fn numbers(v: &Json) -> usize {
    match v {
        Json::Number(_) => 1,
        Json::String(s) => usize::from(s.parse::<f64>().is_ok()),
        Json::Array(a) => a.iter().map(numbers).sum(),
        Json::Object(o) => o.values().map(numbers).sum(),
        Json::Bool(_) | Json::Null => 0,
    }
}

/// The corpus file grown to about `values` values: the members other than
/// `benchmarks` first (detection reads the head), then the copies.
fn grow(format: &Format, values: usize) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corpus").join(format.fixture);
    let text = std::fs::read_to_string(&path).unwrap();
    let Json::Object(mut doc) = serde_json::from_str(&text).unwrap() else {
        panic!("{}: not an object", path.display())
    };
    let Some(Json::Array(results)) = doc.remove("benchmarks") else { panic!("{}: no benchmarks", path.display()) };
    let per_copy = results.iter().map(numbers).sum::<usize>().max(1);
    let copies = values.div_ceil(per_copy).max(1);
    let mut out = String::from("{\n");
    for (k, v) in &doc {
        writeln!(out, "  {}: {},", Json::String(k.clone()), serde_json::to_string_pretty(v).unwrap()).unwrap();
    }
    out.push_str("  \"benchmarks\": [\n");
    for copy in 0..copies {
        for (i, result) in results.iter().enumerate() {
            let Json::Object(mut result) = result.clone() else {
                panic!("{}: a result is not an object", format.fixture)
            };
            (format.rename)(&mut result, copy);
            if copy + i > 0 {
                out.push_str(",\n");
            }
            out.push_str(&serde_json::to_string_pretty(&Json::Object(result)).unwrap());
        }
    }
    out.push_str("\n  ]\n}\n");
    out
}

/// Writes the files: an `SGLang` file of about `values` values (27 per
/// record) by `record`, and each format's grown corpus file.
pub(crate) fn generate(dir: &Path, values: usize, record: impl Fn(&mut Vec<u8>, usize, u32)) -> Files {
    std::fs::create_dir_all(dir).unwrap();
    let sglang = dir.join("sglang.jsonl");
    let mut out = Vec::new();
    for n in 0..values.div_ceil(27) {
        record(&mut out, 1_000_000 + n, [1, 8, 64][n % 3]);
    }
    std::fs::write(&sglang, out).unwrap();
    let formats = FORMATS
        .iter()
        .map(|f| {
            let path = dir.join(format!("{}.json", f.name));
            std::fs::write(&path, grow(f, values)).unwrap();
            (f.name, path)
        })
        .collect();
    Files { dir: dir.to_path_buf(), sglang, formats }
}

/// The best time of each file over the rounds, and the measurements it left.
#[derive(Default)]
pub(crate) struct Times {
    best: Vec<(String, Duration, usize)>,
}

impl Files {
    /// One round: each file into an empty database of its own.
    pub(crate) fn round(&self, bin: &Path, times: &mut Times) {
        let all = std::iter::once(("sglang", &self.sglang)).chain(self.formats.iter().map(|(n, p)| (*n, p)));
        for (i, (name, path)) in all.enumerate() {
            let db = self.dir.join(format!("{name}.sqlite"));
            super::remove_db(&db);
            let args = ["--db", &db.display().to_string(), "ingest", "--quiet", &path.display().to_string()];
            let took = super::timed(bin, &self.dir, &args, &[0]);
            let rows = super::measurement_rows(&db).len();
            match times.best.get_mut(i) {
                Some(best) => best.1 = best.1.min(took),
                None => times.best.push((name.to_string(), took, rows)),
            }
        }
    }
}

impl Times {
    /// Each reader's figure, and its ratio to the `SGLang` reader's rate.
    pub(crate) fn print(&self) {
        let rate = |d: Duration, rows: usize| rows as f64 / d.as_secs_f64();
        let Some((_, sg_time, sg_rows)) = self.best.first() else { return };
        let sglang = rate(*sg_time, *sg_rows);
        println!("  each reader on one file of its format, empty database (values per second):");
        for (name, took, rows) in &self.best {
            let r = rate(*took, *rows);
            let ratio = r / sglang;
            let verdict = if ratio >= 1.0 / 1.5 { "ok" } else { "MISSES" };
            let against = if name == "sglang" {
                "(the yardstick)".to_string()
            } else {
                format!("{ratio:.2} of sglang's rate (target >= 0.67, within 1.5x) {verdict}")
            };
            println!("    {name:<18} {rows:>8} values {:>7.3} s {r:>10.0} values/s  {against}", took.as_secs_f64());
        }
    }
}
