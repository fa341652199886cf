//! `reckon claims`: every claim of the documents with its verdict and
//! evidence, or with `--history` its verdict as of every sweep.

use std::path::{Path, PathBuf};

use super::project::{doc_paths, documents_needed, load_for_command, prepare, shown};
use super::reporter::{reporter, ClaimEntry};
use super::CheckFormat;
use crate::config::Config;
use crate::doc::{self, Kind};
use crate::query::Dataset;
use crate::report::ci::RepoPaths;
use crate::review::claim as judge;
use crate::review::document;
use crate::Result;

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct ClaimsArgs {
    /// Markdown documents (none: the `documents` of reckon.toml).
    pub(crate) docs: Vec<PathBuf>,
    /// The verdict of each claim as of every sweep, and the sweep that changed it.
    #[arg(long)]
    pub(crate) history: bool,
    /// How to print the claims.
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    pub(crate) format: CheckFormat,
    /// Do not ingest the sources of reckon.toml first: the database is read
    /// as it is, without looking at any log.
    #[arg(long)]
    pub(crate) no_ingest: bool,
}

pub(super) fn run(cfg: &Config, cwd: &Path, args: &ClaimsArgs) -> Result<i32> {
    let docs = documents_needed(cfg, &args.docs, "claims")?;
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = &load_for_command(&store, cfg)?;
    let mut entries = Vec::new();
    let mut errors = 0;
    // Annotations name files from the repository's root, whatever the folder.
    let repo = RepoPaths::find(cwd, &cfg.root);
    for path in doc_paths(cwd, &docs) {
        let rel = shown(cwd, &path);
        let named = if args.format == CheckFormat::Github { repo.of(&path) } else { rel.clone() };
        errors += judge_document(dataset, cfg, (&path, &rel, &named), args.history, &mut entries);
    }
    super::stdout_write(&reporter(args.format).claims(&entries)?)?;
    Ok(super::exit_code(errors, ingest_failed, false))
}

/// Judges every claim of one document into `entries`. A claim that does not
/// parse (or cannot be judged) is reported with its position and the rest
/// go on; returns the number of errors printed (the command exits 2).
/// The document is its path, the path errors show and the one its entries
/// name (from the repository's root for annotations).
fn judge_document(
    dataset: &Dataset,
    cfg: &Config,
    (path, rel, named): (&Path, &str, &str),
    history: bool,
    entries: &mut Vec<ClaimEntry>,
) -> usize {
    let read = document::read(&cfg.root, path).and_then(|(bytes, text)| {
        let located = document::located(path, &bytes);
        Ok((doc::parse(Path::new(rel), &text).map_err(&located)?, text, located))
    });
    let (parsed, text, located) = match read {
        Ok(read) => read,
        Err(e) => {
            say!("error: {}", super::shown_error(&e));
            return 1;
        }
    };
    let mut errors = 0;
    for region in parsed.regions.iter().filter(|r| r.kind == Kind::Claim) {
        let path = named.to_string();
        let entry = if history {
            judge::history(dataset, cfg, &parsed, &text, region).map(|timeline| {
                if timeline.is_empty() {
                    ClaimEntry::NoSweeps { path, line: region.line }
                } else {
                    ClaimEntry::History { path, line: region.line, timeline }
                }
            })
        } else {
            judge::judge_claim(dataset, cfg, None, &parsed, &text, region)
                .map(|report| ClaimEntry::Judged { path, report })
        };
        match entry {
            Ok(entry) => entries.push(entry),
            Err(e) => {
                say!("error: {}", super::shown_error(&located(e)));
                errors += 1;
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::{CheckFormat, Command};

    #[test]
    fn history_and_every_format_parse() {
        let Command::Claims(a) = parse(&["claims", "plan.md", "--history"]).unwrap().command else {
            panic!("not claims")
        };
        assert!(a.history);
        assert_eq!(a.format, CheckFormat::Human);
        for (name, format) in
            [("human", CheckFormat::Human), ("json", CheckFormat::Json), ("github", CheckFormat::Github)]
        {
            let Command::Claims(a) = parse(&["claims", "--format", name]).unwrap().command else {
                panic!("not claims")
            };
            assert_eq!(a.format, format);
        }
    }
}
