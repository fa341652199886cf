//! The line a CSV record starts on. The csv crate's own count
//! (`Position::line`) is one short after `\r\n` line ends (a record's
//! offset can point at the line end before it), so the formats that read a
//! whole CSV document count lines from each record's byte offset instead.

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

#[cfg(test)]
mod tests {
    use super::LineCount;

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
