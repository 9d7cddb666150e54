"""The API families: which CUDA headers declare each, which declared names are API, and the
naming rule that gives their HIP and ROC names.

Families are listed in the order they claim names: a name declared by two families' headers
(`__ldg` in cuda_fp16.h and sm_32_intrinsics.h) belongs to the first.
"""

from __future__ import annotations

import dataclasses
import re

from . import naming
from .naming import Derive


@dataclasses.dataclass(frozen=True)
class Family:
    name: str  # ApiFamily, lower case
    files: tuple[str, ...]  # globs under the CUDA include directory
    accept: str  # regex a declared name must match in full
    hip: Derive | None  # None: the HIP name is the CUDA name
    roc: Derive | None = None
    scope: str = ""  # the namespace the names live in ("" = global)
    kinds: tuple[str, ...] = ("function", "type", "constant", "macro")
    packaged: tuple[str, ...] = ()  # a HIP header that tells the library is installed
    loose_case: bool = False  # accept a declared HIP name that differs only in letter case


# Names no family reports: implementation details and internal tags.
EXCLUDED = re.compile(r"""
    __cuda\w* | __CUDA\w* | _CUDA\w* | __internal\w* | __float_simpl\w* | __local\w*
  | __nv_(?!bfloat|fp8|fp6|fp4|half|cvt|saturation)\w*
  | __NV_(?!E4M3|E5M2|E2M|E3M|SATFINITE|NOSAT)\w*
  | \w+_(ptds|ptsz) | \w+_st | \w+_enum | \w+_impl | __\w+__ | _(?!_)\w* | __libcpp\w*
""", re.X)

# Macros that are not API: include guards, configuration and version macros, calling
# conventions, deprecation and export markers.
EXCLUDED_MACROS = re.compile(r"""
    \w*_H_? | \w*_HPP_? | \w*_INCLUDED\w* | \w*VERSION\w* | \w*_VER_\w* | \w*_VER
  | \w*API | \w*_CB | \w*DEPRECATED\w* | \w*_EXPORT | \w+_params
""", re.X)


def _prefix_or(*patterns: str) -> str:
    return "|".join(f"(?:{p})" for p in patterns)


FAMILIES: tuple[Family, ...] = (
    Family("runtime",
           ("cuda_runtime_api.h", "cuda_runtime.h", "driver_types.h", "surface_types.h",
            "texture_types.h", "channel_descriptor.h", "cuda_profiler_api.h", "library_types.h",
            "driver_functions.h", "device_types.h", "cuda_gl_interop.h", "cuda_egl_interop.h",
            "cuda_vdpau_interop.h"),
           _prefix_or(r"cuda[A-Z]\w*", r"make_cuda\w+", r"CUDA_[A-Z]\w*"), naming.runtime,
           packaged=("hip/hip_runtime_api.h",), loose_case=True),
    Family("driver",
           ("cuda.h", "cudaProfiler.h", "cudaGL.h", "cudaEGL.h", "cudaVDPAU.h"),
           _prefix_or(r"cu[A-Z]\w*", r"CU[a-z]\w*", r"CU_[A-Z]\w*", r"CUDA_[A-Z]\w*"),
           naming.driver, packaged=("hip/hip_runtime_api.h",), loose_case=True),
    Family("complex", ("cuComplex.h",), _prefix_or(r"cu[A-Z]\w*", r"make_cu[A-Z]\w*"),
           naming.complex_, packaged=("hip/hip_complex.h",), loose_case=True),
    Family("device_function",
           ("crt/math_functions.h", "crt/device_functions.h", "crt/device_double_functions.h",
            "crt/sm_70_rt.h", "crt/sm_80_rt.h", "crt/sm_90_rt.h", "crt/sm_100_rt.h",
            "device_atomic_functions.h", "sm_20_atomic_functions.h", "sm_32_atomic_functions.h",
            "sm_35_atomic_functions.h", "sm_60_atomic_functions.h", "sm_20_intrinsics.h",
            "sm_30_intrinsics.h", "sm_32_intrinsics.h", "sm_35_intrinsics.h", "sm_61_intrinsics.h",
            "texture_indirect_functions.h", "surface_indirect_functions.h", "vector_functions.h",
            "sm_*_intrinsics.hpp", "sm_*_atomic_functions.hpp", "device_atomic_functions.hpp",
            "crt/device_functions.hpp", "crt/math_functions.hpp", "crt/sm_*_rt.hpp",
            "vector_functions.hpp"),
           r"[A-Za-z_]\w*", None, kinds=("function",), packaged=("hip/hip_runtime.h",)),
    Family("device_type", ("vector_types.h",),
           r"dim3|(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4](?:_16a|_32a)?",
           None, kinds=("type",), packaged=("hip/hip_runtime.h",)),
    Family("fp16", ("cuda_fp16.h", "cuda_fp16.hpp"), r"(?!\w*bfloat)[A-Za-z_]\w*", None,
           kinds=("function", "type"), packaged=("hip/hip_fp16.h",)),
    Family("bf16", ("cuda_bf16.h", "cuda_bf16.hpp"), r"\w*bfloat\w*",
           lambda name: [name.replace("__nv_bfloat16", "__hip_bfloat16")]
           if "__nv_bfloat16" in name else [name],
           kinds=("function", "type"), packaged=("hip/hip_bf16.h",)),
    Family("fp8",
           ("cuda_fp8.h", "cuda_fp8.hpp", "cuda_fp6.h", "cuda_fp6.hpp", "cuda_fp4.h",
            "cuda_fp4.hpp"),
           _prefix_or(r"__nv_\w+", r"__NV_\w+"),
           lambda name: ["__hip_" + name[5:] if name.startswith("__nv_") else "__HIP_" + name[5:]],
           kinds=("function", "type", "constant"), packaged=("hip/hip_fp8.h",)),
    # Its names are generic words (sync, reduce, thread_group): only the rule file's list.
    Family("cooperative_groups",
           ("cooperative_groups.h", "cooperative_groups/*.h", "cooperative_groups/details/*.h"),
           r"(?!)", None, scope="cooperative_groups", kinds=("function", "type"),
           packaged=("hip/hip_cooperative_groups.h",)),
    Family("blas", ("cublas_api.h", "cublas_v2.h", "cublas.h", "cublasXt.h"),
           _prefix_or(r"cublas\w+", r"CUBLAS_\w+"), naming.blas,
           naming.roc_library("cublas", "rocblas_"), packaged=("hipblas/hipblas.h", "hipblas.h")),
    Family("blas_lt", ("cublasLt.h",), _prefix_or(r"cublasLt\w+", r"CUBLASLT_\w+"),
           naming.library("cublasLt", "hipblasLt"), packaged=("hipblaslt/hipblaslt.h",)),
    Family("rand",
           ("curand.h", "curand_kernel.h", "curand_discrete.h", "curand_discrete2.h",
            "curand_globals.h", "curand_lognormal.h", "curand_mrg32k3a.h", "curand_mtgp32.h",
            "curand_mtgp32_host.h", "curand_mtgp32_kernel.h", "curand_normal.h",
            "curand_philox4x32_x.h", "curand_poisson.h", "curand_uniform.h"),
           _prefix_or(r"curand\w*", r"CURAND_\w+"), naming.library("curand", "hiprand"),
           naming.roc_library("curand", "rocrand_"), packaged=("hiprand/hiprand.h",)),
    Family("fft", ("cufft.h", "cufftXt.h"), _prefix_or(r"cufft\w+", r"CUFFT_\w+"),
           naming.library("cufft", "hipfft"), packaged=("hipfft/hipfft.h", "hipfft.h")),
    Family("sparse", ("cusparse.h",), _prefix_or(r"cusparse\w+", r"CUSPARSE_\w+"),
           naming.library("cusparse", "hipsparse"), naming.roc_sparse,
           packaged=("hipsparse/hipsparse.h", "hipsparse.h")),
    Family("solver",
           ("cusolverDn.h", "cusolverSp.h", "cusolverRf.h", "cusolverMg.h", "cusolver_common.h"),
           _prefix_or(r"cusolver\w+", r"CUSOLVER_\w+"), naming.library("cusolver", "hipsolver"),
           packaged=("hipsolver/hipsolver.h", "hipsolver.h")),
    Family("dnn", ("cudnn_graph.h", "cudnn_ops.h", "cudnn_cnn.h", "cudnn_adv.h",
                   "cudnn_backend.h"),
           _prefix_or(r"cudnn\w+", r"CUDNN_\w+"), naming.dnn, packaged=("miopen/miopen.h",)),
    Family("nccl", ("nccl.h",), _prefix_or(r"nccl\w+", r"NCCL_\w+"), None,
           packaged=("rccl/rccl.h", "rccl.h")),
    Family("nvtx", ("nvtx3/nvToolsExt.h", "nvtx3/nvToolsExtCuda.h", "nvtx3/nvToolsExtCudaRt.h"),
           _prefix_or(r"nvtx\w+", r"NVTX_\w+"), lambda name: [],
           packaged=("roctracer/roctx.h",)),
    Family("rtc", ("nvrtc.h",), _prefix_or(r"nvrtc\w+", r"NVRTC_\w+"),
           naming.library("nvrtc", "hiprtc"), packaged=("hip/hiprtc.h",)),
    # NVML has no header in the CUDA toolkit: its names come from its rule file only.
    Family("nvml", (), r"nvml\w+|NVML_\w+", lambda name: [], packaged=("rocm_smi/rocm_smi.h",)),
    # CUDART_PI_F, CUDART_INF: HIP's hip_math_constants.h (ROCm 6.0 on) spells them HIP_*.
    Family("math_constant", ("math_constants.h",), r"CUDART_\w+",
           lambda name: ["HIP_" + name[len("CUDART_"):]], packaged=("hip/hip_math_constants.h",)),
    Family("cub", (), r"cub", None, packaged=("hipcub/hipcub.hpp",)),
    Family("thrust", (), r"thrust", None, packaged=("thrust/system/hip/vector.h",)),
)

# Families whose HIP names are the CUDA names (the translator counts them, or warns).
SHARED_NAMES = frozenset({"device_function", "device_type", "fp16", "nccl", "thrust",
                          "cooperative_groups"})
