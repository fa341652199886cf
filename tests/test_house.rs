//! The test house checks what it is told to: a `Test` whose status or
//! output differs from what it expects fails, so a test written with it
//! cannot pass by accident.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use common::{Git, Sandbox, Test, RUNNER_ENV};

fn fails(test: Test) -> bool {
    catch_unwind(AssertUnwindSafe(|| test.run())).is_err()
}

#[test]
fn a_test_passes_only_when_status_and_output_are_as_expected() {
    let s = Sandbox::new();
    let version = || s.test().arg("--version");
    let r = version().stdout("reckon 0.1.0\n").stdout_has("reckon").stderr("").run();
    assert_eq!(r.code, 0);
    assert!(fails(version().status(1)), "a wrong status fails");
    assert!(fails(version().stdout("reckon\n")), "a wrong whole stdout fails");
    assert!(fails(version().stdout_has("not printed")), "a missing part fails");
    assert!(fails(version().stdout_lacks("reckon")), "a part that must be absent fails");
    assert!(fails(version().stderr_has("anything")), "stderr is checked too");
    // The status is 0 unless said: an error exit fails a test that did not expect it.
    assert!(fails(s.test().args(["runs", "--bogus"])));
    s.test().args(["runs", "--bogus"]).status(2).stderr_has("--bogus").run();
    // `output` leaves the status to the test, and the rest is still checked.
    assert_eq!(s.test().args(["runs", "--bogus"]).output().code, 2);
    assert!(catch_unwind(AssertUnwindSafe(|| s.test().args(["runs", "--bogus"]).stdout_has("x").output())).is_err());
}

#[test]
fn files_and_folders_reach_the_command() {
    let t = Test::new().file("sub/reckon.toml", "series = \"variant\"\n").file("sub/a.csv", "variant,ms\nx,1\ny,2\n");
    let s = t.sandbox().clone();
    t.current_dir("sub").args(["ingest", "a.csv"]).stderr_has("a.csv: 2 runs").run();
    assert!(s.path().join("sub/db/reckon.sqlite").exists(), "ran in sub/, where its reckon.toml is");
    s.test()
        .current_dir("sub")
        .args(["runs", "--format", "csv"])
        .stdout_has("variant")
        .within(Duration::from_secs(60))
        .run();
}

#[test]
fn a_reckon_under_test_inherits_nothing_of_the_runners_ci() {
    // Run under GitHub Actions, a check that inherited GITHUB_STEP_SUMMARY
    // would append to the real job summary: every helper that runs reckon
    // (itself, or git whose hook runs it) removes it and its kin.
    let s = Sandbox::new();
    let git = Git::init(&s);
    for c in [s.command(&["check"]), git.command(&["commit", "-m", "x"])] {
        let removed: Vec<String> =
            c.get_envs().filter(|(_, v)| v.is_none()).map(|(k, _)| k.to_string_lossy().into_owned()).collect();
        for k in RUNNER_ENV {
            assert!(removed.iter().any(|r| r == k), "{k} is removed for {c:?}");
        }
    }
}
