#!/usr/bin/env bash
# Installs what cucc needs on a fresh Debian machine: the Rust toolchain is
# assumed present; clang-16 (the CUDA front end), clang's OpenMP runtime and
# <omp.h> (CUDA sources that include it or use -Xcompiler -fopenmp) and
# OpenBLAS come from Debian, and so do the tools the toolkit tests build
# with (tests/toolkit.rs): CMake, Open MPI, Python's setuptools and headers,
# and the OpenGL headers Rodinia's hybridsort includes without using
# (GL/glew.h, GL/glut.h; `rodinia external`), and LLVM's assembler
# (`llvm-mc-16`, package llvm-16), the independent check of the Snitch
# backend's RISC-V encodings.
# Safe to run again: it only installs what is missing.
set -euo pipefail

need=()
command -v clang-16 >/dev/null 2>&1 || need+=(clang-16)
command -v llvm-mc-16 >/dev/null 2>&1 || need+=(llvm-16)
[ -e /usr/lib/llvm-16/lib/clang/16/include/omp.h ] || need+=(libomp-16-dev)
[ -e /usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h ] || [ -e /usr/include/cblas.h ] \
    || need+=(libopenblas-dev)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v make >/dev/null 2>&1 || need+=(make)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin)
command -v mpicxx >/dev/null 2>&1 || need+=(libopenmpi-dev)
[ -e /usr/include/GL/glew.h ] || need+=(libglew-dev)
[ -e /usr/include/GL/glut.h ] || need+=(freeglut3-dev)
python3 -c 'import setuptools' >/dev/null 2>&1 || need+=(python3-setuptools)
python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(sysconfig.get_paths()["include"] + "/Python.h"))' \
    >/dev/null 2>&1 || need+=(python3-dev)

if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]}" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

# NVIDIA's nvcc from PyPI, in .venv at the repository root: the tests build
# programs with the real nvcc (both runtimes) and run them on cucc's
# runtime (tests/nvcc_built.rs). nvcc runs here with gcc as host compiler;
# nothing it builds needs a GPU. Its link step wants `libcudart.so`.
root="$(cd "$(dirname "$0")/.." && pwd)"
find_nvcc() { ls "$root"/.venv/lib/python3*/site-packages/nvidia/cu13/bin/nvcc 2>/dev/null | head -n 1; }
if [ -z "$(find_nvcc)" ]; then
    if ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
        sudo=""
        if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
    fi
    echo "setup: installing NVIDIA's nvcc (PyPI wheels) into $root/.venv" >&2
    [ -x "$root/.venv/bin/pip" ] || python3 -m venv "$root/.venv"
    "$root/.venv/bin/pip" install -q --disable-pip-version-check \
        "nvidia-cuda-nvcc>=13,<14" "nvidia-cuda-crt>=13,<14" \
        "nvidia-cuda-runtime>=13,<14" "nvidia-cuda-cccl>=13,<14"
fi
nvcc="$(find_nvcc)"
if [ -n "$nvcc" ]; then
    lib="$(dirname "$nvcc")/../lib"
    [ -e "$lib/libcudart.so" ] || ln -s libcudart.so.13 "$lib/libcudart.so"
fi

# xDSL 0.21.1 from PyPI, in the same .venv: the oracle the Snitch compiler's
# instruction sequences and counts are compared with
# (backends/snitch/tests/xdsl_oracle.rs; about 35 MB, pure Python).
if [ ! -x "$root/.venv/bin/xdsl-opt" ]; then
    echo "setup: installing xdsl==0.21.1 into $root/.venv" >&2
    [ -x "$root/.venv/bin/pip" ] || python3 -m venv "$root/.venv"
    "$root/.venv/bin/pip" install -q --disable-pip-version-check "xdsl==0.21.1"
fi
