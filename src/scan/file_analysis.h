// What one file contributes to a scan, and the analyzers that fill it, one per kind of file.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lex/config_reader.h"
#include "lex/python_lexer.h"
#include "lex/token.h"
#include "scan/scan_result.h"

namespace gpuport {

struct FileAnalysis {
  std::vector<Finding> findings;
  std::vector<Kernel> kernels;
  std::vector<LaunchSite> launches;
  std::uint32_t template_instantiations = 0;  // explicit `template ...;` instantiations of kernels
  std::uint32_t tensorrt_includes = 0;        // #includes of TensorRT API headers (by name)
  // GP-WARP-002 definitions (line, name) that no device code of this file uses, and the
  // warp-size constants its device code names: the scan keeps such a definition only where
  // device code of a file that includes it uses it.
  std::vector<std::pair<std::uint32_t, std::string>> unused_warp_size_defines;
  std::vector<std::string> device_warp_size_names;
  std::vector<Artifact> artifacts;
  std::vector<AmdPathSign> amd_path;
  std::vector<FileWarning> warnings;
  std::vector<GuardLine> guards;         // the #if lines that decide excluded items
  std::vector<ExcludedSource> excluded;  // this file, when the AMD build leaves it out
  // C/C++/CUDA: TokenStream::amd_includes and unresolved_amd_includes, for header membership.
  std::vector<std::string> includes;
  std::vector<std::uint32_t> include_lines;  // the line of each `includes` entry
  std::vector<std::string> unresolved_includes;
  bool named_by_build = false;  // some build file lists this file (FileMembership::named)
  std::uint64_t lines = 0;
  bool skip_lexing = false;  // set by the driver for embedded-binary sources
  // Whether findings carry their source line (Finding::excerpt). A setting of the worker, not
  // a result: clear() and take_exact() leave it as it is.
  bool excerpts = true;

  // Empties every list but keeps its capacity, so that a worker can reuse one analysis file
  // after file without growing its lists again.
  void clear();
  // Moves the lists into a new analysis whose lists are exactly their size (what a scan keeps:
  // they become segments of the result's lists) and clears this one, keeping its capacity. A
  // non-empty `finding_order` (a permutation of the findings' indices) is the order the findings
  // are moved in.
  FileAnalysis take_exact(std::span<const std::uint32_t> finding_order = {});
};

// Appends a finding at a token to `out.findings`, filling line, column, excerpt (unless
// out.excerpts is off) and context; built in place, since every finding of a scan passes here.
void add_finding(FileAnalysis& out, std::string_view rule_id, const SharedString& path,
                 const TokenStream& tokens, const Token& at, std::string detail = {});
// Appends a finding at a line (and a 1-based column; 0 reads as 1) when no token is at hand.
void add_line_finding(FileAnalysis& out, std::string_view rule_id, const SharedString& path,
                      std::uint32_t line, std::uint32_t column, std::string_view line_text,
                      std::string detail);
// Excerpt of a source line as the writers show it: trimmed, at most 160 bytes, valid UTF-8.
std::string make_excerpt(std::string_view line);

// C, C++ and CUDA sources: hazard rules, kernels, launch sites, embedded cubins, AMD-path signs.
void analyze_cuda(const SharedString& path, const TokenStream& tokens, FileAnalysis& out);

// True when a C/C++ file is mostly a byte array (a cubin or fatbin embedded as `0x..,` text):
// such files are counted as artifacts and not lexed. Decided from the first few KiB.
bool looks_like_embedded_binary(std::string_view source);
// looks_like_embedded_binary, and the array's bytes are an NVIDIA binary: an ELF whose machine
// is EM_CUDA (a cubin), a fatbinary (magic 0xBA55ED50) or PTX text. Decided by content only: a
// dense table is data whatever the file is named. `path` is unused (kept for callers).
bool holds_nvidia_binary(std::string_view path, std::string_view source);
// Records an embedded-binary source file (artifact + finding) without lexing it.
void analyze_embedded_binary(const SharedString& path, std::string_view source, FileAnalysis& out);

// The first names of the attribute chains analyze_python reads: extract_python_facts() may
// drop every other chain (PythonFactsOptions).
std::span<const std::string_view> python_chain_roots();

// Python sources and notebook code cells: frameworks, packages, CUDA-only libraries.
void analyze_python(const SharedString& path, const TokenStream& tokens, const PythonFacts& facts,
                    FileAnalysis& out);

// CMake, packaging, Docker, shell and YAML files.
void analyze_config(const SharedString& path, Language language, std::span<const ConfigLine> lines,
                    FileAnalysis& out);

// Precompiled NVIDIA artifacts (engines, cubins, PTX, fatbins): counted, never lexed.
// A .plan/.engine/.trt, .cubin, .fatbin or .ptx file, decided by `head` (its first
// k_artifact_head_bytes): a TensorRT engine is a serialized plan ("ftrt", bare or behind a
// length-prefixed metadata block), a cubin/fatbin/PTX file is what bytes_are_nvidia_binary
// recognises. A file with the extension and other content (a text note named model.plan) is
// not one.
inline constexpr std::size_t k_artifact_head_bytes = 64 * 1024;
void analyze_artifact(const SharedString& path, std::uint64_t size, std::string_view head,
                      FileAnalysis& out);

}  // namespace gpuport
