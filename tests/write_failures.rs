//! What reckon does when it cannot write what it has to say: stderr on a
//! full disk (CI logs redirected to a full volume), stdout a pipe whose
//! reader has gone (`reckon check | head`). Never a panic (exit 101), and
//! the exit code still says the verdict.
#![cfg(target_os = "linux")]

mod common;

use std::fs::File;
use std::process::Stdio;

use common::Sandbox;

const DOC: &str = "notebooks/eagle-fast-verify.md";

/// `/dev/full`: every write fails with "No space left on device".
fn full() -> Stdio {
    Stdio::from(File::options().write(true).open("/dev/full").unwrap())
}

/// The exit code of reckon run with these streams.
fn code(s: &Sandbox, args: &[&str], stdout: Stdio, stderr: Stdio) -> i32 {
    s.command(args).stdout(stdout).stderr(stderr).status().unwrap().code().unwrap_or(-1)
}

#[test]
fn finding_28_a_failed_write_to_stderr_or_stdout_is_no_panic() {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    s.ok(&["ingest"]);
    // An error whose message cannot be written: still exit 2.
    assert_eq!(code(&s, &["ingest", "/nonexistent"], Stdio::null(), full()), 2);
    // A check whose report cannot be written anywhere: an error, exit 2.
    assert_eq!(code(&s, &["check", DOC], full(), full()), 2);
    assert_eq!(code(&s, &["check", DOC, "--no-ingest"], full(), Stdio::null()), 2);
    // Progress and notes on a full stderr do not stop a command that succeeds.
    assert_eq!(code(&s, &["ingest"], Stdio::null(), full()), 0);
    // The stale example fails its check (exit 1) ...
    assert_eq!(code(&s, &["check", DOC], Stdio::null(), Stdio::null()), 1);
    // ... also when the reader of its report has gone before it is written.
    let mut child = s.command(&["check", DOC]).stdout(Stdio::piped()).stderr(full()).spawn().unwrap();
    drop(child.stdout.take());
    assert_eq!(child.wait().unwrap().code(), Some(1), "a closed stdout turned a failing check into a pass");
}
