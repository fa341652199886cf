//! What the seventh cold trial found reckon reading wrong in real files of
//! other tools (`tests/fixtures/trial7-formats/`, see its SOURCES.md).

mod common;

use common::Sandbox;

fn claim(id: &str, text: &str) -> String {
    format!("<!-- reckon:claim id={id}\n     {text} -->\nSaid.\n<!-- /reckon:claim -->\n\n")
}

const TINY: &str = "mrm8488/bert-tiny-finetuned-sms-spam-detection";
const WIZARD: &str = "saucam/Arithmo-Wizard-2-7B";

/// lm-eval 0.3's results (`results`, `versions`, `config`, no `configs`;
/// scores named without a filter) were read as generic JSON: one run of
/// dotted names, and the BIG-bench task `…_error_detection` made its
/// accuracy lower-is-better, so `7B beats tiny` held on 0.132 vs 0.168.
/// Read as lm-eval: a run per task, the model from `model_args`, each
/// score higher is better and its `_stderr` its noise.
#[test]
fn lm_eval_0_3_results_are_a_run_per_task_with_higher_scores() {
    let s = Sandbox::new();
    s.fixture("trial7-formats/lm-eval-0.3", "logs");
    s.write("reckon.toml", "database = \"db/reckon.sqlite\"\nseries = \"model\"\n[[source]]\npath = \"logs/*.json\"\n");
    let r = s.ok(&["ingest"]);
    for file in [TINY.replace('/', "_"), WIZARD.replace('/', "_")] {
        let line = format!("logs/{file}-bigbench.json: 18 runs (lm-eval)");
        assert!(r.stdout.contains(&line) || r.stderr.contains(&line), "{line}: {r:?}");
    }
    assert_eq!(s.counts().1, 36);
    let export = s.ok(&["export", "--where", "task = bigbench_salient_translation_error_detection"]);
    let rows: Vec<&str> = export.stdout.lines().filter(|l| l.contains(",multiple_choice_grade")).collect();
    assert_eq!(rows.len(), 4, "{}", export.stdout);
    for row in rows {
        let direction = if row.contains("multiple_choice_grade_stderr") { ",neutral" } else { ",higher" };
        assert!(row.ends_with(direction), "{row}");
        assert!(row.contains(",0,") && !row.contains("versions."), "num_fewshot, task_version: {row}");
    }
    s.test()
        .args(["query", "--metric", "multiple_choice_grade", "--rows", "task", "--where", "task = bigbench_navigate"])
        .stdout_has("0.5")
        .run();
    let at = "on multiple_choice_grade at task = bigbench_salient_translation_error_detection";
    s.write(
        "t.md",
        claim("wrong", &format!("'{WIZARD}' beats '{TINY}' {at}"))
            + &claim("right", &format!("'{TINY}' beats '{WIZARD}' {at}")),
    );
    s.test()
        .args(["claims", "t.md"])
        .stdout_has("claim `wrong` contradicted")
        .stdout_has(&format!("{WIZARD} 0.132 vs {TINY} 0.168"))
        .stdout_has("claim `right` holds")
        .stdout_has("`multiple_choice_grade_stderr`")
        .run();
}

/// criterion's `median_abs_dev` and `…_standard_error` were stored lower is
/// better, and `beats` judged them (a CI failure on "steadier"); `std_dev`
/// had no direction but `beats` read it as higher is better. A spread is no
/// performance metric: `beats` on it is refused at the claim, saying what
/// to write; a literal `<` is judged.
#[test]
fn a_spread_has_no_direction_and_beats_refuses_it() {
    let s = Sandbox::new();
    s.fixture("trial7-formats/criterion", "target/criterion");
    s.write(
        "reckon.toml",
        concat!(
            "database = \"db/reckon.sqlite\"\nseries = \"benchmark\"\n",
            "[[source]]\npath = \"target/criterion/*/new/estimates.json\"\n",
        ),
    );
    s.ok(&["ingest"]);
    let export = s.ok(&["export"]);
    for spread in ["median_abs_dev", "mean_standard_error", "std_dev"] {
        let rows: Vec<&str> = export.stdout.lines().filter(|l| l.contains(&format!(",{spread},"))).collect();
        assert!(!rows.is_empty() && rows.iter().all(|r| r.ends_with(",neutral")), "{spread}: {rows:?}");
    }
    for spread in ["median_abs_dev", "mean_standard_error", "std_dev"] {
        s.write("t.md", claim("steadier", &format!("'consecutive for' beats 'consecutive iter' on {spread}")));
        s.test()
            .args(["claims", "t.md"])
            .status(2)
            .stderr_has(&format!("`{spread}` is a spread"))
            .stderr_has("write `<` or `>` (literal)")
            .stdout_lacks("claim `steadier`")
            .run();
    }
    // Literal, it is judged — a single run, its spread the bootstrap
    // standard error criterion logged beside it (1.09, 95% 0.743 to 1.6).
    s.write("t.md", claim("literal", "'consecutive iter' on median_abs_dev < 1.2"));
    s.test()
        .args(["claims", "t.md"])
        .stdout_has("claim `literal` inconclusive")
        .stdout_has("(`median_abs_dev_standard_error`)")
        .run();
}

/// Two result blocks of one log, each after the `benchmark_serving.py`
/// command that printed it (a quantized 72B model with 10 prompts, the
/// unquantized one with 32), had no `Namespace` dump and were read as two
/// repeats of one point: a value region wrote 22.59 tok/s, the median of
/// 16.13 and 29.05, which no run gave. The command line's arguments are
/// the params its `Namespace` would give, so they are two points and the
/// value asks which.
#[test]
fn blocks_after_different_client_command_lines_are_different_points() {
    let s = Sandbox::new();
    s.fixture("trial7-formats/vllm-stdout/learning_project-benchmarks-README.md", "logs/readme.md");
    s.write(
        "reckon.toml",
        concat!(
            "database = \"db/reckon.sqlite\"\nseries = \"config\"\n[[source]]\npath = \"logs/readme.md\"\n",
            "format = \"serving-stdout\"\nlabels = { config = \"qwen72b\" }\n",
        ),
    );
    s.ok(&["ingest"]);
    s.test()
        .args(["query", "--metric", "output_throughput", "--rows", "num_prompts"])
        .stdout_has("16.13")
        .stdout_has("29.05")
        .run();
    s.write("plan.md", "Output: <!-- reckon:value metric=output_throughput --><!-- /reckon:value --> tok/s.\n");
    s.test().args(["update", "plan.md"]).status(2).stderr_has("differ in `num_prompts` (10, 32)").run();
    s.write(
        "plan.md",
        "Output: <!-- reckon:value metric=output_throughput num_prompts=32 --><!-- /reckon:value -->.\n",
    );
    s.test().args(["update", "plan.md"]).stdout_has("29.05").run();
}
