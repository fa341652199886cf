//! What the claims tests on real formats share: a claim region around one
//! claim, and each claim's one-line summary by id.

use super::Sandbox;

/// Each claim's one-line summary, by id.
pub(crate) fn summaries(s: &Sandbox, doc: &str) -> Vec<(String, String)> {
    let v = s.ok(&["claims", doc, "--format", "json"]).json();
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| &c["claim"])
        .map(|c| (c["id"].as_str().unwrap().to_string(), c["summary"].as_str().unwrap().to_string()))
        .collect()
}

/// A claim region holding `text` as claim `id`.
pub(crate) fn claim(id: &str, text: &str) -> String {
    format!("<!-- reckon:claim id={id}\n     {text} -->\nx\n<!-- /reckon:claim -->\n\n")
}

/// One claim as `claims --format json` judged it.
#[derive(Debug)]
pub(crate) struct Judged {
    pub(crate) id: String,
    pub(crate) verdict: String,
    pub(crate) summary: String,
    /// The first clause's detail lines.
    pub(crate) details: Vec<String>,
}

/// The claims `(id, text)`, written as a document and judged.
pub(crate) fn judged(s: &Sandbox, claims: &[(&str, &str)]) -> Vec<Judged> {
    let doc: String = claims.iter().map(|(id, text)| claim(id, text)).collect();
    s.write("plan.md", doc);
    let v = s.run(&["claims", "plan.md", "--format", "json"]).json();
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| &c["claim"])
        .map(|c| {
            let field = |k: &str| c[k].as_str().unwrap().to_string();
            let details = c["clauses"][0]["details"]
                .as_array()
                .map(|d| d.iter().map(|l| l.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            Judged { id: field("id"), verdict: field("verdict"), summary: field("summary"), details }
        })
        .collect()
}

/// The claim `id` of what [`judged`] returned.
pub(crate) fn verdict_of<'a>(got: &'a [Judged], id: &str) -> &'a Judged {
    got.iter().find(|j| j.id == id).unwrap_or_else(|| panic!("no claim {id}: {got:?}"))
}
