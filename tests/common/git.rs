//! A git repository around a sandbox, for the tests of the pre-commit hook
//! and of `check --staged`: a fixed identity, no signing, and the reckon
//! under test first on PATH (the hook runs the `reckon` it finds there).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Ran, Sandbox};

pub(crate) struct Git {
    dir: PathBuf,
}

impl Git {
    /// `git init` in the sandbox's root.
    pub(crate) fn init(s: &Sandbox) -> Git {
        Git::init_at(s.path())
    }

    /// `git init` in `dir`.
    pub(crate) fn init_at(dir: &Path) -> Git {
        let git = Git { dir: dir.to_path_buf() };
        git.ok(&["init", "-q"]);
        git
    }

    /// git with the sandbox's identity, the reckon under test on PATH and
    /// nothing of the runner's CI or git (see [`super::RUNNER_ENV`]).
    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let bin = Path::new(env!("CARGO_BIN_EXE_reckon")).parent().unwrap().to_path_buf();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&path))).unwrap();
        let mut c = Command::new("git");
        // The hook's reckon inherits this environment: nothing of the runner's
        // CI (a test must not append to the real job summary).
        super::isolated(&mut c);
        c.arg("-C").arg(&self.dir).args(["-c", "commit.gpgsign=false"]).args(args).env("PATH", path);
        for (k, v) in [
            ("GIT_AUTHOR_NAME", "Researcher"),
            ("GIT_AUTHOR_EMAIL", "researcher@example.com"),
            ("GIT_COMMITTER_NAME", "Researcher"),
            ("GIT_COMMITTER_EMAIL", "researcher@example.com"),
        ] {
            c.env(k, v);
        }
        c
    }

    /// Runs git, whatever its exit code.
    pub(crate) fn run(&self, args: &[&str]) -> Ran {
        Ran::from(&self.command(args).output().unwrap())
    }

    /// Runs git and asserts it succeeded.
    pub(crate) fn ok(&self, args: &[&str]) -> Ran {
        let r = self.run(args);
        assert_eq!(r.code, 0, "git {args:?}\n{r:?}");
        r
    }

    /// Commits what is staged (the hook runs), whatever the outcome.
    pub(crate) fn commit(&self, msg: &str) -> Ran {
        self.run(&["commit", "-q", "-m", msg])
    }

    /// How many commits HEAD has (0 before the first).
    pub(crate) fn commits(&self) -> usize {
        self.run(&["rev-list", "--count", "HEAD"]).stdout.trim().parse().unwrap_or(0)
    }
}
