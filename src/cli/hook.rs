//! `reckon hook install`: a plain git pre-commit hook that runs
//! `reckon check --staged` when a commit touches what reckon reads.

use std::path::Path;

use crate::{Error, Result};

#[derive(clap::Subcommand, Debug)]
pub(crate) enum HookCommand {
    /// Install a plain git pre-commit hook that runs `reckon check --staged`
    /// when a commit touches a document, a log or reckon.toml.
    Install {
        /// Replace an existing pre-commit hook.
        #[arg(long)]
        force: bool,
    },
}

pub(super) fn run(cwd: &Path, command: &HookCommand) -> Result<i32> {
    match command {
        HookCommand::Install { force } => install(cwd, *force),
    }
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
    echo "reckon pre-commit hook: \`$reckon\` is not on PATH;" \
        "install it (cargo install --path <reckon>) or set RECKON" >&2
    exit 1
fi
git diff --cached --name-only -z --no-renames | xargs -0 "$reckon" check --staged --
"#;

fn install(cwd: &Path, force: bool) -> Result<i32> {
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
    say!("installed {}", hook.display());
    Ok(super::OK)
}

#[cfg(test)]
mod tests {
    use super::HookCommand;
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn install_takes_force() {
        let Command::Hook(HookCommand::Install { force }) = parse(&["hook", "install", "--force"]).unwrap().command
        else {
            panic!("not hook install")
        };
        assert!(force);
        assert!(parse(&["hook"]).is_err(), "a hook subcommand is required");
    }
}
