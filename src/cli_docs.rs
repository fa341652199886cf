//! The document commands: `update`, `check`, `claims`, `supersede`, and the
//! project set-up commands `init` and `hook install`.
#![allow(
    clippy::assigning_clones,
    clippy::case_sensitive_file_extension_comparisons,
    clippy::default_trait_access,
    clippy::format_push_string,
    clippy::needless_pass_by_value,
    clippy::too_many_lines
)] // floor-plan debt (issue 7): fix these and delete this line

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::claims::judge::ClaimReport;
use crate::claims::Verdict;
use crate::cli::{
    ingest_and_report, sources_requests, stdout_write, CheckArgs, CheckFormat, ClaimsArgs, SupersedeArgs, UpdateArgs,
};
use crate::config::Config;
use crate::doc::{self, Kind};
use crate::query::Dataset;
use crate::render::plot;
use crate::review::claim as judge;
use crate::review::diff::{unified, use_color};
use crate::review::document::{self, DocReview};
use crate::review::Context;
use crate::store::Store;
use crate::{sources, Error, Result};

/// Opens the store, first ingesting the sources reckon.toml names (unless
/// told not to). Returns the store and whether an ingest failed.
fn prepare(cfg: &Config, no_ingest: bool) -> Result<(Store, bool)> {
    prepare_with(cfg, no_ingest, sources::Options::default())
}

/// [`prepare`] with ingest options: for a staged check, git is asked about
/// the real project while the files are read from the staged copy.
fn prepare_with(cfg: &Config, no_ingest: bool, base: sources::Options) -> Result<(Store, bool)> {
    if no_ingest || cfg.sources.is_empty() {
        return Ok((crate::cli::open_current(cfg)?, false));
    }
    let requests = sources_requests(cfg, None, &Default::default())?;
    let mut store = Store::open(&cfg.database)?;
    crate::cli::report_forgotten(&sources::forget_missing(&mut store, &cfg.root)?, true);
    let opts = sources::Options { fail_fast: false, generic: cfg.generic.clone(), ..base };
    let failed = ingest_and_report(&mut store, &cfg.root, &requests, &opts, true);
    // The documents are rendered over a read-only connection: a region's
    // SQL runs under an authorizer too, but nothing a document does should
    // be able to write.
    drop(store);
    Ok((Store::open_read_only(&cfg.database)?, failed > 0))
}

/// Loads the data for one command and leaves it allocated: the process
/// exits right after the command, and freeing tens of thousands of runs'
/// param maps one by one took ~80 ms of a 0.5 s `reckon check` over 33,792
/// runs (`cargo bench --bench check`).
fn load_for_command<'s>(store: &'s Store, cfg: &Config) -> Result<&'s Dataset<'s>> {
    let mut dataset = Dataset::load(store)?;
    dataset.apply_config(cfg);
    Ok(Box::leak(Box::new(dataset)))
}

/// The documents a command reads: those given, else the `documents` of
/// reckon.toml.
fn documents(cfg: &Config, given: &[PathBuf]) -> Result<Vec<PathBuf>> {
    if !given.is_empty() {
        return Ok(given.to_vec());
    }
    cfg.document_paths()
}

/// The documents as given on the command line, relative to the current folder.
fn doc_paths(cwd: &Path, docs: &[PathBuf]) -> Vec<PathBuf> {
    docs.iter().map(|d| if d.is_absolute() { d.clone() } else { cwd.join(d) }).collect()
}

/// How a path is shown: as the user gave it.
fn shown(cwd: &Path, path: &Path) -> String {
    path.strip_prefix(cwd).unwrap_or(path).display().to_string()
}

/// Reviews each document; errors are printed and counted.
fn review_all(ctx: &Context, cwd: &Path, docs: &[PathBuf]) -> (Vec<DocReview>, usize) {
    let mut reviews = Vec::new();
    let mut errors = 0;
    for path in doc_paths(cwd, docs) {
        let rel = PathBuf::from(shown(cwd, &path));
        match document::review(ctx, &path) {
            Ok(mut r) => {
                r.path = rel;
                // Two documents drawing the same file would overwrite each
                // other on every update.
                if let Some((other, file)) = r
                    .drawn
                    .iter()
                    .find_map(|f| reviews.iter().find(|o: &&DocReview| o.drawn.contains(f)).map(|o| (o, f)))
                {
                    eprintln!(
                        "error: {}: a plot writes {}, which {} also draws; give one of them its own file=",
                        r.path.display(),
                        shown(cwd, file),
                        other.path.display()
                    );
                    errors += 1;
                    continue;
                }
                reviews.push(r);
            }
            Err(e) => {
                eprintln!("error: {}", relative_error(e, cwd));
                errors += 1;
            }
        }
    }
    (reviews, errors)
}

/// Errors name documents by absolute path internally; show them as given.
fn relative_error(e: Error, cwd: &Path) -> Error {
    match e {
        Error::Document { path, line, col, msg, snippet } => {
            Error::Document { path: PathBuf::from(shown(cwd, &path)), line, col, msg, snippet }
        }
        Error::Io { path, source } => Error::Io { path: PathBuf::from(shown(cwd, &path)), source },
        Error::Several(all) => Error::Several(all.into_iter().map(|e| relative_error(e, cwd)).collect()),
        e => e,
    }
}

/// The review diff of one document: its text, then the data behind each
/// plot that changed.
fn review_diff(r: &DocReview, cwd: &Path, color: bool) -> String {
    let mut out = unified(&r.path.display().to_string(), &r.text, &r.updated, color);
    for f in &r.files {
        let name = format!("{} (plotted data)", shown(cwd, &f.path));
        let old = f.old.as_deref().and_then(plot::data_of).unwrap_or("");
        let new = plot::data_of(&f.new).unwrap_or("");
        if f.old.is_none() {
            out.push_str(&format!(
                "new plot {} ({} points)\n",
                shown(cwd, &f.path),
                new.lines().count().saturating_sub(1)
            ));
        } else if old != new {
            out.push_str(&unified(&name, old, new, color));
        } else {
            out.push_str(&format!("plot {} is redrawn (same data)\n", shown(cwd, &f.path)));
        }
    }
    out
}

fn claim_line(path: &Path, c: &ClaimReport) -> String {
    let tag = if c.superseded.is_some() { " (superseded)" } else { "" };
    format!("{}:{}: claim `{}`{tag} {}", path.display(), c.line, c.id, c.summary)
}

pub(crate) fn update(cfg: &Config, cwd: &Path, args: UpdateArgs) -> Result<i32> {
    let docs = documents(cfg, &args.docs)?;
    if docs.is_empty() {
        eprintln!(
            "reckon update: no documents; name them, or list them in reckon.toml as documents = [\"notebooks/*.md\"]"
        );
        return Ok(0);
    }
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = load_for_command(&store, cfg)?;
    let ctx = Context { dataset, store: &store, cfg, doc_dir: cwd };
    let (reviews, mut errors) = review_all(&ctx, cwd, &docs);
    let color = use_color(std::io::stdout().is_terminal());
    let mut out = String::new();
    for r in &reviews {
        out.push_str(&review_diff(r, cwd, color));
        for c in r.claims.iter().filter(|c| c.verdict != Verdict::Holds) {
            eprintln!("{}", claim_line(&r.path, c));
        }
    }
    stdout_write(&out)?;
    if args.write {
        for r in &reviews {
            let edited: Vec<_> = r.hand_edited().collect();
            if !edited.is_empty() && !args.force {
                for e in &edited {
                    eprintln!(
                        "error: {}:{}:{}: this {} region was edited by hand since reckon wrote it; not overwritten. Move the edit outside the region, or run `reckon update --write --force` to replace it",
                        r.path.display(),
                        e.line,
                        e.col,
                        e.kind.name()
                    );
                }
                errors += 1;
                continue;
            }
            if let Err(e) = write_review(r, cwd) {
                eprintln!("error: {e}");
                errors += 1;
            }
        }
    }
    Ok(if errors > 0 || ingest_failed { 2 } else { 0 })
}

/// Writes a reviewed document, then its plots: if the document changed
/// since it was read, nothing is written at all.
fn write_review(r: &DocReview, cwd: &Path) -> Result<()> {
    // Plots first, each whole, then the document, whole: a kill in between
    // leaves the old document beside plots of the new data, never a new
    // document beside stale plots. Nothing is written if the document
    // changed since it was read.
    // Temporary files of an earlier reckon killed mid-write go first, even
    // when nothing needs writing now.
    if let Some(dir) = cwd.join(&r.path).parent() {
        doc::write::clean_stale_temps(dir);
    }
    if std::fs::read(cwd.join(&r.path)).map_err(|e| Error::io(&r.path, e))? != r.original {
        return Err(Error::io(
            &r.path,
            std::io::Error::other("the file changed since reckon read it; nothing was written — run the command again"),
        ));
    }
    for f in &r.files {
        doc::write::write_generated(&f.path, &f.new)?;
    }
    if r.text != r.updated {
        doc::write_atomic(&cwd.join(&r.path), &r.original, &r.updated)?;
    }
    Ok(())
}

/// One problem `check` reports.
struct Problem {
    path: String,
    line: usize,
    /// error | warning
    level: &'static str,
    msg: String,
}

pub(crate) fn check(cfg: &Config, cwd: &Path, args: CheckArgs) -> Result<i32> {
    if args.staged {
        if cfg.file.is_some() {
            return check_staged(cfg, cwd, &args);
        }
        // No reckon.toml here or above (a hook runs at the top of a
        // repository whose reckon projects live in subfolders): each staged
        // path's project is found from its folder, and each is checked.
        let mut code = 0;
        for project in projects_of(cwd, &args.docs)? {
            let mut project_cfg = Config::load(&project)?;
            if cfg.database != Config::defaults(&cfg.root).database {
                project_cfg.database = cfg.database.clone(); // --db given
            }
            code = code.max(check_staged(&project_cfg, cwd, &args)?);
        }
        return Ok(code);
    }
    let docs = documents(cfg, &args.docs)?;
    check_documents(cfg, cwd, &docs, &args, sources::Options::default(), false, "")
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
        if args.format == CheckFormat::Json {
            stdout_write("{\"ok\": true, \"documents\": []}\n")?;
        }
        return Ok(0);
    }
    // Bring the database up to date with the working tree first (what any
    // check does), so the staged copy starts from it and reads only the
    // files whose staged content differs.
    if !args.no_ingest && !cfg.sources.is_empty() {
        let (store, _) = prepare(cfg, false)?;
        drop(store);
    }
    let tree = crate::staged::export(cfg, &staged_cfg)?;
    if cfg.database.exists() {
        let store = Store::open(&cfg.database)?;
        store.copy_to(&tree.cfg.database)?;
    }
    let root = tree.root().to_path_buf();
    let mut docs = tree.cfg.document_paths()?;
    if tree.cfg.documents.is_empty() {
        // No documents configured: the staged markdown files.
        docs = changed.iter().filter(|p| p.ends_with(".md")).map(|p| root.join(p)).filter(|p| p.is_file()).collect();
        if docs.is_empty() {
            eprintln!(
                "reckon check --staged: this commit changes what reckon reads, but reckon.toml lists no documents to check; add documents = [\"notebooks/*.md\"]"
            );
        }
    }
    let opts = sources::Options { git_root: Some(tree.real_root.clone()), staged: true, ..Default::default() };
    let code = check_documents(&tree.cfg, &root, &docs, args, opts, !args.diff, " (as staged)");
    drop(tree);
    code
}

/// Checks documents (paths relative to `cwd`, or absolute). `compact`
/// prints one line per problem and no diff.
fn check_documents(
    cfg: &Config,
    cwd: &Path,
    docs: &[PathBuf],
    args: &CheckArgs,
    opts: sources::Options,
    compact: bool,
    what: &str,
) -> Result<i32> {
    if docs.is_empty() {
        if args.format == CheckFormat::Json {
            stdout_write("{\"ok\": true, \"documents\": []}\n")?;
        }
        return Ok(0);
    }
    let (store, ingest_failed) = prepare_with(cfg, args.no_ingest, opts)?;
    let dataset = load_for_command(&store, cfg)?;
    let ctx = Context { dataset, store: &store, cfg, doc_dir: cwd };
    let (reviews, errors) = review_all(&ctx, cwd, docs);

    let mut problems = Vec::new();
    for r in &reviews {
        let path = r.path.display().to_string();
        for s in &r.stale {
            if reported_by_verdict(r, s, args.strict) {
                continue; // the failing verdict below already says it
            }
            let how = if s.edited_by_hand {
                "was edited by hand and does not match the data"
            } else if s.kind == Kind::Claim {
                // e.g. a warning left on a claim that holds again: readers
                // would still be told the data contradict it.
                "has a status note that no longer matches its verdict"
            } else {
                "is stale"
            };
            problems.push(Problem {
                path: path.clone(),
                line: s.line,
                level: "error",
                msg: format!("{} region {how}", s.kind.name()),
            });
        }
        for f in &r.files {
            problems.push(Problem {
                path: path.clone(),
                line: f.line,
                level: "error",
                msg: format!("plot {} is stale", shown(cwd, &f.path)),
            });
        }
        for c in &r.claims {
            let level = if c.fails(args.strict) {
                "error"
            } else if c.verdict == Verdict::Holds || c.superseded.is_some() {
                continue;
            } else {
                "warning"
            };
            let tag = if c.superseded.is_some() { " (superseded)" } else { "" };
            // Rewriting the note (update --write) would not make check
            // pass: an overturned conclusion is kept as history instead.
            let hint = if c.verdict == Verdict::Contradicted && c.superseded.is_none() {
                format!(
                    "; keep it as history with `reckon supersede {path} {} --write` and write the new conclusion",
                    c.id
                )
            } else {
                String::new()
            };
            problems.push(Problem {
                path: path.clone(),
                line: c.line,
                level,
                msg: format!("claim `{}`{tag} {}{hint}", c.id, c.summary),
            });
        }
        for (line, id, date) in superseded_without_successor(&r.text) {
            problems.push(Problem {
                path: path.clone(),
                line,
                level: if args.strict { "error" } else { "warning" },
                msg: format!(
                    "claim `{id}` was superseded on {date} and no new conclusion replaces it: write one after it, in a claim region, so reckon keeps checking it"
                ),
            });
        }
    }
    let mut lint_errors = 0;
    let mut lint_json = Vec::new();
    if cfg.lint.level != crate::config::LintLevel::Off {
        // Prose outside claim regions, read as claims ([lint] in reckon.toml).
        let linter = cfg.linter(dataset);
        let sel = crate::lint::report::Selection { all: false, min_confidence: cfg.lint.min_confidence };
        let level = if cfg.lint.level == crate::config::LintLevel::Error { "error" } else { "warning" };
        for r in &reviews {
            match linter.lint(&r.path, &r.text) {
                Ok(findings) => {
                    let shown_path = r.path.display().to_string();
                    lint_json.extend(crate::lint::report::json_items(&shown_path, &findings, sel));
                    for f in findings.iter().filter(|f| sel.fails(f)) {
                        let what = match f.status {
                            crate::lint::Status::Stale => {
                                format!("stale (right as of {})", f.held_as_of.as_deref().unwrap_or("an earlier sweep"))
                            }
                            s => s.as_str().to_string(),
                        };
                        problems.push(Problem {
                            path: r.path.display().to_string(),
                            line: f.line,
                            level,
                            msg: format!(
                                "lint: \"{}\" reads as `{}`: {what}; {}",
                                f.sentence,
                                f.claim.as_deref().unwrap_or(""),
                                f.summary
                            ),
                        });
                    }
                }
                Err(e) => {
                    eprintln!("error: {}", relative_error(e, cwd));
                    lint_errors += 1;
                }
            }
        }
    }
    let errors = errors + lint_errors;
    problems.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    let failing = problems.iter().filter(|p| p.level == "error").count();
    let ok = failing == 0 && errors == 0 && !ingest_failed;
    let text = match args.format {
        CheckFormat::Human => {
            let color = use_color(std::io::stdout().is_terminal());
            let mut out = String::new();
            for p in &problems {
                out.push_str(&format!("{}:{}: {}: {}\n", p.path, p.line, p.level, p.msg));
            }
            if !compact {
                for r in reviews.iter().filter(|r| !r.is_current()) {
                    out.push_str(&review_diff(r, cwd, color));
                }
            }
            // Documents `update --write` would fix: stale regions or plots,
            // not only notes of failing claims (those want `supersede`).
            let stale_docs: Vec<String> = reviews
                .iter()
                .filter(|r| !r.files.is_empty() || r.stale.iter().any(|s| !reported_by_verdict(r, s, args.strict)))
                .map(|r| r.path.display().to_string())
                .collect();
            if failing > 0 {
                out.push_str(&format!("reckon check{what}: {failing} problem(s) in {} document(s)", reviews.len()));
                if !stale_docs.is_empty() {
                    // Hand-edited regions are only replaced when asked to.
                    let force = if reviews.iter().any(|r| r.hand_edited().next().is_some()) { " --force" } else { "" };
                    out.push_str(&format!("; regenerate with `reckon update --write{force} {}`", stale_docs.join(" ")));
                }
                if compact && !stale_docs.is_empty() {
                    out.push_str(" (`reckon check --diff` shows the changes)");
                }
                out.push('\n');
            }
            out
        }
        CheckFormat::Json => {
            let docs: Vec<serde_json::Value> = reviews
                .iter()
                .map(|r| {
                    json!({
                        "path": r.path.display().to_string(),
                        "current": r.is_current(),
                        "stale_regions": r.stale.iter().filter(|s| !reported_by_verdict(r, s, args.strict)).map(|s| json!({"line": s.line, "col": s.col, "kind": s.kind.name(), "edited_by_hand": s.edited_by_hand})).collect::<Vec<_>>(),
                        "stale_files": r.files.iter().map(|f| json!({"path": shown(cwd, &f.path), "line": f.line})).collect::<Vec<_>>(),
                        "claims": r.claims.iter().map(|c| json!({"claim": c, "fails": c.fails(args.strict)})).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let mut s = serde_json::to_string_pretty(
                &json!({"ok": ok, "errors": errors, "documents": docs, "lint": lint_json}),
            )
            .map_err(|e| Error::usage(e.to_string()))?;
            s.push('\n');
            s
        }
        CheckFormat::Github => {
            let mut out = String::new();
            for p in &problems {
                out.push_str(&format!(
                    "::{} file={},line={},title=reckon::{}\n",
                    p.level,
                    gh_property(&p.path),
                    p.line,
                    gh_escape(&p.msg)
                ));
            }
            out
        }
    };
    stdout_write(&text)?;
    Ok(if errors > 0 || ingest_failed { 2 } else { i32::from(failing > 0) })
}

/// Superseded claims (line, id, date) that nothing replaced: the comment
/// `supersede` leaves for the new conclusion is still there, or the next
/// region before the next heading is not a current claim. The overturned
/// conclusion was kept as history, but that part of the plan is no longer
/// checked.
fn superseded_without_successor(text: &str) -> Vec<(usize, String, String)> {
    let Ok(parsed) = doc::parse(Path::new(""), text) else { return Vec::new() };
    let headings: Vec<usize> = pulldown_cmark::Parser::new(text)
        .into_offset_iter()
        .filter_map(|(e, range)| {
            matches!(e, pulldown_cmark::Event::Start(pulldown_cmark::Tag::Heading { .. })).then_some(range.start)
        })
        .collect();
    let mut out = Vec::new();
    for (i, c) in parsed.regions.iter().enumerate() {
        let Some(date) = c.arg("superseded") else { continue };
        if c.kind != Kind::Claim {
            continue;
        }
        let section_end = headings.iter().copied().find(|h| *h > c.close.end).unwrap_or(text.len());
        let next = parsed.regions.get(i + 1).filter(|n| n.open.start < section_end);
        let until = next.map_or(section_end, |n| n.open.start);
        let placeholder = text[c.close.end..until].contains(SUPERSEDED_PLACEHOLDER);
        let replaced = !placeholder && next.is_some_and(|n| n.kind == Kind::Claim && n.arg("superseded").is_none());
        if !replaced {
            let id = c.arg("id").map(|a| a.value.clone()).unwrap_or_default();
            out.push((c.line, id, date.value.clone()));
        }
    }
    out
}

/// A claim region is stale whenever its status note changes; when the claim
/// fails, its verdict is the problem reported, not the note as well.
fn reported_by_verdict(r: &DocReview, s: &document::StaleRegion, strict: bool) -> bool {
    s.kind == Kind::Claim && !s.edited_by_hand && r.claims.iter().any(|c| c.line == s.line && c.fails(strict))
}

/// Escapes a workflow command's message (GitHub Actions: %, CR, LF).
fn gh_escape(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a workflow command's property value (also `:` and `,`).
fn gh_property(s: &str) -> String {
    gh_escape(s).replace(':', "%3A").replace(',', "%2C")
}

pub(crate) fn claims(cfg: &Config, cwd: &Path, args: ClaimsArgs) -> Result<i32> {
    let docs = documents(cfg, &args.docs)?;
    if docs.is_empty() {
        return Err(Error::usage(
            "no documents: name them (reckon claims notebooks/plan.md), or list them in reckon.toml as documents = [\"notebooks/*.md\"]",
        ));
    }
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = load_for_command(&store, cfg)?;
    let mut out = String::new();
    let mut items = Vec::new();
    let mut errors = 0;
    for path in doc_paths(cwd, &docs) {
        let rel = shown(cwd, &path);
        let result = (|| -> Result<()> {
            let (_, text) = document::read(&path)?;
            let parsed = doc::parse(Path::new(&rel), &text)?;
            // Every claim is judged: one that does not parse (or cannot be
            // judged) is reported with its position and the rest go on; the
            // command exits 2 at the end.
            for region in parsed.regions.iter().filter(|r| r.kind == Kind::Claim) {
                let judged = (|| -> Result<()> {
                    if args.history {
                        let hist = judge::history(dataset, cfg, &parsed, &text, region)?;
                        let Some((_, last)) = hist.last() else {
                            out.push_str(&format!("{rel}:{}: no sweeps in the data\n", region.line));
                            return Ok(());
                        };
                        out.push_str(&format!("{rel}:{}: claim `{}`: {}\n", region.line, last.id, last.statement));
                        let mut prev: Option<Verdict> = None;
                        let mut timeline = Vec::new();
                        for (sweep, report) in &hist {
                            let changed = prev.is_some_and(|p| p != report.verdict);
                            let mark = if changed {
                                format!(
                                    "  <- changed: the {sweep} sweep turned it from {}",
                                    prev.map_or("", super::claims::Verdict::as_str)
                                )
                            } else {
                                String::new()
                            };
                            out.push_str(&format!(
                                "  as of {sweep}: {:<12} {}{mark}\n",
                                report.verdict.as_str(),
                                report.summary
                            ));
                            timeline.push(json!({"as_of": sweep, "verdict": report.verdict, "summary": report.summary, "changed": changed}));
                            prev = Some(report.verdict);
                        }
                        items.push(json!({"path": rel, "line": region.line, "id": last.id, "statement": last.statement, "history": timeline}));
                    } else {
                        let report = judge::judge_claim(dataset, cfg, None, &parsed, &text, region)?;
                        out.push_str(&format!("{}\n  {}\n", claim_line(Path::new(&rel), &report), report.statement));
                        for clause in report.clauses.iter().filter(|_| report.clauses.len() > 1) {
                            out.push_str(&format!("  - {}: {}\n", clause.statement, clause.summary));
                        }
                        for d in report.clauses.iter().flat_map(|c| &c.details) {
                            out.push_str(&format!("  - {d}\n"));
                        }
                        items.push(json!({"path": rel, "claim": report}));
                    }
                    Ok(())
                })();
                if let Err(e) = judged {
                    eprintln!("error: {e}");
                    errors += 1;
                }
            }
            Ok(())
        })();
        if let Err(e) = result {
            eprintln!("error: {e}");
            errors += 1;
        }
    }
    let text = match args.format {
        CheckFormat::Json => {
            let mut s = serde_json::to_string_pretty(&items).map_err(|e| Error::usage(e.to_string()))?;
            s.push('\n');
            s
        }
        _ => out,
    };
    stdout_write(&text)?;
    Ok(if errors > 0 || ingest_failed { 2 } else { 0 })
}

/// The start of the comment `supersede` leaves where the new conclusion goes;
/// `check` reports a superseded claim while it is still there.
const SUPERSEDED_PLACEHOLDER: &str = "The conclusion above was superseded";

pub(crate) fn supersede(cfg: &Config, cwd: &Path, args: SupersedeArgs) -> Result<i32> {
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    if ingest_failed {
        return Ok(2);
    }
    let mut dataset = Dataset::load(&store)?;
    dataset.apply_config(cfg);
    let path = doc_paths(cwd, std::slice::from_ref(&args.doc)).remove(0);
    let rel = shown(cwd, &path);
    let (original, text) = document::read(&path)?;
    let parsed = doc::parse(Path::new(&rel), &text)?;
    let find = |d: &doc::Document| {
        d.regions.iter().position(|r| r.kind == Kind::Claim && r.arg("id").is_some_and(|a| a.value == args.id))
    };
    let Some(index) = find(&parsed) else {
        return Err(Error::usage(format!("{rel}: no claim with id `{}`", args.id)));
    };
    let region = &parsed.regions[index];
    if let Some(s) = region.arg("superseded") {
        return Err(Error::usage(format!(
            "{rel}:{}: claim `{}` is already superseded (on {})",
            region.line, args.id, s.value
        )));
    }
    let report = judge::judge_claim(&dataset, cfg, None, &parsed, &text, region)?;
    if report.verdict != Verdict::Contradicted {
        return Err(Error::usage(format!(
            "{rel}:{}: claim `{}` is not contradicted ({}); only a conclusion the data contradict is superseded",
            region.line, args.id, report.summary
        )));
    }
    let date = report.data_date.clone().unwrap_or_else(|| chrono::Utc::now().format("%Y-%m-%d").to_string());
    let id_end = region.arg("id").map_or(region.open.start, |a| a.span.end);
    let eol = parsed.line_ending.as_str();
    // In a list item or quote the comment continues it, so the list is not
    // cut; after an inline claim it goes after the enclosing block and the
    // notes there, as the claim's note does.
    let (room_at, prefix) = match &region.detached {
        Some(d) => (d.at, String::new()),
        None => (region.close.end, region.continuation_prefix(&text)),
    };
    let room = format!(
        "{eol}{}{eol}{prefix}<!-- {SUPERSEDED_PLACEHOLDER} on {date}. Write the new one here, stated in a claim region so reckon keeps checking it. -->",
        prefix.trim_end()
    );
    let mut marked = String::with_capacity(text.len() + 200);
    marked.push_str(&text[..id_end]);
    marked.push_str(&format!(" superseded={date}"));
    marked.push_str(&text[id_end..room_at]);
    marked.push_str(&room);
    marked.push_str(&text[room_at..]);
    // Judge again to write the superseded note with its evidence.
    let reparsed = doc::parse(Path::new(&rel), &marked)?;
    let index = find(&reparsed).ok_or_else(|| Error::usage("the claim disappeared while marking it"))?;
    let report = judge::judge_claim(&dataset, cfg, None, &reparsed, &marked, &reparsed.regions[index])?;
    let updated = reparsed.splice(&marked, &[(index, report.note.clone().unwrap_or_default())]);
    let color = use_color(std::io::stdout().is_terminal());
    stdout_write(&unified(&rel, &text, &updated, color))?;
    if args.write {
        doc::write_atomic(&path, &original, &updated)?;
        eprintln!(
            "{rel}: claim `{}` marked superseded on {date}; write the new conclusion where the comment says",
            args.id
        );
    }
    Ok(0)
}

pub(crate) fn review(cfg: &Config, cwd: &Path, args: crate::cli::ReviewArgs) -> Result<i32> {
    use crate::review::interactive;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        let docs: Vec<String> = args.docs.iter().map(|d| d.display().to_string()).collect();
        return Err(Error::usage(format!(
            "reckon review asks about each change and needs a terminal; to apply every change without asking, run `reckon update --write {}` (or `reckon update` to see the diff)",
            docs.join(" ")
        )));
    }
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = load_for_command(&store, cfg)?;
    let ctx = Context { dataset, store: &store, cfg, doc_dir: cwd };
    let (reviews, errors) = review_all(&ctx, cwd, &args.docs);
    if errors > 0 || ingest_failed {
        eprintln!("error: nothing to review until the errors above are fixed");
        return Ok(2);
    }
    let changes = interactive::changes(&reviews, &|p: &Path| shown(cwd, p))?;
    if changes.is_empty() {
        eprintln!("reckon review: every document matches the data; nothing to review");
        return Ok(0);
    }
    let color = use_color(true);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let outcome = interactive::ask(&changes, &mut input, &mut out, color)?;
    drop(out);
    let count = |d: interactive::Decision| outcome.decisions.iter().filter(|x| **x == d).count();
    let (accepted, rejected) = (count(interactive::Decision::Accept), count(interactive::Decision::Reject));
    let skipped = changes.len() - accepted - rejected;
    let written = if outcome.write { interactive::apply(&reviews, &changes, &outcome.decisions, cwd)? } else { 0 };
    eprintln!(
        "\nreckon review: {written} change(s) written, {rejected} rejected, {skipped} skipped{}",
        if rejected + skipped > 0 { "; `reckon check` keeps reporting the ones not written" } else { "" }
    );
    Ok(0)
}

pub(crate) fn report(cfg: &Config, cwd: &Path, args: crate::cli::ReportArgs) -> Result<i32> {
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = load_for_command(&store, cfg)?;
    let ctx = Context { dataset, store: &store, cfg, doc_dir: cwd };
    let (reviews, mut errors) = review_all(&ctx, cwd, &args.docs);
    let out_dir = cwd.join(&args.out);
    let mut written: Vec<PathBuf> = Vec::new();
    for r in &reviews {
        let target = crate::report::page_path(&out_dir, &r.path);
        if written.contains(&target) {
            eprintln!(
                "error: {}: another document already wrote {}; report documents with different names, or one at a time",
                r.path.display(),
                shown(cwd, &target)
            );
            errors += 1;
            continue;
        }
        let doc_dir = cwd.join(&r.path).parent().map_or_else(|| cwd.to_path_buf(), Path::to_path_buf);
        let ctx = Context { doc_dir: &doc_dir, ..ctx };
        let html = crate::report::page(&ctx, r, &doc_dir).and_then(|html| crate::report::write_page(&target, &html));
        match html {
            Ok(()) => {
                eprintln!("{}: {}", r.path.display(), shown(cwd, &target));
                written.push(target);
            }
            Err(e) => {
                eprintln!("error: {}", relative_error(e, cwd));
                errors += 1;
            }
        }
    }
    Ok(if errors > 0 || ingest_failed { 2 } else { 0 })
}

pub(crate) fn diff(cfg: &Config, cwd: &Path, args: crate::cli::DiffArgs) -> Result<i32> {
    use crate::sweep_diff::{self, ClaimMove, Listing};
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = load_for_command(&store, cfg)?;
    let filter = args.filter.as_deref().map(crate::query::Filter::parse).transpose()?;
    if let Some(f) = &filter {
        dataset.check_filter(f)?;
    }
    let opts = sweep_diff::Options { from: args.from, to: args.to, metrics: args.metric, filter, by: args.by };
    let mut result = sweep_diff::compute(dataset, &cfg.margins(), &opts)?;
    let mut errors = 0;
    for path in doc_paths(cwd, &args.docs) {
        let rel = shown(cwd, &path);
        let judged = (|| -> Result<Vec<ClaimMove>> {
            let (_, text) = document::read(&path)?;
            let parsed = doc::parse(Path::new(&rel), &text)?;
            let mut moves = Vec::new();
            for region in parsed.regions.iter().filter(|r| r.kind == Kind::Claim) {
                let before = judge::judge_claim(dataset, cfg, Some(&result.from), &parsed, &text, region)?;
                let after = judge::judge_claim(dataset, cfg, Some(&result.to), &parsed, &text, region)?;
                if before.verdict != after.verdict {
                    moves.push(ClaimMove {
                        path: rel.clone(),
                        line: region.line,
                        id: after.id,
                        from: before.verdict,
                        to: after.verdict,
                        summary: after.summary,
                    });
                }
            }
            Ok(moves)
        })();
        match judged {
            Ok(moves) => result.claims.extend(moves),
            Err(e) => {
                eprintln!("error: {}", relative_error(e, cwd));
                errors += 1;
            }
        }
    }
    let listing = if args.only_moved { Listing::BeyondNoise } else { Listing::Changed };
    let text = match args.format {
        crate::cli::DiffFormat::Table => result.to_text(listing, args.digits),
        crate::cli::DiffFormat::Markdown => result.to_markdown(listing, args.digits),
        crate::cli::DiffFormat::Json => result.to_json()?,
    };
    stdout_write(&text)?;
    Ok(if errors > 0 || ingest_failed { 2 } else { 0 })
}

const INIT_TOML: &str = r#"# reckon's configuration: https://github.com/ (see README.md of reckon)

database = "db/reckon.sqlite"
# The param whose values name the things being compared.
series = "config"
# The living documents: what check, update, claims and the pre-commit hook read.
documents = ["notebooks/*.md"]

# Logs to ingest; {name} captures a label from the path, {date} the run time.
# [[source]]
# path = "logs/{date}/{config}.jsonl"
# labels = { model = "my-model" }

# How prose names series and metrics.
# [aliases]
# "baseline" = ["no speculation"]
# output_throughput = ["tok/s", "throughput"]
"#;

pub(crate) fn init(cwd: &Path) -> Result<i32> {
    let mut created = Vec::new();
    let toml = cwd.join(crate::config::FILE_NAME);
    if !toml.exists() {
        std::fs::write(&toml, INIT_TOML).map_err(|e| Error::io(&toml, e))?;
        created.push("reckon.toml".to_string());
    }
    for dir in ["notebooks", "db", "templates"] {
        let p = cwd.join(dir);
        if !p.exists() {
            std::fs::create_dir_all(&p).map_err(|e| Error::io(&p, e))?;
            created.push(format!("{dir}/"));
        }
    }
    let ignore = cwd.join("db/.gitignore");
    if !ignore.exists() {
        std::fs::write(&ignore, "# the database is a cache rebuilt from the logs\n*.sqlite\n*.sqlite-*\n")
            .map_err(|e| Error::io(&ignore, e))?;
        created.push("db/.gitignore".to_string());
    }
    if created.is_empty() {
        eprintln!("reckon init: everything is already there");
    } else {
        eprintln!("reckon init: created {}", created.join(", "));
    }
    Ok(0)
}

const HOOK: &str = r#"#!/bin/sh
# Installed by `reckon hook install`: refuse a commit whose living documents
# are stale or whose written conclusions the data contradict, judged on what
# is staged (not the working tree). reckon runs only when a staged path is a
# document of reckon.toml, a log one of its [[source]] entries matches, or
# reckon.toml itself, and then checks every document. Set RECKON to use
# another binary than the `reckon` on PATH.
reckon="${RECKON:-reckon}"
if ! command -v "$reckon" >/dev/null 2>&1; then
    echo "reckon pre-commit hook: \`$reckon\` is not on PATH; install it (cargo install --path <reckon>) or set RECKON" >&2
    exit 1
fi
git diff --cached --name-only -z --no-renames | xargs -0 "$reckon" check --staged --
"#;

pub(crate) fn hook_install(cwd: &Path, force: bool) -> Result<i32> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(cwd)
        .args(["rev-parse", "--git-path", "hooks"])
        .output()
        .map_err(|e| Error::io("git", e))?;
    if !out.status.success() {
        return Err(Error::usage(
            "not inside a git repository; run `reckon hook install` in the repository to protect",
        ));
    }
    let hooks = cwd.join(String::from_utf8_lossy(&out.stdout).trim());
    std::fs::create_dir_all(&hooks).map_err(|e| Error::io(&hooks, e))?;
    // git answers relative to the folder (`../.git/hooks` from `bench/`):
    // shown resolved, not as `bench/../.git/hooks/pre-commit`.
    let hooks = std::fs::canonicalize(&hooks).unwrap_or(hooks);
    let hook = hooks.join("pre-commit");
    if hook.exists() && !force {
        return Err(Error::usage(format!(
            "{} already exists; add `reckon check` to it, or pass --force to replace it",
            hook.display()
        )));
    }
    std::fs::write(&hook, HOOK).map_err(|e| Error::io(&hook, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).map_err(|e| Error::io(&hook, e))?;
    }
    eprintln!("installed {}", hook.display());
    Ok(0)
}

pub(crate) fn lint(cfg: &Config, cwd: &Path, args: crate::cli::LintArgs) -> Result<i32> {
    use crate::lint::report;
    let min_confidence = args.min_confidence.unwrap_or(cfg.lint.min_confidence);
    if !(0.0..=1.0).contains(&min_confidence) {
        return Err(Error::usage(format!("--min-confidence {min_confidence}: expected a number from 0 to 1")));
    }
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = load_for_command(&store, cfg)?;
    let linter = cfg.linter(dataset);
    let sel = report::Selection { all: args.all, min_confidence };
    let mut out = String::new();
    let mut items = Vec::new();
    let (mut errors, mut problems) = (0, 0);
    for path in doc_paths(cwd, &args.docs) {
        let rel = shown(cwd, &path);
        let result = (|| -> Result<()> {
            let (original, text) = document::read(&path)?;
            let findings = linter.lint(Path::new(&rel), &text)?;
            problems += findings.iter().filter(|f| sel.fails(f)).count();
            match args.format {
                CheckFormat::Human => out.push_str(&report::human(&rel, &findings, sel)),
                CheckFormat::Json => items.extend(report::json_items(&rel, &findings, sel)),
                CheckFormat::Github => out.push_str(&report::github(&rel, &findings, sel, "error")),
            }
            if args.suggest || args.write {
                // What is wrapped: the problems, or with --all every judged statement.
                let chosen: Vec<&crate::lint::Finding> = findings
                    .iter()
                    .filter(|f| if args.all { f.verdict.is_some() && f.as_of.is_none() } else { sel.fails(f) })
                    .collect();
                let taken: std::collections::BTreeSet<String> = doc::parse(Path::new(&rel), &text)?
                    .regions
                    .iter()
                    .filter_map(|r| r.arg("id").map(|a| a.value.clone()))
                    .collect();
                let wraps = report::wraps(&text, &chosen);
                if args.suggest {
                    out.push_str(&report::suggestions(&rel, &text, &wraps, &taken));
                } else if !wraps.is_empty() {
                    let new_text = report::apply(&text, &wraps, &taken);
                    // What is written must read back as a valid document.
                    doc::parse(Path::new(&rel), &new_text)?;
                    doc::write_atomic(&path, &original, &new_text)?;
                    let cells = chosen.iter().filter(|f| f.in_table).count();
                    let left = if cells > 0 {
                        format!("; {cells} in table cells left as they are (a claim region cannot sit in a table)")
                    } else {
                        String::new()
                    };
                    eprintln!(
                        "{rel}: wrapped {} statement(s) in {} claim region(s){left}",
                        chosen.len() - cells,
                        wraps.len()
                    );
                }
            }
            Ok(())
        })();
        if let Err(e) = result {
            eprintln!("error: {}", relative_error(e, cwd));
            errors += 1;
        }
    }
    let text = if args.format == CheckFormat::Json {
        let mut s = serde_json::to_string_pretty(&json!({"ok": problems == 0 && errors == 0, "statements": items}))
            .map_err(|e| Error::usage(e.to_string()))?;
        s.push('\n');
        s
    } else {
        if problems > 0 && args.format == CheckFormat::Human {
            out.push_str(&format!(
                "reckon lint: {problems} contradicted or stale statement(s); `--suggest` prints claim regions for them, `--write` wraps them\n"
            ));
        }
        out
    };
    stdout_write(&text)?;
    Ok(if errors > 0 || ingest_failed { 2 } else { i32::from(problems > 0) })
}
