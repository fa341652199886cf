//! Path templates: `logs/{date}/{config}.jsonl` finds files like a glob and
//! captures the parts of each path that name labels the log lacks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use regex::Regex;

use super::walk::{walk, Found, Segment};
use crate::{Error, Result};

mod pieces;

pub(crate) use pieces::Captures;
use pieces::Pieces;

/// A path with `{name}` captures and glob wildcards (`*`, `?`, `**`).
#[derive(Debug, Clone)]
pub struct PathTemplate {
    text: String,
    glob: String,
    segments: Vec<Segment>,
    regex: Regex,
    names: Vec<String>,
    /// The template a piece at a time, when no piece reaches past a `/`.
    pieces: Option<Pieces>,
}

impl PathTemplate {
    /// True when the text has a `{name}` capture or a glob wildcard.
    pub fn is_pattern(text: &str) -> bool {
        text.contains('{') || text.contains('*') || text.contains('?') || text.contains('[')
    }

    pub fn parse(text: &str) -> Result<PathTemplate> {
        // Matched paths come back relative to the root with `.` folders
        // gone (`./logs/x` is `logs/x`), so the template drops them too.
        let normalized = without_dot_folders(text);
        let Translated { glob, regex: re, names } = translate(text, &normalized)?;
        // A glob the walk cannot read is refused here, before any file or
        // the store is looked at.
        let segments = Segment::parse(&glob)
            .map_err(|e| Error::usage(format!("path template `{text}` is not a glob reckon can read: {e}")))?;
        let regex = Regex::new(&format!("^{re}$")).map_err(|e| Error::usage(format!("path template `{text}`: {e}")))?;
        let pieces = Pieces::new(text, &normalized);
        Ok(PathTemplate { text: text.to_string(), glob, segments, regex, names, pieces })
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The template as a glob: each `{name}` is a `*`.
    pub fn glob(&self) -> &str {
        &self.glob
    }

    /// The label names the template captures.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The files the template matches under `root` (relative templates) in
    /// sorted order; possibly none.
    /// Symlinks that leave the project are not among them (see
    /// [`PathTemplate::walk`]).
    pub fn files(&self, root: &Path) -> Result<Vec<PathBuf>> {
        Ok(self.walk(root)?.files.into_iter().map(|(p, _)| p).collect())
    }

    /// The files the template matches under `root` with the metadata each
    /// was found by (the `stat` that tells a file from a folder), so that a
    /// caller comparing files with what it stored of them needs no second
    /// one; and the symlinks it refused to follow out of the project (see
    /// `fsguard`). Each folder a `**` reaches is walked once.
    pub(crate) fn walk(&self, root: &Path) -> Result<Found> {
        let start = if Path::new(&self.glob).is_absolute() { Path::new("/") } else { root };
        walk(root, start, &self.segments)
    }

    /// The error for a template that matched no file.
    pub fn no_match(&self, root: &Path) -> Error {
        Error::usage(format!(
            "path template `{}` matched no file (looked under {}); check the path, \
                or quote the template so the shell does not expand it",
            self.text,
            root.display()
        ))
    }

    /// The error for a file the template's glob found but whose labels the
    /// template cannot read back from its path.
    pub fn no_captures(&self, path: &Path) -> Error {
        Error::usage(format!(
            "path template `{}` found {} but cannot read its labels back from that path; \
             ingest that file by its path with --label NAME=VALUE for each label",
            self.text,
            path.display()
        ))
    }

    /// The text of `path` its captures are read from (relative to `root`
    /// when the template is relative), when it is that path's text as it is
    /// (UTF-8, `/`-separated); else `None`, and [`PathTemplate::captures`]
    /// reads it.
    pub(crate) fn capture_text<'p>(&self, root: &Path, path: &'p Path) -> Option<&'p str> {
        let rel = if Path::new(&self.text).is_absolute() {
            path
        } else {
            crate::fsguard::strip_root(root, path).unwrap_or(path)
        };
        rel.to_str().filter(|_| std::path::MAIN_SEPARATOR == '/')
    }

    /// Room for the captures of the paths this template finds, read with
    /// [`Captures::read`]: the same as [`PathTemplate::captures`] reads,
    /// allocating nothing per path, the captures of a folder read once for
    /// every file in it.
    pub(crate) fn capture_room(&self) -> Captures {
        Captures::new(&self.regex, self.names.len(), self.pieces.as_ref())
    }

    /// Whether the template matches a path as the store keeps it (relative
    /// to `root`, or absolute): what [`PathTemplate::captures`] of
    /// `root.join(stored)` finds, without reading the captures.
    pub(crate) fn matches_stored(&self, root: &Path, stored: &str) -> bool {
        let path = root.join(stored);
        let rel = if Path::new(&self.text).is_absolute() {
            &path
        } else {
            crate::fsguard::strip_root(root, &path).unwrap_or(&path)
        };
        self.regex.is_match(&slashed(rel))
    }

    /// The labels captured from one path (relative to `root` when the
    /// template is relative), or `None` when the path does not fit.
    pub fn captures(&self, root: &Path, path: &Path) -> Option<BTreeMap<String, String>> {
        let rel = if Path::new(&self.text).is_absolute() {
            path
        } else {
            crate::fsguard::strip_root(root, path).unwrap_or(path)
        };
        let text = slashed(rel);
        let caps = self.regex.captures(&text)?;
        Some(self.names.iter().enumerate().map(|(i, n)| (n.clone(), caps[i + 1].to_string())).collect())
    }
}

/// A template's text (or one `/`-separated piece of it) as a glob and as
/// the body of a regex, with the names it captures in order; `text` is the
/// whole template, for messages.
struct Translated {
    glob: String,
    regex: String,
    names: Vec<String>,
}

fn translate(text: &str, normalized: &str) -> Result<Translated> {
    let mut glob = String::new();
    let mut re = String::new();
    let mut names: Vec<String> = Vec::new();
    let mut chars = normalized.chars().peekable();
    // What the last piece was, to refuse two wildcards side by side.
    let mut last: Option<String> = None;
    while let Some(c) = chars.next() {
        let before = last.take();
        match c {
            '[' => {
                let class = char_class(&mut chars).ok_or_else(|| {
                    Error::usage(format!(
                        "path template `{text}`: `[` opens a set of characters that must be closed by `]` \
                         (e.g. `run[12]`); to match a `[` itself, write `[[]`"
                    ))
                })?;
                glob.push_str(&class.glob);
                re.push_str(&class.regex);
            }
            '{' => {
                let mut name = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(ch) if ch.is_alphanumeric() || ch == '_' || ch == '-' || ch == '.' => name.push(ch),
                        _ => {
                            return Err(Error::usage(format!(
                                "path template `{text}`: `{{` must be followed by a label name and `}}`, \
                                    e.g. `logs/{{date}}/{{config}}.jsonl`"
                            )))
                        }
                    }
                }
                if name.is_empty() || names.contains(&name) {
                    return Err(Error::usage(format!("path template `{text}`: empty or repeated label `{{{name}}}`")));
                }
                let piece = format!("{{{name}}}");
                side_by_side(text, before.as_deref(), &piece)?;
                glob.push('*');
                re.push_str("([^/]+?)");
                names.push(name);
                last = Some(piece);
            }
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                side_by_side(text, before.as_deref(), "**")?;
                glob.push_str("**");
                re.push_str(".*");
                last = Some("**".into());
            }
            '*' => {
                side_by_side(text, before.as_deref(), "*")?;
                glob.push('*');
                re.push_str("[^/]*");
                last = Some("*".into());
            }
            '?' => {
                glob.push('?');
                re.push_str("[^/]");
            }
            c => {
                glob.push(c);
                re.push_str(&regex::escape(&c.to_string()));
            }
        }
    }
    Ok(Translated { glob, regex: re, names })
}

/// A path as the `/`-separated text templates match and git prints: `\\`
/// is a separator only where the platform makes it one (on Unix it is part
/// of a name, as in `eagle\\v3.jsonl`).
pub fn slashed(path: &Path) -> String {
    let text = path.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '\\' {
        text.replace('\\', "/")
    } else {
        text.into_owned()
    }
}

/// Refuses a capture beside another capture or a `*`: a path could not say
/// where one ends and the other begins (and the glob would read `**`).
fn side_by_side(text: &str, before: Option<&str>, piece: &str) -> Result<()> {
    let Some(before) = before else { return Ok(()) };
    if !(before.starts_with('{') || piece.starts_with('{')) {
        return Ok(());
    }
    Err(Error::usage(format!(
        "path template `{text}`: `{before}` and `{piece}` are side by side, so a path cannot say where one \
         ends and the other begins; put a separator between them, e.g. `{before}-{piece}`"
    )))
}

/// The template's text without `.` folders (`./logs/x` → `logs/x`).
fn without_dot_folders(text: &str) -> String {
    let kept: Vec<&str> = text.split('/').filter(|s| *s != ".").collect();
    kept.join("/")
}

/// A glob character set (`[abc]`, `[a-z]`, `[!0-9]`) as the glob crate
/// reads it, and as a regex that matches the same characters.
struct CharClass {
    glob: String,
    regex: String,
}

/// Reads a character set after its `[`, up to its `]`; `None` when it is
/// never closed. As in glob, a `]` right after `[` or `[!` is a member, and
/// a set never matches the folder separator.
fn char_class(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<CharClass> {
    let negated = chars.next_if_eq(&'!').is_some();
    let mut members: Vec<char> = Vec::new();
    loop {
        let c = chars.next()?;
        if c == ']' && !members.is_empty() {
            break;
        }
        members.push(c);
    }
    let mut glob = String::from(if negated { "[!" } else { "[" });
    glob.extend(&members);
    glob.push(']');
    let mut regex = String::from(if negated { "[^/" } else { "[" });
    let mut i = 0;
    while i < members.len() {
        regex.push_str(&regex::escape(&members[i].to_string()));
        // `a-z` is a range; a `-` first or last is itself.
        if members.get(i + 1) == Some(&'-') && i + 2 < members.len() {
            regex.push('-');
            regex.push_str(&regex::escape(&members[i + 2].to_string()));
            i += 3;
        } else {
            i += 1;
        }
    }
    if !negated {
        regex.push_str("&&[^/]");
    }
    regex.push(']');
    Some(CharClass { glob, regex })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_labels_from_paths() {
        let t = PathTemplate::parse("logs/{date}/{config}.jsonl").unwrap();
        let caps = t.captures(Path::new("/r"), Path::new("/r/logs/2026-11-29/eagle-topk1-v2.jsonl")).unwrap();
        assert_eq!(caps["date"], "2026-11-29");
        assert_eq!(caps["config"], "eagle-topk1-v2");
        assert!(t.captures(Path::new("/r"), Path::new("/r/logs/2026-11-29/x.log")).is_none());
        assert!(
            t.captures(Path::new("/r"), Path::new("/r/logs/a/b/c.jsonl")).is_none(),
            "a capture never spans folders"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_backslash_is_part_of_a_name_on_unix() {
        let t = PathTemplate::parse("logs/{date}/{config}.jsonl").unwrap();
        let caps = t.captures(Path::new("/r"), Path::new("/r/logs/2026-11-29/eagle\\v3.jsonl")).unwrap();
        assert_eq!(caps["config"], "eagle\\v3");
        assert_eq!(slashed(Path::new("logs/a\\b.jsonl")), "logs/a\\b.jsonl");
    }

    #[test]
    fn character_sets_and_dot_folders_match_as_the_glob_does() {
        let r = Path::new("/r");
        let t = PathTemplate::parse("./logs/run[1-2]/{config}.jsonl").unwrap();
        assert_eq!(t.glob(), "logs/run[1-2]/*.jsonl");
        assert_eq!(t.captures(r, Path::new("/r/logs/run2/topk.jsonl")).unwrap()["config"], "topk");
        assert!(t.captures(r, Path::new("/r/logs/run3/topk.jsonl")).is_none());
        let t = PathTemplate::parse("logs/[!x]/[]-]{config}.csv").unwrap();
        assert_eq!(t.captures(r, Path::new("/r/logs/a/]v1.csv")).unwrap()["config"], "v1");
        assert_eq!(t.captures(r, Path::new("/r/logs/a/-v1.csv")).unwrap()["config"], "v1");
        assert!(t.captures(r, Path::new("/r/logs/x/-v1.csv")).is_none());
        assert!(PathTemplate::parse("logs/run[12/{config}.csv").is_err(), "an unclosed set");
    }

    #[test]
    fn bad_templates_and_empty_matches_are_errors() {
        assert!(PathTemplate::parse("logs/{date/x").is_err());
        assert!(PathTemplate::parse("logs/{a}/{a}").is_err());
        let dir = tempfile::tempdir().unwrap();
        let t = PathTemplate::parse("logs/{config}.jsonl").unwrap();
        assert!(t.files(dir.path()).unwrap().is_empty());
        assert!(t.no_match(dir.path()).to_string().contains("matched no file"));
    }
}
