"""The arguments of calls that take a math library's own value types (value_types.inc).

A translated call passes HIP's values: cuComplex becomes hipFloatComplex, __half stays __half,
CUDA_R_16F becomes HIP_R_16F. Where the function's parameter has one of rocm_lists.VALUE_TYPES,
that does not compile (rocblas_float_complex, rocblas_half, hipBLAS 5.x's hipblasComplex and
hipBLAS's uint16_t hipblasHalf are other types) or, for a data type, means another number
(rocblas_datatype_f16_r is 150, HIP_R_16F 2). Under --roc the types have the same layout, so a
pointer argument is cast to the parameter's type and a data-type enumerator is renamed to its
rocblas_datatype name; for hipBLAS the translator names the macro that makes the library take
HIP's types; anything else is reported.

Facts used: the parameter types of the functions (the `params` records of the name lists), the
rocblas_datatype enumerators each release declares, and hipBLAS 5.x's hipblasDatatype_t ones.
"""

from __future__ import annotations

import dataclasses
import re

from . import rocm_lists
from .sources import HipIndex
from .versions import Versioned


@dataclasses.dataclass(frozen=True)
class Argument:
    function: str  # the roc function
    index: int  # the parameter, from 0
    type: str  # its type: `const rocblas_float_complex*`, `rocblas_datatype`
    count: int  # how many parameters the function takes (a call with another count is not it)
    first: str  # the releases whose headers declare it so, oldest
    last: str  # and newest


@dataclasses.dataclass(frozen=True)
class DataType:
    cuda: str  # CUDA_R_16F
    roc: str  # rocblas_datatype_f16_r
    since: str  # the oldest release whose rocBLAS declares it ("" when every release does)


Form = tuple[int, tuple[tuple[int, str], ...]]  # parameter count, value-typed parameters


def _form(types: tuple[str, ...]) -> Form:
    return len(types), tuple((index, t) for index, t in enumerate(types)
                             if rocm_lists.takes_value_type((t,)))


def arguments(merged: list[Versioned], indexes: list[HipIndex]) -> list[Argument]:
    """Each value-typed parameter of each function a mapping translates to, with the range of
    releases that declare it so (rocBLAS 6.0 made trmm out of place: two more parameters). A
    release that declares the function with different value-typed parameters (overloads) gives
    no rows: which one a call picks is the compiler's business."""
    targets = sorted({name for v in merged
                      for name in [v.entry.roc, v.entry.hip, *(x.roc for x in v.variants),
                                   *(x.hip for x in v.variants)]
                      if name and v.entry.kind == "function"})
    out: list[Argument] = []
    for function in targets:
        ranges: list[tuple[str, str, Form | None]] = []
        for index in indexes:
            variants = index.names.param_types.get(function)
            forms = {_form(types) for types in variants or []}
            form = next(iter(forms)) if len(forms) == 1 else None
            if ranges and ranges[-1][2] == form:
                ranges[-1] = (ranges[-1][0], index.release, form)
            else:
                ranges.append((index.release, index.release, form))
        for first, last, form in ranges:
            if form is not None:
                count, parameters = form
                out.extend(Argument(function, i, t, count, first, last) for i, t in parameters)
    return out


_CUDA_DATA_TYPE = re.compile(r"CUDA_([RC])_(\d+)(F|I|U|BF)")


def data_types(merged: list[Versioned], indexes: list[HipIndex]) -> list[DataType]:
    """CUDA's data types (`CUDA_R_16F`) by their rocblas_datatype names
    (`rocblas_datatype_f16_r`), where rocBLAS declares one: precision letter(s) lower-cased,
    bits, `_r` real or `_c` complex."""
    out: list[DataType] = []
    for v in merged:
        match = _CUDA_DATA_TYPE.fullmatch(v.entry.cuda)
        if not match:
            continue
        real, bits, kind = match.groups()
        roc = f"rocblas_datatype_{kind.lower()}{bits}_{'r' if real == 'R' else 'c'}"
        declared = [index.release for index in indexes if roc in index.names.kinds]
        if declared:
            since = "" if declared[0] == indexes[0].release else declared[0]
            out.append(DataType(v.entry.cuda, roc, since))
    return out


_COMPUTE_TYPE = re.compile(r"CUBLAS_COMPUTE_(\d+)(F|I)(?:_PEDANTIC)?")


def hipblas_5_data_types(merged: list[Versioned], indexes: list[HipIndex]) -> list[DataType]:
    """Before ROCm 6.0 hipBLAS's *Ex functions take hipblasDatatype_t for data and compute
    types: CUDA's data types by their hipblasDatatype_t names (`CUDA_R_16F` -> `HIPBLAS_R_16F`,
    bfloat16's `BF` is `B`: `HIPBLAS_R_16B`) and cuBLAS's compute types by the data type they
    accumulate in (`CUBLAS_COMPUTE_32F` -> `HIPBLAS_R_32F`), where the oldest release's hipBLAS
    declares one. `since` is unused: every row is for targets before 6.0."""
    oldest = indexes[0].names.kinds
    out: list[DataType] = []
    for v in merged:
        data = _CUDA_DATA_TYPE.fullmatch(v.entry.cuda)
        compute = _COMPUTE_TYPE.fullmatch(v.entry.cuda)
        if data:
            real, bits, kind = data.groups()
            name = f"HIPBLAS_{real}_{bits}{'B' if kind == 'BF' else kind}"
        elif compute:
            bits, kind = compute.groups()
            name = f"HIPBLAS_R_{bits}{kind}"
        else:
            continue
        if name in oldest:
            out.append(DataType(v.entry.cuda, name, ""))
    return out
