"""Declared identifiers of C/C++ headers, without a compiler.

A light scanner for vendor headers: it strips comments and strings, records #define'd macros, and
walks the remaining tokens at namespace scope to find functions, types (typedef, struct, enum,
using) and enumerators. Bodies of classes and functions are skipped, so members and locals are
never reported. Every #if branch is read, except those only the vendor's own build compiles.
Macros that generate declarations are expanded one level. Deprecation comes from attributes, from
macros that expand to one, and from Doxygen comments that say so (`\\deprecated`,
`/**< Deprecated ...`).
"""

from __future__ import annotations

import dataclasses
import re

# Marker tokens left where a doc comment says the next (or previous) declaration is deprecated.
DEP_NEXT = "@DEPNEXT"
DEP_PREV = "@DEPPREV"
STRING = '""'

_LEXEME = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
# Compound assignments and comparisons are one token: `operator*=(...)` split into `*` `=` read as
# an initializer and hid every declaration up to the next top-level `;` (the rest of HIP 6.2's
# bf16 operators and intrinsics).
_TOKEN = re.compile(r"@DEP(?:NEXT|PREV)|\"\"|[A-Za-z_]\w*|\d[\w.]*|::|\.\.\.|->|<=>|<<=|>>="
                    r"|[-+*/%&|^<>=!]=|&&|\|\||\S")
_DEFINE = re.compile(r"#\s*define\s+([A-Za-z_]\w*)(\()?(.*)$", re.S)
_TRAILING_DOC = ("/**<", "/*!<", "///<", "//!<")

# Identifiers that look like calls in a declaration but never name what is declared.
_ATTRIBUTE_WORDS = frozenset({
    "__attribute__", "__declspec", "alignas", "__align__", "decltype", "sizeof", "alignof",
    "noexcept", "throw", "__launch_bounds__", "static_assert", "_Static_assert", "__pragma",
    "_Pragma", "__asm__", "asm", "__typeof__", "typeof", "__builtin_offsetof", "requires",
})
_TRAILING_QUALIFIERS = frozenset({"const", "volatile", "noexcept", "override", "final", "&", "&&"})
_TYPE_KEYWORDS = frozenset({"struct", "class", "union", "enum"})


@dataclasses.dataclass
class Decl:
    name: str
    kind: str  # "function", "type", "constant" (enumerator), "macro", "namespace"
    deprecated: bool
    file: str
    scope: str = ""  # enclosing namespaces, "a::b"
    function_like: bool = False  # macros only
    value: tuple[str, ...] = ()  # macros only: the body's tokens
    params: tuple[str, ...] = ()  # function-like macros only
    arity: tuple[int, int] | None = None  # functions: fewest and most arguments a call takes
    tag: str = ""  # typedefs only: the struct/enum/union tag named (`typedef struct T* N`)
    param_types: tuple[str, ...] = ()  # functions: each parameter's type, `const T*` (no name)
    param_names: tuple[str, ...] = ()  # functions: each parameter's name ("" when unnamed)
    internal: bool = False  # declared in an internal-build branch (cuda.h's old-ABI names)


def _doc_deprecated(comment: str) -> bool:
    body = re.sub(r"^[/*!<\s]+", "", comment)
    return "\\deprecated" in comment or "@deprecated" in comment or body.startswith("Deprecated")


def _strip(text: str) -> str:
    """Comments become spaces (or deprecation markers), strings become "" ."""

    def repl(match: re.Match[str]) -> str:
        lexeme = match.group(0)
        if lexeme[0] in "\"'":
            return STRING
        newlines = "\n" * lexeme.count("\n")
        if lexeme.startswith(("/**", "/*!", "///", "//!")) and _doc_deprecated(lexeme):
            marker = DEP_PREV if lexeme.startswith(_TRAILING_DOC) else DEP_NEXT
            return f" {marker} {newlines}"
        return " " + newlines

    return _LEXEME.sub(repl, text.replace("\\\r\n", "").replace("\\\n", ""))


# Branches only the vendor's own build compiles (cuda.h's old-ABI declarations).
_INTERNAL_CONDITION = re.compile(
    r"#\s*(?:ifdef\s+__CUDA_API_VERSION_INTERNAL\s*$"
    r"|if\s+defined\s*\(?\s*__CUDA_API_VERSION_INTERNAL\s*\)?\s*(?:&&.*)?$)")


def _internal_lines(lines: list[str]) -> set[int]:
    """Indices of lines inside an #if branch guarded by an internal-build macro."""
    skipped: set[int] = set()
    stack: list[bool] = []  # per open #if: is the current branch internal?
    for index, line in enumerate(lines):
        stripped = line.strip()
        if re.match(r"#\s*if", stripped):
            stack.append(bool(_INTERNAL_CONDITION.match(stripped)))
        elif re.match(r"#\s*(else|elif)", stripped) and stack:
            stack[-1] = False
        elif re.match(r"#\s*endif", stripped) and stack:
            stack.pop()
            continue
        if any(stack):
            skipped.add(index)
    return skipped


def split_source(text: str) -> tuple[list[tuple[str, bool]], list[str], list[str]]:
    """Returns the #define directives (text, deprecated), the code tokens, and the code tokens
    of internal-build branches (cuda.h's versioned old-ABI declarations: cuCtxCreate_v2)."""
    lines = _strip(text).split("\n")
    internal = _internal_lines(lines)
    defines: list[tuple[str, bool]] = []
    code: list[str] = []
    internal_code: list[str] = []
    pending_next = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        if index in internal:
            if not stripped.startswith("#"):
                internal_code.extend(_TOKEN.findall(line))
            continue
        if stripped.startswith("#"):
            if re.match(r"#\s*define\b", stripped):
                deprecated = pending_next or DEP_PREV in stripped or DEP_NEXT in stripped
                defines.append((stripped.replace(DEP_PREV, " ").replace(DEP_NEXT, " "), deprecated))
            pending_next = False
            continue
        if set(stripped.split()) == {DEP_NEXT}:
            following = next((l.strip() for l in lines[index + 1:] if l.strip()), "")
            if following.startswith("#"):
                pending_next = True
                continue
        pending_next = False
        code.extend(_TOKEN.findall(line))
    return defines, code, internal_code


def parse_defines(defines: list[tuple[str, bool]], file: str) -> list[Decl]:
    result = []
    for text, deprecated in defines:
        match = _DEFINE.match(text)
        if not match:
            continue
        name, paren, rest = match.groups()
        value, params = rest, ""
        if paren:
            params, value = rest.split(")", 1) if ")" in rest else (rest, "")
        result.append(Decl(name, "macro", deprecated, file, function_like=bool(paren),
                           value=tuple(_TOKEN.findall(value)),
                           params=tuple(p.strip() for p in params.split(",") if p.strip())))
    return result


def _matching(tokens: list[str], start: int, open_: str, close: str) -> int:
    """Index of the token closing the group opened at tokens[start]."""
    depth = 0
    for index in range(start, len(tokens)):
        if tokens[index] == open_:
            depth += 1
        elif tokens[index] == close:
            depth -= 1
            if depth == 0:
                return index
    return len(tokens) - 1


_DEFAULT_ARGUMENT = frozenset({"=", "__dv", "__dparm"})


def _arity(params: list[str]) -> tuple[int, int]:
    """(fewest, most) arguments for a parameter list; `...` counts as many."""
    pieces = _parameters(params)
    if not pieces:
        return (0, 0)
    required = sum(1 for piece in pieces
                   if piece != ["..."] and not _DEFAULT_ARGUMENT & set(piece))
    most = 64 if ["..."] in pieces else len(pieces)
    return (required, most)


_C_TYPE_WORDS = frozenset({"void", "char", "short", "int", "long", "float", "double", "signed",
                           "unsigned", "bool", "const", "volatile", "struct", "enum", "union"})


def _parameters(params: list[str]) -> list[list[str]]:
    pieces: list[list[str]] = [[]]
    depth = 0
    for token in params:
        depth += token in "([{<"
        depth -= token in ")]}>"
        if token == "," and depth == 0:
            pieces.append([])
        else:
            pieces[-1].append(token)
    return [] if pieces == [[]] or pieces == [["void"]] else pieces


def _split_parameter(piece: list[str]) -> tuple[str, str]:
    """A parameter's type and name, without its default: `const rocblas_float_complex* const
    x[]` -> (`const rocblas_float_complex* const*`, `x`) (an array parameter is a pointer)."""
    for stop in _DEFAULT_ARGUMENT:
        if stop in piece:
            piece = piece[:piece.index(stop)]
    words = [t for t in piece if t not in (DEP_NEXT, DEP_PREV)]
    arrays = 0
    while len(words) >= 2 and words[-1] == "]":
        words = words[:words.index("[") if "[" in words else len(words)]
        arrays += 1
    name = ""
    if (len(words) >= 2 and _is_identifier(words[-1]) and words[-1] not in _C_TYPE_WORDS
            and (words[-2] in ("*", "&", "&&") or _is_identifier(words[-2]))):
        name = words[-1]
        words = words[:-1]
    words += ["*"] * arrays
    out = ""
    for word in words:
        out += word if word in ("*", "&", "&&") or not out else " " + word
    return out, name


def _without_template_header(stmt: list[str]) -> list[str]:
    """`template <class T, int N = 4> void f(T)` -> `void f(T)` (repeated headers too)."""
    while len(stmt) > 1 and stmt[0] == "template" and stmt[1] == "<":
        stmt = stmt[_matching(stmt, 1, "<", ">") + 1:]
    return stmt


def _is_identifier(token: str) -> bool:
    return token[0].isalpha() or token[0] == "_"


class _Walker:
    """Walks code tokens at namespace scope and records declarations."""

    def __init__(self, tokens: list[str], file: str, call_like: set[str], markers: set[str],
                 generators: dict[str, Decl]):
        self.tokens = _expand(tokens, generators)
        self.file = file
        self.call_like = call_like | _ATTRIBUTE_WORDS
        self.markers = markers
        self.scopes: list[str | None] = []  # namespace name, or None for extern "C" { }
        self.decls: list[Decl] = []
        self.last: list[Decl] = []

    def scope(self) -> str:
        return "::".join(s for s in self.scopes if s)

    def add(self, name: str, kind: str, deprecated: bool,
            arity: tuple[int, int] | None = None, tag: str = "",
            param_types: tuple[str, ...] = (), param_names: tuple[str, ...] = ()) -> None:
        decl = Decl(name, kind, deprecated, self.file, self.scope(), arity=arity, tag=tag,
                    param_types=param_types, param_names=param_names)
        self.decls.append(decl)
        self.last.append(decl)

    def deprecated(self, stmt: list[str]) -> bool:
        return any(t == DEP_NEXT or t == "deprecated" or t in self.markers for t in stmt)

    def call_name(self, stmt: list[str], paren: int) -> str | None:
        """The identifier a '(' at stmt[paren] calls, unless it is an attribute or macro."""
        if paren == 0 or not _is_identifier(stmt[paren - 1]):
            return None
        name = stmt[paren - 1]
        if paren >= 2 and stmt[paren - 2] == "operator":
            return "operator"
        if name in self.call_like or (paren >= 2 and stmt[paren - 2] == "::"):
            return ""
        return name

    def function_name(self, stmt: list[str]) -> str | None:
        found = self.function_at(stmt)
        return found[0] if found else None

    def function_at(self, stmt: list[str]) -> tuple[str, tuple[int, int], tuple[str, ...],
                                                    tuple[str, ...]] | None:
        """The declared function's name, arity, parameter types and parameter names, if `stmt`
        declares one."""
        index = 0
        while index < len(stmt):
            token = stmt[index]
            if token == "(":
                name = self.call_name(stmt, index)
                close = _matching(stmt, index, "(", ")")
                if name:
                    if name == "operator":
                        return None
                    params = stmt[index + 1:close]
                    split = [_split_parameter(piece) for piece in _parameters(params)]
                    return (name, _arity(params), tuple(t for t, _ in split),
                            tuple(n for _, n in split))
                if name is None and index > 0 and stmt[index - 1] == "operator":
                    return None
                index = close
            elif token == "<" and index > 0 and stmt[index - 1] == "template":
                index = _matching(stmt, index, "<", ">")
            index += 1
        return None

    def depth0(self, stmt: list[str]) -> list[tuple[int, str]]:
        out, depth = [], 0
        for index, token in enumerate(stmt):
            if token in "([":
                depth += 1
            elif token in ")]":
                depth -= 1
            elif depth == 0:
                out.append((index, token))
        return out

    def finish(self, stmt: list[str]) -> None:
        if not stmt:
            return
        if stmt[0] == DEP_PREV:
            for decl in self.last:
                decl.deprecated = True
            stmt = stmt[1:]
        self.last = []
        stmt = [t for t in stmt if t != DEP_PREV]
        if not stmt:
            return
        deprecated = self.deprecated(stmt)
        stmt = _without_template_header(stmt)
        top = self.depth0(stmt)
        words = [t for _, t in top]
        if not words:
            return
        if "typedef" in words:
            self.typedef_names(stmt, top, deprecated)
        elif words[:1] == ["using"] and len(words) > 2 and words[2] == "=":
            self.add(words[1], "type", deprecated)
        elif "(" in stmt and (found := self.function_at(stmt)):
            self.add(found[0], "function", deprecated, found[1], param_types=found[2],
                         param_names=found[3])
        elif words[0] in _TYPE_KEYWORDS and "{}" not in words:
            # A forward declaration (`struct X;`), not a variable (`struct X x;`).
            tags = self.tag_names(words)
            if len(tags) == 1:
                self.add(tags[0], "type", deprecated)

    def typedef_names(self, stmt: list[str], top: list[tuple[int, str]], deprecated: bool) -> None:
        # typedef R (*NAME)(args);  typedef R (CALL *NAME)(args);  typedef R NAME(args);
        for index, token in enumerate(stmt):
            if token == "(" and index + 1 < len(stmt):
                close = _matching(stmt, index, "(", ")")
                inner = [t for t in stmt[index + 1:close] if _is_identifier(t)]
                if "*" in stmt[index + 1:close] and inner:
                    self.add(inner[-1], "type", deprecated)
                    return
        names: list[str] = []
        previous = None
        for _, token in top + [(len(stmt), ",")]:
            if token == ",":
                if previous:
                    names.append(previous)
                previous = None
            elif _is_identifier(token) and token not in self.markers:
                previous = token
            elif token not in (DEP_NEXT, DEP_PREV) and token not in self.markers:
                # A deprecation macro after the name (`... cudnnActivationDescriptor_t
                # CUDNN_DEPRECATED;`) keeps the name; anything else ends it.
                previous = None
        if not names:
            # typedef int NAME(args): the name stands before the first depth-0 '('.
            name = self.function_name(stmt)
            names = [name] if name else []
        tag = self.typedef_tag([t for _, t in top], names)
        for name in names:
            self.add(name, "type", deprecated, tag=tag)

    def typedef_tag(self, words: list[str], names: list[str]) -> str:
        """The struct/enum/union tag a typedef names: `typedef struct CUstream_st* CUstream`,
        `typedef enum cudaError_enum {...} CUresult`, `typedef enum __HIP_NODISCARD hipError_t
        {...} hipError_t` (the identifier before the body, after any attribute macro),
        `typedef struct X Y`. "" when there is none."""
        if words[:1] != ["typedef"]:
            return ""
        for index, word in enumerate(words):
            if word not in _TYPE_KEYWORDS:
                continue
            run: list[str] = []
            stop = ""
            for w in words[index + 1:]:
                if not _is_identifier(w) or w in ("class", "struct"):
                    stop = w
                    break
                if w not in self.call_like and w not in self.markers:
                    run.append(w)
            if stop != "{}":
                while run and run[-1] in names:
                    run.pop()
            return run[-1] if run else ""
        return ""

    def tag_names(self, words: list[str]) -> list[str]:
        """The identifiers between `struct`/`enum`... and the body or base clause, without
        attributes; the tag is the last one."""
        for index, word in enumerate(words):
            if word in _TYPE_KEYWORDS:
                idents = []
                for w in words[index + 1:]:
                    if w in ("{", "{}", ":", ";", "final"):
                        break
                    if (_is_identifier(w) and w not in ("class", "struct")
                            and w not in self.call_like and w not in self.markers):
                        idents.append(w)
                return idents
        return []

    def enum_body(self, body: list[str], deprecated_enum: bool) -> None:
        pieces: list[list[str]] = [[]]
        depth = 0
        for token in body:
            if token in "([{":
                depth += 1
            elif token in ")]}":
                depth -= 1
            if token == "," and depth == 0:
                pieces.append([])
            else:
                pieces[-1].append(token)
        previous: Decl | None = None
        for piece in pieces:
            idents = [(i, t) for i, t in enumerate(piece) if _is_identifier(t)]
            names = [(i, t) for i, t in idents if t not in self.markers and t not in self.call_like]
            first = names[0] if names else None
            for index, token in enumerate(piece):
                if token == DEP_PREV and previous and (first is None or index < first[0]):
                    previous.deprecated = True
            if first is None:
                continue
            dep = deprecated_enum or any(
                t in self.markers or t == "deprecated" or t == DEP_NEXT for t in piece[:first[0]])
            dep = dep or any(t in self.markers or t == DEP_PREV or t == "deprecated"
                             for t in piece[first[0] + 1:])
            decl = Decl(first[1], "constant", dep, self.file, self.scope())
            self.decls.append(decl)
            previous = decl

    def body_kind(self, stmt: list[str]) -> str:
        stmt = _without_template_header(stmt)
        top = self.depth0(stmt)
        words = [t for _, t in top]
        if not words or words[-2:] == ["extern", STRING] or words == ["extern"]:
            return "scope"
        if words[0] in ("namespace", "inline") and "namespace" in words[:2]:
            return "namespace"
        if "=" in words:
            return "initializer"
        # Trailing qualifiers after a parameter list mean a function body.
        index = len(stmt) - 1
        while index >= 0 and stmt[index] in _TRAILING_QUALIFIERS:
            index -= 1
        if index >= 0 and stmt[index] == ")":
            open_ = index
            depth = 0
            while open_ >= 0:
                depth += stmt[open_] == ")"
                depth -= stmt[open_] == "("
                if depth == 0:
                    break
                open_ -= 1
            before = stmt[open_ - 1] if open_ > 0 else ""
            if before in ("noexcept", "throw"):
                return "function"
            if not (before in self.call_like and any(w in _TYPE_KEYWORDS for w in words)):
                return "function"
        if "enum" in words:
            return "enum"
        if any(w in _TYPE_KEYWORDS for w in words):
            return "type"
        return "function" if "(" in stmt else "scope"

    def run(self) -> list[Decl]:
        tokens = self.tokens
        stmt: list[str] = []
        paren = 0
        index = 0
        while index < len(tokens):
            token = tokens[index]
            if token == "(":
                paren += 1
            elif token == ")":
                paren = max(0, paren - 1)
            if token == "{" and paren > 0:
                index = _matching(tokens, index, "{", "}")
                stmt.append("{}")
            elif token == "{":
                index = self.open_brace(stmt, index)
                if stmt and stmt[-1] != "{}":
                    stmt = []
            elif token == "}":
                if self.scopes:
                    self.scopes.pop()
                stmt = []
            elif token == ";" and paren == 0:
                self.finish(stmt)
                stmt = []
            else:
                stmt.append(token)
            index += 1
        return self.decls

    def open_brace(self, stmt: list[str], index: int) -> int:
        """Handles a '{' that ends `stmt`; returns the index to continue from."""
        kind = self.body_kind(stmt)
        if kind in ("scope", "namespace"):
            words = [t for t in stmt if _is_identifier(t) and t not in ("inline", "namespace")]
            if kind == "namespace":
                for name in words:
                    self.add(name, "namespace", False)
            self.scopes.append("::".join(words) if kind == "namespace" else None)
            stmt.clear()
            return index
        close = _matching(self.tokens, index, "{", "}")
        deprecated = self.deprecated(stmt)
        if kind == "function":
            found = self.function_at(stmt)
            self.last = []
            if found:
                self.add(found[0], "function", deprecated, found[1], param_types=found[2],
                         param_names=found[3])
            stmt.clear()
            return close
        if kind in ("enum", "type"):
            tags = self.tag_names([t for _, t in self.depth0(stmt)])
            self.last = []
            if tags:
                self.add(tags[-1], "type", deprecated)
            if kind == "enum":
                self.enum_body(self.tokens[index + 1:close], deprecated)
        stmt.append("{}")
        return close


def _expand(tokens: list[str], generators: dict[str, Decl]) -> list[str]:
    """Expands calls of declaration-generating macros (one level, `##` pasting)."""
    if not generators:
        return tokens
    out: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        macro = generators.get(token)
        if macro is not None and not macro.function_like:
            out.extend(macro.value)  # one level: a nested macro stays a plain identifier
            index += 1
            continue
        if macro is None or index + 1 >= len(tokens) or tokens[index + 1] != "(":
            out.append(token)
            index += 1
            continue
        close = _matching(tokens, index + 1, "(", ")")
        args: list[list[str]] = [[]]
        depth = 0
        for arg_token in tokens[index + 2:close]:
            depth += arg_token in "([{"
            depth -= arg_token in ")]}"
            if arg_token == "," and depth == 0:
                args.append([])
            else:
                args[-1].append(arg_token)
        bound = dict(zip(macro.params, args))
        body: list[str] = []
        for body_token in macro.value:
            body.extend(bound.get(body_token, [body_token]))
        text = " ".join(body).replace(" # # ", "").replace(" ## ", "")
        out.extend(_TOKEN.findall(text))
        index = close + 1
    return out


def deprecation_markers(macros: list[Decl]) -> set[str]:
    """Macro names that expand (directly or through others) to a deprecated attribute."""
    markers = {m.name for m in macros if "deprecated" in m.value}
    grew = True
    while grew:
        grew = False
        for macro in macros:
            if macro.name not in markers and any(t in markers for t in macro.value):
                markers.add(macro.name)
                grew = True
    return markers


def scan_files(sources: dict[str, str]) -> list[Decl]:
    """All declarations of the given headers (path -> text), in file order."""
    split = {path: split_source(text) for path, text in sources.items()}
    macros = [m for path, (defines, _, _) in split.items() for m in parse_defines(defines, path)]
    markers = deprecation_markers(macros)
    call_like = {m.name for m in macros if m.function_like}
    # Function-like macros that expand to declarations (DEFINE_X_STATE(name, base),
    # DECLOP_MAKE_FOUR_COMPONENT(float, float4)).
    generators = {m.name: m for m in macros
                  if m.function_like and {"typedef", "struct", "enum", "{"} & set(m.value)}
    # Object-like macros that end a declaration (`#define __DEF_IF_HOST { }` or `;`).
    generators.update({m.name: dataclasses.replace(m, value=(";",)) for m in macros
                       if not m.function_like and m.value and set(m.value) <= {";", "{", "}"}})
    # Object-like macros that open or close namespaces (_CG_BEGIN_NAMESPACE).
    generators.update({m.name: m for m in macros
                       if not m.function_like and "namespace" in m.value})
    decls: list[Decl] = list(macros)
    for path, (_, code, _) in split.items():
        decls.extend(_Walker(code, path, call_like, markers, generators).run())
    for path, (_, _, internal_code) in split.items():
        if internal_code:
            found = _Walker(internal_code, path, call_like, markers, generators).run()
            decls.extend(dataclasses.replace(decl, internal=True) for decl in found)
    return decls
