#!/bin/bash
# The cost of CUCC_SANITIZE (docs/sanitize.md, "Cost"): runs Rodinia-derived
# apps through the rodinia harness without checks, under memcheck and under
# racecheck, and prints the harness's tables (median seconds of each app's
# timed region; the checked rebuild of the kernels happens before it).
#
#   scripts/sanitize_cost.sh [--size small|rodinia|default] [--only a,b,...]
#
# Needs `cargo build -p cucc -p cucc-runtime -p cucc-rodinia` (debug
# profile; RODINIA=path overrides the harness binary).
set -euo pipefail
cd "$(dirname "$0")/.."
size=rodinia
only=hotspot,pathfinder,backprop,nw,srad_v2,kmeans
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "usage: $0 [--size S] [--only a,b]" >&2; exit 2 ;;
  esac
done
rodinia=${RODINIA:-target/debug/rodinia}
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
for mode in off memcheck racecheck; do
  echo "== CUCC_SANITIZE=$mode"
  CUCC_CACHE_DIR=$cache CUCC_SANITIZE=$mode "$rodinia" run --only "$only" --size "$size" \
    --threads 2 --runs 3 2>/dev/null
done
