//! Hostile documents, logs and files, in the form a reliability pass found
//! them (issue 13): each once escaped the project, panicked or hung the
//! real binary. Each test drives `reckon` as a user (or an attacker who
//! controls a document, a template or a downloaded log) would, and checks
//! that the command ends with a clear error and that nothing leaked.
#![cfg(unix)]

mod common;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::{copy_dir, scenario_logs, Ran, Sandbox};

const TOML: &str = "series = \"config\"\n\n[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n";

/// A project that ingests the scenario's 2026-11-29 sweep.
fn project() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", TOML);
    copy_dir(&scenario_logs().join("2026-11-29"), &s.path().join("logs/2026-11-29"));
    s
}

/// Runs reckon and fails the test, instead of hanging it, if the command
/// does not end within a minute (the failures this file guards against
/// were hangs).
fn run_bounded(s: &Sandbox, args: &[&str]) -> Ran {
    s.test().args(args.iter().copied()).within(Duration::from_secs(60)).output()
}

/// Asserts an exit 2 with a message, never a panic (101) or a signal.
fn refused(r: &Ran, needle: &str) {
    assert_eq!(r.code, 2, "{r:?}");
    assert!(!r.stderr.contains("panicked"), "{r:?}");
    assert!(r.stderr.contains(needle) || r.stdout.contains(needle), "expected `{needle}` in\n{r:?}");
}

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

fn secret_db(path: &Path) {
    let c = rusqlite::Connection::open(path).unwrap();
    c.execute_batch("CREATE TABLE secret (token TEXT); INSERT INTO secret VALUES ('hunter2-token');").unwrap();
}

// ------------------------------------------------ reading outside the project

#[test]
fn a_sql_region_cannot_attach_another_database() {
    let s = project();
    let outside = tempfile::tempdir().unwrap();
    let other = outside.path().join("other.sqlite");
    secret_db(&other);
    s.ok(&["ingest"]);
    for query in [
        format!("ATTACH DATABASE '{}' AS o", other.display()),
        format!("SELECT * FROM (SELECT 1) WHERE 1 = (ATTACH '{}' AS o)", other.display()),
    ] {
        s.write("doc.md", format!("<!-- reckon:sql query=\"{query}\" -->\n<!-- /reckon:sql -->\n"));
        for cmd in [&["update", "doc.md"][..], &["check", "doc.md"], &["check", "--no-ingest", "doc.md"]] {
            let r = run_bounded(&s, cmd);
            assert_eq!(r.code, 2, "{query}\n{r:?}");
            assert!(!r.stdout.contains("hunter2") && !r.stderr.contains("hunter2"), "{r:?}");
        }
    }
    // With the authorizer it says what it refused.
    s.write(
        "doc.md",
        format!("<!-- reckon:sql query=\"ATTACH DATABASE '{}' AS o\" -->\n<!-- /reckon:sql -->\n", other.display()),
    );
    refused(&run_bounded(&s, &["check", "doc.md"]), "ATTACH");
    // ATTACH of a missing path used to create an empty file there.
    let created = outside.path().join("created.sqlite");
    s.write(
        "doc.md",
        format!("<!-- reckon:sql query=\"ATTACH DATABASE '{}' AS c\" -->\n<!-- /reckon:sql -->\n", created.display()),
    );
    refused(&run_bounded(&s, &["update", "--write", "doc.md"]), "ATTACH");
    assert!(!created.exists());
}

#[test]
fn a_sql_region_may_only_read_reckons_tables_with_plain_functions() {
    let s = project();
    s.ok(&["ingest"]);
    for (query, what) in [
        ("SELECT * FROM pragma_table_info('run')", "PRAGMA"),
        ("PRAGMA table_info(run)", "PRAGMA"),
        ("SELECT load_extension('/tmp/x')", "load_extension"),
        ("BEGIN", "transaction"),
        ("SELECT 1; DROP TABLE run", ""),
    ] {
        s.write("doc.md", format!("<!-- reckon:sql query=\"{query}\" -->\n<!-- /reckon:sql -->\n"));
        let r = run_bounded(&s, &["check", "doc.md"]);
        assert_eq!(r.code, 2, "{query}\n{r:?}");
        assert!(r.stderr.contains(what), "{query}\n{r:?}");
    }
    // Plain reads still work.
    s.write(
        "doc.md",
        "<!-- reckon:sql query=\"SELECT name, count(*) AS n, round(avg(length(name)), 1) AS l FROM metric \
         WHERE name LIKE 'output%' GROUP BY name ORDER BY name LIMIT 2\" -->\n<!-- /reckon:sql -->\n",
    );
    let r = run_bounded(&s, &["update", "--write", "doc.md"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(s.read("doc.md").contains("| name | n | l |"), "{}", s.read("doc.md"));
}

#[test]
fn a_template_symlinked_out_of_templates_is_refused() {
    let s = project();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("env"), "CI_TOKEN=hunter2-token\n").unwrap();
    std::fs::create_dir_all(s.path().join("templates")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("env"), s.path().join("templates/notes.md")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", s.path().join("templates/environ.md")).unwrap();
    for name in ["notes.md", "environ.md"] {
        s.write("doc.md", format!("<!-- reckon:template name={name} -->\n<!-- /reckon:template -->\n"));
        let r = run_bounded(&s, &["check", "doc.md"]);
        refused(&r, "leads outside");
        assert!(!r.stdout.contains("hunter2") && !r.stderr.contains("hunter2"), "{r:?}");
        assert!(!r.stdout.contains("PATH=") && !r.stderr.contains("PATH="), "{r:?}");
    }
    // A symlink that stays inside templates/ is followed.
    s.write("templates/real.md", "runs: {{ runs }}");
    std::os::unix::fs::symlink(s.path().join("templates/real.md"), s.path().join("templates/alias.md")).unwrap();
    s.write(
        "doc.md",
        "<!-- reckon:template name=alias.md metric=output_throughput rows=max_concurrency -->\n\
         <!-- /reckon:template -->\n",
    );
    let r = run_bounded(&s, &["update", "--write", "doc.md"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(s.read("doc.md").contains("runs: "), "{}", s.read("doc.md"));
}

#[test]
fn a_poisoned_log_cannot_open_or_close_a_region() {
    let s = project();
    let evil = "<!-- /reckon:table --><!-- reckon:sql query=\"SELECT token FROM secret\" --> | x";
    // A downloaded log whose `model` carries the injection, in a folder the
    // table and the template list the models of.
    let line = serde_json::json!({
        "backend": "sglang", "model": evil, "max_concurrency": 1, "completed": 10,
        "output_throughput": 100.0, "duration": 10.0,
    });
    s.write("logs/2026-11-29/poison.jsonl", format!("{line}\n"));
    s.write(
        "doc.md",
        "<!-- reckon:table metric=output_throughput rows=model cols=config where=\"config = poison\" -->\n\
         <!-- /reckon:table -->\n\n\
         <!-- reckon:template name=best-per-row.md metric=output_throughput rows=model cols=config \
         where=\"config = poison\" -->\n<!-- /reckon:template -->\n\n\
         <!-- reckon:sql query=\"SELECT params FROM param_set WHERE params LIKE '%poison%'\" -->\n\
         <!-- /reckon:sql -->\n",
    );
    let r = run_bounded(&s, &["update", "--write", "doc.md"]);
    assert_eq!(r.code, 0, "{r:?}");
    let doc = s.read("doc.md");
    // Still exactly the three regions the author wrote; the value is text.
    assert_eq!(doc.matches("<!--").count(), 6, "{doc}");
    assert!(doc.contains("&lt;!-- /reckon:table --&gt;"), "{doc}");
    assert!(doc.contains("\\| x"), "{doc}");
    let parsed = reckon::doc::parse(Path::new("doc.md"), &doc).unwrap();
    assert_eq!(parsed.regions.len(), 3);
    let r = run_bounded(&s, &["check", "doc.md"]);
    assert_eq!(r.code, 0, "the next check runs no injected region\n{r:?}");
}

#[test]
fn a_plot_never_leaves_the_documents_folder_nor_creates_one() {
    let s = project();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), s.path().join("plots")).unwrap();
    std::fs::create_dir_all(s.path().join(".git/hooks")).unwrap();
    for (file, why) in
        [("plots/x.svg", "leads outside"), ("missing/x.svg", "does not exist"), (".git/hooks/x.svg", ".git")]
    {
        s.write(
            "doc.md",
            format!(
                "<!-- reckon:plot metric=output_throughput x=max_concurrency file={file} -->\n<!-- /reckon:plot -->\n"
            ),
        );
        refused(&run_bounded(&s, &["update", "--write", "doc.md"]), why);
    }
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    assert!(!s.path().join("missing").exists());
    assert_eq!(std::fs::read_dir(s.path().join(".git/hooks")).unwrap().count(), 0);
    // A plot whose file is a symlink out of the folder is not read or replaced.
    std::fs::write(outside.path().join("old.svg"), "<svg><!-- reckon:data\nhunter2\n-->").unwrap();
    std::os::unix::fs::symlink(outside.path().join("old.svg"), s.path().join("p.svg")).unwrap();
    s.write(
        "doc.md",
        "<!-- reckon:plot metric=output_throughput x=max_concurrency file=p.svg -->\n<!-- /reckon:plot -->\n",
    );
    let r = run_bounded(&s, &["check", "doc.md"]);
    refused(&r, "leads outside");
    assert!(!r.stdout.contains("hunter2"), "{r:?}");
}

#[test]
fn not_a_log_is_refused_without_quoting_it() {
    let s = Sandbox::new();
    s.write("id_key", "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAA\n");
    let r = run_bounded(&s, &["ingest", "id_key"]);
    refused(&r, "not a benchmark log");
    assert!(!r.stderr.contains("PRIVATE") && !r.stderr.contains("b3Bl"), "{r:?}");
}

// ------------------------------------------------------------ panics and aborts

#[test]
fn a_damaged_old_plot_does_not_panic() {
    let s = project();
    s.write(
        "doc.md",
        "<!-- reckon:plot metric=output_throughput x=max_concurrency file=p.svg -->\n<!-- /reckon:plot -->\n",
    );
    for old in ["<svg><!-- reckon:data", "<svg><!-- reckon:data\u{e9}\u{e9}", "<svg><!-- reckon:data\u{1F600}-->"] {
        s.write("p.svg", old);
        let r = run_bounded(&s, &["check", "doc.md"]);
        assert_eq!(r.code, 1, "stale, not a crash\n{r:?}");
        let r = run_bounded(&s, &["update", "doc.md"]);
        assert_eq!(r.code, 0, "{r:?}");
    }
}

#[test]
fn huge_digits_are_an_error_not_a_panic() {
    let s = project();
    for region in [
        "<!-- reckon:value metric=output_throughput config=baseline max_concurrency=1 digits=65536 -->\
         <!-- /reckon:value -->",
        "<!-- reckon:table metric=output_throughput rows=max_concurrency digits=65536 -->\n<!-- /reckon:table -->",
        "<!-- reckon:sql query=\"SELECT 1.5 AS x\" digits=70000 -->\n<!-- /reckon:sql -->",
        "<!-- reckon:template name=best-per-row.md metric=output_throughput rows=max_concurrency \
         digits=99999999999 -->\n<!-- /reckon:template -->",
    ] {
        s.write("doc.md", format!("{region}\n"));
        let r = run_bounded(&s, &["check", "doc.md"]);
        refused(&r, "digits");
    }
    // A template asking its `num` filter for absurd digits is clamped.
    s.write("templates/n.md", "{{ 1.5 | num(70000) }}");
    s.write("doc.md", "<!-- reckon:template name=n.md -->\n<!-- /reckon:template -->\n");
    let r = run_bounded(&s, &["update", "--write", "doc.md"]);
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn deeply_nested_filters_are_an_error_not_an_abort() {
    let s = project();
    s.ok(&["ingest"]);
    let parens = format!("{}config = baseline{}", "(".repeat(10_000), ")".repeat(10_000));
    let nots = format!("{}config = baseline", "not ".repeat(100_000));
    // (An argument is at most 128 KiB: 30,000 `not` on the command line.)
    let arg_nots = format!("{}config = baseline", "not ".repeat(30_000));
    for filter in [&parens, &arg_nots] {
        let r = run_bounded(&s, &["query", "--metric", "output_throughput", "--where", filter]);
        refused(&r, "more than 64 deep");
        assert!(r.stderr.len() < 2_000, "the message quotes around the error only: {} bytes", r.stderr.len());
    }
    for filter in [&parens, &nots] {
        s.write(
            "doc.md",
            format!(
                "<!-- reckon:table metric=output_throughput rows=max_concurrency where=\"{filter}\" -->\n\
                 <!-- /reckon:table -->\n"
            ),
        );
        let r = run_bounded(&s, &["check", "doc.md"]);
        refused(&r, "more than 64 deep");
        assert!(r.stderr.len() < 2_000, "the message quotes around the error only: {} bytes", r.stderr.len());
    }
    // 20,000 chained `or` are a flat list: they work.
    let chain = vec!["config = baseline"; 20_001].join(" or ");
    s.write(
        "doc.md",
        format!(
            "<!-- reckon:table metric=output_throughput rows=max_concurrency where=\"{chain}\" -->\n\
             <!-- /reckon:table -->\n"
        ),
    );
    let r = run_bounded(&s, &["update", "--write", "doc.md"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(s.read("doc.md").contains("| 30 | 689.4 |"), "{}", s.read("doc.md"));
}

// ------------------------------------------------------------------- hangs

#[test]
fn a_recursive_query_is_stopped_by_the_time_budget() {
    let s = project();
    s.write("reckon.toml", format!("{TOML}\n[limits]\nsql_seconds = 0.5\n"));
    s.write(
        "doc.md",
        "<!-- reckon:sql query=\"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) \
         SELECT count(*) FROM c\" -->\n<!-- /reckon:sql -->\n",
    );
    refused(&run_bounded(&s, &["check", "doc.md"]), "ran longer than 0.5s");
}

#[test]
fn a_template_that_loops_forever_runs_out_of_fuel() {
    let s = project();
    s.write("templates/loop.md", "{% for i in range(90000) %}{% for j in range(90000) %}{% endfor %}{% endfor %}");
    s.write("doc.md", "<!-- reckon:template name=loop.md -->\n<!-- /reckon:template -->\n");
    refused(&run_bounded(&s, &["check", "doc.md"]), "template_fuel");
}

#[test]
fn fifos_and_devices_are_refused_before_reading() {
    let s = project();
    mkfifo(&s.path().join("logs/2026-11-29/pipe.jsonl"));
    // A glob matching the FIFO passes it over (it lists regular files);
    // named, it is refused before it is opened.
    let r = run_bounded(&s, &["ingest", "logs/*/*.jsonl"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(s.counts().0, 3, "the real logs went in");
    refused(&run_bounded(&s, &["ingest", "logs/2026-11-29/pipe.jsonl"]), "FIFO");
    refused(&run_bounded(&s, &["ingest", "/dev/zero"]), "device");
    // A document that is a FIFO, and a plot file that is one.
    mkfifo(&s.path().join("doc.md"));
    refused(&run_bounded(&s, &["check", "doc.md"]), "FIFO");
    s.write(
        "plan.md",
        "<!-- reckon:plot metric=output_throughput x=max_concurrency file=p.svg -->\n<!-- /reckon:plot -->\n",
    );
    mkfifo(&s.path().join("p.svg"));
    refused(&run_bounded(&s, &["check", "plan.md"]), "FIFO");
}

// ------------------------------------------------------- memory, large inputs

#[test]
fn a_console_log_with_much_noise_before_its_first_result_is_detected() {
    let s = Sandbox::new();
    let log = std::fs::read_to_string(scenario_logs().join("2026-11-20/baseline.log")).unwrap();
    let mut text = String::new();
    let mut i = 0;
    while text.len() < 325_000 {
        writeln!(
            text,
            "[2026-11-21 08:{:02}:{:02}] INFO scheduler: step {i} batch=64 tokens=4096",
            i / 60 % 60,
            i % 60
        )
        .unwrap();
        i += 1;
    }
    text.push_str(&log);
    s.write("console.log", &text);
    let r = run_bounded(&s, &["ingest", "console.log"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("(serving-stdout)"), "{r:?}");
}

#[test]
fn a_huge_line_is_refused_at_its_line_before_it_is_held() {
    let s = Sandbox::new();
    s.write("reckon.toml", "[limits]\nline_bytes = 100000\n");
    let ok = r#"{"config": "a", "concurrency": 1, "throughput": 10.5}"#;
    let huge = format!(r#"{{"config": "{}", "concurrency": 2, "throughput": 11.5}}"#, "x".repeat(200_000));
    s.write("big.jsonl", format!("{ok}\n{ok}\n{huge}\n{ok}\n"));
    s.write("big.csv", format!("config,concurrency,throughput\na,1,2.5\n{},2,3.5\n", "y".repeat(200_000)));
    s.write("big.log", format!("{}\n", "z".repeat(300_000)));
    for (file, line) in [("big.jsonl", 3), ("big.csv", 3)] {
        let r = run_bounded(&s, &["ingest", file]);
        refused(&r, &format!("{file}:{line}: this line is longer than"));
        assert!(r.stderr.contains("line_bytes"), "{r:?}");
    }
    let r = run_bounded(&s, &["ingest", "--format", "serving-stdout", "big.log"]);
    refused(&r, "big.log:1: this line is longer than");
    assert!(!s.db().exists() || s.counts().0 == 0, "nothing half-ingested");
}

#[test]
fn a_jsonl_whose_first_line_is_cut_is_reported_at_line_1() {
    let s = Sandbox::new();
    let line = std::fs::read_to_string(scenario_logs().join("2026-11-29/baseline.jsonl")).unwrap();
    let first = line.lines().next().unwrap();
    let cut = &first[..first.len() / 2];
    s.write("cut.jsonl", format!("{cut}\n{}", line.lines().skip(1).collect::<Vec<_>>().join("\n")));
    let r = run_bounded(&s, &["ingest", "cut.jsonl"]);
    refused(&r, "cut.jsonl:1:");
}

#[test]
fn csv_columns_are_typed_from_every_row_while_streaming() {
    // Two passes over the file: a column whose only text is in its last
    // row is a param in every row, as when the table was held whole.
    let s = Sandbox::new();
    let mut csv = String::from("variant,threads,latency_ms,label\n");
    for i in 0..5000 {
        writeln!(csv, "v{},{},{}.25,{}", i % 3, 1 << (i % 4), 10 + i % 7, i % 5).unwrap();
    }
    csv.push_str("v0,1,10.25,late-text\n");
    s.write("t.csv", &csv);
    s.ok(&["ingest", "t.csv"]);
    let r = s.ok(&["runs", "--limit", "0", "--format", "csv"]);
    let header = r.stdout.lines().next().unwrap();
    assert!(header.contains("label"), "label is a param: {header}");
    assert_eq!(r.stdout.lines().count(), 5002);
    // Counted: a median by variant and label alone would pool the threads.
    let args = [
        "query",
        "--metric",
        "latency_ms",
        "--rows",
        "variant",
        "--cols",
        "label",
        "--agg",
        "count",
        "--format",
        "csv",
    ];
    let q = s.ok(&args);
    assert!(q.stdout.starts_with("variant,"), "{q:?}");
}

// --------------------------------------------------------- writers and kills

#[test]
fn a_writer_waits_for_a_long_ingest_and_says_so() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;

    let s = project();
    s.ok(&["ingest", "logs/2026-11-29/baseline.jsonl"]);
    // Another process holds the write lock (a long ingest) until told to
    // commit, so nothing here races a fixed sleep on a busy machine.
    let db = s.db();
    let (locked_tx, locked_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let c = rusqlite::Connection::open(db).unwrap();
        c.execute_batch("BEGIN IMMEDIATE").unwrap();
        locked_tx.send(()).unwrap();
        let _ = release_rx.recv_timeout(Duration::from_secs(120));
        c.execute_batch("COMMIT").unwrap();
    });
    locked_rx.recv().unwrap();
    // With a short wait it gives up, saying how long it waited.
    s.write("reckon.toml", format!("{TOML}\n[limits]\nlock_wait_seconds = 1\n"));
    let r = run_bounded(&s, &["ingest", "logs/2026-11-29/eagle-topk1-v2.jsonl"]);
    refused(&r, "is being written by another process");
    assert!(r.stderr.contains("waited 1 s") && r.stderr.contains("lock_wait_seconds"), "{r:?}");
    assert!(!r.stderr.contains("database is locked"), "{r:?}");
    // By default it waits and says so; once the other writer commits, it goes in.
    s.write("reckon.toml", TOML);
    let mut child = s
        .command(&["ingest", "logs/2026-11-29/eagle-topk1-v2.jsonl"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    let mut line = String::new();
    while !seen.contains("waiting for another process") {
        line.clear();
        if stderr.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen.push_str(&line);
    }
    assert!(seen.contains("waiting for another process"), "{seen}");
    release_tx.send(()).unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{seen}{rest}");
    holder.join().unwrap();
    assert_eq!(s.counts().0, 2);
}

#[test]
fn kill_9_during_update_write_never_pairs_a_new_document_with_an_old_plot() {
    let s = project();
    s.ok(&["ingest"]);
    let old_doc =
        "# Plan\n\n<!-- reckon:table metric=output_throughput rows=max_concurrency -->\n<!-- /reckon:table -->\n\n\
                   <!-- reckon:plot metric=output_throughput x=max_concurrency file=t.svg -->\n<!-- /reckon:plot -->\n";
    let old_svg = "<svg><!-- reckon:data\nseries\tx\ty\nold\t1\t1\n--></svg>\n";
    s.write("doc.md", old_doc);
    s.write("t.svg", old_svg);
    s.ok(&["update", "--write", "--no-ingest", "doc.md"]);
    let (new_doc, new_svg) = (s.read("doc.md"), s.read("t.svg"));
    assert_ne!(new_doc, old_doc);
    // A reckon killed mid-write long ago left its temporary files.
    s.write(".doc.md.reckon-999999999-0.tmp", "half a document");
    s.write(".t.svg.reckon-999999999-3.tmp", "<svg");
    for delay_ms in [0u64, 2, 5, 10, 20, 40, 80] {
        s.write("doc.md", old_doc);
        s.write("t.svg", old_svg);
        let mut child = s
            .command(&["update", "--write", "--no-ingest", "doc.md"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let (doc, svg) = (s.read("doc.md"), s.read("t.svg"));
        assert!(doc == old_doc || doc == new_doc, "the document is whole (delay {delay_ms} ms)");
        assert!(svg == old_svg || svg == new_svg, "the plot is whole (delay {delay_ms} ms)");
        assert!(doc != new_doc || svg == new_svg, "a new document with an old plot (delay {delay_ms} ms)");
    }
    // The next run finishes the job and leaves no temporary file behind,
    // also when there is nothing left to write.
    s.ok(&["update", "--write", "--no-ingest", "doc.md"]);
    assert_eq!((s.read("doc.md"), s.read("t.svg")), (new_doc, new_svg));
    s.write(".doc.md.reckon-999999998-0.tmp", "half a document");
    s.ok(&["update", "--write", "--no-ingest", "doc.md"]);
    let stray: Vec<String> = std::fs::read_dir(s.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| Path::new(n).extension().is_some_and(|x| x == "tmp"))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}

// ----------------------------------------------------------- smaller items

#[test]
fn an_empty_statistic_in_a_console_block_is_an_error_not_a_missing_metric() {
    let s = Sandbox::new();
    let log = std::fs::read_to_string(scenario_logs().join("2026-11-20/baseline.log")).unwrap();
    let line_no = log.lines().position(|l| l.starts_with("Mean TTFT (ms):")).unwrap() + 1;
    let cut: String = log
        .lines()
        .map(|l| if l.starts_with("Mean TTFT (ms):") { "Mean TTFT (ms):" } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    s.write("console.log", cut);
    let r = run_bounded(&s, &["ingest", "console.log"]);
    refused(&r, &format!("console.log:{line_no}: `Mean TTFT (ms):` has no value"));
}

#[test]
fn a_cr_only_document_keeps_its_line_endings() {
    let s = project();
    s.ok(&["ingest"]);
    s.write(
        "doc.md",
        "# Plan\r\r<!-- reckon:table metric=output_throughput rows=max_concurrency -->\r<!-- /reckon:table -->\r\r\
         At C=30: <!-- reckon:value metric=output_throughput config=baseline max_concurrency=30 -->\
         <!-- /reckon:value -->.\r",
    );
    s.ok(&["update", "--write", "--no-ingest", "doc.md"]);
    let doc = s.read("doc.md");
    assert!(!doc.contains('\n'), "{doc:?}");
    assert!(doc.contains("\r| 30 | 689.4 |"), "{doc:?}");
    s.ok(&["check", "--no-ingest", "doc.md"]);
}

#[test]
fn a_zero_column_sql_result_is_an_error_not_a_broken_table() {
    let s = project();
    s.ok(&["ingest"]);
    for query in ["BEGIN", ";"] {
        s.write("doc.md", format!("<!-- reckon:sql query=\"{query}\" -->\n<!-- /reckon:sql -->\n"));
        let r = run_bounded(&s, &["check", "doc.md"]);
        assert_eq!(r.code, 2, "{query}: {r:?}");
        assert!(!r.stdout.contains("|---"), "{r:?}");
    }
}

#[test]
fn hook_install_from_a_subfolder_prints_the_real_hook_path() {
    let s = Sandbox::new();
    let git = |args: &[&str]| {
        common::isolated(&mut std::process::Command::new("git")).args(args).current_dir(s.path()).output().unwrap()
    };
    git(&["init", "-q"]);
    std::fs::create_dir_all(s.path().join("bench")).unwrap();
    s.write("bench/reckon.toml", "");
    let r = s.command(&["hook", "install"]).current_dir(s.path().join("bench")).output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "{err}");
    assert!(!err.contains(".."), "{err}");
    assert!(err.contains(".git/hooks/pre-commit"), "{err}");
}

// ------------------------------------------------------- hook and monorepo

/// A git repository whose reckon project lives in `bench/`, with the
/// pre-commit hook installed from the root; returns a runner of git.
fn monorepo() -> (Sandbox, impl Fn(&[&str]) -> std::process::Output) {
    let s = Sandbox::new();
    let root = s.path().to_path_buf();
    let git = move |args: &[&str]| {
        common::isolated(&mut std::process::Command::new("git"))
            .args(args)
            .current_dir(&root)
            .env("RECKON", env!("CARGO_BIN_EXE_reckon"))
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap()
    };
    assert!(git(&["init", "-q"]).status.success());
    copy_dir(&scenario_logs().join("2026-11-29"), &s.path().join("bench/logs/2026-11-29"));
    s.write(
        "bench/reckon.toml",
        "series = \"config\"\ndocuments = [\"plan.md\"]\n\n[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n",
    );
    s.write("bench/plan.md", STALE_PLAN);
    s.write(".gitignore", "bench/db/\n");
    assert_eq!(s.run(&["hook", "install"]).code, 0);
    (s, git)
}

const STALE_PLAN: &str =
    "# Plan\n\n<!-- reckon:table metric=output_throughput rows=max_concurrency -->\n<!-- /reckon:table -->\n";

#[test]
fn a_monorepo_document_is_checked_with_its_own_config_from_the_root() {
    let (s, git) = monorepo();
    // From the root, the document's own bench/reckon.toml applies (its
    // sources, its series): no "unknown param".
    let r = run_bounded(&s, &["check", "bench/plan.md"]);
    assert_eq!(r.code, 1, "stale, not bad input\n{r:?}");
    assert!(!r.stderr.contains("unknown"), "{r:?}");
    // The hook refuses the stale plan from the root.
    git(&["add", "-A"]);
    let c = git(&["commit", "-qm", "stale plan"]);
    assert!(!c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    let r = run_bounded(&s, &["update", "--write", "bench/plan.md"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(s.read("bench/plan.md").contains("| 30 | 689.4 |"));
    git(&["add", "-A"]);
    let c = git(&["commit", "-qm", "current plan"]);
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
}

#[test]
fn root_level_dash_named_documents_do_not_fool_the_hook() {
    let (s, git) = monorepo();
    s.ok(&["update", "--write", "bench/plan.md"]);
    git(&["add", "-A"]);
    assert!(git(&["commit", "-qm", "current plan"]).status.success());
    // `-h.md` once made clap print help and exit 0, letting a stale
    // document in the same commit through.
    s.write("-h.md", "# Notes\n");
    s.write("bench/plan.md", STALE_PLAN);
    git(&["add", "-A"]);
    let c = git(&["commit", "-qm", "help?"]);
    assert!(!c.status.success(), "the stale plan was let through: {}", String::from_utf8_lossy(&c.stderr));
    // `-x.md` once blocked every commit.
    s.ok(&["update", "--write", "bench/plan.md"]);
    s.write("-x.md", "# More notes\n");
    git(&["add", "-A"]);
    let c = git(&["commit", "-qm", "notes"]);
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
}

/// Two projects under one root, the second with a small `[limits]
/// line_bytes`, each with a log holding the same long line.
fn two_projects_one_with_a_small_line_limit() -> Sandbox {
    let s = Sandbox::new();
    let short = r#"{"config": "a", "max_concurrency": 1, "output_throughput": 10.5}"#;
    let long = format!(
        r#"{{"config": "a", "max_concurrency": 2, "output_throughput": 11.5, "note": "{}"}}"#,
        "x".repeat(5_000)
    );
    for (project, limits) in [("roomy", ""), ("strict", "\n[limits]\nline_bytes = 1000\n")] {
        s.write(
            &format!("{project}/reckon.toml"),
            format!("series = \"config\"\ndocuments = [\"plan.md\"]\n\n[[source]]\npath = \"logs/*.jsonl\"\n{limits}"),
        );
        s.write(&format!("{project}/plan.md"), STALE_PLAN);
        s.write(&format!("{project}/logs/run.jsonl"), format!("{short}\n{long}\n"));
    }
    s
}

#[test]
fn a_sub_projects_line_limit_holds_when_checked_from_the_root() {
    // The limits once lived in process-wide statics set from the current
    // folder's reckon.toml: checked from the root, `strict`'s limit was
    // never set and its long line went in.
    let s = two_projects_one_with_a_small_line_limit();
    let r = run_bounded(&s, &["check", "roomy/plan.md", "strict/plan.md"]);
    assert!(r.stderr.contains("strict/logs/run.jsonl:2: this line is longer than"), "{r:?}");
    assert!(!r.stderr.contains("roomy/logs/run.jsonl"), "roomy's own limit is the default: {r:?}");
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn a_sub_projects_line_limit_does_not_leak_into_the_next_project() {
    // Read first, `strict`'s small limit once stayed in force for every
    // project after it (from inside `strict`, a command naming both).
    let s = two_projects_one_with_a_small_line_limit();
    let r = s.test().current_dir("strict").args(["check", "plan.md", "../roomy/plan.md"]).output();
    assert!(r.stderr.contains("logs/run.jsonl:2: this line is longer than"), "{r:?}");
    assert!(!r.stderr.contains("roomy/logs/run.jsonl"), "roomy keeps the default limit: {r:?}");
}
