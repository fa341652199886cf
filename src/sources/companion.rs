//! Two logs of one test. loadgen writes `mlperf_log_summary.txt` and
//! `mlperf_log_detail.txt` side by side for every test, each holding its
//! results: read both and the test is two runs (false repeats, a tighter
//! interval than the data allow). The summary is the test's run; a detail
//! log whose summary this command reads, or the store holds, is refused,
//! saying to ingest one of them, and loses the runs an earlier ingest gave
//! it (a fresh database would not hold them).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::examine::Stored;
use super::{display_path, Expanded, FileOutcome, FileReport, Planned};
use crate::ingest::mlperf::{summary_beside, DETAIL_FILE, SUMMARY_FILE};
use crate::ingest::Format;
use crate::store::Store;
use crate::Error;

/// The detail logs a command refuses: by job index, the path shown and
/// the refusal, and whether the store holds runs of it.
pub(super) struct Refused(HashMap<usize, (PathBuf, Error, bool)>);

impl Refused {
    /// The detail logs among `jobs` whose test's summary this command reads
    /// or the store holds (`gone`: stored paths about to lose their runs, a
    /// summary among them no longer counts).
    pub(super) fn find(root: &Path, jobs: &[Expanded], stored: &Stored, gone: &[String]) -> Refused {
        let mut refused = HashMap::new();
        let ok = || jobs.iter().filter_map(|j| j.as_ref().ok());
        if !ok().any(|j| j.path.file_name().is_some_and(|n| n == DETAIL_FILE)) {
            return Refused(refused);
        }
        let read: HashSet<&Path> = ok().map(|j| j.path.as_path()).collect();
        for (i, job) in jobs.iter().enumerate() {
            let Ok(job) = job else { continue };
            if job.format.is_some_and(|f| f != Format::MlperfDetail) {
                continue;
            }
            let Some(summary) = summary_beside(&job.path) else { continue };
            let summary_shown = display_path(root, &summary).to_string_lossy().into_owned();
            let reads = read.contains(summary.as_path());
            if !reads && (!stored.contains(&summary_shown) || gone.contains(&summary_shown)) {
                continue;
            }
            let shown = display_path(root, &job.path);
            let had_runs = stored.contains(shown.to_string_lossy().as_ref());
            let msg = format!(
                "`{}` is the same loadgen test as `{summary_shown}` beside it, which {}: both hold the test's \
                 results, so reading both would make one test two runs. Ingest one of them, the summary \
                 ({SUMMARY_FILE}) or the detail log ({DETAIL_FILE}, which also holds the test's time): narrow \
                 the [[source]] path (e.g. `…/{SUMMARY_FILE}`, not `…/*.txt`){}",
                shown.display(),
                if reads { "this ingest reads" } else { "is ingested" },
                if had_runs { "; the runs an earlier ingest took from it are removed" } else { "" },
            );
            let e = Error::malformed(shown.clone(), 1, msg);
            refused.insert(i, (shown, e, had_runs));
        }
        Refused(refused)
    }

    /// Each refused file's slot (the `i`-th job is at `i + gone`) fails
    /// with its refusal, and the runs the store holds of it are removed.
    pub(super) fn apply(self, store: &mut Store, planned: Vec<(Planned, usize)>, gone: usize) -> Vec<(Planned, usize)> {
        let mut refused = self.0;
        if refused.is_empty() {
            return planned;
        }
        let mut out = Vec::with_capacity(planned.len());
        for (slot, at) in planned {
            let Some((path, e, had_runs)) = refused.remove(&(at - gone)) else {
                out.push((slot, at));
                continue;
            };
            let removed = if had_runs { store.remove_paths(&[path.to_string_lossy().into_owned()]) } else { Ok(0) };
            let outcome = FileOutcome::Failed(removed.err().unwrap_or(e));
            out.push((Planned::Done(Box::new(FileReport { path, outcome })), at));
        }
        out
    }
}
