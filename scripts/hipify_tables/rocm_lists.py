"""The committed ROCm name lists (src/hipify/tables/rocm/<release>/<library>.names): what each
ROCm release's public headers declare, extracted once from the headers at a pinned release tag by
scripts/extract_rocm_names.py and read by the table generator, so the tables can be regenerated
(and checked) on a machine that has neither those headers nor the repositories.

A list is text, one record per line, tab-separated:

  # comment lines: the library, its release, the tag or package it came from
  header PATH GUARD          a header, as installed (`hipblas/hipblas.h`), and its include guard
                             macro (`-` when it has none)
  name NAME KINDS ARITIES FLAGS TAG
                             a declared name; KINDS `function,macro`...; ARITIES `2-2,3-5` (the
                             fewest and most arguments a call takes, per declaration) or `-`;
                             FLAGS `d` (deprecated) or `-`; TAG the struct/enum tag a typedef
                             names, or `-`
  params NAME TYPES NAMES    the parameter types and names of a function (`;`-separated, `const
                             rocblas_float_complex*`), one record per declaration: every
                             function of the roc libraries (FULL_PARAMS; their calls are
                             renamed under --roc and checked against CUDA's parameters), the
                             others' functions that take one of VALUE_TYPES

For a target release the generator reads, per library, the newest list at or below it: a library
whose headers were not extracted for a release keeps its previous list (its release notes are
named in the list's comments and in docs/hipify-tables.md).
"""

from __future__ import annotations

import dataclasses
import pathlib
import re

from . import cdecl
from .sources import Declared, declared, include_guard_of

ROOT_RELATIVE = "src/hipify/tables/rocm"


# The math libraries' own value types: a translated call passes the HIP type of the same layout
# (hipFloatComplex, __half) where the function takes one of these. Under --roc the translator
# casts the argument or, for a data-type enumerator, renames it; for hipBLAS it reports the
# macro that makes the types HIP's (ROCM_MATHLIBS_API_USE_HIP_COMPLEX, HIPBLAS_USE_HIP_HALF)
# (src/hipify/value_types.cpp).
VALUE_TYPES = frozenset({
    "rocblas_half", "rocblas_bfloat16", "rocblas_float_complex", "rocblas_double_complex",
    "rocblas_datatype", "rocsparse_float_complex", "rocsparse_double_complex",
    "hipblasHalf", "hipblasComplex", "hipblasDoubleComplex",
})


# Libraries whose every function's parameters are listed: the targets of --roc renames (no
# cuSOLVER call maps to rocSOLVER one-for-one), and hipSPARSE, whose legacy functions stand in
# for the signatures CUDA's headers no longer have.
FULL_PARAMS = frozenset({"rocblas", "rocsparse", "rocrand", "hipsparse"})


def takes_value_type(types: tuple[str, ...]) -> bool:
    return any(word in VALUE_TYPES for t in types for word in t.replace("*", " ").split())


class ListError(Exception):
    pass


def release_key(release: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)\.(\d+)", release)
    if not match:
        raise ListError(f"release {release!r} is not MAJOR.MINOR")
    return int(match.group(1)), int(match.group(2))


@dataclasses.dataclass
class NameList:
    library: str
    release: str
    comments: list[str]
    headers: dict[str, str]  # path -> guard ("" when none)
    names: Declared


def from_sources(library: str, release: str, comments: list[str],
                 sources: dict[str, str]) -> NameList:
    """The list of headers given as install path -> text."""
    names = declared(cdecl.scan_files(sources))
    headers = {path: include_guard_of(text) for path, text in sources.items()}
    return NameList(library, release, comments, headers, names)


def render(names: NameList) -> str:
    lines = [f"# {c}" for c in names.comments]
    for path in sorted(names.headers):
        lines.append(f"header\t{path}\t{names.headers[path] or '-'}")
    declared = names.names
    for name in sorted(declared.kinds):
        arities = ",".join(f"{low}-{high}" for low, high in sorted(set(declared.arities.get(name,
                                                                                              []))))
        flags = "d" if name in declared.deprecated else "-"
        lines.append("\t".join(("name", name, ",".join(sorted(declared.kinds[name])),
                                arities or "-", flags, declared.tags.get(name, "-"))))
    for name in sorted(declared.param_types):
        for types, params in zip(declared.param_types[name], declared.param_names[name]):
            if names.library in FULL_PARAMS or takes_value_type(types):
                lines.append(f"params\t{name}\t{';'.join(types)}\t{';'.join(params)}")
    return "\n".join(lines) + "\n"


def parse(path: pathlib.Path, library: str, release: str) -> NameList:
    comments: list[str] = []
    headers: dict[str, str] = {}
    declared = Declared()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("#"):
            comments.append(line[1:].strip())
            continue
        fields = line.split("\t")
        try:
            if fields[0] == "header" and len(fields) == 3:
                headers[fields[1]] = "" if fields[2] == "-" else fields[2]
                continue
            if fields[0] == "params" and len(fields) == 4:
                types = tuple(fields[2].split(";")) if fields[2] else ()
                params = tuple(fields[3].split(";")) if fields[2] else ()
                if len(params) != len(types):
                    raise ValueError("a params record names more or fewer parameters than it types")
                declared.param_types.setdefault(fields[1], []).append(types)
                declared.param_names.setdefault(fields[1], []).append(params)
                continue
            if fields[0] != "name" or len(fields) != 6:
                raise ValueError("not a header, name or params record")
            _, name, kinds, arities, flags, tag = fields
            declared.kinds[name] = set(kinds.split(","))
            if arities != "-":
                declared.arities[name] = [tuple(int(x) for x in a.split("-"))  # type: ignore
                                          for a in arities.split(",")]
            if flags == "d":
                declared.deprecated.add(name)
            if tag != "-":
                declared.tags[name] = tag
        except ValueError as error:
            raise ListError(f"{path}:{number}: {error}") from None
    return NameList(library, release, comments, headers, declared)


def releases(root: pathlib.Path) -> list[str]:
    """The releases that have lists, oldest first."""
    found = [p.name for p in root.iterdir() if p.is_dir()] if root.is_dir() else []
    return sorted(found, key=release_key)


def lists_for(root: pathlib.Path, target: str) -> list[NameList]:
    """Per library, the newest list at or below the target release."""
    newest: dict[str, pathlib.Path] = {}
    for release in releases(root):
        if release_key(release) > release_key(target):
            break
        for path in sorted((root / release).glob("*.names")):
            newest[path.stem] = path
    return [parse(path, library, path.parent.name) for library, path in sorted(newest.items())]


def merged(lists: list[NameList]) -> tuple[Declared, dict[str, str]]:
    """One index over several libraries' lists: names and headers (with guards)."""
    out = Declared()
    headers: dict[str, str] = {}
    for names in lists:
        headers.update(names.headers)
        for name, kinds in names.names.kinds.items():
            out.kinds.setdefault(name, set()).update(kinds)
        for name, arities in names.names.arities.items():
            out.arities.setdefault(name, []).extend(arities)
        out.deprecated |= names.names.deprecated
        for name, tag in names.names.tags.items():
            out.tags.setdefault(name, tag)
        for name, variants in names.names.param_types.items():
            out.param_types.setdefault(name, []).extend(variants)
            out.param_names.setdefault(name, []).extend(names.names.param_names[name])
    return out, headers
