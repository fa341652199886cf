//! End-to-end: living documents through the real `reckon` binary — the
//! bundled notebook's story across the two sweeps, a claim-free document
//! that `update --write` makes pass `check`, directives in code, CRLF,
//! hand edits, malformed directives, deterministic plots, untouched
//! documents, and `check`'s exit codes and output formats.
//!
//! Expected numbers are the scenario's (notebooks/logs, the
//! bundled example's): output throughput at `max_concurrency=30` is
//! 641.8 (baseline) and 329.5 (eagle-topk4-v1) in the 2026-11-20 stdout
//! logs ("Output token throughput (tok/s)"), and the medians of three
//! repeats 689.4, 759.3 (eagle-topk1-v2) and 341.0 in the 2026-11-29 JSONL
//! (`tests/cli_ingest.rs` checks the whole 2026-11-29 table).

mod common;

use std::path::Path;
use std::time::{Duration, SystemTime};

use common::{copy_dir, fixtures, repo, scenario_logs, Ran, Sandbox};
use reckon::doc::{self, Document};

const NOTEBOOK: &str = "notebooks/eagle-fast-verify.md";
const NOTEBOOK_SVG: &str = "notebooks/eagle-fast-verify-throughput.svg";
const FIRST: &str = "2026-11-20";
const SECOND: &str = "2026-11-29";

/// A copy of the bundled example (reckon.toml, the notebook and its plot)
/// with only the sweeps named in `sweeps` under notebooks/logs/.
fn notebook_sandbox(sweeps: &[&str]) -> Sandbox {
    let s = Sandbox::new();
    std::fs::copy(repo().join("reckon.toml"), s.path().join("reckon.toml")).unwrap();
    std::fs::create_dir_all(s.path().join("notebooks")).unwrap();
    for f in [NOTEBOOK, NOTEBOOK_SVG] {
        std::fs::copy(repo().join(f), s.path().join(f)).unwrap();
    }
    for sweep in sweeps {
        add_sweep(&s, "notebooks/logs", sweep);
    }
    s
}

/// Copies one sweep's folder of the scenario logs into the sandbox.
fn add_sweep(s: &Sandbox, logs: &str, sweep: &str) {
    copy_dir(&scenario_logs().join(sweep), &s.path().join(logs).join(sweep));
}

const TOML: &str = "series = \"config\"\n\n\
                    [[source]]\npath = \"logs/{date}/{config}.log\"\n\n\
                    [[source]]\npath = \"logs/{date}/{config}.jsonl\"\n";

/// A project whose reckon.toml ingests `logs/`, holding the sweeps named
/// and the claim-free fixture document as `doc.md`.
fn project(sweeps: &[&str]) -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", TOML);
    for sweep in sweeps {
        add_sweep(&s, "logs", sweep);
    }
    s.write("doc.md", std::fs::read(fixtures().join("docs/throughput.md")).unwrap());
    s
}

fn bytes(s: &Sandbox, rel: &str) -> Vec<u8> {
    std::fs::read(s.path().join(rel)).unwrap()
}

fn mtime(s: &Sandbox, rel: &str) -> SystemTime {
    std::fs::metadata(s.path().join(rel)).unwrap().modified().unwrap()
}

/// Sets a file's modification time to a fixed past instant, so "unchanged"
/// cannot be an accident of a coarse clock.
fn age(s: &Sandbox, rel: &str) -> SystemTime {
    let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    std::fs::File::options().write(true).open(s.path().join(rel)).unwrap().set_modified(t).unwrap();
    t
}

fn code(s: &Sandbox, args: &[&str], expected: i32) -> Ran {
    let r = s.run(args);
    assert_eq!(r.code, expected, "reckon {args:?}\n{r:?}");
    r
}

/// The lines `check` (human) prints for its problems: `path:line: level: …`.
fn problem_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.contains(": error: ") || l.contains(": warning: ")).collect()
}

fn parse(path: &str, text: &str) -> Document {
    doc::parse(Path::new(path), text).expect("the document parses")
}

/// The bytes of `text` outside every region's content and closing marker
/// (which a regeneration may rewrite), in order.
fn outside(d: &Document, text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut pos = 0;
    for r in &d.regions {
        parts.push(text[pos..r.content.start].to_string());
        pos = r.close.end;
    }
    parts.push(text[pos..].to_string());
    parts
}

#[test]
fn notebook_story_across_the_two_sweeps() {
    let s = notebook_sandbox(&[FIRST]);
    // The notebook is committed as regenerated from the 2026-11-20 sweep:
    // with only that sweep, updating writes nothing and check passes.
    let committed = bytes(&s, NOTEBOOK);
    let committed_svg = bytes(&s, NOTEBOOK_SVG);
    let r = code(&s, &["update", "--write", NOTEBOOK], 0);
    assert_eq!(r.stdout, "", "nothing to show: {r:?}");
    assert_eq!(bytes(&s, NOTEBOOK), committed);
    assert_eq!(bytes(&s, NOTEBOOK_SVG), committed_svg);
    code(&s, &["check", NOTEBOOK], 0);

    add_sweep(&s, "notebooks/logs", SECOND);
    let r = code(&s, &["check", NOTEBOOK], 1);
    let out = &r.stdout;
    // The results table: the new series appears, C=30 moves from the
    // 2026-11-20 values to the 2026-11-29 medians, the best now topk1-v2.
    for line in [
        "-| max_concurrency | baseline | eagle-topk4-v1 |",
        "+| max_concurrency | baseline | eagle-topk1-v2 | eagle-topk4-v1 |",
        "-| 30 | **641.8** | 329.5 |",
        "+| 30 | 689.4 | **759.3** | 341.0 |",
        "-| 1 | 93.1 | **96.0** |",
        "+| 1 | 92.7 | 86.8 | **96.4** |",
        "-_22 runs; sweep 2026-11-20; median of each cell's newest sweep; output_throughput in tok/s._",
        // C=2, 100, 150 and 200: topk1-v2 and baseline within noise of
        // each other, so both are marked as tied rather than one bolded.
        "+| 100 | **773.0** ≈ | **775.2** ≈ | 353.2 |",
        "+_99 runs; sweep 2026-11-29; median of each cell's newest sweep; output_throughput in tok/s._ \
         _≈: tied for best, none of them ahead of the others beyond noise._",
    ] {
        assert!(out.lines().any(|l| l == line), "missing `{line}` in\n{out}");
    }
    // The inline values: topk4-v1's plateau 336.1 -> 353.2 (C=150 of the
    // first sweep, C=100 of the second), C=8 286.5 -> 287.9 and
    // 458.9 -> 462.5, C=1 96.0 -> 96.4 and 93.1 -> 92.7.
    for (old, new) in [("336.1", "353.2"), ("286.5", "287.9"), ("458.9", "462.5"), ("96.0", "96.4"), ("93.1", "92.7")] {
        let minus = out.lines().any(|l| l.starts_with('-') && l.contains(&format!("-->{old}<!-- /reckon:value")));
        let plus = out.lines().any(|l| l.starts_with('+') && l.contains(&format!("-->{new}<!-- /reckon:value")));
        assert!(minus && plus, "value {old} -> {new} not in the diff\n{out}");
    }
    let peak = "+<!-- reckon:value metric=output_throughput config=eagle-topk4-v1 max_over=max_concurrency \
                digits=1 -->353.2<!-- /reckon:value digest=";
    assert!(out.contains(peak), "{out}");
    // Baseline's peak is 773.0 in both sweeps (C=150, then C=100): unchanged.
    assert!(!out.lines().any(|l| l.starts_with(['-', '+']) && l.contains("-->773.0<")), "{out}");
    // The plot: its data, not its coordinates, as a diff.
    assert!(
        out.contains(&format!("--- a/{NOTEBOOK_SVG} (plotted data)\n+++ b/{NOTEBOOK_SVG} (plotted data)\n")),
        "{out}"
    );
    // The new sweep has three runs per point: each point carries its lowest
    // and highest run (the error bars), e.g. baseline C=30 685.2673-692.6957.
    for line in [
        "-series\tx\ty",
        "+series\tx\ty\tlow\thigh",
        "-baseline\t30\t641.8",
        "+baseline\t30\t689.4\t685.267\t692.696",
        "+eagle-topk1-v2\t30\t759.3\t753.536\t765.579",
        "-eagle-topk4-v1\t30\t329.5",
        "+eagle-topk4-v1\t30\t341\t339.168\t343.121",
    ] {
        assert!(out.lines().any(|l| l == line), "missing plot data `{line}` in\n{out}");
    }
    let problems = problem_lines(out);
    for p in [
        "notebooks/eagle-fast-verify.md:41: error: table region is stale",
        "notebooks/eagle-fast-verify.md:59: error: plot notebooks/eagle-fast-verify-throughput.svg is stale",
        "notebooks/eagle-fast-verify.md:65: error: value region is stale",
    ] {
        assert!(problems.contains(&p), "missing `{p}` in {problems:#?}");
    }
    // The check wrote nothing.
    assert_eq!(bytes(&s, NOTEBOOK), committed);
    assert_eq!(bytes(&s, NOTEBOOK_SVG), committed_svg);

    code(&s, &["update", "--write", NOTEBOOK], 0);
    let updated = s.read(NOTEBOOK);
    assert!(updated.contains("| 30 | 689.4 | **759.3** | 341.0 |"));
    // The 2026-11-20 table keeps that date's numbers.
    assert!(updated.contains("| 30 | 641.8 | 329.5 |"));
    let svg = s.read(NOTEBOOK_SVG);
    assert!(reckon::render::plot::data_of(&svg).unwrap().contains("eagle-topk1-v2\t30\t759.3\t753.536\t765.579\n"));

    // Only the contradicted conclusions remain: the regions are current.
    let r = code(&s, &["check", NOTEBOOK], 1);
    let problems = problem_lines(&r.stdout);
    let ids: Vec<&str> = problems.iter().map(|p| p.split('`').nth(1).unwrap_or("")).collect();
    assert_eq!(ids, ["throughput-baseline-wins", "saturation-ratio", "topk4-plateau"], "{r:?}");
    assert!(problems.iter().all(|p| p.contains(": error: claim `") && p.contains(" contradicted ")), "{problems:#?}");
    assert!(
        problems[0].contains("worst at max_concurrency=30: baseline 689.4 vs eagle-topk1-v2 759.3"),
        "{problems:#?}"
    );
    assert!(!r.stdout.contains("--- a/"), "no diff once regenerated: {r:?}");
    // A second update changes nothing.
    let before = bytes(&s, NOTEBOOK);
    code(&s, &["update", "--write", NOTEBOOK], 0);
    assert_eq!(bytes(&s, NOTEBOOK), before);
}

#[test]
fn claim_free_document_passes_check_after_update_write() {
    let s = project(&[FIRST]);
    let original = s.read("doc.md");
    // Never generated: stale, and check shows what update would write.
    let r = code(&s, &["check", "doc.md"], 1);
    assert!(r.stdout.contains("+| 30 | **641.8** | 329.5 |"), "{r:?}");
    assert!(r.stdout.contains("new plot throughput.svg (22 points)"), "{r:?}");
    assert_eq!(s.read("doc.md"), original);

    code(&s, &["update", "--write", "doc.md"], 0);
    code(&s, &["check", "doc.md"], 0);
    let first = s.read("doc.md");
    assert!(
        first.contains(
            "Baseline peaks at <!-- reckon:value metric=output_throughput config=baseline \
     max_over=max_concurrency digits=1 -->773.0<!-- /reckon:value digest="
        ),
        "{first}"
    );
    let d = parse("doc.md", &first);
    assert_eq!(outside(&d, &first), outside(&parse("doc.md", &original), &original));

    add_sweep(&s, "logs", SECOND);
    let r = code(&s, &["check", "doc.md"], 1);
    assert!(r.stdout.contains("-| 30 | **641.8** | 329.5 |\n"), "{r:?}");
    assert!(r.stdout.contains("+| 30 | 689.4 | **759.3** | 341.0 |\n"), "{r:?}");
    assert!(r.stdout.contains("-->641.8<!-- /reckon:value"), "{r:?}");
    assert!(r.stdout.contains("-->689.4<!-- /reckon:value"), "{r:?}");
    // The plotted data carry each point's lowest and highest run.
    assert!(r.stdout.contains("+eagle-topk1-v2\t30\t759.3\t"), "{r:?}");
    code(&s, &["update", "--write", "doc.md"], 0);
    let r = code(&s, &["check", "doc.md"], 0);
    assert_eq!(r.stdout, "");
}

#[test]
fn directives_in_code_are_text() {
    let s = project(&[FIRST]);
    let example = std::fs::read(fixtures().join("docs/code-examples.md")).unwrap();
    s.write("code.md", &example);
    let r = code(&s, &["update", "--write", "code.md"], 0);
    assert_eq!(r.stdout, "");
    assert_eq!(bytes(&s, "code.md"), example);
    code(&s, &["check", "code.md"], 0);

    // Next to a real region, the fenced example keeps its stale numbers.
    let text = String::from_utf8(example.clone()).unwrap();
    let mixed = format!(
        "{text}\nAt C=30: <!-- reckon:value metric=output_throughput config=baseline \
     max_concurrency=30 -->0<!-- /reckon:value --> tok/s.\n"
    );
    s.write("mixed.md", &mixed);
    code(&s, &["update", "--write", "mixed.md"], 0);
    let after = s.read("mixed.md");
    assert!(after.starts_with(&text), "the code examples are kept byte for byte:\n{after}");
    assert!(after.contains("max_concurrency=30 -->641.8<!-- /reckon:value digest="), "{after}");
    let d = parse("mixed.md", &after);
    assert_eq!(d.regions.len(), 1);
}

#[test]
fn crlf_document_round_trips() {
    let s = project(&[FIRST]);
    let lf = std::fs::read_to_string(fixtures().join("docs/throughput.md")).unwrap();
    let crlf = format!("\u{feff}{}", lf.replace('\n', "\r\n"));
    s.write("doc.md", &crlf);
    code(&s, &["update", "--write", "doc.md"], 0);
    let after = s.read("doc.md");
    assert_ne!(after, crlf);
    // Every line break is CRLF, the generated ones included.
    assert_eq!(after.matches('\n').count(), after.matches("\r\n").count(), "{after:?}");
    assert!(after.contains("\r\n| 30 | **641.8** | 329.5 |\r\n"), "{after:?}");
    // Every byte outside the regions is as it was (BOM included).
    let (old, new) = (parse("doc.md", &crlf), parse("doc.md", &after));
    assert_eq!(outside(&old, &crlf), outside(&new, &after));
    assert!(after.starts_with('\u{feff}'));
    // Stable: check passes and a second update writes the same bytes.
    code(&s, &["check", "doc.md"], 0);
    let once = bytes(&s, "doc.md");
    code(&s, &["update", "--write", "doc.md"], 0);
    assert_eq!(bytes(&s, "doc.md"), once);
}

#[test]
fn hand_edited_region_is_refused_unless_forced() {
    let s = project(&[FIRST]);
    code(&s, &["update", "--write", "doc.md"], 0);
    let generated = s.read("doc.md");
    let edited = generated.replacen("| 30 | **641.8** | 329.5 |", "| 30 | **650.0** | 329.5 |", 1);
    assert_ne!(edited, generated);
    s.write("doc.md", &edited);

    let r = code(&s, &["update", "--write", "doc.md"], 2);
    assert!(
        r.stderr
            .contains("error: doc.md:6:1: this table region was edited by hand since reckon wrote it; not overwritten"),
        "{r:?}"
    );
    assert!(r.stdout.contains("-| 30 | **650.0** | 329.5 |\n+| 30 | **641.8** | 329.5 |\n"), "{r:?}");
    assert_eq!(s.read("doc.md"), edited, "the file is unchanged");
    let r = code(&s, &["check", "doc.md"], 1);
    assert!(
        problem_lines(&r.stdout)
            .contains(&"doc.md:6: error: table region was edited by hand and does not match the data"),
        "{r:?}"
    );

    code(&s, &["update", "--write", "--force", "doc.md"], 0);
    assert_eq!(s.read("doc.md"), generated);
}

/// Writes `text` as bad.md, runs `update --write` and `check` on it, and
/// returns update's stderr; both exit 2 and the file is untouched.
fn malformed(s: &Sandbox, text: &str) -> String {
    s.write("bad.md", text);
    let t = age(s, "bad.md");
    let r = code(s, &["update", "--write", "--no-ingest", "bad.md"], 2);
    assert_eq!(s.read("bad.md"), text);
    assert_eq!(mtime(s, "bad.md"), t);
    let c = code(s, &["check", "--no-ingest", "bad.md"], 2);
    assert_eq!(c.stderr, r.stderr, "check and update report the same error");
    r.stderr
}

#[test]
fn malformed_directives_are_errors_at_their_position() {
    let s = project(&[FIRST]);
    code(&s, &["ingest", "-q"], 0);
    let head = "# Plan\n\nText.\n";
    // (directive text on line 4, expected start of the error)
    let cases: [(&str, &str); 11] = [
        (
            "<!-- reckon:tabel metric=output_throughput -->\n<!-- /reckon:tabel -->\n",
            "bad.md:4:13: unknown \
         directive `reckon:tabel`; the kinds are table, value, plot, sql, template, claim",
        ),
        (
            "<!-- reckon:table metirc=output_throughput rows=max_concurrency -->\n<!-- /reckon:table -->\n",
            "bad.md:4:19: table region: unknown argument `metirc` (did you mean `metric`?)",
        ),
        (
            "<!-- reckon:table metric=output_throughput rows=max_concurrency -->\n| x |\n",
            "bad.md:4:1: the \
         `reckon:table` region is never closed",
        ),
        ("| x |\n<!-- /reckon:table -->\n", "bad.md:5:1: `<!-- /reckon:table -->` closes no region"),
        (
            "<!-- reckon:table metric=output_throughput rows=max_concurrency -->\n<!-- /reckon:plot -->\n",
            "bad.md:5:1: `<!-- /reckon:plot -->` does not close the `reckon:table` region opened at line 4",
        ),
        (
            "<!-- reckon:table metric=output_throughput rows=max_concurrency -->\n<!-- reckon:value \
             metric=output_throughput -->1<!-- /reckon:value -->\n<!-- /reckon:table -->\n",
            "bad.md:5:1: `reckon:value` opens inside the `reckon:table` region opened at line 4",
        ),
        (
            "<!-- reckon:table metric=output_thruput rows=max_concurrency -->\n<!-- /reckon:table -->\n",
            "bad.md:4:19: table region: unknown metric `output_thruput` (did you mean `output_throughput`?)",
        ),
        (
            "<!-- reckon:table metric=output_throughput rows=max_concurency -->\n<!-- /reckon:table -->\n",
            "bad.md:4:44: table region: unknown param `max_concurency` in rows (did you mean `max_concurrency`?)",
        ),
        (
            "<!-- reckon:table metric=output_throughput rows=max_concurrency cols=confg -->\n<!-- /reckon:table -->\n",
            "bad.md:4:65: table region: unknown param `confg` in cols (did you mean `config`?)",
        ),
        (
            "<!-- reckon:table metric=output_throughput rows=max_concurrency where=\"confg = baseline\" \
             -->\n<!-- /reckon:table -->\n",
            "bad.md:4:65: table region: unknown param `confg` in the filter (did you mean `config`?)",
        ),
        (
            "At C=8 <!-- reckon:value metric=output_throughput config=baseline max_concurency=8 -->1<!-- \
             /reckon:value -->\n",
            "bad.md:4:67: value region: unknown param or argument `max_concurency` (did you mean `max_concurrency`?)",
        ),
    ];
    for (directive, expected) in cases {
        let stderr = malformed(&s, &format!("{head}{directive}"));
        assert!(stderr.starts_with(&format!("error: {expected}")), "expected `{expected}`, got:\n{stderr}");
        // The error shows the line with a caret under the column.
        let col: usize = expected.split(':').nth(2).unwrap().parse().unwrap();
        let caret = stderr.lines().find(|l| l.trim() == "^").unwrap_or_else(|| panic!("no caret in\n{stderr}"));
        assert_eq!(caret.len(), col + 2, "caret under column {col}:\n{stderr}");
    }
    // The plot and template renderers place unknown params at their argument too.
    let stderr = malformed(
        &s,
        "<!-- reckon:plot metric=output_throughput x=max_concurrency series=confg -->\n<!-- /reckon:plot -->\n",
    );
    assert!(stderr.starts_with("error: bad.md:1:61: plot region: unknown param `confg` in series"), "{stderr}");
    let stderr = malformed(
        &s,
        "<!-- reckon:template name=sweeps.md metric=output_throughput \
     rows=max_concurency -->\n<!-- /reckon:template -->\n",
    );
    assert!(
        stderr.starts_with("error: bad.md:1:62: template region: unknown param `max_concurency` in rows"),
        "{stderr}"
    );
    let stderr = malformed(
        &s,
        "Peak <!-- reckon:value metric=output_throughput max_over=concurrency -->1<!-- /reckon:value -->\n",
    );
    assert!(
        stderr.starts_with("error: bad.md:1:49: value region: unknown param `concurrency` in max_over"),
        "{stderr}"
    );
}

#[test]
fn a_document_changed_after_it_was_read_is_not_clobbered() {
    // Library level, deterministic: review the document (what update does
    // before writing), let an editor save it, then write the review.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.md");
    let original = std::fs::read_to_string(fixtures().join("docs/throughput.md")).unwrap();
    std::fs::write(&path, &original).unwrap();
    let store = common::scenario_store(&["log"]);
    let dataset = reckon::query::Dataset::load(&store).unwrap();
    let cfg = reckon::config::Config::defaults(dir.path());
    let ctx = reckon::review::Context { dataset: &dataset, store: &store, cfg: &cfg, doc_dir: dir.path(), cache: None };
    let review = reckon::review::document::review(&ctx, &path).unwrap();
    assert!(review.updated.contains("| 30 | **641.8** | 329.5 |"), "{}", review.updated);

    let saved = format!("{original}\nA paragraph the author just saved.\n");
    std::fs::write(&path, &saved).unwrap();
    let err = reckon::doc::write_atomic(&path, &review.original, &review.updated).unwrap_err();
    assert!(err.to_string().contains("the file changed since reckon read it; nothing was written"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), saved);
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["doc.md"], "no temporary file left behind");
}

#[test]
fn plots_are_deterministic_and_plain_documents_untouched() {
    let (a, b) = (project(&[FIRST, SECOND]), project(&[FIRST, SECOND]));
    code(&a, &["update", "--write", "doc.md"], 0);
    code(&b, &["update", "--write", "doc.md"], 0);
    let svg = bytes(&a, "throughput.svg");
    assert_eq!(svg, bytes(&b, "throughput.svg"), "same data, same SVG bytes");
    assert_eq!(bytes(&a, "doc.md"), bytes(&b, "doc.md"));
    // A second update neither rewrites the plot nor the document.
    let (svg_time, doc_time) = (age(&a, "throughput.svg"), age(&a, "doc.md"));
    let r = code(&a, &["update", "--write", "doc.md"], 0);
    assert_eq!(r.stdout, "");
    assert_eq!(bytes(&a, "throughput.svg"), svg);
    assert_eq!((mtime(&a, "throughput.svg"), mtime(&a, "doc.md")), (svg_time, doc_time));

    // No directives: never changed, not even its modification time.
    let plain =
        "# Notes\r\n\r\nNo regions here, only <!-- a comment --> and `<!-- reckon:value -->`.\r\n\u{2014} the end";
    a.write("plain.md", plain);
    let t = age(&a, "plain.md");
    let r = code(&a, &["update", "--write", "plain.md"], 0);
    assert_eq!(r.stdout, "");
    code(&a, &["check", "plain.md"], 0);
    assert_eq!(a.read("plain.md"), plain);
    assert_eq!(mtime(&a, "plain.md"), t);
}

#[test]
fn check_exit_codes_and_formats() {
    let s = project(&[FIRST]);
    // No documents: nothing to check.
    let r = code(&s, &["check"], 0);
    assert_eq!(r.stdout, "");
    let r = code(&s, &["check", "--format", "json"], 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["documents"], serde_json::json!([]));

    // Stale (never generated): 1, in every format.
    let r = code(&s, &["check", "doc.md"], 1);
    assert_eq!(
        problem_lines(&r.stdout),
        [
            "doc.md:6: error: table region is stale",
            "doc.md:9: error: value region is stale",
            "doc.md:10: error: value region is stale",
            "doc.md:12: error: plot region is stale",
            "doc.md:12: error: plot throughput.svg is stale",
        ]
    );
    assert!(r.stdout.contains("--- a/doc.md\n+++ b/doc.md\n"), "{r:?}");
    assert!(
        r.stdout
            .ends_with("reckon check: 5 problem(s) in 1 document(s); regenerate with `reckon update --write doc.md`\n"),
        "{r:?}"
    );

    let r = code(&s, &["check", "--format", "json", "doc.md"], 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["errors"], serde_json::json!([]));
    let d = &v["documents"][0];
    assert_eq!(d["path"], "doc.md");
    assert_eq!(d["current"], false);
    let stale: Vec<(String, u64, bool)> = d["stale_regions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["kind"].as_str().unwrap().to_string(),
                r["line"].as_u64().unwrap(),
                r["edited_by_hand"].as_bool().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, u64, bool)> = [("table", 6), ("value", 9), ("value", 10), ("plot", 12)]
        .iter()
        .map(|(k, l)| (k.to_string(), *l, false))
        .collect();
    assert_eq!(stale, expected);
    assert_eq!(d["stale_files"], serde_json::json!([{"path": "throughput.svg", "line": 12}]));
    assert_eq!(d["claims"], serde_json::json!([]));

    let r = code(&s, &["check", "--format", "github", "doc.md"], 1);
    assert_eq!(
        r.stdout,
        "::error file=doc.md,line=6,title=reckon::table region is stale\n\
         ::error file=doc.md,line=9,title=reckon::value region is stale\n\
         ::error file=doc.md,line=10,title=reckon::value region is stale\n\
         ::error file=doc.md,line=12,title=reckon::plot region is stale\n\
         ::error file=doc.md,line=12,title=reckon::plot throughput.svg is stale\n"
    );

    // Current: 0, quiet in every format.
    code(&s, &["update", "--write", "doc.md"], 0);
    assert_eq!(code(&s, &["check", "doc.md"], 0).stdout, "");
    assert_eq!(code(&s, &["check", "--format", "github", "doc.md"], 0).stdout, "");
    let v: serde_json::Value =
        serde_json::from_str(&code(&s, &["check", "--format", "json", "doc.md"], 0).stdout).unwrap();
    assert_eq!(
        (v["ok"].clone(), v["documents"][0]["current"].clone()),
        (serde_json::json!(true), serde_json::json!(true))
    );

    // 2: a malformed directive, a missing document, a bad reckon.toml.
    s.write("bad.md", "x <!-- reckon:tabel -->\n");
    let r = code(&s, &["check", "doc.md", "bad.md"], 2);
    assert!(r.stderr.contains("error: bad.md:1:15: unknown directive `reckon:tabel`"), "{r:?}");
    let r = code(&s, &["check", "--format", "json", "bad.md"], 2);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["ok"], serde_json::json!(false));
    assert_eq!(v["errors"].as_array().map(Vec::len), Some(1), "{v}");
    let r = code(&s, &["check", "missing.md"], 2);
    assert!(r.stderr.contains("missing.md"), "{r:?}");
    s.write("reckon.toml", "series = \"config\"\n[[source]\npath = 1\n");
    let r = code(&s, &["check", "doc.md"], 2);
    assert!(r.stderr.contains("reckon.toml"), "{r:?}");
}

/// A value region whose runs span several concurrencies would print the
/// median of unlike things: it is refused with the ways to pick one.
#[test]
fn a_value_over_several_points_is_refused() {
    let s = Sandbox::with_scenario();
    s.write("reckon.toml", "[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n");
    s.write("v.md", "Baseline: <!-- reckon:value metric=output_throughput config=baseline --><!-- /reckon:value -->\n");
    let r = s.run(&["update", "--write", "v.md"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(
            "v.md:1:29: value region: the runs this value reads differ in \
     `max_concurrency` (1, 2, 4, 8, 16, 30, …); pick one with `max_concurrency=…`, or take the best or worst \
     with `max_over=max_concurrency` / `min_over=max_concurrency`"
        ),
        "{r:?}"
    );
    assert_eq!(
        s.read("v.md"),
        "Baseline: <!-- reckon:value metric=output_throughput config=baseline --><!-- /reckon:value -->\n"
    );
    s.write(
        "v.md",
        "Baseline: <!-- reckon:value metric=output_throughput config=baseline \
     max_concurrency=30 --><!-- /reckon:value -->\n",
    );
    s.ok(&["update", "--write", "v.md"]);
    assert!(s.read("v.md").contains("-->689.4<!--"), "{}", s.read("v.md"));
}

/// Plots are named after their document by default, and two documents
/// drawing the same file are stopped instead of overwriting each other.
#[test]
fn plots_of_two_documents_do_not_overwrite_each_other() {
    let s = Sandbox::with_scenario();
    s.write("reckon.toml", "[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n");
    let plot = "<!-- reckon:plot metric=output_throughput x=max_concurrency -->\n<!-- /reckon:plot -->\n";
    s.write("a.md", plot);
    s.write("b.md", plot);
    s.ok(&["update", "--write", "a.md", "b.md"]);
    assert!(s.path().join("a-output_throughput-by-max_concurrency.svg").is_file());
    assert!(s.path().join("b-output_throughput-by-max_concurrency.svg").is_file());
    s.ok(&["check", "a.md", "b.md"]);

    let shared =
        "<!-- reckon:plot metric=output_throughput x=max_concurrency file=shared.svg -->\n<!-- /reckon:plot -->\n";
    s.write("a.md", shared);
    s.write("b.md", shared);
    let r = s.run(&["update", "--write", "a.md", "b.md"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("error: b.md: a plot writes shared.svg, which a.md also draws; give one of them its own file="),
        "{r:?}"
    );
    assert_eq!(s.read("b.md"), shared, "the second document is not written");
}
