"""Reader of the hand-written rule files (src/hipify/tables/rules/*.map).

A rule file is a list of directives, one per line; a line that starts with whitespace continues
the previous directive's arguments, `#` starts a comment. Arguments may use brace expansion
(`hipblas{S,D}gemm{,Batched}` is four names). Directives:

  family NAME                      the ApiFamily (lower case) the file's names belong to
  provides hip|roc NAME...         names the target library documents (for libraries whose
                                   headers are not installed here, or are older than the name)
  map CUDA HIP [ROC]               an explicit mapping; `-` for none
  roc CUDA ROC|-                   an explicit ROC name only (the HIP name is derived)
  unsupported CUDA...              no HIP equivalent, whatever the naming rule derives
  api KIND CUDA...                 CUDA names the installed headers do not declare (KIND:
                                   function, type, constant, namespace; header: an include
                                   path from outside the CUDA toolkit, like nvml.h)
  removed KIND CUDA...             names removed from CUDA (added as entries; the installed
                                   headers must no longer declare them)
  exclude CUDA...                  declared names that are not API (generic, internal)
  header CUDA_PATH HIP_PATH|- [ROC_PATH]   an include path mapping
  header-tree DIR HIP_PATH|= [SKIP_DIR...]  every header under DIR (in the CUDA include
                                   directories) maps to HIP_PATH, or `=` to itself; headers
                                   under a SKIP_DIR are left out (not public)
  guard CUDA_PATH HIP_PATH         the include guard macro of the CUDA header maps to the HIP
                                   header's (both read from the headers); renamed only in #if
                                   conditions, where helper headers test what was included
  condition CUDA HIP               a compiler macro renamed only in #if conditions
                                   (`__CUDACC__` -> `__HIPCC__`)
"""

from __future__ import annotations

import dataclasses
import pathlib
import re

_KINDS = ("function", "type", "constant", "namespace", "header")


class RuleError(Exception):
    pass


def expand_braces(word: str) -> list[str]:
    """Brace expansion like the shell's: a{b,c}d -> abd acd, nested braces allowed."""
    start = word.find("{")
    if start < 0:
        return [word]
    depth = 0
    parts: list[str] = []
    piece_start = start + 1
    for index in range(start, len(word)):
        char = word[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                parts.append(word[piece_start:index])
                prefix, suffix = word[:start], word[index + 1:]
                out: list[str] = []
                for part in parts:
                    for head in expand_braces(part):
                        out.extend(expand_braces(prefix + head + suffix))
                return out
        elif char == "," and depth == 1:
            parts.append(word[piece_start:index])
            piece_start = index + 1
    raise RuleError(f"unbalanced braces in {word!r}")


@dataclasses.dataclass
class RuleFile:
    path: pathlib.Path
    family: str = ""
    sources: list[str] = dataclasses.field(default_factory=list)  # URLs from the header comment
    provides: dict[str, set[str]] = dataclasses.field(
        default_factory=lambda: {"hip": set(), "roc": set()})
    maps: dict[str, tuple[str, str | None]] = dataclasses.field(default_factory=dict)
    rocs: dict[str, str] = dataclasses.field(default_factory=dict)
    unsupported: set[str] = dataclasses.field(default_factory=set)
    api: dict[str, str] = dataclasses.field(default_factory=dict)  # name -> kind
    removed: dict[str, str] = dataclasses.field(default_factory=dict)  # name -> kind
    exclude: set[str] = dataclasses.field(default_factory=set)
    headers: dict[str, tuple[str, str | None]] = dataclasses.field(default_factory=dict)
    header_trees: list[tuple[str, str, tuple[str, ...]]] = dataclasses.field(default_factory=list)
    # A CUDA header whose includes (transitively, within the CUDA include directory) map with it.
    header_closures: list[str] = dataclasses.field(default_factory=list)
    # CUDA function -> (argument count, the HIP function a call of that many arguments becomes)
    call_forms: dict[str, tuple[int, str]] = dataclasses.field(default_factory=dict)
    # The target of every other header of the CUDA include directory (top level and crt/).
    header_others: str | None = None
    guards: dict[str, str] = dataclasses.field(default_factory=dict)  # CUDA path -> HIP path
    conditions: dict[str, str] = dataclasses.field(default_factory=dict)


def _directives(text: str, path: pathlib.Path) -> list[tuple[int, list[str]]]:
    out: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if not line:
            continue
        words = line.split()
        if raw[0].isspace():
            if not out:
                raise RuleError(f"{path}:{number}: continuation line without a directive")
            out[-1][1].extend(words)
        else:
            out.append((number, words))
    return out


def _expand_all(words: list[str]) -> list[str]:
    return [name for word in words for name in expand_braces(word)]


def parse_rule_file(path: pathlib.Path) -> RuleFile:
    text = path.read_text(encoding="utf-8")
    rules = RuleFile(path)
    rules.sources = re.findall(r"https?://\S+", "\n".join(
        line for line in text.splitlines() if line.startswith("#")))
    for number, words in _directives(text, path):
        where = f"{path.name}:{number}"
        directive, args = words[0], words[1:]
        if directive == "family" and len(args) == 1:
            rules.family = args[0]
        elif directive == "provides" and args and args[0] in ("hip", "roc"):
            rules.provides[args[0]].update(_expand_all(args[1:]))
        elif directive == "map" and len(args) in (2, 3):
            _add_unique(rules.maps, args[0], (args[1], args[2] if len(args) == 3 else None), where)
        elif directive == "roc" and len(args) == 2:
            _add_unique(rules.rocs, args[0], args[1], where)
        elif directive == "unsupported" and args:
            rules.unsupported.update(_expand_all(args))
        elif directive in ("api", "removed") and len(args) >= 2 and args[0] in _KINDS:
            target = rules.api if directive == "api" else rules.removed
            for name in _expand_all(args[1:]):
                _add_unique(target, name, args[0], where)
        elif directive == "exclude" and args:
            rules.exclude.update(_expand_all(args))
        elif directive == "header" and len(args) in (2, 3):
            _add_unique(rules.headers, args[0], (args[1], args[2] if len(args) == 3 else None),
                        where)
        elif directive == "header-tree" and len(args) >= 2:
            rules.header_trees.append((args[0], args[1], tuple(args[2:])))
        elif directive == "header-closure" and len(args) == 1:
            rules.header_closures.append(args[0])
        elif directive == "call-form" and len(args) == 3 and args[1].isdigit():
            _add_unique(rules.call_forms, args[0], (int(args[1]), args[2]), where)
        elif directive == "header-others" and args == ["-"]:
            rules.header_others = args[0]
        elif directive == "guard" and len(args) == 2:
            _add_unique(rules.guards, args[0], args[1], where)
        elif directive == "condition" and len(args) == 2:
            _add_unique(rules.conditions, args[0], args[1], where)
        else:
            raise RuleError(f"{where}: cannot read directive {' '.join(words)!r}")
    if not rules.family:
        raise RuleError(f"{path}: no `family` directive")
    if not rules.sources:
        raise RuleError(f"{path}: the header comment names no documentation URL")
    return rules


def _add_unique(table: dict, key: str, value, where: str) -> None:
    if key in table and table[key] != value:
        raise RuleError(f"{where}: {key} is given twice")
    table[key] = value


def load_rules(directory: pathlib.Path) -> dict[str, list[RuleFile]]:
    """Rule files by family, in file-name order."""
    out: dict[str, list[RuleFile]] = {}
    for path in sorted(directory.glob("*.map")):
        rules = parse_rule_file(path)
        out.setdefault(rules.family, []).append(rules)
    return out
