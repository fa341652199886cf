//! Issue 19's edges, each on a real file: read right, or said — never a
//! number that is confidently wrong.
//!
//! lm-eval 0.4's group aggregates (`mmlu` over its 57 subjects) were one
//! more task: `for all task` counted a group beside its own subtasks, and
//! a table by task mixed them unmarked.
//!
//! A value region whose runs include `MLPerf` tests `loadgen` judged INVALID
//! left them out, as tables and claims do, and said nothing.

mod common;

use common::claims::{judged, verdict_of};
use common::Sandbox;

const INSTRUCT: &str = "'meta-llama/Meta-Llama-3-8B-Instruct'";

/// Llama-3-8B-Instruct's mmlu (5 groups, 57 subjects) and truthfulqa (a
/// group of 3 tasks) results, tests/fixtures/corpus/lm-eval/SOURCES.md.
fn lm_groups() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"model\"\n");
    for f in ["mmlu", "truthfulqa"] {
        s.fixture(&format!("corpus/lm-eval/llama3-8b-instruct-{f}.json"), &format!("logs/{f}.json"));
    }
    s.ok(&["ingest", "logs/mmlu.json", "logs/truthfulqa.json"]);
    s
}

#[test]
fn a_for_all_task_claim_counts_tasks_and_never_their_groups() {
    let s = lm_groups();
    let got = judged(&s, &[("all", &format!("{INSTRUCT} on acc > 0.2 for all task"))]);
    let j = verdict_of(&got, "all");
    assert_eq!(j.verdict, "holds", "{j:?}");
    // 57 subjects, truthfulqa_mc1 and _mc2 (truthfulqa_gen has no acc);
    // it was 65 with mmlu, its 4 subgroups and truthfulqa.
    assert!(j.summary.contains("59 of 59 points hold"), "{j:?}");
    assert!(j.details.iter().all(|d| !d.contains("task=mmlu:") && !d.contains("task=truthfulqa:")), "{j:?}");
}

#[test]
fn a_table_by_task_leaves_groups_out_and_says_so_and_a_group_is_cited_by_name() {
    let s = lm_groups();
    let by_task = s.ok(&["query", "--metric", "acc", "--rows", "task"]);
    assert!(!by_task.stdout.lines().any(|l| l.starts_with("mmlu ") || l.starts_with("mmlu_stem ")), "{by_task:?}");
    assert!(by_task.stdout.lines().any(|l| l.starts_with("mmlu_anatomy ")), "{by_task:?}");
    assert!(format!("{}{}", by_task.stdout, by_task.stderr).contains("6 runs without `task` left out"), "{by_task:?}");

    s.write("plan.md", "MMLU: <!-- reckon:value metric=acc group=mmlu digits=3 --><!-- /reckon:value -->.\n");
    s.ok(&["update", "--write", "plan.md"]);
    assert!(s.read("plan.md").contains("-->0.658<!--"), "{}", s.read("plan.md"));
}

/// loadgen's real summaries: an INVALID Server test (trial4/loadgen) and a
/// VALID Offline one (corpus/mlperf), SOURCES.md beside each.
#[test]
fn a_value_says_the_invalid_runs_it_left_out_as_a_table_does() {
    let s = Sandbox::new();
    s.write("reckon.toml", "");
    s.fixture("trial4/loadgen/server-invalid-mlperf_log_summary.txt", "logs/server/mlperf_log_summary.txt");
    s.fixture("corpus/mlperf/sdxl-offline-mlperf_log_summary.txt", "logs/offline/mlperf_log_summary.txt");
    s.ok(&["ingest", "logs/server/mlperf_log_summary.txt", "logs/offline/mlperf_log_summary.txt"]);
    s.write(
        "plan.md",
        "Fastest: <!-- reckon:value metric=min_latency_ns min_over=scenario --><!-- /reckon:value --> ns.\n",
    );
    s.ok(&["update", "--write", "plan.md"]);
    let doc = s.read("plan.md");
    let said = "(1 run is `result=INVALID` by the tool's own judgement, left out as claims leave it out)";
    // The Server test's 2838342370 ns would be the lowest: left out, and said.
    assert!(doc.contains(&format!("-->6268465782 {said}<!-- /reckon:value")), "{doc}");
    // Named in the region, the invalid run is what it reads, with no note.
    s.write("v.md", "<!-- reckon:value metric=min_latency_ns result=INVALID --><!-- /reckon:value -->\n");
    s.ok(&["update", "--write", "v.md"]);
    assert!(s.read("v.md").contains("-->2838342370<!--"), "{}", s.read("v.md"));
}
