//! The command line: argument parsing and dispatch to the library.

pub fn main() -> i32 {
    0
}
