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

use std::fmt::Write as _;

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

/// nvbench's array-add sweep on an RTX 3080 (corpus/nvbench): GPU times of
/// 3 µs to 2 ms, logged in seconds.
fn nvbench_array_add() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"benchmark\"\n");
    s.fixture("corpus/nvbench/array-add-rtx3080-two-noise-columns.csv", "logs/add.csv");
    s.ok(&["ingest", "logs/add.csv"]);
    s
}

/// `digits=3` wrote every GPU time under 0.5 ms as `0.000`, bold where
/// best, with no unit anywhere: a table of zeros where the kernels took
/// microseconds.
#[test]
fn digits_that_would_write_a_time_as_zero_move_the_table_to_a_unit_that_keeps_it_and_say_so() {
    let s = nvbench_array_add();
    s.write(
        "plan.md",
        "<!-- reckon:table metric=gpu_time rows=\"Axis Size\" digits=3 highlight=best caption=true -->\n\
         <!-- /reckon:table -->\n\n\
         <!-- reckon:table metrics=gpu_time,batch_gpu_time series=\"Coalesced (Different Array Sizes)\" \
         rows=\"Axis Size\" digits=2 -->\n<!-- /reckon:table -->\n",
    );
    s.ok(&["update", "--write", "plan.md"]);
    let doc = s.read("plan.md");
    // 3.137e-6 s and 1.151572e-3 s, as the log has them.
    assert!(doc.contains("| 2 | **3.137** | 3.303 |"), "{doc}");
    assert!(doc.contains("| 8192 | **1151.572** | 2128.076 |"), "{doc}");
    assert!(!doc.contains("0.000 |") && !doc.contains("0.000** |"), "{doc}");
    assert!(doc.contains("_gpu_time in µs (logged in s; digits=3 would write some as 0.000)._"), "{doc}");
    // Several metrics: each column headed with the unit it is shown in.
    assert!(doc.contains("| Axis Size | gpu_time (µs) | batch_gpu_time (µs) |"), "{doc}");
    assert!(doc.contains("| 2 | 3.14 | 1.71 |"), "{doc}");

    // A ratio too small for its two digits keeps its significant ones.
    s.write(
        "ratio.md",
        "<!-- reckon:table metrics=gpu_time,bandwidth_util series=\"Coalesced (Different Array Sizes)\" \
         rows=\"Axis Size\" ratio=gpu_time/bandwidth_util digits=7 -->\n<!-- /reckon:table -->\n",
    );
    s.ok(&["update", "--write", "ratio.md"]);
    let doc = s.read("ratio.md");
    // 1.1516e-3 s over a utilisation of 0.92: 0.00125164.
    assert!(doc.contains(" 0.00125164x |"), "{doc}");
    assert!(!doc.contains(" 0.00x |"), "{doc}");
}

#[test]
fn a_caption_names_the_unit_its_numbers_are_in() {
    let s = nvbench_array_add();
    s.write(
        "plan.md",
        "<!-- reckon:table metric=gpu_time rows=\"Axis Size\" caption=true -->\n<!-- /reckon:table -->\n",
    );
    s.ok(&["update", "--write", "plan.md"]);
    let doc = s.read("plan.md");
    assert!(doc.contains("median of each cell's newest sweep; gpu_time in s._"), "{doc}");
    // With no digits, the numbers keep their significant digits.
    assert!(doc.contains("| 2 | 0.00000313736 | 0.00000330313 |"), "{doc}");
}

/// A fraction has no smaller unit to move to, and prose states an inline
/// number's unit itself: both are refused, naming the value and the digits
/// that would keep it, and the document is left as it was.
#[test]
fn digits_that_would_write_a_unitless_or_inline_value_as_zero_are_refused() {
    let s = nvbench_array_add();
    let table = "<!-- reckon:table metric=bandwidth_util rows=\"Axis Size\" digits=3 -->\n<!-- /reckon:table -->\n";
    s.write("table.md", table);
    let r = s.run(&["update", "--write", "table.md"]);
    assert_ne!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("table.md:1:1"), "{r:?}");
    assert!(r.stderr.contains("of `bandwidth_util` as 0.000: a nonzero value would read as zero"), "{r:?}");
    assert!(r.stderr.contains("write digits=6 or more"), "{r:?}");
    assert_eq!(s.read("table.md"), table);

    let value = "Copy: <!-- reckon:value metric=gpu_time benchmark=\"Coalesced (Different Array Sizes)\" \
                 max_over=\"Axis Size\" digits=2 --><!-- /reckon:value --> s.\n";
    s.write("value.md", value);
    let r = s.run(&["update", "--write", "value.md"]);
    assert_ne!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("writes 0.00115157 s of `gpu_time` as 0.00"), "{r:?}");
    assert!(r.stderr.contains("write digits=4 or more"), "{r:?}");
    assert_eq!(s.read("value.md"), value);
}

/// A bare `time` is the run's time only as ISO text, and only when no
/// `timestamp` (or other time-like field) says otherwise; a number under it
/// may be a duration (1.5e9 ns) and stays a metric, the same on every line.
#[test]
fn a_bare_time_is_a_time_only_as_iso_text_and_gives_way_to_a_timestamp() {
    let s = Sandbox::new();
    s.write("reckon.toml", "");
    s.write(
        "logs/r.jsonl",
        concat!(
            "{\"config\": \"a\", \"time\": 1500000000, \"tput\": 1}\n",
            "{\"config\": \"b\", \"time\": 2300000000, \"tput\": 2}\n"
        ),
    );
    s.write("logs/t.jsonl", "{\"config\": \"c\", \"time\": \"2024-06-01T07:47:38Z\", \"tput\": 3}\n");
    s.write(
        "logs/u.jsonl",
        concat!(
            "{\"config\": \"d\", \"time\": \"2024-06-01T07:47:38Z\", ",
            "\"timestamp\": \"2025-01-02T03:04:05Z\", \"tput\": 4}\n"
        ),
    );
    s.ok(&["ingest", "logs/r.jsonl", "logs/t.jsonl", "logs/u.jsonl"]);
    let export = s.ok(&["export", "--format", "csv"]);
    let time_rows = export.stdout.lines().skip(1).filter(|l| l.contains(",time,")).count();
    assert_eq!(time_rows, 2, "both durations stay metrics: {export:?}");
    let runs = s.ok(&["runs"]);
    assert!(runs.stdout.contains("2024-06-01T07:47:38Z "), "{runs:?}");
    assert!(runs.stdout.contains("2025-01-02T03:04:05Z "), "the timestamp wins: {runs:?}");
}

/// A vLLM run whose 100 requests all failed (corpus/vllm, benchmaq) logs
/// `mean_ttft_ms: 0.0`; a table and a value wrote it as a 0.0 ms TTFT while
/// claims on the same cell left it out as no measurement.
fn all_failed_beside_a_good_run() -> Sandbox {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"model\"\n");
    s.fixture("corpus/vllm/benchmaq-all-failed-connection-refused.json", "logs/failed.json");
    s.fixture("corpus/vllm/benchmaq-vllm-bench-serve-e2el-percentiles.json", "logs/good.json");
    s.ok(&["ingest", "logs/failed.json", "logs/good.json"]);
    s
}

#[test]
fn a_table_and_a_value_leave_out_a_failed_runs_zero_as_claims_do_and_say_so() {
    let s = all_failed_beside_a_good_run();
    s.write(
        "plan.md",
        "<!-- reckon:table metric=mean_ttft_ms rows=max_concurrency digits=1 highlight=best -->\n\
         <!-- /reckon:table -->\n\n\
         Lowest: <!-- reckon:value metric=mean_ttft_ms min_over=model digits=1 --><!-- /reckon:value --> ms.\n",
    );
    s.ok(&["update", "--write", "plan.md"]);
    let doc = s.read("plan.md");
    // glm47's 2277.5 ms stands; glm47-fp8's failed run is no 0.0.
    assert!(doc.contains("| 100 | 2277.5 | - |"), "{doc}");
    assert!(!doc.contains("0.0 |") && !doc.contains("-->0.0"), "{doc}");
    assert!(
        doc.contains(
            "_1 of 1 runs at max_concurrency=100, /workspace/glm47-fp8 completed no request, so their mean_ttft_ms \
             measures none (shown as -): left out._"
        ),
        "{doc}"
    );
    assert!(
        doc.contains("Lowest: <!-- reckon:value metric=mean_ttft_ms min_over=model digits=1 -->2277.5<!--"),
        "{doc}"
    );

    let value = "FP8: <!-- reckon:value metric=mean_ttft_ms model=/workspace/glm47-fp8 --><!-- /reckon:value --> ms.\n";
    s.write("v.md", value);
    let r = s.run(&["update", "--write", "v.md"]);
    assert_ne!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("v.md:1:"), "{r:?}");
    assert!(r.stderr.contains("completed no request (`completed` 0): there is no measurement"), "{r:?}");
    assert_eq!(s.read("v.md"), value);
}

/// A real 0 — no queueing, no cache miss — in a log that counts no
/// requests is a measurement: kept, and nothing said of failed requests.
#[test]
fn a_zero_of_a_log_without_requests_is_kept() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"config\"\n");
    s.write(
        "logs/k.csv",
        "config,size,queue_wait_ms,overhead_s\nbase,1,0,0\nbase,2,1.5,0.2\nfast,1,0.5,0\nfast,2,0,0.1\n",
    );
    s.ok(&["ingest", "logs/k.csv"]);
    s.write("t.md", "<!-- reckon:table metric=queue_wait_ms rows=size -->\n<!-- /reckon:table -->\n");
    s.ok(&["update", "--write", "t.md"]);
    let doc = s.read("t.md");
    assert!(doc.contains("| 1 | 0 | 0.5 |") && doc.contains("| 2 | 1.5 | 0 |"), "{doc}");
    assert!(!doc.contains("no request"), "{doc}");
}

/// Google Benchmark's Kalman filter repetitions and Kokkos' Mempool
/// benchmarks (corpus/gbench): another executable on another host. `baseline
/// beats others` counted Mempool's two benchmarks among baseline's
/// opponents without a word.
#[test]
fn others_that_ran_as_another_program_are_named_beside_the_verdict() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"family\"\n");
    s.fixture("corpus/gbench/kalman-100-repetitions-aggregates.json", "logs/kalman.json");
    s.fixture("corpus/gbench/kokkos-mempool-user-counters-time-unit-s.json", "logs/mempool.json");
    s.ok(&["ingest", "logs/kalman.json", "logs/mempool.json"]);
    let got = judged(
        &s,
        &[
            ("all", "baseline beats others on real_time"),
            ("named", "baseline beats predict1x1x0, update1x1x0 on real_time"),
        ],
    );
    let all = verdict_of(&got, "all");
    assert_eq!(all.verdict, "holds", "{all:?}");
    assert!(
        all.summary.contains(
            "`others` counts `Mempool_Alloc_Dealloc`, `Mempool_Fill` (ran with executable /__w/kokkos/kokkos/"
        ),
        "{all:?}"
    );
    assert!(
        all.summary.contains("where the subject ran with executable kalman.exe, host_name FRANCOIS-DESK"),
        "{all:?}"
    );
    assert!(all.summary.contains("name the opponents to leave them out"), "{all:?}");
    // Opponents named, or others all of one program: nothing to say.
    let named = verdict_of(&got, "named");
    assert!(!named.summary.contains("`others` counts"), "{named:?}");
    let s2 = Sandbox::new();
    s2.write("reckon.toml", "series = \"family\"\n");
    s2.fixture("corpus/gbench/kalman-100-repetitions-aggregates.json", "logs/kalman.json");
    s2.ok(&["ingest", "logs/kalman.json"]);
    let alone = judged(&s2, &[("all", "baseline beats others on real_time")]);
    assert!(!verdict_of(&alone, "all").summary.contains("`others` counts"), "{alone:?}");
}

/// Each odd opponent with its own settings, and a subject that is itself
/// the odd one: said too (trial 10).
#[test]
fn others_apart_names_each_opponents_own_setting_and_a_subject_apart() {
    let s = Sandbox::new();
    s.write("reckon.toml", "series = \"config\"\n");
    let mut csv = String::from("config,executable,host_name,lat_ms\n");
    for (config, exe, host, v) in [
        ("base", "bench", "LAB-01", 10.0),
        ("tuned", "bench", "LAB-01", 12.0),
        ("remote", "bench", "LAB-02", 13.0),
        ("simd", "bench-simd", "LAB-01", 14.0),
    ] {
        for k in 0..3 {
            let _ = writeln!(csv, "{config},{exe},{host},{}", v + f64::from(k) * 0.01);
        }
    }
    s.write("logs/r.csv", &csv);
    s.ok(&["ingest", "logs/r.csv"]);
    let got = judged(&s, &[("base", "base beats others on lat_ms"), ("simd", "simd beats tuned, remote on lat_ms")]);
    let base = verdict_of(&got, "base");
    assert!(
        base.summary.contains(
            "`others` counts `simd` (ran with executable bench-simd); `remote` (ran with host_name LAB-02) where the \
             subject ran with executable bench, host_name LAB-01"
        ),
        "{base:?}"
    );
    let s2 = Sandbox::new();
    s2.write("reckon.toml", "series = \"config\"\n");
    let only: Vec<&str> = csv.lines().filter(|l| !l.starts_with("remote")).collect();
    let only = only.join("\n") + "\n";
    s2.write("logs/r.csv", &only);
    s2.ok(&["ingest", "logs/r.csv"]);
    let got = judged(&s2, &[("simd", "simd beats others on lat_ms")]);
    let simd = verdict_of(&got, "simd");
    assert!(
        simd.summary.contains(
            "the subject ran with executable bench-simd where every one of `others` ran with executable bench"
        ),
        "{simd:?}"
    );
    assert_eq!(verdict_of(&got, "simd").verdict, "contradicted", "{simd:?}");
}
