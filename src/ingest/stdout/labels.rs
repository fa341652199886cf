//! The label table: which row of a result block becomes which metric or
//! param, under the names the JSON formats use.

use std::path::Path;

use super::lines::excerpt;
use super::Row;
use crate::run::{RawRun, Value};
use crate::syntax::read_padded;
use crate::{Error, Result};

/// Where a row's value goes.
pub(super) enum Target {
    Metric(String),
    Backend,
    RequestRate,
    MaxConcurrency,
}

pub(super) fn target(row: &Row, sglang: bool) -> Target {
    if let Some(target) = known_label(row, sglang) {
        return target;
    }
    Target::Metric(derived_name(row))
}

/// The fixed rows both tools print, by normalised label.
pub(super) fn known_label(row: &Row, sglang: bool) -> Option<Target> {
    let label = normalize(&row.label);
    let metric = |name: &str| Some(Target::Metric(name.to_string()));
    match label.as_str() {
        "backend" => Some(Target::Backend),
        "traffic request rate" | "request rate configured (rps)" => Some(Target::RequestRate),
        "max request concurrency" | "maximum request concurrency" => Some(Target::MaxConcurrency),
        "successful requests" => metric("completed"),
        "failed requests" => metric("failed"),
        "benchmark duration (s)" => metric("duration"),
        "total input tokens" => metric("total_input_tokens"),
        "total input text tokens" => metric("total_input_text_tokens"),
        "total input vision tokens" => metric("total_input_vision_tokens"),
        "total generated tokens" => metric("total_output_tokens"),
        "total generated tokens (retokenized)" => metric("total_output_tokens_retokenized"),
        "request throughput (req/s)" => metric("request_throughput"),
        "request goodput (req/s)" => metric("request_goodput"),
        "input token throughput (tok/s)" => metric("input_throughput"),
        "output token throughput (tok/s)" => metric("output_throughput"),
        "peak output token throughput (tok/s)" => metric("max_output_tokens_per_s"),
        "peak concurrent requests" => metric("max_concurrent_requests"),
        "total token throughput (tok/s)" if sglang => metric("total_throughput"),
        "total token throughput (tok/s)" => metric("total_token_throughput"),
        "total throughput (tok/s)" => metric("total_throughput"),
        "concurrency" => metric("concurrency"),
        "accept length" => metric("accept_length"),
        "rtfx (inverse real-time factor)" => metric("rtfx"),
        "acceptance rate (%)" => metric("spec_decode_acceptance_rate"),
        "acceptance length" => metric("spec_decode_acceptance_length"),
        "drafts" => metric("spec_decode_num_drafts"),
        "draft tokens" => metric("spec_decode_draft_tokens"),
        "accepted tokens" => metric("spec_decode_accepted_tokens"),
        _ => {
            if let Some(pos) = label.strip_prefix("position ") {
                if !pos.is_empty() && pos.bytes().all(|b| b.is_ascii_digit()) {
                    return metric(&format!("spec_decode_acceptance_position_{pos}"));
                }
            }
            if section_known(row.section.as_deref()) {
                stat_name(&row.label).map(Target::Metric)
            } else {
                None
            }
        }
    }
}

/// The unit a label ends with in parentheses (`Benchmark duration (s)` →
/// `s`), when it is one reckon knows.
pub(super) fn label_unit(label: &str) -> Option<&str> {
    let label = label.trim().trim_end_matches(':').trim_end();
    let unit = label.strip_suffix(')')?.rsplit_once('(')?.1.trim();
    crate::metric::unit_scale(unit).map(|_| unit)
}

/// Sections whose rows are named by their label alone (`Mean TTFT (ms)` →
/// `mean_ttft_ms`), as the JSON keys are.
pub(super) fn section_known(section: Option<&str>) -> bool {
    let Some(section) = section else { return true };
    let key: String = section.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
    matches!(
        key.as_str(),
        "endtoendlatency"
            | "timetofirsttoken"
            | "timeperoutputtokenexcl1sttoken"
            | "intertokenlatency"
            | "speculativedecoding"
    )
}

/// A name for a row no table knows: from its label, prefixed with its
/// section when the section is not a standard one (so `Mean E2EL (ms)`
/// under "Queue-inclusive End-to-end Latency" does not collide with the
/// plain one).
pub(super) fn derived_name(row: &Row) -> String {
    let base = stat_name(&row.label).unwrap_or_else(|| snake(&row.label));
    match row.section.as_deref() {
        Some(section) if !section_known(Some(section)) => format!("{}_{base}", snake(section)),
        _ => base,
    }
}

/// `Mean TTFT (ms)` → `mean_ttft_ms`, `P99.9 E2EL (ms)` → `p99.9_e2el_ms`
/// (vLLM's JSON spells fractional percentiles that way).
pub(super) fn stat_name(label: &str) -> Option<String> {
    let label = label.trim().trim_end_matches(':').trim();
    let (stat, rest) = label.split_once(' ')?;
    let stat = stat.to_ascii_lowercase();
    let is_percentile = stat.len() > 1
        && stat.starts_with('p')
        && stat[1..].bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && stat[1..].bytes().next().is_some_and(|b| b.is_ascii_digit());
    if !(is_percentile || matches!(stat.as_str(), "mean" | "median" | "std" | "max" | "min")) {
        return None;
    }
    let rest = rest.trim();
    let open = rest.rfind('(')?;
    let unit = rest[open..].strip_prefix('(')?.strip_suffix(')')?;
    let what = snake(&rest[..open]);
    let unit = snake(unit);
    if what.is_empty() || unit.is_empty() {
        return None;
    }
    Some(format!("{stat}_{what}_{unit}"))
}

/// A `snake_case` name from a human label: `Total nonempty serving response
/// chunks:` → `total_nonempty_serving_response_chunks`, `(tok/s)` →
/// `tok_per_s`, `(%)` → `pct`.
pub(super) fn snake(label: &str) -> String {
    let mut out = String::new();
    let mut gap = false;
    for c in label.trim().trim_end_matches(':').chars() {
        let piece: Option<&str> = match c {
            '%' => Some("pct"),
            '/' => Some("per"),
            _ => None,
        };
        if let Some(word) = piece {
            if !out.is_empty() {
                out.push('_');
            }
            out.push_str(word);
            gap = true;
        } else if c.is_ascii_alphanumeric() {
            if gap && !out.is_empty() {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            gap = false;
        } else {
            gap = true;
        }
    }
    out
}

/// Keeps metric names unique within a run: a repeated name gets its
/// section prefixed, then a counter.
pub(super) fn unique_name(run: &RawRun, name: String, row: &Row) -> String {
    let taken = |n: &str| run.metrics.iter().any(|m| m.name == n);
    if !taken(&name) {
        return name;
    }
    if let Some(section) = row.section.as_deref() {
        let prefixed = format!("{}_{name}", snake(section));
        if !taken(&prefixed) {
            return prefixed;
        }
    }
    // A run holds finitely many metrics, so some number is free.
    let mut i = 2;
    loop {
        let numbered = format!("{name}_{i}");
        if !taken(&numbered) {
            return numbered;
        }
        i += 1;
    }
}

pub(super) fn required_number(path: &Path, row: &Row) -> Result<f64> {
    read_padded(&row.value).ok_or_else(|| not_a_number(path, row))
}

pub(super) fn not_a_number(path: &Path, row: &Row) -> Error {
    Error::malformed(
        path,
        row.line,
        format!(
            "`{}` has value `{}`, expected a number; fix the row or remove the block",
            row.label.trim(),
            excerpt(row.value.trim())
        ),
    )
}

/// A request rate: a number (`inf` → infinity), or text such as `trace`.
pub(super) fn rate_value(text: &str) -> Option<Value> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("none") {
        return None;
    }
    Some(match read_padded(t) {
        Some(n) => Value::Num(n),
        None => Value::Text(t.to_string()),
    })
}

/// Sets `key` to `value` in place (keeping first-seen order), or removes it
/// when `value` is None.
pub(super) fn upsert(params: &mut Vec<(String, Value)>, key: &str, value: Option<Value>) {
    let at = params.iter().position(|(k, _)| k == key);
    match (at, value) {
        (Some(i), Some(v)) => params[i].1 = v,
        (None, Some(v)) => params.push((key.to_string(), v)),
        (Some(i), None) => {
            params.remove(i);
        }
        (None, None) => {}
    }
}

/// Lowercase, single-spaced, without the trailing colon.
pub(super) fn normalize(label: &str) -> String {
    label.trim().trim_end_matches(':').split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase()
}
