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
