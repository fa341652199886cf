//! What git says about the logs of one command — HEAD, which files differ
//! from their last commit, and each file's commit time — asked with a fixed
//! number of git processes per command (never one per file), and only when
//! some file's run time needs it.

use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The git state the run times of one command are decided against.
#[derive(Debug)]
pub struct GitView {
    /// The folder paths are relative to (the project root).
    root: PathBuf,
    /// Judge the staged content (the index) instead of the working tree.
    staged: bool,
    /// Pathspecs that cover every log of the command, for the time walk.
    pathspecs: Vec<String>,
    head: OnceCell<Option<String>>,
    dirty: OnceCell<Option<HashSet<String>>>,
    times: OnceCell<HashMap<String, i64>>,
    /// The history walk, once started in the background (`start_walk`).
    walk: RefCell<Option<std::thread::JoinHandle<HashMap<String, i64>>>>,
}

impl GitView {
    /// `root` is the folder paths are relative to; `staged` judges the
    /// index instead of the working tree (a pre-commit hook); `patterns` are
    /// the command's globs relative to `root` (`*`, `**`, `?`), used to
    /// limit the history walk to the logs.
    pub fn new(root: &Path, staged: bool, patterns: Vec<String>) -> GitView {
        let pathspecs = patterns
            .into_iter()
            .map(|p| if p.contains(['*', '?', '[']) { format!(":(glob){p}") } else { format!(":(literal){p}") })
            .collect();
        GitView {
            root: root.to_path_buf(),
            staged,
            pathspecs,
            head: OnceCell::new(),
            dirty: OnceCell::new(),
            times: OnceCell::new(),
            walk: RefCell::new(None),
        }
    }

    fn git(&self) -> Command {
        let mut c = Command::new("git");
        c.arg("-C").arg(&self.root).env_remove("GIT_DIR").env_remove("GIT_WORK_TREE").env_remove("GIT_INDEX_FILE");
        c
    }

    /// The commit checked out, if `root` is in a git repository with one.
    /// Outside any repository git is not started (a process costs
    /// milliseconds, looking for one a few `stat`s).
    pub fn head(&self) -> Option<&str> {
        self.head
            .get_or_init(|| {
                if !may_be_in_repository(&self.root) {
                    return None;
                }
                let out = self.git().args(["rev-parse", "--verify", "-q", "HEAD"]).output().ok()?;
                out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
            })
            .as_deref()
    }

    /// Whether the file's content (working tree, or index when staged)
    /// differs from its last commit: then the commit's time is not its time.
    /// `rel` is relative to the root, `/`-separated.
    pub fn differs_from_head(&self, rel: &str) -> bool {
        let dirty = self.dirty.get_or_init(|| {
            self.head()?;
            let mut c = self.git();
            c.args(["diff", "--name-only", "-z", "--relative", "--no-renames"]);
            if self.staged {
                c.arg("--cached");
            }
            let out = c.arg("HEAD").arg("--").output().ok()?;
            out.status.success().then(|| split_z(&out.stdout).map(str::to_string).collect())
        });
        dirty.as_ref().is_some_and(|d| d.contains(rel))
    }

    /// Starts the walk [`GitView::commit_time`] reads on a thread of its
    /// own, if it has not started: the walk of a long history takes a
    /// process a good part of a second, which files are read and parsed
    /// in meanwhile.
    pub fn start_walk(&self) {
        if self.times.get().is_some() || self.walk.borrow().is_some() || self.head().is_none() {
            return;
        }
        let mut log = self.log();
        *self.walk.borrow_mut() = Some(std::thread::spawn(move || walk(&mut log)));
    }

    /// The time (seconds since the epoch) of the last commit that touched
    /// the file: one walk of the history of the command's logs, newest
    /// first, the first time each path is seen.
    pub fn commit_time(&self, rel: &str) -> Option<i64> {
        let times = self.times.get_or_init(|| {
            if let Some(started) = self.walk.borrow_mut().take() {
                return started.join().unwrap_or_default();
            }
            if self.head().is_none() {
                return HashMap::new();
            }
            walk(&mut self.log())
        });
        times.get(rel).copied()
    }

    /// The history walk: each commit's time and the logs it touched.
    fn log(&self) -> Command {
        let mut c = self.git();
        c.args(["-c", "core.quotePath=false", "log", "--format=%x01%ct", "--name-only", "-z", "--relative"])
            .arg("HEAD")
            .arg("--")
            .args(&self.pathspecs);
        c
    }
}

/// Runs the history walk: for each path, the time of the newest commit
/// that touched it.
fn walk(log: &mut Command) -> HashMap<String, i64> {
    let mut times = HashMap::new();
    let Ok(out) = log.output() else { return times };
    if !out.status.success() {
        return times;
    }
    let mut current: Option<i64> = None;
    for field in split_z(&out.stdout) {
        // A commit's line is "\x01<time>" (after the previous commit's file
        // list, a newline may precede it).
        let field = field.trim_start_matches('\n');
        if let Some(t) = field.strip_prefix('\u{1}') {
            let (t, first_file) = t.split_once('\n').unwrap_or((t, ""));
            current = t.trim().parse().ok();
            if !first_file.is_empty() {
                if let Some(t) = current {
                    times.entry(first_file.to_string()).or_insert(t);
                }
            }
        } else if let Some(t) = current {
            if !field.is_empty() {
                times.entry(field.to_string()).or_insert(t);
            }
        }
    }
    times
}

/// Whether git could find a repository for `root`: it or a folder above
/// holds a `.git` (a folder, or the file of a linked worktree or
/// submodule), or is itself a bare repository (`HEAD`, `objects/` and
/// `refs/`). git looks for nothing else (`GIT_DIR` is not passed on), so
/// where none is found it has no HEAD to give. When the folder cannot be
/// resolved, git is asked.
fn may_be_in_repository(root: &Path) -> bool {
    let Ok(folder) = root.canonicalize() else { return true };
    folder.ancestors().any(|d| {
        d.join(".git").exists() || (d.join("HEAD").is_file() && d.join("objects").is_dir() && d.join("refs").is_dir())
    })
}

fn split_z(bytes: &[u8]) -> impl Iterator<Item = &str> {
    bytes.split(|b| *b == 0).filter_map(|s| std::str::from_utf8(s).ok()).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git").arg("-C").arg(dir).args(args).output().unwrap();
        assert!(ok.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&ok.stderr));
    }

    #[test]
    fn commit_times_and_changed_files_come_from_one_walk() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        git(d, &["init", "-q"]);
        git(d, &["config", "user.name", "t"]);
        git(d, &["config", "user.email", "t@example.com"]);
        std::fs::create_dir_all(d.join("logs/a b")).unwrap();
        std::fs::write(d.join("logs/a b/x.jsonl"), "1").unwrap();
        std::fs::write(d.join("logs/y.jsonl"), "1").unwrap();
        git(d, &["add", "."]);
        let env = [("GIT_COMMITTER_DATE", "2026-11-20T10:00:00Z"), ("GIT_AUTHOR_DATE", "2026-11-20T10:00:00Z")];
        let commit = |msg: &str, env: &[(&str, &str)]| {
            let ok = Command::new("git")
                .arg("-C")
                .arg(d)
                .args(["commit", "-q", "-m", msg])
                .envs(env.iter().copied())
                .output()
                .unwrap();
            assert!(ok.status.success());
        };
        commit("one", &env);
        std::fs::write(d.join("logs/y.jsonl"), "2").unwrap();
        git(d, &["add", "."]);
        commit("two", &[("GIT_COMMITTER_DATE", "2026-11-29T10:00:00Z"), ("GIT_AUTHOR_DATE", "2026-11-29T10:00:00Z")]);
        std::fs::write(d.join("logs/y.jsonl"), "3").unwrap();
        std::fs::write(d.join("logs/new.jsonl"), "3").unwrap();

        let view = GitView::new(d, false, vec!["logs/**/*.jsonl".into()]);
        assert_eq!(view.commit_time("logs/a b/x.jsonl"), Some(1_795_168_800));
        assert_eq!(view.commit_time("logs/y.jsonl"), Some(1_795_946_400));
        assert_eq!(view.commit_time("logs/new.jsonl"), None);
        assert!(view.differs_from_head("logs/y.jsonl"));
        assert!(!view.differs_from_head("logs/a b/x.jsonl"));
        assert!(view.head().is_some());
        // Staged: only what is in the index counts.
        let staged = GitView::new(d, true, vec![]);
        assert!(!staged.differs_from_head("logs/y.jsonl"));
        git(d, &["add", "logs/y.jsonl"]);
        let staged = GitView::new(d, true, vec![]);
        assert!(staged.differs_from_head("logs/y.jsonl"));

        let outside = tempfile::tempdir().unwrap();
        let none = GitView::new(outside.path(), false, vec![]);
        assert!(none.head().is_none());
        assert_eq!(none.commit_time("x"), None);
        assert!(!none.differs_from_head("x"));
    }
}
