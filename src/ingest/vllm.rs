//! vllm (to be written)
