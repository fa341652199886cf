//! Bounded fuzzing in CI: proptest mutates the real logs of
//! tests/fixtures/corpus and the fixture documents (byte flips, cuts,
//! spliced lines, hostile fragments such as `<!--`, deep nesting, huge
//! `digits=`) and feeds them to format detection, every parser, and a
//! document review against the scenario's data. Whatever the input, the
//! result is a value or an error — never a panic (proptest reports one as a
//! failure with the shrunk input). The number of cases is capped (64 per
//! target; `PROPTEST_CASES` raises it for a longer run).

mod common;

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use reckon::ingest::Format;

/// Every file of the corpus, with its bytes.
fn corpus() -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_none_or(|x| x != "md") {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(&common::fixtures().join("corpus"), &mut out);
    walk(&common::scenario_logs(), &mut out);
    out.sort();
    out
}

/// Fragments that broke or could break a reader once.
const HOSTILE: &[&str] = &[
    "<!--",
    "-->",
    "<!-- /reckon:table -->",
    "<!-- reckon:sql query=\"ATTACH DATABASE '/etc/x' AS x\" -->",
    "|",
    "\0",
    "\r",
    "\u{e9}\u{1F600}",
    "NaN",
    "-Infinity",
    "1e999",
    "digits=65536",
    "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((",
    "not not not not not not not not not not not not not not not not not not",
    "{\"a\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    "============ Serving Benchmark Result ============\n",
    "Mean TTFT (ms):\n",
    ",,,,\n",
    "\"unterminated",
    "reckon:data",
];

#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Cut(usize),
    Delete(usize, usize),
    Insert(usize, usize),
    DuplicateLine(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        any::<usize>().prop_map(Mutation::Cut),
        (any::<usize>(), 0usize..200).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<usize>(), 0..HOSTILE.len()).prop_map(|(i, h)| Mutation::Insert(i, h)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let at = |i: usize, len: usize| if len == 0 { 0 } else { i % (len + 1) };
    match *m {
        Mutation::Flip(i, b) if !bytes.is_empty() => {
            let i = i % bytes.len();
            bytes[i] ^= b | 1;
        }
        Mutation::Flip(..) => {}
        Mutation::Cut(i) => bytes.truncate(at(i, bytes.len())),
        Mutation::Delete(i, n) => {
            let start = at(i, bytes.len());
            let end = (start + n).min(bytes.len());
            bytes.drain(start..end);
        }
        Mutation::Insert(i, h) => {
            let i = at(i, bytes.len());
            bytes.splice(i..i, HOSTILE[h].bytes());
        }
        Mutation::DuplicateLine(i) => {
            let i = at(i, bytes.len());
            let start = bytes[..i].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let end = bytes[i..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |p| i + p + 1);
            let line = bytes[start..end].to_vec();
            bytes.splice(end..end, line);
        }
    }
}

/// 64 cases from a fixed seed by default, so a CI run is reproducible and a
/// failure can be replayed; `PROPTEST_RNG_SEED=N` (another seed) and
/// `PROPTEST_CASES=N` explore further when fuzzing by hand.
fn cases() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(64);
    let defaults = ProptestConfig::default();
    let rng_seed = if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
        defaults.rng_seed
    } else {
        proptest::test_runner::RngSeed::Fixed(0x7265_636b_6f6e)
    };
    ProptestConfig { cases, rng_seed, failure_persistence: None, ..defaults }
}

proptest! {
    #![proptest_config(cases())]

    /// A mutated real log: detected (or refused) and parsed by the format
    /// detection picks and by every other parser, without a panic.
    #[test]
    fn mutated_logs_never_panic(pick in any::<usize>(), muts in prop::collection::vec(mutation(), 1..6)) {
        let files = corpus();
        let (path, original) = &files[pick % files.len()];
        let mut bytes = original.clone();
        for m in &muts {
            apply(&mut bytes, m);
        }
        let shown = Path::new("mutated.log");
        let detected = Format::detect(shown, &bytes[..bytes.len().min(256 * 1024)]);
        for format in Format::ALL {
            let mut input: &[u8] = &bytes;
            let mut runs = 0usize;
            let _ = format.parse(shown, &mut input, &mut |_| {
                runs += 1;
                Ok(())
            });
        }
        // Detection never claims a format for an empty or binary file.
        if bytes.iter().all(u8::is_ascii_whitespace) {
            prop_assert!(detected.is_err(), "{}", path.display());
        }
    }

    /// A mutated document reviewed against the scenario's data: a review or
    /// an error, never a panic; a review's new text parses again.
    #[test]
    fn mutated_documents_never_panic(pick in 0usize..3, muts in prop::collection::vec(mutation(), 1..6)) {
        let docs = [
            std::fs::read(common::fixtures().join("docs/throughput.md")).unwrap(),
            std::fs::read(common::fixtures().join("docs/code-examples.md")).unwrap(),
            std::fs::read(common::repo().join("notebooks/eagle-fast-verify.md")).unwrap(),
        ];
        let mut bytes = docs[pick].clone();
        for m in &muts {
            apply(&mut bytes, m);
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("doc.md");
        std::fs::write(&path, &bytes).unwrap();
        let store = store();
        let dataset = reckon::query::Dataset::load(store).unwrap();
        let cfg = reckon::config::Config::defaults(dir.path());
        let ctx = reckon::review::Context { dataset: &dataset, store, cfg: &cfg, doc_dir: dir.path(), cache: None };
        if let Ok(review) = reckon::review::document::review(&ctx, &path) {
            prop_assert!(reckon::doc::parse(&path, &review.updated).is_ok(), "the updated text parses");
        }
    }
}

/// The scenario's data, loaded once per test thread for all its cases.
fn store() -> &'static reckon::store::Store {
    thread_local! {
        static STORE: &'static reckon::store::Store = Box::leak(Box::new(common::scenario_store(&["log", "jsonl"])));
    }
    STORE.with(|s| *s)
}
