//! When a file's runs happened, as the same answer on every clone: a
//! `{date}` in the path, a `sweep` label, the file's git commit time or,
//! last, its modification time.

use std::path::Path;
use std::process::Command;

use super::git::GitView;
use crate::store::RunTime;
use crate::{Error, Result};

/// The run time (and, when it is not that time's date, the sweep) that
/// the path's `{date}` or a `sweep` label fixes, whatever git says.
pub(super) fn fixed_time(
    shown: &Path,
    date: Option<&str>,
    sweep: Option<&str>,
) -> Result<Option<(RunTime, Option<String>)>> {
    if let Some(d) = date {
        let time = parse_date(d).ok_or_else(|| Error::UnknownFormat {
            path: shown.to_path_buf(),
            msg: format!(
                "the path gives {{date}} = `{d}`, which is not a date; \
                 use YYYY-MM-DD, YYYYMMDD or YYYY-MM in the folder or file name"
            ),
        })?;
        let month = parse_sweep(d).filter(|s| s.len() == 7);
        return Ok(Some((RunTime { time, origin: "path" }, month)));
    }
    Ok(sweep.and_then(parse_date).map(|time| (RunTime { time, origin: "label" }, None)))
}

/// The time every run of the file gets unless the log has its own: the
/// `{date}` from the path, else the start of the sweep a `sweep` label
/// names (both in `fixed`), else the git commit time of the file when its
/// content is the committed one, else its modification time. With it, the
/// sweep of those runs when it is not the time's date (a `{date}` of year
/// and month names the month).
pub(super) fn run_time(
    path: &Path,
    rel: &str,
    fixed: Option<(RunTime, Option<String>)>,
    meta: &std::fs::Metadata,
    git: &GitView,
) -> Result<(RunTime, Option<String>)> {
    let (when, sweep) = later_run_time(path, rel, fixed, meta, git)?;
    Ok((when.resolve(git)?, sweep))
}

/// [`run_time`], except that a time from git's history is not waited for:
/// the history walk is started in the background (files are read and
/// parsed meanwhile) and the time is decided when it is needed.
pub(super) fn later_run_time(
    path: &Path,
    rel: &str,
    fixed: Option<(RunTime, Option<String>)>,
    meta: &std::fs::Metadata,
    git: &GitView,
) -> Result<(When, Option<String>)> {
    if let Some((time, sweep)) = fixed {
        return Ok((When::Known(time), sweep));
    }
    if Path::new(rel).is_absolute() {
        // Outside the project: asked about on its own (rare).
        if let Some(time) = git_commit_time(path) {
            return Ok((When::Known(RunTime { time, origin: "git" }), None));
        }
    } else if git.head().is_some() && !git.differs_from_head(rel) {
        git.start_walk();
        return Ok((When::Committed { rel: rel.to_string(), modified: meta.modified().ok() }, None));
    }
    let mtime = meta.modified().map_err(|e| Error::io(rel, e))?;
    Ok((When::Known(modified_time(mtime)), None))
}

/// A run time, or the file's last commit time once git's history walk has
/// given it (else its modification time).
#[derive(Debug)]
pub(super) enum When {
    Known(RunTime),
    Committed { rel: String, modified: Option<std::time::SystemTime> },
}

impl When {
    /// The run time, waiting for git's history walk if it still runs.
    pub(super) fn resolve(&self, git: &GitView) -> Result<RunTime> {
        match self {
            When::Known(time) => Ok(time.clone()),
            When::Committed { rel, modified } => {
                let committed = git
                    .commit_time(rel)
                    .and_then(|secs| chrono::DateTime::from_timestamp(secs, 0))
                    .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string());
                if let Some(time) = committed {
                    return Ok(RunTime { time, origin: "git" });
                }
                let mtime = modified.ok_or_else(|| {
                    Error::io(rel, std::io::Error::other("the file system gives no modification time"))
                })?;
                Ok(modified_time(mtime))
            }
        }
    }
}

fn modified_time(mtime: std::time::SystemTime) -> RunTime {
    let time: chrono::DateTime<chrono::Utc> = mtime.into();
    RunTime { time: time.format("%Y-%m-%dT%H:%M:%SZ").to_string(), origin: "mtime" }
}

/// Reads a date or date-time written in a path, as RFC 3339 UTC. A year and
/// month (`2026-09`) is the first instant of the month.
pub fn parse_date(text: &str) -> Option<String> {
    use chrono::{NaiveDate, NaiveDateTime};
    // The usual folder name, `2026-09-01`, read without trying every form
    // (every file of a `{date}` template asks, on every check).
    if plain_date(text).is_some() {
        return Some(format!("{text}T00:00:00Z"));
    }
    for f in ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%d_%H-%M-%S", "%Y%m%d-%H%M%S", "%Y-%m-%dT%H%M%S"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(text, f) {
            return Some(t.format("%Y-%m-%dT%H:%M:%SZ").to_string());
        }
    }
    for f in ["%Y-%m-%d", "%Y%m%d", "%Y_%m_%d"] {
        if let Ok(d) = NaiveDate::parse_from_str(text, f) {
            return Some(format!("{}T00:00:00Z", d.format("%Y-%m-%d")));
        }
    }
    year_month(text).map(|m| format!("{m}-01T00:00:00Z"))
}

/// A date written `YYYY-MM-DD`, when it is a real day.
fn plain_date(text: &str) -> Option<chrono::NaiveDate> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let number = |r: std::ops::Range<usize>| -> Option<u32> {
        b[r.clone()].iter().all(u8::is_ascii_digit).then(|| text[r].parse().ok())?
    };
    chrono::NaiveDate::from_ymd_opt(i32::try_from(number(0..4)?).ok()?, number(5..7)?, number(8..10)?)
}

/// A year and month, `2026-09` or `2026_09`, as `2026-09`.
fn year_month(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let shaped = b.len() == 7
        && b[..4].iter().all(u8::is_ascii_digit)
        && (b[4] == b'-' || b[4] == b'_')
        && b[5..].iter().all(u8::is_ascii_digit);
    if !shaped {
        return None;
    }
    let month = format!("{}-{}", &text[..4], &text[5..]);
    chrono::NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d").ok().map(|_| month)
}

/// Reads a sweep name: a date (any form [`parse_date`] reads) as
/// `YYYY-MM-DD`, or a year and month as `YYYY-MM`. Sweeps order as text,
/// which is chronological, a month before the days within it.
pub fn parse_sweep(text: &str) -> Option<String> {
    let text = text.trim();
    year_month(text).or_else(|| parse_date(text).map(|t| t[..10].to_string()))
}

/// The commit time of the last commit that touched a file outside the
/// project, when it is tracked by git and its content is the committed one.
fn git_commit_time(path: &Path) -> Option<String> {
    let dir = path.parent()?;
    let name = path.file_name()?;
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let differs =
        Command::new("git").arg("-C").arg(dir).args(["diff", "--quiet", "HEAD", "--"]).arg(name).status().ok()?;
    if !differs.success() {
        return None;
    }
    let out =
        Command::new("git").arg("-C").arg(dir).args(["log", "-1", "--format=%ct", "--"]).arg(name).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let secs: i64 = String::from_utf8_lossy(&out.stdout).trim().parse().ok()?;
    let t = chrono::DateTime::from_timestamp(secs, 0)?;
    Some(t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_names() {
        assert_eq!(parse_sweep("2026-09").unwrap(), "2026-09");
        assert_eq!(parse_sweep("2026_09").unwrap(), "2026-09");
        assert_eq!(parse_sweep("20260915").unwrap(), "2026-09-15");
        assert_eq!(parse_sweep("2026-09-15T10:00:00").unwrap(), "2026-09-15");
        assert!(parse_sweep("2026-13").is_none());
        assert!(parse_sweep("v2").is_none());
        assert_eq!(parse_date("2026-09").unwrap(), "2026-09-01T00:00:00Z");
    }

    #[test]
    fn dates_in_paths() {
        assert_eq!(parse_date("2026-11-29").unwrap(), "2026-11-29T00:00:00Z");
        assert_eq!(parse_date("20261129").unwrap(), "2026-11-29T00:00:00Z");
        assert_eq!(parse_date("20250630-123456").unwrap(), "2025-06-30T12:34:56Z");
        assert!(parse_date("baseline").is_none());
        assert!(parse_date("2026-13-01").is_none());
    }
}
