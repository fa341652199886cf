//! A check served from the evaluation cache says what a check from a fresh
//! database says. Random steps — a log's value edited, a run appended, a
//! log deleted and put back, a new sweep, the prose, a region's arguments
//! or a claim edited, `update --write` — are interleaved with checks, and
//! every check's stdout, stderr, exit code (and, for `--format github`, the
//! job summary it appends) is compared with the same check of a copy of the
//! project with no database. A check with `--no-ingest` reads the database
//! as it is, so it is compared with `--no-ingest --no-cache` on the same
//! database instead.
//!
//! The seed is fixed (`RECKON_INCR_SEED` to try another); each of the four
//! cases (two with lint on, two with it off) runs `RECKON_INCR_STEPS` steps
//! (250 unless set; CI sets 750, three thousand in all). A failing case
//! keeps its project and prints the steps that led to it.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{copy_dir, isolated, repo, scenario_logs, Git};

/// Steps per case when `RECKON_INCR_STEPS` is not set: four cases of this
/// many make a thousand steps in about a minute on two cores (`.ci/run`
/// runs 750 per case).
const DEFAULT_STEPS: usize = 250;

/// xorshift64*: enough randomness to pick steps, the same on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const TABLES: &[&str] = &[
    "<!-- reckon:table metric=output_throughput rows=max_concurrency cols=config digits=1 -->",
    "<!-- reckon:table metric=output_throughput rows=max_concurrency cols=config digits=2 -->",
    concat!(
        "<!-- reckon:table metric=output_throughput rows=max_concurrency cols=config ",
        "where=\"date = 2026-11-20\" digits=1 -->"
    ),
    "<!-- reckon:table metric=output_throughput rows=max_concurrency cols=config highlight=best caption=true -->",
    "<!-- reckon:table metric=request_throughput rows=max_concurrency cols=config digits=3 -->",
    "<!-- reckon:table metric=no_such_metric rows=max_concurrency -->",
];

const VALUES: &[&str] = &[
    "<!-- reckon:value metric=output_throughput config=baseline max_over=max_concurrency -->",
    "<!-- reckon:value metric=output_throughput config=eagle-topk4-v1 max_concurrency=1 digits=2 -->",
    "<!-- reckon:value metric=output_throughput config=baseline max_concurrency=100 -->",
];

const PLOTS: &[&str] = &[
    "<!-- reckon:plot metric=output_throughput x=max_concurrency log=x file=study-throughput.svg -->",
    "<!-- reckon:plot metric=output_throughput x=max_concurrency file=study-throughput.svg title=\"Throughput\" -->",
];

const DIFFS: &[&str] = &[
    "<!-- reckon:diff metric=output_throughput only=moved digits=1 -->",
    "<!-- reckon:diff metric=output_throughput digits=2 -->",
];

const SQLS: &[&str] = &[
    "<!-- reckon:sql query=\"SELECT sweep, count(*) AS runs FROM run GROUP BY sweep ORDER BY sweep\" -->",
    "<!-- reckon:sql query=\"SELECT count(*) AS sources FROM source\" -->",
];

const CLAIMS: &[&str] = &[
    "<!-- reckon:claim id=c1 eagle-topk4-v1 beats baseline on output_throughput at max_concurrency = 1 -->",
    "<!-- reckon:claim id=c1 baseline beats others on output_throughput for all max_concurrency >= 30 -->",
    concat!(
        "<!-- reckon:claim id=c1 max(baseline / eagle-topk4-v1 on output_throughput for all max_concurrency) ",
        "≈ 2.3 within 3% -->"
    ),
    concat!(
        "<!-- reckon:claim id=c1 baseline / eagle-topk4-v1 on output_throughput at max_concurrency = 8 ",
        "≈ 1.6 within 5% -->"
    ),
    "<!-- reckon:claim id=c1 crossover(baseline, eagle-topk4-v1 on output_throughput over max_concurrency) = 2 -->",
    "<!-- reckon:claim id=c1 baseline beats nobody on output_throughput -->",
];

/// The kinds of region of the document, each with the variants of its
/// opening marker a step may swap in; a variant's index is found again by
/// its marker's first word.
const SLOTS: &[(&str, &[&str])] =
    &[("table", TABLES), ("value", VALUES), ("plot", PLOTS), ("diff", DIFFS), ("sql", SQLS), ("claim", CLAIMS)];

const PROSE: &[&str] = &[
    "We ran every configuration again after the driver update.",
    "Baseline reaches about 760 tok/s at max_concurrency = 150.",
    "EAGLE topk=4 is faster than baseline at max_concurrency = 1.",
    "The numbers below are regenerated from the logs.",
    "Throughput stops growing past 100 concurrent requests.",
];

/// The document: prose lines and one region of each kind.
fn document() -> String {
    let [table, value, plot, diff, sql, claim] = [TABLES[0], VALUES[0], PLOTS[0], DIFFS[0], SQLS[0], CLAIMS[0]];
    format!(
        "# Study\n\nProse: We measure output throughput.\n\n\
         {table}\n<!-- /reckon:table -->\n\n\
         Peak: {value}1<!-- /reckon:value --> tok/s.\n\n\
         Prose: The plot shows the same.\n\n\
         {plot}\n<!-- /reckon:plot -->\n\n\
         {diff}\n<!-- /reckon:diff -->\n\n\
         {sql}\n<!-- /reckon:sql -->\n\n\
         {claim}\nEagle wins single requests.\n<!-- /reckon:claim -->\n\n\
         Prose: That is all.\n"
    )
}

const DOC: &str = "notebooks/study.md";

/// The live project (its database kept from step to step) and the logs a
/// step deleted, to put back later.
struct Project {
    dir: tempfile::TempDir,
    stash: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        Project::with_lint(true)
    }

    /// The project, with lint on (reckon.toml's default: a check reads the
    /// data for the prose whatever the cache knows) or off (a check the
    /// cache knows all of reads no data at all).
    fn with_lint(lint: bool) -> Project {
        let dir = tempfile::tempdir().unwrap();
        let mut toml = std::fs::read_to_string(repo().join("reckon.toml")).unwrap();
        if !lint {
            toml.push_str("\n[lint]\nlevel = \"off\"\n");
        }
        std::fs::write(dir.path().join("reckon.toml"), toml).unwrap();
        copy_dir(&scenario_logs(), &dir.path().join("notebooks/logs"));
        std::fs::write(dir.path().join(DOC), document()).unwrap();
        Project { dir, stash: tempfile::tempdir().unwrap() }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn logs(&self) -> Vec<PathBuf> {
        let mut logs = Vec::new();
        walk(&self.root().join("notebooks/logs"), &mut logs);
        logs.sort();
        logs
    }

    fn stashed(&self) -> Vec<PathBuf> {
        let mut logs = Vec::new();
        walk(self.stash.path(), &mut logs);
        logs.sort();
        logs
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// What one run of reckon said.
#[derive(Debug, PartialEq)]
struct Said {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    summary: String,
}

fn reckon(dir: &Path, args: &[&str], summary: Option<&Path>) -> Said {
    let mut c = Command::new(env!("CARGO_BIN_EXE_reckon"));
    c.args(args).current_dir(dir);
    isolated(&mut c);
    if let Some(s) = summary {
        std::fs::write(s, "").unwrap();
        c.env("GITHUB_STEP_SUMMARY", s);
    }
    let out = c.output().unwrap();
    let shown = |b: &[u8]| String::from_utf8_lossy(b).replace(&dir.display().to_string(), "<project>");
    // The ingest's own count (said when a log failed) is of what this
    // ingest did, which a fresh database and a kept one differ in by
    // design: "ingested 1 file(s); 5 already present" against "6 file(s)".
    let stderr: Vec<String> = shown(&out.stderr)
        .lines()
        .map(|l| if l.starts_with("ingested ") && l.contains(" already present") { "ingested …" } else { l })
        .map(str::to_string)
        .collect();
    Said {
        code: out.status.code(),
        stdout: shown(&out.stdout),
        stderr: stderr.join("\n"),
        summary: summary.map(|s| std::fs::read_to_string(s).unwrap()).unwrap_or_default(),
    }
}

/// The project's files without its database.
fn fresh_copy(from: &Path) -> tempfile::TempDir {
    let to = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let name = e.file_name();
        if name == "db" {
            continue;
        }
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.path().join(&name));
        } else {
            std::fs::copy(&p, to.path().join(&name)).unwrap();
        }
    }
    to
}

/// How many rows the evaluation cache holds at the database's generation.
fn cached_now(root: &Path) -> i64 {
    let Ok(c) = rusqlite::Connection::open(root.join("db/reckon.sqlite")) else { return 0 };
    c.query_row(
        "SELECT count(*) FROM evaluation_cache WHERE generation = (SELECT value FROM data_generation)",
        [],
        |r| r.get(0),
    )
    .unwrap_or(0)
}

/// A new number for a log, with one decimal.
fn number(rng: &mut Rng) -> String {
    format!("{}.{}", 50 + rng.below(900), rng.below(10))
}

/// Replaces the value after one of the occurrences of `label` in `text`.
fn replace_value(text: &str, label: &str, rng: &mut Rng) -> Option<String> {
    let at: Vec<usize> = text.match_indices(label).map(|(i, _)| i + label.len()).collect();
    if at.is_empty() {
        return None;
    }
    let start = *rng.pick(&at);
    let rest = &text[start..];
    let lead = rest.len() - rest.trim_start().len();
    let len = rest[lead..].find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len() - lead);
    Some(format!("{}{}{}", &text[..start + lead], number(rng), &text[start + lead + len..]))
}

/// The `i`-th opening marker of `kind` in the document, replaced by `by`.
fn swap_marker(doc: &str, kind: &str, by: &str) -> Option<String> {
    let start = doc.find(&format!("<!-- reckon:{kind} "))?;
    let end = start + doc[start..].find("-->")? + 3;
    Some(format!("{}{by}{}", &doc[..start], &doc[end..]))
}

/// One random step on the project; returns what it did, for the log of a
/// failing case. A check step compares with a fresh database.
fn step(p: &mut Project, rng: &mut Rng, checks: &mut (usize, usize)) -> String {
    let root = p.root().to_path_buf();
    let roll = rng.below(100);
    match roll {
        0..=29 => check(p, rng, checks),
        30..=64 => log_step(p, rng, roll),
        65..=74 => {
            let doc = std::fs::read_to_string(root.join(DOC)).unwrap();
            let lines: Vec<&str> = doc.lines().collect();
            let prose: Vec<usize> = (0..lines.len()).filter(|i| lines[*i].starts_with("Prose:")).collect();
            let i = *rng.pick(&prose);
            let mut out: Vec<String> = lines.iter().map(|l| (*l).to_string()).collect();
            let sentence = format!("Prose: {}", rng.pick(PROSE));
            match rng.below(3) {
                0 if prose.len() > 1 => {
                    out.remove(i);
                }
                1 => out.insert(i, format!("{sentence}\n")),
                _ => out[i] = sentence,
            }
            std::fs::write(root.join(DOC), out.join("\n") + "\n").unwrap();
            "edit the prose".into()
        }
        75..=91 => {
            let (kind, variants) = rng.pick(SLOTS);
            let by = rng.pick(variants);
            let doc = std::fs::read_to_string(root.join(DOC)).unwrap();
            std::fs::write(root.join(DOC), swap_marker(&doc, kind, by).unwrap()).unwrap();
            format!("set the {kind} region to {by}")
        }
        _ => {
            let said = reckon(&root, &["update", "--write", "--force"], None);
            format!("update --write: exit {:?}", said.code)
        }
    }
}

/// A step on the logs: a value edited, a run appended, a log deleted or
/// put back, a new sweep (`roll` picks which, as [`step`] rolled it).
fn log_step(p: &Project, rng: &mut Rng, roll: usize) -> String {
    let root = p.root().to_path_buf();
    match roll {
        30..=41 => {
            let logs = p.logs();
            let Some(log) = logs.get(rng.below(logs.len().max(1))) else { return "edit: no log".into() };
            let text = std::fs::read_to_string(log).unwrap();
            let label = if log.extension().is_some_and(|e| e == "jsonl") {
                "\"output_throughput\": "
            } else {
                "Output token throughput (tok/s):"
            };
            match replace_value(&text, label, rng) {
                Some(t) => {
                    std::fs::write(log, t).unwrap();
                    format!("edit a value of {}", log.display())
                }
                None => "edit: nothing to edit".into(),
            }
        }
        42..=49 => {
            let logs: Vec<PathBuf> =
                p.logs().into_iter().filter(|l| l.extension().is_some_and(|e| e == "jsonl")).collect();
            let Some(log) = logs.get(rng.below(logs.len().max(1))) else { return "append: no log".into() };
            let text = std::fs::read_to_string(log).unwrap();
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            let Some(line) = lines.get(rng.below(lines.len().max(1))) else { return "append: empty".into() };
            let run = replace_value(line, "\"output_throughput\": ", rng).unwrap_or_else(|| (*line).to_string());
            let sep = if text.ends_with('\n') || text.is_empty() { "" } else { "\n" };
            std::fs::write(log, format!("{text}{sep}{run}\n")).unwrap();
            format!("append a run to {}", log.display())
        }
        50..=55 => {
            let logs = p.logs();
            let Some(log) = logs.get(rng.below(logs.len().max(1))) else { return "delete: no log".into() };
            let rel = log.strip_prefix(&root).unwrap();
            let to = p.stash.path().join(rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::rename(log, &to).unwrap();
            format!("delete {}", rel.display())
        }
        56..=61 => {
            let stashed = p.stashed();
            let Some(log) = stashed.get(rng.below(stashed.len().max(1))) else { return "restore: none".into() };
            let rel = log.strip_prefix(p.stash.path()).unwrap().to_path_buf();
            std::fs::create_dir_all(root.join(&rel).parent().unwrap()).unwrap();
            std::fs::rename(log, root.join(&rel)).unwrap();
            format!("put back {}", rel.display())
        }
        _ => {
            // A new sweep: a log of the second sweep copied under a new date.
            let logs: Vec<PathBuf> =
                p.logs().into_iter().filter(|l| l.extension().is_some_and(|e| e == "jsonl")).collect();
            let Some(log) = logs.get(rng.below(logs.len().max(1))) else { return "sweep: no log".into() };
            let date = format!("2026-12-0{}", 1 + rng.below(3));
            let to = root.join("notebooks/logs").join(&date).join(log.file_name().unwrap());
            if &to == log {
                return "sweep: that log".into();
            }
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(log, &to).unwrap();
            format!("new sweep {}", to.strip_prefix(&root).unwrap().display())
        }
    }
}

/// A check of the live project, compared with a check of a fresh copy
/// (or, with `--no-ingest`, with the same check of the same database
/// without the cache).
fn check(p: &Project, rng: &mut Rng, checks: &mut (usize, usize)) -> String {
    let format = *rng.pick(&["human", "json", "github", "sarif"]);
    let mut args = vec!["check", "--format", format];
    if rng.below(4) == 0 {
        args.push("--strict");
    }
    let no_ingest = rng.below(8) == 0;
    if no_ingest {
        args.push("--no-ingest");
    }
    let summaries = tempfile::tempdir().unwrap();
    let summary = (format == "github").then(|| summaries.path().join("live.md"));
    let warm = cached_now(p.root()) > 0;
    let live = reckon(p.root(), &args, summary.as_deref());
    let reference = if no_ingest {
        let mut plain = args.clone();
        plain.push("--no-cache");
        reckon(p.root(), &plain, summary.as_deref())
    } else {
        let fresh = fresh_copy(p.root());
        reckon(fresh.path(), &args, summary.as_deref())
    };
    checks.0 += 1;
    checks.1 += usize::from(warm);
    assert!(
        live == reference,
        "reckon {} (cache {}): the live project and a fresh database disagree\n{}",
        args.join(" "),
        if warm { "warm" } else { "cold" },
        difference(&live, &reference)
    );
    format!("reckon {} (cache {})", args.join(" "), if warm { "warm" } else { "cold" })
}

/// Where two outputs part: the exit codes, or the first line of a stream
/// that differs, with the lines after it.
fn difference(live: &Said, fresh: &Said) -> String {
    let mut out = format!("exit: live {:?}, fresh {:?}\n", live.code, fresh.code);
    for (name, a, b) in [
        ("stdout", &live.stdout, &fresh.stdout),
        ("stderr", &live.stderr, &fresh.stderr),
        ("summary", &live.summary, &fresh.summary),
    ] {
        let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
        let Some(at) = (0..a.len().max(b.len())).find(|i| a.get(*i) != b.get(*i)) else { continue };
        let from = at.saturating_sub(3);
        let _ = writeln!(out, "{name} from line {}:\n--- live", from + 1);
        out.push_str(&a[from.min(a.len())..(at + 8).min(a.len())].join("\n"));
        out.push_str("\n--- fresh\n");
        out.push_str(&b[from.min(b.len())..(at + 8).min(b.len())].join("\n"));
        out.push('\n');
    }
    out
}

fn steps() -> usize {
    std::env::var("RECKON_INCR_STEPS").ok().and_then(|s| s.parse().ok()).unwrap_or(DEFAULT_STEPS)
}

fn run_case(case: u64) {
    let seed = std::env::var("RECKON_INCR_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5EED);
    let mut rng = Rng::new(seed ^ (case << 32));
    // Cases 3 and 4 without lint: their warm checks read no data at all.
    let mut p = Project::with_lint(case < 3);
    let mut done: Vec<String> = Vec::new();
    let mut checks = (0, 0);
    // The first check ingests; the document is made current once.
    reckon(p.root(), &["update", "--write", "--force"], None);
    for n in 0..steps() {
        let what = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| step(&mut p, &mut rng, &mut checks)));
        match what {
            Ok(what) => done.push(what),
            Err(e) => {
                let kept = p.dir.keep();
                let tail = done.iter().rev().take(30).rev().cloned().collect::<Vec<_>>().join("\n  ");
                eprintln!(
                    "case {case} (seed {seed}) failed at step {n}; project kept at {}; the steps before:\n  {tail}",
                    kept.display()
                );
                std::panic::resume_unwind(e);
            }
        }
    }
    eprintln!("case {case}: {} checks, {} of them warm; {} steps", checks.0, checks.1, done.len());
    // The cache was used: a test of it that never hit would prove nothing.
    assert!(checks.1 * 4 >= checks.0, "only {} of {} checks found the cache warm", checks.1, checks.0);
}

#[test]
fn checks_from_the_cache_say_what_a_fresh_database_says_case_1() {
    run_case(1);
}

#[test]
fn checks_from_the_cache_say_what_a_fresh_database_says_case_2() {
    run_case(2);
}

#[test]
fn checks_from_the_cache_say_what_a_fresh_database_says_case_3() {
    run_case(3);
}

#[test]
fn checks_from_the_cache_say_what_a_fresh_database_says_case_4() {
    run_case(4);
}

/// A check of logs nothing changed in leaves the data generation where it
/// was, and the second check finds every cacheable region in the cache.
#[test]
fn an_unchanged_project_keeps_its_generation_and_hits() {
    let p = Project::new();
    reckon(p.root(), &["update", "--write"], None);
    let generation = |root: &Path| -> i64 {
        let c = rusqlite::Connection::open(root.join("db/reckon.sqlite")).unwrap();
        c.query_row("SELECT value FROM data_generation", [], |r| r.get(0)).unwrap()
    };
    let before = generation(p.root());
    assert!(before > 0, "an ingest moves the generation");
    let first = reckon(p.root(), &["check"], None);
    assert_eq!(generation(p.root()), before, "a check of unchanged logs moved the generation");
    // table, value, plot, diff and the claim: sql is never kept.
    assert_eq!(cached_now(p.root()), 5);
    let second = reckon(p.root(), &["check"], None);
    assert_eq!(first, second);
    assert_eq!(reckon(p.root(), &["check", "--no-cache"], None), first);
    // A log touched without a change of its bytes moves nothing either.
    let log = &p.logs()[0];
    let bytes = std::fs::read(log).unwrap();
    std::fs::write(log, &bytes).unwrap();
    assert_eq!(reckon(p.root(), &["check"], None), first);
    assert_eq!(generation(p.root()), before, "a log rewritten with the same bytes moved the generation");
    // A changed value moves it.
    let text = String::from_utf8(bytes).unwrap();
    let mut rng = Rng::new(7);
    let label = if log.extension().is_some_and(|e| e == "jsonl") {
        "\"output_throughput\": "
    } else {
        "Output token throughput (tok/s):"
    };
    std::fs::write(log, replace_value(&text, label, &mut rng).unwrap()).unwrap();
    reckon(p.root(), &["check"], None);
    assert!(generation(p.root()) > before, "a changed log left the generation");
}

/// An `sql` region cannot read the evaluation cache: what it would show
/// depends on which checks ran before, not on the data.
#[test]
fn sql_regions_cannot_read_the_cache() {
    let p = Project::new();
    let doc = "<!-- reckon:sql query=\"SELECT count(*) FROM evaluation_cache\" -->\n<!-- /reckon:sql -->\n";
    std::fs::write(p.root().join(DOC), doc).unwrap();
    let said = reckon(p.root(), &["check"], None);
    assert_eq!(said.code, Some(2), "{said:?}");
    assert!(said.stderr.contains("evaluation_cache, reckon's cache"), "{}", said.stderr);
}

/// The pre-commit hook's check (`--staged`) reads a copy of the project:
/// what it evaluated is kept in the real database when the staged files
/// changed no data, so the next commit's check finds it, and says the
/// same as without the cache.
#[test]
fn a_staged_check_keeps_what_it_evaluated_for_the_next() {
    let p = Project::new();
    std::fs::write(p.root().join(".gitignore"), "db/\n").unwrap();
    let git = Git::init_at(p.root());
    reckon(p.root(), &["update", "--write"], None);
    git.ok(&["add", "-A"]);
    git.commit("study");
    // A prose edit staged: the hook runs.
    let doc = std::fs::read_to_string(p.root().join(DOC)).unwrap();
    std::fs::write(p.root().join(DOC), doc.replace("That is all.", "That is all for now.")).unwrap();
    git.ok(&["add", DOC]);
    let cold = reckon(p.root(), &["check", "--staged"], None);
    assert_eq!(cached_now(p.root()), 5, "{cold:?}");
    let warm = reckon(p.root(), &["check", "--staged"], None);
    assert_eq!(warm, cold);
    // Found under the same keys, whichever copy of the project it read.
    assert_eq!(cached_now(p.root()), 5);
    assert_eq!(reckon(p.root(), &["check", "--staged", "--no-cache"], None), cold);
}
