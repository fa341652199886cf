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

fn render(cmd: clap::Command) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut buf).map_err(|e| Error::io("<man page>", e))?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn the_folder_is_optional() {
        let Command::Man(a) = parse(&["man"]).unwrap().command else { panic!("not man") };
        assert!(a.dir.is_none());
        let Command::Man(a) = parse(&["man", "--dir", "man1"]).unwrap().command else { panic!("not man") };
        assert_eq!(a.dir.as_deref(), Some(std::path::Path::new("man1")));
    }
}
