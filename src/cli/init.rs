//! `reckon init`: reckon.toml, notebooks/, db/ (with a .gitignore for the
//! database, a cache of the logs) and templates/ in the current folder.

use std::path::Path;

use crate::{Error, Result};

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

pub(super) fn run(cwd: &Path) -> Result<i32> {
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
    Ok(super::OK)
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn takes_no_arguments() {
        assert!(matches!(parse(&["init"]).unwrap().command, Command::Init));
        assert!(parse(&["init", "here"]).is_err());
    }
}
