//! `mlperf_log_summary.txt`: loadgen's report of a test — the results
//! summary (SUT, scenario, mode, the result metric, VALID or INVALID and
//! which constraints held), additional stats (latencies in ns, rates) and
//! the test parameters used — between rules of `=`.

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use super::{setting, snake, unit_of};
use crate::ingest::log_format::{Emit, LogFormat, Outcome, Sniff};
use crate::ingest::stdout::ConsoleLines;
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// loadgen's `mlperf_log_summary.txt`.
pub struct MlperfSummary;

const TITLE: &str = "MLPerf Results Summary";

impl LogFormat for MlperfSummary {
    const NAME: &'static str = "mlperf-summary";

    fn detect(s: &Sniff<'_>) -> bool {
        String::from_utf8_lossy(s.text).lines().any(|l| l.trim() == TITLE)
    }

    fn parse(path: &Path, input: &mut dyn BufRead, _: LineBytes, emit: Emit) -> Result<Outcome> {
        parse(path, input, emit)
    }
}

/// The part of the report a row is in.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    Results,
    Stats,
    Settings,
    /// Warnings and errors loadgen lists after the settings.
    Other,
}

fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
    let mut lines = ConsoleLines::new(input);
    let mut run: Option<RawRun> = None;
    let mut part = Part::Other;
    // Whether the report under the last title reached loadgen's closing
    // line (`No errors encountered during test.`, or how many it met), and
    // the file's last line: a report without it was cut short.
    let (mut closed, mut last) = (false, 0);
    let mut advice = false;
    while let Some((line_no, raw)) = lines.next_segment().map_err(|e| Error::io(path, e))? {
        let line = raw.trim();
        last = line_no;
        match line {
            TITLE => {
                if let Some(done) = run.take() {
                    finish(path, done, (closed, line_no.saturating_sub(1)), emit)?;
                }
                run = Some(RawRun::new(line_no));
                (part, closed) = (Part::Results, false);
                continue;
            }
            "Additional Stats" => part = Part::Stats,
            "Test Parameters Used" => part = Part::Settings,
            _ => {}
        }
        let Some(r) = run.as_mut() else { continue };
        let Some((label, value)) = line.split_once(':') else {
            if line.starts_with("No warnings") || line.starts_with("No errors") {
                part = Part::Other;
            }
            closed |= closes(line);
            continue;
        };
        let bullet = line.starts_with('*');
        let (label, value) = (label.trim().trim_start_matches('*').trim(), value.trim());
        if value.is_empty() || label.is_empty() || part == Part::Other {
            continue;
        }
        // loadgen's advice (` * TTFT constrain not met: Reduce target QPS
        // …`) and warnings are prose, not settings of the test.
        let number = crate::syntax::read_logged(value).is_some();
        if (bullet && !number) || label.eq_ignore_ascii_case("warning") {
            advice = true;
            continue;
        }
        row(path, line_no, part, label, value, r)?;
    }
    match run {
        Some(done) => finish(path, done, (closed, last), emit)?,
        None => return Err(Error::malformed(path, 1, format!("no \"{TITLE}\" found"))),
    }
    let mut outcome = Outcome::default();
    if advice {
        outcome.skipped.push("loadgen's recommendations and warnings (prose) are not stored".into());
    }
    Ok(outcome)
}

/// loadgen's last line of a report: `No errors encountered during test.`,
/// or `N ERROR(s) encountered. See detailed log.`
fn closes(line: &str) -> bool {
    let line = line.to_ascii_lowercase();
    line.contains("error") && line.contains("encountered")
}

fn row(path: &Path, line_no: u64, part: Part, label: &str, value: &str, run: &mut RawRun) -> Result<()> {
    let name = match label {
        "SUT name" => "sut_name".to_owned(),
        "Scenario" => "scenario".to_owned(),
        "Mode" => "mode".to_owned(),
        "Result is" => "result".to_owned(),
        _ => snake(label),
    };
    if name == "mode" {
        if let Some(msg) = super::no_performance(value) {
            return Err(Error::malformed(path, line_no, msg));
        }
    }
    if part == Part::Settings {
        run.param(name, setting(value));
        return Ok(());
    }
    let number = crate::syntax::read_logged(value).filter(|n| n.is_finite());
    let Some(number) = number.filter(|_| !label.ends_with("satisfied")) else {
        run.param(name, Value::Text(value.to_owned()));
        return Ok(());
    };
    let unit = unit_of(&name);
    let name = if unit == Some("ns") && !name.ends_with("_ns") { format!("{name}_ns") } else { name };
    if let Some(known) = run.metrics.iter().find(|m| m.name == name) {
        // SingleStream's result is its 90th percentile, which the
        // additional stats print again.
        if known.value == number {
            return Ok(());
        }
        return Err(Error::malformed(
            path,
            line_no,
            format!("`{label}` gives `{name}` a second value; a run holds one value per metric"),
        ));
    }
    match unit {
        Some(unit) => run.metric_with_unit(name, number, unit),
        None => run.metric(name, number),
    }
    Ok(())
}

fn finish(path: &Path, run: RawRun, (closed, last): (bool, u64), emit: Emit) -> Result<()> {
    if run.metrics.is_empty() {
        return Err(Error::malformed(
            path,
            run.line,
            "this MLPerf results summary holds no result (samples per second, latencies); \
             ingest the whole mlperf_log_summary.txt, or mlperf_log_detail.txt",
        ));
    }
    if !closed {
        // A number on the last line may be cut too (`2993.01` read as `29`).
        return Err(Error::malformed(
            path,
            last,
            format!(
                "the MLPerf results summary that starts at line {} ends here, before loadgen's closing line \
                 (`No errors encountered during test.`): cut short; was the file truncated, or is loadgen \
                 still writing it? Ingest it once the test has ended, or mlperf_log_detail.txt",
                run.line
            ),
        ));
    }
    emit(run)
}
