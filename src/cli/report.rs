//! `reckon report`: each document as a self-contained HTML page
//! (DIR/NAME.html) with plots inline and claims with their evidence.

use std::path::{Path, PathBuf};

use super::project::{load_for_command, prepare, relative_error, review_all, shown};
use crate::config::Config;
use crate::review::Context;
use crate::Result;

#[derive(clap::Args, Debug)]
pub(crate) struct ReportArgs {
    /// Markdown documents.
    #[arg(required = true)]
    pub(crate) docs: Vec<PathBuf>,
    /// The folder to write the pages into (created if missing).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// Do not ingest the sources of reckon.toml first: the database is read
    /// as it is, without looking at any log.
    #[arg(long)]
    pub(crate) no_ingest: bool,
}

pub(super) fn run(cfg: &Config, cwd: &Path, args: &ReportArgs) -> Result<i32> {
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = &load_for_command(&store, cfg)?;
    let ctx = Context { dataset, store: &store, cfg, doc_dir: cwd, cache: None };
    let (reviews, mut errors) = review_all(&ctx, cwd, &args.docs);
    let out_dir = cwd.join(&args.out);
    let commit = crate::report::forge::Commit::of(&cfg.root);
    let mut written: Vec<PathBuf> = Vec::new();
    for r in &reviews {
        let target = crate::report::page_path(&out_dir, &r.path);
        if written.contains(&target) {
            say!(
                "error: {}: another document already wrote {}; report documents with different names, or one at a time",
                r.path.display(),
                shown(cwd, &target)
            );
            errors += 1;
            continue;
        }
        let doc_dir = cwd.join(&r.path).parent().map_or_else(|| cwd.to_path_buf(), Path::to_path_buf);
        let ctx = Context { doc_dir: &doc_dir, ..ctx };
        let site = crate::report::Site {
            root: absolute(cwd, &cfg.root),
            page_dir: target.parent().map_or_else(|| out_dir.clone(), Path::to_path_buf),
            commit: commit.clone(),
        };
        let html = crate::report::page(&ctx, r, &site).and_then(|html| crate::report::write_page(&target, &html));
        match html {
            Ok(()) => {
                say!("{}: {}", r.path.display(), shown(cwd, &target));
                written.push(target);
            }
            Err(e) => {
                say!("error: {}", super::shown_error(&relative_error(e, cwd)));
                errors += 1;
            }
        }
    }
    Ok(super::exit_code(errors, ingest_failed, false))
}

/// `path` made absolute against `cwd`.
fn absolute(cwd: &Path, path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    }
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;

    #[test]
    fn documents_and_an_output_folder_are_required() {
        assert!(parse(&["report", "plan.md"]).is_err());
        assert!(parse(&["report", "--out", "site"]).is_err());
        assert!(parse(&["report", "plan.md", "--out", "site"]).is_ok());
    }
}
