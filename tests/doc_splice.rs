//! The document layer's promises, as the design states them: directives in
//! code are text, every byte outside the regions is kept, splicing twice
//! changes nothing the second time, hand edits are detected, and malformed
//! directives are reported at their line and column.
//!
//! The numbers in the sample documents (92.7, 86.8, 96.0, 759.3 tok/s) are
//! the examples of DESIGN.md "Living documents"; the document layer does not
//! interpret them.

use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;

use proptest::prelude::*;
use reckon::doc::{self, status_note, Alert, Document, Kind};

fn parse(text: &str) -> Document {
    doc::parse(Path::new("plan.md"), text).expect("the document parses")
}

fn parse_err(text: &str) -> String {
    doc::parse(Path::new("plan.md"), text).expect_err("the document is malformed").to_string()
}

/// The bytes of `text` outside every region's content and closing marker
/// (the parts a splice of every region may rewrite), in order.
fn outside(doc: &Document, text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut pos = 0;
    for region in &doc.regions {
        parts.push(text[pos..region.content.start].to_string());
        pos = region.close.end;
    }
    parts.push(text[pos..].to_string());
    parts
}

const TABLE: &str = "| concurrency | baseline | eagle-topk1-v2 | eagle-topk4-v1 |\n\
                     |---:|---:|---:|---:|\n\
                     | 1 | 92.7 | 86.8 | 96.0 |\n";

#[test]
fn directives_in_code_are_text() {
    let text = "# Using reckon\n\
        \n\
        Write a table like this:\n\
        \n\
        ```markdown\n\
        <!-- reckon:table metric=output_throughput -->\n\
        <!-- /reckon:table -->\n\
        ```\n\
        \n\
        ~~~\n\
        <!-- reckon:tabel broken=\"quote -->\n\
        ~~~\n\
        \n\
        \x20   <!-- reckon:claim id=x a beats b on m -->\n\
        \n\
        - in a list:\n\
        \n\
        \x20 ```\n\
        \x20 <!-- /reckon:claim -->\n\
        \x20 ```\n\
        \n\
        \x20     <!-- reckon:table -->\n\
        \n\
        Inline: `<!-- reckon:plot -->` and ``<!-- /reckon:plot -->``.\n\
        \n\
        Real: <!-- reckon:value metric=output_throughput -->759.3<!-- /reckon:value --> tok/s\n";
    let doc = parse(text);
    assert_eq!(doc.regions.len(), 1);
    let value = &doc.regions[0];
    assert_eq!(value.kind, Kind::Value);
    assert_eq!((value.line, value.col), (26, 7));
    assert_eq!(value.content(text), "759.3");

    let out = doc.splice(text, &[(0, "760.1")]);
    let digest = &doc::digest("760.1")[..12];
    assert_eq!(
        out,
        text.replace("759.3<!-- /reckon:value -->", &format!("760.1<!-- /reckon:value digest={digest} -->"))
    );
}

#[test]
fn a_document_without_directives_is_returned_unchanged() {
    let text = "\u{feff}# Plan\r\n\r\nNo regions <!-- just a comment --> here.\r\n```\r\n<!-- reckon:table -->\r\n```";
    let doc = parse(text);
    assert!(doc.regions.is_empty());
    assert_eq!(doc.splice::<&str>(text, &[]), text);
}

#[test]
fn crlf_document_keeps_crlf_everywhere() {
    let text = "# Plan\r\n\r\n<!-- reckon:table metric=output_throughput rows=concurrency cols=config -->\r\n\
                old\r\n<!-- /reckon:table -->\r\n\r\n\
                <!-- reckon:claim id=c\r\n     baseline beats others on output_throughput -->\r\n\
                - baseline is strictly superior.\r\n<!-- /reckon:claim -->\r\nend\r\n";
    let doc = parse(text);
    assert_eq!(doc.line_ending, doc::LineEnding::Crlf);
    let note = status_note(Alert::Warning, "contradicted:\neagle-topk1-v2 is faster");
    let out = doc.splice(text, &[(0, TABLE.to_string()), (1, note)]);
    assert!(!out.replace("\r\n", "").contains('\n'), "a lone \\n in:\n{out:?}");
    let table_digest = &doc::digest(&format!("\n{TABLE}"))[..12];
    let note_digest = &doc::digest("> [!WARNING]\n> **reckon:** contradicted:\n> eagle-topk1-v2 is faster")[..12];
    assert_eq!(
        out,
        format!(
            "# Plan\r\n\r\n<!-- reckon:table metric=output_throughput rows=concurrency cols=config -->\r\n\
             {}\r\n<!-- /reckon:table digest={table_digest} -->\r\n\r\n\
             <!-- reckon:claim id=c\r\n     baseline beats others on output_throughput -->\r\n\
             - baseline is strictly superior.\r\n\r\n\
             > [!WARNING]\r\n> **reckon:** contradicted:\r\n> eagle-topk1-v2 is faster\r\n\
             <!-- /reckon:claim digest={note_digest} -->\r\nend\r\n",
            TABLE.trim_end().replace('\n', "\r\n")
        )
    );
    let again = parse(&out);
    assert!(again.regions.iter().all(|r| !r.edited_by_hand()));
}

#[test]
fn bom_and_missing_final_newline_are_kept() {
    let text = "\u{feff}<!-- reckon:value metric=output_throughput -->1<!-- /reckon:value --> tok/s";
    let doc = parse(text);
    assert_eq!(doc.regions.len(), 1);
    assert_eq!((doc.regions[0].line, doc.regions[0].col), (1, 1));
    let out = doc.splice(text, &[(0, "759.3")]);
    let digest = &doc::digest("759.3")[..12];
    assert_eq!(
        out,
        format!(
            "\u{feff}<!-- reckon:value metric=output_throughput -->759.3<!-- /reckon:value digest={digest} --> tok/s"
        )
    );

    let text = "a\n<!-- reckon:table -->\nx\n<!-- /reckon:table -->";
    let out = parse(text).splice(text, &[(0, "| b |")]);
    let digest = &doc::digest("\n| b |\n")[..12];
    assert_eq!(out, format!("a\n<!-- reckon:table -->\n| b |\n<!-- /reckon:table digest={digest} -->"));
}

#[test]
fn unicode_around_regions() {
    let text = "Débit: ≈ <!-- reckon:value metric=output_throughput \
                config=\"eagle-topk1-v2\" -->旧<!-- /reckon:value --> tok/s — 猫🐈\n\
                <!-- reckon:table titre=\"débit « max »\" -->\nancien\n<!-- /reckon:table -->\n🐈 fin";
    let doc = parse(text);
    assert_eq!(doc.regions.len(), 2);
    assert_eq!((doc.regions[0].line, doc.regions[0].col), (1, 10));
    assert_eq!(doc.regions[1].arg("titre").map(|a| a.value.as_str()), Some("débit « max »"));
    let out = doc.splice(text, &[(0, "759,3 ✓"), (1, "| é | 猫 |")]);
    let after = parse(&out);
    assert_eq!(outside(&doc, text), outside(&after, &out));
    assert_eq!(after.regions[0].content(&out), "759,3 ✓");
    assert_eq!(after.regions[1].content(&out), "\n| é | 猫 |\n");
}

#[test]
fn splicing_twice_gives_the_same_bytes() {
    let text = sample();
    let replacements = sample_replacements();
    let doc = parse(&text);
    let once = doc.splice(&text, &replacements);
    let reparsed = parse(&once);
    assert_eq!(reparsed.regions.len(), doc.regions.len());
    for (region, (index, replacement)) in reparsed.regions.iter().zip(&replacements) {
        assert!(!region.edited_by_hand());
        assert!(region.digest.is_some());
        assert_eq!(Some(region.content(&once).to_string()), reparsed.content_for(&once, *index, replacement));
    }
    let kinds: Vec<Kind> = reparsed.regions.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, [Kind::Table, Kind::Value, Kind::Claim]);
    assert_eq!(reparsed.splice(&once, &replacements), once);
    assert_eq!(outside(&doc, &text), outside(&reparsed, &once));
}

#[test]
fn hand_edits_are_detected() {
    let text = sample();
    let once = parse(&text).splice(&text, &sample_replacements());

    // A changed number in the generated table.
    let edited = once.replacen("| 1 | 92.7 |", "| 1 | 99.9 |", 1);
    let doc = parse(&edited);
    let edited_regions: Vec<usize> = doc.edited_regions().map(|(i, _)| i).collect();
    assert_eq!(edited_regions, [0]);

    // The author rewording their claim is not a hand edit of reckon's part.
    let reworded = once.replacen("baseline is strictly superior", "baseline was superior", 1);
    let doc = parse(&reworded);
    assert_eq!(doc.edited_regions().count(), 0);
    assert_eq!(
        doc.regions[2].author_text(&reworded),
        "\n- For **throughput-focused workloads**: baseline was superior, up to 2.3x better at saturation.\n"
    );

    // Editing or deleting reckon's note is.
    let note_edited = once.replacen("> **reckon:** contradicted", "> **reckon:** fine", 1);
    assert_eq!(parse(&note_edited).edited_regions().map(|(i, _)| i).collect::<Vec<_>>(), [2]);
    let doc = parse(&once);
    let note = doc.regions[2].status_note(&once).expect("the claim has a note");
    let note_deleted = once.replacen(note, "", 1);
    assert_eq!(parse(&note_deleted).edited_regions().map(|(i, _)| i).collect::<Vec<_>>(), [2]);

    // A region the author wrote without a digest is not hand-edited.
    assert_eq!(parse(&text).edited_regions().count(), 0);
}

fn sample() -> String {
    "# Speculative decoding\n\
     \n\
     <!-- reckon:table metric=output_throughput rows=concurrency cols=config where=\"model = 'kimi-k2.5'\" -->\n\
     | concurrency | baseline |\n\
     <!-- /reckon:table -->\n\
     \n\
     At 30 concurrent requests topk=1 with spec_v2 reaches <!-- reckon:value metric=output_throughput \
     config=eagle-topk1-v2 concurrency=30 -->700<!-- /reckon:value --> tok/s.\n\
     \n\
     <!-- reckon:claim id=throughput-baseline-wins\n\
     \x20    baseline beats eagle-topk4-v1, eagle-topk1-v2 on output_throughput for all concurrency >= 30 -->\n\
     - For **throughput-focused workloads**: baseline is strictly superior, up to 2.3x better at saturation.\n\
     <!-- /reckon:claim -->\n"
        .to_string()
}

fn sample_replacements() -> Vec<(usize, String)> {
    vec![
        (0, TABLE.to_string()),
        (1, "759.3".to_string()),
        (
            2,
            status_note(
                Alert::Warning,
                "contradicted — eagle-topk1-v2 beats baseline at concurrency = 30 \
                 (759.3 vs 702.6 tok/s, +8.1%), data of 2025-06-12",
            ),
        ),
    ]
}

#[test]
fn snapshot_of_a_spliced_document() {
    let text = sample();
    let out = parse(&text).splice(&text, &sample_replacements());
    insta::assert_snapshot!("spliced_sample", out);
}

#[test]
fn removing_the_note_restores_the_author_text() {
    let text = sample();
    let doc = parse(&text);
    let with_note = doc.splice(&text, &sample_replacements());
    let without = parse(&with_note).splice(&with_note, &[(2, "")]);
    let table_and_value = doc.splice(&text, &sample_replacements()[..2]);
    assert_eq!(without, table_and_value);
}

// --- malformed directives: the full message, with line, column and pointer.

#[test]
fn unknown_kind() {
    assert_eq!(
        parse_err("# Plan\n\nSee <!-- reckon:tabel metric=x -->1<!-- /reckon:tabel -->.\n"),
        "plan.md:3:17: unknown directive `reckon:tabel`; the kinds are table, value, plot, sql, \
         template, claim, diff\n  See <!-- reckon:tabel metric=x -->1<!-- /reckon:tabel -->.\n                  ^"
    );
}

#[test]
fn missing_kind() {
    assert_eq!(
        parse_err("<!-- reckon: metric=x -->\n"),
        "plan.md:1:13: directive without a kind after `reckon:`; the kinds are table, value, \
         plot, sql, template, claim, diff\n  <!-- reckon: metric=x -->\n              ^"
    );
}

#[test]
fn closing_without_opening() {
    assert_eq!(
        parse_err("intro\n\n<!-- /reckon:table -->\n"),
        "plan.md:3:1: `<!-- /reckon:table -->` closes no region; remove it, or open the region \
         before its content with `<!-- reckon:table … -->`\n  <!-- /reckon:table -->\n  ^"
    );
}

#[test]
fn opening_without_closing() {
    assert_eq!(
        parse_err("- intro\n\n  <!-- reckon:plot metric=x -->\n\nmore\n"),
        "plan.md:3:3: the `reckon:plot` region is never closed; add `<!-- /reckon:plot -->` after \
         its content\n    <!-- reckon:plot metric=x -->\n    ^"
    );
}

#[test]
fn mismatched_kinds() {
    assert_eq!(
        parse_err("<!-- reckon:table -->\n|a|\n<!-- /reckon:value -->\n"),
        "plan.md:3:1: `<!-- /reckon:value -->` does not close the `reckon:table` region opened at \
         line 1; close it with `<!-- /reckon:table -->`\n  <!-- /reckon:value -->\n  ^"
    );
}

#[test]
fn nested_regions() {
    assert_eq!(
        parse_err(
            "<!-- reckon:table -->\nx <!-- reckon:value m=1 -->2<!-- /reckon:value -->\n<!-- /reckon:table -->\n"
        ),
        "plan.md:2:3: `reckon:value` opens inside the `reckon:table` region opened at line 1; \
         regions cannot nest (only a `value` may sit inside a `claim`): close the first with \
         `<!-- /reckon:table -->` before opening another\n  x <!-- reckon:value m=1 -->2<!-- /reckon:value -->\n    ^"
    );
    // Only a value, and only one level deep.
    let err = parse_err(
        "<!-- reckon:claim id=c a beats b on m -->\n<!-- reckon:table -->\n<!-- /reckon:table -->\n\
         <!-- /reckon:claim -->\n",
    );
    assert!(err.starts_with("plan.md:2:1: `reckon:table` opens inside the `reckon:claim` region"), "{err}");
}

#[test]
fn unbalanced_quote() {
    assert_eq!(
        parse_err("<!-- reckon:table metric=x where=\"model = 'k -->\n<!-- /reckon:table -->\n"),
        "plan.md:1:34: unbalanced `\"` in the value of `where`; close the quote before `-->`\n  \
         <!-- reckon:table metric=x where=\"model = 'k -->\n                                   ^"
    );
}

#[test]
fn missing_equals() {
    assert_eq!(
        parse_err("<!-- reckon:table metric output_throughput -->\n<!-- /reckon:table -->\n"),
        "plan.md:1:19: argument `metric` has no value; write `metric=VALUE`\n  \
         <!-- reckon:table metric output_throughput -->\n                    ^"
    );
}

#[test]
fn duplicate_key() {
    assert_eq!(
        parse_err("<!-- reckon:table metric=a\n     metric=b -->\n<!-- /reckon:table -->\n"),
        "plan.md:2:6: argument `metric` is given twice (first at line 1, column 19); keep one\n  \
         \x20    metric=b -->\n       ^"
    );
}

#[test]
fn comment_never_ended() {
    assert_eq!(
        parse_err("text\n\n<!-- reckon:table metric=x\n\nmore"),
        "plan.md:3:1: this directive is never ended; end the comment with `-->`\n  \
         <!-- reckon:table metric=x\n  ^"
    );
}

#[test]
fn bad_digest_and_closing_arguments() {
    assert_eq!(
        parse_err("<!-- reckon:value -->1<!-- /reckon:value digest=xyz -->"),
        "plan.md:1:49: `digest=` must be 8 to 64 hex digits (reckon writes it); remove the \
         argument to have reckon write it again\n  \
         <!-- reckon:value -->1<!-- /reckon:value digest=xyz -->\n                                                  ^"
    );
    assert_eq!(
        parse_err("<!-- reckon:value -->1<!-- /reckon:value metric=x -->"),
        "plan.md:1:42: closing directives take only `digest=`, not `metric=`; move the argument \
         to the opening `<!-- reckon:value … -->`\n  \
         <!-- reckon:value -->1<!-- /reckon:value metric=x -->\n                                           ^"
    );
}

// --- properties

/// Markdown-ish text that never holds `reckon:`: fragments that stress the
/// scanner (comments, fences, indentation, code spans, CRLF) and arbitrary
/// unicode.
fn markdownish() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        "\\PC{0,12}",
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just("<!-- note -->".to_string()),
        Just("<!-- reckon".to_string()),
        Just("<!-- /reckon ".to_string()),
        Just("```".to_string()),
        Just("~~~".to_string()),
        Just("    ".to_string()),
        Just("`".to_string()),
        Just("> ".to_string()),
        Just("- ".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("\r".to_string()),
        Just("\t".to_string()),
        Just("\u{feff}".to_string()),
        Just("<div>".to_string()),
        Just("| a | b |\n|---|---|\n".to_string()),
    ];
    prop::collection::vec(fragment, 0..40)
        .prop_map(|parts| parts.concat())
        .prop_filter("no directive", |s| !s.contains("reckon:"))
}

/// One piece of a generated document.
#[derive(Debug, Clone)]
enum Piece {
    Prose(Vec<String>),
    Block(Kind, Vec<String>),
    Value(String, String, String),
    Claim(Vec<String>),
}

fn prose_line() -> impl Strategy<Value = String> {
    // No `<`, backquote, `~` or `:` so prose cannot open code or a directive;
    // starts with a letter so it is never an indented code block.
    "[a-zA-Zé猫][a-zA-Z0-9 éü猫🐈.,!?()#*_-]{0,30}"
}

fn content_line() -> impl Strategy<Value = String> {
    "[a-z0-9|. é猫-]{0,20}"
}

fn value_text() -> impl Strategy<Value = String> {
    "[0-9a-z.,% 猫]{0,10}"
}

fn piece() -> impl Strategy<Value = Piece> {
    let block_kind = prop_oneof![Just(Kind::Table), Just(Kind::Plot), Just(Kind::Sql), Just(Kind::Template)];
    prop_oneof![
        prop::collection::vec(prose_line(), 0..4).prop_map(Piece::Prose),
        (block_kind, prop::collection::vec(content_line(), 0..4)).prop_map(|(k, c)| Piece::Block(k, c)),
        (prose_line(), value_text(), prose_line()).prop_map(|(a, v, b)| Piece::Value(a, v, b)),
        prop::collection::vec(prose_line(), 0..3).prop_map(Piece::Claim),
    ]
}

/// A document from pieces: each piece on its own lines, with `eol` line
/// endings, and optionally no final line break. Returns the text, the
/// contents the regions were written with and each piece's bytes (before
/// the final line break is taken off).
fn build(pieces: &[Piece], eol: &str, final_newline: bool) -> (String, Vec<String>, Vec<Range<usize>>) {
    let mut text = String::new();
    let mut contents = Vec::new();
    let mut spans = Vec::new();
    for piece in pieces {
        let start = text.len();
        match piece {
            Piece::Prose(lines) => {
                for line in lines {
                    text.push_str(line);
                    text.push_str(eol);
                }
            }
            Piece::Block(kind, lines) => {
                let mut content = eol.to_string();
                for line in lines {
                    content.push_str(line);
                    content.push_str(eol);
                }
                let _ = write!(text, "<!-- reckon:{kind} q=1 -->{content}<!-- /reckon:{kind} -->{eol}");
                contents.push(content);
            }
            Piece::Value(before, value, after) => {
                let _ =
                    write!(text, "{before} <!-- reckon:value metric=x -->{value}<!-- /reckon:value --> {after}{eol}");
                contents.push(value.clone());
            }
            Piece::Claim(lines) => {
                let mut content = eol.to_string();
                for line in lines {
                    content.push_str(line);
                    content.push_str(eol);
                }
                let id = contents.len();
                let _ = write!(
                    text,
                    "<!-- reckon:claim id=c{id}{eol}     a beats b on m -->{content}<!-- /reckon:claim -->{eol}"
                );
                contents.push(content);
            }
        }
        spans.push(start..text.len());
    }
    if !final_newline && text.ends_with(eol) {
        text.truncate(text.len() - eol.len());
    }
    (text, contents, spans)
}

/// Whether a piece is lines of the author's prose (a value sits inside its
/// line), which a paragraph goes on through.
fn is_prose(piece: &Piece) -> bool {
    matches!(piece, Piece::Prose(_) | Piece::Value(..))
}

/// For each claim piece written in the middle of a paragraph — a line of
/// prose right before its opening marker and right after its closing one —
/// its region's index and the end of that paragraph in `text` (the last
/// line of the prose and claims going on after it, without its line break):
/// where its note goes.
fn mid_paragraph_claims(pieces: &[Piece], spans: &[Range<usize>], text: &str) -> Vec<(usize, usize)> {
    let nonempty = |p: &&Piece| !matches!(p, Piece::Prose(lines) if lines.is_empty());
    let mut out = Vec::new();
    let mut region = 0;
    for (i, piece) in pieces.iter().enumerate() {
        if matches!(piece, Piece::Prose(_)) {
            continue;
        }
        let before = pieces[..i].iter().rev().find(nonempty).is_some_and(is_prose);
        let after = pieces[i + 1..].iter().find(nonempty).is_some_and(is_prose);
        if matches!(piece, Piece::Claim(_)) && before && after {
            // CommonMark ends the paragraph at a marker line; the author's
            // goes on through the claims written on the next line.
            let run = pieces[i + 1..].iter().take_while(|p| is_prose(p) || matches!(p, Piece::Claim(_))).count();
            let end = spans[i + run].end.min(text.len());
            out.push((region, text[..end].trim_end_matches(['\r', '\n']).len()));
        }
        region += 1;
    }
    out
}

/// The bytes outside `doc`'s regions as [`outside`] gives them, with
/// reckon's notes for inline claims cut out — written after the block that
/// holds the claim, the one place outside the regions a splice writes —
/// and where each note was: its region, and its piece and offset there once
/// the notes are cut.
fn outside_but_notes(doc: &Document, text: &str) -> (Vec<String>, Vec<(usize, usize, usize)>) {
    let mut notes: Vec<(usize, Range<usize>)> =
        (doc.regions.iter().enumerate()).filter_map(|(i, r)| Some((i, r.detached.as_ref()?.note.clone()?))).collect();
    notes.sort_by_key(|(_, r)| r.start);
    let mut bounds = Vec::new();
    let mut pos = 0;
    for region in &doc.regions {
        bounds.push(pos..region.content.start);
        pos = region.close.end;
    }
    bounds.push(pos..text.len());
    let mut parts = Vec::new();
    let mut places = Vec::new();
    for (k, piece) in bounds.iter().enumerate() {
        let mut kept = String::new();
        let mut at = piece.start;
        for (region, note) in notes.iter().filter(|(_, n)| piece.start <= n.start && n.end <= piece.end) {
            kept.push_str(&text[at..note.start]);
            places.push((*region, k, kept.len()));
            at = note.end;
        }
        kept.push_str(&text[at..piece.end]);
        parts.push(kept);
    }
    assert_eq!(places.len(), notes.len(), "a note inside another region: {text:?}");
    (parts, places)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn text_without_directives_is_never_changed(text in markdownish()) {
        let doc = doc::parse(Path::new("any.md"), &text).expect("no directive, no error");
        prop_assert!(doc.regions.is_empty());
        prop_assert_eq!(doc.splice::<&str>(&text, &[]), text);
    }

    #[test]
    fn splicing_keeps_every_byte_outside_the_regions(
        pieces in prop::collection::vec(piece(), 0..8),
        crlf in any::<bool>(),
        final_newline in any::<bool>(),
        new_contents in prop::collection::vec(
            prop_oneof![
                prop::collection::vec(content_line(), 0..4).prop_map(|l| l.join("\n")),
                value_text(),
            ],
            8,
        ),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let (text, contents, spans) = build(&pieces, eol, final_newline);
        let doc = parse(&text);
        let found: Vec<&str> = doc.regions.iter().map(|r| r.content(&text)).collect();
        prop_assert_eq!(&found, &contents);

        let replacements: Vec<(usize, String)> =
            (0..doc.regions.len()).map(|i| (i, new_contents[i].clone())).collect();
        let once = doc.splice(&text, &replacements);
        let after = parse(&once);
        prop_assert_eq!(after.regions.len(), doc.regions.len());
        // Outside the regions, the one change is a note after the paragraph
        // of a claim written in its middle, and only there: at the end of
        // the prose going on after the claim, never between its lines.
        let (kept, places) = outside_but_notes(&after, &once);
        prop_assert_eq!(outside(&doc, &text), kept);
        let mid = mid_paragraph_claims(&pieces, &spans, &text);
        let mut piece_starts = vec![0];
        piece_starts.extend(doc.regions.iter().map(|r| r.close.end));
        for (region, piece, offset) in places {
            let expected = mid.iter().find(|(r, _)| *r == region).map(|(_, end)| *end);
            prop_assert_eq!(Some(piece_starts[piece] + offset), expected, "note of region {}", region);
        }
        for (i, region) in after.regions.iter().enumerate().filter(|(_, r)| r.kind == Kind::Claim) {
            prop_assert_eq!(region.detached.is_some(), mid.iter().any(|(r, _)| *r == i), "claim {}", i);
        }
        for (region, written) in after.regions.iter().zip(&contents) {
            prop_assert!(!region.edited_by_hand());
            if region.kind == Kind::Claim {
                // The author's words come back byte for byte; only a note
                // (and its digest) may have been added.
                prop_assert_eq!(region.author_text(&once), written.as_str());
                prop_assert_eq!(region.digest.is_some(), region.status_note(&once).is_some());
            } else {
                prop_assert!(region.digest.is_some());
            }
        }
        if crlf {
            prop_assert!(!once.replace("\r\n", "").contains('\n'));
        }
        prop_assert_eq!(after.splice(&once, &replacements), once);
    }
}
