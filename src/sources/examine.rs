//! What a file is before it is parsed: unchanged since it was ingested
//! (judged from its metadata against the stored sources read once per
//! command, or from its hash), or work for the parser with its run time.

use std::cell::Cell;
use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::git::GitView;
use super::time::{fixed_time, later_run_time, run_time, When};
use super::{display_path, Job};
use crate::ingest::stdout;
use crate::run::Value;
use crate::store::{RunTime, Seen, StoredSource};
use crate::{Error, Result};

/// A file to parse, with what was learnt of it before parsing.
pub(super) struct Work {
    pub(super) job: Job,
    pub(super) shown: PathBuf,
    pub(super) shown_str: String,
    pub(super) seen: Seen,
    /// Decided when the file is written, so that git's history walk runs
    /// while files are read and parsed.
    pub(super) time: When,
    pub(super) sweep: Option<String>,
}

/// What looking at a file before parsing it decided.
pub(super) enum Examined {
    /// The store holds its bytes with the run time they get now.
    Unchanged,
    /// The store holds its bytes, but how the file looks now (or the run
    /// time its runs now get, when given) is to be recorded.
    Refresh { id: i64, seen: Seen, time: Option<RunTime> },
    /// To read and parse; its content replaces what its path gave before.
    Parse(Box<Work>),
}

/// What is stored, by path, as [`crate::store::Store::stored_sources`]
/// reads it once per command, with which paths the command has found: a
/// path none of its files has is the only kind that can be gone, so only
/// those are looked at again (a check with nothing changed looks at none).
pub(super) struct Stored {
    by_path: FxHashMap<String, Entry>,
}

struct Entry {
    /// `None`: the path is stored more than once (by an older reckon).
    source: Option<StoredSource>,
    found: Cell<bool>,
}

impl Stored {
    /// The sources as the store reads them, straight into the map; a path
    /// stored more than once has none (as `Store::stored_source` answers).
    pub(super) fn read(store: &crate::store::Store) -> Result<Stored> {
        let by_path: std::cell::RefCell<FxHashMap<String, Entry>> = std::cell::RefCell::default();
        store.stored_sources(&mut |n| by_path.borrow_mut().reserve(n), &mut |path, source| {
            by_path
                .borrow_mut()
                .entry(path)
                .and_modify(|twice| twice.source = None)
                .or_insert(Entry { source: Some(source), found: Cell::new(false) });
        })?;
        Ok(Stored { by_path: by_path.into_inner() })
    }

    pub(super) fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }

    /// Whether `path` (as shown) is stored, once or more.
    pub(super) fn contains(&self, path: &str) -> bool {
        self.by_path.contains_key(path)
    }

    /// The one source stored for `path`.
    pub(super) fn get(&self, path: &str) -> Option<&StoredSource> {
        self.by_path.get(path).and_then(|e| e.source.as_ref())
    }

    /// The one source stored for `path`, with the mark [`Stored::found`]
    /// sets, to set once a file of this command is known to have the path.
    pub(super) fn get_with_mark(&self, path: &str) -> Option<(&StoredSource, &Cell<bool>)> {
        let entry = self.by_path.get(path)?;
        Some((entry.source.as_ref()?, &entry.found))
    }

    /// A file of this command has `path` (as shown): it is not gone.
    pub(super) fn found(&self, path: &str) {
        if let Some(entry) = self.by_path.get(path) {
            entry.found.set(true);
        }
    }

    /// The stored paths no file of this command has (see [`Stored::find`]).
    pub(super) fn not_found(&self) -> impl Iterator<Item = &String> {
        self.by_path.iter().filter(|(_, e)| !e.found.get()).map(|(k, _)| k)
    }
}

/// Looks at a file before it is parsed, against what the store holds for
/// its path (`stored`, read once per command): unchanged when its metadata
/// proves the stored bytes are still there (one `stat`, no query) or, when
/// the metadata moved, when its hash is the stored one. git is asked only
/// when the run time can come from it.
pub(super) fn examine(root: &Path, mut job: Job, stored: &Stored, git: &GitView) -> Result<Examined> {
    let shown = display_path(root, &job.path);
    let meta = if let Some(meta) = job.meta.take() {
        *meta
    } else {
        // A path named as it is (a template's walk judged its own finds).
        crate::fsguard::stays_inside(root, &job.path, &shown)?;
        metadata(&job.path, &shown)?
    };
    let path = &job.path;
    if meta.is_dir() {
        return Err(Error::UnknownFormat {
            path: shown.clone(),
            msg: format!("is a directory; pass the logs in it, e.g. '{}/*.jsonl'", shown.display()),
        });
    }
    if !meta.is_file() {
        // A FIFO, /dev/zero or a socket: reading would block or never end.
        return Err(Error::UnknownFormat { path: shown.clone(), msg: crate::fsguard::not_regular(&meta) });
    }
    let shown_str = shown.to_string_lossy().into_owned();
    // The source's record keeps the sweep label with the others, so the same
    // bytes given another sweep are reported as relabelled.
    let rel = crate::ingest::template::slashed(&shown);
    let mut seen = seen_of(&meta);
    let fixed = fixed_time(&shown, job.date.as_deref(), job.sweep.as_deref())?;
    let labels_json = crate::store::labels_json(&source_labels(&job));
    let stored = stored.get(&shown_str).filter(|s| s.labels == labels_json);
    if let Some(s) = stored.filter(|s| same_file(&s.seen, &seen)) {
        // The bytes are the ones ingested; only the run time can have moved
        // (a new commit, or a template that now gives a date).
        if time_holds(s, fixed.as_ref().map(|(t, _)| t), git) {
            return Ok(Examined::Unchanged);
        }
        if fixed.is_none() {
            let (time, _) = run_time(path, &rel, None, &meta, git)?;
            let mut kept = s.seen.clone();
            kept.git_head = git.head().map(str::to_string);
            let time = (s.time.as_ref() != Some(&time)).then_some(time);
            return Ok(Examined::Refresh { id: s.id, seen: kept, time });
        }
        // A date or sweep now fixed by the path or a label: read it again.
    }
    // HEAD matters only to a time git can give; a fixed one never asks.
    if fixed.is_none() {
        seen.git_head = git.head().map(str::to_string);
    }
    // The clock before the file is read (by the parser, a little later).
    seen.checked_ns = Some(now_ns());
    let (time, sweep) = match stored {
        Some(s) => {
            // The path was ingested before: when its bytes are the same
            // (touched but not changed), remember how it looks now. A new
            // time is set in place when it is a plain one (git or mtime: the
            // sweep is its date); one a path or label fixes is read again.
            let (time, sweep) = run_time(path, &rel, fixed, &meta, git)?;
            let (hash, _) = hash_file(path, &shown)?;
            if s.hash == hash {
                let same_time = s.time.as_ref() == Some(&time);
                if same_time || (sweep.is_none() && job.sweep.is_none()) {
                    return Ok(Examined::Refresh { id: s.id, seen, time: (!same_time).then_some(time) });
                }
            }
            (When::Known(time), sweep)
        }
        None => later_run_time(path, &rel, fixed, &meta, git)?,
    };
    Ok(Examined::Parse(Box::new(Work { job, shown, shown_str, seen, time, sweep })))
}

/// The labels a job's source is recorded with: its labels and its `sweep`.
/// Made when needed, not kept with each file waiting to be parsed (a copy
/// of every file's labels held for an ingest of 30,000 files).
pub(super) fn source_labels(job: &Job) -> BTreeMap<String, Value> {
    let mut labels = (*job.labels).clone();
    if let Some(s) = &job.sweep {
        labels.insert("sweep".into(), Value::Text(s.clone()));
    }
    labels
}

/// Whether the run time stored with a source is the one its runs get now:
/// the one its path or a label fixes (`fixed`), else a time from git or the
/// file's mtime decided at the same HEAD.
pub(super) fn time_holds(s: &StoredSource, fixed: Option<&RunTime>, git: &GitView) -> bool {
    match fixed {
        Some(t) => s.time.as_ref() == Some(t),
        None => {
            s.time.as_ref().is_some_and(|t| t.origin == "git" || t.origin == "mtime")
                && s.seen.git_head.as_deref() == git.head()
        }
    }
}

/// A file's metadata, when the expansion did not bring it.
fn metadata(path: &Path, shown: &Path) -> Result<std::fs::Metadata> {
    std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::io(
            shown,
            std::io::Error::new(e.kind(), "no such file; check the path (globs and templates must be quoted)"),
        ),
        _ => Error::io(shown, e),
    })
}

pub(super) const HEAD_BYTES: usize = 256 * 1024;

/// A file modified this close to (or after) the moment it was read may have
/// changed again within the file system's timestamp granularity (git's
/// "racily clean" case): it is hashed again next time.
const RACY_NS: i64 = 2_000_000_000;

fn now_ns() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

/// How a file looks now, from its metadata (HEAD and the clock are the
/// caller's to add).
pub(super) fn seen_of(meta: &std::fs::Metadata) -> Seen {
    let ns = |t: std::io::Result<std::time::SystemTime>| {
        t.ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
    };
    #[cfg(unix)]
    let (ctime_ns, inode) = {
        use std::os::unix::fs::MetadataExt;
        // SQLite holds signed integers: the inode's bits are kept as they are.
        (Some(meta.ctime() * 1_000_000_000 + meta.ctime_nsec()), Some(i64::from_ne_bytes(meta.ino().to_ne_bytes())))
    };
    #[cfg(not(unix))]
    let (ctime_ns, inode) = (None, None);
    Seen { size: meta.len(), mtime_ns: ns(meta.modified()), ctime_ns, inode, checked_ns: None, git_head: None }
}

/// Whether the stored record of a file proves, from metadata alone, that
/// the file still holds the bytes that were ingested: same size, times and
/// inode, and not modified so close to when it was read that a later write
/// could hide within the timestamps' granularity.
pub(super) fn same_file(stored: &Seen, now: &Seen) -> bool {
    let racy = match (stored.mtime_ns, stored.checked_ns) {
        (Some(m), Some(c)) => m >= c - RACY_NS,
        _ => true,
    };
    !racy
        && stored.size == now.size
        && stored.mtime_ns == now.mtime_ns
        && stored.ctime_ns == now.ctime_ns
        && stored.inode == now.inode
}

/// What format detection sees of a file: its first bytes, and whether a
/// "Serving Benchmark Result" title appears anywhere in it (a console
/// log can hold any amount of noise before its first result block).
pub(super) struct Head {
    pub(super) bytes: Vec<u8>,
    pub(super) result_block_later: bool,
}

/// Hashes the whole file (streaming), keeps its first bytes for format
/// detection and looks for a result block's title in the rest as it goes
/// (the file is read whole for the hash anyway).
pub(super) fn hash_file(path: &Path, shown: &Path) -> Result<(String, Head)> {
    let mut file = File::open(path).map_err(|e| Error::io(shown, e))?;
    let mut hasher = blake3::Hasher::new();
    let mut head = Head { bytes: Vec::new(), result_block_later: false };
    let title = stdout::TITLE.as_bytes();
    let finder = regex::bytes::Regex::new(&regex::escape(stdout::TITLE)).ok();
    let mut buf = vec![0u8; 256 * 1024];
    // The end of the previous chunk, so a title cut between chunks is found.
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let n = file.read(&mut buf).map_err(|e| Error::io(shown, e))?;
        if n == 0 {
            break;
        }
        let chunk = &buf[..n];
        if head.bytes.len() < HEAD_BYTES {
            let take = n.min(HEAD_BYTES - head.bytes.len());
            head.bytes.extend_from_slice(&chunk[..take]);
        }
        if !head.result_block_later {
            if let Some(re) = &finder {
                carry.extend_from_slice(&chunk[..n.min(title.len())]);
                head.result_block_later = re.is_match(&carry) || re.is_match(chunk);
            }
        }
        carry.clear();
        carry.extend_from_slice(&chunk[n.saturating_sub(title.len())..]);
        hasher.update(chunk);
    }
    Ok((hasher.finalize().to_hex().to_string(), head))
}
