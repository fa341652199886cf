//! Claims written inside prose keep the prose valid markdown: a claim in a
//! sentence, a list item or a quote gets its status note after the
//! enclosing block, and `supersede` puts its marker there too. Checked by
//! parsing the document with pulldown-cmark before and after and comparing
//! the block structure: the only blocks added are reckon's notes (and the
//! supersede comment), each right after the block that holds its claim.
//! A `value` region may sit inside a claim's sentence.
//!
//! Data: the scenario's two sweeps; `baseline beats others … >= 30` is
//! contradicted by the 2026-11-29 sweep (eagle-topk1-v2 759.3 vs baseline
//! 689.4 at `max_concurrency` 30), `eagle-topk1-v2 beats baseline … = 30` holds.

mod common;

use common::{Ran, Sandbox};
use pulldown_cmark::{Event, Parser, Tag};

const TOML: &str = r#"
series = "config"

[[source]]
path = "logs/{date}/{config}.log"

[[source]]
path = "logs/{date}/{config}.jsonl"
"#;

const CONTRADICTED: &str = "baseline beats others on output_throughput for all max_concurrency >= 30";
const HOLDS: &str = "eagle-topk1-v2 beats baseline on output_throughput at max_concurrency = 30";

fn plan() -> String {
    format!(
        "\
# Plan

We found that <!-- reckon:claim id=sentence {CONTRADICTED} -->baseline is strictly superior at \
saturation<!-- /reckon:claim --> in every run, and we moved on.

- Latency: fine.
- Throughput: <!-- reckon:claim id=item {CONTRADICTED} -->baseline wins from C=30 on<!-- /reckon:claim -->.
- Cost: unchanged.

> As the review put it, <!-- reckon:claim id=quote {CONTRADICTED} -->baseline wins at saturation<!-- \
/reckon:claim -->,
> and nobody argued.

Now <!-- reckon:claim id=with-value {HOLDS} -->topk=1 on the v2 path reaches <!-- reckon:value \
metric=output_throughput config=eagle-topk1-v2 max_concurrency=30 digits=1 --><!-- /reckon:value --> \
tok/s at C=30, ahead of baseline<!-- /reckon:claim -->.

## Next
"
    )
}

fn sandbox() -> Sandbox {
    let s = Sandbox::with_scenario();
    s.write("reckon.toml", TOML);
    s.write("plan.md", plan());
    s
}

fn expect(s: &Sandbox, code: i32, args: &[&str]) -> Ran {
    let r = s.run(args);
    assert_eq!(r.code, code, "reckon {args:?}\n{r:?}");
    r
}

/// A top-level block: its kind and text (HTML comments left out).
#[derive(Debug, Clone, PartialEq)]
struct Block {
    kind: String,
    /// Block structure inside it: one letter per nested block start.
    shape: String,
    text: String,
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut depth = 0;
    for event in Parser::new_ext(markdown, reckon::doc::options()) {
        match event {
            Event::Start(tag) => {
                let letter = match &tag {
                    Tag::Paragraph => "p",
                    Tag::List(_) => "l",
                    Tag::Item => "i",
                    Tag::BlockQuote(_) => "q",
                    Tag::Heading { .. } => "h",
                    Tag::HtmlBlock => "c",
                    _ => "",
                };
                if depth == 0 {
                    out.push(Block { kind: letter.to_string(), shape: String::new(), text: String::new() });
                } else if let Some(b) = out.last_mut() {
                    b.shape.push_str(letter);
                }
                depth += 1;
            }
            Event::End(_) => depth -= 1,
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => {
                if let Some(b) = out.last_mut() {
                    b.text.push_str(&t);
                }
            }
            _ => {}
        }
    }
    out
}

/// The blocks reckon added: notes (quotes starting with `reckon:`) and the
/// supersede comment.
fn is_reckons(b: &Block) -> bool {
    (b.kind == "q" && b.text.trim_start().starts_with("reckon:")) || (b.kind == "c" && b.text.contains("superseded on"))
}

/// Checks that `after` is `before` with only reckon's blocks added, and
/// returns the index in `before` of the block each added one follows.
fn added_after(before: &str, after: &str) -> Vec<(usize, Block)> {
    let (b, a) = (blocks(before), blocks(after));
    let kept: Vec<Block> = a.iter().filter(|x| !is_reckons(x)).cloned().collect();
    // The author's blocks keep their kind and shape (a list is not split, a
    // paragraph not cut); their text may change only where a value region is.
    let shape = |v: &[Block]| v.iter().map(|x| (x.kind.clone(), x.shape.clone())).collect::<Vec<_>>();
    assert_eq!(shape(&kept), shape(&b), "block structure changed:\n{after}");
    let mut added = Vec::new();
    let mut seen = 0usize;
    for x in &a {
        if is_reckons(x) {
            added.push((seen - 1, x.clone()));
        } else {
            seen += 1;
        }
    }
    added
}

#[test]
fn notes_of_inline_claims_go_after_their_block() {
    let s = sandbox();
    let before = s.read("plan.md");
    expect(&s, 1, &["check", "plan.md"]);
    s.ok(&["update", "--write", "plan.md"]);
    let after = s.read("plan.md");

    let added = added_after(&before, &after);
    let original = blocks(&before);
    let follows: Vec<(&str, &str)> =
        added.iter().map(|(i, note)| (original[*i].kind.as_str(), note.text.as_str())).collect();
    assert_eq!(follows.len(), 3, "{after}");
    // After the paragraph, the list and the quote: one note each, naming its claim.
    assert_eq!(follows[0].0, "p");
    assert!(follows[0].1.contains("claim sentence:") || follows[0].1.contains("claim `sentence`"), "{after}");
    assert_eq!(follows[1].0, "l");
    assert!(after.contains("> **reckon:** claim `item`: the data of 2026-11-29 contradict this conclusion"), "{after}");
    assert_eq!(follows[2].0, "q");
    assert!(after.contains("> **reckon:** claim `quote`:"), "{after}");
    // The author's lines are untouched, and the value inside a claim is filled.
    for line in ["- Throughput: <!-- reckon:claim id=item", "> and nobody argued.", "- Cost: unchanged."] {
        assert!(after.contains(line), "{line}: {after}");
    }
    assert!(after.contains("max_concurrency=30 digits=1 -->759.3<!-- /reckon:value digest="), "{after}");

    // Applying again changes nothing; check still fails on the verdicts only.
    s.ok(&["update", "--write", "plan.md"]);
    assert_eq!(s.read("plan.md"), after);
    let r = expect(&s, 1, &["check", "plan.md"]);
    let errors: Vec<&str> = r.stdout.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(errors.len(), 3, "{r:?}");
    assert!(errors.iter().all(|l| l.contains("contradicted")), "{r:?}");

    // A note edited by hand is noticed.
    s.write("plan.md", after.replace("contradict this conclusion", "dispute this conclusion"));
    let r = expect(&s, 1, &["check", "plan.md"]);
    assert!(r.stdout.contains("was edited by hand"), "{r:?}");

    // When the claims hold (restated), the notes go and the document is as
    // the author wrote it, value aside.
    s.write("plan.md", after.replace(CONTRADICTED, HOLDS));
    s.ok(&["update", "--write", "plan.md"]);
    let back = s.read("plan.md");
    assert!(!back.contains("**reckon:**"), "{back}");
    assert_eq!(blocks(&back).len(), blocks(&before).len(), "{back}");
}

#[test]
fn supersede_marks_an_inline_claim_after_its_block() {
    let s = sandbox();
    let before = s.read("plan.md");
    s.ok(&["supersede", "plan.md", "item", "--write"]);
    let after = s.read("plan.md");
    let added = added_after(&before, &after);
    let original = blocks(&before);
    // The note and the comment for the new conclusion, both after the list.
    let after_list: Vec<&Block> = added.iter().filter(|(i, _)| original[*i].kind == "l").map(|(_, b)| b).collect();
    assert_eq!(after_list.len(), 2, "{after}");
    assert_eq!(after_list[0].kind, "q");
    assert!(after.contains("<!-- reckon:claim id=item superseded=2026-11-29 "), "{after}");
    assert!(after.contains("> [!NOTE]\n> **reckon:** claim `item`: superseded on 2026-11-29"), "{after}");
    let list_end = after.find("- Cost: unchanged.\n").unwrap();
    let comment = after.find("<!-- The conclusion above was superseded").unwrap();
    assert!(comment > list_end, "{after}");
}
