//! The `reckon` binary: a thin layer over the library.

fn main() {
    std::process::exit(reckon::cli::main());
}
