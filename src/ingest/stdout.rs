//! The "Serving Benchmark Result" summary block that `SGLang` and vLLM
//! `bench_serving` print to stdout, read out of noisy console and job logs.
//!
//! Each block becomes one run. Row labels map to the names the JSON formats
//! use (`output_throughput`, `mean_ttft_ms`, …) so a sweep captured from
//! stdout compares with one saved as JSON. The nearest `Namespace(...)`
//! argument dump before a block, and vLLM's pre-block `Traffic request rate:`
//! / `Maximum request concurrency:` lines, contribute params; the block's own
//! rows win over both. See FORMATS.md sections 1b and 2b.
#![allow(
    clippy::assigning_clones,
    clippy::format_collect,
    clippy::maybe_infinite_iter,
    clippy::needless_pass_by_value,
    clippy::too_many_lines
)] // floor-plan debt (issue 7): fix these and delete this line

use std::io::BufRead;
use std::path::Path;

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// Longest row value kept, in characters.
const MAX_VALUE: usize = 1024;

/// The title both tools centre in the block's header line.
pub(crate) const TITLE: &str = "Serving Benchmark Result";

/// Longest line segment kept in memory. Progress bars rewritten with `\r`
/// and no `\n` can make a physical line arbitrarily long; nothing reckon
/// reads from this format needs more than this.
const MAX_SEGMENT: usize = 1 << 20;

/// A real block has a few dozen rows. Past this many the closing rule is
/// surely missing, and stopping keeps memory bounded.
const MAX_ROWS: usize = 2000;

/// Namespace keys that describe what was measured (identity and
/// independent variables). Host, port, output paths and UI switches are
/// left out: they differ between otherwise identical runs.
const NAMESPACE_PARAMS: &[&str] = &[
    "backend",
    "endpoint",
    "model",
    "served_model_name",
    "tokenizer",
    "dataset_name",
    "dataset_path",
    "num_prompts",
    "random_input_len",
    "random_output_len",
    "random_range_ratio",
    "random_prefix_len",
    "sharegpt_output_len",
    "sharegpt_context_len",
    "input_len",
    "output_len",
    "request_rate",
    "burstiness",
    "max_concurrency",
    "seed",
    "tag",
    "label",
    "ignore_eos",
    "disable_ignore_eos",
    "temperature",
    "top_p",
    "top_k",
    "lora_name",
];

/// The "Serving Benchmark Result" block both tools print, in console or
/// job logs.
pub struct ServingStdout;

impl LogFormat for ServingStdout {
    const NAME: &'static str = "serving-stdout";

    /// A result block in the head, or its title anywhere later in the file.
    fn detect(s: &Sniff<'_>) -> bool {
        s.result_block_later || sniff(s.head)
    }

    fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
        parse(path, input, emit)
    }
}

/// True when the head of a file holds a "Serving Benchmark Result" block.
pub fn sniff(head: &[u8]) -> bool {
    head.split(|&b| b == b'\n' || b == b'\r').any(|segment| {
        let text = String::from_utf8_lossy(segment);
        header_width(strip_prefix(&text).1).is_some()
    })
}

/// Streams the file; one `RawRun` per result block.
pub fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
    let mut lines = Segments::new(input);
    let mut outcome = Outcome::default();
    let mut context = Context::default();
    let mut block: Option<Block> = None;
    let mut blocks_seen = 0usize;

    while let Some((line_no, raw)) = lines.next_segment().map_err(|e| Error::io(path, e))? {
        let (stamp, line) = strip_prefix(&raw);
        if let Some(time) = stamp.and_then(parse_timestamp) {
            context.time = Some(time);
        }
        let line = line.trim();

        let Some(open) = block.as_mut() else {
            if let Some(width) = header_width(line) {
                block = Some(Block::new(line_no, width));
                blocks_seen += 1;
            } else {
                context.observe(line);
            }
            continue;
        };

        if header_width(line).is_some() {
            return Err(Error::malformed(
                path,
                open.header_line,
                format!(
                    "\"{TITLE}\" block not closed: another block starts at line {line_no} before \
                     this one's closing line of '='; the log is cut or interleaved — repair or \
                     remove the unfinished block"
                ),
            ));
        }
        if is_closing_rule(line) {
            let Some(done) = block.take() else { continue };
            finish_block(path, done, &mut context, &mut outcome, emit)?;
            continue;
        }
        if let Some(title) = section_title(line) {
            open.section = if title.is_empty() { None } else { Some(title.to_string()) };
            continue;
        }
        if line.is_empty() {
            continue;
        }
        match split_row(line) {
            Some((label, "")) if stat_name(label).is_some() => {
                // `Mean TTFT (ms):` with nothing after it: the metric would
                // silently be missing from the run.
                return Err(Error::malformed(
                    path,
                    line_no,
                    format!(
                        "`{}:` has no value; the log was cut or edited — repair the line or remove it",
                        label.trim().trim_end_matches(':')
                    ),
                ));
            }
            Some((_, "")) => {
                // A sub-heading such as "Per-position acceptance (%):"; the
                // rows under it carry their own labels.
            }
            Some((label, value)) => {
                if open.rows.len() >= MAX_ROWS {
                    return Err(Error::malformed(
                        path,
                        open.header_line,
                        format!(
                            "\"{TITLE}\" block not closed: more than {MAX_ROWS} rows without the \
                             closing line of '='"
                        ),
                    ));
                }
                open.rows.push(Row {
                    line: line_no,
                    section: open.section.clone(),
                    label: label.to_string(),
                    // A value is a number or a short word; keeping a bounded
                    // prefix of anything longer bounds the block's memory.
                    value: value.chars().take(MAX_VALUE).collect(),
                });
            }
            None => {
                return Err(Error::malformed(
                    path,
                    line_no,
                    format!(
                        "expected a result row (`Label: value`) or the closing line of '=' of the \
                         \"{TITLE}\" block that starts at line {}, found `{}`; the block is cut or \
                         other output was printed into it — repair or remove it",
                        open.header_line,
                        excerpt(line)
                    ),
                ));
            }
        }
    }

    if let Some(open) = block {
        return Err(Error::malformed(
            path,
            open.header_line,
            format!(
                "\"{TITLE}\" block not closed: the file ends at line {} before the closing line \
                 of '='; the log looks truncated — re-copy it or remove the unfinished block",
                lines.line
            ),
        ));
    }
    if blocks_seen == 0 {
        return Err(Error::UnknownFormat {
            path: path.to_path_buf(),
            msg: format!(
                "no \"{TITLE}\" block found: this is not a bench_serving console log; pass \
                 --format to read it as another format"
            ),
        });
    }
    Ok(outcome)
}

/// Params gathered from the lines before a block; consumed by that block.
#[derive(Default)]
struct Context {
    namespace: Vec<(String, Value)>,
    /// vLLM's `Traffic request rate:` / `Maximum request concurrency:` /
    /// `Burstiness factor:` lines printed just before the run.
    preamble: Vec<(String, Value)>,
    /// The latest `[timestamp]` seen. Unlike the params it carries over
    /// to later blocks: it is still the newest time the log states.
    time: Option<String>,
}

impl Context {
    fn observe(&mut self, line: &str) {
        if let Some(args) = find_namespace(line) {
            self.namespace = namespace_params(&parse_namespace(args));
            return;
        }
        let Some((label, value)) = split_row(line) else {
            return;
        };
        match normalize(label).as_str() {
            "traffic request rate" => upsert(&mut self.preamble, "request_rate", rate_value(value)),
            "maximum request concurrency" | "max request concurrency" => match number(value) {
                Some(n) => upsert(&mut self.preamble, "max_concurrency", Some(Value::Num(n))),
                None => upsert(&mut self.preamble, "max_concurrency", None),
            },
            "burstiness factor" => {
                // "1.0 (Poisson process)": the number is the first word.
                let first = value.split_whitespace().next().unwrap_or("");
                upsert(&mut self.preamble, "burstiness", number(first).map(Value::Num));
            }
            _ => {}
        }
    }
}

struct Block {
    header_line: u64,
    width: usize,
    section: Option<String>,
    rows: Vec<Row>,
}

impl Block {
    fn new(header_line: u64, width: usize) -> Self {
        Block { header_line, width, section: None, rows: Vec::new() }
    }

    /// `SGLang`'s diffusion benchmark prints a block with the same title but
    /// image-serving rows (seconds, peak memory, `1/1` request counts).
    fn is_diffusion(&self) -> bool {
        let content = self.rows.iter().any(|r| {
            let label = normalize(&r.label);
            (label == "backend" && (r.value.ends_with("-image") || r.value.ends_with("-video")))
                || (label == "successful requests" && r.value.contains('/'))
                || label.starts_with("peak memory")
                || label.starts_with("latency mean")
        });
        let token_rows = self.rows.iter().any(|r| normalize(&r.label).contains("token"));
        content || (self.width >= 58 && !token_rows)
    }
}

struct Row {
    line: u64,
    section: Option<String>,
    label: String,
    value: String,
}

/// Where a row's value goes.
enum Target {
    Metric(String),
    Backend,
    RequestRate,
    MaxConcurrency,
}

fn finish_block(path: &Path, block: Block, context: &mut Context, outcome: &mut Outcome, emit: Emit) -> Result<()> {
    let namespace = std::mem::take(&mut context.namespace);
    let preamble = std::mem::take(&mut context.preamble);
    if block.is_diffusion() {
        outcome.skipped.push(format!(
            "line {}: SGLang diffusion (image) benchmark block skipped: reckon reads LLM serving \
             results only",
            block.header_line
        ));
        return Ok(());
    }

    let mut run = RawRun::new(block.header_line);
    run.time = context.time.clone();
    let mut params: Vec<(String, Value)> = namespace;
    for (key, value) in preamble {
        upsert(&mut params, &key, Some(value));
    }

    // Only SGLang prints a `Backend:` row; the tools name the total
    // throughput differently in their JSON.
    let sglang = block.rows.iter().any(|r| normalize(&r.label) == "backend");
    for row in &block.rows {
        match target(row, sglang) {
            Target::Backend => upsert(&mut params, "backend", Some(Value::Text(row.value.clone()))),
            Target::RequestRate => upsert(&mut params, "request_rate", rate_value(&row.value)),
            Target::MaxConcurrency => {
                let value = row.value.trim();
                if matches!(value.to_ascii_lowercase().as_str(), "not set" | "none") {
                    upsert(&mut params, "max_concurrency", None);
                } else {
                    let n = required_number(path, row)?;
                    upsert(&mut params, "max_concurrency", Some(Value::Num(n)));
                }
            }
            Target::Metric(name) => {
                if let Some(n) = number(&row.value) {
                    let name = unique_name(&run, name, row);
                    run.metric(name, n);
                } else if known_label(row, sglang).is_some() {
                    return Err(not_a_number(path, row));
                } else {
                    // An unknown row with a text value: kept as a param
                    // rather than dropped.
                    upsert(&mut params, &name, Some(Value::Text(row.value.clone())));
                }
            }
        }
    }
    run.params = params;
    emit(run)
}

fn target(row: &Row, sglang: bool) -> Target {
    if let Some(target) = known_label(row, sglang) {
        return target;
    }
    Target::Metric(derived_name(row))
}

/// The fixed rows both tools print, by normalised label.
fn known_label(row: &Row, sglang: bool) -> Option<Target> {
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

/// Sections whose rows are named by their label alone (`Mean TTFT (ms)` →
/// `mean_ttft_ms`), as the JSON keys are.
fn section_known(section: Option<&str>) -> bool {
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
fn derived_name(row: &Row) -> String {
    let base = stat_name(&row.label).unwrap_or_else(|| snake(&row.label));
    match row.section.as_deref() {
        Some(section) if !section_known(Some(section)) => format!("{}_{base}", snake(section)),
        _ => base,
    }
}

/// `Mean TTFT (ms)` → `mean_ttft_ms`, `P99.9 E2EL (ms)` → `p99.9_e2el_ms`
/// (vLLM's JSON spells fractional percentiles that way).
fn stat_name(label: &str) -> Option<String> {
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
fn snake(label: &str) -> String {
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
fn unique_name(run: &RawRun, name: String, row: &Row) -> String {
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
    (2..).map(|i| format!("{name}_{i}")).find(|n| !taken(n)).unwrap_or(name)
}

fn required_number(path: &Path, row: &Row) -> Result<f64> {
    number(&row.value).ok_or_else(|| not_a_number(path, row))
}

fn not_a_number(path: &Path, row: &Row) -> Error {
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

/// Reads a printed number: `12.50`, `-0.00`, `100`, `inf`, `nan`.
fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    match t.to_ascii_lowercase().as_str() {
        "inf" | "+inf" | "infinity" | "+infinity" => return Some(f64::INFINITY),
        "-inf" | "-infinity" => return Some(f64::NEG_INFINITY),
        "nan" => return Some(f64::NAN),
        _ => {}
    }
    let first = t.bytes().next()?;
    if !(first.is_ascii_digit() || first == b'-' || first == b'+' || first == b'.') {
        return None;
    }
    t.parse::<f64>().ok()
}

/// A request rate: a number (`inf` → infinity), or text such as `trace`.
fn rate_value(text: &str) -> Option<Value> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("none") {
        return None;
    }
    Some(match number(t) {
        Some(n) => Value::Num(n),
        None => Value::Text(t.to_string()),
    })
}

/// Sets `key` to `value` in place (keeping first-seen order), or removes it
/// when `value` is None.
fn upsert(params: &mut Vec<(String, Value)>, key: &str, value: Option<Value>) {
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
fn normalize(label: &str) -> String {
    label.trim().trim_end_matches(':').split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase()
}

/// The header's width if `line` is a block header (`===== Serving
/// Benchmark Result =====`, 50 wide for LLM serving, 60 for diffusion).
fn header_width(line: &str) -> Option<usize> {
    let line = line.trim();
    if !(line.starts_with('=') && line.ends_with('=')) {
        return None;
    }
    (line.trim_matches('=').trim() == TITLE).then(|| line.chars().count())
}

/// The block's closing rule: a line of `=` only.
fn is_closing_rule(line: &str) -> bool {
    line.len() >= 20 && line.bytes().all(|b| b == b'=')
}

/// The title of a section rule (`-----Time to First Token-----`,
/// `------------------ End-To-End Latency ------------------`), empty for
/// a plain dashed rule.
fn section_title(line: &str) -> Option<&str> {
    if line.len() >= 10 && line.starts_with("---") && line.ends_with("---") {
        Some(line.trim_matches('-').trim())
    } else {
        None
    }
}

/// Splits `Label:   value` at the first colon followed by whitespace (or
/// ending the line). The label must read like one: starting with a letter,
/// not too long.
fn split_row(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    let colon = (0..bytes.len()).find(|&i| bytes[i] == b':' && bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace))?;
    let label = line[..colon].trim();
    let starts_with_letter = label.chars().next().is_some_and(char::is_alphabetic);
    if !starts_with_letter || label.len() > 80 {
        return None;
    }
    Some((label, line[colon + 1..].trim()))
}

/// Splits a leading `[...]` prefix (timestamps, `[rank0]:`) off a line.
/// Returns the contents of the first bracket, if any, and the rest.
fn strip_prefix(line: &str) -> (Option<&str>, &str) {
    let mut rest = line.trim_start();
    let mut first = None;
    for _ in 0..3 {
        let Some(inner) = rest.strip_prefix('[') else {
            break;
        };
        let Some(close) = inner.find(']') else { break };
        if close > 64 || inner[..close].contains('[') {
            break;
        }
        let after = inner[close + 1..].strip_prefix(':').unwrap_or(&inner[close + 1..]);
        if after.trim().is_empty() {
            break;
        }
        first = first.or(Some(&inner[..close]));
        rest = after.trim_start();
    }
    (first, rest)
}

/// Reads a bracketed log timestamp as RFC 3339 UTC. Naive times (no
/// offset) are taken as UTC: the logs do not say, and the same bytes must
/// give the same time on every machine.
fn parse_timestamp(text: &str) -> Option<String> {
    let text = text.trim();
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(text) {
        return Some(t.with_timezone(&chrono::Utc).format("%Y-%m-%dT%H:%M:%SZ").to_string());
    }
    // SGLang server lines add a rank after the time: `[2026-11-20 14:02:11 TP0]`.
    let head = text.get(..19)?;
    ["%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S"].iter().find_map(|fmt| {
        chrono::NaiveDateTime::parse_from_str(head, fmt).ok().map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
    })
}

fn excerpt(text: &str) -> String {
    const MAX: usize = 80;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

// ---------------------------------------------------------------------------
// Namespace(...) argument dumps

/// A Python repr value, as far as reckon needs to read it.
#[derive(Debug, Clone, PartialEq)]
enum PyVal {
    Str(String),
    Num(f64),
    Bool(bool),
    None,
    List(Vec<PyVal>),
    /// Something readable only as "skip it": dicts, `<function ...>`,
    /// `PosixPath(...)`.
    Other,
}

/// The argument text after `Namespace(` on a line, when the line holds an
/// argparse dump (`Namespace(...)`, `benchmark_args=Namespace(...)`).
fn find_namespace(line: &str) -> Option<&str> {
    let mut from = 0;
    while let Some(at) = line[from..].find("Namespace(") {
        let start = from + at;
        let before = line[..start].chars().next_back();
        if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) {
            return Some(&line[start + "Namespace(".len()..]);
        }
        from = start + 1;
    }
    None
}

/// Parses `key=value, key=value, ...)` into pairs, skipping values that
/// cannot be read and stopping at the closing parenthesis or the end of
/// the text (a cut line still yields the keys before the cut).
fn parse_namespace(args: &str) -> Vec<(String, PyVal)> {
    let mut p = Parser { s: args.as_bytes(), text: args, i: 0 };
    let mut out = Vec::new();
    loop {
        p.skip_ws();
        match p.peek() {
            None | Some(b')') => break,
            Some(b',') => {
                p.i += 1;
                continue;
            }
            _ => {}
        }
        let key = p.ident();
        p.skip_ws();
        if key.is_empty() || p.peek() != Some(b'=') {
            // Not `key=`: resynchronise at the next top-level comma. A
            // stray closing bracket stops `skip_value` without moving, so
            // step over it.
            let at = p.i;
            p.skip_value();
            if p.i == at {
                p.i += 1;
            }
            continue;
        }
        p.i += 1;
        p.skip_ws();
        let value = p.value();
        out.push((key.to_string(), value));
    }
    out
}

/// The params a Namespace contributes: the keys in [`NAMESPACE_PARAMS`],
/// plus vLLM `--metadata KEY=VALUE` entries, which vLLM's result JSON also
/// turns into top-level string keys.
fn namespace_params(entries: &[(String, PyVal)]) -> Vec<(String, Value)> {
    let mut params = Vec::new();
    for (key, value) in entries {
        if !NAMESPACE_PARAMS.contains(&key.as_str()) {
            continue;
        }
        let v = match value {
            PyVal::Str(s) if key == "request_rate" => rate_value(s),
            // `dataset_path=''` says nothing.
            PyVal::Str(s) if s.is_empty() => None,
            PyVal::Str(s) => Some(Value::Text(s.clone())),
            PyVal::Num(n) => Some(Value::Num(*n)),
            PyVal::Bool(b) => Some(Value::Text(b.to_string())),
            PyVal::None | PyVal::List(_) | PyVal::Other => None,
        };
        upsert(&mut params, key, v);
    }
    for (key, value) in entries {
        if key != "metadata" {
            continue;
        }
        if let PyVal::List(items) = value {
            for item in items {
                if let PyVal::Str(s) = item {
                    if let Some((k, v)) = s.split_once('=') {
                        let k = k.trim();
                        if !k.is_empty() {
                            upsert(&mut params, k, Some(Value::Text(v.trim().to_string())));
                        }
                    }
                }
            }
        }
    }
    params
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn ident(&mut self) -> &'a str {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
            self.i += 1;
        }
        &self.text[start..self.i]
    }

    /// One value; leaves the cursor on the following `,` / `)` / `]`.
    fn value(&mut self) -> PyVal {
        let start = self.i;
        let value = match self.peek() {
            Some(q @ (b'\'' | b'"')) => self.string(q, false),
            Some(b'[') => self.list(b']'),
            Some(b'(') => match self.list(b')') {
                // A tuple reads like a list; nothing reckon keeps is one.
                PyVal::List(_) => PyVal::Other,
                other => other,
            },
            Some(b'{' | b'<') => {
                self.skip_value();
                PyVal::Other
            }
            Some(_) => self.word(),
            None => PyVal::Other,
        };
        self.skip_ws();
        if !matches!(self.peek(), None | Some(b',' | b')' | b']' | b'}')) {
            // Trailing text after what looked like a value (`Foo(...)`,
            // `b'..'` handled below): the value was not what it seemed.
            self.i = start;
            self.skip_value();
            return PyVal::Other;
        }
        value
    }

    /// A bare word: a number, `inf`, `None`, `True`, or a string prefix
    /// (`b'..'`, `r'..'`) followed by its string.
    fn word(&mut self) -> PyVal {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_alphanumeric() || b"+-._".contains(&b)) {
            self.i += 1;
        }
        let word = &self.text[start..self.i];
        if let Some(q @ (b'\'' | b'"')) = self.peek() {
            let lower = word.to_ascii_lowercase();
            if matches!(lower.as_str(), "b" | "r" | "u" | "rb" | "br" | "f") {
                return self.string(q, lower.contains('r'));
            }
        }
        match word {
            "None" => PyVal::None,
            "True" => PyVal::Bool(true),
            "False" => PyVal::Bool(false),
            _ => number(word).map_or(PyVal::Other, PyVal::Num),
        }
    }

    /// A quoted string with Python escapes; the cursor starts on the quote.
    fn string(&mut self, quote: u8, raw: bool) -> PyVal {
        self.i += 1;
        let mut out = String::new();
        let mut run_start = self.i;
        while let Some(b) = self.peek() {
            if b == quote {
                out.push_str(&self.text[run_start..self.i]);
                self.i += 1;
                return PyVal::Str(out);
            }
            if b == b'\\' && !raw {
                out.push_str(&self.text[run_start..self.i]);
                self.i += 1;
                self.escape(&mut out);
                run_start = self.i;
                continue;
            }
            if b == b'\\' {
                // Raw strings still cannot end on an escaped quote.
                self.i += 1;
            }
            self.i += 1;
        }
        // Unterminated (the line was cut): not a value to trust.
        self.i = self.s.len();
        PyVal::Other
    }

    fn escape(&mut self, out: &mut String) {
        let Some(b) = self.peek() else { return };
        self.i += 1;
        let hex = |p: &mut Self, n: usize| -> Option<char> {
            let digits = p.text.get(p.i..p.i + n)?;
            let code = u32::from_str_radix(digits, 16).ok()?;
            p.i += n;
            char::from_u32(code)
        };
        let c = match b {
            b'n' => Some('\n'),
            b't' => Some('\t'),
            b'r' => Some('\r'),
            b'0' => Some('\0'),
            b'\\' => Some('\\'),
            b'\'' => Some('\''),
            b'"' => Some('"'),
            b'x' => hex(self, 2),
            b'u' => hex(self, 4),
            b'U' => hex(self, 8),
            _ => None,
        };
        if let Some(c) = c {
            out.push(c);
        } else {
            // Unknown escape: Python keeps the backslash too.
            out.push('\\');
            self.i -= 1;
            if let Some(ch) = self.text[self.i..].chars().next() {
                out.push(ch);
                self.i += ch.len_utf8();
            }
        }
    }

    /// `[a, b]` or `(a, b)`; the cursor starts on the opening bracket.
    fn list(&mut self, close: u8) -> PyVal {
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None => return PyVal::Other,
                Some(b) if b == close => {
                    self.i += 1;
                    return PyVal::List(items);
                }
                Some(b',') => self.i += 1,
                Some(b')' | b']' | b'}') => {
                    // Mismatched bracket: give up on this value.
                    self.i += 1;
                    return PyVal::Other;
                }
                _ => items.push(self.value()),
            }
        }
    }

    /// Skips one value of any shape: to the next `,` or closing bracket at
    /// depth zero, honouring quotes and `<...>` reprs.
    fn skip_value(&mut self) {
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            match b {
                b'\'' | b'"' => {
                    self.string(b, false);
                    continue;
                }
                b'(' | b'[' | b'{' | b'<' => depth += 1,
                b')' | b']' | b'}' | b'>' if depth > 0 => depth -= 1,
                b')' | b']' | b'}' | b',' if depth == 0 => return,
                _ => {}
            }
            self.i += 1;
        }
    }
}

// ---------------------------------------------------------------------------
// Line reading

/// Yields the text between line breaks, treating `\r` (progress-bar
/// rewrites) as a break too, with the 1-based `\n` line it sits on. Each
/// segment keeps at most [`MAX_SEGMENT`] bytes.
struct Segments<'a> {
    input: &'a mut dyn BufRead,
    /// The line the next segment starts on.
    line: u64,
    buf: Vec<u8>,
    /// The previous segment ended with `\r`, so a `\n` right after it ends
    /// nothing new (CRLF).
    after_cr: bool,
    done: bool,
}

impl<'a> Segments<'a> {
    fn new(input: &'a mut dyn BufRead) -> Self {
        Segments { input, line: 1, buf: Vec::new(), after_cr: false, done: false }
    }

    fn next_segment(&mut self) -> std::io::Result<Option<(u64, String)>> {
        if self.done {
            return Ok(None);
        }
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                self.done = true;
                if self.buf.is_empty() {
                    return Ok(None);
                }
                return Ok(Some((self.line, self.take())));
            }
            let Some(at) = chunk.iter().position(|&b| b == b'\n' || b == b'\r') else {
                let room = MAX_SEGMENT.saturating_sub(self.buf.len());
                self.buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
                self.after_cr = false;
                let n = chunk.len();
                self.input.consume(n);
                continue;
            };
            let room = MAX_SEGMENT.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&chunk[..at.min(room)]);
            let newline = chunk[at] == b'\n';
            let crlf_tail = newline && at == 0 && self.after_cr && self.buf.is_empty();
            self.input.consume(at + 1);
            let line = self.line;
            if newline {
                self.line += 1;
            }
            if crlf_tail {
                self.after_cr = false;
                continue;
            }
            self.after_cr = !newline;
            return Ok(Some((line, self.take())));
        }
    }

    fn take(&mut self) -> String {
        let text = String::from_utf8_lossy(&self.buf).into_owned();
        self.buf.clear();
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_all(text: &str) -> Result<(Vec<RawRun>, Outcome)> {
        crate::ingest::log_format::collect::<ServingStdout>("t.log", text)
    }

    fn param<'a>(run: &'a RawRun, key: &str) -> Option<&'a Value> {
        run.params.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn metric(run: &RawRun, name: &str) -> Option<f64> {
        run.metrics.iter().find(|m| m.name == name).map(|m| m.value)
    }

    const SMALL: &str = "\
============ Serving Benchmark Result ============
Backend:                                 sglang    
Traffic request rate:                    inf       
Max request concurrency:                 8         
Successful requests:                     16        
Output token throughput (tok/s):         93.10     
Total token throughput (tok/s):          186.21    
---------------Time to First Token----------------
Mean TTFT (ms):                          189.46    
P99.9 TTFT (ms):                         454.70    
==================================================
";

    #[test]
    fn reads_a_small_sglang_block() {
        let (runs, outcome) = run_all(SMALL).expect("parses");
        assert_eq!(runs.len(), 1);
        assert!(outcome.skipped.is_empty());
        let run = &runs[0];
        assert_eq!(run.line, 1);
        assert_eq!(param(run, "backend"), Some(&Value::Text("sglang".into())));
        assert_eq!(param(run, "request_rate"), Some(&Value::Num(f64::INFINITY)));
        assert_eq!(param(run, "max_concurrency"), Some(&Value::Num(8.0)));
        assert_eq!(metric(run, "completed"), Some(16.0));
        assert_eq!(metric(run, "output_throughput"), Some(93.10));
        assert_eq!(metric(run, "total_throughput"), Some(186.21));
        assert_eq!(metric(run, "mean_ttft_ms"), Some(189.46));
        assert_eq!(metric(run, "p99.9_ttft_ms"), Some(454.70));
    }

    #[test]
    fn truncated_block_is_malformed_at_its_header() {
        let cut =
            "noise\n============ Serving Benchmark Result ============\nBackend: sglang\nSuccessful requests: 3\n";
        let err = run_all(cut).expect_err("cut block");
        match err {
            Error::Malformed { line, msg, .. } => {
                assert_eq!(line, 2);
                assert!(msg.contains("block not closed"), "{msg}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn a_second_header_before_the_close_is_malformed() {
        let text = format!("============ Serving Benchmark Result ============\nSuccessful requests: 3\n{SMALL}");
        match run_all(&text).expect_err("unclosed") {
            Error::Malformed { line, msg, .. } => {
                assert_eq!(line, 1);
                assert!(msg.contains("another block starts at line 3"), "{msg}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn non_number_in_a_numeric_row_is_malformed_at_that_row() {
        let text = SMALL.replace("189.46    ", "fast");
        match run_all(&text).expect_err("bad value") {
            Error::Malformed { line, msg, .. } => {
                assert_eq!(line, 9);
                assert!(msg.contains("Mean TTFT (ms)"), "{msg}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn garbage_inside_a_block_is_malformed_at_that_line() {
        let text = SMALL.replace("Successful requests:", "100%|#####| 16/16\nSuccessful requests:");
        match run_all(&text).expect_err("junk") {
            Error::Malformed { line, .. } => assert_eq!(line, 5),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn no_block_is_unknown_format() {
        match run_all("just a log\nNamespace(a=1)\n").expect_err("no block") {
            Error::UnknownFormat { msg, .. } => {
                assert!(msg.contains("no \"Serving Benchmark Result\" block found"));
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn diffusion_block_is_skipped_with_its_line() {
        let text = "\
intro
================= Serving Benchmark Result =================
Backend:                                 sglang-image
Model:                                   black-forest-labs/FLUX.1-dev
--------------------------------------------------
Benchmark duration (s):                  50.97
Successful requests:                     1/1
Latency Mean (s):                        50.9681
Peak Memory Max (MB):                    27905.19
============================================================
";
        let (runs, outcome) = run_all(text).expect("skips");
        assert!(runs.is_empty());
        assert_eq!(
            outcome.skipped,
            vec!["line 2: SGLang diffusion (image) benchmark block skipped: reckon reads LLM serving results only"
                .to_string()]
        );
    }

    #[test]
    fn namespace_values_of_every_shape() {
        let args = "backend='sglang', base_url=None, port=30000, ratio=0.5, rate=inf, neg=-1e-05, \
                    flag=True, off=False, esc='it\\'s \\x41\\u00e9', dq=\"a,b\", \
                    fn=<function Foo.cmd at 0x7f>, nested={(1, 2): 0.5, 'k': [1, 2]}, \
                    lst=['CPU', 'GPU'], path=PosixPath('/x, y'), bytes=b'raw', tail='end')";
        let parsed = parse_namespace(args);
        let get = |k: &str| parsed.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
        assert_eq!(get("backend"), Some(PyVal::Str("sglang".into())));
        assert_eq!(get("base_url"), Some(PyVal::None));
        assert_eq!(get("port"), Some(PyVal::Num(30000.0)));
        assert_eq!(get("ratio"), Some(PyVal::Num(0.5)));
        assert_eq!(get("rate"), Some(PyVal::Num(f64::INFINITY)));
        assert_eq!(get("neg"), Some(PyVal::Num(-1e-05)));
        assert_eq!(get("flag"), Some(PyVal::Bool(true)));
        assert_eq!(get("off"), Some(PyVal::Bool(false)));
        assert_eq!(get("esc"), Some(PyVal::Str("it's Aé".into())));
        assert_eq!(get("dq"), Some(PyVal::Str("a,b".into())));
        assert_eq!(get("fn"), Some(PyVal::Other));
        assert_eq!(get("nested"), Some(PyVal::Other));
        assert_eq!(get("lst"), Some(PyVal::List(vec![PyVal::Str("CPU".into()), PyVal::Str("GPU".into())])));
        assert_eq!(get("path"), Some(PyVal::Other));
        assert_eq!(get("bytes"), Some(PyVal::Str("raw".into())));
        assert_eq!(get("tail"), Some(PyVal::Str("end".into())));
    }

    #[test]
    fn a_cut_namespace_keeps_the_keys_before_the_cut() {
        let parsed = parse_namespace("num_prompts=16, model='moonshotai/Kim");
        assert_eq!(parsed[0], ("num_prompts".to_string(), PyVal::Num(16.0)));
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[1].1, PyVal::Other);
    }

    #[test]
    fn namespace_feeds_only_the_next_block_and_rows_win() {
        let text = format!(
            "benchmark_args=Namespace(backend='vllm', max_concurrency=4, num_prompts=16, request_rate=2.0, \
             tokenizer=None, metadata=['tp=8', 'gpu=H100'], port=1)\n{SMALL}{SMALL}"
        );
        let (runs, _) = run_all(&text).expect("parses");
        assert_eq!(runs.len(), 2);
        let first = &runs[0];
        assert_eq!(first.line, 2);
        // Rows win: Backend sglang, concurrency 8, rate inf.
        assert_eq!(param(first, "backend"), Some(&Value::Text("sglang".into())));
        assert_eq!(param(first, "max_concurrency"), Some(&Value::Num(8.0)));
        assert_eq!(param(first, "request_rate"), Some(&Value::Num(f64::INFINITY)));
        assert_eq!(param(first, "num_prompts"), Some(&Value::Num(16.0)));
        assert_eq!(param(first, "tp"), Some(&Value::Text("8".into())));
        assert_eq!(param(first, "gpu"), Some(&Value::Text("H100".into())));
        assert_eq!(param(first, "tokenizer"), None);
        assert_eq!(param(first, "port"), None);
        // Not carried past the block it preceded.
        assert_eq!(param(&runs[1], "num_prompts"), None);
        assert_eq!(param(&runs[1], "tp"), None);
    }

    #[test]
    fn crlf_carriage_returns_and_timestamps() {
        let text = "[2026-11-20 14:02:11] start\r\n 50%|##  | 8/16\r100%|####| 16/16\r\n".to_string()
            + &SMALL.replace('\n', "\r\n");
        let (runs, _) = run_all(&text).expect("parses");
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].line, 3);
        assert_eq!(runs[0].time.as_deref(), Some("2026-11-20T14:02:11Z"));
        assert_eq!(metric(&runs[0], "mean_ttft_ms"), Some(189.46));
    }

    #[test]
    fn bracket_prefixed_block_lines_are_read() {
        let text: String = SMALL.lines().map(|l| format!("[2026-11-21T08:00:00Z] {l}\n")).collect();
        let (runs, _) = run_all(&text).expect("parses");
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].time.as_deref(), Some("2026-11-21T08:00:00Z"));
        assert_eq!(metric(&runs[0], "output_throughput"), Some(93.10));
    }

    #[test]
    fn unknown_rows_and_sections_keep_their_data() {
        let text = "\
============ Serving Benchmark Result ============
Successful requests:                     5
Total nonempty serving response chunks:  42
Input request rate (req/s):              1.50000
----------------End-to-end Latency----------------
Mean E2EL (ms):                          10.00
-------Queue-inclusive End-to-end Latency---------
Mean E2EL (ms):                          12.00
Mode:                                    steady
---------------Speculative Decoding---------------
Acceptance rate (%):                     61.25
Acceptance length:                       2.84
Drafts:                                  100
Per-position acceptance (%):
  Position 0:                            80.00
  Position 1:                            55.50
==================================================
";
        let (runs, _) = run_all(text).expect("parses");
        let run = &runs[0];
        assert_eq!(metric(run, "total_nonempty_serving_response_chunks"), Some(42.0));
        assert_eq!(metric(run, "input_request_rate_req_per_s"), Some(1.5));
        assert_eq!(metric(run, "mean_e2el_ms"), Some(10.0));
        assert_eq!(metric(run, "queue_inclusive_end_to_end_latency_mean_e2el_ms"), Some(12.0));
        assert_eq!(param(run, "queue_inclusive_end_to_end_latency_mode"), Some(&Value::Text("steady".into())));
        assert_eq!(metric(run, "spec_decode_acceptance_rate"), Some(61.25));
        assert_eq!(metric(run, "spec_decode_acceptance_length"), Some(2.84));
        assert_eq!(metric(run, "spec_decode_num_drafts"), Some(100.0));
        assert_eq!(metric(run, "spec_decode_acceptance_position_0"), Some(80.0));
        assert_eq!(metric(run, "spec_decode_acceptance_position_1"), Some(55.5));
    }

    #[test]
    fn very_long_lines_are_capped() {
        let mut text = String::from("x");
        text.push_str(&"#".repeat(MAX_SEGMENT * 2));
        text.push('\n');
        text.push_str(SMALL);
        let (runs, _) = run_all(&text).expect("parses");
        assert_eq!(runs[0].line, 2);
    }

    #[test]
    fn not_set_concurrency_and_trace_rate() {
        let text = SMALL
            .replace("Max request concurrency:                 8", "Max request concurrency:                 not set")
            .replace("Traffic request rate:                    inf", "Traffic request rate:                    trace");
        let text = format!("Namespace(max_concurrency=4, request_rate=inf)\n{text}");
        let (runs, _) = run_all(&text).expect("parses");
        let run = &runs[0];
        assert_eq!(param(run, "max_concurrency"), None);
        assert_eq!(param(run, "request_rate"), Some(&Value::Text("trace".into())));
    }

    #[test]
    fn vllm_preamble_lines_feed_the_block() {
        let text = "Traffic request rate: 4.0\nBurstiness factor: 1.0 (Poisson process)\n\
                    Maximum request concurrency: 32\n\
                    ============ Serving Benchmark Result ============\n\
                    Successful requests:                     10\n\
                    Total token throughput (tok/s):          50.00\n\
                    ==================================================\n";
        let (runs, _) = run_all(text).expect("parses");
        let run = &runs[0];
        assert_eq!(run.line, 4);
        assert_eq!(param(run, "request_rate"), Some(&Value::Num(4.0)));
        assert_eq!(param(run, "burstiness"), Some(&Value::Num(1.0)));
        assert_eq!(param(run, "max_concurrency"), Some(&Value::Num(32.0)));
        // No Backend row: vLLM's name for the total.
        assert_eq!(metric(run, "total_token_throughput"), Some(50.0));
        assert_eq!(metric(run, "total_throughput"), None);
    }

    #[test]
    fn sniff_finds_the_header() {
        assert!(sniff(SMALL.as_bytes()));
        assert!(sniff(b"progress\r============ Serving Benchmark Result ============\r\n"));
        assert!(!sniff(b"{\"backend\": \"vllm\"}\n"));
        assert!(!sniff(b"Serving Benchmark Result in prose\n"));
    }

    #[test]
    fn snake_and_stat_names() {
        assert_eq!(stat_name("Mean E2E Latency (ms):").as_deref(), Some("mean_e2e_latency_ms"));
        assert_eq!(stat_name("P90 E2E Latency (ms)").as_deref(), Some("p90_e2e_latency_ms"));
        assert_eq!(stat_name("Max ITL (ms)").as_deref(), Some("max_itl_ms"));
        assert_eq!(stat_name("Latency Mean (s)"), None);
        assert_eq!(snake("RTFx (Inverse Real-Time Factor):"), "rtfx_inverse_real_time_factor");
        assert_eq!(snake("Peak Memory Max (MB)"), "peak_memory_max_mb");
        assert_eq!(snake("Rate (%)"), "rate_pct");
    }
}
