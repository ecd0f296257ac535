#!/usr/bin/env bash
# The main job: build cucc (compiler, runtime, harness) and run the
# Rodinia-derived suite on the CPU: every application's CUDA version built by
# cucc and its OpenMP twin built with -fopenmp, verified against each other
# and timed; prints the table and writes target/rodinia.json and .svg.
# Extra arguments go to `rodinia run` (e.g. --only hotspot,lud --size small).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cargo build --release -q --workspace
exec target/release/rodinia run --json target/rodinia.json --chart target/rodinia.svg "$@"
