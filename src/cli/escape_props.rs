//! Whatever a log value or an argument holds — control characters,
//! markdown and HTML syntax, reckon's own directive markers — every place
//! it reaches gives the output it gives a plain word: the regenerated
//! document (tables, a caption, notes, a template, SQL results, a diff
//! region, a plot's image line), the plot's SVG, the report page, and what
//! `check` prints (for a terminal, and as a CI job's summary). A property test over a document with every kind of
//! region, the log's series name and a plot's title drawn from hostile
//! text (fixed seed, few cases: each is a whole review and a page).

use std::path::Path;

use proptest::prelude::*;

use crate::config::Config;
use crate::escape::tests::{hostile, shape};
use crate::query::Dataset;
use crate::review::document::DocReview;
use crate::review::{check, Context};
use crate::run::Value;
use crate::store::builder::StoreBuilder;
use crate::store::Store;

/// Two sweeps of `a` and of `name` (ahead of `a` everywhere) at two
/// concurrencies, three runs each.
fn store(name: &str) -> Store {
    let mut b = StoreBuilder::new();
    for (day, sweep) in [("2026-11-01", 0.0), ("2026-11-08", 5.0)] {
        let mut runs: Vec<([(&str, Value); 2], f64)> = Vec::new();
        for (config, base) in [("a", 100.0), (name, 200.0)] {
            for c in [1.0, 8.0] {
                for t in 0..3 {
                    let params = [("config", Value::Text(config.to_string())), ("max_concurrency", Value::Num(c))];
                    runs.push((params, base + sweep + c + f64::from(t)));
                }
            }
        }
        b = b.source(&format!("logs/{day}.jsonl"), &format!("{day}T00:00:00Z"), &runs);
    }
    b.build()
}

/// A document with every kind of region; the plot's title is `title`.
fn document(title: &str) -> String {
    format!(
        "# Study\n\n\
         <!-- reckon:table metric=output_throughput rows=max_concurrency caption=true -->\n<!-- /reckon:table -->\n\n\
         <!-- reckon:plot metric=output_throughput x=max_concurrency file=p.svg title=\"{title}\" -->\n\
         <!-- /reckon:plot -->\n\n\
         <!-- reckon:claim id=block a beats others on output_throughput at max_concurrency = 8 -->\n\
         A wins.\n<!-- /reckon:claim -->\n\n\
         We found that <!-- reckon:claim id=inline a beats others on output_throughput at max_concurrency = 1 -->\
         a wins<!-- /reckon:claim --> there, see [the <!-- reckon:value metric=output_throughput config=a \
         max_concurrency=8 --><!-- /reckon:value --> run](https://example.org/run).\n\n\
         <!-- reckon:template name=best-per-row.md metric=output_throughput rows=max_concurrency -->\n\
         <!-- /reckon:template -->\n\n\
         <!-- reckon:sql query=\"SELECT DISTINCT json_extract(params, '$.config') AS c FROM param_set ORDER BY c\" \
         -->\n<!-- /reckon:sql -->\n\n\
         <!-- reckon:diff metric=output_throughput -->\n<!-- /reckon:diff -->\n"
    )
}

/// What came of one document: its review, its page, what `check` prints.
struct Outputs {
    review: DocReview,
    page: String,
    terminal: String,
    /// The job summary `check` appends to `$GITHUB_STEP_SUMMARY`.
    summary: String,
}

fn outputs(name: &str, title: &str) -> Outputs {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.md");
    std::fs::write(&path, document(title)).unwrap();
    let store = store(name);
    let dataset = Dataset::load(&store).unwrap();
    let cfg = Config::defaults(dir.path());
    let ctx = Context { dataset: &dataset, store: &store, cfg: &cfg, doc_dir: dir.path(), cache: None };
    let review = crate::review::document::review(&ctx, &path).unwrap();
    let site = crate::report::Site { root: dir.path().to_path_buf(), page_dir: dir.path().join("site"), commit: None };
    let page = crate::report::page(&ctx, &review, &site).unwrap();
    let shown = |p: &Path| p.display().to_string();
    let problems = check::document_problems(&review, true, &shown);
    let reviews = [review];
    let paths = crate::report::ci::RepoPaths::find(dir.path(), dir.path());
    let found = super::reporter::CheckFindings {
        cwd: dir.path(),
        reviews: &reviews,
        problems: &problems,
        lint: &[],
        errors: &[],
        paths: &paths,
        strict: true,
        compact: false,
        what: "",
    };
    let mut terminal = super::reporter::reporter(super::CheckFormat::Human).check(&found).unwrap();
    let summary = crate::report::ci::summary(&found.ci());
    let [review] = reviews;
    for c in &review.claims {
        terminal.push_str(&super::project::claim_line(&path, c));
        terminal.push('\n');
    }
    // `reckon query` and `reckon diff` as tables for a terminal.
    let mut q = crate::query::Query::new("output_throughput");
    q.rows = vec!["config".to_string()];
    terminal.push_str(&dataset.evaluate(&q).unwrap().to_text(&crate::query::NumberFormat::default()));
    let diff = crate::sweep_diff::compute(&dataset, &cfg.margins(), &crate::sweep_diff::Options::default()).unwrap();
    terminal.push_str(&diff.to_text(crate::sweep_diff::Listing::Changed, None));
    Outputs { review, page, terminal, summary }
}

/// The regions of a text: kind and arguments, in order.
fn regions(text: &str) -> Vec<String> {
    let doc = crate::doc::parse(Path::new("doc.md"), text).unwrap();
    doc.regions
        .iter()
        .map(|r| format!("{:?} {:?}", r.kind, r.args.iter().map(|a| &a.key).collect::<Vec<_>>()))
        .collect()
}

/// The tags of an HTML or SVG text, in order (names only; a comment is
/// one `!--`, whatever it holds).
fn tags(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        if let Some(after) = rest.strip_prefix("!--") {
            out.push("!--");
            rest = after.split_once("-->").map_or("", |(_, r)| r);
            continue;
        }
        out.push(&rest[..rest.find([' ', '>', '\n']).unwrap_or(rest.len())]);
    }
    out
}

/// Characters XML 1.0 allows, and comments without `--`.
fn well_formed_chars(svg: &str) -> bool {
    let allowed =
        |c: char| matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}') || c >= '\u{10000}';
    let comments_ok =
        svg.split("<!--").skip(1).all(|c| c.split_once("-->").is_some_and(|(body, _)| !body.contains("--")));
    svg.chars().all(allowed) && comments_ok
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 48,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x6573_6361_7065),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn hostile_values_and_arguments_change_no_structure(v in hostile(), t in hostile()) {
        // A title is the author's: it cannot hold the `"` or `-->` that end
        // the directive they wrote.
        let title = t.replace(['"', '\\'], "").replace("-->", "");
        let name = format!("s{v}");
        let hostile = outputs(&name, &title);
        let plain = outputs("sx", "x");
        let (h, p) = (&hostile.review, &plain.review);
        // No region but the author's, and the same markdown structure.
        prop_assert_eq!(regions(&h.updated), regions(&document(&title)));
        prop_assert_eq!(shape(&h.updated), shape(&p.updated), "{}", h.updated);
        // The plot: well-formed, the same elements.
        let svg = &h.plots[0].2;
        prop_assert!(well_formed_chars(svg), "{}", svg);
        prop_assert_eq!(tags(svg), tags(&p.plots[0].2));
        // The job summary: the same markdown structure.
        prop_assert_eq!(shape(&hostile.summary), shape(&plain.summary), "{}", hostile.summary);
        // The page: the same elements.
        prop_assert_eq!(tags(&hostile.page), tags(&plain.page), "{}", hostile.page);
        // The terminal: nothing that acts, no workflow command.
        let acts = hostile.terminal.chars().find(|c| c.is_control() && !matches!(c, '\n' | '\t'));
        prop_assert_eq!(acts, None, "{}", hostile.terminal);
        let command = hostile.terminal.lines().find(|l| l.trim_start().starts_with("::"));
        prop_assert_eq!(command, None);
    }
}
