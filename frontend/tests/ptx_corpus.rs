//! The CUDA corpus checks of `corpus.rs`, run on the IR the PTX frontend
//! makes from nvcc's PTX for each program (`frontend/tests/ptx/`, see
//! `regen.sh`): every kernel runs in the reference interpreter against the
//! same Rust references, and every launch is replayed after each cpuify
//! pass. `corpus.rs` picks the PTX frontend when included from here.

#[path = "corpus.rs"]
mod ptx_corpus_checks;
