//! Log values and document arguments that tried to escape where reckon
//! writes them (issue 21's escapes): into a claim's note, a table, a plot's
//! SVG, the report page, a terminal or a CI log. Each test drives `reckon`
//! as a user would, with a downloaded log or a document from a pull request
//! that carries the attack, and checks that it stays text.
#![cfg(unix)]

mod common;

use std::path::Path;

use common::Sandbox;

/// A project whose series are `config`, its database in `db/`.
fn project() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "database = \"db/r.sqlite\"\nseries = \"config\"\n");
    std::fs::create_dir_all(s.path().join("db")).unwrap();
    s
}

/// A downloaded JSONL log: for each config, three trials of `tput` at
/// concurrency 1, `base` + the trial.
fn downloaded(s: &Sandbox, configs: &[(&str, f64)]) {
    let mut log = String::new();
    for t in 0..3 {
        for (config, base) in configs {
            let line = serde_json::json!({"config": config, "concurrency": 1, "trial": t, "tput": base + f64::from(t)});
            log.push_str(&line.to_string());
            log.push('\n');
        }
    }
    s.write("downloaded.jsonl", log);
    s.ok(&["ingest", "downloaded.jsonl"]);
}

const CLAIM_DOC: &str =
    "# d\n\n<!-- reckon:claim id=c a beats others on tput at concurrency = 1 -->\nA wins.\n<!-- /reckon:claim -->\n";

#[test]
fn finding_02_log_values_in_a_claim_note_open_no_region() {
    let s = project();
    let evil = "z<!-- /reckon:claim --><!-- reckon:table metric=tput rows=concurrency cols=config -->\
                <!-- /reckon:table --><!-- reckon:claim id=injected a beats others on tput at concurrency = 1 -->";
    downloaded(&s, &[("a", 100.0), (evil, 200.0)]);
    s.write("doc.md", CLAIM_DOC);
    s.ok(&["update", "--no-ingest", "--write", "doc.md"]);
    let doc = s.read("doc.md");
    assert!(doc.contains("> [!WARNING]") && doc.contains("&lt;!-- /reckon:claim --&gt;"), "{doc}");
    // The document has the one region its author wrote.
    let parsed = reckon::doc::parse(Path::new("doc.md"), &doc).unwrap();
    assert_eq!(parsed.regions.len(), 1, "{doc}");
    let r = s.run(&["check", "--no-ingest", "doc.md"]);
    assert!(!r.stdout.contains("table region") && !r.stdout.contains("claim `injected`"), "{r:?}");
}

#[test]
fn finding_06_a_series_named_as_a_link_or_image_is_text_in_a_table() {
    let s = project();
    downloaded(&s, &[("![x](https://evil.example/t.png)", 1.5), ("[docs](https://phish.example)", 2.5)]);
    s.write("doc.md", "<!-- reckon:table metric=tput rows=concurrency cols=config -->\n<!-- /reckon:table -->\n");
    s.ok(&["update", "--no-ingest", "--write", "doc.md"]);
    let doc = s.read("doc.md");
    assert!(!doc.contains("![x](") && !doc.contains("[docs]("), "{doc}");
    assert!(
        doc.contains("| concurrency | !\\[x\\](https\\://evil.example/t.png) | \\[docs\\](https\\://phish.example) |")
    );
    // The page shows the names as written, and links nowhere.
    s.ok(&["report", "--no-ingest", "doc.md", "--out", "site"]);
    let page = s.read("site/doc.html");
    assert!(!page.contains("evil.example/t.png\"") && !page.contains("href=\"https://phish"), "{page}");
    assert!(page.contains(">![x](https://evil.example/t.png)</th>"), "{page}");
}

#[test]
fn finding_01_a_plot_title_cannot_rewrite_the_image_line_nor_embed_a_file() {
    let s = project();
    downloaded(&s, &[("a", 100.0), ("b", 200.0)]);
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, "CI_TOKEN=ghp_SECRET_FROM_OUTSIDE\n").unwrap();
    s.write(
        "doc.md",
        format!(
            "# plot\n<!-- reckon:plot metric=tput x=concurrency file=t.svg title=\"a\n![z]({})\nb\" -->\n\
             <!-- /reckon:plot -->\n",
            secret.display()
        ),
    );
    // The page embeds the plot reckon drew, and nothing the title names.
    s.ok(&["report", "--no-ingest", "doc.md", "--out", "site"]);
    let page = s.read("site/doc.html");
    let secret_b64 = base64_of(b"CI_TOKEN=ghp_SECRET_FROM_OUTSIDE\n");
    assert!(!page.contains(&secret_b64), "the page embeds the outside file");
    assert_eq!(page.matches("data:image/svg+xml;base64,").count(), 1, "{page}");
    // The document's image line stays one line, pointing at the plot.
    s.ok(&["update", "--no-ingest", "--write", "doc.md"]);
    let doc = s.read("doc.md");
    let image = doc.lines().rfind(|l| l.starts_with("![")).unwrap();
    assert!(image.ends_with("](t.svg)") && image.contains("!\\[z\\]("), "{doc}");
    assert_eq!(
        doc.lines().filter(|l| l.starts_with("![")).count(),
        2,
        "the directive's own line, and the image: {doc}"
    );
    s.ok(&["report", "--no-ingest", "doc.md", "--out", "site"]);
    assert!(!s.read("site/doc.html").contains(&secret_b64));
    // A file name that would end the image's destination is refused.
    s.write("bad.md", "<!-- reckon:plot metric=tput x=concurrency file=\"x)(y.svg\" -->\n<!-- /reckon:plot -->\n");
    let r = s.run(&["update", "--no-ingest", "bad.md"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("bad.md:1:") && r.stderr.contains("')' cannot be in a plot's file name"), "{r:?}");
}

/// Standard base64 of `bytes`, as a data URI holds it.
fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Whether `svg` is made of characters XML 1.0 allows and its comments
/// hold no `--`: what a browser needs to show it at all.
fn well_formed_chars(svg: &str) -> Result<(), String> {
    let allowed =
        |c: char| matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}') || c >= '\u{10000}';
    if let Some(c) = svg.chars().find(|c| !allowed(*c)) {
        return Err(format!("{c:?} is not allowed in XML"));
    }
    let mut rest = svg;
    while let Some(at) = rest.find("<!--") {
        let end = rest[at + 4..].find("-->").ok_or("an unclosed comment")?;
        if rest[at + 4..at + 4 + end].contains("--") {
            return Err(format!("`--` inside a comment: {}", &rest[at..at + 4 + end]));
        }
        rest = &rest[at + 4 + end + 3..];
    }
    Ok(())
}

#[test]
fn finding_07_control_characters_in_a_series_keep_the_plot_well_formed() {
    let s = project();
    downloaded(&s, &[("ok", 10.0), ("esc\u{1b}[31mred", 11.0), ("nul\0x", 12.0), ("dash---es\u{1}", 13.0)]);
    for kind in ["line", "bar"] {
        s.write(
            "d.md",
            format!("<!-- reckon:plot metric=tput x=concurrency kind={kind} file=p.svg -->\n<!-- /reckon:plot -->\n"),
        );
        s.ok(&["update", "--no-ingest", "--write", "d.md"]);
        let svg = s.read("p.svg");
        well_formed_chars(&svg).unwrap_or_else(|e| panic!("{kind}: {e}\n{svg}"));
        // The legend and the data say what the log said, visibly.
        assert!(svg.contains("esc\\x1b[31mred") && svg.contains("nul\\0x"), "{svg}");
    }
}

#[test]
fn finding_27_an_inline_claim_and_a_value_in_a_link_stay_in_their_sentence() {
    let s = project();
    downloaded(&s, &[("a", 100.0), ("b", 200.0)]);
    s.write(
        "inl.md",
        "# R\n\nWe found that <!-- reckon:claim id=x b beats a on tput at concurrency = 1 -->b wins\
         <!-- /reckon:claim --> at saturation, see [the <!-- reckon:value metric=tput config=b concurrency=1 -->\
         <!-- /reckon:value --> tok/s run](https://example.org/run).\n\nNext paragraph.\n",
    );
    s.ok(&["update", "--no-ingest", "--write", "inl.md"]);
    s.ok(&["report", "--no-ingest", "inl.md", "--out", "site"]);
    let page = s.read("site/inl.html");
    let main = &page[page.find("<main>").unwrap()..page.find("</main>").unwrap()];
    let sentence = main.lines().find(|l| l.starts_with("<p>We found that")).unwrap_or_else(|| panic!("{main}"));
    assert!(sentence.ends_with("</p>") && sentence.contains("b wins</span> at saturation, see "), "{main}");
    assert!(sentence.contains("<span class=\"badge badge-holds\">") || sentence.contains("badge-holds"), "{main}");
    // No link inside the link: the number is plain inside the author's link.
    let link = &sentence[sentence.find("<a href=\"https://example.org/run\">").unwrap()..];
    assert!(link[..link.find("</a>").unwrap()].matches("<a ").count() == 1, "{sentence}");
    assert!(link.starts_with("<a href=\"https://example.org/run\">the <span class=\"num\">201</span> tok/s run</a>"));
    // The evidence follows the paragraph, before the next one.
    let evidence = main.find("id=\"evidence-x\"").unwrap_or_else(|| panic!("{main}"));
    assert!(main.find("We found that").unwrap() < evidence && evidence < main.find("Next paragraph").unwrap());
}

/// Whether `out` holds a character that acts on a terminal (ESC, BEL, …)
/// or a line a CI runner reads as a workflow command.
fn acts_on_a_terminal(out: &str) -> Option<String> {
    if let Some(c) = out.chars().find(|c| c.is_control() && !matches!(c, '\n' | '\t')) {
        return Some(format!("{c:?} reaches the terminal"));
    }
    out.lines().find(|l| l.trim_start().starts_with("::")).map(|l| format!("a workflow command: {l}"))
}

#[test]
fn finding_05_control_characters_in_log_values_never_reach_the_terminal() {
    let s = project();
    let evil = "z\n::error file=README.md,line=1::INJECTED\u{1b}[2J\u{1b}]0;TITLE\u{7}";
    downloaded(&s, &[("a", 100.0), (evil, 200.0), ("::warning::lead", 150.0)]);
    s.write("doc.md", CLAIM_DOC);
    let outputs = [
        s.run(&["check", "--no-ingest", "doc.md"]),
        s.run(&["update", "--no-ingest", "doc.md"]),
        s.run(&["claims", "--no-ingest", "doc.md"]),
        s.run(&["runs"]),
        s.run(&["query", "--metric", "tput", "--rows", "config"]),
    ];
    for r in &outputs {
        assert!(r.code == 0 || r.code == 1, "{r:?}");
        for out in [&r.stdout, &r.stderr] {
            assert_eq!(acts_on_a_terminal(out), None, "{r:?}");
        }
    }
    // What the log said is shown, visibly.
    assert!(outputs[0].stdout.contains("z\\n::error file=README.md,line=1::INJECTED\\x1b[2J"), "{:?}", outputs[0]);
    assert!(outputs[4].stdout.contains("\\x3a:warning::lead"), "{:?}", outputs[4]);
    // The GitHub annotations keep each message on its line.
    let r = s.run(&["check", "--no-ingest", "--format", "github", "doc.md"]);
    assert!(r
        .stdout
        .lines()
        .all(|l| l.starts_with("::error ") || l.starts_with("::notice ") || l.starts_with("::warning ")));
    assert!(r.stdout.contains("z%0A::error file=README.md"), "{r:?}");
}
