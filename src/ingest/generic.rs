//! generic (to be written)
