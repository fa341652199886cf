//! What `check` found, in the forms CI reads: GitHub workflow annotations
//! (`annotations`), the job summary a GitHub step appends to
//! `$GITHUB_STEP_SUMMARY` (`summary`), and SARIF 2.1.0 for code scanning
//! (`sarif`). Every path is named as the repository names it (relative to
//! its root, `/`-separated), whatever folder the command ran in; everything
//! is ordered most serious first, as [`crate::review::check::by_severity`]
//! sorts problems, with the bad input (exit 2) before any problem.

mod sarif;
mod summary;

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

pub(crate) use sarif::{sarif, Sarif};
pub(crate) use summary::summary;

use crate::escape::{github_message, github_property};
use crate::review::check::Problem;
use crate::review::document::DocReview;
use crate::Error;

/// What one `check` found.
pub(crate) struct Findings<'a> {
    pub(crate) reviews: &'a [DocReview],
    /// Most serious first ([`crate::review::check::by_severity`]).
    pub(crate) problems: &'a [Problem],
    /// The bad input met (a log that could not be ingested, a document or
    /// a reckon.toml that does not read): each makes the check exit 2.
    pub(crate) errors: &'a [Error],
    pub(crate) paths: &'a RepoPaths,
}

impl Findings<'_> {
    /// Each single error (an [`Error::Several`] as its parts).
    fn each_error(&self) -> impl Iterator<Item = &Error> {
        self.errors.iter().flat_map(Error::each)
    }
}

/// How paths are named for CI: relative to the repository's root (the
/// folder holding `.git`), which is what GitHub places annotations and
/// code-scanning results by.
#[derive(Debug, Clone)]
pub(crate) struct RepoPaths {
    /// The repository's root (or the project's, outside a repository).
    root: PathBuf,
    /// The folder relative paths are relative to (where the command ran).
    base: PathBuf,
}

impl RepoPaths {
    /// Paths given relative to `base`, named relative to the git work tree
    /// `base` lies in, else to `project` (the folder of reckon.toml).
    pub(crate) fn find(base: &Path, project: &Path) -> RepoPaths {
        let base = lexical(base);
        let root =
            base.ancestors().find(|dir| dir.join(".git").exists()).map_or_else(|| lexical(project), Path::to_path_buf);
        RepoPaths { root, base }
    }

    /// `path` (absolute, or relative to the base) as the repository names
    /// it; a path outside the repository stays as it is.
    pub(crate) fn of(&self, path: &Path) -> String {
        let full = lexical(&self.base.join(path));
        match full.strip_prefix(&self.root) {
            Ok(rel) => rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"),
            Err(_) => path.display().to_string(),
        }
    }
}

/// `a/./b/../c` as `a/c`, without asking the file system (a path may name
/// a file that is gone).
fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// One workflow command per finding, the bad input first, then the
/// problems most serious first (GitHub shows only the first ten errors and
/// ten warnings of a step).
pub(crate) fn annotations(found: &Findings) -> String {
    let mut out = String::new();
    for e in found.each_error() {
        let place = e.place();
        let file = place.as_ref().map(|p| found.paths.of(&p.path));
        let (line, col) = place.map_or((None, None), |p| (p.line, p.col));
        annotate(&mut out, "error", file.as_deref(), line, col, &e.message());
    }
    for p in found.problems {
        let file = found.paths.of(Path::new(&p.path));
        annotate(&mut out, p.level.as_str(), Some(&file), u64::try_from(p.line).ok(), None, &p.msg);
    }
    out
}

/// Writes one workflow command (`::error file=…,line=…,title=reckon::…`),
/// its parts escaped so that it stays one command.
pub(crate) fn annotate(
    out: &mut String,
    level: &str,
    file: Option<&str>,
    line: Option<u64>,
    col: Option<usize>,
    msg: &str,
) {
    let _ = write!(out, "::{level} ");
    if let Some(file) = file {
        let _ = write!(out, "file={},", github_property(file));
        if let Some(line) = line {
            let _ = write!(out, "line={line},");
        }
        if let Some(col) = col {
            let _ = write!(out, "col={col},");
        }
    }
    let _ = writeln!(out, "title=reckon::{}", github_message(msg));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_named_from_the_repository_root_whatever_the_folder() {
        let repo = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(repo.path().join(".git")).unwrap();
        std::fs::create_dir_all(repo.path().join("bench/notebooks")).unwrap();
        let sub = repo.path().join("bench/notebooks");
        let paths = RepoPaths::find(&sub, &repo.path().join("bench"));
        assert_eq!(paths.of(Path::new("plan.md")), "bench/notebooks/plan.md");
        assert_eq!(paths.of(Path::new("../logs/a.jsonl")), "bench/logs/a.jsonl");
        assert_eq!(paths.of(&repo.path().join("bench/reckon.toml")), "bench/reckon.toml");
        assert_eq!(paths.of(Path::new("/elsewhere/x.md")), "/elsewhere/x.md");
        // Outside a repository: from the project's folder.
        let plain = tempfile::tempdir().unwrap();
        let paths = RepoPaths::find(&plain.path().join("notebooks"), plain.path());
        assert_eq!(paths.of(Path::new("plan.md")), "notebooks/plan.md");
    }

    #[test]
    fn an_annotation_names_what_it_knows_of_its_place() {
        let mut out = String::new();
        annotate(&mut out, "error", Some("docs/a,b:c.md"), Some(7), Some(3), "50% faster\r\nthen");
        annotate(&mut out, "error", Some("reckon.toml"), None, None, "bad");
        annotate(&mut out, "error", None, None, None, "no place");
        assert_eq!(
            out,
            "::error file=docs/a%2Cb%3Ac.md,line=7,col=3,title=reckon::50%25 faster%0D%0Athen\n\
             ::error file=reckon.toml,title=reckon::bad\n\
             ::error title=reckon::no place\n"
        );
    }
}
