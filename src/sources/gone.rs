//! The stored sources a command's requests no longer find: gone files, and
//! logs under a `[[source]]`'s folder that no source matches any more.

use std::path::{Path, PathBuf};

use super::examine::Stored;
use super::{display_path, Request};
use crate::ingest::PathTemplate;

/// The stored paths the requests cover that no longer hold a file of
/// theirs: for a template or glob, stored paths it matches that are not
/// among the files it matches now; for an explicit path, the path itself
/// when the file is gone. With `every_missing`, also the stored paths no
/// request found whose file is gone. Only the stored paths no job has
/// (`Stored::not_found`) can be any of these.
pub(super) fn gone_paths(
    stored: &Stored,
    root: &Path,
    requests: &[Request],
    templates: &[Option<PathTemplate>],
    every_missing: bool,
) -> Vec<String> {
    if stored.is_empty() {
        return Vec::new();
    }
    let mut gone = Vec::new();
    for (req, template) in requests.iter().zip(templates) {
        if PathTemplate::is_pattern(&req.path) {
            let Some(template) = template else { continue };
            // Matched by the template's text but not among the files it
            // finds now: deleted, or no longer a file; a fresh ingest would
            // not read it either.
            gone.extend(stored.not_found().filter(|s| template.matches_stored(root, s)).cloned());
        } else {
            let abs = if Path::new(&req.path).is_absolute() { PathBuf::from(&req.path) } else { root.join(&req.path) };
            let shown = display_path(root, &abs).to_string_lossy().into_owned();
            if stored.contains(&shown) && !abs.exists() {
                gone.push(shown);
            }
        }
    }
    if every_missing {
        // A file a request found was just looked at: only the others are.
        gone.extend(stored.not_found().filter(|s| !root.join(s).exists()).cloned());
    }
    gone.sort();
    gone.dedup();
    gone
}

/// The stored paths, not already `gone`, that lie under the literal folder
/// of a `[[source]]` template (`bench-results/` of
/// `bench-results/{date}/**/new/sample.json`) but that no template matches:
/// logs a narrowed glob left out. A template without a literal folder
/// claims no such paths (every log named on the command line would be one).
/// A stored path a job has is none of these: the template that found it
/// matches it, or it is a source's plain path.
pub(super) fn unmatched_paths(
    stored: &Stored,
    root: &Path,
    requests: &[Request],
    templates: &[Option<PathTemplate>],
    gone: &[String],
) -> Vec<String> {
    // A source that is a plain path matches that one file.
    let plain: std::collections::HashSet<String> = requests
        .iter()
        .filter(|r| !PathTemplate::is_pattern(&r.path))
        .map(|r| display_path(root, &root.join(&r.path)).to_string_lossy().into_owned())
        .collect();
    let templates: Vec<&PathTemplate> = templates.iter().flatten().collect();
    let folders: Vec<String> = templates.iter().filter_map(|t| literal_folder(t.text())).collect();
    if folders.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<String> = stored
        .not_found()
        .filter(|s| !Path::new(s.as_str()).is_absolute() && !gone.contains(s) && !plain.contains(s.as_str()))
        .filter(|s| folders.iter().any(|f| s.strip_prefix(f.as_str()).is_some_and(|rest| rest.starts_with('/'))))
        .filter(|s| templates.iter().all(|t| !t.matches_stored(root, s)))
        .cloned()
        .collect();
    out.sort();
    out
}

/// A template's folders before the first one with a capture or a wildcard
/// (`bench-results` of `bench-results/{date}/x.json`), when it has any.
fn literal_folder(text: &str) -> Option<String> {
    let parts: Vec<&str> = text.split('/').collect();
    let literal: Vec<&str> = parts
        .iter()
        .take(parts.len().saturating_sub(1))
        .take_while(|p| !PathTemplate::is_pattern(p))
        .copied()
        .collect();
    let folder = literal.join("/");
    let folder = folder.trim_start_matches("./");
    (!folder.is_empty() && !folder.starts_with('/') && folder != ".").then(|| folder.to_owned())
}
