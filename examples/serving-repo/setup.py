# Builds the serving_ext CUDA extension (fused norm/softmax, int4 dequant, rotary, cuBLAS linear).
import os

from setuptools import find_packages, setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

# A100 and H100 in production; L4 (sm_89) runs the sm_80 cubin.
CUDA_ARCHS = os.environ.get("SERVING_CUDA_ARCHS", "80;90").split(";")

nvcc_flags = [
    "-O3",
    "--use_fast_math",
    "-std=c++17",
    "--expt-relaxed-constexpr",
    "-U__CUDA_NO_HALF_OPERATORS__",
    "-U__CUDA_NO_BFLOAT16_CONVERSIONS__",
    "--maxrregcount=128",
    "-lineinfo",
]
for arch in CUDA_ARCHS:
    nvcc_flags += ["-gencode", f"arch=compute_{arch},code=sm_{arch}"]

ext = CUDAExtension(
    name="serving_ext",
    sources=[
        "csrc/bindings.cpp",
        "csrc/gemm_cublas.cpp",
        "csrc/fused_norm.cu",
        "csrc/dequant_rotary.cu",
    ],
    include_dirs=[os.path.join(os.path.dirname(os.path.abspath(__file__)), "csrc")],
    extra_compile_args={"cxx": ["-O3", "-std=c++17"], "nvcc": nvcc_flags},
    libraries=["cublas"],
)

setup(
    name="serving",
    version="0.4.2",
    description="LLM and vision inference server with fused CUDA kernels",
    packages=find_packages(include=["server", "server.*"]),
    ext_modules=[ext],
    cmdclass={"build_ext": BuildExtension},
    python_requires=">=3.10",
)
