//! The line a CSV record starts on. The csv crate's own count
//! (`Position::line`) is one short after `\r\n` line ends (a record's
//! offset can point at the line end before it), so the formats that read a
//! whole CSV document count lines from each record's byte offset instead.
//! And the one rule for a CSV whose last row has no newline after it: it
//! may have been cut short as it was written, and is refused
//! ([`whole_last_row`], [`cut_last_row`]), whichever reader reads it.

use crate::Error;
use std::path::Path;

/// The 1-based line a record starts on, from its byte offset (which can
/// point at the line end before it), for offsets met in increasing order:
/// each newline counted once.
#[derive(Default)]
pub struct LineCount {
    byte: usize,
    newlines: u64,
}

impl LineCount {
    /// The line of the record at `byte` of `doc`.
    pub fn at(&mut self, doc: &[u8], byte: u64) -> u64 {
        let mut byte = usize::try_from(byte).map_or(doc.len(), |b| b.min(doc.len()));
        while doc.get(byte).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
            byte += 1;
        }
        if byte > self.byte {
            self.newlines += memchr::memchr_iter(b'\n', &doc[self.byte..byte]).count() as u64;
            self.byte = byte;
        }
        self.newlines + 1
    }
}

/// Why a CSV file that does not end with a newline is refused: the writer
/// may have been stopped inside its last row, and a number cut short
/// (`11.3` of `11.33`) reads as well as a whole one. Every CSV writer
/// (Python's `csv`, pandas, Google Benchmark, nvbench, criterion,
/// GenAI-Perf) ends each row with a newline.
const CUT_LAST_ROW: &str = "the file does not end with a newline, so this last row may have been cut short as it \
    was written (a number cut inside reads as a whole one: `11.3` of `11.33`); nothing of the file was stored. If \
    the run finished and the row is whole, end the file with a newline (`echo >> FILE`) and ingest again; if it is \
    still being written, ingest it when it is done";

/// The refusal of a CSV file whose last row, at `line`, has no newline
/// after it.
pub fn cut_last_row(path: &Path, line: u64) -> Error {
    Error::malformed(path, line, CUT_LAST_ROW)
}

/// Refuses a whole CSV document in memory when something other than white
/// space follows its last newline: its last row may have been cut short.
/// The error is at that row's last line.
pub fn whole_last_row(path: &Path, doc: &[u8]) -> crate::Result<()> {
    let after = memchr::memrchr(b'\n', doc).map_or(doc, |i| &doc[i + 1..]);
    if after.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    let newlines = memchr::memchr_iter(b'\n', doc).count() as u64;
    Err(cut_last_row(path, newlines + 1))
}

#[cfg(test)]
mod tests {
    use super::{whole_last_row, LineCount};
    use std::path::Path;

    #[test]
    fn a_document_is_whole_when_only_white_space_follows_its_last_newline() {
        let at = |doc: &str| whole_last_row(Path::new("t.csv"), doc.as_bytes()).map_err(|e| e.to_string());
        for whole in ["", "a,b\n", "a,b\r\n1,2\r\n", "a,b\n1,2\n\n  \n", "a,b\n1,2\n\r"] {
            assert_eq!(at(whole), Ok(()), "{whole:?}");
        }
        let e = at("a,b\n1,2\n3,4").unwrap_err();
        assert!(e.starts_with("t.csv:3: the file does not end with a newline"), "{e}");
        assert!(e.contains("echo >> FILE"), "{e}");
        assert!(at("a,b").unwrap_err().starts_with("t.csv:1: "));
    }

    #[test]
    fn lines_are_counted_from_offsets_whatever_the_line_ends() {
        let doc = b"a,b\r\n1,2\r\n\r\n3,4\r\n";
        let mut lines = LineCount::default();
        // The offsets the csv crate gives: at the line end before a record.
        assert_eq!(lines.at(doc, 4), 2);
        assert_eq!(lines.at(doc, 9), 4);
        let mut lines = LineCount::default();
        assert_eq!((lines.at(b"a\n1\n2\n", 2), lines.at(b"a\n1\n2\n", 4)), (2, 3));
    }
}
