//! A throwaway project folder and the real `reckon` binary, for end-to-end
//! tests: write files, run a command, look at status, stdout and stderr.
#![allow(clippy::default_trait_access, clippy::needless_pass_by_value)] // floor-plan debt (issue 7): fix these and delete this line
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub(crate) struct Sandbox {
    pub dir: tempfile::TempDir,
}

pub(crate) struct Ran {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    fn from(out: Output) -> Ran {
        Ran {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl std::fmt::Debug for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit {}\n--- stdout\n{}--- stderr\n{}", self.code, self.stdout, self.stderr)
    }
}

pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

impl Sandbox {
    pub(crate) fn new() -> Sandbox {
        Sandbox { dir: tempfile::tempdir().unwrap() }
    }

    /// A sandbox holding the scenario's logs under `logs/`.
    pub(crate) fn with_scenario() -> Sandbox {
        let s = Sandbox::new();
        copy_dir(&fixtures().join("scenario-logs"), &s.path().join("logs"));
        s
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
        p
    }

    pub(crate) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path().join(rel)).unwrap()
    }

    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_reckon"));
        c.args(args).current_dir(self.path()).env("NO_COLOR", "1").env_remove("CLICOLOR_FORCE");
        c
    }

    pub(crate) fn run(&self, args: &[&str]) -> Ran {
        Ran::from(self.command(args).output().unwrap())
    }

    /// Runs and asserts the exit code, returning the output.
    pub(crate) fn ok(&self, args: &[&str]) -> Ran {
        let r = self.run(args);
        assert_eq!(r.code, 0, "reckon {args:?}\n{r:?}");
        r
    }

    pub(crate) fn db(&self) -> PathBuf {
        self.path().join("db/reckon.sqlite")
    }

    /// (sources, runs, measurements) in the sandbox's database.
    pub(crate) fn counts(&self) -> (i64, i64, i64) {
        let c = rusqlite::Connection::open(self.db()).unwrap();
        let n = |t: &str| c.query_row(&format!("SELECT count(*) FROM {t}"), [], |r| r.get(0)).unwrap();
        (n("source"), n("run"), n("measurement"))
    }
}

/// The repository's root (where reckon.toml and notebooks/ of the bundled
/// example live).
pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// An in-memory store holding the scenario's logs: `sweeps` names the log
/// extensions to ingest — `log` is the 2026-11-20 sweep (stdout summaries),
/// `jsonl` the 2026-11-29 one (`SGLang` JSONL) — with `{date}` and `{config}`
/// captured from the path as reckon.toml's sources do.
pub(crate) fn scenario_store(sweeps: &[&str]) -> reckon::store::Store {
    let mut store = reckon::store::Store::open_in_memory().unwrap();
    let requests: Vec<reckon::ingest::Request> = sweeps
        .iter()
        .map(|ext| reckon::ingest::Request {
            path: format!("scenario-logs/{{date}}/{{config}}.{ext}"),
            format: None,
            labels: Default::default(),
            optional: false,
        })
        .collect();
    let opts = reckon::ingest::Options { fail_fast: true, ..Default::default() };
    let mut batch = reckon::store::Batch::new("test".into(), None);
    let report = reckon::ingest::ingest(&mut store, &fixtures(), &requests, &opts, &mut batch, &mut |_, _, _| {});
    assert_eq!(report.failed(), 0, "the scenario logs ingest");
    store
}
