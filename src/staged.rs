//! The staged view a pre-commit hook checks: what `git commit` is about to
//! record, not the working tree. The files of the index reckon reads
//! (reckon.toml, the documents, the logs its sources match, templates,
//! plots) — and no others: a log on disk but not staged, or taken out of the
//! index, is not part of the commit and not judged; a log git ignores, which
//! no commit can hold, is taken as it is on disk — are laid out in
//! a temporary folder inside the git directory — hard links to the working
//! tree where it equals the index (so nothing is read or hashed again), the
//! index's content (`git checkout-index`) where it differs — and checked
//! against a copy of the database, so staged-but-uncommitted content never
//! reaches the database later working-tree checks use.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::config::{Config, FILE_NAME};
use crate::ingest::template::slashed;
use crate::ingest::PathTemplate;
use crate::{Error, Result};

/// A temporary copy of the staged files reckon reads; removed when dropped.
pub(crate) struct StagedTree {
    /// Held, never read: dropping it removes the copy.
    _dir: tempfile::TempDir,
    /// The configuration as staged, rooted in the copy, with the database
    /// pointing at a copy of the project's.
    pub cfg: Config,
    /// Where git is asked about commit times (the real project root).
    pub real_root: PathBuf,
}

impl StagedTree {
    /// The copy's root: the project root as staged.
    pub(crate) fn root(&self) -> &Path {
        &self.cfg.root
    }
}

fn git(dir: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C").arg(dir);
    c
}

fn git_output(c: &mut Command, what: &str) -> Result<Vec<u8>> {
    let out = c.stderr(Stdio::piped()).output().map_err(|e| Error::io("git", e))?;
    if !out.status.success() {
        // git's first line says what went wrong; what follows is usage text.
        let stderr = String::from_utf8_lossy(&out.stderr);
        let said = stderr.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("no message");
        return Err(Error::usage(format!("{what}: git failed: {said}")));
    }
    Ok(out.stdout)
}

/// Refuses a folder outside any git work tree: what a commit records is
/// the index of a repository, and there is none to ask (outside one,
/// `git diff` turns into `git diff --no-index` and answers with its usage).
pub(crate) fn require_repository(dir: &Path) -> Result<()> {
    let inside = git(dir)
        .args(["rev-parse", "--is-inside-work-tree"])
        .stderr(Stdio::null())
        .output()
        .map_err(|e| Error::io("git", e))?;
    if inside.status.success() && inside.stdout.starts_with(b"true") {
        return Ok(());
    }
    Err(Error::usage(format!(
        "`check --staged` judges what a git commit records, and {} is not inside a git work tree; \
         run it in the repository (the pre-commit hook does), or `reckon check` for the files as they are",
        dir.display()
    )))
}

fn split_z(bytes: &[u8]) -> Vec<String> {
    bytes.split(|b| *b == 0).filter(|s| !s.is_empty()).map(|s| String::from_utf8_lossy(s).into_owned()).collect()
}

/// The staged paths (relative to the project root, `/`-separated) the
/// check is about: those given (relative to `cwd`, as the git hook passes
/// them after `--`), or else every path staged for the commit, deletions
/// included.
pub(crate) fn changed_paths(root: &Path, cwd: &Path, given: &[PathBuf]) -> Result<Vec<String>> {
    if !given.is_empty() {
        return Ok(given
            .iter()
            .filter_map(|p| {
                let abs = if p.is_absolute() { p.clone() } else { cwd.join(p) };
                let abs = normalize(&abs);
                abs.strip_prefix(normalize(root)).ok().map(slashed)
            })
            .collect());
    }
    let out = git_output(
        git(root).args(["diff", "--cached", "--name-only", "-z", "--no-renames", "--relative"]),
        "listing the staged paths",
    )?;
    Ok(split_z(&out))
}

/// `a/./b/../c` as `a/c`, without touching the file system (the paths may
/// be deleted files).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The source templates of a configuration, parsed.
fn templates(cfg: &Config) -> Vec<PathTemplate> {
    cfg.sources.iter().filter_map(|s| PathTemplate::parse(&s.path).ok()).collect()
}

/// Whether a path (relative to the root) is one reckon reads for `cfg`:
/// reckon.toml, a document, or a log a `[[source]]` matches.
pub(crate) fn is_read(cfg: &Config, templates: &[PathTemplate], rel: &str) -> bool {
    rel == FILE_NAME
        || cfg.is_document(rel)
        || templates.iter().any(|t| t.captures(&cfg.root, &cfg.root.join(rel)).is_some())
}

/// Whether the commit touches anything reckon reads, under the working
/// tree's configuration or the staged one.
pub(crate) fn touches(cfg: &Config, staged_cfg: &Config, changed: &[String]) -> bool {
    let (a, b) = (templates(cfg), templates(staged_cfg));
    changed.iter().any(|p| is_read(cfg, &a, p) || is_read(staged_cfg, &b, p))
}

/// reckon.toml as staged (relative to the root), or the working tree's when
/// it is not in the index (an untracked configuration still configures).
pub(crate) fn staged_config(cfg: &Config) -> Result<Config> {
    let Some(file) = &cfg.file else { return Ok(cfg.clone()) };
    let out = git(&cfg.root).args(["show", &format!(":./{FILE_NAME}")]).stderr(Stdio::null()).output();
    match out {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8(o.stdout)
                .map_err(|_| Error::Config { path: file.clone(), msg: "the staged file is not UTF-8".into() })?;
            let mut staged = Config::parse(&text, &cfg.root, Some(file))?;
            staged.database.clone_from(&cfg.database);
            Ok(staged)
        }
        _ => Ok(cfg.clone()),
    }
}

/// Lays out the staged files reckon reads under a temporary folder in the
/// git directory (the same file system as the working tree, so hard links
/// work) and copies the database there.
pub(crate) fn export(cfg: &Config, staged_cfg: &Config) -> Result<StagedTree> {
    let root = &cfg.root;
    let git_dir = git_output(git(root).args(["rev-parse", "--absolute-git-dir"]), "finding the git directory")?;
    let git_dir = PathBuf::from(String::from_utf8_lossy(&git_dir).trim());
    let dir =
        tempfile::Builder::new().prefix("reckon-staged-").tempdir_in(&git_dir).map_err(|e| Error::io(&git_dir, e))?;
    // `git checkout-index --prefix` writes each file at its path from the
    // top of the repository, whatever folder it runs in: the copy of the
    // top is `tree`, and the project's root is its folder within it, so a
    // project in a subfolder finds the index's content where it links the
    // rest.
    let prefix = git_output(git(root).args(["rev-parse", "--show-prefix"]), "finding the project's folder")?;
    let top = dir.path().join("tree");
    let prefix = String::from_utf8_lossy(&prefix);
    let prefix = prefix.trim_end_matches(['\n', '\r', '/']);
    let copy_root = if prefix.is_empty() { top.clone() } else { top.join(prefix) };
    std::fs::create_dir_all(&copy_root).map_err(|e| Error::io(&copy_root, e))?;

    let tracked = split_z(&git_output(git(root).args(["ls-files", "-z", "--cached"]), "listing the index")?);
    let differs: HashSet<String> = split_z(&git_output(
        git(root).args(["diff", "--name-only", "-z", "--no-renames", "--relative"]),
        "comparing the working tree with the index",
    )?)
    .into_iter()
    .collect();
    let tmpl = templates(staged_cfg);
    // Without configured documents, the staged markdown files are checked.
    let any_md = staged_cfg.documents.is_empty();
    // Extensions compared as written: reckon reads `plan.md`, not `PLAN.MD`.
    let has_extension = |rel: &str, ext: &str| Path::new(rel).extension().is_some_and(|e| e == ext);
    let wanted = |rel: &str| {
        is_read(staged_cfg, &tmpl, rel)
            || rel.starts_with("templates/")
            || has_extension(rel, "svg")
            || (any_md && crate::doc::has_document_extension(Path::new(rel)))
    };
    let mut from_index = Vec::new();
    for rel in tracked.iter().filter(|r| wanted(r)) {
        // Where the working tree holds what is staged, link it: same bytes,
        // same metadata, so the database copy already knows the file.
        if differs.contains(rel) || !link(&root.join(rel), &copy_root.join(rel))? {
            from_index.push(rel.clone());
        }
    }
    for rel in ignored_logs(root, &tmpl, &tracked)? {
        link(&root.join(&rel), &copy_root.join(&rel))?;
    }
    checkout_index(root, &top, &from_index)?;

    let mut staged = staged_cfg.clone();
    staged.root.clone_from(&copy_root);
    // `file` stays the real reckon.toml: errors name it, not the copy.
    staged.database = dir.path().join("reckon.sqlite");
    Ok(StagedTree { _dir: dir, cfg: staged, real_root: root.clone() })
}

/// Writes the index's content of `paths` (relative to `root`) under `top`,
/// the copy of the repository's top folder (`checkout-index --prefix`
/// names each file from the top, whatever folder it runs in).
fn checkout_index(root: &Path, top: &Path, paths: &[String]) -> Result<()> {
    if paths.is_empty() {
        return Ok(());
    }
    let mut child = git(root)
        .args(["checkout-index", "-z", "--stdin", "-f"])
        .arg(format!("--prefix={}/", top.display()))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::io("git", e))?;
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let mut list = Vec::new();
        for rel in paths {
            list.extend_from_slice(rel.as_bytes());
            list.push(0);
        }
        stdin.write_all(&list).map_err(|e| Error::io("git", e))?;
    }
    let out = child.wait_with_output().map_err(|e| Error::io("git", e))?;
    if !out.status.success() {
        return Err(Error::usage(format!(
            "copying the staged files: git checkout-index failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(())
}

/// Hard-links (else copies) a regular file into the staged tree; false when
/// `from` is not a regular file.
/// The logs the sources match that git ignores (`.gitignore`, `info/exclude`):
/// no commit can record them, so a project that keeps its logs out of git
/// has them judged as they are on disk. A log git does not ignore but that is
/// not staged (new, or taken out of the index) is left out: the commit does
/// not hold it.
fn ignored_logs(root: &Path, tmpl: &[PathTemplate], tracked: &[String]) -> Result<Vec<String>> {
    let tracked: HashSet<&String> = tracked.iter().collect();
    let mut untracked = Vec::new();
    for t in tmpl {
        for file in t.files(root)? {
            let rel = slashed(&crate::sources::display_path(root, &file));
            if !tracked.contains(&rel) && !Path::new(&rel).is_absolute() {
                untracked.push(rel);
            }
        }
    }
    if untracked.is_empty() {
        return Ok(untracked);
    }
    let mut child = git(root)
        .args(["check-ignore", "-z", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::io("git", e))?;
    let mut list = Vec::new();
    for rel in &untracked {
        list.extend_from_slice(rel.as_bytes());
        list.push(0);
    }
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&list)
    });
    let out = child.wait_with_output().map_err(|e| Error::io("git", e))?;
    writer.join().expect("the writer thread does not panic").map_err(|e| Error::io("git", e))?;
    // check-ignore exits 1 when no path is ignored.
    if !matches!(out.status.code(), Some(0 | 1)) {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let said = stderr.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("no message");
        return Err(Error::usage(format!("finding the logs git ignores: git failed: {said}")));
    }
    Ok(split_z(&out.stdout))
}

fn link(from: &Path, to: &Path) -> Result<bool> {
    if !std::fs::symlink_metadata(from).is_ok_and(|m| m.file_type().is_file()) {
        return Ok(false);
    }
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    if std::fs::hard_link(from, to).is_ok() {
        return Ok(true);
    }
    std::fs::copy(from, to).map_err(|e| Error::io(from, e))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_given_by_the_hook_are_taken_relative_to_the_root() {
        let got = changed_paths(
            Path::new("/repo/bench"),
            Path::new("/repo"),
            &[PathBuf::from("bench/notebooks/a.md"), PathBuf::from("README.md"), PathBuf::from("./bench/reckon.toml")],
        )
        .unwrap();
        assert_eq!(got, ["notebooks/a.md", "reckon.toml"]);
    }

    #[test]
    fn what_reckon_reads() {
        let cfg = Config::parse(
            "documents = [\"notebooks/*.md\"]\n[[source]]\npath = \"logs/{date}/{config}.jsonl\"\n",
            Path::new("/r"),
            None,
        )
        .unwrap();
        let t = templates(&cfg);
        assert!(is_read(&cfg, &t, "reckon.toml"));
        assert!(is_read(&cfg, &t, "notebooks/plan.md"));
        assert!(is_read(&cfg, &t, "logs/2026-11-29/baseline.jsonl"));
        assert!(!is_read(&cfg, &t, "logs/2026-11-29/baseline.csv"));
        assert!(!is_read(&cfg, &t, "README.md"));
        assert!(touches(&cfg, &cfg, &["src/x.rs".into(), "logs/d/c.jsonl".into()]));
        assert!(!touches(&cfg, &cfg, &["src/x.rs".into()]));
    }
}
