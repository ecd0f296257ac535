#!/usr/bin/env bash
# Compile time against kernel size: generates kernels of N statements
# (scripts/gen-kernel.py) and times, for each,
#   cucc     the source path: `cucc -O3 kN.cu` (frontend, cpuify, emit_c, cc, link),
#   jit      the nvcc-built program under `cucc run` with an empty JIT cache
#            (PTX translation + cc; from the runtime's CUCC_LOG=info line),
#   nvcc     NVIDIA's `nvcc -O3 -cudart shared kN.cu` (when nvcc is found),
# and checks that the cucc-built and JIT-run programs print the same checksum.
# Usage: scripts/bench-compile.sh [N ...]   (default: 1000 2000 5000 10000)
# Env: NVCC (default: nvcc on PATH, else the .venv wheel's), CUCC (default:
# target/release/cucc, built first), KEEP=DIR keeps the generated files.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 2000 5000 10000)
if [ -z "${CUCC:-}" ]; then
    cargo build --release -q -p cucc -p cucc-runtime
    CUCC="$root/target/release/cucc"
fi
nvcc="${NVCC:-$(command -v nvcc || true)}"
if [ -z "$nvcc" ]; then
    wheel="$root/.venv/lib/python3.11/site-packages/nvidia/cu13/bin/nvcc"
    [ -x "$wheel" ] && nvcc="$wheel"
fi
work="${KEEP:-$(mktemp -d)}"
mkdir -p "$work"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

printf '%8s %9s %9s %9s %9s %9s  %s\n' statements cucc_s jit_s jit_tr_s jit_cc_s nvcc_s checksums
for n in "${sizes[@]}"; do
    src="$work/k$n.cu"
    python3 "$root/scripts/gen-kernel.py" "$n" "$src"
    t0=$(now)
    "$CUCC" -O3 "$src" -o "$work/cucc$n"
    t1=$(now)
    cucc_s=$(secs "$t0" "$t1")
    sum_cucc=$("$work/cucc$n" | sed -n 's/^checksum //p')
    nvcc_s=-; jit_s=-; tr=-; cc=-; sum_jit=-
    if [ -n "$nvcc" ]; then
        t0=$(now)
        "$nvcc" -O3 -cudart shared "$src" -o "$work/nvcc$n"
        t1=$(now)
        nvcc_s=$(secs "$t0" "$t1")
        cache="$work/cache$n"
        rm -rf "$cache"
        t0=$(now)
        out=$(CUCC_CACHE_DIR="$cache" CUCC_LOG=info "$CUCC" run "$work/nvcc$n" 2>&1)
        t1=$(now)
        jit_s=$(secs "$t0" "$t1")
        tr=$(sed -n 's/.*translated in \([0-9.]*\) ms.*/\1/p' <<<"$out" | awk '{ printf "%.2f", $1 / 1000 }')
        cc=$(sed -n 's/.*compiled in \([0-9.]*\) ms.*/\1/p' <<<"$out" | awk '{ printf "%.2f", $1 / 1000 }')
        sum_jit=$(sed -n 's/^checksum //p' <<<"$out")
    fi
    same=$([ "$sum_cucc" = "$sum_jit" ] && echo "equal ($sum_cucc)" || echo "cucc $sum_cucc, jit $sum_jit")
    printf '%8s %9s %9s %9s %9s %9s  %s\n' "$n" "$cucc_s" "$jit_s" "$tr" "$cc" "$nvcc_s" "$same"
done
[ -n "${KEEP:-}" ] || rm -rf "$work"
