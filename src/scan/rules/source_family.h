// Internal to the C/C++/CUDA analyzer: a source rule family as one unit. Each family file
// (warp.cpp, inline_asm.cpp, matrix.cpp, libraries.cpp, execution.cpp, memory.cpp,
// device_functions.cpp) holds its catalog rows, its per-file state (a file-local thread_local
// `State`), its handler registration, its end-of-file rules and its accessor; analyze_cuda and
// the catalog reach the families only through source_families().
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "scan/rules/catalog.h"
#include "scan/rules/source_rules.h"

namespace gpuport::source_rules {

struct SourceFamily {
  std::string_view name;                      // "WARP", "MMA/TYPE", ...: its rows' family field(s)
  std::span<const RuleInfo> rules;            // its catalog rows
  std::span<const ComponentInfo> components;  // rows of the components it (mainly) feeds
  void (*register_handlers)(HandlerTable&);   // identifiers that start its detectors
  void (*begin)(SourceContext&);              // resets its per-file state (may be null)
  void (*finish)(SourceContext&);             // per-file rules decided after the pass (may be null)
};

const SourceFamily& warp_family();       // WARP (warp.cpp)
const SourceFamily& asm_family();        // ASM (inline_asm.cpp)
const SourceFamily& matrix_family();     // MMA/TYPE (matrix.cpp)
const SourceFamily& library_family();    // LIB (libraries.cpp)
const SourceFamily& execution_family();  // EXEC (execution.cpp)
const SourceFamily& memory_family();     // MEM (memory.cpp)
const SourceFamily& device_family();     // DEV (device_functions.cpp)
const SourceFamily& backend_family();    // BACKEND (other_backends.cpp): must finish last

// Every family, in one explicit list (no static-initialiser registries): source_families.cpp.
// analyze_cuda calls every `begin` at the start of a file and every `finish` at its end, in
// this order.
std::span<const SourceFamily* const> source_families();

// ----- structural dispatch ---------------------------------------------------------------------
// Tokens that are not looked up by name reach their family by a direct call from analyze_cuda:
// warp-32 number literals, `<<<`, directives, and identifier prefixes chosen by first letter
// (prefix families return true when they handled the identifier). A directive's #include goes
// on to the header families (libraries, then matrix types).

void on_warp_number(SourceContext& ctx, std::size_t i, std::uint64_t value);  // warp.cpp
// An identifier of device code: a warp-size constant's name is recorded as used there.
void note_warp_size_use(SourceContext& ctx, std::size_t i, std::string_view name);  // warp.cpp
void on_launch_open(SourceContext& ctx, std::size_t i);                             // execution.cpp
void on_directive(SourceContext& ctx, std::size_t i);                               // execution.cpp
void on_include(SourceContext& ctx, std::size_t i, std::string_view header);        // libraries.cpp
// A TensorRT API header by its file name (NvInfer*.h, NvOnnxParser.h...).          // libraries.cpp
bool is_tensorrt_header(std::string_view header);
void on_type_header(SourceContext& ctx, std::size_t i, std::string_view header);     // matrix.cpp
void on_backend_header(SourceContext& ctx, std::size_t i, std::string_view header);  // BACKEND

bool library_prefix(SourceContext& ctx, std::size_t i, std::string_view name);
bool execution_prefix(SourceContext& ctx, std::size_t i, std::string_view name);
bool device_prefix(SourceContext& ctx, std::size_t i, std::string_view name);
bool matrix_prefix(SourceContext& ctx, std::size_t i, std::string_view name);

}  // namespace gpuport::source_rules
