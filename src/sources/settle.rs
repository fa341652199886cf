//! A log a template finds, settled as unchanged before anything is built
//! for it: its path looked up in the stored sources, its metadata compared
//! with what was recorded, its labels and run time checked against the
//! stored ones through buffers kept for the command. A check with nothing
//! changed pays, per log, the walk's one `stat`, one look-up and one match
//! of the template, and allocates nothing for the log's labels. Whatever
//! this cannot decide goes the whole way (`examine`), which decides the
//! same.

use std::collections::BTreeMap;
use std::path::Path;

use super::examine::{same_file, seen_of, time_holds, Stored};
use super::git::GitView;
use super::time::fixed_time;
use crate::ingest::template::Captures;
use crate::ingest::PathTemplate;
use crate::run::Value;
use crate::store::{write_labels_json, LabelRef, RunTime};

/// The labels one request gives each file its template finds, in the
/// order the stored labels JSON writes them.
pub(super) struct LabelPlan {
    pieces: Vec<(String, Piece)>,
    /// The index among the template's names of `{date}`.
    date: Option<usize>,
    /// The run time a `sweep` label of the request fixes.
    label_time: Option<RunTime>,
}

/// Where a label's value comes from.
enum Piece {
    Given(Value),
    /// The template's capture of this index among its names.
    Captured(usize),
}

impl LabelPlan {
    /// The plan of a request with `labels` (its `sweep` taken out, named
    /// `sweep`) over `template`; `None` when a file's labels depend on more
    /// than where they come from (a `{sweep}` in the path is read as a date).
    pub(super) fn new(
        template: &PathTemplate,
        labels: &BTreeMap<String, Value>,
        sweep: Option<&String>,
    ) -> Option<LabelPlan> {
        let names = template.names();
        if names.iter().any(|n| n == "sweep") {
            return None;
        }
        let mut pieces: Vec<(String, Piece)> =
            labels.iter().map(|(k, v)| (k.clone(), Piece::Given(v.clone()))).collect();
        for (i, name) in names.iter().enumerate() {
            // A label of the request wins over the path's capture of its name.
            if name != "date" && !labels.contains_key(name) {
                pieces.push((name.clone(), Piece::Captured(i)));
            }
        }
        if let Some(s) = sweep {
            pieces.push(("sweep".into(), Piece::Given(Value::Text(s.clone()))));
        }
        pieces.sort_by(|a, b| a.0.cmp(&b.0));
        let date = names.iter().position(|n| n == "date");
        let label_time = fixed_time(Path::new(""), None, sweep.map(String::as_str)).ok().flatten().map(|(t, _)| t);
        Some(LabelPlan { pieces, date, label_time })
    }
}

/// The command's look at found files, with its buffers.
pub(super) struct Settler<'a> {
    root: &'a Path,
    stored: &'a Stored,
    git: &'a GitView,
    json: String,
    /// The run time the last `{date}` seen fixes, by its text.
    last_date: Option<(String, Option<RunTime>)>,
}

impl<'a> Settler<'a> {
    pub(super) fn new(root: &'a Path, stored: &'a Stored, git: &'a GitView) -> Settler<'a> {
        Settler { root, stored, git, json: String::new(), last_date: None }
    }

    /// True when the store holds the file at `path`, found by `template`
    /// with metadata `meta`, as it is now, with the labels and run time it
    /// would be given now: what `examine` calls unchanged.
    pub(super) fn settled(
        &mut self,
        template: &PathTemplate,
        room: &mut Captures,
        plan: &LabelPlan,
        path: &Path,
        meta: &std::fs::Metadata,
    ) -> bool {
        let shown = crate::fsguard::strip_root(self.root, path).unwrap_or(path);
        let Some((stored, found)) = shown.to_str().and_then(|s| self.stored.get_with_mark(s)) else { return false };
        if !same_file(&stored.seen, &seen_of(meta)) {
            return false;
        }
        let Some(text) = template.capture_text(self.root, path) else { return false };
        if !room.read(template, text) {
            return false;
        }
        let captured = |i: usize| room.get(text, i);
        let holds = match plan.date.map(captured) {
            Some(date) => {
                if self.last_date.as_ref().is_none_or(|(d, _)| d != date) {
                    let time = fixed_time(shown, Some(date), None).ok().flatten().map(|(t, _)| t);
                    self.last_date = Some((date.to_string(), time));
                }
                // A `{date}` that is no date is an error `examine` reports.
                match self.last_date.as_ref().and_then(|(_, t)| t.as_ref()) {
                    Some(time) => time_holds(stored, Some(time), self.git),
                    None => false,
                }
            }
            None => time_holds(stored, plan.label_time.as_ref(), self.git),
        };
        if !holds {
            return false;
        }
        let labels = plan.pieces.iter().map(|(k, piece)| {
            let value = match piece {
                Piece::Given(v) => LabelRef::Value(v),
                Piece::Captured(i) => LabelRef::Read(captured(*i)),
            };
            (k.as_str(), value)
        });
        write_labels_json(&mut self.json, labels);
        let settled = self.json == stored.labels;
        found.set(found.get() || settled);
        settled
    }
}
