#!/usr/bin/env bash
# The whole test suite, as CI runs it: formatting, lints, every test of
# every crate, the example IR kernels, and the Rodinia-derived suite at its
# small size (CUDA versions built by cucc checked against the OpenMP twins).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
target/debug/cucc ir-run --examples examples/ir > /dev/null
target/debug/rodinia run --size small --runs 1
