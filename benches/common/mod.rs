//! What the benches share: finding the reckon binary they time.

use std::path::PathBuf;

/// The reckon binary to time: `RECKON_BIN`, else the one cargo built beside
/// this bench.
pub(crate) fn reckon_binary() -> PathBuf {
    if let Ok(p) = std::env::var("RECKON_BIN") {
        return PathBuf::from(p);
    }
    let exe = if cfg!(windows) { "reckon.exe" } else { "reckon" };
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(p) = option_env!("CARGO_BIN_EXE_reckon") {
        candidates.push(PathBuf::from(p));
    }
    if let Ok(me) = std::env::current_exe() {
        if let Some(deps) = me.parent() {
            candidates.push(deps.join(exe));
            if let Some(profile) = deps.parent() {
                candidates.push(profile.join(exe));
            }
        }
    }
    candidates.iter().find(|p| p.is_file()).cloned().unwrap_or_else(|| {
        panic!(
            "the reckon binary was not found (looked at {candidates:?}); \
             build it with `cargo build --release` or run through `cargo bench`"
        )
    })
}

/// Waits for the child, returning its status and peak RSS in KiB.
#[cfg(unix)]
pub(crate) fn wait_with_rss(child: &mut std::process::Child) -> (std::process::ExitStatus, u64) {
    use std::os::unix::process::ExitStatusExt;
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status: libc::c_int = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in; the pid
    // is our own child, not yet waited for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
    assert_eq!(waited, pid, "wait4 failed");
    // ru_maxrss is in KiB on Linux.
    (std::process::ExitStatus::from_raw(status), u64::try_from(usage.ru_maxrss).unwrap_or(0))
}

#[cfg(not(unix))]
pub(crate) fn wait_with_rss(child: &mut std::process::Child) -> (std::process::ExitStatus, u64) {
    (child.wait().unwrap(), 0)
}
