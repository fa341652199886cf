//! Shell completions and man pages, generated from the clap definitions, and
//! dynamic completion of the project's names from its database.

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

/// The shell's question as `clap_complete`'s bash script asks it: the words
/// so far (the last one being completed), one candidate per line back.
fn complete(s: &Sandbox, dir: &str, words: &[&str]) -> (Vec<String>, common::Ran) {
    let mut c = s.command(&[&["--", "reckon"], words].concat());
    c.current_dir(s.path().join(dir))
        .env("COMPLETE", "bash")
        .env("_CLAP_COMPLETE_INDEX", words.len().to_string())
        .env("_CLAP_IFS", "\n");
    let r = common::Ran::from(&c.output().unwrap());
    (r.stdout.lines().map(str::to_string).collect(), r)
}

#[test]
fn dynamic_completion_offers_the_projects_metric_param_and_series_names() {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    s.ok(&["ingest"]);
    let db = std::fs::read(s.path().join("db/reckon.sqlite")).unwrap();
    let (got, r) = complete(&s, "", &["query", "--metric", "output_t"]);
    assert_eq!(got, ["output_throughput"], "{r:?}");
    // reckon.toml's aliases of a metric complete too.
    let (got, _) = complete(&s, "", &["export", "--metric", "mean_ttft_ms,out"]);
    assert!(got.contains(&"mean_ttft_ms,output_throughput".to_string()), "after the comma: {got:?}");
    let (got, _) = complete(&s, "", &["query", "--metric", "x", "--rows", "max_"]);
    assert_eq!(got, ["max_concurrency"]);
    // A filter: param names, then the series' names after the operator.
    let (got, _) = complete(&s, "notebooks", &["diff", "--where", "config=eagle"]);
    assert_eq!(got, ["config=eagle-topk1-v2", "config=eagle-topk4-v1"], "from a subfolder too");
    let (got, _) = complete(&s, "", &["runs", "--where", "max_concurrency = "]);
    assert!(got.contains(&"max_concurrency = 8".to_string()), "{got:?}");
    let (got, _) = complete(&s, "", &["export", "--where", "swe"]);
    assert_eq!(got, ["sweep"]);
    // Subcommands and flags still come from the definitions.
    let (got, _) = complete(&s, "", &["exp"]);
    assert_eq!(got, ["export"]);
    assert!(r.stderr.is_empty(), "{r:?}");
    assert_eq!(std::fs::read(s.path().join("db/reckon.sqlite")).unwrap(), db, "nothing written");
}

#[test]
fn dynamic_completion_without_a_project_or_with_a_broken_database_says_nothing() {
    let s = Sandbox::new();
    let (got, r) = complete(&s, "", &["query", "--metric", ""]);
    assert!(got.is_empty() && r.code == 0 && r.stderr.is_empty(), "{r:?}");
    assert!(!s.path().join("db").exists(), "no database is created");
    s.write("reckon.toml", "series = \"config\"\n[aliases]\noutput_throughput = [\"tput\"]\n");
    s.write("db/reckon.sqlite", "not a database");
    let (got, r) = complete(&s, "", &["query", "--metric", ""]);
    assert!(r.code == 0 && r.stderr.is_empty(), "{r:?}");
    assert!(got.is_empty(), "no metric is known, so no alias of one: {got:?}");
    assert_eq!(s.read("db/reckon.sqlite"), "not a database");
}

#[test]
fn dynamic_completion_registers_with_bash() {
    let s = Sandbox::new();
    let mut c = s.command(&[]);
    let r = String::from_utf8(c.env("COMPLETE", "bash").output().unwrap().stdout).unwrap();
    assert!(r.contains("_clap_complete_reckon"), "{r}");
    s.write("dynamic.bash", &r);
    let out = std::process::Command::new("bash")
        .current_dir(s.path())
        .args(["-c", "source ./dynamic.bash && complete -p reckon"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("_clap_complete_reckon"), "{out:?}");
}
