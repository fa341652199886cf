//! `reckon init`: reckon.toml, notebooks/, db/ (with a .gitignore for the
//! database, a cache of the logs) and templates/ in the current folder.
//! With a reckon.toml already there, only the folders it names: those of
//! its `documents` and its `database` (a project that keeps its plans
//! elsewhere gets no empty notebooks/).
//!
//! In a folder that already holds logs, the new reckon.toml names them
//! (`[[source]]` templates, [`layout`]) and proposes `[aliases]` and
//! `[points]` from what they hold ([`crate::lint::propose`]), each under a
//! comment saying why: the logs are read into a database in memory, so
//! init writes no database the researcher did not ask for.

mod layout;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::query::Dataset;
use crate::store::{Batch, Store};
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
    let mut found = None;
    if fresh {
        let logs = layout::logs(cwd, Some(Path::new("db")));
        let text = if logs.is_empty() {
            INIT_TOML.to_string()
        } else {
            let (text, said) = with_logs(cwd, &toml, &logs)?;
            found = Some(said);
            text
        };
        std::fs::write(&toml, text).map_err(|e| Error::io(&toml, e))?;
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
    if let Some(said) = found {
        say!("reckon init: {said}");
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

/// The param a log's file name captures in the reckon.toml init writes.
const SERIES: &str = "config";

/// The reckon.toml of a folder holding `logs`: its sources, its series,
/// and what the data they hold propose for `[aliases]` and `[points]`;
/// with what init says of them.
fn with_logs(cwd: &Path, toml: &Path, logs: &[PathBuf]) -> Result<(String, String)> {
    let sources = layout::sources(logs, SERIES);
    let captured = sources.iter().any(|s| !s.names.is_empty());
    let first = sources_text(SERIES, &[], &sources);
    let cfg = Config::parse(&first, cwd, Some(toml))?;
    let requests = super::ingest::sources_requests(&cfg, None, &BTreeMap::new())?;
    let mut store = Store::open_in_memory()?;
    let opts = cfg.ingest_options();
    let mut batch = Batch::at_head_of("reckon init".to_string(), cwd);
    let report = crate::sources::ingest(&mut store, cwd, &requests, &opts, &mut batch, &mut |_, _, _| {});
    let dataset = Dataset::load(&store)?;
    // The series: the file names captured, else the one text param whose
    // values differ between runs, else `config` with the candidates said.
    let varying: Vec<String> = dataset
        .params()
        .filter(|p| !p.contains('.') && !crate::run::is_repeat_marker(p))
        .filter(|p| dataset.param_values(p).len() > 1)
        .map(str::to_string)
        .collect();
    let texts: Vec<&String> = varying
        .iter()
        .filter(|p| dataset.param_values(p).iter().any(|v| crate::syntax::read_logged(v).is_none()))
        .collect();
    let (series, note) = match texts.as_slice() {
        _ if captured => (SERIES.to_string(), Vec::new()),
        [one] => ((*one).clone(), vec![format!("`{one}`: the one param with text values that differ between runs")]),
        _ => (
            SERIES.to_string(),
            vec![format!(
                "No log names a `{SERIES}`: set `series` to the param whose values name what is compared (params \
                 that differ between runs: {})",
                if varying.is_empty() { "none".to_string() } else { shown(&varying) }
            )],
        ),
    };
    let mut text = sources_text(&series, &note, &sources);
    let cfg = Config::parse(&text, cwd, Some(toml))?;
    let options = cfg.lint_options(&dataset);
    let proposals = crate::lint::propose::from_data(&dataset, &options);
    let lines = crate::lint::propose::toml_lines(&options, &proposals);
    if !lines.is_empty() {
        text.push_str("\n# Proposed from the data: the words prose usually writes for these names.\n");
        for l in &lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    // What init writes, reckon reads: a proposal that would not parse is a bug here.
    Config::parse(&text, cwd, Some(toml))?;
    Ok((text, told(&report, sources.len(), &proposals)))
}

/// reckon.toml up to its sources: `series` with the comments on it, and
/// a `[[source]]` for each template.
fn sources_text(series: &str, note: &[String], sources: &[layout::Source]) -> String {
    let mut text = String::from(
        "# reckon's configuration: see the \"reckon.toml\" section of reckon's README.md.\n\n\
         database = \"db/reckon.sqlite\"\n\
         # The param whose values name the things being compared.\n",
    );
    for n in note {
        writeln!(text, "# {n}").ok();
    }
    writeln!(text, "series = {}", toml::Value::String(series.to_string())).ok();
    text.push_str("# The living documents: what check, update, claims and the pre-commit hook read.\n");
    text.push_str("documents = [\"notebooks/*.md\"]\n");
    text.push_str("\n# The logs found here, by the formats reckon reads (`reckon ingest` reads them).\n");
    for s in sources {
        text.push('\n');
        writeln!(text, "# {} log{}", s.files, if s.files == 1 { "" } else { "s" }).ok();
        if s.dated {
            text.push_str("# {date}: the folder's date, the run time\n");
        }
        if !s.names.is_empty() {
            writeln!(text, "# {{{SERIES}}}: the file names, naming what is compared: {}", shown(&s.names)).ok();
        }
        writeln!(text, "[[source]]\npath = {}", toml::Value::String(s.template.clone())).ok();
    }
    text
}

/// What init says of the logs it read and what it proposes.
fn told(report: &crate::sources::Report, sources: usize, proposals: &crate::lint::propose::Proposals) -> String {
    let files = report.added_files();
    let mut said = format!(
        "read {files} log{} ({} runs) into a database in memory, none written; reckon.toml names them in \
         {sources} [[source]] entr{}",
        if files == 1 { "" } else { "s" },
        report.added_runs(),
        if sources == 1 { "y" } else { "ies" }
    );
    let n = proposals.entries.len();
    if n > 0 || !proposals.clashes.is_empty() {
        let _ = write!(
            said,
            " and proposes {n} alias or point entr{} from the data (each under why: check them)",
            if n == 1 { "y" } else { "ies" }
        );
    }
    for f in &report.files {
        if let crate::sources::FileOutcome::Failed(e) = &f.outcome {
            let _ = write!(said, "\nreckon init: {} was not read: {e}", f.path.display());
        }
    }
    said
}

/// Up to six names, then how many more.
fn shown<S: AsRef<str>>(names: &[S]) -> String {
    let mut out: Vec<String> = names.iter().take(6).map(|n| n.as_ref().to_string()).collect();
    if names.len() > 6 {
        out.push(format!("… ({} more)", names.len() - 6));
    }
    out.join(", ")
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
