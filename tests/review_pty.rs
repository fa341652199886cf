//! `reckon review` driven through a pseudo-terminal (rexpect): the bundled
//! example with both scenario sweeps, answered change by change — with
//! single keys, with a key and Enter, and with lines piped in — and what
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
    common::isolated(&mut cmd).args(["review", DOC]).current_dir(s.path()).env("TERM", "dumb");
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

/// One key, no Enter: the terminal is read a key at a time.
fn key(p: &mut PtySession, k: &str) {
    p.send(k).unwrap();
    p.flush().unwrap();
}

/// The pty's line discipline as the child left it (on Linux a master's
/// termios are its terminal's).
#[cfg(target_os = "linux")]
fn local_flags(p: &PtySession) -> libc::tcflag_t {
    use std::os::fd::AsRawFd;
    let pty = p.process().get_file_handle().unwrap();
    let mut t = std::mem::MaybeUninit::<libc::termios>::uninit();
    // SAFETY: tcgetattr fills the termios it is given, on a descriptor we hold.
    assert_eq!(unsafe { libc::tcgetattr(pty.as_raw_fd(), t.as_mut_ptr()) }, 0, "tcgetattr");
    // SAFETY: initialized by the successful call above.
    unsafe { t.assume_init() }.c_lflag
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
    // Single keys, no Enter: each is an answer, echoed after its prompt.
    key(&mut p, "a");
    let second = change(&mut p, 2);
    assert!(second.starts_with("[2/"), "{second}");
    assert!(second.contains(":59 plot region regenerated"), "{second}");
    assert!(second.contains("+_Error bars:"), "{second}");
    key(&mut p, "r");
    let third = change(&mut p, 3);
    assert!(third.contains("plot data moved: notebooks/eagle-fast-verify-throughput.svg"), "{third}");
    key(&mut p, "q");
    p.exp_string("quit: write the 1 accepted change(s)? [y/N]").unwrap();
    key(&mut p, "y");
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
    key(&mut p, "A");
    p.exp_regex(r"\d+ change\(s\) written, 0 rejected, 0 skipped").unwrap();
    assert_eq!(exit_code(&mut p), 0);
    let r = s.run(&["check", "--no-ingest", DOC]);
    assert!(!r.stdout.contains("is stale"), "{r:?}");
    assert!(r.stdout.contains("claim `throughput-baseline-wins`"), "the claims stay contradicted: {r:?}");
    assert!(s.read(DOC).contains("> [!WARNING]"), "status notes were accepted too");
}

/// A key and Enter, as before keys were read: the Enter ends the key's
/// line, and Enter alone is the `[y/N]` default.
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

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_writes_nothing_and_gives_the_terminal_back() {
    let s = example();
    let before = s.read(DOC);
    let mut p = review(&s);
    change(&mut p, 1);
    key(&mut p, "a");
    change(&mut p, 2);
    // Waiting for a key: the terminal is raw (no line editing, no signals).
    let raw = local_flags(&p);
    assert_eq!(raw & (libc::ICANON | libc::ISIG), 0, "raw while a key is read: {raw:#o}");
    p.send_control('c').unwrap();
    p.exp_eof().expect("reckon ends");
    match p.process().wait().expect("exit status") {
        rexpect::process::WaitStatus::Signaled(_, rexpect::process::Signal::SIGINT, _) => {}
        other => panic!("interrupted by SIGINT, not {other:?}"),
    }
    let cooked = local_flags(&p);
    assert_eq!(cooked & (libc::ICANON | libc::ISIG), libc::ICANON | libc::ISIG, "restored: {cooked:#o}");
    assert_eq!(s.read(DOC), before, "the accepted change is not written on Ctrl-C");
}

#[test]
fn answers_piped_in_are_read_as_lines() {
    let s = example();
    let mut cmd = Command::new("sh");
    // stdout stays the pseudo-terminal; stdin is a pipe of whole answers.
    cmd.args(["-c", r#"printf 'accept\nquit\nyes\n' | "$0" review "$1""#, env!("CARGO_BIN_EXE_reckon"), DOC]);
    common::isolated(&mut cmd).current_dir(s.path()).env("TERM", "dumb");
    let mut p = spawn_command(cmd, Some(30_000)).expect("spawn sh in a pty");
    p.exp_string("quit: write the 1 accepted change(s)? [y/N]").unwrap();
    p.exp_string("1 change(s) written, 0 rejected").unwrap();
    assert_eq!(exit_code(&mut p), 0);
    assert!(s.read(DOC).contains("| max_concurrency | baseline | eagle-topk1-v2 | eagle-topk4-v1 |"));
}

#[test]
fn a_value_change_is_shown_in_its_sentence_with_the_number_marked() {
    let s = example();
    let mut p = review(&s);
    let mut shown = None;
    for i in 1..40 {
        let c = change(&mut p, i);
        if c.contains(":65 value region regenerated") {
            shown = Some(c);
            break;
        }
        key(&mut p, "s");
    }
    let shown = shown.expect("the value region of line 65 is reviewed");
    // The sentence as the reader reads it, markers left out, the number marked.
    let sentence =
        |n: &str| format!("EAGLE topk=4 on the v1 worker levels off near {n} tok/s and is already far behind at C=8 (");
    assert!(shown.contains(&format!("-{}", sentence("[-336.1-]"))), "{shown}");
    assert!(shown.contains(&format!("+{}", sentence("{+353.2+}"))), "{shown}");
    assert!(!shown.contains("reckon:value"), "{shown}");
    key(&mut p, "q");
    p.exp_string("nothing accepted, nothing written").unwrap();
    assert_eq!(exit_code(&mut p), 0);
}
