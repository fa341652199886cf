//! Shell completions and man pages, generated from the clap definitions.

mod common;
use common::Sandbox;

/// Every subcommand the binary knows, read from its own help.
fn subcommands(s: &Sandbox) -> Vec<String> {
    let help = s.ok(&["--help"]).stdout;
    let start = help.find("Commands:").expect("help lists commands");
    help[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

#[test]
fn bash_completion_loads_and_completes_every_subcommand() {
    let s = Sandbox::new();
    let script = s.ok(&["completions", "bash"]).stdout;
    let commands = subcommands(&s);
    assert!(commands.len() >= 10, "{commands:?}");
    for c in &commands {
        assert!(script.contains(c.as_str()), "completion script lacks `{c}`");
    }
    // bash accepts the script and registers a completion for reckon.
    s.write("reckon.bash", &script);
    let out = std::process::Command::new("bash")
        .current_dir(s.path())
        .args(["-c", "source ./reckon.bash && complete -p reckon"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("_reckon"), "{out:?}");
}

#[test]
fn completions_for_other_shells_and_unknown_shell_refused() {
    let s = Sandbox::new();
    assert!(s.ok(&["completions", "zsh"]).stdout.starts_with("#compdef reckon"));
    assert!(s.ok(&["completions", "fish"]).stdout.contains("complete -c reckon"));
    let r = s.run(&["completions", "tcsh"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("bash"), "lists the shells it knows: {r:?}");
}

#[test]
fn man_page_names_every_subcommand_and_writes_one_page_each() {
    let s = Sandbox::new();
    let page = s.ok(&["man"]).stdout;
    assert!(page.contains(".TH reckon 1"), "{}", &page[..200.min(page.len())]);
    let commands = subcommands(&s);
    for c in &commands {
        assert!(page.contains(&format!("reckon\\-{}(1)", c.replace('-', "\\-"))), "man page lacks {c}");
    }
    let r = s.ok(&["man", "--dir", "man1"]);
    assert!(r.stderr.contains(&format!("wrote {} man pages", commands.len() + 1)), "{r:?}");
    let update = s.read("man1/reckon-update.1");
    assert!(update.contains(".TH reckon-update 1"), "{update}");
    assert!(update.contains("\\-\\-write"), "the page documents the flags: {update}");
}
