//! What `reckon watch` watches and which file events matter: the folder
//! each `[[source]]` template starts from (recursively; the nearest folder
//! that exists while it does not, until it appears), and the folder of each
//! document (for the document alone: editors save by renaming).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use notify_debouncer_mini::notify::{RecursiveMode, Watcher};

use crate::config::Config;
use crate::ingest::template::PathTemplate;
use crate::{Error, Result};

/// What one batch of file events asks for.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Touched {
    /// A log (or a folder on the way to one) appeared, changed or went.
    pub(super) logs: bool,
    /// The documents that changed on disk (absolute).
    pub(super) docs: BTreeSet<PathBuf>,
}

/// The folders being watched and what they are watched for.
pub(super) struct Watches {
    /// The folder each source's template starts from (absolute).
    roots: Vec<PathBuf>,
    /// The database and its journals live beside the logs sometimes: their
    /// writes are reckon's own, not news.
    database: PathBuf,
    watched: BTreeSet<(PathBuf, bool)>,
}

impl Watches {
    pub(super) fn new(cfg: &Config) -> Watches {
        let mut roots: Vec<PathBuf> = Vec::new();
        for root in cfg.sources.iter().map(|s| cfg.root.join(template_root(&s.path))) {
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
        Watches { roots, database: cfg.database.clone(), watched: BTreeSet::new() }
    }

    /// The folders logs are looked for under, for the initial state line.
    pub(super) fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Watches what should be watched now (a source folder that appeared
    /// since is watched whole from now on), and nothing else.
    pub(super) fn refresh(&mut self, watcher: &mut dyn Watcher, docs: &[PathBuf]) -> Result<()> {
        let mut wanted: BTreeSet<(PathBuf, bool)> = BTreeSet::new();
        for root in &self.roots {
            match nearest_existing(root) {
                Some(dir) if dir == *root => wanted.insert((dir, true)),
                Some(dir) => wanted.insert((dir, false)),
                None => false,
            };
        }
        for doc in docs {
            if let Some(dir) = doc.parent().and_then(nearest_existing) {
                wanted.insert((dir, false));
            }
        }
        let wanted = pruned(wanted);
        for (dir, _) in self.watched.difference(&wanted) {
            // A folder deleted meanwhile is no longer watched anyway.
            let _ = watcher.unwatch(dir);
        }
        for (dir, recursive) in wanted.difference(&self.watched) {
            let mode = if *recursive { RecursiveMode::Recursive } else { RecursiveMode::NonRecursive };
            watcher.watch(dir, mode).map_err(|e| Error::io(dir, std::io::Error::other(e.to_string())))?;
        }
        self.watched = wanted;
        Ok(())
    }

    /// What the events on `paths` ask for, given the documents (absolute).
    pub(super) fn touched(&self, paths: &[PathBuf], docs: &[PathBuf]) -> Touched {
        let mut touched = Touched::default();
        let db_name = self.database.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        for path in paths {
            if docs.contains(path) {
                touched.docs.insert(path.clone());
                continue;
            }
            let ours = path.parent() == self.database.parent()
                && path.file_name().is_some_and(|n| n.to_string_lossy().starts_with(&db_name));
            if ours {
                continue;
            }
            // Under a source's folder, or a folder on the way to one being made.
            if self.roots.iter().any(|r| path.starts_with(r) || r.starts_with(path)) {
                touched.logs = true;
            }
        }
        touched
    }
}

/// The folder a source's path starts from: its folders before the first
/// one with a capture or a wildcard (a plain path: its folder).
fn template_root(path: &str) -> PathBuf {
    let parts: Vec<&str> = path.split('/').collect();
    let literal = parts.iter().take(parts.len().saturating_sub(1)).take_while(|p| !PathTemplate::is_pattern(p));
    let root: PathBuf = literal.collect();
    if path.starts_with('/') {
        Path::new("/").join(root)
    } else {
        root
    }
}

/// The folders to watch without those a recursive watch already covers.
fn pruned(wanted: BTreeSet<(PathBuf, bool)>) -> BTreeSet<(PathBuf, bool)> {
    let recursive: Vec<PathBuf> = wanted.iter().filter(|(_, r)| *r).map(|(d, _)| d.clone()).collect();
    wanted.into_iter().filter(|(d, r)| !recursive.iter().any(|top| d.starts_with(top) && (top != d || !r))).collect()
}

/// `dir` or its nearest folder that exists.
fn nearest_existing(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find(|d| d.is_dir()).map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_starts_from_its_folders_before_the_first_pattern() {
        assert_eq!(template_root("notebooks/logs/{date}/{config}.jsonl"), Path::new("notebooks/logs"));
        assert_eq!(template_root("logs/**/*.json"), Path::new("logs"));
        assert_eq!(template_root("logs/run-1.jsonl"), Path::new("logs"));
        assert_eq!(template_root("*.jsonl"), Path::new(""));
        assert_eq!(template_root("/data/bench/{x}.json"), Path::new("/data/bench"));
    }

    #[test]
    fn a_folder_a_recursive_watch_covers_is_not_watched_again() {
        let set = |items: &[(&str, bool)]| items.iter().map(|(d, r)| (PathBuf::from(d), *r)).collect();
        let wanted =
            set(&[("/p/logs", true), ("/p/logs/a", true), ("/p/logs", false), ("/p/notes", false), ("/p", false)]);
        assert_eq!(pruned(wanted), set(&[("/p/logs", true), ("/p/notes", false), ("/p", false)]));
    }

    #[test]
    fn logs_documents_and_the_database_are_told_apart() {
        let root = Path::new("/p");
        let w = Watches {
            roots: vec![root.join("logs")],
            database: root.join("logs/reckon.sqlite"),
            watched: BTreeSet::new(),
        };
        let docs = [root.join("notes/plan.md")];
        let t = |paths: &[&str]| w.touched(&paths.iter().map(PathBuf::from).collect::<Vec<_>>(), &docs);
        assert_eq!(t(&["/p/logs/2026-11-29/a.jsonl"]), Touched { logs: true, ..Touched::default() });
        assert_eq!(t(&["/p/logs/reckon.sqlite-wal", "/p/logs/reckon.sqlite"]), Touched::default());
        assert_eq!(t(&["/p/notes/plan.md"]).docs.len(), 1);
        // An editor's backup beside the document, a plot reckon drew: not news.
        assert_eq!(t(&["/p/notes/plan.md~", "/p/notes/plan-tps.svg"]), Touched::default());
        // The logs folder itself being made.
        assert!(t(&["/p"]).logs);
    }
}
