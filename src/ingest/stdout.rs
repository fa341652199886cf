//! Placeholder for the "Serving Benchmark Result" stdout parser, written in
//! parallel on another branch; replaced at merge.

use std::io::BufRead;
use std::path::Path;

use crate::ingest::format::{Emit, Outcome};
use crate::{Error, Result};

/// True when the head of a file holds a "Serving Benchmark Result" block.
pub fn sniff(head: &[u8]) -> bool {
    let _ = head;
    false
}

/// Parses every "Serving Benchmark Result" block of a log.
pub fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
    let _ = (input, emit);
    Err(Error::UnknownFormat {
        path: path.to_path_buf(),
        msg: "the stdout parser is not in this build".into(),
    })
}
