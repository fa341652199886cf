//! `reckon man`: the man page (roff) generated from the clap definitions,
//! or with `--dir` one page per command written there.

use std::path::PathBuf;

use super::Cli;
use crate::{Error, Result};

#[derive(clap::Args, Debug)]
pub(crate) struct ManArgs {
    /// Write reckon.1 and reckon-COMMAND.1 into this folder instead of printing reckon.1.
    #[arg(long, value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
}

/// Prints reckon(1), or writes it and one page per subcommand
/// (reckon-update(1), …) into the folder.
pub(super) fn run(args: &ManArgs) -> Result<i32> {
    let cmd = <Cli as clap::CommandFactory>::command();
    let Some(dir) = &args.dir else {
        super::stdout_write(&String::from_utf8_lossy(&render(cmd)?))?;
        return Ok(super::OK);
    };
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut pages = vec![("reckon.1".to_string(), render(cmd.clone())?)];
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("reckon-{}", sub.get_name());
        let page = sub
            .clone()
            .display_name(name.clone())
            .bin_name(format!("reckon {}", sub.get_name()))
            .version(env!("CARGO_PKG_VERSION"));
        pages.push((format!("{name}.1"), render(page)?));
    }
    for (file, bytes) in &pages {
        let path = dir.join(file);
        std::fs::write(&path, bytes).map_err(|e| Error::io(&path, e))?;
    }
    say!("wrote {} man pages to {}", pages.len(), dir.display());
    Ok(super::OK)
}

/// One page: clap's sections (name, synopsis, description, options,
/// commands), then EXIT STATUS, FILES and EXAMPLES, then the version.
fn render(cmd: clap::Command) -> Result<Vec<u8>> {
    let command = cmd.get_bin_name().and_then(|b| b.strip_prefix("reckon ")).map(str::to_string);
    let options = cmd.get_arguments().any(|a| !a.is_hide_set());
    let commands = cmd.get_subcommands().any(|s| !s.is_hide_set());
    let version = cmd.get_version().is_some();
    let man = clap_mangen::Man::new(cmd);
    let mut buf = Vec::new();
    let io = |e| Error::io("<man page>", e);
    man.render_title(&mut buf).map_err(io)?;
    man.render_name_section(&mut buf).map_err(io)?;
    man.render_synopsis_section(&mut buf).map_err(io)?;
    man.render_description_section(&mut buf).map_err(io)?;
    if options {
        man.render_options_section(&mut buf).map_err(io)?;
    }
    if commands {
        man.render_subcommands_section(&mut buf).map_err(io)?;
    }
    buf.extend_from_slice(sections(command.as_deref()).as_bytes());
    if version {
        man.render_version_section(&mut buf).map_err(io)?;
    }
    Ok(buf)
}

/// EXIT STATUS, FILES and EXAMPLES of reckon(1) (`command` None) or of one command.
fn sections(command: Option<&str>) -> String {
    use clap_mangen::roff::{bold, roman, Roff};
    let mut r = Roff::new();
    let entries = |r: &mut Roff, title: &str, items: &[(&str, &str)]| {
        r.control("SH", [title]);
        for (term, meaning) in items {
            r.control("TP", []);
            r.text([bold(*term)]);
            r.text([roman(*meaning)]);
        }
    };
    entries(&mut r, "EXIT STATUS", &exit_status(command));
    entries(&mut r, "FILES", &files(command));
    let examples = examples(command);
    if !examples.is_empty() {
        entries(&mut r, "EXAMPLES", examples);
    }
    r.to_roff()
}

fn exit_status(command: Option<&str>) -> [(&'static str, &'static str); 3] {
    let found = match command {
        Some("check") => {
            "A region or plot is stale, or a claim is contradicted (--strict: also inconclusive or without data)."
        }
        Some("lint") => "A statement of the prose is contradicted or stale.",
        None => "A check found a problem (check, lint): a stale region, a contradicted claim.",
        Some(_) => "Not used by this command.",
    };
    [
        ("0", "Success: nothing was found that fails."),
        ("1", found),
        (
            "2",
            "Bad input or usage: a log, document, directive or reckon.toml that does not read, said with its \
             file:line; nothing is half-written.",
        ),
    ]
}

fn files(command: Option<&str>) -> Vec<(&'static str, &'static str)> {
    let mut files = vec![
        (
            "reckon.toml",
            "The project's configuration, found by walking up from the current folder (for documents, from \
             each document's folder).",
        ),
        (
            "db/reckon.sqlite",
            "The database (reckon.toml's database), a cache of the logs: deleting it and ingesting again gives \
             the same answers. Its tables are described in docs/schema.md.",
        ),
    ];
    match command {
        Some("update" | "check" | "review" | "report") | None => {
            files.push(("templates/", "The minijinja templates a template region may name (and nothing outside it)."));
        }
        Some("hook") => files.push((".git/hooks/pre-commit", "The hook `reckon hook install` writes.")),
        _ => {}
    }
    if matches!(command, Some("check") | None) {
        files.push((
            "$GITHUB_STEP_SUMMARY",
            "When set (a GitHub Actions step), check appends a markdown summary of every document's verdicts \
             to the file it names.",
        ));
    }
    files
}

fn examples(command: Option<&str>) -> &'static [(&'static str, &'static str)] {
    match command {
        None => &[
            (
                "reckon update notebooks/plan.md",
                "Ingest the sources, regenerate the plan's regions, judge its claims, print the diff.",
            ),
            (
                "reckon check --format github",
                "In CI: the documents of reckon.toml, each problem as a workflow annotation.",
            ),
        ],
        Some("ingest") => &[
            ("reckon ingest results/*.jsonl", "Ingest logs, each format detected from its content."),
            ("reckon ingest 'logs/{date}/{config}.jsonl'", "Labels captured from the path."),
            ("reckon ingest --label sweep=2026-09 gemm.csv", "A log without times of its own, named its sweep."),
        ],
        Some("runs") => {
            &[("reckon runs --where \"config = baseline\" --limit 0 --format csv", "Every run of one config.")]
        }
        Some("query") => &[(
            "reckon query --metric output_throughput --rows max_concurrency --cols config",
            "The median of each cell's newest sweep.",
        )],
        Some("export") => &[
            ("reckon export > runs.csv", "Every measurement, one tidy row each."),
            ("reckon export --newest --metric output_throughput --format jsonl", "Only what cells use."),
        ],
        Some("update") => &[("reckon update --write notebooks/plan.md", "Apply the regenerated regions and notes.")],
        Some("check") => &[
            ("reckon check", "The documents of reckon.toml, exit 1 when something is stale or contradicted."),
            ("reckon check --format sarif > reckon.sarif", "SARIF 2.1.0 for code scanning."),
            ("reckon check --staged", "What a commit is about to record (the pre-commit hook)."),
        ],
        Some("claims") => &[("reckon claims --history notebooks/plan.md", "Each claim as of every sweep.")],
        Some("lint") => &[("reckon lint --suggest notebooks/plan.md", "A claim region for each checkable statement.")],
        Some("supersede") => {
            &[("reckon supersede notebooks/plan.md old-claim --write", "Keep an overturned claim as history.")]
        }
        Some("diff") => &[(
            "reckon diff --metric output_throughput --only-moved",
            "What moved beyond noise between the two newest sweeps.",
        )],
        Some("review") => &[("reckon review notebooks/plan.md", "Accept or reject each change in turn.")],
        Some("report") => &[("reckon report --out site notebooks/plan.md", "A self-contained HTML page per document.")],
        Some("watch") => &[
            ("reckon watch", "While a sweep runs: each verdict that changes as its logs arrive."),
            ("reckon watch --serve 8000 notebooks/plan.md", "The report at http://127.0.0.1:8000/, reloading itself."),
        ],
        Some("hook") => &[("reckon hook install", "Check every commit.")],
        Some("init") => &[("reckon init", "Start a project in the current folder.")],
        Some("completions") => &[("reckon completions zsh > ~/.zfunc/_reckon", "Completion for zsh.")],
        Some("man") => &[("reckon man --dir ~/.local/share/man/man1", "Install every page.")],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn every_page_has_exit_status_files_and_examples() {
        let cmd = <crate::cli::Cli as clap::CommandFactory>::command();
        let top = String::from_utf8(super::render(cmd.clone()).unwrap()).unwrap();
        for section in [".SH \"EXIT STATUS\"", ".SH FILES", ".SH EXAMPLES", ".SH OPTIONS"] {
            assert!(top.contains(section), "reckon(1) lacks {section}");
        }
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let page = sub.clone().bin_name(format!("reckon {}", sub.get_name()));
            let page = String::from_utf8(super::render(page).unwrap()).unwrap();
            assert!(page.contains(".SH \"EXIT STATUS\"") && page.contains(".SH FILES"), "{}", sub.get_name());
            assert!(page.contains(".SH EXAMPLES"), "reckon-{} has no example", sub.get_name());
        }
    }

    #[test]
    fn every_format_and_each_of_its_values_is_described() {
        let cmd = <crate::cli::Cli as clap::CommandFactory>::command();
        let mut seen = 0;
        for sub in cmd.get_subcommands() {
            for arg in sub.get_arguments().filter(|a| a.get_id() == "format") {
                seen += 1;
                assert!(arg.get_help().is_some(), "reckon {} --format has no description", sub.get_name());
                for value in arg.get_possible_values() {
                    let name = value.get_name();
                    assert!(value.get_help().is_some(), "reckon {} --format {name} is not described", sub.get_name());
                }
            }
        }
        assert!(seen >= 8, "{seen} --format options");
    }

    #[test]
    fn the_folder_is_optional() {
        let Command::Man(a) = parse(&["man"]).unwrap().command else { panic!("not man") };
        assert!(a.dir.is_none());
        let Command::Man(a) = parse(&["man", "--dir", "man1"]).unwrap().command else { panic!("not man") };
        assert_eq!(a.dir.as_deref(), Some(std::path::Path::new("man1")));
    }
}
