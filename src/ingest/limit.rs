//! The longest line a log may hold. A log is read through [`LineLimit`],
//! which refuses a line longer than the limit while reading it, before any
//! parser holds it whole: a single 1 GB line once took 4 GiB of memory and
//! ended in `SQLite`'s "string or blob too big" without saying where.

use std::io::{Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The default limit: far above any real log line (a vLLM result with
/// per-request arrays for 10,000 requests is a few MB), far below memory.
pub const DEFAULT_LINE_BYTES: usize = 64 << 20;

/// The longest line a log may hold, and the largest JSON document read
/// whole (a pretty-printed result file, a hyperfine export): `[limits]
/// line_bytes` of the project the log belongs to, handed to each read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineBytes(usize);

impl LineBytes {
    /// At least one byte.
    pub fn new(bytes: usize) -> LineBytes {
        LineBytes(bytes.max(1))
    }

    pub fn get(self) -> usize {
        self.0
    }
}

impl Default for LineBytes {
    fn default() -> Self {
        LineBytes(DEFAULT_LINE_BYTES)
    }
}

/// A log that is one document (a JSON export, a small table), read whole,
/// refused past the limit so a huge file cannot exhaust memory.
pub fn read_document(
    path: &std::path::Path,
    input: &mut dyn std::io::BufRead,
    limit: LineBytes,
) -> crate::Result<Vec<u8>> {
    let mut doc = Vec::new();
    let limit = limit.get();
    Read::read_to_end(&mut Read::take(&mut *input, limit as u64 + 1), &mut doc)
        .map_err(|e| crate::Error::io(path, e))?;
    if doc.len() > limit {
        return Err(crate::Error::malformed(
            path,
            1,
            format!("the file is longer than {} MiB; raise `line_bytes` under [limits] in reckon.toml", limit >> 20),
        ));
    }
    Ok(doc)
}

/// The message for a line over the limit.
pub fn too_long(limit: usize) -> String {
    format!(
        "this line is longer than {} MiB ({limit} bytes); reckon refuses it rather than hold it in memory — \
         if the log really has such lines, raise `line_bytes` under [limits] in reckon.toml",
        limit >> 20
    )
}

/// A reader that fails once a line (ended by `\n` or `\r`) grows past the
/// limit, and records that line's 1-based number in `over`.
pub struct LineLimit<R> {
    inner: R,
    limit: usize,
    /// Bytes since the last line break.
    run: usize,
    /// Line breaks (`\n`) read so far.
    lines: u64,
    over: Arc<AtomicU64>,
}

impl<R> LineLimit<R> {
    /// `over` is set to the offending line's number (0: none).
    pub fn new(inner: R, limit: LineBytes, over: Arc<AtomicU64>) -> Self {
        LineLimit { inner, limit: limit.get(), run: 0, lines: 0, over }
    }
}

impl<R: Read> Read for LineLimit<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let chunk = &buf[..n];
        if self.run + n <= self.limit {
            // No stretch in this chunk can pass the limit: only the count of
            // lines and the stretch after the last break are needed, which
            // memchr finds without a branch per byte.
            self.lines += memchr::memchr_iter(b'\n', chunk).count() as u64;
            self.run = match memchr::memrchr2(b'\n', b'\r', chunk) {
                Some(last) => n - last - 1,
                None => self.run + n,
            };
            return Ok(n);
        }
        match chunk.iter().rposition(|&b| b == b'\n' || b == b'\r') {
            Some(last) => {
                // The longest stretch inside this chunk, then what follows
                // the last break.
                let mut start = 0;
                for (i, &b) in chunk.iter().enumerate() {
                    if b == b'\n' || b == b'\r' {
                        let len = if start == 0 { self.run + i } else { i - start };
                        if len > self.limit {
                            return Err(self.fail());
                        }
                        if b == b'\n' {
                            self.lines += 1;
                        }
                        start = i + 1;
                    }
                }
                self.run = n - last - 1;
            }
            None => self.run += n,
        }
        if self.run > self.limit {
            return Err(self.fail());
        }
        Ok(n)
    }
}

impl<R> LineLimit<R> {
    fn fail(&self) -> std::io::Error {
        self.over.store(self.lines + 1, Ordering::Relaxed);
        std::io::Error::other(too_long(self.limit))
    }
}

impl<R: Seek> Seek for LineLimit<R> {
    /// Only a rewind to the start is meaningful (a second pass over a
    /// file); the counts start again.
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        let at = self.inner.seek(pos)?;
        if at == 0 {
            self.run = 0;
            self.lines = 0;
        }
        Ok(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &[u8], limit: usize) -> (std::io::Result<Vec<u8>>, u64) {
        read_in(text, limit, 3)
    }

    fn read_in(text: &[u8], limit: usize, chunk: usize) -> (std::io::Result<Vec<u8>>, u64) {
        let over = Arc::new(AtomicU64::new(0));
        let mut r = LineLimit::new(text, LineBytes::new(limit), over.clone());
        let mut out = Vec::new();
        // Small reads, so lines cross chunk boundaries.
        let mut buf = vec![0u8; chunk];
        let res = loop {
            match r.read(&mut buf) {
                Ok(0) => break Ok(out),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => break Err(e),
            }
        };
        (res, over.load(Ordering::Relaxed))
    }

    #[test]
    fn a_line_over_the_limit_is_refused_at_its_number() {
        assert_eq!(read_all(b"abc\ndefgh\r\nij\n", 5).0.unwrap(), b"abc\ndefgh\r\nij\n");
        let (res, line) = read_all(b"abc\nde\nfghijk\nl\n", 5);
        assert!(res.unwrap_err().to_string().contains("longer than"));
        assert_eq!(line, 3);
        // Carriage returns end a stretch too (progress bars).
        assert!(read_all(b"12345\r12345\r12345\n", 5).0.is_ok());
        let (res, line) = read_all(b"ok\n123456", 5);
        assert!(res.is_err());
        assert_eq!(line, 2);
    }

    #[test]
    fn every_read_size_refuses_the_same_line() {
        // Reads small enough for the per-byte path and large enough for the
        // counting one, and every mix of the two, agree on the line.
        let texts: [&[u8]; 4] =
            [b"abc\nde\nfghijk\nl\n", b"12345\r12345\r123456\n", b"a\n\n\nabcdef", b"abcde\nabcde\n"];
        for text in texts {
            let (res, line) = read_in(text, 5, text.len());
            for chunk in 1..=text.len() + 1 {
                let (r, l) = read_in(text, 5, chunk);
                assert_eq!((r.is_ok(), l), (res.is_ok(), line), "{chunk} {:?}", String::from_utf8_lossy(text));
            }
        }
    }
}
