//! Writing a document back safely: refuse if it changed since it was read,
//! write a temporary file beside it with the same permissions, flush it to
//! disk, and rename it over the original so readers see the old or the new
//! file, never half of one.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

use tempfile::NamedTempFile;

use crate::{Error, Result};

/// Replaces the file at `path` with `new_text`, if it still holds exactly
/// `original` (the bytes the caller read and computed `new_text` from).
///
/// Refuses with an [`Error::Io`] saying so when the file changed in between
/// (an editor saved it, another reckon ran), leaving it untouched. The file's
/// permissions are kept; a symbolic link is followed and its target
/// replaced. Writing the same bytes the file holds does nothing.
///
/// A notebook (see [`super::notebook`]) is given as the markdown view
/// reckon read: its changed markdown cells are written back into the
/// notebook's own bytes, and a notebook no cell of which changed is not
/// written at all.
pub fn write_atomic(path: &Path, original: &[u8], new_text: &str) -> Result<()> {
    let target = fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
    if let Some(dir) = target.parent() {
        clean_stale_temps(dir);
    }
    ensure_unchanged(path, &target, original)?;
    let rewritten;
    let new_text = if super::notebook::is_notebook(path) {
        let text = std::str::from_utf8(original)
            .map_err(|e| Error::io(path, io::Error::new(io::ErrorKind::InvalidData, e)))?;
        match super::notebook::rewrite(path, text, new_text)? {
            Some(t) => {
                rewritten = t;
                rewritten.as_str()
            }
            None => return Ok(()),
        }
    } else {
        new_text
    };
    if new_text.as_bytes() == original {
        return Ok(());
    }
    let permissions = fs::metadata(&target).map_err(|e| Error::io(path, e))?.permissions();
    let dir = target
        .parent()
        .ok_or_else(|| Error::io(path, io::Error::new(io::ErrorKind::InvalidInput, "not a file in a directory")))?;
    let mut tmp = create_temp(dir, &target).map_err(|e| Error::io(dir, e))?;
    let file = tmp.as_file_mut();
    let written = file
        .write_all(new_text.as_bytes())
        .and_then(|()| file.set_permissions(permissions))
        .and_then(|()| file.sync_all());
    written.map_err(|e| Error::io(tmp.path(), e))?;

    // Checked again as late as possible: the file may have changed while the
    // temporary file was written. (On an error the temporary file is
    // removed as `tmp` drops.)
    ensure_unchanged(path, &target, original)?;
    tmp.persist(&target).map_err(|e| Error::io(path, e.error))?;
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
    let mut tmp = create_temp(dir, path).map_err(|e| Error::io(dir, e))?;
    let permissions = fs::metadata(path).ok().map(|m| m.permissions());
    let file = tmp.as_file_mut();
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| permissions.map_or(Ok(()), |p| file.set_permissions(p)))
        .and_then(|()| file.sync_all());
    written.map_err(|e| Error::io(tmp.path(), e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
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
/// (`.NAME.reckon-PID-XXXXXX.tmp`): those of a process that is gone, or, where
/// that cannot be told, older than an hour. Best effort.
pub fn clean_stale_temps(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let own = std::process::id();
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = temp_owner(name).filter(|pid| *pid != own) else { continue };
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
    // A counter (older reckons) or tempfile's random letters and digits.
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(())?;
    pid.parse().ok()
}

/// Whether a process is running, where the system says (Linux's /proc).
fn process_alive(pid: u32) -> Option<bool> {
    let proc = Path::new("/proc");
    proc.join("self").exists().then(|| proc.join(pid.to_string()).exists())
}

/// A new file beside `target`, named after it so a stray one is
/// recognisable (`.NAME.reckon-PID-XXXXXX.tmp`), removed when dropped
/// unless persisted. Created as a plain new file would be (0666 less the
/// umask), not tempfile's private 0600: a new plot or page is for readers.
fn create_temp(dir: &Path, target: &Path) -> io::Result<NamedTempFile> {
    let name = target.file_name().map_or_else(|| "document".into(), |n| n.to_string_lossy());
    let prefix = format!(".{name}.reckon-{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder.tempfile_in(dir)
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
