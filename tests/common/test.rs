//! One run of the real `reckon` binary, described the way just's tests
//! describe theirs: the project's files, the arguments, and what must come
//! out (status, stdout, stderr). `run` asserts all of it and hands back the
//! output for whatever else a test wants to look at.

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::{Ran, Sandbox};

/// What a stream must show: the whole text, or parts it must (not) hold.
#[derive(Default)]
struct Expect {
    exact: Option<String>,
    has: Vec<String>,
    lacks: Vec<String>,
}

impl Expect {
    /// What is wrong with `got`, one line per failed expectation.
    fn failures(&self, stream: &str, got: &str) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(want) = &self.exact {
            if want != got {
                out.push(format!("{stream} is not exactly:\n{want}"));
            }
        }
        for part in self.has.iter().filter(|p| !got.contains(p.as_str())) {
            out.push(format!("{stream} lacks `{part}`"));
        }
        for part in self.lacks.iter().filter(|p| got.contains(p.as_str())) {
            out.push(format!("{stream} holds `{part}`, which it must not"));
        }
        out
    }
}

/// A run of reckon to make in a [`Sandbox`], and what it must give. The exit
/// status must be 0 unless [`Test::status`] says otherwise, and a panic
/// (exit 101) fails every test whatever its expected status.
#[must_use = "a Test does nothing until `run`"]
pub(crate) struct Test {
    sandbox: Sandbox,
    args: Vec<String>,
    dir: Option<String>,
    status: i32,
    stdout: Expect,
    stderr: Expect,
    limit: Option<Duration>,
}

impl Test {
    /// A run in a new, empty project.
    pub(crate) fn new() -> Test {
        Test::in_sandbox(Sandbox::new())
    }

    /// A run in `sandbox` (what [`Sandbox::test`] gives).
    pub(crate) fn in_sandbox(sandbox: Sandbox) -> Test {
        Test {
            sandbox,
            args: Vec::new(),
            dir: None,
            status: 0,
            stdout: Expect::default(),
            stderr: Expect::default(),
            limit: None,
        }
    }

    /// The project the command runs in, to read or change around a run.
    pub(crate) fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// Writes a file of the project now, creating its folders.
    pub(crate) fn file(self, rel: &str, content: impl AsRef<[u8]>) -> Test {
        self.sandbox.write(rel, content);
        self
    }

    /// Copies a fixture (file or folder under tests/fixtures) into the project.
    pub(crate) fn fixture(self, from: &str, to: &str) -> Test {
        self.sandbox.fixture(from, to);
        self
    }

    pub(crate) fn arg(mut self, arg: &str) -> Test {
        self.args.push(arg.to_owned());
        self
    }

    pub(crate) fn args<'a>(mut self, args: impl IntoIterator<Item = &'a str>) -> Test {
        self.args.extend(args.into_iter().map(str::to_owned));
        self
    }

    /// Runs in this folder of the project instead of its root.
    pub(crate) fn current_dir(mut self, rel: &str) -> Test {
        self.dir = Some(rel.to_owned());
        self
    }

    /// The exit code the run must end with (0 unless said).
    pub(crate) fn status(mut self, code: i32) -> Test {
        self.status = code;
        self
    }

    /// The whole standard output, byte for byte.
    pub(crate) fn stdout(mut self, text: &str) -> Test {
        self.stdout.exact = Some(text.to_owned());
        self
    }

    /// A part the standard output must hold (may be given several times).
    pub(crate) fn stdout_has(mut self, part: &str) -> Test {
        self.stdout.has.push(part.to_owned());
        self
    }

    /// A part the standard output must not hold.
    pub(crate) fn stdout_lacks(mut self, part: &str) -> Test {
        self.stdout.lacks.push(part.to_owned());
        self
    }

    /// The whole standard error, byte for byte.
    pub(crate) fn stderr(mut self, text: &str) -> Test {
        self.stderr.exact = Some(text.to_owned());
        self
    }

    /// A part the standard error must hold (may be given several times).
    pub(crate) fn stderr_has(mut self, part: &str) -> Test {
        self.stderr.has.push(part.to_owned());
        self
    }

    /// A part the standard error must not hold.
    pub(crate) fn stderr_lacks(mut self, part: &str) -> Test {
        self.stderr.lacks.push(part.to_owned());
        self
    }

    /// Fails the test, instead of hanging it, if the command has not ended
    /// after `limit` (for inputs that once made reckon hang).
    pub(crate) fn within(mut self, limit: Duration) -> Test {
        self.limit = Some(limit);
        self
    }

    /// Runs the command and asserts every expectation, all failures in one
    /// message with the whole output.
    pub(crate) fn run(self) -> Ran {
        self.run_checking(true)
    }

    /// Runs the command and asserts every expectation but the exit status,
    /// for a test that decides itself what the status means. A panic still
    /// fails.
    pub(crate) fn output(self) -> Ran {
        self.run_checking(false)
    }

    fn run_checking(self, status: bool) -> Ran {
        let ran = self.execute();
        let mut failures = Vec::new();
        if status && ran.code != self.status {
            failures.push(format!("exit {} where {} was expected", ran.code, self.status));
        }
        if ran.code == 101 {
            failures.push("reckon panicked".to_owned());
        }
        failures.extend(self.stdout.failures("stdout", &ran.stdout));
        failures.extend(self.stderr.failures("stderr", &ran.stderr));
        assert!(failures.is_empty(), "reckon {:?}\n{}\n{ran:?}", self.args, failures.join("\n"));
        ran
    }

    fn execute(&self) -> Ran {
        let args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        let mut cmd = self.sandbox.command(&args);
        if let Some(dir) = &self.dir {
            cmd.current_dir(self.sandbox.path().join(dir));
        }
        cmd.stdin(Stdio::null());
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap_or_else(|e| panic!("reckon {args:?} did not start: {e}"));
        // Both pipes are read as the command writes, or a long output would
        // block it.
        let stdout = drain(child.stdout.take().unwrap());
        let stderr = drain(child.stderr.take().unwrap());
        let status = match self.limit {
            None => child.wait().unwrap(),
            Some(limit) => {
                let start = Instant::now();
                loop {
                    if let Some(status) = child.try_wait().unwrap() {
                        break status;
                    }
                    if start.elapsed() > limit {
                        let _ = child.kill();
                        let _ = child.wait();
                        panic!("reckon {args:?} did not end within {limit:?} (it hangs)");
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        };
        Ran { code: status.code().unwrap_or(-1), stdout: stdout.join().unwrap(), stderr: stderr.join().unwrap() }
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = pipe.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    })
}
