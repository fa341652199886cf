//! A median reads the same in a table and in a claim's evidence (issue 20,
//! a cold trial's finding). Data invented: one CSV, three repeats a cell.

mod common;

use common::Test;

/// The median 96.35 (a double holds 96.3499…): a `digits=1` table showed
/// 96.3 and the evidence of a claim on the same cell 96.4 — the evidence
/// scaled by 10 first (963.5) and rounded that up. One rule now: the exact
/// value to the nearest, as the table's `digits=`.
#[test]
fn finding_a_median_is_rounded_the_same_in_the_table_and_in_the_evidence() {
    let csv = "config,c,repeat,output_throughput\n\
               a,1,0,96.2\na,1,1,96.35\na,1,2,96.5\n\
               b,1,0,80.2\nb,1,1,80.25\nb,1,2,80.3\n";
    let doc = "<!-- reckon:table metric=output_throughput rows=c digits=1 -->\n<!-- /reckon:table -->\n\n\
               <!-- reckon:claim id=one\n     a beats b on output_throughput at c = 1 -->\nSaid.\n\
               <!-- /reckon:claim -->\n";
    let project = || {
        Test::new()
            .file("reckon.toml", "series = \"config\"\n\n[[source]]\npath = \"logs/*.csv\"\n")
            .file("logs/run.csv", csv)
            .file("doc.md", doc)
    };
    project().args(["update", "doc.md"]).stdout_has("| 1 | 96.3 | 80.2 |").run();
    let claims = project().args(["claims", "doc.md"]).stdout_has("a 96.3 vs b 80.2").run();
    assert!(!claims.stdout.contains("96.4"), "{}", claims.stdout);
}
