//! `reckon completions SHELL`: a completion script generated from the clap
//! definitions (no project or database needed).

use super::Cli;
use crate::Result;

#[derive(clap::Args, Debug)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

/// Prints the completion script for the shell.
pub(super) fn run(args: &CompletionsArgs) -> Result<i32> {
    let mut cmd = <Cli as clap::CommandFactory>::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "reckon", &mut buf);
    super::stdout_write(&String::from_utf8_lossy(&buf))?;
    Ok(super::OK)
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn a_known_shell_is_required() {
        let Command::Completions(a) = parse(&["completions", "zsh"]).unwrap().command else {
            panic!("not completions")
        };
        assert_eq!(a.shell, clap_complete::Shell::Zsh);
        assert!(parse(&["completions"]).is_err());
        assert!(parse(&["completions", "tcsh"]).is_err());
    }
}
