//! nvbench (`--json`, `--csv`, `--md`): one run per benchmark × state.
//!
//! * Params: `benchmark` (its name), `device` (the id) and `device_name`,
//!   and each axis by its name (`BlockSize = 256`, `T = F32`); in JSON also
//!   the state's settings (`min_samples`, `min_time`, `max_noise`,
//!   `skip_time`, `timeout`).
//! * Metrics, the state's summaries, named for what they measure whatever
//!   the column they sit in: `samples` and `batch_samples` (the cold and the
//!   batch measurement's counts — the CSV writes two `Samples` columns),
//!   `cpu_time`, `gpu_time`, `batch_gpu_time` (seconds), `cpu_noise`,
//!   `gpu_noise` (the relative standard deviation of the time before them,
//!   a fraction — the CSV's two `Noise` columns), `items_per_second`
//!   (`Elem/s`), `global_mem_bw` (B/s), `bandwidth_util` (a fraction),
//!   `walltime` and `batch_walltime` (seconds, JSON only: the CSV leaves
//!   hidden summaries out), and any other summary by its name in snake case
//!   with the unit its hint or header gives (`num_elements`,
//!   `memory_reads` in B).
//! * States nvbench skipped hold no measurement and are named as skipped.

mod csv;
mod json;
mod markdown;

pub use csv::NvbenchCsv;
pub use json::NvbenchJson;
pub use markdown::NvbenchMarkdown;

/// A summary's metric: its name and unit, from nvbench's name for it, the
/// name before it (`Noise` follows the time it is the noise of) and its
/// hint (`duration`, `item_rate`, `byte_rate`, `bytes`, `percentage`,
/// `sample_size`).
#[derive(Debug, Default)]
struct Namer {
    /// The last time summary seen in this state: `cpu`, `gpu`, `batch_gpu`.
    last_time: Option<&'static str>,
    samples_seen: usize,
}

impl Namer {
    fn name(&mut self, summary: &str, hint: Option<&str>) -> (String, Option<&'static str>) {
        let unit = hint.and_then(|h| match h {
            "duration" => Some("s"),
            "item_rate" => Some("items/s"),
            "byte_rate" => Some("B/s"),
            "bytes" => Some("B"),
            _ => None,
        });
        let time = |me: &mut Namer, which: &'static str| {
            me.last_time = Some(which);
            (format!("{which}_time"), Some("s"))
        };
        match summary {
            "Samples" => {
                self.samples_seen += 1;
                let name = if self.samples_seen == 1 { "samples" } else { "batch_samples" };
                (name.into(), None)
            }
            "CPU Time" => time(self, "cpu"),
            "GPU Time" => time(self, "gpu"),
            "Batch GPU" => time(self, "batch_gpu"),
            "Noise" => (format!("{}_noise", self.last_time.unwrap_or("time")), None),
            "Elem/s" => ("items_per_second".into(), Some("items/s")),
            "GlobalMem BW" => ("global_mem_bw".into(), Some("B/s")),
            "BWUtil" => ("bandwidth_util".into(), None),
            other => (snake(other), unit),
        }
    }
}

/// A summary's name as a metric name: lower case, words joined by `_`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_samples_and_two_noises_are_told_apart_by_position() {
        let mut n = Namer::default();
        let names: Vec<String> = ["Samples", "CPU Time", "Noise", "GPU Time", "Noise", "Samples", "Batch GPU"]
            .iter()
            .map(|s| n.name(s, None).0)
            .collect();
        assert_eq!(
            names,
            ["samples", "cpu_time", "cpu_noise", "gpu_time", "gpu_noise", "batch_samples", "batch_gpu_time"]
        );
        assert_eq!(n.name("Memory Reads", Some("bytes")), ("memory_reads".into(), Some("B")));
        assert_eq!(snake("Num Elements"), "num_elements");
    }
}
