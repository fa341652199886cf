//! Issue 20 item 7, the case left: a claim whose markers sit on lines of
//! their own in the middle of a paragraph (prose right before the opening
//! marker and right after the closing one, no blank line between). Its
//! note went inside the region, between the claim's words and the rest of
//! the sentence; it goes after the paragraph, list or quote the sentence
//! ends in, for `check` and `update --write` alike. (A rendered page shows
//! such lines as separate paragraphs, Markdown ending one at each marker
//! line; the note after them keeps them together there too.) A claim
//! starting its paragraph keeps its note inside, right after its words.
//!
//! Data: the scenario's two sweeps; the claim is contradicted by the
//! 2026-11-29 sweep (eagle-topk1-v2 759.3 vs baseline 689.4 at
//! `max_concurrency` 30).

mod common;

use common::Sandbox;

const TOML: &str = "series = \"config\"\n\n[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n";
const CLAIM: &str = "baseline beats others on output_throughput for all max_concurrency >= 30";

fn plan() -> String {
    format!(
        "# Plan\n\n\
         We found that\n\
         <!-- reckon:claim id=para {CLAIM} -->\n\
         baseline is strictly superior\n\
         <!-- /reckon:claim -->\n\
         at saturation, and moved on.\n\n\
         - Throughput:\n  \
           <!-- reckon:claim id=item {CLAIM} -->\n  \
           baseline wins\n  \
           <!-- /reckon:claim -->\n  \
           from C=30 on.\n\
         - Cost: unchanged.\n\n\
         > The review said\n\
         > <!-- reckon:claim id=quote {CLAIM} -->\n\
         > baseline wins\n\
         > <!-- /reckon:claim -->\n\
         > at saturation.\n\n\
         Two in one sentence:\n\
         <!-- reckon:claim id=two-a {CLAIM} -->\n\
         baseline wins\n\
         <!-- /reckon:claim -->\n\
         and\n\
         <!-- reckon:claim id=two-b {CLAIM} -->\n\
         wins again\n\
         <!-- /reckon:claim -->\n\
         at saturation.\n\n\
         <!-- reckon:claim id=lead {CLAIM} -->\n\
         Baseline wins at saturation.\n\
         <!-- /reckon:claim -->\n\
         We moved on.\n\n\
         Block form, kept as it was:\n\n\
         <!-- reckon:claim id=block {CLAIM} -->\n\
         baseline wins at saturation.\n\
         <!-- /reckon:claim -->\n\
         - a list after it\n\n\
         ## Next\n"
    )
}

/// The line after `needle`'s line in `text`.
fn line_after<'t>(text: &'t str, needle: &str) -> &'t str {
    let mut lines = text.lines().skip_while(|l| !l.contains(needle));
    lines.next().unwrap_or_else(|| panic!("no line with {needle:?} in:\n{text}"));
    lines.next().unwrap_or("")
}

#[test]
fn item_7_a_claim_in_the_middle_of_a_paragraph_keeps_its_sentence_together() {
    let s = Sandbox::with_scenario();
    s.write("reckon.toml", TOML);
    s.write("plan.md", plan());
    let r = s.run(&["check", "plan.md"]);
    assert_eq!(r.code, 1, "{r:?}");
    s.ok(&["update", "--write", "plan.md"]);
    let after = s.read("plan.md");
    // Each closing marker is still followed by the rest of its sentence.
    for (id, rest) in
        [("para", "at saturation, and moved on."), ("item", "  from C=30 on."), ("quote", "> at saturation.")]
    {
        let close = after
            .lines()
            .skip_while(|l| !l.contains(&format!("reckon:claim id={id} ")))
            .find(|l| l.contains("/reckon:claim"))
            .unwrap_or_else(|| panic!("claim {id}: {after}"));
        assert_eq!(line_after(&after, close), rest, "claim {id}:\n{after}");
    }
    // The notes come after the paragraph, the list and the quote, each
    // naming its claim.
    assert_eq!(line_after(&after, "at saturation, and moved on."), "", "{after}");
    assert!(after.contains("at saturation, and moved on.\n\n> [!WARNING]\n> **reckon:** claim `para`:"), "{after}");
    assert!(after.contains("- Cost: unchanged.\n\n> [!WARNING]\n> **reckon:** claim `item`:"), "{after}");
    assert!(after.contains("> at saturation.\n\n> [!WARNING]\n> **reckon:** claim `quote`:"), "{after}");
    // Two claims in one paragraph: both notes after it, in order, none
    // between its lines.
    let two = after.find("at saturation.\n\n> [!WARNING]\n> **reckon:** claim `two-a`:").expect(&after);
    assert!(after[two..].contains("> **reckon:** claim `two-b`:"), "{after}");
    assert!(
        after.contains("and\n<!-- reckon:claim id=two-b") && after.contains("wins again\n<!-- /reckon:claim"),
        "{after}"
    );
    // A claim starting its paragraph (a blank line before it) is in the
    // block form: its note stays inside, right after its words.
    assert!(after.contains("Baseline wins at saturation.\n\n> [!WARNING]\n> **reckon:** the data of"), "{after}");
    assert!(after.contains("<!-- /reckon:claim digest=") && after.contains("-->\nWe moved on.\n"), "{after}");
    // A claim in the block form, followed by a block of another kind, keeps
    // its note inside.
    assert!(after.contains("baseline wins at saturation.\n\n> [!WARNING]\n> **reckon:** the data of"), "{after}");
    // Applying again changes nothing; check fails on the verdicts alone.
    s.ok(&["update", "--write", "plan.md"]);
    assert_eq!(s.read("plan.md"), after);
    let r = s.run(&["check", "plan.md"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(!r.stdout.contains("edited by hand") && !r.stdout.contains("stale"), "{r:?}");
}
