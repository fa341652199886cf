//! A claim on the page: its verdict badge, the author's words, and its
//! evidence one click away. A claim written as its own block becomes a
//! `<section>`; a claim written inside a sentence stays in it, as a
//! `<span>` with its badge, and its evidence follows the block that holds
//! the sentence (as its status note does in the document).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::provenance::Entries;
use crate::claims::judge::{ClaimReport, ClauseReport};
use crate::escape::html as esc;

/// The badge's class and word: the verdict, or `superseded`.
fn verdict(report: &ClaimReport) -> (String, &str) {
    let word = if report.superseded.is_some() { "superseded" } else { report.verdict.as_str() };
    (word.replace(' ', "-"), word)
}

/// A claim id as the fragment of a link to it (`#claim-…`): percent-encoded,
/// which a browser decodes before it looks the id up.
fn fragment(id: &str) -> String {
    esc(&crate::escape::uri_path(id))
}

/// The header's counts of verdicts, each opening the list of the claims
/// it counts, linked.
pub(super) fn counts(claims: &[ClaimReport]) -> String {
    let mut by_verdict: BTreeMap<(String, &str), Vec<&str>> = BTreeMap::new();
    for c in claims {
        by_verdict.entry(verdict(c)).or_default().push(&c.id);
    }
    by_verdict.iter().fold(String::new(), |mut out, ((class, word), ids)| {
        let _ = write!(
            out,
            "<details class=\"count\"><summary><span class=\"badge badge-{class}\">{} {}</span></summary><ul>",
            ids.len(),
            esc(word)
        );
        for id in ids {
            let _ = write!(out, "<li><a href=\"#claim-{}\">{}</a></li>", fragment(id), esc(id));
        }
        out.push_str("</ul></details>");
        out
    })
}

/// A block claim's opening: the section, its badge and id.
pub(super) fn open(report: &ClaimReport) -> String {
    let (class, word) = verdict(report);
    format!(
        "<section class=\"claim verdict-{class}\" id=\"claim-{}\">\n\
         <p class=\"claim-head\"><span class=\"badge badge-{class}\">{}</span> \
         <code class=\"claim-id\">{}</code></p>\n",
        esc(&report.id),
        esc(word),
        esc(&report.id)
    )
}

/// A block claim's end: its evidence, and the section closed.
pub(super) fn close(report: &ClaimReport, entries: &mut Entries) -> String {
    format!("{}</section>\n", evidence(report, entries))
}

/// An inline claim's opening: a span around the author's words, its badge
/// a link to the evidence after the block (a plain badge when the claim is
/// inside a link's text, where no link may be).
pub(super) fn open_inline(report: &ClaimReport, in_link: bool) -> String {
    let (class, word) = verdict(report);
    let id = esc(&report.id);
    let badge = if in_link {
        format!("<span class=\"badge badge-{class}\">{}</span>", esc(word))
    } else {
        format!("<a class=\"badge badge-{class}\" href=\"#evidence-{}\">{}</a>", fragment(&report.id), esc(word))
    };
    format!("<span class=\"claim claim-inline verdict-{class}\" id=\"claim-{id}\">{badge} ")
}

/// An inline claim's evidence, as a block after the one holding it.
pub(super) fn evidence_after(report: &ClaimReport, entries: &mut Entries) -> String {
    let (class, _) = verdict(report);
    format!(
        "<div class=\"claim-evidence verdict-{class}\" id=\"evidence-{}\"><p class=\"claim-head\">\
         <code class=\"claim-id\">{}</code></p>\n{}</div>\n",
        esc(&report.id),
        esc(&report.id),
        evidence(report, entries)
    )
}

/// The claim's statement, verdict summary, clauses and details, and each
/// comparison linked to the runs behind it.
fn evidence(report: &ClaimReport, entries: &mut Entries) -> String {
    let mut html = String::from("<details class=\"evidence\"><summary>Evidence</summary>\n");
    let _ = writeln!(html, "<p><strong>Statement:</strong> <code>{}</code></p>", esc(&report.statement));
    if let Some(date) = &report.superseded {
        let _ =
            writeln!(html, "<p>Superseded on {}; the data now say: {}</p>", esc(date), esc(report.verdict.as_str()));
    }
    let _ = writeln!(html, "<p>{}</p>", esc(&report.summary));
    // The breakdown is listed with the comparisons, linked.
    let listed: Vec<String> = report
        .clauses
        .iter()
        .flat_map(|c| c.judgement.evidence.breakdown.iter().map(|ex| ex.line(c.judgement.evidence.shown_in.as_ref())))
        .collect();
    let details: Vec<&String> =
        report.clauses.iter().flat_map(|c| &c.details).filter(|d| !listed.contains(d)).collect();
    if report.clauses.len() > 1 || !details.is_empty() {
        html.push_str("<ul>");
        for c in report.clauses.iter().filter(|_| report.clauses.len() > 1) {
            let _ = write!(html, "<li><code>{}</code>: {}</li>", esc(&c.statement), esc(&c.summary));
        }
        for d in details {
            let _ = write!(html, "<li>{}</li>", esc(d));
        }
        html.push_str("</ul>\n");
    }
    for clause in &report.clauses {
        html.push_str(&comparisons(clause, report.clauses.len() > 1, entries));
    }
    if let Some(date) = &report.data_date {
        let _ = writeln!(html, "<p class=\"muted\">Data of the {} sweep.</p>", esc(date));
    }
    html.push_str("</details>\n");
    html
}

/// A clause's comparisons, each with a link to the provenance entry of
/// exactly the runs both its sides were read from: every comparison of the
/// breakdown as it reads there, or the one comparison a clause of one
/// point made (its numbers are the summary's).
fn comparisons(clause: &ClauseReport, name_clause: bool, entries: &mut Entries) -> String {
    let ev = &clause.judgement.evidence;
    let (listed, whole) =
        if ev.breakdown.is_empty() { (ev.example.as_slice(), false) } else { (&ev.breakdown[..], true) };
    if listed.is_empty() {
        return String::new();
    }
    let mut html = String::from("<p class=\"comparisons-head\">Compared");
    if name_clause {
        let _ = write!(html, " for <code>{}</code>", esc(&clause.statement));
    }
    html.push_str(", each with the runs behind it:</p>\n<ul class=\"comparisons\">");
    for ex in listed {
        let text = if whole {
            ex.line(ev.shown_in.as_ref())
        } else {
            let at = if ex.point.is_empty() { String::new() } else { format!("{}: ", ex.point) };
            format!("{at}{} vs {}", ex.first.name, ex.second.name)
        };
        let runs = ex.run_ids();
        let link = entries.cite(runs.as_slice()).map_or_else(String::new, |k| {
            let n = runs.as_slice().len();
            format!(" <a class=\"runs\" href=\"#prov-{k}\">{n} run{}</a>", if n == 1 { "" } else { "s" })
        });
        let _ = write!(html, "<li class=\"comparison\">{}{link}</li>", esc(&text));
    }
    html.push_str("</ul>\n");
    html
}
