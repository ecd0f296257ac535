#!/usr/bin/env bash
# Installs what cucc needs on a fresh Debian machine: the Rust toolchain is
# assumed present; clang-16 (the CUDA front end) and OpenBLAS come from
# Debian. Safe to run again: it only installs what is missing.
set -euo pipefail

need=()
command -v clang-16 >/dev/null 2>&1 || need+=(clang-16)
[ -e /usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h ] || [ -e /usr/include/cblas.h ] \
    || need+=(libopenblas-dev)
command -v cc >/dev/null 2>&1 || need+=(gcc)

if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]}" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
