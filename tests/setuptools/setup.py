"""A Python extension with a CUDA part, built the way setuptools-based
projects build them: the toolkit found from CUDA_HOME (or CUDA_PATH, or
nvcc on PATH), .cu files compiled by its bin/nvcc, the extension linked by
the ordinary C++ compiler against its lib64/libcudart.

    CUDA_HOME=DIR python3 setup.py build_ext --inplace
"""
import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def find_cuda_home():
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if not home:
        nvcc = shutil.which("nvcc")
        if nvcc is None:
            raise RuntimeError("no CUDA toolkit: set CUDA_HOME or put nvcc on PATH")
        home = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
        # A link to nvcc in a toolkit's bin: the toolkit is where the link is.
        if not os.path.exists(os.path.join(home, "include", "cuda_runtime.h")):
            home = os.path.dirname(os.path.dirname(nvcc))
    return home


CUDA_HOME = find_cuda_home()
LIB = os.path.join(CUDA_HOME, "lib64")


class BuildWithNvcc(build_ext):
    """Compiles .cu sources with $CUDA_HOME/bin/nvcc, the rest as usual."""

    def build_extensions(self):
        compiler = self.compiler
        default_compile = compiler._compile
        compiler.src_extensions.append(".cu")

        def compile_one(obj, src, ext, cc_args, extra_postargs, pp_opts):
            if src.endswith(".cu"):
                nvcc = os.path.join(CUDA_HOME, "bin", "nvcc")
                self.spawn([nvcc, "-O3", "-Xcompiler", "-fPIC", "-c", src, "-o", obj] + pp_opts)
            else:
                default_compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        compiler._compile = compile_one
        super().build_extensions()


setup(
    name="cucc_saxpy",
    version="0.1",
    ext_modules=[
        Extension(
            "cucc_saxpy",
            sources=["module.cpp", "saxpy.cu"],
            include_dirs=[os.path.join(CUDA_HOME, "include")],
            library_dirs=[LIB],
            runtime_library_dirs=[LIB],
            libraries=["cudart"],
            language="c++",
        )
    ],
    cmdclass={"build_ext": BuildWithNvcc},
)
