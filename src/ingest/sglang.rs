//! sglang (to be written)
