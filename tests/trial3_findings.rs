//! False answers a third cold trial of reckon found, each on the trial's
//! own files (`tests/fixtures/trial3/`: hyperfine JSON of `RocksDB`'s
//! `db_bench`, Google Benchmark JSON of SGEMM kernels).

mod common;

use common::{Sandbox, Test};

fn claim(id: &str, text: &str) -> String {
    format!("<!-- reckon:claim id={id}\n     {text} -->\nSaid.\n<!-- /reckon:claim -->\n\n")
}

/// Two engines' runs in one sweep, told apart only by a path capture
/// (`logs/{date}/{engine}/…`), were pooled as 10 repeats: v9.7 takes 1.57 s
/// and v9.8 3.14 s, and the claim, the value and the table said 2.33.
#[test]
fn trial3_f1_runs_of_two_engines_are_not_pooled_as_repeats() {
    let doc = [
        claim("e1", "level on time at threads = 32 ≈ 3.1 where cache_mb = 64"),
        "<!-- reckon:table metric=time rows=threads cols=compaction where=\"cache_mb = 64\" -->\n\
         <!-- /reckon:table -->\n"
            .to_string(),
    ]
    .concat();
    Test::new()
        .fixture("trial3/kv-engine", ".")
        .file("t.md", &doc)
        .args(["claims", "t.md"])
        .status(2)
        .stderr_has("`level` has runs at several `engine` values (v9.7, v9.8) at threads=32")
        .stdout_lacks("2.33")
        .run();
    Test::new()
        .fixture("trial3/kv-engine", ".")
        .file("t.md", doc.split("<!-- reckon:table").nth(1).map(|t| format!("<!-- reckon:table{t}")).unwrap())
        .args(["update", "t.md"])
        .status(2)
        .stderr_has("`level` has runs at several `engine` values (v9.7, v9.8) at threads=1")
        .stderr_has("say which with `where=\"engine = …\"`")
        .run();
    // Pinned, each engine is its own point.
    Test::new()
        .fixture("trial3/kv-engine", ".")
        .file("t.md", claim("e1", "level on time at threads = 32 ≈ 3.1 where cache_mb = 64 and engine = v9.8"))
        .args(["claims", "t.md"])
        .stdout_has("claim `e1` holds")
        .run();
}

/// The same with the compiler only inside Google Benchmark's JSON context:
/// gcc13's and gcc14's runs of one day were 6 repeats of each kernel.
#[test]
fn trial3_f1_runs_of_two_compilers_in_the_json_context_are_not_pooled() {
    Test::new()
        .fixture("trial3/gemm-ctx", ".")
        .file("t.md", claim("t2", "BM_GemmTiled matches BM_GemmAVX2 on real_time at arg1 = 1024"))
        .args(["claims", "t.md"])
        .status(2)
        .stderr_has("`BM_GemmTiled` has runs at several `compiler` values (gcc13, gcc14) at arg1=1024")
        .run();
    Test::new()
        .fixture("trial3/gemm-ctx", ".")
        .file(
            "t.md",
            claim("t1", "BM_GemmTiled matches BM_GemmAVX2 on real_time at arg1 = 1024 where compiler = gcc14"),
        )
        .args(["claims", "t.md"])
        .stdout_lacks("6 runs")
        .output();
}

/// A table, a plot and `reckon query` pooled the runs at `cache_mb = 64` and
/// 1024 into one cell (`| 1 | 28.03 | 27.91 |`, "120 runs") where a value
/// region and `highlight=best` refused the same cells.
#[test]
fn trial3_f2_tables_plots_and_queries_refuse_cells_pooling_an_unpinned_param() {
    let sandbox = Sandbox::new();
    sandbox.fixture("trial3/kv", ".");
    sandbox.ok(&["ingest"]);
    let table = "<!-- reckon:table metric=time rows=threads cols=compaction -->\n<!-- /reckon:table -->\n";
    let plot = "<!-- reckon:plot metric=time x=threads file=t.svg -->\n<!-- /reckon:plot -->\n";
    for (doc, add) in [(table, "the table's `rows=` or `cols=`"), (plot, "`x=` or `series=`")] {
        sandbox.write("notebooks/p.md", doc);
        sandbox
            .test()
            .args(["update", "--no-ingest", "notebooks/p.md"])
            .status(2)
            .stderr_has("`level` has runs at several `cache_mb` values (64, 1024) at threads=1")
            .stderr_has(&format!("say which with `where=\"cache_mb = …\"`, or add `cache_mb` to {add}"))
            .run();
    }
    sandbox
        .test()
        .args(["query", "--metric", "time", "--rows", "threads", "--cols", "compaction"])
        .status(2)
        .stderr_has("`level` has runs at several `cache_mb` values (64, 1024) at threads=1")
        .stderr_has("`--where \"cache_mb = …\"`")
        .stdout("")
        .run();
    // Laid out by every param, the cells are repeats: nothing is refused,
    // and hyperfine's command line (which restates the params) keys nothing.
    sandbox
        .test()
        .args(["query", "--metric", "time", "--rows", "threads,cache_mb", "--cols", "compaction"])
        .stdout_has("30.11")
        .run();
    sandbox.write(
        "notebooks/p.md",
        "<!-- reckon:table metric=time rows=threads cols=compaction where=\"cache_mb = 64\" -->\n\
         <!-- /reckon:table -->\n",
    );
    sandbox.test().args(["update", "--no-ingest", "notebooks/p.md"]).stdout_has("30.11").run();
}

/// A hyperfine repeat that exited 134 after 0.0412 s was read as a
/// measurement of 0.0412 s: the table, the claim's interval (-96.8% …), the
/// plot's error bar and lint all used it, and ingest said nothing.
#[test]
fn trial3_f3_a_hyperfine_repeat_that_exited_non_zero_is_left_out_and_said() {
    let sandbox = Sandbox::new();
    sandbox.fixture("trial3/kv", ".");
    sandbox
        .test()
        .args(["ingest"])
        .stderr_has(
            "logs/2026-11-24/universal.json: 59 runs (hyperfine)\n  skipped: the command at line 283: repeat 3 \
             (exit code 134) exited non-zero",
        )
        .run();
    sandbox
        .test()
        .args([
            "query",
            "--metric",
            "time",
            "--rows",
            "threads",
            "--where",
            "cache_mb = 64 and threads = 32 and compaction = universal",
            "--agg",
            "min",
        ])
        .stdout_lacks("0.0412")
        .stdout_has("     32    1.50249\n")
        .run();
}

/// hyperfine's `command` line keyed cells: a sweep whose binary was renamed
/// shared no cell with the one before (`diff`: "0 of 0 cells"), and
/// `export --newest` kept both sweeps' 120 rows.
#[test]
fn trial3_f6_f9_a_renamed_binary_in_the_command_line_does_not_split_cells() {
    let sandbox = Sandbox::new();
    sandbox.fixture("trial3/kv", ".");
    sandbox.fixture("trial3/kv2-newer", "logs/2026-11-24");
    sandbox.ok(&["ingest"]);
    sandbox
        .test()
        .args(["diff", "--metric", "time"])
        .stdout_has("cells by cache_mb, compaction, threads:")
        .stdout_has("of 24 cells moved beyond noise")
        .stdout_lacks("only in")
        .run();
    let out = sandbox.ok(&["export", "--newest", "--metric", "time", "--format", "csv"]);
    let rows: Vec<&str> = out.stdout.lines().skip(1).collect();
    assert!(rows.iter().all(|r| r.contains("2026-11-24")), "{}", out.stdout);
    assert_eq!(rows.len(), 119, "{}", out.stdout);
}

/// `reckon diff` on hyperfine logs listed 168 rows of hyperfine's summaries
/// (one number per command) and said "no repeats of the metric anywhere"
/// though `time` holds 5 repeats of every command.
#[test]
fn trial3_f11_diff_compares_the_repeats_not_their_summaries() {
    let sandbox = Sandbox::new();
    sandbox.fixture("trial3/kv", ".");
    sandbox.ok(&["ingest"]);
    sandbox
        .test()
        .args(["diff"])
        .stdout_has("of 24 cells moved beyond noise")
        .stdout_lacks("no repeats of the metric anywhere")
        .stdout_lacks("stddev  ")
        .stdout_has("summaries of the repeats the compared metrics hold, not compared (name them with --metric): ")
        .run();
}

/// `reckon check` at a monorepo's root (projects in kv/ and gemm/, no
/// reckon.toml there) printed nothing and exited 0; `update` said "no
/// documents" and exited 0.
#[test]
fn trial3_f7_check_with_no_project_found_is_an_error_naming_where_it_looked() {
    let sandbox = Sandbox::new();
    sandbox.fixture("trial3/kv", "kv");
    sandbox.fixture("trial3/gemm-ctx", "gemm");
    for command in ["check", "update"] {
        sandbox
            .test()
            .args([command])
            .status(2)
            .stderr_has("no reckon.toml in")
            .stderr_has("the projects are in subfolders (gemm/reckon.toml, kv/reckon.toml)")
            .run();
    }
    sandbox.test().args(["check", "--strict"]).status(2).stderr_has("no reckon.toml in").run();
}

/// `reckon ingest 'logs/{date}/{style}.json'` on files reckon.toml's source
/// reads as `logs/{date}/{compaction}.json` said "already ingested" and
/// dropped `{style}` (afterwards an unknown param), where --label is refused.
#[test]
fn trial3_f8_a_template_capturing_a_label_the_source_does_not_give_is_refused() {
    let sandbox = Sandbox::new();
    sandbox.fixture("trial3/kv", ".");
    sandbox.ok(&["ingest"]);
    sandbox
        .test()
        .args(["ingest", "logs/{date}/{style}.json"])
        .status(2)
        .stderr_has(
            "logs/2026-11-10/level.json is a log of the source `logs/{date}/{compaction}.json` in reckon.toml, which \
             gives its labels; the path given would label it style=level as well",
        )
        .run();
}

/// The built-in `best-per-row.md` named `level` the winner at 30.11 s
/// against universal's 30.12 s, a lead `highlight=best` marks as a tie.
#[test]
fn trial3_f5_best_per_row_names_winners_by_the_judge_and_ties_as_ties() {
    Test::new()
        .fixture("trial3/kv", ".")
        .file(
            "notebooks/t.md",
            "<!-- reckon:template name=best-per-row.md metric=time rows=threads where=\"cache_mb = 64\" digits=2 \
             -->\n<!-- /reckon:template -->\n",
        )
        .args(["update", "notebooks/t.md"])
        .stdout_has("+- threads = 1: level ≈ universal, tied within noise\n")
        .stdout_has("+- threads = 32: **universal** at 1.55 s\n")
        .stdout_lacks("**level** at 30.11")
        .run();
}

/// nvbench's skipped state was said as "1 states nvbench skipped
/// (`skip_reason`)", naming neither the state nor nvbench's reason, which
/// the README promises.
#[test]
fn trial3_f15_a_state_nvbench_skipped_is_named_with_its_reason() {
    Test::new()
        .fixture("trial3/nv", ".")
        .args(["ingest", "reduce.json"])
        .stderr_has(
            "1 state nvbench skipped holds no measurement: `reduce Device=0 BlockSize=1024` at line 368 \
             (Insufficient shared memory)",
        )
        .run();
}
