//! The "Serving Benchmark Result" summary block that `SGLang` and vLLM
//! `bench_serving` print to stdout, read out of noisy console and job logs.
//!
//! Each block becomes one run. Row labels map to the names the JSON formats
//! use (`output_throughput`, `mean_ttft_ms`, …) so a sweep captured from
//! stdout compares with one saved as JSON. The nearest `Namespace(...)`
//! argument dump (or the benchmark client's echoed command line) before a
//! block, and vLLM's pre-block `Traffic request rate:`
//! / `Maximum request concurrency:` lines, contribute params; the block's own
//! rows win over both. See FORMATS.md sections 1b and 2b.

mod labels;
mod lines;
mod namespace;

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use labels::{
    known_label, normalize, not_a_number, rate_value, required_number, stat_name, target, unique_name, upsert, Target,
};
use lines::{
    excerpt, header, header_width, is_closing_rule, parse_timestamp, section_title, split_row, strip_prefix,
    unprefixed, without_marks, Segments,
};
use namespace::{command_args, find_namespace, namespace_params, parse_namespace};

/// Console lines, `\r` and CRLF alike, for the other console formats.
pub(super) use lines::Segments as ConsoleLines;

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use crate::run::{RawRun, Value};
use crate::syntax::read_padded;
use crate::{Error, Result};

/// Longest row value kept, in characters.
const MAX_VALUE: usize = 1024;

/// The title both tools centre in the block's header line.
pub(crate) const TITLE: &str = "Serving Benchmark Result";

/// Longest line segment kept in memory. Progress bars rewritten with `\r`
/// and no `\n` can make a physical line arbitrarily long; nothing reckon
/// reads from this format needs more than this.
pub(super) const MAX_SEGMENT: usize = 1 << 20;

/// A real block has a few dozen rows. Past this many the closing rule is
/// surely missing, and stopping keeps memory bounded.
const MAX_ROWS: usize = 2000;

/// The "Serving Benchmark Result" block both tools print, in console or
/// job logs.
pub struct ServingStdout;

impl LogFormat for ServingStdout {
    const NAME: &'static str = "serving-stdout";

    /// A result block in the head, or its title anywhere later in the file.
    fn detect(s: &Sniff<'_>) -> bool {
        s.result_block_later || sniff(s.head)
    }

    fn parse(path: &Path, input: &mut dyn BufRead, _: LineBytes, emit: Emit) -> Result<Outcome> {
        parse(path, input, emit)
    }
}

/// True when the head of a file holds a "Serving Benchmark Result" block.
pub fn sniff(head: &[u8]) -> bool {
    head.split(|&b| b == b'\n' || b == b'\r').any(|segment| {
        let text = String::from_utf8_lossy(segment);
        header(strip_prefix(&text).1).is_some()
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
            if let Some((prefix, width)) = header(line) {
                block = Some(Block::new(line_no, prefix, width));
                blocks_seen += 1;
            } else {
                context.observe(line);
            }
            continue;
        };
        let Some(line) = unprefixed(line, &open.prefix) else {
            return Err(open.unprefixed(path, line_no, line));
        };
        if open.read(path, line_no, line)? == Read::Closed {
            if let Some(done) = block.take() {
                finish_block(path, &done, &mut context, &mut outcome, emit)?;
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

/// What a line inside an open block did to it.
#[derive(PartialEq)]
enum Read {
    Open,
    Closed,
}

impl Block {
    /// Reads one line inside the block: a row, a section title, a blank, or
    /// the closing rule. Anything else means the block is cut or other
    /// output was printed into it.
    fn read(&mut self, path: &Path, line_no: u64, line: &str) -> Result<Read> {
        if header_width(line).is_some() {
            return Err(Error::malformed(
                path,
                self.header_line,
                format!(
                    "\"{TITLE}\" block not closed: another block starts at line {line_no} before \
                     this one's closing line of '='; the log is cut or interleaved — repair or \
                     remove the unfinished block"
                ),
            ));
        }
        if is_closing_rule(line) {
            return Ok(Read::Closed);
        }
        if let Some(title) = section_title(line) {
            self.section = if title.is_empty() { None } else { Some(title.to_string()) };
            return Ok(Read::Open);
        }
        if line.is_empty() {
            return Ok(Read::Open);
        }
        match split_row(line) {
            Some((label, "")) if stat_name(label).is_some() => {
                // `Mean TTFT (ms):` with nothing after it: the metric would
                // silently be missing from the run.
                Err(Error::malformed(
                    path,
                    line_no,
                    format!(
                        "`{}:` has no value; the log was cut or edited — repair the line or remove it",
                        label.trim().trim_end_matches(':')
                    ),
                ))
            }
            // A sub-heading such as "Per-position acceptance (%):"; the
            // rows under it carry their own labels.
            Some((_, "")) => Ok(Read::Open),
            Some((label, value)) => self.push_row(path, line_no, label, value).map(|()| Read::Open),
            None => Err(Error::malformed(
                path,
                line_no,
                format!(
                    "expected a result row (`Label: value`) or the closing line of '=' of the \
                     \"{TITLE}\" block that starts at line {}, found `{}`; the block is cut or \
                     other output was printed into it — repair or remove it",
                    self.header_line,
                    excerpt(line)
                ),
            )),
        }
    }

    /// A line of a block whose header carried a prefix (`# `) that does
    /// not: part of the block's rows would be read as something else.
    fn unprefixed(&self, path: &Path, line_no: u64, line: &str) -> Error {
        Error::malformed(
            path,
            line_no,
            format!(
                "the \"{TITLE}\" block that starts at line {} carries the prefix `{}` before each line, \
                 and this line does not: `{}`; reckon reads a block whose every line carries its header's \
                 prefix — repair the block, or take the prefixes off",
                self.header_line,
                self.prefix.trim_end(),
                excerpt(line)
            ),
        )
    }

    fn push_row(&mut self, path: &Path, line_no: u64, label: &str, value: &str) -> Result<()> {
        if self.rows.len() >= MAX_ROWS {
            return Err(Error::malformed(
                path,
                self.header_line,
                format!(
                    "\"{TITLE}\" block not closed: more than {MAX_ROWS} rows without the \
                     closing line of '='"
                ),
            ));
        }
        self.rows.push(Row {
            line: line_no,
            section: self.section.clone(),
            label: label.to_string(),
            // A value is a number or a short word; keeping a bounded
            // prefix of anything longer bounds the block's memory.
            value: value.chars().take(MAX_VALUE).collect(),
        });
        Ok(())
    }
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
        // The client's command line says what its `Namespace` would: two
        // blocks of one log run with other models or prompt counts are two
        // points, never repeats of one.
        if let Some(args) = command_args(line) {
            self.namespace = namespace_params(&args);
            return;
        }
        // Lines before a block pasted as comments (`# Traffic request rate:
        // inf`) state the same params as printed.
        let Some((label, value)) = split_row(line).or_else(|| split_row(without_marks(line))) else {
            return;
        };
        match normalize(label).as_str() {
            "traffic request rate" => upsert(&mut self.preamble, "request_rate", rate_value(value)),
            "maximum request concurrency" | "max request concurrency" => match read_padded(value) {
                Some(n) => upsert(&mut self.preamble, "max_concurrency", Some(Value::Num(n))),
                None => upsert(&mut self.preamble, "max_concurrency", None),
            },
            "burstiness factor" => {
                // "1.0 (Poisson process)": the number is the first word.
                let first = value.split_whitespace().next().unwrap_or("");
                upsert(&mut self.preamble, "burstiness", read_padded(first).map(Value::Num));
            }
            _ => {}
        }
    }
}

struct Block {
    header_line: u64,
    /// What the header carried before its first `=` (`# `), which every
    /// line of the block carries too; empty as the tools print it.
    prefix: String,
    width: usize,
    section: Option<String>,
    rows: Vec<Row>,
}

impl Block {
    fn new(header_line: u64, prefix: &str, width: usize) -> Self {
        Block { header_line, prefix: prefix.to_string(), width, section: None, rows: Vec::new() }
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

pub(super) struct Row {
    line: u64,
    section: Option<String>,
    label: String,
    value: String,
}

fn finish_block(path: &Path, block: &Block, context: &mut Context, outcome: &mut Outcome, emit: Emit) -> Result<()> {
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
    run.time.clone_from(&context.time);
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
                if let Some(n) = read_padded(&row.value) {
                    let name = unique_name(&run, name, row);
                    match labels::label_unit(&row.label).filter(|_| crate::metric::unit_from_name(&name).is_none()) {
                        // `Benchmark duration (s)`: the JSON's `duration`, in s as there.
                        Some(unit) => run.metric_with_unit(name, n, unit),
                        None => run.metric(name, n),
                    }
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

#[cfg(test)]
mod tests;
