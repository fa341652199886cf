//! `reckon watch`: a loop over the library's stages while a sweep runs.
//! It watches the folders the `[[source]]` templates start from and the
//! documents (file events, debounced: the loop sleeps until one comes);
//! when logs arrive or change it ingests them, reviews, judges and lints the
//! documents again and prints what changed — claims and prose statements
//! whose verdict changed, with the measurement behind the new one, and
//! regions whose content moved. `--write` writes region updates as they
//! come (as `update --write` does, refusing a document changed since it was
//! read); `--serve` serves the reports on 127.0.0.1. Ctrl-C stops it.

mod changes;
mod paths;
mod serve;
mod state;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use notify_debouncer_mini::{new_debouncer, DebounceEventResult};

use super::project::{doc_paths, documents_needed, shown};
use crate::config::Config;
use crate::{Error, Result};
use changes::{changes, DocState};
use paths::Watches;
use serve::Site;
use state::{evaluate, ingest, Evaluation, Ingested};

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct WatchArgs {
    /// Documents (none: the `documents` of reckon.toml).
    pub(crate) docs: Vec<PathBuf>,
    /// Write region updates as they come (as `update --write`: never over a
    /// document changed since reckon read it, nor over a region edited by hand).
    #[arg(long)]
    pub(crate) write: bool,
    /// Serve the HTML reports on 127.0.0.1, on PORT or one the system picks
    /// (printed); the page reloads itself when a report changes.
    #[arg(long, value_name = "PORT", num_args = 0..=1, default_missing_value = "0")]
    pub(crate) serve: Option<u16>,
}

/// What wakes the loop.
enum Wake {
    Files(DebounceEventResult),
    Stop,
}

/// How long file events are gathered before the loop wakes: a sweep
/// appending line by line wakes it about twice a second, not per line.
const DEBOUNCE: Duration = Duration::from_millis(400);

pub(super) fn run(cfg: &Config, cwd: &Path, args: &WatchArgs) -> Result<i32> {
    let given = documents_needed(cfg, &args.docs, "watch")?;
    let (tx, rx) = mpsc::channel::<Wake>();
    let stop = tx.clone();
    ctrlc::set_handler(move || {
        let _ = stop.send(Wake::Stop);
    })
    .map_err(|e| Error::usage(format!("reckon watch: cannot catch Ctrl-C: {e}")))?;
    let mut debouncer = new_debouncer(DEBOUNCE, move |events| {
        let _ = tx.send(Wake::Files(events));
    })
    .map_err(|e| Error::usage(format!("reckon watch: cannot watch files: {e}")))?;
    let mut watches = Watches::new(cfg);
    let mut docs = current_documents(cfg, cwd, args, &given);
    watches.refresh(debouncer.watcher(), &docs)?;
    let ingested = ingest(cfg, cwd)?;
    let mut now = evaluate(cfg, cwd, &docs, args.serve.is_some())?;
    let site = args.serve.map(|port| Site::start(port, now.pages.clone())).transpose()?;
    say_start(cwd, &watches, &ingested, &now, site.as_ref())?;
    if args.write {
        write_updates(&now, cwd)?;
    }
    while let Ok(first) = rx.recv() {
        let mut paths = Vec::new();
        let mut stopping = false;
        for wake in std::iter::once(first).chain(rx.try_iter()) {
            match wake {
                Wake::Stop => stopping = true,
                Wake::Files(Ok(events)) => paths.extend(events.into_iter().map(|e| e.path)),
                Wake::Files(Err(e)) => say!("error: reckon watch: {e}"),
            }
        }
        if stopping {
            break;
        }
        docs = current_documents(cfg, cwd, args, &given);
        let touched = watches.touched(&paths, &docs);
        if !touched.logs && touched.docs.is_empty() {
            continue;
        }
        if let Err(e) = watches.refresh(debouncer.watcher(), &docs) {
            say!("error: {}", super::shown_error(&e));
        }
        let turn = Turn { cfg, cwd, docs: &docs, args, site: site.as_ref() };
        match turn.run(touched.logs, &touched.docs, &now) {
            Ok(Some(next)) => now = next,
            Ok(None) => {}
            Err(e) => say!("error: {}", super::shown_error(&e)),
        }
    }
    drop(debouncer);
    if let Some(site) = site {
        site.stop();
    }
    // The last connection was a reader, which leaves the database's journal
    // beside it; a writer closing folds it back in and removes it.
    if cfg.database.exists() {
        drop(crate::store::Store::open(&cfg.database, cfg.store_limits())?);
    }
    super::stdout_write(&format!("{} reckon watch: stopped\n", clock()))?;
    Ok(super::OK)
}

/// The documents watched, absolute: those given, else reckon.toml's as
/// they are now (a document matching `documents` may appear meanwhile).
fn current_documents(cfg: &Config, cwd: &Path, args: &WatchArgs, given: &[PathBuf]) -> Vec<PathBuf> {
    let docs =
        if args.docs.is_empty() { cfg.document_paths().unwrap_or_else(|_| given.to_vec()) } else { given.to_vec() };
    doc_paths(cwd, &docs)
}

/// One wake-up that may have changed what the documents say.
struct Turn<'a> {
    cfg: &'a Config,
    cwd: &'a Path,
    docs: &'a [PathBuf],
    args: &'a WatchArgs,
    site: Option<&'a Site>,
}

impl Turn<'_> {
    /// Ingests (when logs were touched), evaluates again when anything
    /// moved, and says what changed; returns the new state (None: nothing moved).
    fn run(
        &self,
        logs: bool,
        touched_docs: &std::collections::BTreeSet<PathBuf>,
        now: &Evaluation,
    ) -> Result<Option<Evaluation>> {
        let ingested = if logs { ingest(self.cfg, self.cwd)? } else { Ingested::default() };
        let time = clock();
        let mut out = String::new();
        for line in &ingested.lines {
            let _ = writeln!(out, "{time} {line}");
        }
        if ingested.changed.is_empty() && touched_docs.is_empty() {
            super::stdout_write(&out)?;
            return Ok(None);
        }
        let next = evaluate(self.cfg, self.cwd, self.docs, self.site.is_some())?;
        let trigger = trigger(&ingested.changed, touched_docs, self.cwd);
        for new in &next.states {
            let before = now.states.iter().find(|o| o.path == new.path);
            let lines = match before {
                Some(old) => changes(old, new),
                None => vec![format!("now watched; {}", new.summary())],
            };
            for line in lines {
                let _ = writeln!(out, "{time} {trigger}: {line}");
            }
        }
        super::stdout_write(&out)?;
        if self.args.write {
            write_updates(&next, self.cwd)?;
        }
        if let Some(site) = self.site {
            site.update(next.pages.clone());
        }
        Ok(Some(next))
    }
}

/// What set a turn off, as a line starts: the log that changed (and how
/// many more), else the document.
fn trigger(logs: &[String], docs: &std::collections::BTreeSet<PathBuf>, cwd: &Path) -> String {
    let names: Vec<String> = if logs.is_empty() {
        docs.iter().map(|d| crate::escape::terminal(&shown(cwd, d))).collect()
    } else {
        logs.to_vec()
    };
    match names.as_slice() {
        [] => "reckon watch".to_string(),
        [one] => one.clone(),
        [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
    }
}

/// Writes each document whose regions the data moved, as `update --write`
/// writes it (refused when it changed since it was read, or a region was
/// edited by hand); says each one written.
fn write_updates(now: &Evaluation, cwd: &Path) -> Result<()> {
    let mut out = String::new();
    for r in now.reviews.iter().filter(|r| !r.is_current()) {
        if super::update::write_unless_edited(r, cwd, false) {
            let _ = writeln!(out, "{} wrote {}", clock(), crate::escape::terminal(&r.path.display().to_string()));
        }
    }
    super::stdout_write(&out)
}

/// The state line at start: what is watched, each document's verdicts,
/// the address served.
fn say_start(cwd: &Path, watches: &Watches, ingested: &Ingested, now: &Evaluation, site: Option<&Site>) -> Result<()> {
    let time = clock();
    let folders: Vec<String> = watches.roots().iter().map(|r| crate::escape::terminal(&shown(cwd, r))).collect();
    let logs = if folders.is_empty() {
        format!("no [[source]] in {}: documents only", crate::config::FILE_NAME)
    } else {
        format!("logs under {}", folders.join(", "))
    };
    let mut out = format!(
        "{time} reckon watch: {} document(s), {logs}; {} log(s) read now ({} run(s)); Ctrl-C stops\n",
        now.states.len(),
        ingested.files,
        ingested.runs
    );
    for s in &now.states {
        let _ = writeln!(out, "{time} {}", DocState::summary(s));
    }
    if let Some(site) = site {
        let _ = writeln!(out, "{time} serving the report at http://{}/", site.addr);
    }
    super::stdout_write(&out)
}

/// The time a line is said at, as a researcher reads a clock.
fn clock() -> String {
    chrono::Local::now().format("%H:%M").to_string()
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn serve_takes_a_port_or_none_and_documents_are_optional() {
        let Command::Watch(a) = parse(&["watch"]).unwrap().command else { panic!("not watch") };
        assert!(a.docs.is_empty() && !a.write && a.serve.is_none());
        let Command::Watch(a) = parse(&["watch", "plan.md", "--serve"]).unwrap().command else { panic!("not watch") };
        assert_eq!((a.docs.len(), a.serve), (1, Some(0)));
        let Command::Watch(a) = parse(&["watch", "--serve", "8123", "--write", "a.md"]).unwrap().command else {
            panic!("not watch")
        };
        assert_eq!((a.docs.len(), a.serve, a.write), (1, Some(8123), true));
        assert!(parse(&["watch", "--serve", "http"]).is_err());
    }
}
