#!/bin/sh
# Regenerates the PTX test data: nvcc's PTX for the project's own CUDA test
# programs (tests/cuda/*.cu), which frontend/tests/ptx_corpus.rs lowers with
# the PTX frontend. Needs NVIDIA's nvcc; the tests themselves do not.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
nvcc=${NVCC:-/work/main/.venv/lib/python3.11/site-packages/nvidia/cu13/bin/nvcc}
# The shims' headers (cuBLAS, cuDNN) without cucc's CUDA headers: nvcc
# keeps its own.
shims=$(mktemp -d)
trap 'rm -rf "$shims"' EXIT
for h in cublas_v2.h cublas_api.h cudnn.h cudnn_version.h; do
    cp "$root/frontend/include/$h" "$shims/"
done
for cu in "$root"/tests/cuda/*.cu; do
    name=$(basename "$cu" .cu)
    # nvcc's language options among a program's `// cucc-flags:` (such as
    # --expt-relaxed-constexpr); the libraries it links do not matter here.
    lang=$(sed -n '1,5s|^// cucc-flags:||p' "$cu" | tr ' ' '\n' | grep -E '^--(expt|extended)' || true)
    # Programs that use host APIs CUDA 13 removed do not build with nvcc 13.
    # shellcheck disable=SC2086
    if ! (cd "$root" && "$nvcc" -ptx -arch=sm_80 $lang -I tests/cuda -I "$shims" -o "$here/$name.ptx" "tests/cuda/$name.cu") 2>/dev/null; then
        echo "skipped $name.cu (nvcc rejects it)" >&2
        rm -f "$here/$name.ptx"
    fi
done
# The CUDA frontend's own test programs (frontend/tests/cuda).
mkdir -p "$here/frontend"
for cu in "$root"/frontend/tests/cuda/*.cu; do
    name=$(basename "$cu" .cu)
    if ! (cd "$root" && "$nvcc" -ptx -arch=sm_80 -I frontend/tests/cuda -o "$here/frontend/$name.ptx" "frontend/tests/cuda/$name.cu") 2>/dev/null; then
        echo "skipped frontend/tests/cuda/$name.cu (nvcc rejects it)" >&2
        rm -f "$here/frontend/$name.ptx"
    fi
done
# The Rodinia-derived applications (rodinia/apps/NAME/NAME.cu).
mkdir -p "$here/rodinia"
for d in "$root"/rodinia/apps/*/; do
    name=$(basename "$d")
    [ -f "$d/$name.cu" ] || continue
    if ! (cd "$root" && "$nvcc" -ptx -arch=sm_80 -I rodinia/apps/common -I "rodinia/apps/$name" -o "$here/rodinia/$name.ptx" "rodinia/apps/$name/$name.cu") 2>/dev/null; then
        echo "skipped rodinia/apps/$name (nvcc rejects it)" >&2
        rm -f "$here/rodinia/$name.ptx"
    fi
done
