//! One name per concept across log formats. `SGLang`'s JSONL names the model
//! `server_info.model_path`, vLLM's JSON `model_id`, their console logs
//! `model`; the prompt lengths are `random_input_len` for a random dataset,
//! `sharegpt_output_len` for `ShareGPT`, `input_len` for `bench_one_batch`.
//! Every run of every format passes through [`add_canonical_params`], which
//! adds the shared name beside the log's own (kept, so documents written
//! against it still work), so `--where "model = …"` or `rows=input_len`
//! reads every sweep alike whatever wrote it.

use crate::run::{RawRun, Value};

/// Where each shared param comes from, in order of preference: the first
/// source a run has gives the value. The README's table is this one.
pub const SOURCES: &[(&str, &[&str])] = &[
    (
        "model",
        &[
            "model",
            "model_id",
            "server_info.model_path",
            "model_path",
            "server_info.prefill.0.model_path",
            "server_info.decode.0.model_path",
        ],
    ),
    ("dataset_name", &["dataset_name", "dataset"]),
    ("backend", &["backend"]),
    ("request_rate", &["request_rate"]),
    ("max_concurrency", &["max_concurrency"]),
];

/// Adds the shared params a run lacks (see [`SOURCES`]), and `input_len` /
/// `output_len` from the dataset's own length settings: `random_input_len`
/// when `dataset_name` is `random` (or `random-ids`, …), `sharegpt_output_len`
/// for `sharegpt`. A dataset's length settings are defaults the tools write
/// for every dataset, so they are read only for the dataset that uses them.
pub fn add_canonical_params(run: &mut RawRun) {
    for (name, sources) in SOURCES {
        if has(run, name) {
            continue;
        }
        if let Some(v) = sources.iter().filter_map(|s| get(run, s)).find(|v| is_set(v)) {
            let v = v.clone();
            set(run, name, v);
        }
    }
    let Some(Value::Text(dataset)) = get(run, "dataset_name") else { return };
    // `random-ids` and `random-image` take `random_*` settings.
    let prefix = dataset.split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
    for side in ["input_len", "output_len"] {
        if has(run, side) {
            continue;
        }
        let own = format!("{prefix}_{side}");
        if let Some(v) = get(run, &own).filter(|v| is_set(v) && v.as_f64().is_some()) {
            let v = v.clone();
            set(run, side, v);
        }
    }
}

fn get<'r>(run: &'r RawRun, name: &str) -> Option<&'r Value> {
    run.params.iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

/// Sets a param, replacing an unset one of the same name.
fn set(run: &mut RawRun, name: &str, value: Value) {
    match run.params.iter_mut().find(|(k, _)| k == name) {
        Some((_, v)) => *v = value,
        None => run.param(name, value),
    }
}

fn has(run: &RawRun, name: &str) -> bool {
    get(run, name).is_some_and(is_set)
}

/// Python writes an unset setting as `None`; JSON as null (which parsers
/// leave out).
fn is_set(v: &Value) -> bool {
    !matches!(v, Value::Text(t) if t.is_empty() || t == "None" || t == "null")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(params: &[(&str, Value)]) -> RawRun {
        let mut r = RawRun::new(1);
        for (k, v) in params {
            r.param(*k, v.clone());
        }
        add_canonical_params(&mut r);
        r
    }

    fn text(s: &str) -> Value {
        Value::Text(s.into())
    }

    #[test]
    fn shared_names_are_added_beside_the_logs_own() {
        let r = run(&[
            ("server_info.model_path", text("org/m")),
            ("dataset_name", text("random-ids")),
            ("random_input_len", Value::Num(1000.0)),
            ("random_output_len", Value::Num(200.0)),
            ("sharegpt_output_len", Value::Num(7.0)),
        ]);
        assert_eq!(get(&r, "model"), Some(&text("org/m")));
        assert_eq!(get(&r, "server_info.model_path"), Some(&text("org/m")));
        assert_eq!(get(&r, "input_len"), Some(&Value::Num(1000.0)));
        assert_eq!(get(&r, "output_len"), Some(&Value::Num(200.0)));
    }

    #[test]
    fn another_datasets_defaults_are_not_lengths() {
        let r = run(&[
            ("dataset_name", text("sharegpt")),
            ("random_input_len", Value::Num(1024.0)),
            ("sharegpt_output_len", text("None")),
        ]);
        assert_eq!(get(&r, "input_len"), None);
        assert_eq!(get(&r, "output_len"), None);
        let r = run(&[("dataset_name", text("sharegpt")), ("sharegpt_output_len", Value::Num(256.0))]);
        assert_eq!(get(&r, "output_len"), Some(&Value::Num(256.0)));
    }

    #[test]
    fn the_logs_own_value_wins_and_none_is_unset() {
        let r = run(&[("model", text("a")), ("model_id", text("b")), ("input_len", Value::Num(5.0))]);
        assert_eq!(get(&r, "model"), Some(&text("a")));
        assert_eq!(r.params.iter().filter(|(k, _)| k == "model").count(), 1);
        let r = run(&[("model", text("None")), ("model_id", text("b"))]);
        assert_eq!(r.params.iter().filter(|(k, _)| k == "model").count(), 1);
        assert_eq!(get(&r, "model"), Some(&text("b")));
    }
}
