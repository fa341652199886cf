//! Writing a document back safely: refuse if it changed since it was read,
//! write a temporary file beside it with the same permissions, flush it to
//! disk, and rename it over the original so readers see the old or the new
//! file, never half of one.
#![allow(clippy::needless_continue)] // floor-plan debt (issue 7): fix these and delete this line

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::{Error, Result};

/// Replaces the file at `path` with `new_text`, if it still holds exactly
/// `original` (the bytes the caller read and computed `new_text` from).
///
/// Refuses with an [`Error::Io`] saying so when the file changed in between
/// (an editor saved it, another reckon ran), leaving it untouched. The file's
/// permissions are kept; a symbolic link is followed and its target
/// replaced. Writing the same bytes the file holds does nothing.
pub fn write_atomic(path: &Path, original: &[u8], new_text: &str) -> Result<()> {
    let target = fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
    if let Some(dir) = target.parent() {
        clean_stale_temps(dir);
    }
    ensure_unchanged(path, &target, original)?;
    if new_text.as_bytes() == original {
        return Ok(());
    }
    let permissions = fs::metadata(&target).map_err(|e| Error::io(path, e))?.permissions();
    let dir = target
        .parent()
        .ok_or_else(|| Error::io(path, io::Error::new(io::ErrorKind::InvalidInput, "not a file in a directory")))?;
    let (tmp_path, mut file) = create_temp(dir, &target).map_err(|e| Error::io(dir, e))?;
    let tmp = TempFile { path: tmp_path, keep: false };

    let written = file
        .write_all(new_text.as_bytes())
        .and_then(|()| file.set_permissions(permissions))
        .and_then(|()| file.sync_all());
    drop(file);
    written.map_err(|e| Error::io(&tmp.path, e))?;

    // Checked again as late as possible: the file may have changed while the
    // temporary file was written.
    ensure_unchanged(path, &target, original)?;
    fs::rename(&tmp.path, &target).map_err(|e| Error::io(path, e))?;
    tmp.keep();
    sync_dir(dir);
    Ok(())
}

/// Writes a file reckon generates (a plot) whole or not at all: a temporary
/// file beside it, flushed, renamed over it. An existing file keeps its
/// permissions. The folder must exist: a document never makes reckon create
/// folders.
pub fn write_generated(path: &Path, text: &str) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    clean_stale_temps(dir);
    let (tmp_path, mut file) = create_temp(dir, path).map_err(|e| Error::io(dir, e))?;
    let tmp = TempFile { path: tmp_path, keep: false };
    let permissions = fs::metadata(path).ok().map(|m| m.permissions());
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| permissions.map_or(Ok(()), |p| file.set_permissions(p)))
        .and_then(|()| file.sync_all());
    drop(file);
    written.map_err(|e| Error::io(&tmp.path, e))?;
    fs::rename(&tmp.path, path).map_err(|e| Error::io(path, e))?;
    tmp.keep();
    sync_dir(dir);
    Ok(())
}

fn ensure_unchanged(path: &Path, target: &Path, original: &[u8]) -> Result<()> {
    let current = fs::read(target).map_err(|e| Error::io(path, e))?;
    if current != original {
        return Err(Error::io(
            path,
            io::Error::other(
                "the file changed since reckon read it; nothing was written — run the command \
                 again to work from the new version",
            ),
        ));
    }
    Ok(())
}

/// Removes the temporary files a reckon killed mid-write left in `dir`
/// (`.NAME.reckon-PID-N.tmp`): those of a process that is gone, or, where
/// that cannot be told, older than an hour. Best effort.
pub fn clean_stale_temps(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let own = std::process::id();
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = temp_owner(name) else { continue };
        if pid == own {
            continue;
        }
        let gone = match process_alive(pid) {
            Some(alive) => !alive,
            None => e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > std::time::Duration::from_secs(3600)),
        };
        if gone {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// The process id in a reckon temporary file's name, if it is one.
fn temp_owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, tail) = rest.rsplit_once(".reckon-")?;
    let (pid, n) = tail.split_once('-')?;
    n.bytes().all(|b| b.is_ascii_digit()).then_some(())?;
    pid.parse().ok()
}

/// Whether a process is running, where the system says (Linux's /proc).
fn process_alive(pid: u32) -> Option<bool> {
    let proc = Path::new("/proc");
    proc.join("self").exists().then(|| proc.join(pid.to_string()).exists())
}

/// A new file beside `target`, named after it so a stray one is recognisable.
fn create_temp(dir: &Path, target: &Path) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = target.file_name().map_or_else(|| "document".into(), |n| n.to_string_lossy());
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.reckon-{}-{n}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1_000_000 => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Makes the rename durable. Best effort: not every platform or file system
/// can open or sync a directory, and the rename itself already happened.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Removes the temporary file unless it was renamed into place.
struct TempFile {
    path: PathBuf,
    keep: bool,
}

impl TempFile {
    fn keep(mut self) {
        self.keep = true;
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.md");
        fs::write(&path, "old\r\n").unwrap();
        let original = fs::read(&path).unwrap();
        write_atomic(&path, &original, "new\r\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\r\n");
        assert_eq!(entries(dir.path()), ["plan.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.md");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, b"old", "new").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    }

    #[test]
    fn refuses_when_the_file_changed_since_it_was_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.md");
        fs::write(&path, "read by reckon").unwrap();
        let original = fs::read(&path).unwrap();
        fs::write(&path, "saved by an editor").unwrap();
        let err = write_atomic(&path, &original, "reckon's update").unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{}: the file changed since reckon read it; nothing was written — run the command \
                 again to work from the new version",
                path.display()
            )
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "saved by an editor");
        assert_eq!(entries(dir.path()), ["plan.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn follows_a_symbolic_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.md");
        let link = dir.path().join("link.md");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"old", "new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    }

    #[test]
    fn missing_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone.md");
        assert!(write_atomic(&path, b"", "x").is_err());
        assert!(entries(dir.path()).is_empty());
    }
}
