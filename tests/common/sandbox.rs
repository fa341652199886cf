//! A throwaway project folder and what one run of `reckon` in it gave.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::rc::Rc;

use super::{copy_dir, fixtures, repo, scenario_logs, Test};

/// A project folder that lives as long as the last handle on it: a
/// [`Test`] holds one, so a builder can outlive the line that made it.
#[derive(Clone)]
pub(crate) struct Sandbox {
    dir: Rc<tempfile::TempDir>,
}

/// What a command gave: its exit code (-1 for a signal) and its output.
pub(crate) struct Ran {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Ran {
    pub(crate) fn from(out: &Output) -> Ran {
        Ran {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Standard output read as JSON; a test fails here if it is not JSON.
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{self:?}"))
    }
}

impl std::fmt::Debug for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit {}\n--- stdout\n{}--- stderr\n{}", self.code, self.stdout, self.stderr)
    }
}

/// The files of the bundled example besides its logs: reckon.toml, the plan
/// as last regenerated after the 2026-11-20 sweep, and the plan's plot.
pub(crate) const EXAMPLE_FILES: [&str; 3] =
    ["reckon.toml", "notebooks/eagle-fast-verify.md", "notebooks/eagle-fast-verify-throughput.svg"];

impl Sandbox {
    pub(crate) fn new() -> Sandbox {
        Sandbox { dir: Rc::new(tempfile::tempdir().unwrap()) }
    }

    /// A sandbox holding the scenario's logs under `logs/`.
    pub(crate) fn with_scenario() -> Sandbox {
        let s = Sandbox::new();
        copy_dir(&scenario_logs(), &s.path().join("logs"));
        s
    }

    /// The bundled example (see [`EXAMPLE_FILES`]) under `prefix` (`""` for
    /// the sandbox's root), with the logs of the given `sweeps` (folder
    /// names such as `2026-11-20`) in `notebooks/logs/`.
    pub(crate) fn example(prefix: &str, sweeps: &[&str]) -> Sandbox {
        let s = Sandbox::new();
        s.add_example(prefix, sweeps);
        s
    }

    /// Copies the bundled example into this sandbox (see [`Sandbox::example`]).
    pub(crate) fn add_example(&self, prefix: &str, sweeps: &[&str]) -> &Self {
        let root = self.path().join(prefix);
        for f in EXAMPLE_FILES {
            write_at(&root.join(f), std::fs::read(repo().join(f)).unwrap());
        }
        for sweep in sweeps {
            self.add_sweep(prefix, sweep);
        }
        self
    }

    /// Copies one sweep of the scenario's logs into `prefix/notebooks/logs/`.
    pub(crate) fn add_sweep(&self, prefix: &str, sweep: &str) -> &Self {
        let to = self.path().join(prefix).join("notebooks/logs").join(sweep);
        copy_dir(&scenario_logs().join(sweep), &to);
        self
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `content` to `rel`, creating its folders.
    pub(crate) fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path().join(rel);
        write_at(&p, content);
        p
    }

    /// Copies the fixture `from` (a file or a folder under tests/fixtures)
    /// to `to` in the sandbox.
    pub(crate) fn fixture(&self, from: &str, to: &str) -> &Self {
        let from = fixtures().join(from);
        if from.is_dir() {
            copy_dir(&from, &self.path().join(to));
        } else {
            self.write(to, std::fs::read(&from).unwrap_or_else(|e| panic!("{}: {e}", from.display())));
        }
        self
    }

    pub(crate) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path().join(rel)).unwrap()
    }

    /// The real binary, in the sandbox, without colour whatever the
    /// terminal or CI says, and with nothing of the runner's CI (see
    /// [`super::RUNNER_ENV`]).
    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_reckon"));
        c.args(args).current_dir(self.path());
        // A test run inside a GitHub Actions step must not write to its job summary.
        super::isolated(&mut c);
        c
    }

    /// A builder for one run of reckon in this sandbox.
    pub(crate) fn test(&self) -> Test {
        Test::in_sandbox(self.clone())
    }

    /// Runs reckon, whatever its exit code.
    pub(crate) fn run(&self, args: &[&str]) -> Ran {
        Ran::from(&self.command(args).output().unwrap())
    }

    /// Runs and asserts the exit code 0, returning the output.
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

/// Writes `content` to `p`, creating its folders.
fn write_at(p: &Path, content: impl AsRef<[u8]>) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, content).unwrap();
}
