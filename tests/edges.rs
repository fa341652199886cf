//! Edges where reckon was wrong, silent or unhelpful (the `edges` round):
//! each test on invented data under `tests/fixtures/edges/`.

mod common;

use common::Sandbox;

#[test]
fn every_csv_reader_refuses_a_last_row_with_no_newline_after_it() {
    // Each file's last number was cut as it was written (`2048.1` of
    // `2048.125`, …): every CSV reader refuses it as the generic one does,
    // at the row, saying what to do.
    for (file, format, line) in [
        ("gbench.csv", "gbench-csv", 4),
        ("nvbench.csv", "nvbench-csv", 4),
        ("criterion-raw.csv", "criterion-csv", 4),
        ("genai-perf.csv", "genai-perf-csv", 7),
    ] {
        let sb = Sandbox::new();
        sb.fixture(&format!("edges/cut/{file}"), &format!("logs/{file}"));
        let logs = format!("logs/{file}");
        let ran = sb.run(&["ingest", &logs]);
        assert_eq!(ran.code, 2, "{file}: {ran:?}");
        let all = format!("{}{}", ran.stdout, ran.stderr);
        let expected = format!("{logs}:{line}: the file does not end with a newline");
        assert!(all.contains(&expected), "{file}: {ran:?}");
        assert!(all.contains("echo >> FILE"), "{file}: {ran:?}");
        assert_eq!(sb.counts().1, 0, "{file}: nothing of it is stored");
        // Ended with a newline, it is read, by the reader it was meant for.
        let cut = sb.read(&logs);
        sb.write(&logs, format!("{cut}\n"));
        let ran = sb.ok(&["ingest", &logs]);
        assert!(ran.stderr.contains(&format!("({format})")), "{file}: {ran:?}");
        assert!(sb.counts().1 > 0, "{file}");
    }
}
