use proptest::prelude::*;

use super::*;

/// Pieces of text that are syntax somewhere: markdown, HTML, reckon's
/// directives, terminal controls, workflow commands, addresses.
pub(crate) const HOSTILE: &[&str] = &[
    "<!-- reckon:table metric=x rows=y -->",
    "<!-- /reckon:claim -->",
    "<!--",
    "-->",
    "![x](https://evil.example/t.png)",
    "[docs](https://phish.example)",
    "](",
    "[^1]",
    "*",
    "**",
    "_",
    "`",
    "~~",
    "|",
    "\\",
    "$x$",
    "<b>",
    "&amp;",
    "&#60;",
    "\n",
    "\r\n",
    "\n\n# heading\n",
    "\n> [!WARNING]\n",
    "\n- item",
    "\u{1b}[2J",
    "\u{1b}]0;TITLE\u{7}",
    "\0",
    "\u{202e}",
    "\n::error file=README.md,line=1::INJECTED",
    "::warning::x",
    "www.example.org",
    "someone@example.org",
    "https://example.org/x",
    "RECKONTOKENB0X",
    "%0A",
];

/// Arbitrary text, mostly made of the pieces above.
pub(crate) fn hostile() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => (0..HOSTILE.len()).prop_map(|i| HOSTILE[i].to_string()),
        1 => any::<char>().prop_map(String::from),
        1 => "[a-z0-9 .:/-]{0,6}",
    ];
    prop::collection::vec(piece, 0..8).prop_map(|p| p.concat())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x6573_6361_7065),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

pub(crate) fn gfm() -> comrak::Options<'static> {
    let mut o = comrak::Options::default();
    o.extension.table = true;
    o.extension.autolink = true;
    o.extension.strikethrough = true;
    o.extension.tasklist = true;
    o.extension.footnotes = true;
    o.extension.alerts = true;
    o
}

/// The shape of a markdown text: its nodes but text, kind and depth (the
/// words may differ, the structure may not).
pub(crate) fn shape(md: &str) -> Vec<String> {
    let arena = comrak::Arena::new();
    let root = comrak::parse_document(&arena, md, &gfm());
    let mut out: Vec<String> = Vec::new();
    for edge in root.traverse() {
        if let comrak::arena_tree::NodeEdge::Start(n) = edge {
            let depth = n.ancestors().count();
            let kind = format!("{:?}", n.data().value);
            let kind = kind.split(['(', ' ', '{']).next().unwrap_or_default().to_string();
            if kind != "Text" {
                out.push(format!("{depth}:{kind}"));
            }
        }
    }
    out
}

/// The plain text comrak gives a markdown fragment (its text nodes joined).
fn text_of(md: &str) -> String {
    let arena = comrak::Arena::new();
    let root = comrak::parse_document(&arena, md, &gfm());
    let mut out = String::new();
    for n in root.descendants() {
        if let comrak::nodes::NodeValue::Text(t) = &n.data().value {
            out.push_str(t);
        }
    }
    out
}

#[test]
fn markdown_keeps_links_and_images_as_text() {
    let md = markdown("![x](https://evil.example/t.png) [docs](https://phish.example)");
    assert!(!md.contains("![x](") && !md.contains("[docs]("), "{md}");
    assert_eq!(shape(&format!("a {md} b\n")), shape("a x b\n"));
    assert_eq!(text_of(&md), "![x](https://evil.example/t.png) [docs](https://phish.example)");
}

#[test]
fn markdown_leaves_ordinary_names_alone() {
    for name in ["baseline", "eagle-topk1-v2", "max_concurrency", "output_throughput (tok/s)", "1.5", "a/b"] {
        assert_eq!(markdown(name), name);
    }
    assert_eq!(markdown("_x_"), "\\_x\\_");
}

#[test]
fn markdown_writes_directives_and_controls_as_text() {
    let md = markdown("z<!-- /reckon:claim -->\n\u{1b}[2J");
    assert_eq!(md, "z&lt;!-- /reckon:claim --&gt; \\x1b\\[2J");
}

#[test]
fn terminal_shows_controls_and_breaks_up_commands() {
    assert_eq!(terminal("z\n::error::x\u{1b}[2J\u{7}"), "z\\n::error::x\\x1b[2J\\x07");
    assert_eq!(terminal("  ::error::x"), "  \\x3a:error::x");
    assert_eq!(terminal("\u{202e}abc\u{9b}"), "\\u{202e}abc\\u{9b}");
    assert_eq!(terminal_lines("a\r\n::x\tb\n\u{1b}c"), "a\n\\x3a:x\tb\n\\x1bc");
}

#[test]
fn xml_keeps_only_characters_xml_allows() {
    assert_eq!(xml("nul\0x esc\u{1b}[31m tab\t"), "nul\\0x esc\\x1b[31m tab\t");
    assert_eq!(xml("\u{fffe}"), "\\u{fffe}");
}

#[test]
fn html_escapes_markup_and_quotes() {
    assert_eq!(
        html("<script>a & 'b' \"c\"</script>"),
        "&lt;script&gt;a &amp; &#39;b&#39; &quot;c&quot;&lt;/script&gt;"
    );
}

#[test]
fn uri_paths_keep_their_segments_and_encode_the_rest() {
    assert_eq!(uri_path("notebooks/plan.md"), "notebooks/plan.md");
    assert_eq!(uri_path("a b/50%#?.md"), "a%20b/50%25%23%3F.md");
    assert_eq!(uri_path("café.md"), "caf%C3%A9.md");
}

#[test]
fn github_parts_stay_one_command() {
    assert_eq!(github_message("50% faster\r\nthen"), "50%25 faster%0D%0Athen");
    assert_eq!(github_property("docs/a,b:c.md"), "docs/a%2Cb%3Ac.md");
}

proptest! {
    #![proptest_config(config())]

    /// Any text escaped into a table cell, a sentence or a note line parses
    /// to the structure a plain word does, and shows the text (line breaks
    /// as spaces, controls visibly).
    #[test]
    fn markdown_text_has_the_structure_of_a_plain_word(v in hostile()) {
        let md = markdown(&v);
        let table = |cell: &str| format!("| a | b |\n|---|--:|\n| {cell} | 1.5 |\n");
        prop_assert_eq!(shape(&table(&md)), shape(&table("x")));
        let note = |t: &str| format!("> [!WARNING]\n> **reckon:** the data contradict this: {t}.\n");
        prop_assert_eq!(shape(&note(&md)), shape(&note("x")));
        let sentence = |t: &str| format!("We found that {t} wins.\n");
        prop_assert_eq!(shape(&sentence(&md)), shape(&sentence("x")));
        prop_assert!(!md.contains('<') && !md.contains('\n') && !md.contains('\r'));
        prop_assert_eq!(text_of(&sentence(&md)), format!("We found that {} wins.", shape_text(v.trim())));
    }

    /// Terminal text holds no character that acts, and no line a CI runner
    /// reads as a workflow command.
    #[test]
    fn terminal_text_holds_no_controls_or_commands(v in hostile()) {
        let one = terminal(&v);
        prop_assert!(!one.chars().any(|c| visible(c).is_some()), "{:?}", one);
        prop_assert!(!one.trim_start().starts_with("::"));
        let block = terminal_lines(&format!("line\n{v}\n  {v}"));
        for line in block.lines() {
            prop_assert!(!line.chars().any(|c| visible(c).is_some() && c != '\t'), "{:?}", line);
            prop_assert!(!line.trim_start().starts_with("::"), "{:?}", line);
        }
    }

    /// A workflow command's message stays on its line.
    #[test]
    fn github_messages_stay_on_one_line(v in hostile()) {
        let m = github_message(&v);
        prop_assert!(!m.contains('\n') && !m.contains('\r'));
    }

    /// XML text keeps no character XML 1.0 forbids.
    #[test]
    fn xml_text_is_allowed_xml(v in hostile()) {
        let x = xml(&v);
        let allowed = |c: char| matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
            || c >= '\u{10000}';
        prop_assert!(x.chars().all(allowed), "{:?}", x);
    }
}

/// What a value shows as in markdown: line breaks as spaces, controls
/// visibly.
fn shape_text(v: &str) -> String {
    let mut out = String::new();
    for c in v.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '\t' => out.push('\t'),
            c => match visible(c) {
                Some(s) => out.push_str(&s),
                None => out.push(c),
            },
        }
    }
    out
}
