"""Naming rules: the HIP (and ROC) names a CUDA name would have, as candidates.

Each function returns candidates in order of preference; the generator keeps the first that an
installed HIP/ROCm header declares (or that a rule file documents). Explicit rule-file mappings
are applied before these.
"""

from __future__ import annotations

import re
from typing import Callable

Derive = Callable[[str], list[str]]

_WORD = re.compile(r"[A-Z]+(?![a-z])\d*|[A-Z]?[a-z]+(?:\d+[a-z]+)*\d*|\d+")


def camel(upper_snake: str) -> str:
    """MAX_THREADS_PER_BLOCK -> MaxThreadsPerBlock."""
    return "".join(word[:1].upper() + word[1:].lower() for word in upper_snake.split("_") if word)


def snake(camel_case: str) -> str:
    """SgemmStridedBatched -> sgemm_strided_batched; GemmEx -> gemm_ex."""
    words: list[str] = []
    for part in camel_case.split("_"):
        words.extend(w.lower() for w in _WORD.findall(part))
    return "_".join(words)


def _swap(name: str, pairs: list[tuple[str, list[str]]]) -> list[str]:
    for prefix, replacements in pairs:
        if name.startswith(prefix):
            rest = name[len(prefix):]
            return [r.replace("*", rest) for r in replacements]
    return []


def runtime(name: str) -> list[str]:
    return _swap(name, [
        ("cudaDevAttr", ["hipDeviceAttribute*"]),
        ("make_cuda", ["make_hip*"]),
        ("cuda", ["hip*"]),
        ("CUDA_", ["HIP_*"]),
    ])


def driver(name: str) -> list[str]:
    if name.startswith("CUDA_ERROR_"):
        return ["hipError" + camel(name[len("CUDA_ERROR_"):])]
    if name.startswith("CU_DEVICE_ATTRIBUTE_"):
        return ["hipDeviceAttribute" + camel(name[len("CU_DEVICE_ATTRIBUTE_"):])]
    if name.startswith("CU_JIT_"):
        return ["hipJitOption" + camel(name[len("CU_JIT_"):])]
    if name.startswith("CU_"):
        # HIP_X first: the driver-style HIP enum (HIPresourcetype) over the runtime one.
        return ["HIP_" + name[3:], "hip" + camel(name[3:])]
    if name.startswith("CUDA_"):
        return ["HIP_" + name[5:], "hip" + camel(name[5:])]
    if re.match(r"CU[a-z]", name):
        rest = name[2].upper() + name[3:]
        # HIP's copies of driver enums keep CUDA's spelling (HIPresourceViewFormat, whose
        # enumerators are HIP_RES_VIEW_FORMAT_*, like CUresourceViewFormat's CU_RES_VIEW_*):
        # first, so a type and its enumerators name one enum, not the runtime's
        # hipResourceViewFormat (hipResViewFormat*).
        return ["HIP" + name[2:], "hip" + rest + "_t", "hip" + rest]
    if re.match(r"cu[A-Z]", name):
        # HIP's hipDrv* functions are the driver-API forms of runtime names (hipDrvMemcpy3D).
        return ["hipDrv" + name[2:], "hip" + name[2:]]
    return []


def complex_(name: str) -> list[str]:
    return _swap(name, [("make_cu", ["make_hip*"]), ("cu", ["hip*"])])


def library(cuda_prefix: str, hip_prefix: str) -> Derive:
    """cublasX -> hipblasX, CUBLAS_X -> HIPBLAS_X, cublas_x -> hipblas_x (one library)."""
    upper_cuda, upper_hip = cuda_prefix.upper() + "_", hip_prefix.upper() + "_"

    def derive(name: str) -> list[str]:
        if name.startswith(upper_cuda):
            return [upper_hip + name[len(upper_cuda):]]
        if name.startswith(cuda_prefix):
            return [hip_prefix + name[len(cuda_prefix):]]
        return []

    return derive


def blas(name: str) -> list[str]:
    """cublasX and cublasX_v2 -> hipblasX_v2 where the release declares it, else hipblasX.

    hipBLAS 2.x (ROCm 6.0 to 6.4) keeps its old API under the plain names (hipblasComplex,
    hipblasDatatype_t, both deprecated) and declares the hipComplex/hipDataType API, the one
    translated CUDA code calls with cuComplex -> hipComplex and cudaDataType -> hipDataType, as
    `X_v2` (`X_v2_64` for 64-bit indices); before 6.0 and from hipBLAS 3.0 (ROCm 7.0) on, the
    plain name is that API, so the first candidate a release declares is the right one."""
    base = re.sub(r"_v2(?=$|_64$)", "", name)
    plain = library("cublas", "hipblas")(base)
    return [re.sub(r"(_64)?$", r"_v2\1", n, count=1) for n in plain
            if n.startswith("hipblas")] + plain


def roc_library(cuda_prefix: str, roc_prefix: str) -> Derive:
    """cusparseSpMV -> rocsparse_spmv / rocsparse_sp_mv; CUSPARSE_X -> rocsparse_x."""
    upper_cuda = cuda_prefix.upper() + "_"

    def derive(name: str) -> list[str]:
        name = re.sub(r"_v2(?=$|_64$)", "", name)
        if name.startswith(upper_cuda):
            return [roc_prefix + name[len(upper_cuda):].lower(),
                    roc_prefix.upper() + name[len(upper_cuda):]]
        if not name.startswith(cuda_prefix):
            return []
        rest = name[len(cuda_prefix):]
        if rest.startswith("_"):
            return [roc_prefix + rest[1:]]
        if rest.endswith("_t"):
            rest = rest[:-2]
        words = snake(rest)
        joined = re.sub(r"(?<![a-z])(sp|dn)_", r"\1", words)
        out = [roc_prefix + words]
        if joined != words:
            out.append(roc_prefix + joined)
        # cusparseXcoo2csr -> rocsparse_coo2csr: X marks the index-only form.
        if words.startswith("x") and rest[:1] == "X":
            out.append(roc_prefix + words[1:].lstrip("_"))
        return out

    return derive


def roc_sparse(name: str) -> list[str]:
    """cuSPARSE -> rocSPARSE: roc_library's candidates, and the spellings rocSPARSE drops from
    cuSPARSE's: the algorithm version (`csrsv2` -> `csrsv`, `csrilu02` -> `csrilu0`) and `Ext`
    of `_bufferSizeExt`, whose size_t* is what rocSPARSE's `_buffer_size` takes (a plain
    `_bufferSize` writes an int: the parameter check turns those down)."""
    out = []
    for candidate in roc_library("cusparse", "rocsparse_")(name):
        out.append(candidate)
        shorter = re.sub(r"_buffer_size_ext$", "_buffer_size", candidate)
        shorter = re.sub(r"(?<=[a-z]|0)2(?=_|$)", "", shorter, count=1)
        if shorter != candidate:
            out.append(shorter)
    return out


def dnn(name: str) -> list[str]:
    """cuDNN's backend (graph) API -> MIOpen's copy of it (ROCm 6.2 on): cudnnBackendX ->
    miopenBackendX, CUDNN_X -> MIOPEN_X (CUDNN_ATTR_*, CUDNN_BACKEND_*, CUDNN_TYPE_*, ...).
    The rest of cuDNN maps by the rule file only; a derived name counts only where a release
    declares it as the same kind of thing, so the rule cannot invent MIOpen names."""
    if name.startswith("cudnnBackend"):
        return ["miopenBackend" + name[len("cudnnBackend"):]]
    if name.startswith("CUDNN_"):
        return ["MIOPEN_" + name[len("CUDNN_"):]]
    return []
