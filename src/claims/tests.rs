//! Verdict tests.
