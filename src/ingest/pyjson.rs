//! pyjson (to be written)
