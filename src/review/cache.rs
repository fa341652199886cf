//! What a region or claim evaluated to, kept in the database's evaluation
//! cache (`store::evaluations`) so that a check of an unchanged project —
//! only prose edited — evaluates nothing it evaluated before.
//!
//! A region's key is a digest of everything that decides its outcome: the
//! exact text of its opening marker (its kind, arguments and, for a claim,
//! its statement), the document's path in the project (plots are named
//! after the document and written beside it), the resolved settings of
//! reckon.toml, reckon's build, and the data generation, which moves
//! whenever the data do. What is kept is what the region evaluated to: a
//! region's new content and the plot files it draws, a claim's verdict with
//! what `check` prints of it. A hit is taken as that outcome and goes
//! through the review exactly as an evaluated one does (its content spliced
//! and compared, its plot compared with the file on disk).
//!
//! Not kept: `sql` regions (a query may read anything in the database, not
//! only the data the generation follows — and they need no dataset anyway),
//! `template` regions (their output depends on files under `templates/`),
//! regions whose arguments are wrong and anything that failed (evaluated
//! again, so the error is said as it is today). A claim served from the
//! cache carries no clauses: only a command that prints none may ask for
//! claims ([`Cache::new`]'s `claims`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::claims::judge::ClaimReport;
use crate::claims::Verdict;
use crate::config::Config;
use crate::doc::{Kind, Region};
use crate::render::Rendered;
use crate::store::{EvaluationKey, Store};

/// The evaluation cache of one command's store.
pub struct Cache<'s> {
    store: &'s Store,
    generation: i64,
    /// What every key shares: the build, the settings, the generation.
    base: blake3::Hasher,
    /// Claims may be served: the command prints none of a claim's clauses.
    claims: bool,
    /// Every outcome read so far, by key (None: a miss): a region asked
    /// about twice in a command gets one answer, whatever another process
    /// writes meanwhile.
    read: RefCell<HashMap<EvaluationKey, Option<Vec<u8>>>>,
    kept: RefCell<Vec<(EvaluationKey, Vec<u8>)>>,
}

/// What a hit stands for.
pub(crate) enum Entry {
    Render(Rendered),
    Claim(ClaimReport),
}

impl<'s> Cache<'s> {
    /// The cache of `store` for a command of reckon `build` (its version,
    /// and whatever tells its builds apart) over the project `cfg`; None
    /// when the store has no file to keep it in or its generation cannot be
    /// read. `claims`: whether claims may be served (see the module).
    pub fn new(store: &'s Store, build: &str, cfg: &Config, claims: bool) -> Option<Cache<'s>> {
        if store.path().as_os_str() == ":memory:" {
            return None;
        }
        let generation = store.generation().ok()?;
        // The settings as resolved, without where the project lies: a
        // staged check reads the same project from a copy.
        let mut settings = cfg.clone();
        settings.root = PathBuf::new();
        settings.file = None;
        settings.database = PathBuf::new();
        let mut base = blake3::Hasher::new();
        part(&mut base, b"reckon evaluation cache 1");
        part(&mut base, build.as_bytes());
        part(&mut base, format!("{settings:?}").as_bytes());
        part(&mut base, &generation.to_le_bytes());
        Some(Cache { store, generation, base, claims, read: RefCell::default(), kept: RefCell::default() })
    }

    /// The key of `region` of the document at `path` (whose text is
    /// `text`) in the project at `root`; None when its kind is not kept.
    pub(crate) fn key(&self, root: &Path, path: &Path, text: &str, region: &Region) -> Option<EvaluationKey> {
        let kept = match region.kind {
            Kind::Claim => self.claims,
            Kind::Table | Kind::Value | Kind::Plot | Kind::Diff => region.spec.is_ok(),
            Kind::Sql | Kind::Template => false,
        };
        if !kept {
            return None;
        }
        let mut h = self.base.clone();
        part(&mut h, path.strip_prefix(root).unwrap_or(path).as_os_str().as_encoded_bytes());
        part(&mut h, region.kind.name().as_bytes());
        part(&mut h, text.get(region.open.clone())?.as_bytes());
        if let Some(s) = &region.statement {
            part(&mut h, s.text.as_bytes());
        }
        Some(*h.finalize().as_bytes())
    }

    /// The outcome kept under `key`, for a region of the document in
    /// `doc_dir` at `line`; None on a miss (or an entry this reckon cannot
    /// read: evaluated again).
    pub(crate) fn look_up(&self, key: &EvaluationKey, doc_dir: &Path, line: usize) -> Option<Entry> {
        let mut read = self.read.borrow_mut();
        let bytes = read.entry(*key).or_insert_with(|| self.store.evaluation(key).ok().flatten());
        decode(bytes.as_deref()?, doc_dir, line)
    }

    /// Keeps what a region evaluated to, to be written by [`Cache::write`].
    pub(crate) fn keep(&self, key: EvaluationKey, doc_dir: &Path, entry: &Entry) {
        if let Some(bytes) = encode(entry, doc_dir) {
            self.kept.borrow_mut().push((key, bytes));
        }
    }

    /// The data generation the cache was opened at.
    pub fn generation(&self) -> i64 {
        self.generation
    }

    /// Writes what was kept into the database (at `db`, opened for writing
    /// on a connection of its own). Never fails the command: a cache that
    /// cannot be written is evaluated again next time.
    pub fn write(self, db: &Path) {
        let kept = self.kept.into_inner();
        let _ = crate::store::keep_evaluations(db, self.generation, &kept);
    }
}

/// Adds one length-prefixed part to a digest, so no two lists of parts
/// digest alike.
fn part(h: &mut blake3::Hasher, bytes: &[u8]) {
    h.update(&(bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

const RENDER: u8 = 1;
const CLAIM: u8 = 2;

/// An entry as bytes: a tag, then its fields, each string its length and
/// its UTF-8. None for a plot drawn outside the document's folder (its path
/// could not be said relative to it).
fn encode(entry: &Entry, doc_dir: &Path) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    match entry {
        Entry::Render(r) => {
            out.push(RENDER);
            text(&mut out, &r.content);
            count(&mut out, r.files.len());
            for (file, svg) in &r.files {
                let rel = file.strip_prefix(doc_dir).ok()?;
                // Exactly the path the renderer gave, when joined again.
                if doc_dir.join(rel).as_os_str() != file.as_os_str() {
                    return None;
                }
                text(&mut out, rel.to_str()?);
                text(&mut out, svg);
            }
        }
        Entry::Claim(c) => {
            out.push(CLAIM);
            text(&mut out, &c.id);
            text(&mut out, &c.statement);
            out.push(verdict_byte(c.verdict));
            text(&mut out, &c.summary);
            for o in [&c.superseded, &c.note, &c.data_date] {
                maybe(&mut out, o.as_deref());
            }
        }
    }
    Some(out)
}

fn decode(bytes: &[u8], doc_dir: &Path, line: usize) -> Option<Entry> {
    let mut r = Reader(bytes);
    let entry = match r.byte()? {
        RENDER => {
            let content = r.text()?;
            let files = (0..r.count()?)
                .map(|_| Some((doc_dir.join(r.text()?), r.text()?)))
                .collect::<Option<Vec<(PathBuf, String)>>>()?;
            Entry::Render(Rendered { content, files, trace: crate::render::Trace::default() })
        }
        CLAIM => {
            let (id, statement, verdict, summary) = (r.text()?, r.text()?, byte_verdict(r.byte()?)?, r.text()?);
            let [mut superseded, mut note, mut data_date] = [None, None, None];
            for o in [&mut superseded, &mut note, &mut data_date] {
                r.maybe(o)?;
            }
            let clauses = Vec::new();
            Entry::Claim(ClaimReport { id, line, statement, verdict, summary, clauses, superseded, note, data_date })
        }
        _ => return None,
    };
    r.0.is_empty().then_some(entry)
}

fn verdict_byte(v: Verdict) -> u8 {
    match v {
        Verdict::Holds => 0,
        Verdict::Contradicted => 1,
        Verdict::Inconclusive => 2,
        Verdict::NoData => 3,
    }
}

fn byte_verdict(b: u8) -> Option<Verdict> {
    [Verdict::Holds, Verdict::Contradicted, Verdict::Inconclusive, Verdict::NoData].get(usize::from(b)).copied()
}

fn count(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(&(n as u64).to_le_bytes());
}

fn text(out: &mut Vec<u8>, s: &str) {
    count(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

fn maybe(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        None => out.push(0),
        Some(s) => {
            out.push(1);
            text(out, s);
        }
    }
}

/// Reads what [`encode`] wrote; None at anything else.
struct Reader<'b>(&'b [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn count(&mut self) -> Option<usize> {
        let b: [u8; 8] = self.take(8)?.try_into().ok()?;
        usize::try_from(u64::from_le_bytes(b)).ok()
    }

    fn text(&mut self) -> Option<String> {
        let n = self.count()?;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }

    /// Reads a text that may be absent into `into`; None when the bytes
    /// are not one.
    fn maybe(&mut self, into: &mut Option<String>) -> Option<()> {
        *into = match self.byte()? {
            0 => None,
            1 => Some(self.text()?),
            _ => return None,
        };
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_back_as_written() {
        let dir = Path::new("/p/notebooks");
        let rendered = Rendered {
            content: "| a |\n|---|\n| é 1 |\n".into(),
            files: vec![(dir.join("plots/x.svg"), "<svg/>".into())],
            trace: crate::render::Trace::default(),
        };
        let bytes = encode(&Entry::Render(rendered.clone()), dir).unwrap();
        let Some(Entry::Render(back)) = decode(&bytes, dir, 3) else { panic!("not a region") };
        assert_eq!(back, rendered);
        // Moved with its document: the plot is beside it still.
        let Some(Entry::Render(moved)) = decode(&bytes, Path::new("/q"), 3) else { panic!("not a region") };
        assert_eq!(moved.files[0].0, Path::new("/q/plots/x.svg"));
        // A plot the document's folder does not hold is not kept.
        let outside = Rendered { files: vec![(PathBuf::from("/elsewhere/x.svg"), String::new())], ..rendered };
        assert!(encode(&Entry::Render(outside), dir).is_none());

        let claim = ClaimReport {
            id: "c1".into(),
            line: 7,
            statement: "eagle beats baseline on output_throughput".into(),
            verdict: Verdict::Contradicted,
            summary: "contradicted: …".into(),
            clauses: Vec::new(),
            superseded: None,
            note: Some("> [!WARNING]\n> no".into()),
            data_date: Some("2026-11-29".into()),
        };
        let bytes = encode(&Entry::Claim(claim.clone()), dir).unwrap();
        let Some(Entry::Claim(back)) = decode(&bytes, dir, 7) else { panic!("not a claim") };
        assert_eq!(back, claim);
        // Cut short or with bytes after it: not an entry.
        assert!(decode(&bytes[..bytes.len() - 1], dir, 7).is_none());
        assert!(decode(&[bytes.as_slice(), &[0]].concat(), dir, 7).is_none());
        assert!(decode(&[9], dir, 7).is_none());
    }
}
