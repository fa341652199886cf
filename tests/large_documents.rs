//! Large documents through the real binary: a long section without
//! headings, many regions, a directive of many arguments, a huge argument
//! value. Each once made a command quadratic or its error unbounded
//! (issue 21, findings 21–24). Nothing here is timed: the sizes are ones a
//! quadratic step would take minutes over, and the tests check what came
//! out (the `check` bench shows the speed).

mod common;

use common::Sandbox;
use std::fmt::Write as _;

const SWEEPS: [&str; 2] = ["2026-11-20", "2026-11-29"];

/// The bundled example, ingested.
fn example() -> Sandbox {
    let s = Sandbox::example("", &SWEEPS);
    s.ok(&["ingest"]);
    s
}

/// A section of `bytes` of prose and no heading, naming series only in its
/// first and last paragraphs, with one statement lint reads in its last.
fn long_section(bytes: usize) -> String {
    let mut doc = String::from("# Notes\n\nbaseline is the reference.\n\n");
    let mut k = 0;
    while doc.len() < bytes {
        let _ = write!(doc, "Paragraph {k} measures the throughput at several points.\n\n");
        k += 1;
    }
    doc.push_str("eagle-topk1-v2 is faster on output_throughput at max_concurrency = 30.\n");
    doc
}

#[test]
fn finding_21_lint_reads_a_long_headingless_section_whole() {
    let s = example();
    s.write("notebooks/long.md", long_section(300_000));
    let ran = s.run(&["lint", "--no-ingest", "--all", "--format", "json", "notebooks/long.md"]);
    let found: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {ran:?}"));
    let statements = found["statements"].as_array().unwrap_or_else(|| panic!("{found:#}"));
    // The last sentence, compared with the series named 300 KB before it.
    let last = statements
        .iter()
        .find(|f| f["sentence"].as_str().is_some_and(|t| t.starts_with("eagle-topk1-v2 is faster")))
        .unwrap_or_else(|| panic!("the statement is read: {found:#}"));
    assert_eq!(last["claim"], "eagle-topk1-v2 beats baseline on output_throughput at max_concurrency = 30", "{last:#}");
    assert!(last["notes"].to_string().contains("named in the section"), "{last:#}");
}

/// `n` value regions, one per list item, as the reproducer writes them.
fn value_regions(n: usize) -> String {
    let cs = [1, 2, 4, 8, 16, 30, 50, 100, 150, 200, 250];
    let cfg = ["baseline", "eagle-topk4-v1", "eagle-topk1-v2"];
    let mut doc = String::from("# Many regions\n\n");
    for i in 0..n {
        let _ = writeln!(
            doc,
            "- v{i} <!-- reckon:value metric=output_throughput config={} max_concurrency={} digits=1 --><!-- \
             /reckon:value -->",
            cfg[(i / 11) % 3],
            cs[i % 11]
        );
    }
    doc
}

#[test]
fn finding_22_many_value_regions_are_written_and_checked_whole() {
    let s = example();
    let n = 5_000;
    s.write("notebooks/many.md", value_regions(n));
    s.ok(&["update", "--no-ingest", "--write", "notebooks/many.md"]);
    let text = s.read("notebooks/many.md");
    let doc = reckon::doc::parse(std::path::Path::new("many.md"), &text).unwrap();
    assert_eq!(doc.regions.len(), n);
    for r in &doc.regions {
        let v = r.content(&text);
        assert!(v.parse::<f64>().is_ok() && r.digest.is_some(), "line {}: `{v}`", r.line);
    }
    // The last region's place is its own line, however far into the text.
    assert_eq!(doc.regions[n - 1].line, n + 2);
    let ran = s.run(&["check", "--no-ingest", "notebooks/many.md"]);
    assert_eq!(ran.code, 0, "{ran:?}");
}

#[test]
fn finding_23_a_directive_of_100000_arguments_is_refused() {
    let s = example();
    let mut args = String::new();
    for i in 0..100_000 {
        let _ = write!(args, " x{i}=1");
    }
    s.write(
        "notebooks/args.md",
        format!("<!-- reckon:table metric=output_throughput rows=max_concurrency{args} -->\n<!-- /reckon:table -->\n"),
    );
    let ran = s.run(&["check", "--no-ingest", "notebooks/args.md"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.starts_with("error: notebooks/args.md:1:65: table region: unknown argument `x0`"), "{ran:?}");
    assert!(ran.stderr.len() < 2_000, "{} bytes", ran.stderr.len());
}

/// At most 2,000 characters of `s`, for a failure message.
fn cut(s: &str) -> String {
    s.chars().take(2_000).collect()
}

#[test]
fn finding_24_a_huge_value_is_quoted_cut_with_its_length() {
    let s = example();
    let huge = "a".repeat(200_000);
    let table = |arg: &str| {
        format!("<!-- reckon:table metric=output_throughput rows=max_concurrency {arg} -->\n<!-- /reckon:table -->\n")
    };
    let cases = [
        (format!("caption=\"{huge}\""), "caption=`"),
        (format!("{huge}=1"), "unknown argument `"),
        (format!("highlight={huge}"), "highlight=`"),
        (format!("where=\"{huge} = 1\""), "unknown param `"),
    ];
    for (arg, quoted) in cases {
        s.write("notebooks/huge.md", table(&arg));
        let ran = s.run(&["check", "--no-ingest", "notebooks/huge.md"]);
        assert_eq!(ran.code, 2, "{arg:.80}: {}", cut(&format!("{ran:?}")));
        let first = ran.stderr.lines().next().unwrap_or_default();
        let at = first.find(quoted).unwrap_or_else(|| panic!("{quoted} in {}", cut(first)));
        let shown = format!("{quoted}{}… (200000 characters)`", "a".repeat(60));
        assert!(first[at..].starts_with(&shown), "{}", cut(first));
        assert!(ran.stderr.len() < 2_000, "{arg:.80}: {} bytes: {}", ran.stderr.len(), cut(&ran.stderr));
    }
}
