//! Edges where reckon was wrong, silent or unhelpful (the `edges` round):
//! each test on invented data under `tests/fixtures/edges/`.

mod common;

use common::Sandbox;

#[test]
fn every_csv_reader_refuses_a_last_row_with_no_newline_after_it() {
    // Each file's last number was cut as it was written (`2048.1` of
    // `2048.125`, …): every CSV reader refuses it as the generic one does,
    // at the row, saying what to do.
    for (file, format, line) in [
        ("gbench.csv", "gbench-csv", 4),
        ("nvbench.csv", "nvbench-csv", 4),
        ("criterion-raw.csv", "criterion-csv", 4),
        ("genai-perf.csv", "genai-perf-csv", 7),
    ] {
        let sb = Sandbox::new();
        sb.fixture(&format!("edges/cut/{file}"), &format!("logs/{file}"));
        let logs = format!("logs/{file}");
        let ran = sb.run(&["ingest", &logs]);
        assert_eq!(ran.code, 2, "{file}: {ran:?}");
        let all = format!("{}{}", ran.stdout, ran.stderr);
        let expected = format!("{logs}:{line}: the file does not end with a newline");
        assert!(all.contains(&expected), "{file}: {ran:?}");
        assert!(all.contains("echo >> FILE"), "{file}: {ran:?}");
        assert_eq!(sb.counts().1, 0, "{file}: nothing of it is stored");
        // Ended with a newline, it is read, by the reader it was meant for.
        let cut = sb.read(&logs);
        sb.write(&logs, format!("{cut}\n"));
        let ran = sb.ok(&["ingest", &logs]);
        assert!(ran.stderr.contains(&format!("({format})")), "{file}: {ran:?}");
        assert!(sb.counts().1 > 0, "{file}");
    }
}

#[test]
fn tables_values_and_query_leave_out_invalid_runs_as_claims_do_and_say_so() {
    // int4's one test at Server is `result=INVALID`: claims leave it out,
    // and so do the numbers shown beside them, saying so.
    let sb = Sandbox::new();
    sb.fixture("edges/invalid", "");
    sb.ok(&["ingest"]);
    let said = "1 run is `result=INVALID` by the tool's own judgement";
    sb.ok(&["update", "--write", "doc.md"]);
    let doc = sb.read("doc.md");
    assert!(doc.contains("| scenario | fp16 | int8 |\n"), "{doc}");
    assert!(!doc.contains("95"), "{doc}");
    assert!(doc.contains(&format!("\n\n_{said}")), "the note is under the table, not a row of it: {doc}");
    assert!(doc.contains("config=int8 scenario=Server -->41<"), "{doc}");
    let q = sb.ok(&["query", "--metric", "samples_per_second", "--rows", "scenario"]);
    assert!(!q.stdout.contains("int4") && q.stdout.contains(&format!("note: {said}")), "{q:?}");
    let q = sb.ok(&["query", "--metric", "samples_per_second", "--rows", "scenario", "--format", "csv"]);
    assert!(!q.stdout.contains("95") && q.stderr.contains(said), "{q:?}");
    // A value of INVALID runs only is no measurement: refused, saying why.
    sb.write("v.md", "<!-- reckon:value metric=samples_per_second config=int4 --><!-- /reckon:value -->\n");
    let r = sb.run(&["update", "v.md"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("no run matches this value") && r.stderr.contains(said), "{r:?}");
    // Asked for by name, the invalid runs are shown, with no note.
    let q = sb.ok(&["query", "--metric", "samples_per_second", "--rows", "scenario", "--where", "result = INVALID"]);
    assert!(q.stdout.contains("95") && !q.stdout.contains("note:"), "{q:?}");
    // The claim beside them reads the same runs.
    sb.write(
        "c.md",
        concat!(
            "<!-- reckon:claim id=c int8 beats fp16 on samples_per_second at scenario = Server -->\n",
            "<!-- /reckon:claim -->\n"
        ),
    );
    sb.ok(&["claims", "c.md"]);
}

#[test]
fn a_filter_value_no_run_has_is_said_with_the_nearest_one() {
    let sb = Sandbox::new();
    sb.fixture("edges/invalid", "");
    sb.ok(&["ingest"]);
    let q = |filter: &str| sb.ok(&["query", "--metric", "samples_per_second", "--where", filter]).stdout;
    // A typo of a series: the nearest value runs have.
    let out = q("config = fp61");
    assert!(out.contains("note: no run has `config` = `fp61`; did you mean `fp16`?"), "{out}");
    // Nothing near: the values runs have.
    let out = q("config = zzzzzz and scenario = Server");
    assert!(out.contains("no run has `config` = `zzzzzz`; its values: `fp16`, `int4`, `int8`"), "{out}");
    // Values runs have, in a combination no run has: no typo to suggest.
    let out = q("config = int8 and scenario = Offline");
    assert!(out.contains("no runs with a value") && !out.contains("no run has"), "{out}");
    // A value region says it at its error…
    sb.write("v.md", "<!-- reckon:value metric=samples_per_second config=fp61 --><!-- /reckon:value -->\n");
    let r = sb.run(&["update", "v.md"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("v.md:1:") && r.stderr.contains("did you mean `fp16`?"), "{r:?}");
    // …and a table left empty by its `where=` is refused, not written with
    // its header alone.
    sb.write(
        "t.md",
        concat!(
            "<!-- reckon:table metric=samples_per_second rows=scenario where=\"config = int9\" -->\n",
            "<!-- /reckon:table -->\n"
        ),
    );
    let r = sb.run(&["update", "t.md"]);
    assert_eq!(r.code, 2, "{r:?}");
    // int4 and int8 are as near; the first in the values' order is named,
    // whichever log was ingested first.
    assert!(r.stderr.contains("no run has `config` = `int9`; did you mean `int4`?"), "{r:?}");
}

#[test]
fn a_log_refused_on_reading_again_loses_the_runs_its_earlier_bytes_gave_and_says_so() {
    let sb = Sandbox::new();
    sb.fixture("edges/invalid", "");
    sb.ok(&["ingest"]);
    assert_eq!(sb.counts().1, 6);
    // The log is rewritten and its new last record is cut short.
    let whole = sb.read("runs.jsonl");
    sb.write(
        "runs.jsonl",
        format!("{whole}{{\"config\": \"int8\", \"scenario\": \"Server\", \"samples_per_second\": "),
    );
    let r = sb.run(&["ingest"]);
    assert_eq!(r.code, 2, "the ingest still fails: {r:?}");
    assert!(r.stderr.contains("runs.jsonl:7: "), "{r:?}");
    assert!(r.stderr.contains("the 6 run(s) an earlier ingest took from this log are removed"), "{r:?}");
    // The database is what a fresh one would be: nothing of the log.
    assert_eq!(sb.counts(), (0, 0, 0));
    let runs = sb.ok(&["runs"]);
    assert!(!runs.stdout.contains("runs.jsonl"), "no stale run: {runs:?}");
    // Refused again, with nothing left to remove, it says only why.
    let r = sb.run(&["ingest"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(!r.stderr.contains("are removed"), "{r:?}");
    // Fixed, it goes in again.
    sb.write("runs.jsonl", whole);
    sb.ok(&["ingest"]);
    assert_eq!(sb.counts().1, 6);
}

#[test]
fn lint_reads_a_crossover_against_every_other_series() {
    // Sharded passes both others from 128 clients on (the points: 8 … 256).
    let sb = Sandbox::new();
    sb.fixture("edges/crossover", "");
    sb.ok(&["ingest"]);
    let out = sb.run(&["lint", "--all", "doc.md"]).stdout;
    let read = |line: usize| -> String {
        let at = format!("doc.md:{line}:1: ");
        let from = out.find(&at).unwrap_or_else(|| panic!("no finding at line {line}: {out}"));
        let rest = &out[from..];
        rest[..rest[at.len()..].find("doc.md:").map_or(rest.len(), |k| k + at.len())].to_string()
    };
    let at_128 = read(3);
    assert!(at_128.starts_with("doc.md:3:1: holds"), "{at_128}");
    assert!(at_128.contains("read as: crossover(sharded, others on throughput_rps over clients) = 128"), "{at_128}");
    // Past a point: beyond it, and ahead at every point beyond it.
    let past = read(5);
    assert!(past.starts_with("doc.md:5:1: holds"), "{past}");
    assert!(
        past.contains(
            "read as: crossover(sharded, others on throughput_rps over clients) > 64 and sharded beats others on \
             throughput_rps for all clients > 64"
        ),
        "{past}"
    );
    // Not ahead at 64: past 32 is contradicted, and so is a crossover of
    // a series that never passes the others.
    assert!(read(7).starts_with("doc.md:7:1: contradicted"), "{}", read(7));
    assert!(read(9).starts_with("doc.md:9:1: contradicted: no crossover"), "{}", read(9));
    // `others` as the subject is not read: unread, never guessed.
    let unread = read(11);
    assert!(unread.contains("unread") && !unread.contains("read as"), "{unread}");
}

/// `…, and unsharded wins below`: the second clause borrowed the first's
/// `for all clients > 64` and dropped `below`, reading the opposite of what
/// it says (`unsharded beats others … for all clients > 64`), reported
/// contradicted. A range with no point of its own is unread.
#[test]
fn lint_leaves_a_dangling_below_unread_rather_than_reading_the_lent_range() {
    let sb = Sandbox::new();
    sb.fixture("edges/crossover", "");
    sb.write(
        "two.md",
        "# Sharding\n\nSharded overtakes every other configuration past 64 clients, and unsharded wins below.\n",
    );
    sb.ok(&["ingest"]);
    let out = sb.run(&["lint", "--all", "--format", "json", "two.md"]).json();
    let statements = out["statements"].as_array().unwrap();
    let unsharded: Vec<&serde_json::Value> =
        statements.iter().filter(|s| s["claim"].as_str().is_some_and(|c| c.starts_with("unsharded"))).collect();
    assert!(unsharded.is_empty(), "read the lent range as its opposite: {unsharded:#?}");
    assert!(statements.iter().any(|s| s["status"] == "unjudged"), "{statements:#?}");
    assert!(statements.iter().any(|s| s["claim"].as_str().is_some_and(|c| c.starts_with("crossover(sharded"))));
}
