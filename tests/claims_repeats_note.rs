//! The evidence's "repeats told apart by …" names the files of the
//! comparison's own cells, never another point's (issue 20, a cold trial's
//! finding). Data invented: one CSV per load, three repeats per cell.

use std::fmt::Write as _;

mod common;

use common::Test;

/// A claim at c = 1 said "repeats told apart by `repeat` (logs/c1.csv, logs/c2.csv)":
/// the runs of every point of the named series, not those it compared.
#[test]
fn finding_repeats_note_names_only_the_files_of_the_claims_own_cells() {
    let csv = |c: u32| {
        let mut s = String::from("config,c,repeat,output_throughput\n");
        for (n, (a, b)) in [(100.0, 80.0), (101.0, 81.0), (99.0, 79.0)].iter().enumerate() {
            writeln!(s, "a,{c},{n},{a}\nb,{c},{n},{b}").expect("writing to a String");
        }
        s
    };
    let doc =
        "<!-- reckon:claim id=one\n     a beats b on output_throughput at c = 1 -->\nSaid.\n<!-- /reckon:claim -->\n";
    Test::new()
        .file("reckon.toml", "series = \"config\"\n\n[[source]]\npath = \"logs/*.csv\"\n")
        .file("logs/c1.csv", csv(1))
        .file("logs/c2.csv", csv(2))
        .file("doc.md", doc)
        .args(["claims", "doc.md"])
        .stdout_has("repeats told apart by `repeat` (logs/c1.csv)")
        .stdout_lacks("c2.csv")
        .run();
}
