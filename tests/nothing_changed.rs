//! The "nothing changed" test every `check` runs on the sources of
//! reckon.toml: one `stat` per file against what the store recorded, no
//! query per file, no git process unless a time comes from git. It must
//! miss no change: after each kind of change below, the database holds
//! exactly what a database built from nothing out of the same files holds.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use common::{Git, Ran, Sandbox};

const TOML: &str = "database = \"db/reckon.sqlite\"
documents = [\"plan.md\"]

[[source]]
path = \"results/{date}/{kernel}.csv\"

[[source]]
path = \"committed/*.csv\"
";

fn set_mtime(path: &Path, t: SystemTime) {
    std::fs::File::options().write(true).open(path).unwrap().set_modified(t).unwrap();
}

fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

/// A kernel's results as a CSV whose size does not depend on the figure.
fn results(tflops: u32) -> String {
    format!("m,tflops\n1024,{tflops:06}\n2048,{:06}\n", tflops + 1)
}

/// Every run with its values, time and labels, without the ids that number
/// rows in the order they were written.
fn content(db: &Path) -> Vec<String> {
    let c = rusqlite::Connection::open(db).unwrap();
    let mut stmt = c
        .prepare(
            "SELECT s.path, s.labels, r.line, r.time, r.time_origin, r.sweep, p.params, m.name, v.value
             FROM run r JOIN source s ON s.id = r.source_id JOIN param_set p ON p.id = r.param_set_id
             JOIN measurement v ON v.run_id = r.id JOIN metric m ON m.id = v.metric_id
             ORDER BY s.path, r.line, m.name",
        )
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            Ok(format!(
                "{} {} {} {} {} {} {} {}={}",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, String>(7)?,
                r.get::<_, f64>(8)?
            ))
        })
        .unwrap();
    rows.map(Result::unwrap).collect()
}

/// What the store recorded of each source, `checked_ns` (when it was last
/// read or hashed) among it.
fn records(db: &Path) -> Vec<String> {
    let c = rusqlite::Connection::open(db).unwrap();
    let mut stmt = c
        .prepare("SELECT path, hash, size, mtime_ns, ctime_ns, inode, checked_ns, time FROM source ORDER BY path")
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            Ok(format!(
                "{} {} {} {:?} {:?} {:?} {:?} {:?}",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, Option<i64>>(3)?,
                r.get::<_, Option<i64>>(4)?,
                r.get::<_, Option<i64>>(5)?,
                r.get::<_, Option<i64>>(6)?,
                r.get::<_, Option<String>>(7)?
            ))
        })
        .unwrap();
    rows.map(Result::unwrap).collect()
}

/// A project in git whose reckon.toml names a `{date}` template (the time
/// comes from the path) and a plain glob (the time comes from git), with
/// `git` on PATH replaced by a script that logs each call, then runs git.
struct Project {
    s: Sandbox,
    git: Git,
    bin: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let s = Sandbox::new();
        let git = Git::init(&s);
        s.write("reckon.toml", TOML);
        s.write(".gitignore", "db/\nfresh.sqlite*\n");
        s.write("plan.md", "# Kernels\n\nWhere the GEMM time goes.\n");
        s.write("results/2026-11-20/gemm.csv", results(180));
        s.write("results/2026-11-20/conv.csv", results(90));
        s.write("committed/attn.csv", results(60));
        let project = Project { s, git, bin: tempfile::tempdir().unwrap() };
        project.commit("2026-11-20T10:00:00Z");
        project.age();
        project.logging_git();
        project
    }

    /// Commits everything at a fixed date.
    fn commit(&self, date: &str) {
        self.git.ok(&["add", "."]);
        let out = self
            .git
            .command(&["commit", "-q", "-m", "results"])
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }

    /// Dates every log an hour back, so that none is "racily clean" and only
    /// a real change makes reckon read it again.
    fn age(&self) {
        let an_hour_ago = SystemTime::now() - Duration::from_secs(3600);
        for dir in ["results/2026-11-20", "committed"] {
            for e in std::fs::read_dir(self.s.path().join(dir)).unwrap() {
                set_mtime(&e.unwrap().path(), an_hour_ago);
            }
        }
    }

    /// A `git` first on PATH that appends its arguments to `git.log`.
    fn logging_git(&self) {
        let real = std::process::Command::new("sh").args(["-c", "command -v git"]).output().unwrap();
        let real = String::from_utf8(real.stdout).unwrap().trim().to_string();
        assert!(!real.is_empty(), "git is on PATH");
        let script = self.bin.path().join("git");
        let log = self.bin.path().join("git.log");
        std::fs::write(&script, format!("#!/bin/sh\necho \"$*\" >> '{}'\nexec '{real}' \"$@\"\n", log.display()))
            .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    /// The git calls logged since the last time this was asked.
    fn git_calls(&self) -> Vec<String> {
        let log = self.bin.path().join("git.log");
        let calls = std::fs::read_to_string(&log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        calls.lines().map(str::to_string).collect()
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.s.path().join(rel)
    }

    /// Runs reckon with the logging git first on PATH.
    fn reckon(&self, args: &[&str]) -> Ran {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let path =
            std::env::join_paths(std::iter::once(self.bin.path().to_path_buf()).chain(std::env::split_paths(&path)))
                .unwrap();
        let r = Ran::from(&self.s.command(args).env("PATH", path).output().unwrap());
        assert_eq!(r.code, 0, "reckon {args:?}\n{r:?}");
        r
    }

    /// `reckon check` (which first brings the database up to date with the
    /// logs), then the database compared with one built from nothing.
    fn check_like_fresh(&self, after: &str) {
        self.reckon(&["check"]);
        let fresh = self.s.path().join("fresh.sqlite");
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", fresh.display()));
        }
        self.reckon(&["--db", fresh.to_str().unwrap(), "ingest", "--quiet"]);
        let (kept, built) = (content(&self.s.db()), content(&fresh));
        assert!(!built.is_empty());
        assert_eq!(kept, built, "after {after}, the kept database differs from a fresh one");
    }
}

#[cfg(unix)]
#[test]
fn a_check_with_nothing_changed_reads_no_log_and_asks_git_only_about_git_times() {
    let p = Project::new();
    p.check_like_fresh("the first ingest");
    let _ = p.git_calls();
    let before = records(&p.s.db());

    p.reckon(&["check"]);
    assert_eq!(records(&p.s.db()), before, "an unchanged log is neither hashed nor recorded again");
    let calls = p.git_calls();
    // committed/*.csv takes its time from git: HEAD is read to know it did
    // not move, and nothing more is asked.
    assert_eq!(calls, ["-C ".to_string() + &p.s.path().display().to_string() + " rev-parse --verify -q HEAD"]);

    // Without a source whose time comes from git, git is not started.
    p.s.write("reckon.toml", TOML.replace("[[source]]\npath = \"committed/*.csv\"\n", ""));
    p.reckon(&["check"]);
    let _ = p.git_calls();
    let before = records(&p.s.db());
    p.reckon(&["check"]);
    assert_eq!(records(&p.s.db()), before);
    assert_eq!(p.git_calls(), Vec::<String>::new(), "no git process when no time comes from git");
}

#[cfg(unix)]
#[test]
fn the_unchanged_test_misses_no_change() {
    let p = Project::new();
    p.check_like_fresh("the first ingest");

    // A log written and rewritten within the same second as its ingest,
    // same size, its modification time put back.
    let fresh_log = p.path("results/2026-11-20/attn.csv");
    std::fs::write(&fresh_log, results(70)).unwrap();
    p.reckon(&["check"]);
    let written = mtime(&fresh_log);
    std::fs::write(&fresh_log, results(71)).unwrap();
    set_mtime(&fresh_log, written);
    p.check_like_fresh("a rewrite within the second of its ingest");

    // An old log rewritten in place, same size, its mtime put back.
    let gemm = p.path("results/2026-11-20/gemm.csv");
    let old = mtime(&gemm);
    std::fs::write(&gemm, results(181)).unwrap();
    set_mtime(&gemm, old);
    p.check_like_fresh("a same-size rewrite with its mtime put back");

    // An old log replaced by another file (a rename over it): same size and
    // mtime, another inode.
    let conv = p.path("results/2026-11-20/conv.csv");
    let old = mtime(&conv);
    let other = p.path("results/conv.tmp");
    std::fs::write(&other, results(91)).unwrap();
    set_mtime(&other, old);
    std::fs::rename(&other, &conv).unwrap();
    p.check_like_fresh("a log replaced by a rename");

    // A new log, and a deleted one.
    p.s.write("results/2026-11-21/gemm.csv", results(185));
    p.check_like_fresh("a new log");
    std::fs::remove_file(&gemm).unwrap();
    p.check_like_fresh("a deleted log");

    // A log ingested by hand, which no source of reckon.toml names, deleted.
    p.s.write("other/kernels.csv", results(300));
    p.reckon(&["ingest", "other/kernels.csv"]);
    assert!(content(&p.s.db()).iter().any(|r| r.starts_with("other/kernels.csv")));
    std::fs::remove_file(p.path("other/kernels.csv")).unwrap();
    p.check_like_fresh("a deleted log no source names");

    // A new commit changes a committed log's time without touching it.
    let attn = p.path("committed/attn.csv");
    let seen = std::fs::metadata(&attn).unwrap().modified().unwrap();
    let out = p
        .git
        .command(&["commit", "-q", "--amend", "-m", "results again"])
        .env("GIT_COMMITTER_DATE", "2026-11-25T10:00:00Z")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(mtime(&attn), seen, "the amend left the log as it was");
    p.check_like_fresh("a new commit");
    assert!(content(&p.s.db()).iter().any(|r| r.starts_with("committed/attn.csv") && r.contains("2026-11-25")));

    // The committed log edited, not committed: its time is its mtime.
    std::fs::write(&attn, results(61)).unwrap();
    p.check_like_fresh("an edit of a committed log");
    assert!(content(&p.s.db()).iter().any(|r| r.starts_with("committed/attn.csv") && r.contains(" mtime ")));
}

#[test]
fn a_log_named_twice_in_one_command_is_read_once_with_the_labels_of_its_first_mention() {
    let s = Sandbox::new();
    s.write("logs/gemm.csv", results(180));
    s.write("logs/conv.csv", results(90));
    for _ in 0..2 {
        let r = s.ok(&["ingest", "logs/{kernel}.csv", "logs/gemm.csv"]);
        assert!(
            r.stderr.contains(
                "logs/gemm.csv: already ingested; this command reads it more than once; \
                 the labels of its first mention, {\"kernel\":\"gemm\"}, are applied and not {}"
            ),
            "{r:?}"
        );
        assert_eq!(s.counts().0, 2, "two sources, gemm.csv once");
    }
    let gemm: Vec<String> = content(&s.db()).into_iter().filter(|r| r.starts_with("logs/gemm.csv")).collect();
    assert!(!gemm.is_empty() && gemm.iter().all(|r| r.contains("\"kernel\":\"gemm\"")), "{gemm:?}");
}
