#!/usr/bin/env bash
# The whole test suite, as CI runs it: formatting, lints, then every test of
# every crate.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
