//! Trial 4's G24: a `metrics=` table whose `series=` names no series — a
//! typo, or the series' param (`series=precision` where reckon.toml says
//! `series = "precision"`) — rendered its header with no row, exit 0, and
//! `check` called it current. It is an error at the argument, naming the
//! series there are, as a claim's unknown series is.

mod common;

use common::Sandbox;

fn project(series_arg: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "reckon.toml",
        "series = \"precision\"\ndocuments = [\"plan.md\"]\n\n[[source]]\npath = \"data/{date}/evals.csv\"\n",
    );
    sb.write(
        "data/2026-11-26/evals.csv",
        "precision,task,acc,acc_norm\nfp16,arc,0.58,0.61\nint8,arc,0.57,0.60\n\
         fp16,hellaswag,0.79,0.81\nint8,hellaswag,0.78,0.80\n",
    );
    sb.write(
        "plan.md",
        format!(
            "# Evals\n\n<!-- reckon:table metrics=acc,acc_norm series={series_arg} rows=task -->\n\
             <!-- /reckon:table -->\n"
        ),
    );
    sb
}

#[test]
fn finding_g24_a_table_of_a_series_no_run_has_is_an_error_naming_the_series() {
    for wrong in ["nosuch", "precision"] {
        let sb = project(wrong);
        for cmd in ["update", "check"] {
            let ran = sb.run(&[cmd, "plan.md"]);
            assert_eq!(ran.code, 2, "{cmd} series={wrong}: {ran:?}");
            assert!(
                ran.stderr.contains("plan.md:3:") && ran.stderr.contains(&format!("series=`{wrong}`")),
                "{cmd} series={wrong}: {ran:?}"
            );
            assert!(ran.stderr.contains("`fp16`, `int8`"), "names the series: {ran:?}");
        }
    }
    let sb = project("int8");
    let ran = sb.run(&["update", "plan.md"]);
    assert!(ran.code == 0 || ran.code == 1, "{ran:?}");
    assert!(ran.stdout.contains("| arc |") || ran.stdout.contains("| arc"), "a known series still renders: {ran:?}");
}
