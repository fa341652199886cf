//! Headless Chromium for the tests of `reckon report` in a real browser:
//! finding the binary (its absence fails under CI, which installs it, and
//! skips elsewhere, saying so) and running it on a page under a time limit.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The Chromium binary, if there is one. Under CI (`CI` set) its absence
/// fails the test: CI installs it, and the browser check must run there.
pub(crate) fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Ok(out) = Command::new("sh").args(["-c", &format!("command -v {name}")]).output() {
            let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if out.status.success() && !path.is_empty() {
                return Some(PathBuf::from(path));
            }
        }
    }
    assert!(std::env::var_os("CI").is_none(), "CI must have chromium (.ci/run installs it)");
    eprintln!("SKIPPED: no chromium on this machine (apt-get install chromium); the browser checks did not run");
    None
}

/// Runs headless Chromium on `page` with `args` and a profile of its own
/// in `profile`, under coreutils' `timeout`, so a browser that hangs fails
/// the test after two minutes instead of holding CI.
pub(crate) fn headless(chrome: &Path, profile: &Path, args: &[&str], page: &Path) -> Output {
    Command::new("timeout")
        .args(["--kill-after=10", "120"])
        .arg(chrome)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs")
}
