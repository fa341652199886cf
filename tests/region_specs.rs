//! Region arguments as `doc` reads them into each kind's spec, through the
//! real binary: a wrong argument is an error at `file:line:col` of the
//! argument, naming it, whichever kind of region it is in and wherever the
//! region sits in the document; a good document of every kind renders its
//! numbers (the values reviewed against the example's logs: baseline's
//! median at `max_concurrency=30` of the 2026-11-29 sweep is 689.4 tok/s,
//! its best over the concurrencies 773.0 at 100, as `reckon query` prints).

mod common;

use common::Sandbox;

const SWEEPS: [&str; 2] = ["2026-11-20", "2026-11-29"];

/// The bundled example, ingested.
fn example() -> Sandbox {
    let s = Sandbox::example("", &SWEEPS);
    s.ok(&["ingest", "-q"]);
    s
}

/// The region `open` (its opening marker) with its closing marker (a
/// claim with its author's text).
fn region(open: &str) -> String {
    let kind = open.trim_start_matches("<!-- reckon:").split_whitespace().next().unwrap();
    let body = if kind == "claim" { "Baseline wins.\n" } else { "" };
    format!("{open}\n{body}<!-- /reckon:{kind} -->\n")
}

/// Writes a document with a good table first and `open` at line 6, and
/// returns the first line of `check`'s error (after asserting it exits 2,
/// as `update` does with the same error, leaving the file untouched).
fn error_of(s: &Sandbox, open: &str) -> String {
    let good = region("<!-- reckon:table metric=output_throughput rows=max_concurrency digits=1 -->");
    let text = format!("# Bad\n\n{good}\n{}", region(open));
    s.write("notebooks/bad.md", &text);
    let check = s.run(&["check", "--no-ingest", "notebooks/bad.md"]);
    assert_eq!(check.code, 2, "{check:?}");
    let update = s.run(&["update", "--write", "--no-ingest", "notebooks/bad.md"]);
    assert_eq!(update.code, 2, "{update:?}");
    assert_eq!(update.stderr, check.stderr, "update and check report the same error");
    assert_eq!(s.read("notebooks/bad.md"), text, "nothing is written");
    check.stderr.lines().next().unwrap_or_default().to_string()
}

/// The 1-based column of `arg` in `open` (ASCII here).
fn col(open: &str, arg: &str) -> usize {
    open.find(arg).unwrap_or_else(|| panic!("{arg} in {open}")) + 1
}

#[test]
fn a_wrong_argument_is_an_error_at_its_line_and_column_naming_it() {
    let s = example();
    // (the opening marker, the argument the error points at, the message after `KIND region: `)
    let cases = [
        (
            "<!-- reckon:table metric=output_throughput rows=max_concurrency digits=x -->",
            "digits=x",
            "table region: digits=`x`: expected a whole number",
        ),
        (
            "<!-- reckon:table metric=output_throughput rows=max_concurrency colz=config -->",
            "colz=config",
            "table region: unknown argument `colz` (did you mean `cols`?); this region takes: metric, metrics, series, \
             rows, cols, where, as_of, agg, digits, sort, highlight, ratio, caption, labels",
        ),
        (
            "<!-- reckon:table metric=output_throughput rows=max_concurrency highlight=most -->",
            "highlight=most",
            "table region: highlight=`most`: expected `best` or `none`",
        ),
        (
            "<!-- reckon:value metric=output_throughput max_over=max_concurrency min_over=config -->",
            "min_over=config",
            "value region: give `max_over=` or `min_over=`, not both",
        ),
        (
            "<!-- reckon:value metric=output_throughput confg=baseline max_concurrency=30 -->",
            "confg=baseline",
            "value region: unknown param or argument `confg` (did you mean `config`?)",
        ),
        (
            "<!-- reckon:plot metric=output_throughput x=max_concurrency kind=pie -->",
            "kind=pie",
            "plot region: kind=`pie`: expected `line` or `bar`",
        ),
        (
            "<!-- reckon:plot metric=output_throughput x=max_concurrency log=z -->",
            "log=z",
            "plot region: log=`z`: expected `x`, `y` or `xy`",
        ),
        (
            "<!-- reckon:plot metric=output_throughput x=max_concurrency file=../x.svg -->",
            "file=../x.svg",
            "plot region: file=`../x.svg`: expected a relative path ending in .svg, inside the document's folder",
        ),
        (
            "<!-- reckon:sql query=\"SELECT 1\" as_of=tomorrow -->",
            "as_of=tomorrow",
            "sql region: as_of=`tomorrow`: expected a sweep date, YYYY-MM-DD (e.g. as_of=2026-11-20)",
        ),
        (
            "<!-- reckon:template name=sweeps.md colour=red -->",
            "colour=red",
            "template region: unknown argument `colour`; this region takes: name, metric, rows, cols, where, as_of, \
             agg, digits",
        ),
        (
            "<!-- reckon:diff metric=output_throughput only=all -->",
            "only=all",
            "diff region: only=`all`: expected `moved`",
        ),
        (
            "<!-- reckon:table metric=output_throughput rows=max_concurrency sort=nope -->",
            "sort=nope",
            "table region: sort=`nope`: expected `asc`, `desc`, or a column name (prefix `-` for descending)",
        ),
    ];
    for (open, arg, msg) in cases {
        let expected = format!("error: notebooks/bad.md:6:{}: {msg}", col(open, arg));
        assert_eq!(error_of(&s, open), expected, "{open}");
    }
}

/// What is missing is said at the region's opening marker.
#[test]
fn a_missing_argument_is_an_error_at_the_region() {
    let s = example();
    let cases = [
        (
            "<!-- reckon:table metric=output_throughput -->",
            "table region: missing argument `rows=` (the param each table row stands for, e.g. rows=concurrency)",
        ),
        (
            "<!-- reckon:table metrics=output_throughput rows=max_concurrency -->",
            "table region: missing argument `series=`",
        ),
        ("<!-- reckon:plot metric=output_throughput -->", "plot region: missing argument `x=`"),
        ("<!-- reckon:sql digits=1 -->", "sql region: missing argument `query=`"),
    ];
    for (open, msg) in cases {
        assert_eq!(error_of(&s, open), format!("error: notebooks/bad.md:6:1: {msg}"), "{open}");
    }
}

/// A claim's wrong date is the claim's error, at the date as written, and
/// said by the claim's id.
#[test]
fn a_claims_wrong_date_is_said_by_its_id_at_the_date() {
    let s = example();
    let open = "<!-- reckon:claim id=c as_of=nov baseline beats eagle-topk4-v1 on output_throughput -->";
    let expected = format!(
        "error: notebooks/bad.md:6:{}: claim `c`: as_of=`nov`: expected a sweep date, YYYY-MM-DD (e.g. \
         as_of=2026-11-20)",
        col(open, "nov")
    );
    assert_eq!(error_of(&s, open), expected);
}

/// A param list written into an argument naming one param is checked
/// name by name, then refused as one name, as before the specs.
#[test]
fn a_comma_in_a_one_param_argument_is_checked_name_by_name() {
    let s = example();
    let open = "<!-- reckon:plot metric=output_throughput x=max_concurrency,nope -->";
    let first = error_of(&s, open);
    let at = format!("error: notebooks/bad.md:6:{}: plot region: unknown param `nope` in x", col(open, "x="));
    assert!(first.starts_with(&at), "{first}");
    let open = "<!-- reckon:value metric=output_throughput max_over=max_concurrency,config -->";
    let whole = error_of(&s, open);
    let at = format!(
        "error: notebooks/bad.md:6:{}: value region: unknown param `max_concurrency,config` in rows",
        col(open, "metric=")
    );
    assert!(whole.starts_with(&at), "{whole}");
}

#[test]
fn a_good_document_renders_every_kind() {
    let s = example();
    let text = format!(
        "# Specs\n\nBaseline reaches <!-- reckon:value metric=output_throughput config=baseline max_concurrency=30 \
         digits=1 --><!-- /reckon:value --> tok/s, at best <!-- reckon:value metric=output_throughput \
         config=baseline max_over=max_concurrency digits=1 --><!-- /reckon:value -->.\n\n{}\n{}\n{}\n{}",
        region(
            "<!-- reckon:table metric=output_throughput rows=max_concurrency where=\"max_concurrency <= 8\" \
             digits=1 highlight=best sort=desc -->"
        ),
        region("<!-- reckon:plot metric=output_throughput x=max_concurrency log=x -->"),
        region("<!-- reckon:sql query=\"SELECT count(*) AS runs FROM run\" -->"),
        region("<!-- reckon:diff metric=output_throughput only=moved digits=1 -->"),
    );
    s.write("notebooks/spec.md", &text);
    s.ok(&["update", "--write", "--no-ingest", "notebooks/spec.md"]);
    let written = s.read("notebooks/spec.md");
    assert!(written.contains("digits=1 -->689.4<!-- /reckon:value digest="), "{written}");
    assert!(written.contains("max_over=max_concurrency digits=1 -->773.0<!-- /reckon:value digest="), "{written}");
    let table = "| max_concurrency | baseline | eagle-topk1-v2 | eagle-topk4-v1 |\n|---:|---:|---:|---:|\n\
                 | 8 | 462.5 | **489.0** | 287.9 |\n| 4 | 318.2 | **329.5** | 224.0 |\n\
                 | 2 | **175.0** ≈ | **176.1** ≈ | 152.3 |\n| 1 | 92.7 | 86.8 | **96.4** |\n<!-- /reckon:table digest=";
    assert!(written.contains(table), "{written}");
    // The plot is named after the document, its metric and x.
    assert!(
        written.contains("![output_throughput by max_concurrency](spec-output_throughput-by-max_concurrency.svg)"),
        "{written}"
    );
    assert!(s.path().join("notebooks/spec-output_throughput-by-max_concurrency.svg").is_file());
    assert!(written.contains("| runs |\n|---:|\n| 121 |\n<!-- /reckon:sql digest="), "{written}");
    assert!(written.contains("11 of 22 cells moved beyond noise (9 better, 2 worse)"), "{written}");
    // Written, the document is current.
    s.ok(&["check", "--no-ingest", "notebooks/spec.md"]);
}
