//! nvbench's markdown (`--md FILE`, or its console output): `# Benchmark
//! Results`, a `## <benchmark>` and a `### [<id>] <device>` heading above
//! each table, one row per state, the axes' columns first and then the
//! summaries, each cell written with its unit (`27.050 us`, `2.000 KiB`,
//! `304.115 MB/s`, `295.832K`, `13.40%`, `73958x`). The table does not say
//! which columns are axes: the log's `Run:` lines do (`[Device=0 Array
//! Size=2^1 Num Bins=2^9]`), so a file without them is refused. Runs,
//! params, metrics and units are those the JSON and CSV readers give: times
//! in s, rates in items/s and B/s, sizes in B, noise and utilisation as
//! fractions, the two `Samples` and `Noise` columns told apart by position.

use crate::ingest::LineBytes;
use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;

use super::super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::super::stdout::ConsoleLines;
use super::Namer;
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// `nvbench --md FILE`.
pub struct NvbenchMarkdown;

impl LogFormat for NvbenchMarkdown {
    const NAME: &'static str = "nvbench-md";

    /// The results heading nvbench writes, and its log's `Run:` lines.
    fn detect(s: &Sniff<'_>) -> bool {
        let text = String::from_utf8_lossy(s.text);
        let mut lines = text.lines().map(str::trim_end);
        let results = lines.clone().any(|l| l == "# Benchmark Results");
        results && lines.any(|l| l.starts_with("Run:  [") || l.starts_with("Run: ["))
    }

    fn parse(path: &Path, input: &mut dyn BufRead, _: LineBytes, emit: Emit) -> Result<Outcome> {
        parse(path, input, emit)
    }
}

/// Where the reading is, and what it knows so far.
#[derive(Default)]
struct State {
    /// Axis names from the log's `Run:` lines.
    axes: BTreeSet<String>,
    in_results: bool,
    benchmark: Option<String>,
    device: Option<(String, String)>,
    /// The header of the table being read, once its rule has passed.
    columns: Option<Vec<Column>>,
    header: Option<Vec<String>>,
    skipped: usize,
}

/// What a column of a table holds.
#[derive(Clone)]
enum Column {
    Axis(String),
    /// The `2^k` half of a power-of-two axis whose value the next column holds.
    Pretty,
    Summary(String),
}

fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
    let mut lines = ConsoleLines::new(input);
    let mut st = State::default();
    let mut runs = 0usize;
    while let Some((line_no, raw)) = lines.next_segment().map_err(|e| Error::io(path, e))? {
        let line = raw.trim();
        if !st.in_results {
            log_line(line, &mut st);
            st.in_results = line == "# Benchmark Results";
            continue;
        }
        if let Some(name) = line.strip_prefix("## ") {
            st.benchmark = Some(name.trim().to_owned());
            (st.device, st.header, st.columns) = (None, None, None);
        } else if let Some(device) = line.strip_prefix("### [") {
            let (id, name) = device.split_once(']').unwrap_or((device, ""));
            st.device = Some((id.trim().to_owned(), name.trim().to_owned()));
            (st.header, st.columns) = (None, None);
        } else if line.starts_with('|') {
            if table_line(path, line_no, line, &mut st, emit)? {
                runs += 1;
            }
        } else if !line.is_empty() {
            (st.header, st.columns) = (None, None);
        }
    }
    if !st.in_results {
        return Err(Error::malformed(
            path,
            1,
            "no `# Benchmark Results` heading: nvbench's results are not in this file",
        ));
    }
    if st.axes.is_empty() {
        return Err(no_log(path, 1));
    }
    let mut outcome = Outcome::default();
    if st.skipped > 0 {
        outcome.skipped.push(format!("{} states nvbench skipped hold no measurement", st.skipped));
    }
    if runs == 0 {
        return Err(Error::malformed(path, 1, "no nvbench result table found under `# Benchmark Results`"));
    }
    Ok(outcome)
}

/// The refusal of tables whose axes no log names.
fn no_log(path: &Path, line: u64) -> Error {
    Error::malformed(
        path,
        line,
        "this nvbench markdown has no log `Run:` lines, which name the axes its tables do not tell from \
         summaries; write the results with `--json` or `--csv` instead (or keep the log)",
    )
}

/// Learns the axis names of a log `Run:` line, and counts skipped states.
fn log_line(line: &str, st: &mut State) {
    if line.starts_with("Skip:") {
        st.skipped += 1;
        return;
    }
    let Some(rest) = line.strip_prefix("Run:") else { return };
    let Some(open) = rest.rfind('[') else { return };
    let inside = rest[open + 1..].trim_end_matches(']');
    let mut words: Vec<&str> = Vec::new();
    for word in inside.split(' ').filter(|w| !w.is_empty()) {
        if let Some((last, _)) = word.split_once('=') {
            words.push(last);
            let name = words.join(" ");
            if name != "Device" {
                st.axes.insert(name);
            }
            words.clear();
        } else {
            words.push(word);
        }
    }
}

/// Reads one `|…|` line: a header, its rule, or a state's row (true).
fn table_line(path: &Path, line_no: u64, line: &str, st: &mut State, emit: Emit) -> Result<bool> {
    let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
    if cells.iter().all(|c| !c.is_empty() && c.bytes().all(|b| matches!(b, b'-' | b':'))) {
        if st.axes.is_empty() {
            return Err(no_log(path, line_no));
        }
        st.columns = st.header.take().map(|h| columns(&h, &st.axes));
        return Ok(false);
    }
    let Some(columns) = st.columns.as_ref() else {
        st.header = Some(cells.iter().map(|c| (*c).to_owned()).collect());
        return Ok(false);
    };
    if cells.len() != columns.len() {
        return Err(Error::malformed(
            path,
            line_no,
            format!("this row has {} cells where the table's header has {}", cells.len(), columns.len()),
        ));
    }
    let mut run = RawRun::new(line_no);
    if let Some(b) = &st.benchmark {
        run.param("benchmark", Value::Text(b.clone()));
    }
    if let Some((id, name)) = &st.device {
        run.param("device", Value::from_label(id));
        run.param("device_name", Value::Text(name.clone()));
    }
    let mut namer = Namer::default();
    for (column, cell) in columns.iter().zip(&cells) {
        match column {
            Column::Pretty => {}
            Column::Axis(name) => {
                // `2^1 = 2`: the value after the power.
                let value = cell.rsplit_once(" = ").map_or(*cell, |(_, v)| v);
                run.param(name.clone(), Value::from_label(value));
            }
            Column::Summary(header) => summary(path, line_no, header, cell, &mut namer, &mut run)?,
        }
    }
    emit(run)?;
    Ok(true)
}

/// The columns of a header: the axes the log named (a power-of-two axis
/// may take two, `X` then `(X)`), then the summaries.
fn columns(header: &[String], axes: &BTreeSet<String>) -> Vec<Column> {
    header
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let inner = h.strip_prefix('(').and_then(|x| x.strip_suffix(')'));
            if let Some(name) = inner.filter(|n| axes.contains(*n)) {
                Column::Axis(name.to_owned())
            } else if axes.contains(h) {
                let paired = header.get(i + 1).is_some_and(|next| *next == format!("({h})"));
                if paired {
                    Column::Pretty
                } else {
                    Column::Axis(h.clone())
                }
            } else {
                Column::Summary(h.clone())
            }
        })
        .collect()
}

/// Reads a summary's cell into its metric, in the unit the JSON reader
/// stores it in.
fn summary(path: &Path, line: u64, header: &str, cell: &str, namer: &mut Namer, run: &mut RawRun) -> Result<()> {
    if cell.is_empty() {
        return Ok(());
    }
    let Some((value, hint)) = read_cell(cell) else {
        return Err(Error::malformed(path, line, format!("`{header}` holds `{cell}`, which is not an nvbench value")));
    };
    let (name, unit) = namer.name(header, hint);
    match unit {
        Some(u) => run.metric_with_unit(name, value, u),
        None => run.metric(name, value),
    }
    Ok(())
}

/// A cell as nvbench formats a summary: its value in the base unit and the
/// hint its unit stands for.
fn read_cell(cell: &str) -> Option<(f64, Option<&'static str>)> {
    let number = |t: &str| crate::syntax::read_padded(t).filter(|v| v.is_finite());
    if let Some(n) = cell.strip_suffix('x').and_then(number) {
        return Some((n, Some("sample_size")));
    }
    if let Some(p) = cell.strip_suffix('%').and_then(number) {
        return Some((p / 100.0, Some("percentage")));
    }
    if let Some((n, unit)) = cell.rsplit_once(' ') {
        let n = number(n)?;
        let (scale, hint) = match unit {
            "ns" => (1e-9, "duration"),
            "us" | "µs" => (1e-6, "duration"),
            "ms" => (1e-3, "duration"),
            "s" => (1.0, "duration"),
            "B" => (1.0, "bytes"),
            "KiB" => (1024.0, "bytes"),
            "MiB" => (1_048_576.0, "bytes"),
            "GiB" => (1_073_741_824.0, "bytes"),
            "TiB" => (1_099_511_627_776.0, "bytes"),
            "B/s" => (1.0, "byte_rate"),
            "KB/s" => (1e3, "byte_rate"),
            "MB/s" => (1e6, "byte_rate"),
            "GB/s" => (1e9, "byte_rate"),
            "TB/s" => (1e12, "byte_rate"),
            "KiB/s" => (1024.0, "byte_rate"),
            "MiB/s" => (1_048_576.0, "byte_rate"),
            "GiB/s" => (1_073_741_824.0, "byte_rate"),
            _ => return None,
        };
        return Some((n * scale, Some(hint)));
    }
    let scale = match cell.chars().last()? {
        'k' | 'K' => 1e3,
        'm' | 'M' => 1e6,
        'b' | 'G' => 1e9,
        'T' => 1e12,
        _ => return number(cell).map(|n| (n, None)),
    };
    number(&cell[..cell.len() - 1]).map(|n| (n * scale, Some("item_rate")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_in_their_base_units() {
        assert_eq!(read_cell("27.050 us"), Some((27.050 * 1e-6, Some("duration"))));
        assert_eq!(read_cell("2.000 KiB"), Some((2048.0, Some("bytes"))));
        assert_eq!(read_cell("304.115 MB/s"), Some((304.115e6, Some("byte_rate"))));
        assert_eq!(read_cell("295.832K"), Some((295_832.0, Some("item_rate"))));
        assert_eq!(read_cell("1.159m"), Some((1_159_000.0, Some("item_rate"))));
        assert_eq!(read_cell("13.40%"), Some((0.134, Some("percentage"))));
        assert_eq!(read_cell("73958x"), Some((73958.0, Some("sample_size"))));
        assert_eq!(read_cell("16777216"), Some((16_777_216.0, None)));
        assert_eq!(read_cell("fast"), None);
    }
}
