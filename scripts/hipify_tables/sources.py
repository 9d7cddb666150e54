"""Reading the installed headers: the CUDA declarations per family and the index of what the
HIP/ROCm headers declare."""

from __future__ import annotations

import dataclasses
import pathlib
import re

from . import cdecl

# HIP header directories read for declared names; the NVIDIA-platform halves are skipped
# because a port targets AMD.
HIP_DIRS = ("hip", "hiprand", "rocrand", "hipsparse", "rocsparse", "rocm_smi", "hipblas",
            "rocblas", "hipblaslt", "hipfft", "rocfft", "hipsolver", "rocsolver", "miopen",
            "rccl", "roctracer", "hipcub")


def read_text(path: pathlib.Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


_GUARD = re.compile(r"^[ \t]*#[ \t]*(?:ifndef[ \t]+(\w+)|if[ \t]+!\s*defined[ \t]*\(?[ \t]*(\w+))"
                    r"[^\n]*\n[ \t]*#[ \t]*define[ \t]+(\w+)", re.MULTILINE)


def include_guard_of(text: str) -> str:
    """The macro of a header's include guard: the first `#ifndef X` (or `#if !defined(X)`)
    directly followed by `#define X`; "" when there is none."""
    for match in _GUARD.finditer(text):
        tested = match.group(1) or match.group(2)
        if tested == match.group(3):
            return tested
    return ""


def cuda_version(cuda_include: pathlib.Path) -> str:
    match = re.search(r"#define\s+CUDA_VERSION\s+(\d+)", read_text(cuda_include / "cuda.h"))
    if not match:
        return "unknown"
    value = int(match.group(1))
    return f"{value // 1000}.{value % 1000 // 10}"


def hip_version(hip_include: pathlib.Path) -> str:
    path = hip_include / "hip" / "hip_version.h"
    if not path.exists():
        return "unknown"
    text = read_text(path)
    parts = [re.search(rf"#define\s+HIP_VERSION_{p}\s+(\d+)", text) for p in ("MAJOR", "MINOR")]
    return ".".join(m.group(1) for m in parts if m) or "unknown"


def cuda_files(cuda_include: pathlib.Path, patterns: tuple[str, ...]) -> dict[str, str]:
    """The family's headers that exist, relative path -> text."""
    out: dict[str, str] = {}
    for pattern in patterns:
        for path in sorted(cuda_include.glob(pattern)):
            out[str(path.relative_to(cuda_include))] = read_text(path)
    return out


@dataclasses.dataclass
class Declared:
    """What a set of headers declares: kinds and arities per name."""

    kinds: dict[str, set[str]] = dataclasses.field(default_factory=dict)
    arities: dict[str, list[tuple[int, int]]] = dataclasses.field(default_factory=dict)
    deprecated: set[str] = dataclasses.field(default_factory=set)
    macro_values: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    scopes: dict[str, set[str]] = dataclasses.field(default_factory=dict)
    tags: dict[str, str] = dataclasses.field(default_factory=dict)  # typedef name -> its tag
    # function -> its parameters' types, per declaration (overloads and #if branches), and the
    # parameters' names of the same declarations
    param_types: dict[str, list[tuple[str, ...]]] = dataclasses.field(default_factory=dict)
    param_names: dict[str, list[tuple[str, ...]]] = dataclasses.field(default_factory=dict)

    def add(self, decl: cdecl.Decl) -> None:
        kind = decl.kind
        if kind == "macro" and decl.function_like:
            kind = "function_macro"
        self.kinds.setdefault(decl.name, set()).add(kind)
        self.scopes.setdefault(decl.name, set()).add(decl.scope)
        if decl.arity is not None:
            self.arities.setdefault(decl.name, []).append(decl.arity)
        if decl.deprecated:
            self.deprecated.add(decl.name)
        if decl.kind == "macro" and not decl.function_like:
            self.macro_values.setdefault(decl.name, decl.value)
        if decl.tag:
            self.tags.setdefault(decl.name, decl.tag)
        if decl.kind == "function" and decl.param_types not in self.param_types.get(decl.name, []):
            self.param_types.setdefault(decl.name, []).append(decl.param_types)
            self.param_names.setdefault(decl.name, []).append(decl.param_names)

    def __contains__(self, name: str) -> bool:
        return name in self.kinds


def declared(decls: list[cdecl.Decl]) -> Declared:
    out = Declared()
    for decl in decls:
        out.add(decl)
    return out


@dataclasses.dataclass
class HipIndex:
    """What one ROCm release declares: its names, and its headers with their include guards."""

    release: str
    names: Declared
    lower: dict[str, list[str]]  # lower-case name -> declared spellings
    headers: dict[str, str]  # install path -> include guard macro ("" when none)
    # Names some other release of the lists declares: a rule naming one of them is not a typo.
    elsewhere: set[str] = dataclasses.field(default_factory=set)

    def has_header(self, path: str) -> bool:
        return path in self.headers

    def has_any(self, paths: tuple[str, ...]) -> bool:
        return any(self.has_header(p) for p in paths)


def hip_index(release: str, names: Declared, headers: dict[str, str]) -> HipIndex:
    lower: dict[str, list[str]] = {}
    for name in sorted(names.kinds):
        lower.setdefault(name.lower(), []).append(name)
    return HipIndex(release, names, lower, headers)


def default_clang_hip_include() -> list[pathlib.Path]:
    """clang's resource include directory with the HIP wrapper headers (newest LLVM)."""

    def version(path: pathlib.Path) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", str(path)))

    found = [p.parent for p in pathlib.Path("/usr/lib").glob("llvm-*/lib/clang/*/include/"
                                                             "__clang_hip_math.h")]
    return [max(found, key=version)] if found else []


def removed_runtime_functions(cuda_include: pathlib.Path) -> dict[str, int]:
    """Runtime functions whose old versions generated_cudart_removed_meta.h records, with the
    number of parameters of that old version."""
    path = cuda_include / "generated_cudart_removed_meta.h"
    if not path.exists():
        return {}
    out: dict[str, int] = {}
    pattern = re.compile(r"typedef struct (\w+?)_v\d+_params_st\s*\{(.*?)\}", re.S)
    for name, body in pattern.findall(read_text(path)):
        if not re.search(r"_(ptds|ptsz)$|_v\d+$", name):
            out[name] = body.count(";")
    return out
