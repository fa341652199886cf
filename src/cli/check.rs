//! `reckon check`: like update without writing; exit 1 when a region is
//! stale or a claim contradicted. `--staged` checks what a commit is about
//! to record (the pre-commit hook).

use std::path::{Path, PathBuf};

use super::project::{
    documents, expect_documents, load_for_command, open_each, prepare_with, relative_error, review_opened, shown,
};
use super::reporter::lint::Statement;
use super::reporter::{json, reporter, CheckFindings};
use super::CheckOutput;
use crate::config::{Config, LintLevel};
use crate::query::Dataset;
use crate::report::ci::RepoPaths;
use crate::review::cache::Cache;
use crate::review::check::{by_severity, document_problems, lint_problems, Level, Problem};
use crate::review::document::DocReview;
use crate::review::Context;
use crate::store::Store;
use crate::{sources, Error, Result};

// Each bool is an independent command-line flag (clap derives one per field).
#[allow(clippy::struct_excessive_bools)]
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct CheckArgs {
    /// Markdown documents (none: the `documents` of reckon.toml). With
    /// --staged: the staged paths, as a hook passes them after `--`.
    pub(crate) docs: Vec<PathBuf>,
    /// Check what is staged for commit, not the working tree: run when a
    /// staged path is a document, a log a [[source]] matches, or reckon.toml,
    /// and then check every configured document. Prints one line per problem.
    #[arg(long)]
    pub(crate) staged: bool,
    /// Also print the diff of what `update --write` would change (the
    /// default without --staged).
    #[arg(long)]
    pub(crate) diff: bool,
    /// How to print what was found (with `$GITHUB_STEP_SUMMARY` set, a
    /// markdown summary is also appended to that file, whatever the format).
    #[arg(long, value_enum, default_value_t = CheckOutput::Human)]
    pub(crate) format: CheckOutput,
    /// Also fail on claims that are inconclusive or have no data.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Do not ingest the sources of reckon.toml first: the database is read
    /// as it is, without looking at any log.
    #[arg(long)]
    pub(crate) no_ingest: bool,
    /// Evaluate every region and claim, ignoring what the database's
    /// evaluation cache kept of earlier checks (and keeping nothing new).
    /// The output is the same either way; this is for when you doubt it.
    #[arg(long)]
    pub(crate) no_cache: bool,
}

pub(super) fn run(cfg: &Config, cwd: &Path, args: &CheckArgs) -> Result<i32> {
    if args.staged {
        crate::staged::require_repository(cwd)?;
        if cfg.file.is_some() {
            return check_staged(cfg, cwd, args);
        }
        // No reckon.toml here or above (a hook runs at the top of a
        // repository whose reckon projects live in subfolders): each staged
        // path's project is found from its folder, and each is checked.
        let mut code = super::OK;
        for project in projects_of(cwd, &args.docs)? {
            let mut project_cfg = Config::load(&project)?;
            if cfg.database != Config::defaults(&cfg.root).database {
                project_cfg.database.clone_from(&cfg.database); // --db given
            }
            code = code.max(check_staged(&project_cfg, cwd, args)?);
        }
        return Ok(code);
    }
    if cfg.file.is_none() && args.docs.is_empty() {
        return Err(super::project::no_project(cwd, "check"));
    }
    let docs = documents(cfg, &args.docs)?;
    let how = How { opts: sources::Options::default(), compact: false, what: "", staged_from: None, kept_in: None };
    check_documents(cfg, cwd, &docs, args, how)
}

/// The reckon.toml files of the projects the staged paths (given, else
/// asked of git) lie in, found by walking up from each path's folder to
/// `cwd`.
fn projects_of(cwd: &Path, given: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let changed = crate::staged::changed_paths(cwd, cwd, given)?;
    let mut found = std::collections::BTreeSet::new();
    for rel in changed {
        let mut dir = cwd.join(&rel).parent().map(Path::to_path_buf);
        while let Some(d) = dir.filter(|d| d.starts_with(cwd)) {
            let candidate = d.join(crate::config::FILE_NAME);
            if candidate.is_file() {
                found.insert(candidate);
                break;
            }
            dir = d.parent().map(Path::to_path_buf);
        }
    }
    Ok(found.into_iter().collect())
}

/// `check --staged`: what a commit is about to record. Skipped (exit 0)
/// when no staged path is something reckon reads; otherwise every document
/// is checked as staged.
fn check_staged(cfg: &Config, cwd: &Path, args: &CheckArgs) -> Result<i32> {
    let changed = crate::staged::changed_paths(&cfg.root, cwd, &args.docs)?;
    let staged_cfg = crate::staged::staged_config(cfg)?;
    if !crate::staged::touches(cfg, &staged_cfg, &changed) {
        super::stdout_write(&nothing_checked(args.format))?;
        return Ok(super::OK);
    }
    // Bring the database up to date with the working tree first (what any
    // check does), so the staged copy starts from it and reads only the
    // files whose staged content differs.
    if !args.no_ingest && !cfg.sources.is_empty() {
        let log_shown = |p: &Path| PathBuf::from(shown(cwd, &cfg.root.join(p)));
        let (store, _) = prepare_with(cfg, false, sources::Options::default(), Some(&log_shown))?;
        drop(store);
    }
    let tree = crate::staged::export(cfg, &staged_cfg)?;
    let mut kept_in = None;
    if cfg.database.exists() {
        let store = Store::open(&cfg.database, cfg.store_limits())?;
        store.copy_to(&tree.cfg.database)?;
        kept_in = store.generation().ok().map(|g| (cfg.database.clone(), g));
    }
    let root = tree.root().to_path_buf();
    let mut docs = tree.cfg.document_paths()?;
    if tree.cfg.documents.is_empty() {
        // No documents configured: the staged markdown files.
        let markdown = |p: &&String| crate::doc::has_document_extension(Path::new(p.as_str()));
        docs = changed.iter().filter(markdown).map(|p| root.join(p)).filter(|p| p.is_file()).collect();
        if docs.is_empty() {
            say!(
                "reckon check --staged: this commit changes what reckon reads, but reckon.toml lists no documents \
                 to check; add documents = [\"notebooks/*.md\"]"
            );
        }
    }
    let opts = sources::Options { git_root: Some(tree.real_root.clone()), staged: true, ..Default::default() };
    let staged_from = Some((tree.real_root.clone(), cwd.to_path_buf()));
    let how = How { opts, compact: !args.diff, what: " (as staged)", staged_from, kept_in };
    let code = check_documents(&tree.cfg, &root, &docs, args, how);
    drop(tree);
    code
}

/// How documents are checked: the ingest options, and how the result is said.
struct How {
    opts: sources::Options,
    /// One line per problem and no diff.
    compact: bool,
    /// Said after "reckon check" in the summary.
    what: &'static str,
    /// When the folder checked is a staged copy of the project: the real
    /// project root it stands for and the folder the user ran in, which
    /// every path printed is named from.
    staged_from: Option<(PathBuf, PathBuf)>,
    /// For a staged check: the real database, and its data generation
    /// when the copy was made. What the copy's check evaluated is kept
    /// there when the staged files changed nothing in the copy's data (its
    /// generation is the same), so the next hook finds it; otherwise it is
    /// of other data and is dropped with the copy.
    kept_in: Option<(PathBuf, i64)>,
}

/// How the paths of a check are printed: from the folder the user ran in,
/// whichever folder was checked. A staged check reads a copy of the project
/// (its paths relative to the copy's root); each is named as the user would
/// find the real file (`gemm/notebooks/plan.md` from a repository's root,
/// not the project-relative `notebooks/plan.md`), in every format.
struct Places {
    /// The folder the documents were checked in (the copy's root, or cwd).
    checked: PathBuf,
    /// The real folder `checked` stands for.
    real: PathBuf,
    /// Where the user ran the command.
    user: PathBuf,
}

impl Places {
    fn new(checked: &Path, staged_from: Option<&(PathBuf, PathBuf)>) -> Places {
        let (real, user) = staged_from.cloned().unwrap_or_else(|| (checked.to_path_buf(), checked.to_path_buf()));
        Places { checked: checked.to_path_buf(), real, user }
    }

    /// The real file `path` (absolute, or relative to the folder checked)
    /// stands for.
    fn real(&self, path: &Path) -> PathBuf {
        let full = self.checked.join(path);
        full.strip_prefix(&self.checked).map_or_else(|_| full.clone(), |rel| self.real.join(rel))
    }

    /// `path` as printed: relative to where the user ran, when it lies there.
    fn shown(&self, path: &Path) -> PathBuf {
        PathBuf::from(shown(&self.user, &self.real(path)))
    }

    /// A review's paths as printed: the document's, from where the user
    /// ran; the plots it draws as the real files.
    fn review(&self, r: &mut DocReview) {
        r.path = self.shown(&r.path);
        for f in &mut r.files {
            f.path = self.real(&f.path);
        }
    }
}

/// Checks documents (paths relative to `cwd`, or absolute): builds the
/// problems, prints them through the format's reporter (most serious
/// first), and exits 1 on a failing one, 2 on an error.
fn check_documents(cfg: &Config, cwd: &Path, docs: &[PathBuf], args: &CheckArgs, how: How) -> Result<i32> {
    if docs.is_empty() {
        super::stdout_write(&nothing_checked(args.format))?;
        return Ok(super::OK);
    }
    let places = Places::new(cwd, how.staged_from.as_ref());
    let relocate = |e: Error| e.map_path(&|p| places.shown(&p));
    let log_shown = |p: &Path| places.shown(&cfg.root.join(p));
    let (store, mut errors) = prepare_with(cfg, args.no_ingest, how.opts, Some(&log_shown))?;
    let opened = open_each(cfg, cwd, docs);
    // A claim from the cache carries no clauses: JSON prints them, so it
    // judges every claim.
    let cache = if args.no_cache { None } else { Cache::new(&store, &build(), cfg, args.format != CheckOutput::Json) };
    // When the cache knows every region and claim (and lint, which reads
    // the prose against the data, is off), the data are not read at all.
    let known = cfg.lint.level == LintLevel::Off
        && cache
            .as_ref()
            .is_some_and(|c| opened.iter().all(|(_, d)| d.as_ref().is_ok_and(|d| d.known_to(c, &cfg.root))));
    let dataset = &if known {
        Dataset::unread(&store)
    } else {
        let dataset = load_for_command(&store, cfg)?;
        expect_documents(&dataset, &opened)?;
        dataset
    };
    let ctx = Context { dataset, store: &store, cfg, doc_dir: cwd, cache: cache.as_ref() };
    let (mut reviews, review_errors) = review_opened(&ctx, cwd, opened);
    match (cache, &how.kept_in) {
        (Some(cache), None) => cache.write(store.path()),
        (Some(cache), Some((real, copied))) if cache.generation() == *copied => cache.write(real),
        _ => {}
    }
    errors.extend(review_errors.into_iter().map(relocate));
    for r in &mut reviews {
        places.review(r);
    }
    let user = places.user.as_path();
    let mut problems: Vec<Problem> =
        reviews.iter().flat_map(|r| document_problems(r, args.strict, &|p: &Path| shown(user, p))).collect();
    let lint = lint_prose(cfg, dataset, user, &reviews, &mut problems, &mut errors);
    by_severity(&mut problems);
    let paths = RepoPaths::find(user, &places.real(&cfg.root));
    let found = CheckFindings {
        cwd: user,
        reviews: &reviews,
        problems: &problems,
        lint: &lint,
        errors: &errors,
        paths: &paths,
        strict: args.strict,
        compact: how.compact,
        what: how.what,
    };
    super::stdout_write(&render(args.format, &found)?)?;
    step_summary(&found)?;
    Ok(super::exit_code(errors.len(), false, found.failing() > 0))
}

/// This reckon, as the evaluation cache tells builds apart: its version,
/// and the size and time of its executable (a reckon rebuilt from changed
/// sources at the same version evaluates everything again).
fn build() -> String {
    let exe = std::env::current_exe().and_then(std::fs::metadata);
    let stamp = exe.map(|m| format!("{} {:?}", m.len(), m.modified().ok())).unwrap_or_default();
    format!("{} {stamp}", env!("CARGO_PKG_VERSION"))
}

/// What `format` prints for these findings.
fn render(format: CheckOutput, found: &CheckFindings) -> Result<String> {
    match format.listing() {
        Some(listing) => reporter(listing).check(found),
        None => json::pretty(&crate::report::ci::sarif(&found.ci())),
    }
}

/// What `format` prints when there was no document to check.
fn nothing_checked(format: CheckOutput) -> String {
    let paths = RepoPaths::find(Path::new("."), Path::new("."));
    let found = crate::report::ci::Findings { reviews: &[], problems: &[], errors: &[], paths: &paths };
    match format.listing() {
        Some(listing) => reporter(listing).nothing_checked(),
        None => json::pretty(&crate::report::ci::sarif(&found)).unwrap_or_default(),
    }
}

/// In a GitHub Actions step (`$GITHUB_STEP_SUMMARY` names a file), appends
/// the markdown summary of the check to the job's summary.
fn step_summary(found: &CheckFindings) -> Result<()> {
    let Some(file) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|f| !f.is_empty()) else { return Ok(()) };
    let text = crate::report::ci::summary(&found.ci());
    let mut out = std::fs::OpenOptions::new().create(true).append(true).open(&file).map_err(|e| Error::io(&file, e))?;
    std::io::Write::write_all(&mut out, text.as_bytes()).map_err(|e| Error::io(&file, e))
}

/// A check that stopped at an error before judging anything (a
/// reckon.toml that does not read, a database that cannot be opened): the
/// error in the format asked for, and in the job summary. The caller has
/// said it on stderr and exits 2.
pub(super) fn report_failure(format: CheckOutput, cwd: &Path, e: Error) -> Result<()> {
    let paths = RepoPaths::find(cwd, cwd);
    let errors = [e];
    let found = CheckFindings {
        cwd,
        reviews: &[],
        problems: &[],
        lint: &[],
        errors: &errors,
        paths: &paths,
        strict: false,
        compact: true,
        what: "",
    };
    if format != CheckOutput::Human {
        super::stdout_write(&render(format, &found)?)?;
    }
    step_summary(&found)
}

/// With [lint] on in reckon.toml, reads the prose outside claim regions as
/// claims: adds the failing statements to `problems`, returns every judged
/// statement (for JSON); adds the documents lint could not read to `errors`.
fn lint_prose(
    cfg: &Config,
    dataset: &Dataset,
    cwd: &Path,
    reviews: &[DocReview],
    problems: &mut Vec<Problem>,
    errors: &mut Vec<Error>,
) -> Vec<Statement> {
    let mut judged = Vec::new();
    if cfg.lint.level == LintLevel::Off {
        return judged;
    }
    let linter = cfg.linter(dataset);
    let sel = crate::lint::report::Selection { all: false, min_confidence: cfg.lint.min_confidence };
    let level = if cfg.lint.level == LintLevel::Error { Level::Error } else { Level::Warning };
    for r in reviews {
        match linter.lint(&r.path, &r.text) {
            Ok(findings) => {
                let path = r.path.display().to_string();
                judged.extend(Statement::shown(&path, &findings, sel));
                problems.extend(lint_problems(&path, &findings, sel, level));
            }
            Err(e) => {
                let e = relative_error(e, cwd);
                say!("error: {}", super::shown_error(&e));
                errors.push(e);
            }
        }
    }
    judged
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::{CheckOutput, Command};

    #[test]
    fn a_hook_passes_staged_paths_after_the_flags() {
        let cli = parse(&["check", "--staged", "--format", "github", "--", "notebooks/plan.md", "logs/a.jsonl"]);
        let Command::Check(a) = cli.unwrap().command else { panic!("not check") };
        assert!(a.staged && !a.diff && !a.strict);
        assert_eq!(a.format, CheckOutput::Github);
        assert_eq!(a.docs.len(), 2);
        let Command::Check(a) = parse(&["check"]).unwrap().command else { panic!("not check") };
        assert_eq!(a.format, CheckOutput::Human);
        let Command::Check(a) = parse(&["check", "--format", "sarif"]).unwrap().command else { panic!("not check") };
        assert_eq!(a.format, CheckOutput::Sarif);
        assert!(parse(&["check", "--format", "xml"]).is_err());
    }
}
