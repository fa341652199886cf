//! Evaluating a document's regions: each region's outcome, by region, as if
//! they had been evaluated one after the other in document order.
//!
//! `sql` regions read the database and nothing else, so they run on their
//! own read-only connections on other cores while this thread renders the
//! regions that read the dataset (which is not shared between threads) and
//! judges the claims; when it is done it takes the `sql` regions no other
//! thread has started. Outcomes are kept by region index, so what the
//! caller sees — contents, files, claim verdicts and which error comes
//! first — does not depend on which thread finished when. Once a region
//! fails, later regions are not started (and running queries of later
//! `sql` regions are stopped): in document order that failure is reported
//! first, and nothing after it is looked at.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::Context;
use crate::claims::judge::ClaimReport;
use crate::doc::{self, RegionError, RegionSpec};
use crate::render::{self, sql, Rendered};
use crate::store::Store;
use crate::Result;

/// What one region asks for.
pub(crate) enum Job<'d> {
    /// A claim to judge.
    Claim,
    /// A region to render, by its spec.
    Render(&'d RegionSpec),
    /// A region whose arguments are wrong: the error, in its place.
    Refused(&'d RegionError),
}

/// What came of one region.
pub(crate) enum Outcome {
    Claim(Result<ClaimReport>),
    Render(std::result::Result<Rendered, RegionError>),
}

/// At most this many extra connections run `sql` regions: each holds its
/// own page cache and sort buffer (about 2 MiB each at `SQLite`'s defaults)
/// for as long as it runs, and issue 10 keeps a check at 1M values under
/// 30 MiB.
const MAX_SQL_READERS: usize = 2;

/// How many threads beside this one run `sql` regions: one per spare core,
/// no more than there are `sql` regions.
pub(crate) fn sql_threads(store: &Store, jobs: &[Job]) -> usize {
    let sql = jobs.iter().filter(|j| is_sql(j)).count();
    if sql == 0 || store.path().as_os_str() == ":memory:" {
        return 0;
    }
    let spare = std::thread::available_parallelism().map_or(1, std::num::NonZero::get).saturating_sub(1);
    spare.min(sql).min(MAX_SQL_READERS)
}

/// Each region's outcome, by index; `None` for regions after one that
/// failed (never needed: the failure comes first in document order).
/// `threads` extra threads run the `sql` regions (0: all on this thread).
/// `slots` holds the outcomes known already (from the evaluation cache):
/// those regions are not evaluated again.
pub(crate) fn outcomes(
    ctx: &Context,
    render_ctx: &render::Context,
    parsed: &doc::Document,
    text: &str,
    jobs: &[Job],
    threads: usize,
    mut slots: Vec<Option<Outcome>>,
) -> Vec<Option<Outcome>> {
    let sql: Vec<usize> = jobs.iter().enumerate().filter(|(_, j)| is_sql(j)).map(|(i, _)| i).collect();
    let shared = Shared { sql: &sql, jobs, next: AtomicUsize::new(0), failed: Arc::new(AtomicUsize::new(usize::MAX)) };
    let (db, limits, settings) = (render_ctx.store.path(), render_ctx.store.limits(), render_ctx.settings);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    // Without a connection of its own this thread takes no
                    // region; the ones left are run below on the main one.
                    let Ok(Some(reader)) = Store::open_reader(db, limits) else { return Vec::new() };
                    shared.take_sql(&reader, settings)
                })
            })
            .collect();
        for (i, job) in jobs.iter().enumerate() {
            if is_sql(job) || slots[i].is_some() {
                continue;
            }
            if i > shared.failed.load(Ordering::SeqCst) {
                break;
            }
            let outcome = one(ctx, render_ctx, parsed, text, i, job);
            shared.settle(i, &outcome);
            slots[i] = Some(outcome);
        }
        // With threads of their own running the sql regions, this one runs
        // none: two big sorts at once would double the memory a check holds
        // (a region a thread could not run is run by the caller).
        let mut done = if threads == 0 { shared.take_sql(render_ctx.store, settings) } else { Vec::new() };
        for worker in workers {
            // A worker that panicked leaves its regions unset; they are
            // evaluated again on this thread by the caller.
            done.extend(worker.join().unwrap_or_default());
        }
        for (i, outcome) in done {
            slots[i] = Some(Outcome::Render(outcome));
        }
    });
    slots
}

fn is_sql(job: &Job) -> bool {
    matches!(job, Job::Render(RegionSpec::Sql(_)))
}

/// Evaluates one region on this thread.
pub(crate) fn one(
    ctx: &Context,
    render_ctx: &render::Context,
    parsed: &doc::Document,
    text: &str,
    i: usize,
    job: &Job,
) -> Outcome {
    match job {
        Job::Claim => Outcome::Claim(super::claim::judge_region(ctx, parsed, text, &parsed.regions[i])),
        Job::Render(spec) => {
            let stem = parsed.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            Outcome::Render(render::render_in(render_ctx, spec, Some(&stem)))
        }
        Job::Refused(e) => Outcome::Render(Err((*e).clone())),
    }
}

/// What the threads evaluating one document share.
struct Shared<'j, 'd> {
    /// The indices of the `sql` regions, in document order.
    sql: &'j [usize],
    jobs: &'j [Job<'d>],
    /// The next of `sql` no thread has taken.
    next: AtomicUsize,
    /// The lowest index of a region that failed to render (`usize::MAX`:
    /// none). Regions after it are not needed.
    failed: Arc<AtomicUsize>,
}

impl Shared<'_, '_> {
    /// Records a region's failure (a claim's error does not stop the
    /// others: every claim is judged).
    fn settle(&self, i: usize, outcome: &Outcome) {
        if matches!(outcome, Outcome::Render(Err(_))) {
            self.failed.fetch_min(i, Ordering::SeqCst);
        }
    }

    /// Runs `sql` regions no thread has taken yet, on `store`'s connection,
    /// until none is left or the rest come after a failed region.
    fn take_sql(
        &self,
        store: &Store,
        settings: &render::Settings,
    ) -> Vec<(usize, std::result::Result<Rendered, RegionError>)> {
        let mut done = Vec::new();
        while let Some(&i) = self.sql.get(self.next.fetch_add(1, Ordering::SeqCst)) {
            if i > self.failed.load(Ordering::SeqCst) {
                break;
            }
            let Job::Render(RegionSpec::Sql(spec)) = &self.jobs[i] else { continue };
            let failed = self.failed.clone();
            let stop = sql::Stop::when(move || i > failed.load(Ordering::Relaxed));
            let outcome = sql::render_on(store.connection(), settings, spec, &stop);
            // Stopped because an earlier region failed: not needed.
            if i > self.failed.load(Ordering::SeqCst) {
                break;
            }
            if outcome.is_err() {
                self.failed.fetch_min(i, Ordering::SeqCst);
            }
            done.push((i, outcome));
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::Config;
    use crate::query::Dataset;
    use crate::review::document::{review_with_threads, DocReview};
    use crate::review::Context;
    use crate::run::Value;
    use crate::store::builder::StoreBuilder;
    use crate::store::Store;

    /// A database on disk (so other threads can open it): baseline and
    /// eagle at three concurrencies, in two sweeps.
    fn store(dir: &Path) -> Store {
        let mut builder =
            StoreBuilder::on(Store::open(&dir.join("reckon.sqlite"), crate::store::Limits::default()).unwrap());
        for (source, time, gain) in [("old", "2026-11-20T09:00:00Z", 1.0), ("new", "2026-11-29T14:00:00Z", 1.1)] {
            let mut runs: Vec<(Vec<(&str, Value)>, f64)> = Vec::new();
            for c in [1.0, 8.0, 30.0] {
                let at =
                    |config: &str| vec![("config", Value::Text(config.into())), ("max_concurrency", Value::Num(c))];
                runs.push((at("baseline"), 90.0 * c * gain));
                runs.push((at("eagle"), 110.0 * c * gain / (1.0 + c / 20.0)));
            }
            builder = builder.source(source, time, &runs);
        }
        builder.build()
    }

    const TABLE: &str = "<!-- reckon:table metric=output_throughput rows=max_concurrency digits=1 -->\n\
                         <!-- /reckon:table -->\n";

    /// A claim with id `c{k}`: it holds at concurrency 1, not at 30.
    fn claim(k: usize) -> String {
        let c = [1, 8, 30][k % 3];
        format!(
            "<!-- reckon:claim id=c{k} eagle beats baseline on output_throughput at max_concurrency = {c} -->\n\
             Eagle wins.\n<!-- /reckon:claim -->\n"
        )
    }

    fn sql(query: &str) -> String {
        format!("<!-- reckon:sql query=\"{query}\" -->\n<!-- /reckon:sql -->\n")
    }

    /// Reviews `text` as the document `doc.md` in `dir`, the `sql` regions
    /// run by `threads` threads beside this one.
    fn review(dir: &Path, store: &Store, text: &str, threads: usize) -> crate::Result<DocReview> {
        let path = dir.join("doc.md");
        std::fs::write(&path, text).unwrap();
        let dataset = Dataset::load(store).unwrap();
        let cfg = Config::defaults(dir);
        let ctx = Context { dataset: &dataset, store, cfg: &cfg, doc_dir: dir, cache: None };
        review_with_threads(&ctx, &path, threads)
    }

    #[test]
    fn sql_regions_beside_the_others_change_nothing_in_the_review() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path());
        let mut text = String::from("# Study\n\n");
        for k in 0..6 {
            text.push_str(TABLE);
            text.push_str(&sql(&format!(
                "SELECT sweep, count(*) AS runs, {k} AS k FROM run GROUP BY sweep ORDER BY sweep"
            )));
            text.push_str(&claim(k));
            text.push_str(&sql("SELECT name FROM metric ORDER BY name"));
        }
        let alone = review(dir.path(), &store, &text, 0).unwrap();
        // Each region's own result, in document order (an independent
        // reading: the k-th sql table carries k).
        let at = |k: usize| alone.updated.find(&format!("| 2026-11-29 | 6 | {k} |")).expect("the k-th sql region");
        assert!((1..6).all(|k| at(k - 1) < at(k)), "{}", alone.updated);
        assert_eq!(alone.claims.len(), 6);
        let lines: Vec<usize> = alone.claims.iter().map(|c| c.line).collect();
        assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
        assert!(alone.claims[0].summary.contains("holds"), "{}", alone.claims[0].summary);
        assert!(alone.claims[2].summary.contains("contradicted"), "{}", alone.claims[2].summary);
        for threads in [1, 2, 5] {
            let beside = review(dir.path(), &store, &text, threads).unwrap();
            assert_eq!(beside.updated, alone.updated, "{threads} threads");
            assert_eq!(beside.replacements, alone.replacements, "{threads} threads");
            assert_eq!(beside.stale, alone.stale, "{threads} threads");
            let verdicts = |r: &DocReview| r.claims.iter().map(|c| (c.line, c.summary.clone())).collect::<Vec<_>>();
            assert_eq!(verdicts(&beside), verdicts(&alone), "{threads} threads");
        }
    }

    /// The error of a document is that of its first failing region, at its
    /// line, whichever thread found which failure first.
    #[test]
    fn the_first_failing_region_in_the_document_is_the_error() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path());
        let bad_table = "<!-- reckon:table metric=no_such_metric rows=max_concurrency -->\n<!-- /reckon:table -->\n";
        let cases = [
            // An sql region fails first (line 3), a table after it (line 7).
            (format!("{TABLE}{}{TABLE}{bad_table}", sql("SELECT * FROM no_such_table")), 3, "no such table"),
            // A table fails first (line 3); a failing sql region follows.
            (format!("{TABLE}{bad_table}{}{}", sql("SELECT 1"), sql("PRAGMA user_version")), 3, "no_such_metric"),
            // Two sql regions fail; the first one (line 5) is the error.
            (
                format!("{TABLE}{}{}{}", sql("SELECT 1"), sql("PRAGMA user_version"), sql("SELECT * FROM nope")),
                5,
                "PRAGMA",
            ),
        ];
        for (text, line, what) in cases {
            for threads in [0, 1, 3] {
                for _ in 0..5 {
                    let err = review(dir.path(), &store, &text, threads).unwrap_err().to_string();
                    assert!(err.contains(&format!("doc.md:{line}:")), "{threads} threads: {err}");
                    assert!(err.contains(what), "{threads} threads: {err}");
                }
            }
        }
    }

    /// A claim that cannot be judged does not stop the regions after it,
    /// and its error is reported with the others' verdicts judged, as
    /// without threads.
    #[test]
    fn a_bad_claim_is_reported_after_every_region_renders() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path());
        let bad_claim =
            "<!-- reckon:claim id=c2 eagle beats baseline on no_such_metric -->\nx\n<!-- /reckon:claim -->\n";
        let text = format!("{bad_claim}{}{TABLE}{}", sql("SELECT 1 AS one"), claim(1));
        for threads in [0, 2] {
            let err = review(dir.path(), &store, &text, threads).unwrap_err().to_string();
            assert!(err.contains("doc.md:1:") && err.contains("no_such_metric"), "{threads} threads: {err}");
        }
        // A failing sql region after the bad claim is the error instead.
        let text = format!("{bad_claim}{}{TABLE}", sql("SELECT * FROM nope"));
        for threads in [0, 2] {
            let err = review(dir.path(), &store, &text, threads).unwrap_err().to_string();
            assert!(err.contains("doc.md:4:") && err.contains("no such table"), "{threads} threads: {err}");
        }
    }
}
