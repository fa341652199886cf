use std::path::Path;

use super::*;

/// Written by nbformat's writer (tests/fixtures/notebooks/make.py).
const PLAN: &str = include_str!("../../../tests/fixtures/notebooks/plan.ipynb");

fn path() -> &'static Path {
    Path::new("plan.ipynb")
}

#[test]
fn each_line_of_the_view_is_the_markdown_on_that_line_of_the_file() {
    let view = read_view(path(), PLAN).unwrap();
    let file: Vec<&str> = PLAN.lines().collect();
    let view_lines: Vec<&str> = view.lines().collect();
    assert_eq!(view_lines.len(), file.len());
    let mut cell_lines = 0;
    for (v, f) in view_lines.iter().zip(&file) {
        if v.bytes().all(|b| b == b' ' || b == b'\t') {
            continue;
        }
        cell_lines += 1;
        let literal = f.trim_start().trim_end_matches(',');
        let decoded: String = serde_json::from_str(literal).unwrap();
        assert_eq!(decoded.trim_end_matches('\n'), *v);
    }
    assert!(cell_lines > 15, "{cell_lines}");
    assert!(!view.contains("import json"), "code cells are not in the view");
    assert!(!view.contains("is not markdown"), "raw cells are not in the view");
    let nb = Notebook::parse(path(), PLAN).unwrap();
    assert_eq!(nb.place(8).map(|p| p.to_string()).as_deref(), Some("cell 1 (id `intro`), line 1"));
    assert_eq!(nb.place(1), None);
}

#[test]
fn an_unchanged_view_writes_nothing_and_an_edit_outside_the_cells_is_refused() {
    let view = read_view(path(), PLAN).unwrap();
    assert_eq!(rewrite(path(), PLAN, &view).unwrap(), None);
    let at = view.find("\n\t \t\n").unwrap() + 1;
    let mut outside = view.clone();
    outside.insert_str(at, "a new paragraph\n");
    let e = rewrite(path(), PLAN, &outside).unwrap_err().to_string();
    assert!(e.contains("does not keep to the notebook's markdown cells"), "{e}");
}

#[test]
fn an_edited_cell_is_printed_as_nbformat_prints_it_and_nothing_else_moves() {
    let view = read_view(path(), PLAN).unwrap();
    let edited = view.replacen("next to the code that", "next to \"the\" code — that", 1);
    let out = rewrite(path(), PLAN, &edited).unwrap().unwrap();
    let old_line = "    \"The plan, kept in Jupyter: prose in markdown cells next to the code that\\n\",";
    let new_line = "    \"The plan, kept in Jupyter: prose in markdown cells next to \\\"the\\\" code — that\\n\",";
    assert_eq!(out, PLAN.replacen(old_line, new_line, 1));
}

#[test]
fn a_source_written_as_one_string_of_several_lines_is_refused_naming_the_cell() {
    let one_string = PLAN.replacen(
        "   \"source\": [\n    \"## Notes\\n\",\n    \"\\n\",\n",
        "   \"source\": \"## Notes\\n\\nx\", \"was\": [\n",
        1,
    );
    assert_ne!(one_string, PLAN);
    let e = read_view(path(), &one_string).unwrap_err().to_string();
    assert!(e.contains("cell 8 (id `notes`), line 1: the cell's text is not written one line per line"), "{e}");
}

#[test]
fn the_lines_outside_cells_are_told_from_a_cell_line_of_spaces_and_tabs() {
    let nb = PLAN.replacen("    \"## Notes\\n\",", "    \"\\t \\t\\n\",", 1);
    let view = read_view(path(), &nb).unwrap();
    assert!(view.contains("\n\t \t\n"), "the cell's own line");
    assert!(view.contains("\n\t \t \t\n"), "the separator, another run");
    assert_eq!(rewrite(path(), &nb, &view).unwrap(), None);
    let edited = view.replacen("458.9 tok/s", "459 tok/s", 1);
    let out = rewrite(path(), &nb, &edited).unwrap().unwrap();
    assert_eq!(out, nb.replacen("458.9 tok/s", "459 tok/s", 1));
}

#[test]
fn not_a_notebook_is_an_error_at_its_place() {
    let e = read_view(path(), "{\n \"cells\": [\n").unwrap_err().to_string();
    assert!(e.starts_with("plan.ipynb:3:1: not a Jupyter notebook: the JSON does not read"), "{e}");
    let e = read_view(path(), "{\"nbformat\": 3, \"worksheets\": []}").unwrap_err().to_string();
    assert!(e.contains("reckon reads nbformat 4 notebooks and this one is nbformat 3"), "{e}");
}

#[test]
fn a_notebook_saved_with_windows_line_endings_is_written_back_with_them() {
    let crlf = PLAN.replace('\n', "\r\n");
    let view = read_view(path(), &crlf).unwrap();
    assert_eq!(
        view,
        read_view(path(), PLAN).unwrap(),
        "the cells' text is the JSON's, whatever the file's lines end with"
    );
    let edited = view.replacen("458.9 tok/s", "459 tok/s", 1);
    let out = rewrite(path(), &crlf, &edited).unwrap().unwrap();
    assert_eq!(out, crlf.replacen("458.9 tok/s", "459 tok/s", 1));
}

#[test]
fn a_code_fence_left_open_in_a_cell_does_not_hide_the_next_cells_regions() {
    let last = "    \"draws the plots — naïve speculation ≈ “free speed”, until the verify pass costs.\"";
    assert!(PLAN.contains(last));
    let open_fence = PLAN.replacen(last, "    \"```python\"", 1);
    let e = read_view(path(), &open_fence).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "plan.ipynb:53:1: cell 3 (id `results`), line 5: this region reads differently with the cells before \
             it than in its cell alone: an earlier cell leaves a block open (a code fence, an HTML block)"
        ),
        "{e}"
    );
}
