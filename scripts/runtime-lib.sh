#!/usr/bin/env bash
# Builds cucc's CUDA runtime and names it as programs look for it.
#
# Cargo names the cdylib libcucc_runtime.so; its soname is libcudart.so.13.
# Programs linked with -lcudart (or -l:libcudart.so.13) and the dynamic loader
# need a file called libcudart.so.13 (and, for -lcudart at link time,
# libcudart.so), so this script places both symlinks next to the artifact:
#
#   target/<profile>/libcudart.so.13 -> libcucc_runtime.so
#   target/<profile>/libcudart.so    -> libcudart.so.13
#
# Usage: scripts/runtime-lib.sh [--release | --profile NAME]
# Prints the directory to pass to -L / -Wl,-rpath / LD_LIBRARY_PATH.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
profile=dev
case "${1:-}" in
  --release) profile=release ;;
  --profile) profile="${2:?--profile needs a name}" ;;
  "") ;;
  *) echo "usage: $0 [--release | --profile NAME]" >&2; exit 2 ;;
esac
case "$profile" in
  dev | test) dir=debug ;;
  bench) dir=release ;;
  *) dir="$profile" ;;
esac

cargo build --manifest-path "$root/Cargo.toml" -p cucc-runtime --profile "$profile" >&2
target="${CARGO_TARGET_DIR:-$root/target}/$dir"
if [[ ! -f "$target/libcucc_runtime.so" ]]; then
  echo "runtime-lib.sh: $target/libcucc_runtime.so was not built" >&2
  exit 1
fi
ln -sfn libcucc_runtime.so "$target/libcudart.so.13"
ln -sfn libcudart.so.13 "$target/libcudart.so"
echo "$target"
