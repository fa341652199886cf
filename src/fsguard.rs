//! Guards on the files reckon opens for a document or a log: only regular
//! files are read (a FIFO or a device would block or never end), a path a
//! document names must resolve, symlinks followed, inside the folder it is
//! allowed to reach, and a symlink is followed only when its target stays
//! inside the project (the one rule for logs and documents). See SECURITY.md.

use std::fs::Metadata;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// The metadata of `path` (symlinks followed) when it is a regular file;
/// otherwise an error saying what it is. Checked before opening: opening a
/// FIFO for reading blocks until something writes to it.
pub(crate) fn regular_file(path: &Path, shown: &Path) -> Result<Metadata> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(shown, e))?;
    if meta.is_file() {
        return Ok(meta);
    }
    Err(Error::io(shown, std::io::Error::other(not_regular(&meta))))
}

/// What a path that is not a regular file is, for messages.
pub(crate) fn not_regular(meta: &Metadata) -> String {
    let what = if meta.is_dir() { "a directory" } else { special_kind(meta) };
    format!("is {what}, not a regular file; reckon reads only regular files")
}

#[cfg(unix)]
fn special_kind(meta: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &Metadata) -> &'static str {
    "a special file"
}

/// Reads a regular file whole.
pub(crate) fn read_regular(path: &Path, shown: &Path) -> Result<Vec<u8>> {
    regular_file(path, shown)?;
    std::fs::read(path).map_err(|e| Error::io(shown, e))
}

/// The real path of `path` (every symlink resolved) when it lies inside the
/// real path of `base`; `Err` says where it leads otherwise. `path` must
/// exist.
pub(crate) fn resolve_within(base: &Path, path: &Path) -> std::result::Result<PathBuf, String> {
    let real_base = std::fs::canonicalize(base).map_err(|e| format!("{}: {e}", base.display()))?;
    let real = std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if real.starts_with(&real_base) {
        Ok(real)
    } else {
        Err(format!(
            "{} leads outside {} (symlinks are followed only when they stay inside it)",
            path.display(),
            base.display()
        ))
    }
}

/// Where a symlink leads, judged against the folder it may not leave
/// (`boundary`, a real path: every symlink in it resolved).
pub(crate) enum Link {
    /// Its target, every symlink resolved, is inside the boundary.
    Inside { real: PathBuf, meta: Metadata },
    /// Its target leaves the boundary: [`Link::refusal`] says so.
    Outside { real: PathBuf },
    /// It leads nowhere (a dangling link, a loop): as if it were not there.
    Nowhere,
}

impl Link {
    /// Follows the symlink at `path`: its real path, and its target's
    /// metadata when that stays inside `boundary`.
    pub(crate) fn follow(boundary: &Path, path: &Path) -> Link {
        let Ok(real) = std::fs::canonicalize(path) else { return Link::Nowhere };
        if !real.starts_with(boundary) {
            return Link::Outside { real };
        }
        match std::fs::metadata(&real) {
            Ok(meta) => Link::Inside { real, meta },
            Err(_) => Link::Nowhere,
        }
    }

    /// The error for a link at `shown` whose target `real` leaves the
    /// project at `boundary`.
    pub(crate) fn refusal(shown: &Path, real: &Path, boundary: &Path) -> Error {
        Error::io(
            shown,
            std::io::Error::other(format!(
                "is a symlink to {}, outside the project ({}); reckon follows a symlink only when it stays \
                 inside the project: copy the file into the project, or remove the link",
                real.display(),
                boundary.display()
            )),
        )
    }
}

/// Refuses a file whose path, as written, lies inside `root` but which
/// leads outside it through a symlink (of the file or of a folder on the
/// way). A path that is outside `root` as written (named so on the command
/// line) is the researcher's own choice and passes. Costs one `realpath`.
pub(crate) fn stays_inside(root: &Path, path: &Path, shown: &Path) -> Result<()> {
    if !lexically_inside(root, path) {
        return Ok(());
    }
    let Ok(real_root) = std::fs::canonicalize(root) else { return Ok(()) };
    match std::fs::canonicalize(path) {
        Ok(real) if !real.starts_with(&real_root) => Err(Link::refusal(shown, &real, root)),
        // A missing file is reported by whoever opens it.
        _ => Ok(()),
    }
}

/// `path` relative to `root`, exactly as `Path::strip_prefix` gives it.
/// A path a walk built by joining names to `root` is cut by its bytes,
/// without parsing either path into components (a scan of thousands of
/// logs cut each path several times); any other path goes through
/// `strip_prefix`.
pub(crate) fn strip_root<'p>(root: &Path, path: &'p Path) -> Option<&'p Path> {
    // Cut as text: a UTF-8 path split after an ASCII `/` stays UTF-8.
    let (Some(r), Some(p)) = (root.to_str(), path.to_str()) else { return path.strip_prefix(root).ok() };
    let rest = p.strip_prefix(r).and_then(|rest| rest.strip_prefix('/'));
    // Where `strip_prefix` would trim more than the one separator (`//`,
    // `./`, a trailing `/` or `/.`) or the root does not end in a plain
    // name, the components decide.
    let plain = |rest: &str| {
        std::path::MAIN_SEPARATOR == '/'
            && !r.is_empty()
            && !r.ends_with('/')
            && !r.ends_with("/.")
            && !r.ends_with("/..")
            && r != "."
            && r != ".."
            && !rest.is_empty()
            && rest != "."
            && !rest.starts_with('/')
            && !rest.starts_with("./")
            && !rest.ends_with('/')
            && !rest.ends_with("/.")
    };
    match rest {
        Some(rest) if plain(rest) => Some(Path::new(rest)),
        _ => path.strip_prefix(root).ok(),
    }
}

/// Whether `path`, with its `.` and `..` folded as written (no symlink
/// looked at), lies inside `root`.
pub(crate) fn lexically_inside(root: &Path, path: &Path) -> bool {
    use std::path::Component;
    let Ok(rel) = path.strip_prefix(root) else { return false };
    let mut depth = 0usize;
    for c in rel.components() {
        match c {
            Component::ParentDir if depth == 0 => return false,
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            _ => {}
        }
    }
    true
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_root_is_stripped_as_strip_prefix_strips_it() {
        let roots = ["/p", "/p/", "/p/.", "p", "./p", "p/./q", "/", "", ".", "/p/..", "/p//q"];
        let rests = ["a", "a/b.jsonl", "", ".", "./a", "a/", "a/.", "/a", "a//b", "a/./b", "../a", "..a", ".a/b"];
        for root in roots {
            for rest in rests {
                for sep in ["/", "//", ""] {
                    let path = format!("{root}{sep}{rest}");
                    let (root, path) = (Path::new(root), Path::new(&path));
                    assert_eq!(strip_root(root, path), path.strip_prefix(root).ok(), "{root:?} of {path:?}");
                }
            }
        }
        assert_eq!(strip_root(Path::new("/p/ab"), Path::new("/p/abc/d")), None);
    }

    #[test]
    fn symlinks_out_of_the_folder_and_special_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("inner");
        std::fs::create_dir(&inner).unwrap();
        std::fs::write(inner.join("ok.md"), "x").unwrap();
        std::fs::write(dir.path().join("secret"), "s").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret"), inner.join("out.md")).unwrap();
        std::os::unix::fs::symlink(inner.join("ok.md"), inner.join("in.md")).unwrap();
        assert!(resolve_within(&inner, &inner.join("ok.md")).is_ok());
        assert!(resolve_within(&inner, &inner.join("in.md")).is_ok());
        assert!(resolve_within(&inner, &inner.join("out.md")).unwrap_err().contains("leads outside"));
        assert!(resolve_within(&inner, &inner.join("../secret")).is_err());
        let e = read_regular(Path::new("/dev/null"), Path::new("/dev/null")).unwrap_err().to_string();
        assert!(e.contains("a device, not a regular file"), "{e}");
        let e = regular_file(dir.path(), Path::new("d")).unwrap_err().to_string();
        assert!(e.contains("a directory"), "{e}");
    }

    #[test]
    fn a_symlink_is_followed_only_inside_the_project() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap().join("proj");
        std::fs::create_dir_all(root.join("logs")).unwrap();
        std::fs::write(root.join("logs/a.jsonl"), "x").unwrap();
        std::fs::write(dir.path().join("secret"), "s").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret"), root.join("logs/out.jsonl")).unwrap();
        std::os::unix::fs::symlink("a.jsonl", root.join("logs/in.jsonl")).unwrap();
        std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
        assert!(matches!(Link::follow(&root, &root.join("logs/in.jsonl")), Link::Inside { .. }));
        assert!(matches!(Link::follow(&root, &root.join("logs/out.jsonl")), Link::Outside { .. }));
        assert!(matches!(Link::follow(&root, &root.join("logs/none")), Link::Nowhere));
        assert!(stays_inside(&root, &root.join("logs/in.jsonl"), Path::new("in")).is_ok());
        let e = stays_inside(&root, &root.join("up/secret"), Path::new("up/secret")).unwrap_err().to_string();
        assert!(e.contains("up/secret: is a symlink to") && e.contains("outside the project"), "{e}");
        assert!(stays_inside(&root, &root.join("../secret"), Path::new("../secret")).is_ok(), "named outside");
    }
}
