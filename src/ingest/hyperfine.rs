//! hyperfine (to be written)
