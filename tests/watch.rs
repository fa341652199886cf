//! `reckon watch` end to end: the real binary started on a project in a
//! temporary folder, logs copied in one by one while its output is read
//! until the expected line appears, then stopped with SIGINT. Every wait is
//! bounded by a generous deadline that fails the test; nothing asserts how
//! long anything took.

mod common;

use std::collections::BTreeSet;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use common::{scenario_logs, Sandbox};

/// How long a line may take to appear on a loaded machine before the test fails.
const DEADLINE: Duration = Duration::from_secs(60);

const PLAN: &str = "notebooks/eagle-fast-verify.md";

/// A running `reckon watch` and the lines it has printed so far.
struct Watch {
    child: Child,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
    seen: Vec<String>,
    said: Vec<String>,
}

/// Sends each line `from` prints to a channel, on a thread of its own.
fn lines_of(from: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(from).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

impl Watch {
    fn start(sandbox: &Sandbox, args: &[&str]) -> Watch {
        let mut child = sandbox
            .command(&[&["watch"], args].concat())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = lines_of(child.stdout.take().unwrap());
        let stderr = lines_of(child.stderr.take().unwrap());
        let mut w = Watch { child, stdout, stderr, seen: Vec::new(), said: Vec::new() };
        // The folders are watched before this line is printed.
        w.wait_for("the start line", |l| l.contains("reckon watch:") && l.contains("Ctrl-C stops"));
        w
    }

    /// Reads stdout until a line passes `want`; fails the test at the deadline.
    fn wait_for(&mut self, what: &str, want: impl Fn(&str) -> bool) -> String {
        let found = next_passing(&self.stdout, &mut self.seen, want);
        found.unwrap_or_else(|| {
            self.said.extend(self.stderr.try_iter());
            panic!(
                "no line with {what} within {DEADLINE:?}\n--- stdout\n{}\n--- stderr\n{}",
                self.seen.join("\n"),
                self.said.join("\n")
            )
        })
    }

    /// Reads stderr until a line passes `want`; fails the test at the deadline.
    fn wait_for_stderr(&mut self, what: &str, want: impl Fn(&str) -> bool) -> String {
        let found = next_passing(&self.stderr, &mut self.said, want);
        found
            .unwrap_or_else(|| panic!("no error with {what} within {DEADLINE:?}\n--- stderr\n{}", self.said.join("\n")))
    }

    /// Sends SIGINT (what Ctrl-C sends) and waits for the exit: 0, with the
    /// stop said last.
    fn interrupt(mut self) {
        let pid = self.child.id().to_string();
        let sent = std::process::Command::new("kill").args(["-INT", &pid]).status().unwrap();
        assert!(sent.success(), "kill -INT {pid}");
        let end = Instant::now() + DEADLINE;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > end {
                let _ = self.child.kill();
                panic!("reckon watch did not stop within {DEADLINE:?} of SIGINT\n{}", self.seen.join("\n"));
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        self.seen.extend(self.stdout.iter());
        self.said.extend(self.stderr.iter());
        let all = format!("--- stdout\n{}\n--- stderr\n{}", self.seen.join("\n"), self.said.join("\n"));
        assert_eq!(status.code(), Some(0), "{all}");
        assert!(self.seen.last().is_some_and(|l| l.ends_with("reckon watch: stopped")), "{all}");
    }
}

/// The next line from `lines` that passes `want`, each line read kept in
/// `seen`; None when none came before the deadline.
fn next_passing(lines: &Receiver<String>, seen: &mut Vec<String>, want: impl Fn(&str) -> bool) -> Option<String> {
    let end = Instant::now() + DEADLINE;
    while let Ok(line) = lines.recv_timeout(end.saturating_duration_since(Instant::now())) {
        seen.push(line.clone());
        if want(&line) {
            return Some(line);
        }
    }
    None
}

/// Puts one log of the scenario's 2026-11-29 sweep into the sandbox whole:
/// copied outside the watched folders, then renamed into place, so that
/// however slow the machine, reckon never reads it half copied (a log
/// still being written has a test of its own).
fn copy_log(sandbox: &Sandbox, name: &str) {
    let to = sandbox.path().join("notebooks/logs/2026-11-29");
    std::fs::create_dir_all(&to).unwrap();
    let incoming = sandbox.path().join(".incoming");
    std::fs::copy(scenario_logs().join("2026-11-29").join(name), &incoming).unwrap();
    std::fs::rename(&incoming, to.join(name)).unwrap();
}

/// Every file under `dir`, relative to it.
fn files_under(dir: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                todo.push(e.path());
            } else {
                out.insert(e.path().strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out
}

/// After a stop: the files there were, the logs copied in, the database
/// and its writer's note, and nothing else — no temporary file, no journal.
fn assert_no_temporary_files(sandbox: &Sandbox, before: &BTreeSet<PathBuf>, added: &[&str]) {
    let mut expected = before.clone();
    expected.extend(added.iter().map(PathBuf::from));
    expected.extend(["db/reckon.sqlite", "db/reckon.sqlite-writer"].map(PathBuf::from));
    assert_eq!(files_under(sandbox.path()), expected);
}

#[test]
fn watch_says_the_claim_a_copied_log_overturns_with_the_measurement() {
    let sandbox = Sandbox::example("", &["2026-11-20"]);
    let before = files_under(sandbox.path());
    let plan = sandbox.read(PLAN);
    let mut watch = Watch::start(&sandbox, &[]);
    let state = watch.wait_for("the document's state", |l| l.contains(PLAN));
    assert!(state.contains("6 claim(s) (6 holds)"), "{state}");
    for log in ["baseline.jsonl", "eagle-topk4-v1.jsonl", "eagle-topk1-v2.jsonl"] {
        copy_log(&sandbox, log);
        let read = format!("notebooks/logs/2026-11-29/{log}: 33 run(s) read");
        watch.wait_for(&read, |l| l.contains(&read));
        if log == "eagle-topk4-v1.jsonl" {
            watch.wait_for("topk4-plateau overturned", |l| {
                l.contains("claim `topk4-plateau` holds → contradicted at max_concurrency=100") && l.contains("353.2")
            });
        }
    }
    let line = watch.wait_for("throughput-baseline-wins overturned", |l| {
        l.contains(concat!(
            "eagle-topk1-v2.jsonl: notebooks/eagle-fast-verify.md:106: ",
            "claim `throughput-baseline-wins` holds → contradicted"
        ))
    });
    assert!(line.contains("max_concurrency=30: baseline 689.4 vs eagle-topk1-v2 759.3"), "{line}");
    watch.interrupt();
    // Without --write the document is only read.
    assert_eq!(sandbox.read(PLAN), plan);
    let logs = ["baseline.jsonl", "eagle-topk4-v1.jsonl", "eagle-topk1-v2.jsonl"]
        .map(|l| format!("notebooks/logs/2026-11-29/{l}"));
    assert_no_temporary_files(&sandbox, &before, &logs.iter().map(String::as_str).collect::<Vec<_>>());
}

/// One plain HTTP/1.1 GET to 127.0.0.1: the status code and the body.
fn get(port: u16, path: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(DEADLINE)).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, body.to_string())
}

#[test]
fn watch_serve_answers_on_loopback_with_the_report_and_its_version_moves() {
    let sandbox = Sandbox::example("", &["2026-11-20"]);
    let before = files_under(sandbox.path());
    let mut watch = Watch::start(&sandbox, &["--serve"]);
    let line = watch.wait_for("the address", |l| l.contains("serving the report at http://127.0.0.1:"));
    let port: u16 = line.rsplit(':').next().unwrap().trim_end_matches('/').parse().unwrap();
    let (status, page) = get(port, "/page/0");
    assert_eq!(status, 200);
    assert!(page.contains("<title>Fast verify for EAGLE-3 on eight RTX PRO 6000 cards</title>"), "{page}");
    assert!(page.contains("report by reckon") && page.contains("throughput-baseline-wins"));
    let (status, view) = get(port, "/");
    assert_eq!(status, 200);
    assert!(view.contains("src=\"/page/0\"") && view.contains("fetch(\"/version\""), "{view}");
    let (_, first) = get(port, "/version");
    // Nothing of the project is served by its path.
    assert_eq!(get(port, "/reckon.toml").0, 404);
    assert_eq!(get(port, "/notebooks/eagle-fast-verify.md").0, 404);
    copy_log(&sandbox, "eagle-topk4-v1.jsonl");
    watch.wait_for("a verdict change", |l| l.contains("claim `topk4-plateau` holds → contradicted"));
    let end = Instant::now() + DEADLINE;
    while get(port, "/version").1 == first {
        assert!(Instant::now() < end, "the version stayed {first} after the report changed");
        std::thread::sleep(Duration::from_millis(100));
    }
    let (_, page) = get(port, "/page/0");
    assert!(page.contains("2026-11-29"), "the report served is not the new one");
    watch.interrupt();
    assert_no_temporary_files(&sandbox, &before, &["notebooks/logs/2026-11-29/eagle-topk4-v1.jsonl"]);
}

#[test]
fn watch_write_updates_regions_as_logs_come_and_refuses_a_region_edited_by_hand() {
    let sandbox = Sandbox::example("", &["2026-11-20"]);
    let mut watch = Watch::start(&sandbox, &["--write"]);
    copy_log(&sandbox, "baseline.jsonl");
    watch.wait_for("the write", |l| l.ends_with("wrote notebooks/eagle-fast-verify.md"));
    // What was written is what `update --write` would write: nothing is stale.
    let text = sandbox.read(PLAN);
    assert!(text.contains("92.7"), "the single-request value was not rewritten:\n{text}");
    let current = sandbox.run(&["check", "--no-ingest"]);
    assert_eq!(current.code, 0, "{current:?}");
    // A region edited by hand is not overwritten, as `update --write` refuses it.
    let edited = text.replacen("92.7", "99.9", 1);
    std::fs::write(sandbox.path().join(PLAN), &edited).unwrap();
    let refusal = watch
        .wait_for_stderr("the refusal", |l| l.contains("was edited by hand since reckon wrote it; not overwritten"));
    assert!(refusal.contains("notebooks/eagle-fast-verify.md:"), "{refusal}");
    watch.interrupt();
    assert_eq!(sandbox.read(PLAN), edited);
    let check = sandbox.run(&["check", "--no-ingest"]);
    assert_eq!(check.code, 1, "{check:?}");
}

#[test]
fn watch_reads_a_log_still_being_appended_again_and_counts_it_once() {
    let sandbox = Sandbox::example("", &["2026-11-20"]);
    let full = std::fs::read_to_string(scenario_logs().join("2026-11-29/eagle-topk1-v2.jsonl")).unwrap();
    let lines: Vec<&str> = full.split_inclusive('\n').collect();
    let log = sandbox.path().join("notebooks/logs/2026-11-29/eagle-topk1-v2.jsonl");
    let mut watch = Watch::start(&sandbox, &[]);
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    std::fs::write(&log, lines[..10].concat()).unwrap();
    watch.wait_for("the first ten records", |l| l.ends_with("eagle-topk1-v2.jsonl: 10 run(s) read (sglang-jsonl)"));
    // The sweep is in the middle of writing its eleventh record.
    let (half, rest) = lines[10].split_at(lines[10].len() / 2);
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    f.write_all(half.as_bytes()).unwrap();
    f.flush().unwrap();
    watch.wait_for("a log still being written", |l| l.contains("eagle-topk1-v2.jsonl: not finished"));
    f.write_all(rest.as_bytes()).unwrap();
    f.write_all(lines[11..].concat().as_bytes()).unwrap();
    drop(f);
    watch.wait_for("the whole log", |l| l.ends_with("eagle-topk1-v2.jsonl: 33 run(s) read (sglang-jsonl)"));
    watch.interrupt();
    // Each record once: what a fresh database reads from the finished file.
    let runs = |args: &[&str]| {
        let r = sandbox.ok(&[&["runs", "--limit", "0", "--format", "json"], args].concat());
        r.json()
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["source"].as_str().unwrap().ends_with("eagle-topk1-v2.jsonl"))
            .count()
    };
    assert_eq!(runs(&[]), 33);
    sandbox.ok(&["--db", "fresh.sqlite", "ingest", "-q"]);
    assert_eq!(runs(&["--db", "fresh.sqlite"]), 33);
}

#[test]
fn watch_says_a_prose_statement_a_copied_log_makes_stale() {
    let sandbox = Sandbox::example("", &["2026-11-20"]);
    sandbox.write(
        "notebooks/notes.md",
        "# Notes\n\nThe baseline is fast.\n\nEAGLE topk=4 reaches 336 tok/s at max_concurrency = 150.\n",
    );
    let mut watch = Watch::start(&sandbox, &["notebooks/notes.md"]);
    let state = watch.wait_for("the document's state", |l| l.contains("notebooks/notes.md: "));
    assert!(state.contains("1 prose statement(s) judged (0 contradicted or stale)"), "{state}");
    copy_log(&sandbox, "eagle-topk4-v1.jsonl");
    let line = watch.wait_for("the statement gone stale", |l| l.contains("notebooks/notes.md:5: prose"));
    assert!(
        line.contains(concat!(
            "eagle-topk4-v1.jsonl: notebooks/notes.md:5: ",
            "prose \"EAGLE topk=4 reaches 336 tok/s at max_concurrency = 150.\" ",
            "holds → stale: contradicted at max_concurrency=150: eagle-topk4-v1 352.6 vs stated 336"
        )),
        "{line}"
    );
    watch.interrupt();
}
