//! Requests into files: globs and templates expanded, labels checked
//! against reckon's built-in names, a `sweep` label read as a date.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::settle::{LabelPlan, Settler};
use super::time::parse_sweep;
use super::{display_path, Request};
use crate::ingest::walk::Found;
use crate::ingest::{Format, PathTemplate};
use crate::run::Value;
use crate::{Error, Result};

/// One file to ingest, after expanding globs and templates.
#[derive(Debug, Clone)]
pub struct Job {
    pub path: PathBuf,
    pub format: Option<Format>,
    /// The labels that become params (a `sweep` label is not one of them),
    /// one map shared by the files of a request that get the same labels
    /// (a folder's files capture the same `{config}`): planning 30,000
    /// files made no copy of a map for each.
    pub labels: Arc<BTreeMap<String, Value>>,
    /// The `{date}` captured from the path, as given.
    pub date: Option<String>,
    /// The sweep a `sweep` label (or a `{sweep}` in the path) names, as
    /// `YYYY-MM-DD` or `YYYY-MM`.
    pub sweep: Option<String>,
    /// The file's metadata as the expansion found it (a template's glob
    /// reads it anyway), so that examining the file needs no second `stat`;
    /// boxed, so the list of a scan's files that nearly all settle stays
    /// small.
    pub meta: Option<Box<std::fs::Metadata>>,
    /// The expansion found that the store holds this file as it is now,
    /// with the labels and run time it would be given (`settle`): nothing
    /// else was built for it (`labels` is empty, `meta` gone).
    pub settled: bool,
}

impl Job {
    /// A file the store holds as it is now.
    fn settled(path: PathBuf) -> Job {
        Job { path, format: None, labels: Arc::default(), date: None, sweep: None, meta: None, settled: true }
    }
}

/// A requested file, or why a request gave none (the path as requested).
pub type Expanded = std::result::Result<Job, (PathBuf, Error)>;

/// The names every run has built in, what they hold and what to do
/// instead; a label of that name would hide them.
const BUILT_IN: &[(&str, &str, &str)] = &[
    ("date", "each run's sweep", "to set the sweep, label it `sweep` instead (e.g. --label sweep=2026-09), or"),
    ("time", "each run's time, from the log, the path's `{date}` or a `sweep` label", ""),
    ("source", "the path of the log each run came from", ""),
];

/// Refuses labels named like a built-in (`date`, `time`, `source`).
fn check_label_names<'a>(names: impl Iterator<Item = &'a String>) -> Result<()> {
    for name in names {
        if let Some((_, what, instead)) = BUILT_IN.iter().find(|(b, _, _)| b == name) {
            let sep = if instead.is_empty() { "" } else { " " };
            return Err(Error::usage(format!(
                "the label `{name}` would hide reckon's built-in `{name}` ({what}); \
                 {instead}{sep}give the label another name"
            )));
        }
    }
    Ok(())
}

/// Takes the `sweep` label out of `labels` and reads it as a sweep name.
fn take_sweep(labels: &mut BTreeMap<String, Value>) -> Result<Option<String>> {
    let Some(value) = labels.remove("sweep") else { return Ok(None) };
    let text = match value {
        // `--label sweep=20260901` reads as a number; its digits are the date.
        Value::Num(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{n:.0}"),
        other => other.to_string(),
    };
    parse_sweep(&text).map(Some).ok_or_else(|| {
        Error::usage(format!(
            "the label `sweep` is `{text}`, which is not a date: a sweep is named by when it ran, \
             as YYYY-MM-DD or YYYY-MM, and the newest one supersedes the others; \
             for another kind of name use another label, e.g. `campaign={text}`"
        ))
    })
}

/// Refuses, before the store or any file is looked at, the first request
/// that could never give a file: a template reckon cannot read, a label or
/// a capture named like a built-in, a `sweep` label that is not a date. A
/// refused command changes nothing.
pub fn check_requests(requests: &[Request]) -> Result<()> {
    for req in requests {
        let mut labels = req.labels.clone();
        check_label_names(labels.keys())?;
        take_sweep(&mut labels)?;
        if PathTemplate::is_pattern(&req.path) {
            let template = PathTemplate::parse(&req.path)?;
            check_label_names(template.names().iter().filter(|n| *n != "date"))?;
        }
    }
    Ok(())
}

/// Expands requests into files. Paths are relative to `root`. A request that
/// names a missing file, a directory, or a template matching nothing becomes
/// an error for that request (other requests still expand).
pub fn expand(root: &Path, requests: &[Request]) -> Vec<Expanded> {
    let parsed = parse_templates(requests);
    let walks = walk_templates(root, &parsed);
    expand_templates(root, requests, parsed, walks, None).0
}

/// What each request's template found (`None` for a plain path or a
/// template that does not parse), from [`walk_templates`].
pub(super) type Walks = Vec<Option<Result<Found>>>;

/// Walks the folders of each request's template: one walk per template,
/// which may run on a thread of its own (it touches no store).
pub(super) fn walk_templates(root: &Path, parsed: &[Option<Result<PathTemplate>>]) -> Walks {
    parsed.iter().map(|t| if let Some(Ok(t)) = t { Some(t.walk(root)) } else { None }).collect()
}

/// Each request's template, parsed once for the command (`None` for a
/// plain path).
pub(super) fn parse_templates(requests: &[Request]) -> Vec<Option<Result<PathTemplate>>> {
    requests.iter().map(|r| PathTemplate::is_pattern(&r.path).then(|| PathTemplate::parse(&r.path))).collect()
}

/// [`expand`], also giving back each request's template: `None` for a
/// plain path or a request that gave an error instead of files (it is
/// among the jobs): only a template whose files were listed can say which
/// stored paths it no longer finds. A template is compiled once per command
/// (`parsed`, from [`parse_templates`]) and walked once (`walks`, from
/// [`walk_templates`]). With a `settler`, a file the store holds as it is
/// now is settled as it is found, before its labels are built.
pub(super) fn expand_templates(
    root: &Path,
    requests: &[Request],
    parsed: Vec<Option<Result<PathTemplate>>>,
    walks: Walks,
    mut settler: Option<&mut Settler>,
) -> (Vec<Expanded>, Vec<Option<PathTemplate>>) {
    let mut jobs = Vec::new();
    let mut templates = Vec::with_capacity(requests.len());
    for ((req, template), walked) in requests.iter().zip(parsed).zip(walks) {
        templates.push(None);
        let mut req_labels = req.labels.clone();
        let named = check_label_names(req_labels.keys()).and_then(|()| take_sweep(&mut req_labels));
        let named = match named {
            Ok(s) => s,
            Err(e) => {
                jobs.push(Err((PathBuf::from(&req.path), e)));
                continue;
            }
        };
        if let Some(template) = template {
            let walked = walked.unwrap_or_else(|| Err(Error::internal("a template was not walked")));
            let files = template.and_then(|t| Ok((walked?, t)));
            let files = files.map(|(found, t)| {
                // A symlink out of the project is refused by name.
                for (path, e) in found.refused {
                    jobs.push(Err((display_path(root, &path), e)));
                }
                (found.files, t)
            });
            match files {
                Err(e) => jobs.push(Err((PathBuf::from(&req.path), e))),
                Ok((files, template)) if files.is_empty() => {
                    if req.optional {
                        // A configured source none of whose logs are left.
                        *templates.last_mut().expect("pushed above") = Some(template);
                    } else {
                        jobs.push(Err((PathBuf::from(&req.path), template.no_match(root))));
                    }
                }
                Ok((_, template))
                    if template.names().iter().any(|n| n != "date" && BUILT_IN.iter().any(|(b, _, _)| b == n)) =>
                {
                    let e = check_label_names(template.names().iter().filter(|n| *n != "date"))
                        .err()
                        .unwrap_or_else(|| Error::internal("a path capture names a built-in the label check let pass"));
                    jobs.push(Err((PathBuf::from(&req.path), e)));
                }
                Ok((files, template)) => {
                    let plan = settler.as_ref().and_then(|_| LabelPlan::new(&template, &req_labels, named.as_ref()));
                    let mut captures = template.capture_room();
                    let mut shared = SharedLabels::default();
                    jobs.reserve(files.len());
                    for (path, meta) in files {
                        if let (Some(settler), Some(plan)) = (settler.as_deref_mut(), plan.as_ref()) {
                            if settler.settled(&template, &mut captures, plan, &path, &meta) {
                                jobs.push(Ok(Job::settled(path)));
                                continue;
                            }
                        }
                        let job = template_job(
                            root,
                            &template,
                            path,
                            Some(Box::new(meta)),
                            &req_labels,
                            named.as_ref(),
                            req.format,
                        );
                        jobs.push(job.map(|mut job| {
                            job.labels = shared.share(std::mem::take(&mut job.labels));
                            job
                        }));
                    }
                    *templates.last_mut().expect("pushed above") = Some(template);
                }
            }
        } else {
            let path = if Path::new(&req.path).is_absolute() { PathBuf::from(&req.path) } else { root.join(&req.path) };
            let (labels, sweep) = (Arc::new(req_labels), named);
            jobs.push(Ok(Job { path, format: req.format, labels, date: None, sweep, meta: None, settled: false }));
        }
    }
    (jobs, templates)
}

/// The label maps the files of one request were given so far: a file whose
/// labels equal an earlier file's shares that file's map (a template's walk
/// lists a folder's files together, and those capture the same labels).
#[derive(Default)]
struct SharedLabels {
    last: Option<Arc<BTreeMap<String, Value>>>,
}

impl SharedLabels {
    fn share(&mut self, labels: Arc<BTreeMap<String, Value>>) -> Arc<BTreeMap<String, Value>> {
        match &self.last {
            Some(last) if **last == *labels => Arc::clone(last),
            _ => {
                self.last = Some(Arc::clone(&labels));
                labels
            }
        }
    }
}

/// The job of one file a template found: the labels of its request, those
/// the template captures from its path (a `{date}` and a `{sweep}` apart).
fn template_job(
    root: &Path,
    template: &PathTemplate,
    path: PathBuf,
    meta: Option<Box<std::fs::Metadata>>,
    req_labels: &BTreeMap<String, Value>,
    named: Option<&String>,
    format: Option<Format>,
) -> Expanded {
    let mut labels = req_labels.clone();
    let mut date = None;
    let mut captured = BTreeMap::new();
    // The glob found the file, so the template fits it; labels it cannot
    // read are an error, never dropped.
    let Some(from_path) = template.captures(root, &path) else {
        return Err((display_path(root, &path), template.no_captures(&path)));
    };
    for (k, v) in from_path {
        if k == "date" {
            date = Some(v);
        } else if !(labels.contains_key(&k) || k == "sweep" && named.is_some()) {
            captured.insert(k, Value::from_label(&v));
        }
    }
    // A `{sweep}` in the path names the sweep like a label.
    let sweep = match take_sweep(&mut captured) {
        Ok(s) => s.or_else(|| named.cloned()),
        Err(e) => return Err((display_path(root, &path), e)),
    };
    labels.extend(captured);
    Ok(Job { path, format, labels: Arc::new(labels), date, sweep, meta, settled: false })
}

/// Reads each file a `[[source]]` of reckon.toml covers (`configured`) as
/// that source reads it, whatever other request found it (a path or glob
/// given on the command line): with the labels the source gives and its
/// template captures, so that the file means what a configured ingest — and
/// a database built afresh from reckon.toml — make it mean. A label given
/// for such a file is refused, saying where its labels come from.
pub(super) fn adopt(root: &Path, jobs: &mut [Expanded], given: &[Request], configured: &[Request]) {
    let sources: Vec<(&Request, PathTemplate)> = configured
        .iter()
        .filter_map(|r| PathTemplate::parse(&r.path).ok().filter(|_| PathTemplate::is_pattern(&r.path)).map(|t| (r, t)))
        .collect();
    if sources.is_empty() {
        return;
    }
    let labelled = given.iter().any(|r| !r.labels.is_empty());
    for slot in jobs.iter_mut() {
        let Ok(job) = slot else { continue };
        let Some((source, template)) = sources.iter().find(|(_, t)| t.captures(root, &job.path).is_some()) else {
            continue;
        };
        let shown = display_path(root, &job.path);
        if labelled {
            *slot = Err((
                shown.clone(),
                Error::usage(format!(
                    "{} is a log of the source `{}` in reckon.toml, which gives its labels; \
                     run `reckon ingest {}` without --label, or add the label to that source",
                    shown.display(),
                    source.path,
                    shown.display()
                )),
            ));
            continue;
        }
        let mut labels = source.labels.clone();
        let named = match take_sweep(&mut labels) {
            Ok(named) => named,
            Err(e) => {
                *slot = Err((shown, e));
                continue;
            }
        };
        let path = std::mem::take(&mut job.path);
        let meta = job.meta.take();
        let format = job.format.or(source.format);
        let given_labels = std::mem::take(&mut job.labels);
        *slot = template_job(root, template, path, meta, &labels, named.as_ref(), format);
        // A template given on the command line that captures a label the
        // source does not give would lose it: refused, as --label is.
        if let Ok(adopted) = slot {
            let lost: Vec<String> = given_labels
                .iter()
                .filter(|(k, v)| adopted.labels.get(*k) != Some(*v))
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            if !lost.is_empty() {
                *slot = Err((
                    shown.clone(),
                    Error::usage(format!(
                        "{} is a log of the source `{}` in reckon.toml, which gives its labels; the path given \
                         would label it {} as well, which that source does not: run `reckon ingest` (the \
                         source as configured), or add the capture to that source's path",
                        shown.display(),
                        source.path,
                        lost.join(", ")
                    )),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn labels_never_hide_built_ins_and_a_sweep_label_is_a_date() {
        let req = |labels: &[(&str, &str)]| Request {
            path: "missing.csv".into(),
            labels: labels.iter().map(|(k, v)| (k.to_string(), Value::from_label(v))).collect(),
            ..Default::default()
        };
        for name in ["date", "time", "source"] {
            let jobs = expand(Path::new("/nowhere"), &[req(&[(name, "x")])]);
            let Err((_, e)) = &jobs[0] else { panic!("the label `{name}` is accepted") };
            assert!(e.to_string().contains(&format!("would hide reckon's built-in `{name}`")), "{e}");
        }
        let jobs = expand(Path::new("/nowhere"), &[req(&[("sweep", "baseline")])]);
        let Err((_, e)) = &jobs[0] else { panic!("a sweep named `baseline` is accepted") };
        assert!(e.to_string().contains("`campaign=baseline`"), "{e}");
        let jobs = expand(Path::new("/nowhere"), &[req(&[("sweep", "20260901"), ("config", "a")])]);
        let Ok(job) = &jobs[0] else { panic!("{:?}", jobs[0]) };
        assert_eq!(job.sweep.as_deref(), Some("2026-09-01"));
        assert!(!job.labels.contains_key("sweep") && job.labels.contains_key("config"));
    }
}
