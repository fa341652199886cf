//! `reckon init`: reckon.toml, notebooks/, db/ (with a .gitignore for the
//! database, a cache of the logs) and templates/ in the current folder.
//! With a reckon.toml already there, only the folders it names: those of
//! its `documents` and its `database` (a project that keeps its plans
//! elsewhere gets no empty notebooks/).

use std::path::{Path, PathBuf};

use crate::{Error, Result};

const INIT_TOML: &str = r#"# reckon's configuration: see the "reckon.toml" section of reckon's README.md.

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

pub(super) fn run(cwd: &Path) -> Result<i32> {
    let mut created = Vec::new();
    let toml = cwd.join(crate::config::FILE_NAME);
    let fresh = !toml.exists();
    if fresh {
        std::fs::write(&toml, INIT_TOML).map_err(|e| Error::io(&toml, e))?;
        created.push("reckon.toml".to_string());
    }
    let cfg = crate::config::Config::load(&toml)?;
    let mut dirs: Vec<PathBuf> = cfg.documents.iter().filter_map(|d| documents_folder(&d.glob)).collect();
    // The database's folder when it lies inside the project (not its root).
    let db_dir = cfg
        .database
        .parent()
        .and_then(|d| d.strip_prefix(&cfg.root).ok())
        .filter(|d| *d != Path::new("") && !d.starts_with(".."))
        .map(Path::to_path_buf);
    dirs.extend(db_dir.clone());
    // Templates are optional: offered to a new project only.
    if fresh {
        dirs.push(PathBuf::from("templates"));
    }
    for dir in dirs {
        let p = cwd.join(&dir);
        if !p.exists() {
            std::fs::create_dir_all(&p).map_err(|e| Error::io(&p, e))?;
            created.push(format!("{}/", dir.display()));
        }
    }
    // The database is a cache: ignored in its own folder, never by a
    // pattern written into the project's root.
    if let Some(dir) = db_dir {
        let ignore = dir.join(".gitignore");
        let at = cwd.join(&ignore);
        if !at.exists() {
            std::fs::write(&at, "# the database is a cache rebuilt from the logs\n*.sqlite\n*.sqlite-*\n")
                .map_err(|e| Error::io(&at, e))?;
            created.push(ignore.display().to_string());
        }
    }
    if created.is_empty() {
        say!("reckon init: everything is already there");
    } else {
        say!("reckon init: created {}", created.join(", "));
    }
    // A new project inside another (a monorepo's bench/ is one on purpose;
    // `init` run from the wrong folder is another): say which reckon.toml
    // now governs what, since commands pick the nearest one silently.
    if let Some(above) = fresh.then(|| enclosing_config(cwd)).flatten() {
        say!(
            "reckon init: note: {} is the reckon.toml of the folders above; commands run in this folder \
             (and documents under it) now use ./reckon.toml instead. If this folder belongs to that project, \
             remove ./reckon.toml and run reckon from there",
            above.display()
        );
    }
    Ok(super::OK)
}

/// The reckon.toml of a folder above `cwd`, if any.
fn enclosing_config(cwd: &Path) -> Option<PathBuf> {
    cwd.ancestors().skip(1).map(|d| d.join(crate::config::FILE_NAME)).find(|f| f.is_file())
}

/// The folder a `documents` glob lies in, up to its first wildcard
/// (`notebooks/*.md` → `notebooks`, `docs/**/plan.md` → `docs`), or `None`
/// for documents in the project's folder itself.
fn documents_folder(glob: &str) -> Option<PathBuf> {
    let parts: Vec<&str> = glob.split('/').collect();
    let literal: Vec<&str> = parts[..parts.len() - 1]
        .iter()
        .take_while(|p| !p.contains(['*', '?', '[', '{']))
        .filter(|p| !p.is_empty() && **p != ".")
        .copied()
        .collect();
    // A path leading out of the project is not init's to make.
    (!literal.is_empty() && !literal.contains(&"..")).then(|| literal.iter().collect())
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn documents_folders_stop_at_the_first_wildcard() {
        use super::documents_folder;
        use std::path::PathBuf;
        assert_eq!(documents_folder("notebooks/*.md"), Some(PathBuf::from("notebooks")));
        assert_eq!(documents_folder("docs/perf/**/plan.md"), Some(PathBuf::from("docs/perf")));
        assert_eq!(documents_folder("plan.md"), None);
        assert_eq!(documents_folder("./plan.md"), None);
        assert_eq!(documents_folder("*/notes.md"), None);
        assert_eq!(documents_folder("../shared/plan.md"), None);
    }

    #[test]
    fn takes_no_arguments() {
        assert!(matches!(parse(&["init"]).unwrap().command, Command::Init));
        assert!(parse(&["init", "here"]).is_err());
    }
}
