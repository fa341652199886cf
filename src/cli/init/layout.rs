//! The logs already in a folder `reckon init` runs in, and the `[[source]]`
//! templates that name them: each file a log format reads by its content
//! (what `reckon ingest` would detect), grouped by folder and extension; a
//! folder named as a date is `{date}` (the run time), and file names that
//! differ within a group are `{series}` — the logs of one sweep named for
//! what they compare, as the bundled example's
//! `notebooks/logs/2026-11-29/eagle-topk4-v1.jsonl`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::ingest::Format;

/// At most this many files are looked at (a folder of data sets is not a
/// folder of logs), and at most this many bytes of each.
const MAX_FILES: usize = 20_000;
const HEAD_BYTES: u64 = 64 * 1024;

/// Files never taken for logs: documents, code, images, databases.
const NOT_LOGS: &[&str] = &[
    "md",
    "ipynb",
    "qmd",
    "rmd",
    "toml",
    "sqlite",
    "sqlite-wal",
    "sqlite-shm",
    "db",
    "svg",
    "png",
    "jpg",
    "jpeg",
    "gif",
    "pdf",
    "py",
    "rs",
    "sh",
    "js",
    "ts",
    "html",
    "css",
    "lock",
    "j2",
    "jinja",
];

/// Folders never walked: tools' caches and build output.
const NOT_WALKED: &[&str] = &["target", "node_modules", "templates", "__pycache__", "venv"];

/// One proposed `[[source]]`: its path template, and the logs it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Source {
    pub(super) template: String,
    pub(super) files: usize,
    /// What `{series}` captures (empty without one).
    pub(super) names: Vec<String>,
    pub(super) dated: bool,
}

/// The logs under `root` (relative paths, sorted), skipping hidden
/// folders, symlinks and `skip` (the database's folder).
pub(super) fn logs(root: &Path, skip: Option<&Path>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut seen = 0usize;
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(root.join(&rel)) else { continue };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(kind) = e.file_type() else { continue };
            let path = rel.join(&name);
            if name.starts_with('.') || kind.is_symlink() || Some(path.as_path()) == skip {
                continue;
            }
            if kind.is_dir() {
                if !NOT_WALKED.contains(&name.as_str()) {
                    stack.push(path);
                }
            } else if kind.is_file() && seen < MAX_FILES {
                seen += 1;
                if is_log(&root.join(&path)) {
                    out.push(path);
                }
            }
        }
    }
    out.sort();
    out
}

/// Whether a log format reads the file by its content.
fn is_log(path: &Path) -> bool {
    let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    if NOT_LOGS.contains(&ext.as_str()) {
        return false;
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(HEAD_BYTES).read_to_end(&mut head));
    read.is_ok() && Format::detect(path, &head).is_ok()
}

/// Whether a folder's name is a date `{date}` reads (`2026-11-29`).
fn is_date(segment: &str) -> bool {
    chrono::NaiveDate::parse_from_str(segment, "%Y-%m-%d").is_ok()
}

/// The `[[source]]` templates of the logs, `series` the param a file name
/// captures.
pub(super) fn sources(logs: &[PathBuf], series: &str) -> Vec<Source> {
    // (folder with dates as `{date}`, extension) → file stems.
    let mut groups: BTreeMap<(String, String), (Vec<String>, bool)> = BTreeMap::new();
    for log in logs {
        let folder: Vec<String> = log
            .parent()
            .into_iter()
            .flat_map(Path::components)
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let dated = folder.iter().any(|s| is_date(s));
        let folder: Vec<String> =
            folder.into_iter().map(|s| if is_date(&s) { "{date}".to_string() } else { s }).collect();
        let stem = log.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let ext = log.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
        let group = groups.entry((folder.join("/"), ext)).or_default();
        group.0.push(stem);
        group.1 |= dated;
    }
    groups
        .into_iter()
        .map(|((folder, ext), (stems, dated))| {
            let distinct: BTreeSet<String> = stems.iter().cloned().collect();
            // A file name with a template's own characters is kept as a
            // wildcard rather than misread as a capture.
            let literal = |s: &str| !s.contains(['{', '}', '*', '?', '[', ']']);
            // Names that differ are the series only in a sweep's folder
            // (one file per configuration under a date); elsewhere they
            // are as often what each file measures (`latency-…`,
            // `throughput-…`), and a wildcard names them all.
            let (file, names) = match distinct.iter().next() {
                Some(one) if distinct.len() == 1 && literal(one) => (one.clone(), Vec::new()),
                _ if dated && distinct.iter().all(|s| literal(s)) => {
                    (format!("{{{series}}}"), distinct.into_iter().collect())
                }
                _ => ("*".to_string(), Vec::new()),
            };
            let file = if ext.is_empty() { file } else { format!("{file}.{ext}") };
            let template = if folder.is_empty() { file } else { format!("{folder}/{file}") };
            Source { template, files: stems.len(), names, dated }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dated_folders_and_differing_names_become_captures() {
        let logs: Vec<PathBuf> = [
            "notebooks/logs/2026-11-20/baseline.log",
            "notebooks/logs/2026-11-20/eagle.log",
            "notebooks/logs/2026-11-29/baseline.jsonl",
            "notebooks/logs/2026-11-29/eagle.jsonl",
            "results/summary.json",
            "kinds/latency.json",
            "kinds/throughput.json",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let found = sources(&logs, "config");
        let templates: Vec<&str> = found.iter().map(|s| s.template.as_str()).collect();
        assert_eq!(
            templates,
            [
                "kinds/*.json",
                "notebooks/logs/{date}/{config}.jsonl",
                "notebooks/logs/{date}/{config}.log",
                "results/summary.json"
            ]
        );
        assert_eq!(found[1].names, ["baseline", "eagle"]);
        assert!(found[0].names.is_empty() && found[1].dated && !found[3].dated);
        assert!(is_date("2026-11-29") && !is_date("2026-13-01") && !is_date("v2"));
    }
}
