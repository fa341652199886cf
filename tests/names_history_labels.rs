//! Names, history and labels in documents, end to end through the real
//! binary on the scenario's two sweeps (logs under `logs/{date}/{config}`):
//! aliases from reckon.toml accepted wherever a name is (regions, `query`,
//! `--where`), `as_of=` pinning a region or a claim to a sweep, and display
//! labels in tables.
//!
//! Expected numbers: `output_throughput` medians from
//! `notebooks/logs/` — at `max_concurrency` 30, baseline 641.8
//! on 2026-11-20 (one run) and 689.4 on 2026-11-29 (three runs),
//! eagle-topk1-v2 759.3 (2026-11-29 only); at 150, baseline 773.0 then 765.2.

mod common;

use common::Sandbox;

const TOML: &str = r#"
series = "config"

[[source]]
path = "logs/{date}/{config}.log"

[[source]]
path = "logs/{date}/{config}.jsonl"

[aliases]
"baseline" = ["baseline", "no speculation"]
"eagle-topk4-v1" = ["EAGLE topk=4, v1", "topk=4+v1"]
"eagle-topk1-v2" = ["EAGLE topk=1 on the spec_v2 overlap path", "topk=1+v2"]
"output_throughput" = ["tok/s", "throughput"]
"max_concurrency" = ["C", "concurrency"]
"#;

fn sandbox() -> Sandbox {
    let s = Sandbox::with_scenario();
    s.write("reckon.toml", TOML);
    s
}

/// The text between a region's opening and closing markers.
fn region<'a>(text: &'a str, opening: &str) -> &'a str {
    let start = text.find(opening).unwrap_or_else(|| panic!("no `{opening}` in\n{text}"));
    let body = &text[start..];
    let body = &body[body.find("-->").unwrap() + 3..];
    &body[..body.find("<!-- /reckon:").unwrap()]
}

#[test]
fn aliases_work_in_query_names_and_filters() {
    let s = sandbox();
    s.ok(&["ingest"]);
    let canonical = s
        .ok(&[
            "query",
            "--metric",
            "output_throughput",
            "--rows",
            "max_concurrency",
            "--cols",
            "config",
            "--where",
            "config in (eagle-topk1-v2, baseline) and max_concurrency <= 30",
            "--format",
            "csv",
        ])
        .stdout;
    assert!(canonical.starts_with("max_concurrency,baseline,eagle-topk1-v2\n"), "{canonical}");
    assert!(canonical.contains("\n30,689.4,759.3\n"), "{canonical}");
    let aliased = s
        .ok(&[
            "query",
            "--metric",
            "tok/s",
            "--rows",
            "C",
            "--cols",
            "config",
            "--where",
            "config in ('topk=1+v2', 'no speculation') and concurrency <= 30",
            "--format",
            "csv",
        ])
        .stdout;
    assert_eq!(aliased, canonical);
    let by_word = s.ok(&["query", "--metric", "throughput", "--rows", "C", "--where", "config = 'topk=1+v2'"]);
    assert!(by_word.stdout.contains("759.3"), "{by_word:?}");

    // `reckon diff` takes them too.
    let moved = s.ok(&["diff", "--metric", "tok/s", "--by", "C", "--where", "config = 'topk=4+v1' and C = 1"]).stdout;
    assert!(moved.contains("cells by max_concurrency:"), "{moved}");
    assert!(moved.contains("output_throughput  max_concurrency=1"), "{moved}");

    // A typo is still refused, with the alias among the suggestions.
    s.test()
        .args(["query", "--metric", "througput", "--rows", "C"])
        .status(2)
        .stderr_has("unknown metric `througput` (did you mean `throughput`?)")
        .run();
    // An alias shared by two series is ambiguous, in a filter as anywhere.
    s.write(
        "reckon.toml",
        TOML.replace("\"topk=4+v1\"]", "\"topk=4+v1\", \"EAGLE\"]")
            .replace("\"topk=1+v2\"]", "\"topk=1+v2\", \"eagle\"]"),
    );
    s.test()
        .args(["query", "--metric", "tok/s", "--rows", "C", "--where", "config = EAGLE"])
        .status(2)
        .stderr_has(
            "`EAGLE` is ambiguous: reckon.toml's [aliases] give it to several values of `config` \
             (`eagle-topk1-v2`, `eagle-topk4-v1`)",
        )
        .run();
}

#[test]
fn aliases_work_in_every_region_argument() {
    let s = sandbox();
    let doc = "plan.md";
    let canonical = "\
<!-- reckon:table metric=output_throughput rows=max_concurrency cols=config \
where=\"max_concurrency in (1, 30) and config != eagle-topk4-v1\" ratio=eagle-topk1-v2/baseline -->
<!-- /reckon:table -->

v2 at C=30: <!-- reckon:value metric=output_throughput config=eagle-topk1-v2 max_concurrency=30 -->\
<!-- /reckon:value -->
";
    let aliased = "\
<!-- reckon:table metric=tok/s rows=C cols=config where=\"concurrency in (1, 30) and config != 'topk=4+v1'\" \
ratio=topk=1+v2/baseline -->
<!-- /reckon:table -->

v2 at C=30: <!-- reckon:value metric=throughput config=\"topk=1+v2\" C=30 --><!-- /reckon:value -->
";
    s.write(doc, canonical);
    s.ok(&["update", "--write", doc]);
    let want = s.read(doc);
    assert!(want.contains("| 30 | 689.4 | 759.3 | 1.10x |"), "{want}");
    assert!(
        want.contains(
            "v2 at C=30: <!-- reckon:value metric=output_throughput config=eagle-topk1-v2 max_concurrency=30 -->\
             759.3<!--"
        ),
        "{want}"
    );
    s.write(doc, aliased);
    s.ok(&["update", "--write", doc]);
    let got = s.read(doc);
    let table = "<!-- reckon:table";
    assert_eq!(region(&got, table), region(&want, table));
    let value = "<!-- reckon:value";
    assert_eq!(region(&got, value), "759.3");

    // A misspelt alias in a region is bad input at its argument.
    s.write(doc, "<!-- reckon:value metric=tok/s config=\"topk=1+v3\" C=30 --><!-- /reckon:value -->\n");
    s.test().args(["check", doc]).status(2).stderr_has(&format!("{doc}:1:")).stderr_has("no run matches").run();
}

#[test]
fn as_of_pins_a_table_a_value_and_a_claim_to_a_sweep() {
    let s = sandbox();
    let doc = "plan.md";
    let text = "\
## Now

<!-- reckon:table metric=output_throughput rows=max_concurrency where=\"max_concurrency = 150\" -->
<!-- /reckon:table -->

## The 2026-11-20 sweep, as recorded

<!-- reckon:table metric=output_throughput rows=max_concurrency where=\"max_concurrency = 150\" as_of=2026-11-20 -->
<!-- /reckon:table -->

Baseline then: <!-- reckon:value metric=output_throughput config=baseline max_concurrency=30 as_of=2026-11-20 -->\
<!-- /reckon:value -->.

<!-- reckon:claim id=then as_of=2026-11-20 baseline beats others on output_throughput for all max_concurrency >= 30 -->
Baseline was strictly superior at saturation.
<!-- /reckon:claim -->

<!-- reckon:claim id=now baseline beats others on output_throughput for all max_concurrency >= 30 -->
Baseline is strictly superior at saturation.
<!-- /reckon:claim -->
";
    s.write(doc, text);
    // Only the first sweep: both tables agree.
    std::fs::remove_dir_all(s.path().join("logs/2026-11-29")).unwrap();
    s.ok(&["update", "--write", doc]);
    let first = s.read(doc);
    let now = region(
        &first,
        "<!-- reckon:table metric=output_throughput rows=max_concurrency where=\"max_concurrency = 150\" -->",
    );
    let pinned = region(&first, "as_of=2026-11-20 -->");
    assert_eq!(now, pinned);
    assert!(pinned.contains("| 150 | 773 | 336.1 |"), "{pinned}");

    // The second sweep arrives: the living table moves, the dated one stays.
    common::copy_dir(&common::scenario_logs().join("2026-11-29"), &s.path().join("logs/2026-11-29"));
    let r = s
        .test()
        .args(["check", doc])
        .status(1)
        .stdout_has("claim `now` contradicted")
        .stdout_lacks("claim `then`")
        .run();
    let stale: Vec<&str> = r.stdout.lines().filter(|l| l.contains(": error: ") && l.contains("stale")).collect();
    assert_eq!(stale.len(), 1, "only the living table is stale: {r:?}");
    assert!(stale[0].contains(&format!("{doc}:3")), "{r:?}");
    s.run(&["update", "--write", doc]);
    let second = s.read(doc);
    assert_eq!(region(&second, "as_of=2026-11-20 -->"), pinned, "the dated table stays as recorded");
    let now = region(
        &second,
        "<!-- reckon:table metric=output_throughput rows=max_concurrency where=\"max_concurrency = 150\" -->",
    );
    assert!(now.contains("| 150 | 765.2 | 771 | 352.6 |"), "{now}");
    assert!(
        second.contains(
            "Baseline then: <!-- reckon:value metric=output_throughput config=baseline max_concurrency=30 \
             as_of=2026-11-20 -->641.8<!--"
        ),
        "{second}"
    );

    let claims: serde_json::Value = serde_json::from_str(&s.ok(&["claims", doc, "--format", "json"]).stdout).unwrap();
    let verdict = |id: &str| {
        let c = claims.as_array().unwrap().iter().map(|item| &item["claim"]).find(|c| c["id"] == id).unwrap();
        c["verdict"].as_str().unwrap().to_string()
    };
    assert_eq!(verdict("then"), "holds");
    assert_eq!(verdict("now"), "contradicted");

    // A date that is not one is bad input at its argument.
    s.write(
        doc,
        "<!-- reckon:table metric=output_throughput rows=max_concurrency as_of=2026-11 -->\n<!-- /reckon:table -->\n",
    );
    s.test()
        .args(["check", doc])
        .status(2)
        .stderr_has(&format!("{doc}:1:"))
        .stderr_has("as_of=`2026-11`: expected a sweep date")
        .run();
    s.write(
        doc,
        "<!-- reckon:claim id=c as_of=yesterday baseline beats others on tok/s at C = 30 -->\n\
         x\n<!-- /reckon:claim -->\n",
    );
    s.test().args(["check", doc]).status(2).stderr_has("as_of=`yesterday`: expected a sweep date").run();
}

#[test]
fn tables_keep_the_authors_labels() {
    let s = sandbox();
    let doc = "plan.md";
    s.write(
        doc,
        "\
<!-- reckon:table metric=tok/s rows=C where=\"C = 30\" \
labels=\"max_concurrency=Concurrency; baseline=baseline (tok/s); topk=4+v1=EAGLE topk=4 (tok/s)\" -->
<!-- /reckon:table -->

<!-- reckon:table metric=tok/s rows=C where=\"C = 30\" labels=aliases ratio=eagle-topk1-v2/baseline -->
<!-- /reckon:table -->
",
    );
    s.ok(&["update", "--write", doc]);
    let text = s.read(doc);
    assert!(
        text.contains(
            "| Concurrency | baseline (tok/s) | eagle-topk1-v2 | EAGLE topk=4 (tok/s) |\n\
             |---:|---:|---:|---:|\n| 30 | 689.4 | 759.3 | 341 |"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "| C | baseline | EAGLE topk=1 on the spec_v2 overlap path | EAGLE topk=4, v1 | \
             EAGLE topk=1 on the spec_v2 overlap path / baseline |"
        ),
        "{text}"
    );
    // A label for nothing in the table is a typo, not a choice.
    s.write(doc, "<!-- reckon:table metric=tok/s rows=C labels=\"basline=Baseline\" -->\n<!-- /reckon:table -->\n");
    s.test()
        .args(["check", doc])
        .status(2)
        .stderr_has("labels: `basline` is neither a heading nor a row of this table")
        .run();
}
