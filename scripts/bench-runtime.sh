#!/usr/bin/env bash
# Runtime micro-benchmarks (launch overhead, memcpy bandwidth), built with
# cucc in release mode. Usage: scripts/bench-runtime.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p cucc -p cucc-runtime
out="$(mktemp -d)"
target/release/cucc -O3 benches/runtime/launch.cu --device-ir=benches/runtime/empty.cuir -o "$out/launch"
"$out/launch"
rm -rf "$out"
