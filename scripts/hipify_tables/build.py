"""Builds the mapping entries: CUDA API names per family, resolved to HIP/ROC names."""

from __future__ import annotations

import dataclasses
import functools
import pathlib
import re

from . import rules as rules_mod
from . import sources
from .families import EXCLUDED, EXCLUDED_MACROS, FAMILIES, SHARED_NAMES, Family

KIND_OK = {  # CUDA kind -> HIP declaration kinds it may map to
    "function": {"function", "macro", "function_macro"},
    "type": {"type", "macro"},
    "constant": {"constant", "macro"},
    "namespace": {"namespace"},
}


@dataclasses.dataclass
class Entry:
    cuda: str
    hip: str
    roc: str
    family: str
    kind: str  # function, type, constant, namespace, header, condition
    support: str  # verified, documented, unsupported
    lifecycle: str  # current, deprecated, removed
    roc_support: str = ""  # verified / documented when `roc` is set (for the counts)
    # Headers only: derived, not named by a rule (header-closure, header-others), so matched in
    # `#include <...>` only: a project's own "device_types.h" is not CUDA's.
    angle_only: bool = False


@dataclasses.dataclass
class CudaName:
    kind: str
    deprecated: bool = False
    removed: bool = False
    arities: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    param_types: list[tuple[str, ...]] = dataclasses.field(default_factory=list)
    param_names: list[tuple[str, ...]] = dataclasses.field(default_factory=list)


# Fundamental types by width and kind, with the roc libraries' integer typedefs (rocblas_int and
# rocsparse_int are 32-bit unless the library is built for 64-bit indices; rocblas_stride is
# int64_t).
_SCALARS = {
    "int": "i32", "int32_t": "i32", "rocblas_int": "i32", "rocsparse_int": "i32",
    "unsigned": "u32", "unsigned int": "u32", "uint32_t": "u32", "size_t": "u64",
    "int64_t": "i64", "long long": "i64", "rocblas_stride": "i64", "uint64_t": "u64",
    "unsigned long long": "u64", "float": "f32", "double": "f64", "short": "i16",
    "unsigned short": "u16", "char": "i8", "signed char": "i8", "unsigned char": "u8",
}


def _pointer(type_: str) -> tuple[str, int]:
    """`const int* const*` -> ("int", 2): the pointee without qualifiers, and the depth."""
    depth = type_.count("*")
    words = [w for w in type_.replace("*", " ").split() if w not in ("const", "volatile")]
    return " ".join(words), depth


def _word(name: str) -> str:
    """A parameter name as both libraries spell it: `csrSortedColIndA`, `csr_col_ind_A` ->
    `csrcolinda`."""
    return name.lower().replace("_", "").replace("sorted", "")


def parameters_agree(cuda: tuple[str, ...], roc: tuple[str, ...],
                     cuda_names: tuple[str, ...] = (), roc_names: tuple[str, ...] = ()) -> bool:
    """Whether a call written for `cuda`'s parameters passes what `roc`'s take, as far as
    pointers to scalars and parameter names tell: cuSPARSE's `_bufferSize` writes an int,
    rocSPARSE's `_buffer_size` a size_t; cusparseScsrilu02_numericBoost takes a double
    tolerance, rocSPARSE's a float; cusparseScsr2csr_compress takes the column indices before
    the row pointers, rocSPARSE's the row pointers first (two parameters whose names trade
    places)."""
    if len(cuda) != len(roc):
        return False
    for ours, theirs in zip(cuda, roc):
        (a, depth_a), (b, depth_b) = _pointer(ours), _pointer(theirs)
        if depth_a and depth_b and a in _SCALARS and b in _SCALARS and _SCALARS[a] != _SCALARS[b]:
            return False
    if len(cuda_names) == len(cuda) and len(roc_names) == len(roc):
        ours_words = [_word(n) for n in cuda_names]
        theirs_words = [_word(n) for n in roc_names]
        for i, (a, b) in enumerate(zip(ours_words, theirs_words)):
            if a and b and a != b and b in ours_words[i + 1:]:
                j = ours_words.index(b, i + 1)
                if theirs_words[j] == a:
                    return False
    return True


class GeneratorError(Exception):
    pass


@dataclasses.dataclass
class Merged:
    """The rule files of one family, merged."""

    provides: dict[str, set[str]]
    maps: dict[str, tuple[str, str | None]]
    rocs: dict[str, str]
    unsupported: set[str]
    api: dict[str, str]
    removed: dict[str, str]
    exclude: set[str]
    headers: dict[str, tuple[str, str | None]]
    header_trees: list[tuple[str, str, tuple[str, ...]]]
    guards: dict[str, str]
    conditions: dict[str, str]
    header_closures: list[str] = dataclasses.field(default_factory=list)
    header_others: str | None = None


def merge(files: list[rules_mod.RuleFile]) -> Merged:
    merged = Merged({"hip": set(), "roc": set()}, {}, {}, set(), {}, {}, set(), {}, [], {}, {})
    for rule in files:
        for side in ("hip", "roc"):
            merged.provides[side] |= rule.provides[side]
        for source, target in ((rule.maps, merged.maps), (rule.rocs, merged.rocs),
                               (rule.api, merged.api), (rule.removed, merged.removed),
                               (rule.headers, merged.headers), (rule.guards, merged.guards),
                               (rule.conditions, merged.conditions)):
            for key, value in source.items():
                if key in target and target[key] != value:
                    raise GeneratorError(f"{rule.path.name}: {key} is given twice")
                target[key] = value
        merged.unsupported |= rule.unsupported
        merged.exclude |= rule.exclude
        merged.header_trees += rule.header_trees
        merged.header_closures += rule.header_closures
        merged.header_others = rule.header_others or merged.header_others
    return merged


def _macro_kind(name: str, value: tuple[str, ...], names: dict[str, CudaName]) -> str:
    """An object-like macro is an alias of what it expands to, or else a constant."""
    if name in names:
        return names[name].kind
    if len(value) == 1 and value[0] in names:
        return names[value[0]].kind
    return "constant"


def collect(family: Family, decls, rules: Merged) -> dict[str, CudaName]:
    """The family's API names from its headers and its rule file."""
    accept = re.compile(family.accept)
    names: dict[str, CudaName] = {}
    macros = []
    internal = [decl for decl in decls if decl.internal]
    decls = [decl for decl in decls if not decl.internal]
    for decl in decls:
        if decl.scope != family.scope or decl.kind not in family.kinds + ("namespace",):
            continue
        if decl.kind == "namespace" or not accept.fullmatch(decl.name):
            continue
        if EXCLUDED.fullmatch(decl.name) or decl.name in rules.exclude:
            continue
        if decl.kind == "macro":
            if decl.function_like or EXCLUDED_MACROS.fullmatch(decl.name):
                continue
            macros.append(decl)
            continue
        entry = names.setdefault(decl.name, CudaName(decl.kind))
        entry.deprecated |= decl.deprecated
        if decl.arity is not None:
            entry.arities.append(decl.arity)
        if decl.kind == "function" and "..." not in decl.param_types:
            entry.param_types.append(decl.param_types)
            entry.param_names.append(decl.param_names)
    for decl in macros:
        kind = _macro_kind(decl.name, decl.value, names)
        entry = names.setdefault(decl.name, CudaName(kind))
        entry.deprecated |= decl.deprecated
        # `#define cuMemAlloc cuMemAlloc_v2`: the versioned name is API as well, also behind the
        # per-thread-stream wrappers (`#define cuMemcpyHtoD __CUDA_API_PTDS(cuMemcpyHtoD_v2)`).
        value = decl.value
        if (len(value) == 4 and value[0].startswith("__CUDA_API_PT") and value[1] == "("
                and value[3] == ")"):
            value = (value[2],)
        target = value[0] if len(value) == 1 else ""
        if (target and accept.fullmatch(target) and not EXCLUDED.fullmatch(target)
                and target not in rules.exclude and target not in names):
            names[target] = CudaName(kind, entry.deprecated, arities=list(entry.arities),
                                     param_types=list(entry.param_types),
                                     param_names=list(entry.param_names))
        elif target in names and names[target].arities:
            # `#define cublasCgemm cublasCgemm_v2` (cublas_v2.h) while cublas.h declares the
            # legacy cublasCgemm: a call of the plain name may take either form.
            entry.arities += [a for a in names[target].arities if a not in entry.arities]
            for types, params in zip(names[target].param_types, names[target].param_names):
                if types not in entry.param_types:
                    entry.param_types.append(types)
                    entry.param_names.append(params)
    # Versioned functions of an internal-build branch (`cuCtxCreate_v2`, `cuMemcpyHtoD_v2`): old
    # code calls them by these names; each is API when its unversioned base is.
    for decl in internal:
        base = _version_base(decl.name)
        if (decl.kind == "function" and base in names and decl.scope == family.scope
                and decl.name not in names and not EXCLUDED.fullmatch(decl.name)):
            entry = names.setdefault(decl.name, CudaName("function", decl.deprecated))
            if decl.arity is not None:
                entry.arities.append(decl.arity)
                entry.param_types.append(decl.param_types)
                entry.param_names.append(decl.param_names)
    declared = {decl.name for decl in decls}
    for name, kind in rules.api.items():
        # Listed names must exist in the family's headers, so the list cannot drift.
        if family.files and name not in declared:
            raise GeneratorError(f"{family.name}: `api` name {name} is not declared in "
                                 "the family's CUDA headers")
        names.setdefault(name, CudaName(kind))
    for name, kind in rules.removed.items():
        if name in names and not names[name].removed:
            raise GeneratorError(f"{name} is listed as removed but the CUDA headers declare it")
        names[name] = CudaName(kind, removed=True)
    return names


class Resolver:
    """Chooses the HIP and ROC names of one family's CUDA names."""

    def __init__(self, family: Family, rules: Merged, hip: sources.HipIndex):
        self.family = family
        self.rules = rules
        self.hip = hip
        self.installed = hip.has_any(family.packaged)

    def declared_as(self, name: str, cuda: CudaName, arity: bool = True) -> bool:
        """Whether HIP declares `name` as the same kind of thing; a function must also take
        the number of arguments some CUDA signature takes (unless `arity` is off)."""
        kinds = self.hip.names.kinds.get(name)
        if not kinds or not kinds & KIND_OK[cuda.kind]:
            return False
        if arity and cuda.kind == "function" and cuda.arities and name in self.hip.names.arities:
            if not any(c[0] <= h[1] and h[0] <= c[1]
                       for c in cuda.arities for h in self.hip.names.arities[name]):
                return False
            # Where both sides' parameter types are known (the roc libraries'), they must agree;
            # a name also declared where they are not listed (clang's `norm` beside rocBLAS's
            # complex `norm`) is judged by its argument count alone.
            theirs = self.hip.names.param_types.get(name, [])
            listed = {len(t) for t in theirs}
            if (theirs and cuda.param_types
                    and all(h[1] in listed for h in self.hip.names.arities[name])):
                their_names = self.hip.names.param_names.get(name, [])
                return any(parameters_agree(c, h, cn, hn)
                           for c, cn in zip(cuda.param_types, cuda.param_names)
                           for h, hn in zip(theirs, their_names))
        return True

    def pick(self, candidates: list[str], cuda: CudaName, side: str) -> tuple[str, str]:
        for name in candidates:
            if self.declared_as(name, cuda):
                return name, "verified"
        for name in candidates:
            if name in self.rules.provides[side]:
                return name, "documented"
        if self.family.loose_case:
            for name in candidates:
                spellings = self.hip.lower.get(name.lower(), [])
                matches = [s for s in spellings if self.declared_as(s, cuda)]
                if len(matches) == 1:
                    return matches[0], "verified"
        return "", "unsupported"

    def explicit(self, name: str, target: str, cuda: CudaName, side: str) -> tuple[str, str]:
        if target == "-":
            return "", "unsupported"
        if self.declared_as(target, cuda, arity=False):
            return target, "verified"
        # Declared by another release of the lists (newer, or removed since): not here.
        if target in self.hip.elsewhere and target not in self.rules.provides[side]:
            return "", "unsupported"
        # A rule naming something the installed library lacks must say it is documented for a
        # newer version (`provides`), so a typo cannot pass as Documented.
        if self.installed and target not in self.rules.provides[side]:
            raise GeneratorError(f"{self.family.name}: rule maps {name} to {target}, which the "
                                 f"installed headers do not declare as a {cuda.kind}; list it "
                                 f"under `provides {side}` if a newer version documents it")
        return target, "documented"

    def hip_name(self, name: str, cuda: CudaName) -> tuple[str, str]:
        base = _version_base(name)
        for key in (name, base):
            if key and key in self.rules.maps:
                target = self.rules.maps[key][0]
                # A rule for the unversioned name covers a version only when it takes the
                # arguments HIP's function does: cuCtxCreate_v2 does, cuCtxCreate_v3/_v4
                # (affinity and create parameters) do not.
                if (key == base and target != "-" and cuda.kind == "function"
                        and self.declared_as(target, cuda, arity=False)
                        and not self.declared_as(target, cuda)):
                    return "", "unsupported"
                return self.explicit(name, target, cuda, "hip")
        if name in self.rules.unsupported:
            return "", "unsupported"
        if self.family.hip is None:
            return self.pick([name], cuda, "hip")
        candidates = self.family.hip(name) + (self.family.hip(base) if base else [])
        return self.pick(candidates, cuda, "hip")

    def roc_name(self, name: str, cuda: CudaName) -> tuple[str, str]:
        base = _version_base(name)
        for key in (name, base):
            if key and key in self.rules.rocs:
                return self.explicit(name, self.rules.rocs[key], cuda, "roc")
            if key and key in self.rules.maps and self.rules.maps[key][1]:
                return self.explicit(name, self.rules.maps[key][1], cuda, "roc")
        if self.family.roc is None:
            return "", "unsupported"
        return self.pick(self.family.roc(name), cuda, "roc")

    def resolve(self, name: str, cuda: CudaName) -> Entry:
        hip, hip_support = self.hip_name(name, cuda)
        # A function gone from CUDA's headers (the legacy cuSPARSE API) has no CUDA signature to
        # hold its roc form to; its HIP form, declared one-for-one, stands in for it (rocSPARSE's
        # csrmv takes an extra mat_info, so cusparseScsrmv has no roc form).
        shape = cuda
        if (cuda.kind == "function" and not cuda.arities and hip_support == "verified"
                and hip in self.hip.names.arities):
            shape = dataclasses.replace(cuda, arities=list(self.hip.names.arities[hip]),
                                        param_types=list(self.hip.names.param_types.get(hip, [])),
                                        param_names=list(self.hip.names.param_names.get(hip, [])))
        roc, roc_support = ("", "unsupported") if not hip else self.roc_name(name, shape)
        if not hip:
            support = "unsupported"
        elif hip_support == "verified" and (not roc or roc_support == "verified"):
            support = "verified"
        else:
            support = "documented"
        lifecycle = "removed" if cuda.removed else "deprecated" if cuda.deprecated else "current"
        return Entry(name, hip, roc, self.family.name, cuda.kind, support, lifecycle,
                     roc_support if roc else "")


def _version_base(name: str) -> str | None:
    match = re.match(r"^(\w+?)_v\d+(_64)?$", name)
    return match.group(1) + (match.group(2) or "") if match else None


_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def included_closure(root: pathlib.Path, header: str) -> list[str]:
    """The headers `header` includes, directly or through others, that lie in `root` (an
    include written relative to the including header's folder counts too), in path order."""
    seen: set[str] = set()
    todo = [header]
    while todo:
        current = todo.pop()
        if current in seen or not (root / current).is_file():
            continue
        seen.add(current)
        for written in _INCLUDE.findall(sources.read_text(root / current)):
            for candidate in (written, str(pathlib.PurePosixPath(current).parent / written)):
                if (root / candidate).is_file():
                    todo.append(str(pathlib.PurePosixPath(candidate)))
                    break
    return sorted(seen - {header})


def header_entries(rules: Merged, cuda_include: pathlib.Path,
                   hip: sources.HipIndex) -> list[Entry]:
    roots = [cuda_include, cuda_include / "cccl"]
    mapping: dict[str, tuple[str, str | None]] = {}
    for tree, target, skipped in rules.header_trees:
        for root in roots:
            for path in sorted((root / tree).rglob("*")) if (root / tree).is_dir() else []:
                relative = path.relative_to(root)
                if path.suffix not in (".h", ".cuh", ".hpp") or set(relative.parts) & set(skipped):
                    continue
                mapping[str(relative)] = (str(relative) if target == "=" else target, None)
    mapping.update(rules.headers)
    # What a mapped header includes is part of it: `sm_60_atomic_functions.h`, which
    # cuda_runtime.h includes, is in hip_runtime.h. An explicit rule wins; a header several
    # closures include stays with the first directive's (crt/host_defines.h with the runtime).
    claimed: set[str] = set()
    for header in rules.header_closures:
        if header not in rules.headers:
            raise GeneratorError(f"header-closure {header}: the header has no `header` rule")
        # Its own folder (cooperative_groups/details/), the top level and crt/; not another
        # library's (nv/target, libcu++'s).
        own = ("", "crt", pathlib.PurePosixPath(header).stem)
        for member in included_closure(cuda_include, header):
            folder = str(pathlib.PurePosixPath(member).parent)
            if folder == ".":
                folder = ""
            if (member not in rules.headers and member not in claimed
                    and folder.split("/")[0] in own):
                claimed.add(member)
                mapping[member] = rules.headers[header]
    derived = set(claimed)
    # Every other CUDA toolkit header has no HIP counterpart: an include of one is reported, not
    # passed through as if it were the project's. The top-level `X.h` that crt/X.h replaced
    # (common_functions.h, host_config.h: CUDA keeps them as wrappers) maps as crt/X.h does.
    if rules.header_others is not None:
        for folder in (cuda_include, cuda_include / "crt"):
            for path in sorted(folder.glob("*")):
                relative = str(path.relative_to(cuda_include))
                if path.suffix in (".h", ".hpp", ".cuh") and relative not in mapping:
                    mapping[relative] = mapping.get(f"crt/{relative}", ("-", None))
                    derived.add(relative)
    entries = []
    for cuda, (target, roc) in sorted(mapping.items()):
        installed = any((root / cuda).is_file() for root in roots)
        external = rules.api.get(cuda) == "header"
        removed = rules.removed.get(cuda) == "header"
        if installed == (external or removed):
            raise GeneratorError(f"header rule for {cuda}: the CUDA include directory "
                                 f"{'has' if installed else 'lacks'} it; list it under "
                                 "`api header` or `removed header` only when it lacks it")
        if target == "-":
            support, target = "unsupported", ""
        elif hip.has_header(target) and (roc is None or hip.has_header(roc)):
            support = "verified"
        else:
            support = "documented"
        roc_support = "" if not roc else "verified" if hip.has_header(roc) else "documented"
        entries.append(Entry(cuda, target, roc or "", "header", "header", support,
                             "removed" if removed else "current", roc_support,
                             angle_only=cuda in derived))
    return entries


def include_guard(path: pathlib.Path) -> str:
    """The macro of a CUDA header's include guard (sources.include_guard_of)."""
    guard = sources.include_guard_of(sources.read_text(path) if path.is_file() else "")
    if not guard:
        raise GeneratorError(f"{path}: no include guard (#ifndef X / #define X) found")
    return guard


def tag_entries(family: str, decls, entries: dict[str, Entry],
                hip: sources.HipIndex) -> list[Entry]:
    """Struct and enum tags, derived from the typedefs that name them on both sides:
    `typedef struct CUstream_st* cudaStream_t` and `typedef struct ihipStream_t* hipStream_t`,
    with cudaStream_t -> hipStream_t, give CUstream_st -> ihipStream_t. A tag the two sides
    pair differently (two HIP tags for one CUDA tag) is left out."""
    pairs: dict[str, set[str]] = {}
    for decl in decls:
        entry = entries.get(decl.name)
        if not decl.tag or entry is None or entry.support != "verified" or entry.kind != "type":
            continue
        hip_tag = hip.names.tags.get(entry.hip, "")
        if hip_tag and hip_tag != decl.tag:
            pairs.setdefault(decl.tag, set()).add(hip_tag)
    return [Entry(tag, next(iter(targets)), "", family, "type", "verified", "current")
            for tag, targets in sorted(pairs.items()) if len(targets) == 1]


def condition_entries(family: str, rules: Merged, cuda_include: pathlib.Path,
                      hip: sources.HipIndex) -> list[Entry]:
    """Names renamed only inside #if conditions: include guards, read from both headers, and
    compiler macros."""
    entries = []
    for cuda_path, hip_path in sorted(rules.guards.items()):
        if not hip.has_header(hip_path):
            raise GeneratorError(f"guard {cuda_path}: the HIP header {hip_path} is not installed")
        if not hip.headers[hip_path]:
            raise GeneratorError(f"guard {cuda_path}: the HIP header {hip_path} has no include "
                                 "guard in the name lists")
        entries.append(Entry(include_guard(cuda_include / cuda_path), hip.headers[hip_path], "",
                             family, "condition", "verified", "current"))
    for cuda, target in sorted(rules.conditions.items()):
        entries.append(Entry(cuda, target, "", family, "condition", "documented", "current"))
    return entries


def build(cuda_include: pathlib.Path, hip: sources.HipIndex,
          rule_files: dict[str, list[rules_mod.RuleFile]]) -> list[Entry]:
    known = {f.name for f in FAMILIES} | {"header"}
    for family in rule_files:
        if family not in known:
            raise GeneratorError(f"rule file for unknown family {family!r}")
    entries: dict[str, Entry] = {}
    removed_meta = sources.removed_runtime_functions(cuda_include)
    for family in FAMILIES:
        rules = merge(rule_files.get(family.name, []))
        decls = _cuda_decls(cuda_include, family.files)
        names = collect(family, decls, rules)
        if family.name == "runtime":
            # Old signatures stay valid user code: a removed name, or an old arity.
            for name, params in removed_meta.items():
                if name not in names:
                    names[name] = CudaName("function", removed=True)
                names[name].arities.append((params, params))
        if family.name in ("cub", "thrust"):
            names[family.name] = CudaName("namespace")
        resolver = Resolver(family, rules, hip)
        for name in sorted(names):
            if name not in entries:
                entries[name] = resolver.resolve(name, names[name])
        # A `map` or `roc` line whose name the headers do not declare (or declare in a way the
        # collector misses, as a typedef with a trailing deprecation macro) would be dropped
        # without a word: fail instead, naming it.
        bases = {_version_base(name) for name in names} - {None}
        unused = sorted(key for key in {*rules.maps, *rules.rocs}
                        if key not in names and key not in bases)
        if unused:
            raise GeneratorError(f"{family.name}: rule names not collected from the CUDA "
                                 f"headers: {', '.join(unused)}")
        for entry in tag_entries(family.name, decls, entries, hip):
            if entry.cuda in entries and entries[entry.cuda].support != "unsupported":
                continue  # mapped already (a rule, or the naming rule)
            entries[entry.cuda] = entry
        for entry in condition_entries(family.name, rules, cuda_include, hip):
            if entry.cuda in entries:
                raise GeneratorError(f"{entry.cuda} is both a condition macro and an API name")
            entries[entry.cuda] = entry
    header_rules = merge(rule_files.get("header", []))
    for entry in header_entries(header_rules, cuda_include, hip):
        if entry.cuda in entries:
            raise GeneratorError(f"{entry.cuda} is both a header and an identifier")
        entries[entry.cuda] = entry
    result = sorted(entries.values(), key=lambda e: e.cuda)
    check(result)
    return result


@functools.lru_cache(maxsize=None)
def _cuda_decls(cuda_include: pathlib.Path, files: tuple[str, ...]):
    """A family's CUDA declarations, read once for all the releases a run builds."""
    return sources.cdecl.scan_files(sources.cuda_files(cuda_include, files))


def legacy_cublas_arities(cuda_include: pathlib.Path,
                          entries: list[Entry]) -> list[tuple[str, int]]:
    """cublas.h's handle-less functions (`cublasSgemm(transa, ...)`, 13 arguments) whose name
    cublas_v2.h makes a macro for the handle form (`cublasSgemm_v2(handle, ...)`, 14): the
    argument count tells a legacy call from a current one, whatever the file includes."""
    decls = _cuda_decls(cuda_include, ("cublas.h",))
    v2 = {d.name: d.arity for d in _cuda_decls(cuda_include, ("cublas_api.h",))
          if d.kind == "function" and d.arity is not None}
    names = {e.cuda for e in entries if e.family == "blas"}
    out = []
    for decl in decls:
        if (decl.kind == "function" and decl.arity is not None and decl.name in names
                and decl.arity[0] == decl.arity[1] and f"{decl.name}_v2" in v2
                and v2[f"{decl.name}_v2"] != decl.arity):
            out.append((decl.name, decl.arity[0]))
    return sorted(set(out))


def call_shapes(cuda_include: pathlib.Path, entries: list[Entry], indexes: list[sources.HipIndex],
                rules: dict) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, str]]]:
    """Functions whose HIP counterpart takes another number of arguments than CUDA's current
    signature (the table maps them because an older CUDA signature matches:
    `cudaGraphInstantiate(exec, graph, flags)` is CUDA 12's, `hipGraphInstantiate` takes CUDA
    11's five arguments), with HIP's range where every release of the lists agrees on it; and the
    rule files' `call-form CUDA COUNT HIP`: the HIP function a call of COUNT arguments becomes,
    which every release must declare with that count."""
    current: dict[str, list[tuple[int, int]]] = {}
    for family in FAMILIES:
        if family.name not in ("runtime", "driver"):
            continue
        for decl in _cuda_decls(cuda_include, family.files):
            if decl.kind == "function" and decl.arity is not None and not decl.internal:
                current.setdefault(decl.name, []).append(decl.arity)
    shapes = []
    for e in entries:
        if e.kind != "function" or not e.hip or e.cuda not in current:
            continue
        # Over the releases that declare it (hipGraphAddNode is new in 6.2).
        ranges = {frozenset(index.names.arities[e.hip]) for index in indexes
                  if index.names.arities.get(e.hip)}
        if len(ranges) != 1:
            continue
        hip = next(iter(ranges))
        # A CUDA signature no HIP one covers (cuda_runtime.h keeps CUDA 11's five-argument
        # cudaGraphInstantiate as an overload beside CUDA 12's three-argument one).
        if any(not any(c[0] <= h[1] and h[0] <= c[1] for h in hip) for c in current[e.cuda]):
            shapes.append((e.cuda, min(h[0] for h in hip), max(h[1] for h in hip)))
    forms = []
    for family_rules in rules.values():
        for rule in family_rules:
            for cuda, (count, hip) in rule.call_forms.items():
                if any((count, count) not in index.names.arities.get(hip, []) for index in indexes):
                    raise GeneratorError(f"call-form {cuda} {count} {hip}: not every release "
                                         f"declares {hip} with {count} arguments")
                forms.append((cuda, count, hip))
    return sorted(shapes), sorted(forms)


def check(entries: list[Entry]) -> None:
    """The promises the translator relies on (tests/hipify/mapping_test.cpp checks them too)."""
    for e in entries:
        if (e.support == "unsupported") != (not e.hip) or (not e.hip and e.roc):
            raise GeneratorError(f"{e.cuda}: support {e.support} with hip {e.hip!r}")
        # A name hipSPARSE keeps (csric02Info_t) is still an entry when rocSPARSE spells it
        # otherwise (--roc).
        keeps = (e.family in SHARED_NAMES or (e.family == "bf16" and e.kind == "function")
                 or (e.kind == "header" and e.cuda.startswith("thrust/")) or bool(e.roc))
        if e.hip == e.cuda and not keeps:
            raise GeneratorError(f"{e.cuda} maps to itself outside the shared-name families")
