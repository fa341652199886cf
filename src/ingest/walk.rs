//! The files a template's glob finds, folder by folder: each segment of the
//! glob read against the names of one folder, symlinks followed only when
//! they stay inside the project (`fsguard::Link`), and every folder a `**`
//! reaches walked once, so that links to `..` cannot make it walk the same
//! folders again and again.

use std::collections::{HashSet, VecDeque};
use std::fs::Metadata;
use std::path::{Path, PathBuf};

use crate::fsguard::Link;
use crate::{Error, Result};

/// One `/`-separated piece of a glob.
#[derive(Debug, Clone)]
pub(crate) enum Segment {
    /// A name without wildcards: looked up, not listed.
    Name(String),
    /// A name with wildcards, matched against a folder's entries.
    Pattern(NamePattern),
    /// `**`: this folder and every folder below it.
    Any,
}

impl Segment {
    /// The segments of `glob`; an error names the piece glob refuses.
    pub(crate) fn parse(glob: &str) -> std::result::Result<Vec<Segment>, String> {
        glob.split('/')
            .filter(|s| !s.is_empty())
            .map(|s| {
                if s == "**" {
                    Ok(Segment::Any)
                } else if s.contains(['*', '?', '[']) {
                    NamePattern::new(s).map(Segment::Pattern).map_err(|e| e.msg.to_string())
                } else {
                    Ok(Segment::Name(s.to_string()))
                }
            })
            .collect()
    }

    fn is_name(&self) -> bool {
        matches!(self, Segment::Name(_))
    }
}

/// A segment with wildcards, and how a name is matched against it: a
/// segment that is a `*` before or after plain text (what a `{name}` of a
/// template becomes, `*` or `*.jsonl`) by comparing the text, as `glob`
/// matches it (case-sensitively, a leading `.` matched by `*`); any other
/// by `glob`.
#[derive(Debug, Clone)]
pub(crate) struct NamePattern {
    glob: glob::Pattern,
    fast: Fast,
}

#[derive(Debug, Clone)]
enum Fast {
    Any,
    Suffix(String),
    Prefix(String),
    Glob,
}

impl NamePattern {
    fn new(segment: &str) -> std::result::Result<NamePattern, glob::PatternError> {
        let glob = glob::Pattern::new(segment)?;
        let plain = |t: &str| !t.contains(['*', '?', '[', ']']);
        let fast = if segment == "*" {
            Fast::Any
        } else if let Some(t) = segment.strip_prefix('*').filter(|t| plain(t)) {
            Fast::Suffix(t.to_string())
        } else if let Some(t) = segment.strip_suffix('*').filter(|t| plain(t)) {
            Fast::Prefix(t.to_string())
        } else {
            Fast::Glob
        };
        Ok(NamePattern { glob, fast })
    }

    /// Whether the folder entry `name` matches (a name that is not UTF-8
    /// never does).
    fn matches(&self, name: &std::ffi::OsStr) -> bool {
        let Some(name) = name.to_str() else { return false };
        match &self.fast {
            Fast::Any => true,
            Fast::Suffix(t) => name.ends_with(t.as_str()),
            Fast::Prefix(t) => name.starts_with(t.as_str()),
            Fast::Glob => self.glob.matches_with(name, glob::MatchOptions::new()),
        }
    }
}

/// What a walk found: files with the metadata that told them from folders
/// (symlinks followed), and the paths it refused to follow.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub(crate) files: Vec<(PathBuf, Metadata)>,
    pub(crate) refused: Vec<(PathBuf, Error)>,
}

/// A folder the walk is in: the path it is shown by (through any symlink)
/// and its real path.
#[derive(Clone)]
struct Folder {
    path: PathBuf,
    real: PathBuf,
}

/// Walks `segments` from `start` (absolute: `/` for an absolute glob, the
/// project root for a relative one). Symlinks may not leave `root` (the
/// project) when the glob starts inside it, or the glob's first folder
/// with a wildcard when it starts outside (named so on the command line).
pub(crate) fn walk(root: &Path, start: &Path, segments: &[Segment]) -> Result<Found> {
    let fixed = segments.iter().take_while(|s| s.is_name()).count();
    let mut base = start.to_path_buf();
    for s in &segments[..fixed] {
        if let Segment::Name(n) = s {
            base.push(n);
        }
    }
    let mut found = Found::default();
    let rest = &segments[fixed..];
    if rest.is_empty() {
        return Ok(found);
    }
    let Ok(real) = std::fs::canonicalize(&base) else { return Ok(found) };
    let inside = crate::fsguard::lexically_inside(root, &base);
    let boundary = if inside { std::fs::canonicalize(root).map_err(|e| Error::io(root, e))? } else { real.clone() };
    if !real.starts_with(&boundary) {
        found.refused.push((base.clone(), Link::refusal(&base, &real, root)));
        return Ok(found);
    }
    let start = Folder { path: base, real };
    let mut found = if rest.iter().any(|s| matches!(s, Segment::Any)) {
        let mut walker = Walker::new(boundary, rest, found);
        walker.walk_from(vec![(start, 0)]);
        walker.found
    } else {
        walk_levels(&boundary, rest, found, start)
    };
    // Each folder's entries are listed in name order, so a glob without
    // `**` finds its files in path order already (folders are walked level
    // by level): only a `**` or a link makes the sort move anything.
    if !found.files.is_sorted_by(|a, b| a.0 <= b.0) {
        found.files.sort_by(|a, b| a.0.cmp(&b.0));
    }
    found.files.dedup_by(|a, b| a.0 == b.0);
    found.refused.sort_by(|a, b| a.0.cmp(&b.0));
    found.refused.dedup_by(|a, b| a.0 == b.0);
    Ok(found)
}

/// The folders a glob without `**` reaches, a segment at a time; once one
/// segment reaches [`SPLIT`] folders or more, the rest of the walk is shared
/// by two threads, each taking one half of those folders (in path order,
/// so the files come out in the order one thread would find them). The
/// cost of a walk is mostly the kernel's, a `stat` per file: two cores pay
/// it in about half the time.
fn walk_levels(boundary: &Path, rest: &[Segment], found: Found, start: Folder) -> Found {
    let mut walker = Walker::new(boundary.to_path_buf(), rest, found);
    let mut level = vec![start];
    for i in 0..rest.len() {
        if level.len() >= SPLIT {
            let second = level.split_off(level.len() / 2);
            let other = std::thread::scope(|scope| {
                let half = scope.spawn(|| {
                    let mut w = Walker::new(boundary.to_path_buf(), rest, Found::default());
                    w.walk_from(second.into_iter().map(|f| (f, i)).collect());
                    w.found
                });
                walker.walk_from(level.into_iter().map(|f| (f, i)).collect());
                half.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            walker.found.files.extend(other.files);
            walker.found.refused.extend(other.refused);
            return walker.found;
        }
        let mut queue = VecDeque::new();
        for folder in &level {
            walker.visit(folder, i, &mut queue);
        }
        level = queue.into_iter().map(|(f, _)| f).collect();
    }
    walker.found
}

/// How many folders of one segment make a walk worth two threads.
const SPLIT: usize = 16;

struct Walker<'a> {
    boundary: PathBuf,
    rest: &'a [Segment],
    /// (real folder, segment) pairs a `**` has walked.
    seen: HashSet<(PathBuf, usize)>,
    found: Found,
    /// Symlinked folders under a `**`, walked after every real one.
    later: Vec<(Folder, usize)>,
}

/// What an entry of a folder is, symlinks followed.
enum Kind {
    File(Metadata),
    Folder(PathBuf),
    Other,
}

impl<'a> Walker<'a> {
    fn new(boundary: PathBuf, rest: &'a [Segment], found: Found) -> Walker<'a> {
        Walker { boundary, rest, seen: HashSet::new(), found, later: Vec::new() }
    }

    /// Walks the rest of the glob from each folder at its segment.
    fn walk_from(&mut self, start: Vec<(Folder, usize)>) {
        let mut queue = VecDeque::from(start);
        // Real folders first, then the folders symlinks under a `**` lead
        // to that the walk has not reached by their own path.
        loop {
            while let Some((folder, i)) = queue.pop_front() {
                self.visit(&folder, i, &mut queue);
            }
            if self.later.is_empty() {
                break;
            }
            queue.extend(self.later.drain(..));
        }
    }

    /// Matches segment `i` (and what follows) in `folder`.
    fn visit(&mut self, folder: &Folder, i: usize, queue: &mut VecDeque<(Folder, usize)>) {
        let last = i + 1 == self.rest.len();
        match &self.rest[i] {
            Segment::Any => {
                if !self.seen.insert((folder.real.clone(), i)) {
                    return;
                }
                if !last {
                    // `**` as no folder at all.
                    queue.push_back((folder.clone(), i + 1));
                }
                for (name, kind, linked) in self.entries(folder, last, |_| true) {
                    match kind {
                        Kind::File(meta) if last => self.found.files.push((folder.path.join(name), meta)),
                        Kind::Folder(real) => {
                            let next = (Folder { path: folder.path.join(name), real }, i);
                            if linked {
                                self.later.push(next);
                            } else {
                                queue.push_back(next);
                            }
                        }
                        _ => {}
                    }
                }
            }
            Segment::Name(n) => {
                let path = folder.path.join(n);
                let Ok(meta) = std::fs::symlink_metadata(&path) else { return };
                let name = std::ffi::OsString::from(n);
                let kind = self.kind(folder, &name, meta.file_type(), last, || Ok(meta.clone()));
                self.take(folder, name, kind, i, last, queue);
            }
            Segment::Pattern(p) => {
                let entries = self.entries(folder, last, |n| p.matches(n));
                for (name, kind, _) in entries {
                    self.take(folder, name, kind, i, last, queue);
                }
            }
        }
    }

    /// An entry that matched segment `i`: a file when it is the last one,
    /// a folder to walk with the next one otherwise.
    fn take(
        &mut self,
        folder: &Folder,
        name: std::ffi::OsString,
        kind: Kind,
        i: usize,
        last: bool,
        queue: &mut VecDeque<(Folder, usize)>,
    ) {
        match kind {
            Kind::File(meta) if last => self.found.files.push((folder.path.join(name), meta)),
            Kind::Folder(real) if !last => queue.push_back((Folder { path: folder.path.join(name), real }, i + 1)),
            _ => {}
        }
    }

    /// The entries of `folder` whose names pass `keep`, in name order, each
    /// with what it is and whether a symlink led to it. A folder that cannot
    /// be listed is refused, never skipped in silence.
    fn entries(
        &mut self,
        folder: &Folder,
        files_wanted: bool,
        keep: impl Fn(&std::ffi::OsStr) -> bool,
    ) -> Vec<(std::ffi::OsString, Kind, bool)> {
        let list = match std::fs::read_dir(&folder.path) {
            Ok(list) => list,
            Err(e) => {
                self.found.refused.push((folder.path.clone(), Error::io(&folder.path, e)));
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for entry in list.flatten() {
            let name = entry.file_name();
            if !keep(&name) {
                continue;
            }
            let Ok(t) = entry.file_type() else { continue };
            let kind = self.kind(folder, &name, t, files_wanted, || entry.metadata());
            out.push((name, kind, t.is_symlink()));
        }
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// What the entry `name` of `folder` is. A file's metadata is read
    /// only when files are wanted (`meta`: one `stat`); a symlink is
    /// resolved, and refused when it leaves the project for a file or a
    /// folder the walk would take.
    fn kind(
        &mut self,
        folder: &Folder,
        name: &std::ffi::OsStr,
        t: std::fs::FileType,
        files_wanted: bool,
        meta: impl FnOnce() -> std::io::Result<Metadata>,
    ) -> Kind {
        if t.is_dir() {
            return Kind::Folder(folder.real.join(name));
        }
        if t.is_file() {
            return match files_wanted.then(meta) {
                Some(Ok(m)) => Kind::File(m),
                _ => Kind::Other,
            };
        }
        if !t.is_symlink() {
            return Kind::Other;
        }
        let path = folder.path.join(name);
        match Link::follow(&self.boundary, &path) {
            Link::Inside { real, meta } if meta.is_dir() => Kind::Folder(real),
            Link::Inside { meta, .. } if meta.is_file() => Kind::File(meta),
            Link::Outside { real } => {
                let taken = std::fs::metadata(&real).is_ok_and(|m| m.is_dir() || files_wanted && m.is_file());
                if taken {
                    let e = Link::refusal(&path, &real, &self.boundary);
                    self.found.refused.push((path, e));
                }
                Kind::Other
            }
            _ => Kind::Other,
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_segment_matches_names_as_glob_does() {
        let names = ["", "a", ".a", "a.jsonl", ".jsonl", "x.jsonl.bak", "run-1", "run-", "RUN-1", "ré.jsonl", "[a]"];
        for seg in ["*", "*.jsonl", "run-*", "*-1", "r*1", "*.json*", "[ab]*", "?*", "*]"] {
            let p = NamePattern::new(seg).unwrap();
            for n in names {
                let expected = glob::Pattern::new(seg).unwrap().matches_with(n, glob::MatchOptions::new());
                assert_eq!(p.matches(std::ffi::OsStr::new(n)), expected, "{seg} against {n:?}");
            }
        }
    }

    fn names(found: &Found, root: &Path) -> Vec<String> {
        found.files.iter().map(|(p, _)| p.strip_prefix(root).unwrap().to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn a_loop_under_double_star_is_walked_once_and_real_paths_win() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("logs/a")).unwrap();
        std::fs::create_dir_all(root.join("archive")).unwrap();
        std::fs::write(root.join("logs/a/x.jsonl"), "x").unwrap();
        std::fs::write(root.join("archive/old.jsonl"), "x").unwrap();
        for l in ["l1", "l2"] {
            std::os::unix::fs::symlink("..", root.join("logs/a").join(l)).unwrap();
        }
        // Sorted before `a`, to a folder the walk reaches by its own path.
        std::os::unix::fs::symlink("a", root.join("logs/0-latest")).unwrap();
        std::os::unix::fs::symlink("../archive", root.join("logs/archive")).unwrap();
        let segments = Segment::parse("logs/**/*.jsonl").unwrap();
        let found = walk(root, root, &segments).unwrap();
        assert_eq!(names(&found, root), ["logs/a/x.jsonl", "logs/archive/old.jsonl"]);
        assert!(found.refused.is_empty());
    }

    #[test]
    fn a_symlink_out_of_the_project_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("proj");
        std::fs::create_dir_all(root.join("logs")).unwrap();
        std::fs::create_dir_all(dir.path().join("outside")).unwrap();
        std::fs::write(dir.path().join("outside/config.json"), "{}").unwrap();
        std::fs::write(root.join("logs/a.jsonl"), "x").unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside/config.json"), root.join("logs/bench.jsonl")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside"), root.join("logs/ext")).unwrap();
        let found = walk(&root, &root, &Segment::parse("logs/*.jsonl").unwrap()).unwrap();
        assert_eq!(names(&found, &root), ["logs/a.jsonl"]);
        let refused: Vec<String> = found.refused.iter().map(|(_, e)| e.to_string()).collect();
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert!(refused[0].contains("bench.jsonl: is a symlink to") && refused[0].contains("outside/config.json"));
        // Under `**` the folder link is refused too; a link to a file the
        // glob would not take (at a folder's place) is no one's business.
        let found = walk(&root, &root, &Segment::parse("logs/**/*.json").unwrap()).unwrap();
        assert!(found.files.is_empty());
        assert_eq!(found.refused.len(), 1, "{:?}", found.refused);
        assert!(found.refused[0].1.to_string().contains("logs/ext: is a symlink to"));
    }
}
