// The mechanical port of one C/C++/CUDA source: token-level renaming through the mapping tables,
// include fix-up, optional launch rewriting, and the scan's warnings for what still needs a human.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hipify/mapping.h"
#include "lex/token.h"
#include "scan/scan_result.h"

namespace gpuport {

enum class LaunchSyntax : std::uint8_t {
  Keep,  // `k<<<g, b, s, st>>>(args)` stays (HIP accepts it)
  Hip,   // `hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, args)`
};

struct TranslateOptions {
  LaunchSyntax launch_syntax = LaunchSyntax::Keep;
  // AMD's native library names (rocBLAS, rocRAND, ...) where the table has them, else hip*.
  // An enum passed to a call that stays hip* (no roc form) keeps the hip* spelling, so a call
  // and its arguments name one library. A roc call's pointer arguments are cast to the roc value
  // types its parameters take (value_types.h); argument lists are not otherwise rewritten.
  bool roc = false;
  bool translate_comments = false;  // also rename inside comments and string literals
  bool warnings = true;             // run the scan's rule catalog over the source
  // The ROCm release translated for, as the reports name it; the caller passes the matching
  // table (mapping_table_for). 0: the newest release of the tables.
  RocmRelease rocm = 0;
};

// One distinct rename and how often it happened.
struct ConversionCount {
  std::string cuda;
  std::string hip;
  ApiFamily family = ApiFamily::Runtime;
  std::uint64_t count = 0;
};

// A use of a CUDA name at a position: one HIP has no equivalent for (left as written), or one
// that needs review (TranslationStats::needs_review).
struct UnsupportedUse {
  std::string name;
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  ApiFamily family = ApiFamily::Runtime;
  Lifecycle lifecycle = Lifecycle::Current;
  std::string_view why;  // needs_review only: what to check (static text)
  // Unsupported only: HIP has the name from this ROCm release on, newer than the target.
  RocmRelease needs_rocm = 0;
};

struct TranslationStats {
  // References translated: identifiers and include paths renamed to a different spelling.
  std::uint64_t converted = 0;
  // Uses of table names that HIP spells the same (__syncthreads, atomicAdd, thrust::): checked
  // against the table, supported, and left as they are. Not part of `converted`.
  std::uint64_t kept = 0;
  std::array<std::uint64_t, k_api_family_count> kept_by_family{};
  std::array<std::uint64_t, k_api_family_count> converted_by_family{};
  std::vector<ConversionCount> converted_by_name;  // sorted by `cuda`
  std::vector<UnsupportedUse> unsupported;         // in source order
  // Translated uses that need a person: FP8 types and constants (AMD's encodings are FNUZ on
  // MI300 and OCP on gfx950, CUDA's are OCP); under --roc, library calls with no one-for-one
  // roc* form, which stay hip* (their handle is then a roc* one). In source order.
  std::vector<UnsupportedUse> needs_review;
  std::uint64_t deprecated_uses = 0;  // CUDA names the headers mark deprecated/removed
  // Uses translated to a name the target release's HIP headers mark deprecated (HIP's context
  // API, the legacy hipSPARSE API): still the counterpart, but on its way out.
  std::uint64_t hip_deprecated_uses = 0;
  std::uint64_t lines = 0;
  std::uint64_t changed_lines = 0;  // lines of the input whose bytes changed, plus inserted lines
  std::uint32_t launches_rewritten = 0;
  // Null arguments removed because HIP's form of the call lacks them (dropped_argument_of).
  std::uint32_t arguments_dropped = 0;
  // LaunchSyntax::Hip: launches left as written because their parts cannot be delimited.
  std::uint32_t launches_not_rewritten = 0;
  std::uint32_t symbol_arguments_wrapped = 0;  // HIP_SYMBOL(...) added
  std::uint32_t kernel_arguments_cast = 0;     // reinterpret_cast<const void*>(...) added
  std::uint32_t roc_arguments_cast = 0;        // (const rocblas_float_complex*)x added (--roc)
  std::uint32_t includes_added = 0;            // hip/hip_runtime.h inserted (0 or 1 per file)
  std::uint32_t includes_removed = 0;          // duplicate includes dropped after renaming
};

// Why a C/C++ file was copied byte for byte without translating it.
enum class KeptAsIs : std::uint8_t {
  No,
  OtherBackend,  // SYCL, MUSA, Ascend C, ...: not CUDA
  HipShim,       // the project's own CUDA-to-HIP shim header: already the AMD path
};
std::string_view kept_as_is_name(KeptAsIs kept);  // "", "other_backend", "hip_shim"

struct TranslationResult {
  std::string output;
  bool changed = false;
  KeptAsIs kept_as_is = KeptAsIs::No;
  TranslationStats stats;
  // The scan's findings on the input that still need a person (Finding::file = path).
  std::vector<Finding> warnings;
  // Findings whose fix is the translation itself (a one-for-one runtime call, a header swap,
  // HIP_SYMBOL): reported as resolved, not as warnings.
  std::vector<Finding> resolved;
  std::vector<LexDiagnostic> diagnostics;
};

// Rules whose fix hint is exactly what the translation does, so the translated file no longer
// has the problem: a one-for-one runtime call (GP-EXEC-011), HIP_SYMBOL for symbol copies
// (GP-MEM-007), bf16 types to __hip_bfloat16 (GP-TYPE-002), cuda_fp16.h to hip/hip_fp16.h
// (GP-TYPE-003). Rules whose hint also asks for a check or a retune stay warnings.
bool resolved_by_translation(std::string_view rule_id);

// Translates one source. `path` is used for messages; the output is byte-identical to `source`
// outside the tokens that changed, and translating the output again changes nothing. Code in
// HIP-only #if branches is left alone and counted nowhere; #if conditions are never renamed
// (see translator.cpp). The builtin table's look-up index is built once; another table's is
// rebuilt on every call.
TranslationResult translate_cuda(const std::string& path, std::string_view source,
                                 const MappingTable& table, const TranslateOptions& options);

// Adds `from` to `into` (counts summed, per-name lists merged and kept sorted).
void merge_stats(TranslationStats& into, const TranslationStats& from);

}  // namespace gpuport
