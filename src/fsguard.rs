//! Guards on the files reckon opens for a document or a log: only regular
//! files are read (a FIFO or a device would block or never end), and a path
//! a document names must resolve, symlinks followed, inside the folder it
//! is allowed to reach. See SECURITY.md.

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

#[cfg(all(test, unix))]
mod tests {
    use super::*;

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
}
