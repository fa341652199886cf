//! The page's provenance list: one entry per distinct set of runs a number
//! rests on — a table cell, an inline value, a plot point, a whole region —
//! shared by every number resting on exactly those runs (a table cell and
//! the inline value quoting it link to one entry). An entry says how many
//! runs, their sweeps and where their times came from, what they have in
//! common that tells them from the project's other runs, and each log with
//! its lines, linked to the file and, at the commit the page was built
//! from, to the forge.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use super::forge::Site;
use crate::escape::html as esc;
use crate::query::{Dataset, RunRef, RunsView};

/// The entries cited so far, by their runs.
pub(super) struct Entries<'a, 's> {
    dataset: &'a Dataset<'s>,
    /// Every run, read on the first citation; runs are looked up in it by
    /// id, never copied into records of their own.
    runs: Option<RunsView<'a>>,
    site: &'a Site,
    ids: HashMap<Vec<i64>, usize>,
    /// Whether a param takes more than one value in the project (only
    /// those can tell an entry's runs from the others).
    varies: HashMap<String, bool>,
    html: String,
    /// The newest sweep any cited run belongs to.
    pub(super) newest: Option<String>,
}

impl<'a, 's> Entries<'a, 's> {
    pub(super) fn new(dataset: &'a Dataset<'s>, site: &'a Site) -> Self {
        Entries {
            dataset,
            runs: None,
            site,
            ids: HashMap::new(),
            varies: HashMap::new(),
            html: String::new(),
            newest: None,
        }
    }

    /// The id of the entry listing exactly `runs` (ascending ids), made on
    /// first citation; `None` for no runs.
    pub(super) fn cite(&mut self, runs: &[i64]) -> Option<usize> {
        if runs.is_empty() {
            return None;
        }
        if let Some(&id) = self.ids.get(runs) {
            return Some(id);
        }
        let id = self.ids.len();
        self.ids.insert(runs.to_vec(), id);
        let entry = self.entry(id, runs);
        self.html.push_str(&entry);
        Some(id)
    }

    /// The list's items, in the order they were first cited.
    pub(super) fn into_html(self) -> String {
        self.html
    }

    fn entry(&mut self, id: usize, runs: &[i64]) -> String {
        if self.runs.is_none() {
            // A store that cannot be read now was read a moment ago: no runs.
            self.runs = self.dataset.runs_view().ok();
        }
        let records: Vec<RunRef<'_>> = match &self.runs {
            Some(view) => runs.iter().filter_map(|id| view.run(*id)).collect(),
            None => Vec::new(),
        };
        let mut by_source: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
        let (mut sweeps, mut origins) = (BTreeSet::new(), BTreeSet::new());
        for run in &records {
            by_source.entry(run.source).or_default().push(run.line);
            sweeps.insert(run.sweep);
            origins.insert(run.time_origin);
        }
        if let Some(last) = sweeps.last() {
            if self.newest.as_deref().is_none_or(|n| *last > n) {
                self.newest = Some((*last).to_string());
            }
        }
        let n = records.len();
        let mut html = format!(
            "<li id=\"prov-{id}\">{n} {}; {} {}; {} from {}",
            if n == 1 { "run" } else { "runs" },
            if sweeps.len() == 1 { "sweep" } else { "sweeps" },
            esc(&sweeps.into_iter().collect::<Vec<_>>().join(", ")),
            if n == 1 { "time" } else { "times" },
            esc(&origins.into_iter().collect::<Vec<_>>().join(", ")),
        );
        let common = common(self.dataset, &mut self.varies, &records);
        if !common.is_empty() {
            let _ = write!(html, "<br><code>{}</code>", esc(&common));
        }
        html.push_str("<ul>");
        for (source, mut lines) in by_source {
            lines.sort_unstable();
            lines.dedup();
            html.push_str("<li>");
            html.push_str(&self.site.source_html(source, &lines));
            html.push_str("</li>");
        }
        html.push_str("</ul></li>\n");
        html
    }
}

/// The params the runs share and the project's runs do not all share:
/// `config=baseline max_concurrency=8`. Runs of one param set share all of
/// theirs without a look at them.
fn common(dataset: &Dataset, varies: &mut HashMap<String, bool>, records: &[RunRef<'_>]) -> String {
    let Some((first, rest)) = records.split_first() else { return String::new() };
    let others: Vec<&RunRef<'_>> = rest.iter().filter(|r| r.set != first.set).collect();
    let mut out: Vec<String> = Vec::new();
    for (name, value) in first.params.iter() {
        if others.iter().any(|r| r.params.get(name) != Some(value)) {
            continue;
        }
        let varies = *varies.entry(name.to_string()).or_insert_with(|| dataset.param_values(name).len() > 1);
        if varies {
            out.push(format!("{name}={value}"));
        }
    }
    out.join(" ")
}
