// Internal interface of the stack rule families (FW, PKG, BUILD, DEPLOY, ART): text helpers,
// requirement and image parsing, and the per-family detectors the analyzers call.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lex/config_reader.h"
#include "lex/python_lexer.h"
#include "lex/token.h"
#include "scan/file_analysis.h"
#include "source/ascii_text.h"

namespace gpuport {

// ---- Text helpers (ASCII) ----------------------------------------------------------------

// Finds `needle` in `hay` where it is not glued to neighbouring name characters (letters,
// digits, '_' and, when the needle itself holds a '-', '-'). npos when absent.
std::size_t find_word(std::string_view hay, std::string_view needle, std::size_t from = 0);
// The content of a Python string token: prefix and quotes stripped ("rb'x'" -> "x").
std::string_view python_string_content(std::string_view token_text);
// "__global__" followed by a kernel signature ("void" within a few words): CUDA source, not prose.
bool holds_cuda_kernel_source(std::string_view content);
// The final component of a '/'-separated path.
std::string_view base_name(std::string_view path);

// ---- Packaging ---------------------------------------------------------------------------

// One requirement: `name[extras] op version+local`, as in requirements files and pyproject.
struct Requirement {
  std::string name;     // normalized: lowercase, '_' and '.' replaced by '-'
  std::string extras;   // inside [...], lowercase, as written ("cuda12", "all,dev")
  std::string op;       // "==", ">=", "~=", "=" (conda), "@" (direct URL), or empty
  std::string version;  // "2.3.0" (without the local part), or the URL for '@'
  std::string local;    // "cu121" from "2.3.0+cu121", lowercase; empty when absent
};
// Parses one requirement; nullopt when the text does not start with a package name.
std::optional<Requirement> parse_requirement(std::string_view text);

// What a requirement tells about the stack: the rule it triggers and any AMD-path sign.
struct RequirementVerdict {
  std::string_view rule;      // empty when the requirement is not a hazard
  std::string_view amd_sign;  // non-empty when it is an AMD package (detail of the sign)
};
RequirementVerdict classify_requirement(const Requirement& requirement);

// Index or wheel URL: "cu121" for download.pytorch.org/whl/cu121; "rocm6.2" for .../whl/rocm6.2.
struct IndexUrlVerdict {
  std::string cuda;  // the cuXXX segment, or empty
  std::string rocm;  // the rocmX.Y segment, or empty
};
IndexUrlVerdict classify_index_url(std::string_view lower_text);

// PKG rules over requirements files, pyproject.toml, setup.cfg and conda environment files.
void check_packaging(const SharedString& path, std::span<const ConfigLine> lines,
                     FileAnalysis& out);
// `pip install ...` inside a shell, Docker or YAML line: pins and index URLs.
void check_pip_install(const SharedString& path, const ConfigLine& line, FileAnalysis& out);

// ---- Container images --------------------------------------------------------------------

struct ImageRef {
  std::string registry;    // "nvcr.io", "localhost:5000"; empty for Docker Hub
  std::string repository;  // "nvidia/pytorch", "rocm/pytorch", "ubuntu"
  std::string tag;         // "24.01-py3"; empty when absent
  std::string digest;      // "sha256:..."; empty when absent
};
// Parses an image reference as written after FROM or `image:`; nullopt for variables
// (`${BASE}`) and empty text.
std::optional<ImageRef> parse_image(std::string_view text);

// ---- Families ----------------------------------------------------------------------------

// A Python string literal: its token and its content (python_string_content of its text).
struct PythonString {
  const Token* token = nullptr;
  std::string_view content;
};
// The string literals of a file in order, into `out` (cleared first): the three rule families
// that read strings share this one pass over the tokens.
void collect_python_strings(const TokenStream& tokens, std::vector<PythonString>& out);

// FW and Python-side BUILD/ART/DEPLOY rules over one Python file.
void check_python_frameworks(const SharedString& path, const TokenStream& tokens,
                             const PythonFacts& facts, FileAnalysis& out);
// BUILD rules over CMake lines.
void check_cmake(const SharedString& path, std::span<const ConfigLine> lines, FileAnalysis& out);
// BUILD-006/007 over Python tokens (setup.py, build scripts).
void check_python_build(const SharedString& path, const TokenStream& tokens,
                        const PythonFacts& facts, std::span<const PythonString> strings,
                        FileAnalysis& out);
// DEPLOY rules over Docker, shell and YAML lines.
void check_deploy(const SharedString& path, Language language, std::span<const ConfigLine> lines,
                  FileAnalysis& out);
// DEPLOY-005/006 over Python string tokens (subprocess calls, os.environ keys).
void check_python_deploy(const SharedString& path, const TokenStream& tokens,
                         std::span<const PythonString> strings, FileAnalysis& out);
// PKG rules over the string literals of a setup.py (install_requires, extras_require).
void check_python_requirements(const SharedString& path, const TokenStream& tokens,
                               FileAnalysis& out);
// ART-004 over Python string tokens.
void check_python_artifacts(const SharedString& path, const TokenStream& tokens,
                            std::span<const PythonString> strings, FileAnalysis& out);

}  // namespace gpuport
