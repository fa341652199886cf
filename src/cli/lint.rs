//! `reckon lint`: checkable statements in the documents' prose (outside
//! claim regions), read as claims; the contradicted and stale ones are
//! reported, `--suggest` prints claim regions for them, `--write` wraps them.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::project::{doc_paths, documents_needed, load_for_command, prepare, relative_error, shown};
use super::reporter::json;
use super::reporter::lint::{LintReport, Statement};
use super::CheckFormat;
use crate::config::Config;
use crate::doc;
use crate::lint::report::{self, Selection};
use crate::lint::{Finding, Linter};
use crate::report::ci::RepoPaths;
use crate::review::document;
use crate::Result;

// Each bool is an independent command-line flag (clap derives one per field).
#[allow(clippy::struct_excessive_bools)]
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct LintArgs {
    /// Markdown documents (none: the `documents` of reckon.toml).
    pub(crate) docs: Vec<PathBuf>,
    /// Show every statement found (holding, inconclusive, history, plans), not only problems.
    #[arg(long)]
    pub(crate) all: bool,
    /// Print a ready-to-paste claim region for each statement reported.
    #[arg(long, conflicts_with = "write")]
    pub(crate) suggest: bool,
    /// Wrap the statements reported in claim regions (the author's lines untouched).
    #[arg(long)]
    pub(crate) write: bool,
    /// Leave out statements read with less confidence than this, 0 to 1
    /// (default: [lint] `min_confidence` in reckon.toml, else 0.5).
    #[arg(long, value_name = "C", value_parser = parse_confidence)]
    pub(crate) min_confidence: Option<f64>,
    /// How to print the findings.
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    pub(crate) format: CheckFormat,
    /// Do not ingest the sources of reckon.toml first: the database is read
    /// as it is, without looking at any log.
    #[arg(long)]
    pub(crate) no_ingest: bool,
}

/// A confidence from 0 to 1, refused by clap (exit 2, with the flag named)
/// otherwise.
fn parse_confidence(s: &str) -> std::result::Result<f64, String> {
    match crate::syntax::read_padded(s) {
        Some(c) if (0.0..=1.0).contains(&c) => Ok(c),
        _ => Err("expected a number from 0 to 1".to_string()),
    }
}

/// What lint printed and found over the documents so far.
#[derive(Default)]
struct Found {
    out: String,
    statements: Vec<Statement>,
    problems: usize,
    /// Sentences not read for names reckon.toml does not know.
    unknown: usize,
    /// Sentences with a statement lint did not judge (listed by `--all`).
    unjudged: usize,
    /// Problems `--write` cannot wrap: in a sentence lint could not read
    /// all of, or in a table cell.
    by_hand: usize,
}

pub(super) fn run(cfg: &Config, cwd: &Path, args: &LintArgs) -> Result<i32> {
    // reckon.toml's value was checked when it was read, the flag's by clap.
    let min_confidence = args.min_confidence.unwrap_or(cfg.lint.min_confidence);
    let docs = documents_needed(cfg, &args.docs, "lint")?;
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = &load_for_command(&store, cfg)?;
    let linter = cfg.linter(dataset);
    let sel = Selection { all: args.all, min_confidence };
    let mut found = Found::default();
    let mut errors = 0;
    // Annotations name files from the repository's root, whatever the folder.
    let repo = RepoPaths::find(cwd, &cfg.root);
    for path in doc_paths(cwd, &docs) {
        let names = (shown(cwd, &path), repo.of(&path));
        if let Err(e) = lint_document(&linter, &cfg.root, &path, (&names.0, &names.1), args, sel, &mut found) {
            say!("error: {}", super::shown_error(&relative_error(e, cwd)));
            errors += 1;
        }
    }
    let Found { mut out, statements, problems, unknown, unjudged, by_hand } = found;
    let text = if args.format == CheckFormat::Json {
        json::pretty(&LintReport { ok: problems == 0 && errors == 0, statements: &statements })?
    } else {
        if problems > 0 && args.format == CheckFormat::Human {
            let _ = writeln!(
                out,
                "reckon lint: {problems} contradicted or stale statement(s); {}",
                what_wraps(problems, by_hand)
            );
        }
        if unjudged > 0 && !args.all && args.format == CheckFormat::Human {
            // A quiet lint is not prose checked: say what it left.
            let _ = writeln!(
                out,
                "reckon lint: {unjudged} sentence(s) with a statement not judged (no metric named around it, two \
                 readings, or not read whole); `reckon lint --all` lists them"
            );
        }
        if unknown > 0 && args.format == CheckFormat::Human {
            let _ = writeln!(
                out,
                "reckon lint: {unknown} sentence(s) name things reckon.toml does not know; `reckon lint --all` shows \
                 the aliases that would read them"
            );
        }
        out
    };
    super::stdout_write(&text)?;
    Ok(super::exit_code(errors, ingest_failed, problems > 0))
}

/// What `--suggest` and `--write` do with the problems, true of them all:
/// some may sit where no claim region can be written for them.
fn what_wraps(problems: usize, by_hand: usize) -> String {
    const BY_HAND: &str = "(lint could not read all of its sentence, or it sits in a table cell): write its claim \
                           region by hand";
    match by_hand {
        0 => "`--suggest` prints claim regions for them, `--write` wraps them".to_string(),
        k if k == problems => format!("none can be wrapped {BY_HAND}"),
        k => format!(
            "`--suggest` prints claim regions for {} of them, `--write` wraps those; {k} cannot be wrapped {BY_HAND}",
            problems - k
        ),
    }
}

/// Lints one document into `found`, and with `--suggest` or `--write`
/// suggests or wraps the statements reported. `rel` is the path as the
/// researcher gave it, `in_repo` as annotations name it (from the
/// repository's root).
fn lint_document(
    linter: &Linter,
    root: &Path,
    path: &Path,
    (rel, in_repo): (&str, &str),
    args: &LintArgs,
    sel: Selection,
    found: &mut Found,
) -> Result<()> {
    let (original, text) = document::read(root, path)?;
    let findings = linter.lint(Path::new(rel), &text).map_err(document::located(path, &original))?;
    found.problems += findings.iter().filter(|f| sel.fails(f)).count();
    found.unknown += report::unknown_names(&findings);
    found.unjudged += report::unjudged(&findings);
    let (wrappable, _) = report::to_wrap(&findings, |f: &Finding| sel.fails(f));
    found.by_hand += findings
        .iter()
        .filter(|f| sel.fails(f) && (f.in_table || !wrappable.iter().any(|w| std::ptr::eq(*w, *f))))
        .count();
    match args.format {
        CheckFormat::Human => found.out.push_str(&report::human(rel, &findings, sel)),
        CheckFormat::Json => found.statements.extend(Statement::shown(rel, &findings, sel)),
        CheckFormat::Github => found.out.push_str(&report::github(in_repo, &findings, sel, "error")),
    }
    if !args.suggest && !args.write {
        return Ok(());
    }
    // What is wrapped: the problems, or with --all every judged statement
    // (each with the rest of what its sentence says).
    let (chosen, partial) =
        report::to_wrap(
            &findings,
            |f: &Finding| {
                if args.all {
                    f.verdict.is_some() && f.as_of.is_none()
                } else {
                    sel.fails(f)
                }
            },
        );
    for note in partial {
        say!("{rel}:{}", crate::escape::terminal_lines(&note));
    }
    let taken: BTreeSet<String> = doc::parse(Path::new(rel), &text)?
        .regions
        .iter()
        .filter_map(|r| r.arg("id").map(|a| a.value.clone()))
        .collect();
    let wraps = report::wraps(&text, &chosen);
    if args.suggest {
        found.out.push_str(&report::suggestions(rel, &text, &wraps, &taken));
    } else if !wraps.is_empty() {
        let new_text = report::apply(&text, &wraps, &taken);
        // What is written must read back as a valid document.
        doc::parse(Path::new(rel), &new_text)?;
        doc::write_atomic(path, &original, &new_text)?;
        let cells = chosen.iter().filter(|f| f.in_table).count();
        let left = if cells > 0 {
            format!("; {cells} in table cells left as they are (a claim region cannot sit in a table)")
        } else {
            String::new()
        };
        say!("{rel}: wrapped {} statement(s) in {} claim region(s){left}", chosen.len() - cells, wraps.len());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn documents_default_to_reckon_toml_and_suggest_excludes_write() {
        // No document: reckon.toml's `documents`, as for check and claims.
        assert!(parse(&["lint"]).is_ok_and(|c| matches!(c.command, Command::Lint(a) if a.docs.is_empty())));
        assert!(parse(&["lint", "plan.md", "--suggest", "--write"]).is_err());
        let Command::Lint(a) = parse(&["lint", "plan.md", "--min-confidence", "0.8", "--all"]).unwrap().command else {
            panic!("not lint")
        };
        assert_eq!(a.min_confidence, Some(0.8));
        for bad in ["2", "-0.1", "NaN", "high"] {
            let e = parse(&["lint", "plan.md", &format!("--min-confidence={bad}")]).unwrap_err().to_string();
            assert!(e.contains("--min-confidence") && e.contains("expected a number from 0 to 1"), "{e}");
        }
        assert!(a.all && !a.write && !a.suggest);
    }
}
