//! `reckon review` driven through a pseudo-terminal (rexpect): the bundled
//! example with both scenario sweeps, answered change by change, and what
//! ends up on disk checked with `reckon check`.

mod common;

use std::process::Command;

use common::{copy_dir, repo, scenario_logs, Sandbox};
use rexpect::session::{spawn_command, PtySession};

const DOC: &str = "notebooks/eagle-fast-verify.md";
const SVG: &str = "notebooks/eagle-fast-verify-throughput.svg";

fn example() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", std::fs::read(repo().join("reckon.toml")).unwrap());
    s.write(DOC, std::fs::read(repo().join(DOC)).unwrap());
    s.write(SVG, std::fs::read(repo().join(SVG)).unwrap());
    copy_dir(&scenario_logs(), &s.path().join("notebooks/logs"));
    s
}

fn review(s: &Sandbox) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_reckon"));
    cmd.args(["review", DOC]).current_dir(s.path()).env("NO_COLOR", "1").env("TERM", "dumb");
    spawn_command(cmd, Some(30_000)).expect("spawn reckon review in a pty")
}

const PROMPT: &str = "accept (a), reject (r), skip (s), accept all (A), quit (q)? ";

/// Waits for change `i` and returns the text shown for it.
fn change(p: &mut PtySession, i: usize) -> String {
    let (_, header) = p.exp_regex(&format!(r"\[{i}/\d+\][^\r\n]*")).expect("the next change");
    let body = p.exp_string(PROMPT).expect("the prompt");
    format!("{header}\n{body}")
}

fn exit_code(p: &mut PtySession) -> i32 {
    p.exp_eof().expect("reckon exits");
    match p.process().wait().expect("exit status") {
        rexpect::process::WaitStatus::Exited(_, code) => code,
        other => panic!("{other:?}"),
    }
}

#[test]
fn accept_one_reject_one_quit_and_confirm() {
    let s = example();
    let before_svg = s.read(SVG);
    let mut p = review(&s);
    let first = change(&mut p, 1);
    assert!(first.contains("eagle-fast-verify.md:41 table region regenerated"), "{first}");
    // Inline emphasis of what changed within a line (no color: markers).
    assert!(first.contains("{+eagle-topk1-v2 | +}") && first.contains("[-_22-] runs"), "{first}");
    p.send_line("a").unwrap();
    let second = change(&mut p, 2);
    assert!(second.contains(":59 plot region regenerated"), "{second}");
    assert!(second.contains("+_Error bars:"), "{second}");
    p.send_line("r").unwrap();
    let third = change(&mut p, 3);
    assert!(third.contains("plot data moved: notebooks/eagle-fast-verify-throughput.svg"), "{third}");
    p.send_line("q").unwrap();
    p.exp_string("quit: write the 1 accepted change(s)? [y/N]").unwrap();
    p.send_line("y").unwrap();
    p.exp_string("1 change(s) written, 1 rejected").unwrap();
    assert_eq!(exit_code(&mut p), 0);

    let doc = s.read(DOC);
    assert!(doc.contains("| max_concurrency | baseline | eagle-topk1-v2 | eagle-topk4-v1 |"), "accepted: {doc}");
    assert!(!doc.contains("_Error bars:"), "the rejected plot region is as it was");
    assert_eq!(s.read(SVG), before_svg, "the plot file was not accepted");
    let r = s.run(&["check", "--no-ingest", DOC]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(!r.stdout.contains(":41: error: table region is stale"), "{r:?}");
    assert!(r.stdout.contains(":59: error: plot region is stale"), "check keeps reporting the rejected one: {r:?}");
}

#[test]
fn accept_all_writes_everything() {
    let s = example();
    let mut p = review(&s);
    change(&mut p, 1);
    p.send_line("A").unwrap();
    p.exp_regex(r"\d+ change\(s\) written, 0 rejected, 0 skipped").unwrap();
    assert_eq!(exit_code(&mut p), 0);
    let r = s.run(&["check", "--no-ingest", DOC]);
    assert!(!r.stdout.contains("is stale"), "{r:?}");
    assert!(r.stdout.contains("claim `throughput-baseline-wins`"), "the claims stay contradicted: {r:?}");
    assert!(s.read(DOC).contains("> [!WARNING]"), "status notes were accepted too");
}

#[test]
fn quitting_writes_nothing_without_confirmation() {
    let s = example();
    let before = s.read(DOC);
    let mut p = review(&s);
    change(&mut p, 1);
    p.send_line("a").unwrap();
    change(&mut p, 2);
    p.send_line("q").unwrap();
    p.exp_string("[y/N]").unwrap();
    p.send_line("").unwrap();
    p.exp_string("nothing written").unwrap();
    assert_eq!(exit_code(&mut p), 0);
    assert_eq!(s.read(DOC), before);

    let mut p = review(&s);
    change(&mut p, 1);
    p.send_line("q").unwrap();
    p.exp_string("nothing accepted, nothing written").unwrap();
    assert_eq!(exit_code(&mut p), 0);
    assert_eq!(s.read(DOC), before);
}

#[test]
fn without_a_terminal_it_points_to_update_write() {
    let s = example();
    let r = s.run(&["review", DOC]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("needs a terminal")
            && r.stderr.contains("reckon update --write notebooks/eagle-fast-verify.md"),
        "{r:?}"
    );
    assert_eq!(s.read(DOC), std::fs::read_to_string(repo().join(DOC)).unwrap());
}
