#!/usr/bin/env bash
# CSR SpMV on the Elasticity3D_60 shape (benches/spmv/spmv.cu): an OpenMP
# row loop, a thread-per-row and a warp-per-row kernel, in GB/s. Built by
# cucc (source path) and, when NVIDIA's nvcc is in .venv (scripts/setup.sh),
# by nvcc and run under `cucc run` (PTX path, one fresh JIT cache).
# Usage: scripts/bench-spmv.sh [grid_edge [reps]]   (defaults 60 and 10)
set -euo pipefail
cd "$(dirname "$0")/.."
edge="${1:-60}"
reps="${2:-10}"
cargo build --release -q -p cucc -p cucc-runtime
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
target/release/cucc -O3 -Xcompiler -fopenmp benches/spmv/spmv.cu -o "$out/spmv-cucc"
nvcc="$(ls .venv/lib/python3*/site-packages/nvidia/cu13/bin/nvcc 2>/dev/null | head -n 1 || true)"
if [ -n "$nvcc" ]; then
    "$nvcc" -O3 -cudart shared -arch=sm_80 -Xcompiler -fopenmp -L"$(dirname "$nvcc")/../lib" \
        benches/spmv/spmv.cu -o "$out/spmv-nvcc"
fi
echo "== source path (cucc -O3)"
"$out/spmv-cucc" "$edge" "$reps" | tee "$out/cucc.txt"
if [ -n "$nvcc" ]; then
    echo "== PTX path (nvcc -cudart shared, cucc run)"
    CUCC_CACHE_DIR="$out/cache" target/release/cucc run "$out/spmv-nvcc" "$edge" "$reps" | tee "$out/nvcc.txt"
    echo "== side by side (GB/s)"
    printf '%-16s %10s %10s\n' kernel source PTX
    for k in openmp-rows thread-per-row warp-per-row; do
        a="$(awk -v k="$k" '$1 == k { print $2 }' "$out/cucc.txt")"
        b="$(awk -v k="$k" '$1 == k { print $2 }' "$out/nvcc.txt")"
        printf '%-16s %10s %10s\n' "$k" "$a" "$b"
    done
else
    echo "nvcc not found in .venv (scripts/setup.sh installs it): PTX path skipped"
fi
