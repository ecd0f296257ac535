#!/usr/bin/env bash
# The main job: build cucc and run the example kernels of examples/ir on the
# reference interpreter, printing their results.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cargo build --release -q
exec target/release/cucc ir-run --examples examples/ir
