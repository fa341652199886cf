//! stdout (to be written)
