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
