//! Where a page was built and where its logs are: the commit (its SHA,
//! and whether the work tree differed from it), and for each log a link to
//! its file beside the page and, when the repository has a GitHub or
//! GitLab remote, to the log at that commit on the forge.
//!
//! A forge URL is built only from checked parts — a host of letters,
//! digits, `.` and `-`; owner and repository segments of letters, digits
//! and `._-`, never `.` or `..`; a hexadecimal SHA; each path segment
//! percent-encoded — and only as `https://` (`http://` for an http
//! remote): a remote's user name or token is never part of it.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use crate::escape::html as esc;

/// A forge's kind: how its blob and commit URLs are spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ForgeKind {
    GitHub,
    GitLab,
}

/// A repository on a forge: `https://github.com/owner/name`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Forge {
    pub(crate) kind: ForgeKind,
    /// The repository's web address, without a trailing `/`.
    pub(crate) base: String,
}

impl Forge {
    /// The forge a remote URL names, in its https (`https://host/o/r.git`),
    /// ssh (`ssh://git@host[:port]/o/r.git`) or scp-like
    /// (`git@host:o/r.git`) form; `None` for any other host or shape.
    pub(crate) fn from_remote(url: &str) -> Option<Forge> {
        let url = url.trim();
        let (scheme, rest) = match url.split_once("://") {
            Some((s, rest)) => (s.to_ascii_lowercase(), rest),
            None => ("scp".to_string(), url),
        };
        let (authority, path) = match scheme.as_str() {
            "https" | "http" | "ssh" | "git" | "git+ssh" | "ssh+git" => rest.split_once('/')?,
            "scp" => {
                let (authority, path) = rest.split_once(':')?;
                if authority.contains('/') {
                    return None;
                }
                (authority, path)
            }
            _ => return None,
        };
        let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let host = if scheme == "scp" { host } else { host.split_once(':').map_or(host, |(h, _)| h) };
        let host = host.to_ascii_lowercase();
        if host.is_empty() || !host.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-') {
            return None;
        }
        let kind = if host.contains("github") {
            ForgeKind::GitHub
        } else if host.contains("gitlab") {
            ForgeKind::GitLab
        } else {
            return None;
        };
        let path = path.trim_end_matches('/');
        let path = path.strip_suffix(".git").unwrap_or(path);
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let fits = match kind {
            ForgeKind::GitHub => segments.len() == 2,
            ForgeKind::GitLab => segments.len() >= 2,
        };
        let plain =
            |s: &&str| !matches!(*s, "." | "..") && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
        if !fits || !segments.iter().all(plain) {
            return None;
        }
        let web = if scheme == "http" { "http" } else { "https" };
        Some(Forge { kind, base: format!("{web}://{host}/{}", segments.join("/")) })
    }

    /// The file `path` (repository-relative, `/`-separated) at commit
    /// `sha`, at its lines; `None` for a path with an empty, `.` or `..`
    /// segment.
    pub(crate) fn blob(&self, sha: &str, path: &str, lines: &[u64]) -> Option<String> {
        let segments: Vec<&str> = path.split('/').collect();
        if segments.iter().any(|s| matches!(*s, "" | "." | "..")) {
            return None;
        }
        let encoded: Vec<String> = segments.iter().map(|s| crate::escape::uri_path(s)).collect();
        let (first, last) = (lines.first(), lines.last());
        let contiguous = lines.windows(2).all(|w| w[1] == w[0] + 1);
        let anchor = match (first, last, self.kind) {
            (Some(a), Some(b), ForgeKind::GitHub) if contiguous && a != b => format!("#L{a}-L{b}"),
            (Some(a), Some(b), ForgeKind::GitLab) if contiguous && a != b => format!("#L{a}-{b}"),
            (Some(a), ..) => format!("#L{a}"),
            _ => String::new(),
        };
        let blob = if self.kind == ForgeKind::GitLab { "-/blob" } else { "blob" };
        Some(format!("{}/{blob}/{sha}/{}{anchor}", self.base, encoded.join("/")))
    }

    /// The commit's page.
    pub(crate) fn commit(&self, sha: &str) -> String {
        let commit = if self.kind == ForgeKind::GitLab { "-/commit" } else { "commit" };
        format!("{}/{commit}/{sha}", self.base)
    }
}

/// The commit a page was built from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Commit {
    /// HEAD's full SHA (hexadecimal).
    pub(crate) sha: String,
    /// Whether the work tree differed from it (changed or untracked files).
    pub(crate) dirty: bool,
    /// The project's folder relative to the repository's root (`""` or
    /// `bench/`).
    pub(crate) prefix: String,
    /// Files tracked at the commit and unchanged since (repository-relative):
    /// the only logs a forge link may point at.
    pub(crate) clean: HashSet<String>,
    pub(crate) forge: Option<Forge>,
}

impl Commit {
    /// The commit of the repository `root` lies in, as git says: `None`
    /// outside a repository, in one without a commit, or without git.
    pub(crate) fn of(root: &Path) -> Option<Commit> {
        root.ancestors().find(|d| d.join(".git").exists())?;
        let git = |args: &[&str]| -> Option<Vec<u8>> {
            let mut c = Command::new("git");
            c.arg("-C").arg(root).args(args);
            c.env_remove("GIT_DIR").env_remove("GIT_WORK_TREE").env_remove("GIT_INDEX_FILE");
            let out = c.output().ok()?;
            out.status.success().then_some(out.stdout)
        };
        let head = String::from_utf8(git(&["rev-parse", "--show-prefix", "HEAD"])?).ok()?;
        let mut lines = head.lines();
        let (prefix, sha) = (lines.next()?.to_string(), lines.next()?.trim().to_string());
        if !matches!(sha.len(), 40 | 64) || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let status = git(&["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"])?;
        let changed: HashSet<String> =
            split_z(&status).filter_map(|entry| entry.get(3..)).map(str::to_string).collect();
        let tracked = git(&["ls-files", "-z", "--full-name"])?;
        let clean = split_z(&tracked).filter(|p| !changed.contains(*p)).map(str::to_string).collect();
        let remotes = git(&["config", "--get-regexp", r"^remote\..*\.url$"]).unwrap_or_default();
        let remotes = String::from_utf8_lossy(&remotes);
        let urls: Vec<(&str, &str)> = remotes.lines().filter_map(|l| l.split_once(' ')).collect();
        let url = urls.iter().find(|(k, _)| *k == "remote.origin.url").or(urls.first()).map(|(_, u)| *u);
        Some(Commit { sha, dirty: !changed.is_empty(), prefix, clean, forge: url.and_then(Forge::from_remote) })
    }
}

fn split_z(bytes: &[u8]) -> impl Iterator<Item = &str> {
    bytes.split(|b| *b == 0).filter(|s| !s.is_empty()).filter_map(|s| std::str::from_utf8(s).ok())
}

/// Where a page is and what it was built from: what its links to logs
/// are made of.
#[derive(Debug, Clone)]
pub(crate) struct Site {
    /// The project's folder (logs' paths are relative to it).
    pub(crate) root: PathBuf,
    /// The folder the page is written into.
    pub(crate) page_dir: PathBuf,
    pub(crate) commit: Option<Commit>,
}

impl Site {
    /// A log's path, linked to the file (relative to the page) and, when it
    /// is unchanged at the commit on a forge, to it there at its lines.
    pub(crate) fn source_html(&self, source: &str, lines: &[u64]) -> String {
        let file = self.root.join(source);
        let local = relative(&self.page_dir, &file).map(|rel| crate::escape::uri_path(&rel));
        let name = format!("<code>{}</code>", esc(source));
        let mut html = match local {
            Some(href) => format!("<a href=\"{}\">{name}</a>", esc(&href)),
            None => name,
        };
        html.push(' ');
        html.push_str(&esc(&line_ranges(lines)));
        if let Some(c) = &self.commit {
            let in_repo = format!("{}{source}", c.prefix);
            let at_commit = c.clean.contains(&in_repo);
            match c.forge.as_ref().filter(|_| at_commit).and_then(|f| f.blob(&c.sha, &in_repo, lines)) {
                Some(url) => {
                    let _ = write!(html, " · <a href=\"{}\">at {}</a>", esc(&url), esc(&c.sha[..12]));
                }
                None if !at_commit => html.push_str(" · <span class=\"muted\">not as committed</span>"),
                None => {}
            }
        }
        html
    }

    /// The header's line about the commit.
    pub(crate) fn commit_html(&self) -> String {
        let Some(c) = &self.commit else {
            return "<div class=\"commit\">Built outside a git commit</div>".to_string();
        };
        let short = format!("<code title=\"{}\">{}</code>", esc(&c.sha), esc(&c.sha[..12]));
        let sha = match &c.forge {
            Some(f) => format!("<a href=\"{}\">{short}</a>", esc(&f.commit(&c.sha))),
            None => short,
        };
        let state = if c.dirty { ", with uncommitted changes (dirty)" } else { ", clean" };
        format!("<div class=\"commit\">Built from commit {sha}{state}</div>")
    }
}

/// `to` as a `/`-separated path relative to the folder `from` (both
/// absolute, compared without asking the file system).
fn relative(from: &Path, to: &Path) -> Option<String> {
    let norm = |p: &Path| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for c in p.components() {
            match c {
                Component::Normal(s) => out.push(s.to_string_lossy().into_owned()),
                Component::ParentDir => {
                    out.pop();
                }
                _ => {}
            }
        }
        out
    };
    if !from.is_absolute() || !to.is_absolute() {
        return None;
    }
    let (from, to) = (norm(from), norm(to));
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - common];
    parts.extend(to[common..].iter().cloned());
    Some(parts.join("/"))
}

/// "lines 3–5, 9" from sorted line numbers.
pub(super) fn line_ranges(lines: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let start = lines[i];
        let mut end = start;
        while i + 1 < lines.len() && lines[i + 1] == end + 1 {
            i += 1;
            end = lines[i];
        }
        parts.push(if start == end { start.to_string() } else { format!("{start}–{end}") });
        i += 1;
    }
    let word = if lines.len() == 1 { "line" } else { "lines" };
    format!("{word} {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(url: &str) -> Option<String> {
        Forge::from_remote(url).map(|f| f.base)
    }

    #[test]
    fn remotes_in_every_form_name_their_forge() {
        for url in [
            "https://github.com/acme/bench.git",
            "https://github.com/acme/bench",
            "https://user:ghp_secret@github.com/acme/bench.git",
            "git@github.com:acme/bench.git",
            "ssh://git@github.com/acme/bench.git",
            "ssh://git@github.com:22/acme/bench/",
        ] {
            assert_eq!(base(url).as_deref(), Some("https://github.com/acme/bench"), "{url}");
        }
        let lab = Forge::from_remote("git@gitlab.example.org:group/sub/bench.git").unwrap();
        assert_eq!((lab.kind, lab.base.as_str()), (ForgeKind::GitLab, "https://gitlab.example.org/group/sub/bench"));
        assert_eq!(base("http://gitlab.local/g/r").as_deref(), Some("http://gitlab.local/g/r"));
    }

    #[test]
    fn remotes_that_could_inject_give_no_forge() {
        for url in [
            "https://bitbucket.org/acme/bench.git",
            "/srv/git/bench.git",
            "file:///srv/github/acme/bench",
            "javascript://github.com/%0aalert(1)",
            "https://github.com/acme/bench/extra",
            "https://github.com/../bench",
            "https://github.com/acme/be\"nch",
            "https://github.com/acme/<b>",
            "https://github.com\" onclick=\"x/acme/bench",
            "git@github.com:acme/be nch.git",
        ] {
            assert_eq!(base(url), None, "{url}");
        }
    }

    #[test]
    fn blob_urls_encode_each_segment_and_refuse_dot_segments() {
        let sha = "0123456789abcdef0123456789abcdef01234567";
        let gh = Forge::from_remote("git@github.com:acme/bench.git").unwrap();
        assert_eq!(
            gh.blob(sha, "logs/a b#?.jsonl", &[2, 3, 4]).unwrap(),
            format!("https://github.com/acme/bench/blob/{sha}/logs/a%20b%23%3F.jsonl#L2-L4")
        );
        assert_eq!(
            gh.blob(sha, "x.log", &[3, 9]).unwrap(),
            format!("https://github.com/acme/bench/blob/{sha}/x.log#L3")
        );
        assert_eq!(gh.blob(sha, "logs/../../other/x.log", &[1]), None);
        let gl = Forge::from_remote("https://gitlab.com/g/r.git").unwrap();
        assert_eq!(gl.blob(sha, "x.log", &[5, 6]).unwrap(), format!("https://gitlab.com/g/r/-/blob/{sha}/x.log#L5-6"));
        assert_eq!(gl.commit(sha), format!("https://gitlab.com/g/r/-/commit/{sha}"));
    }

    #[test]
    fn logs_are_linked_relative_to_the_page() {
        let rel = |a: &str, b: &str| relative(Path::new(a), Path::new(b)).unwrap();
        assert_eq!(rel("/p/site", "/p/notebooks/logs/a.jsonl"), "../notebooks/logs/a.jsonl");
        assert_eq!(rel("/p", "/p/logs/a.jsonl"), "logs/a.jsonl");
        assert_eq!(rel("/p/a/b", "/p/a/b/c"), "c");
    }

    #[test]
    fn line_ranges_collapse_runs_of_lines() {
        assert_eq!(line_ranges(&[3, 4, 5, 9]), "lines 3–5, 9");
        assert_eq!(line_ranges(&[7]), "line 7");
    }
}
