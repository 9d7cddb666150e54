// Internal to the C/C++/CUDA analyzer: the pass state every rule family shares, token helpers and
// the handler table. Each family's own state, rows and handlers live in its file (source_family.h).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lex/token.h"
#include "scan/file_analysis.h"

namespace gpuport::source_rules {

// A rule that fires at most once per file, at its first occurrence, with a use count (a field of
// a family's per-file state).
struct OncePerFile {
  std::size_t first = SIZE_MAX;  // token index of the first occurrence
  std::uint32_t count = 0;
  void note(std::size_t index) {
    if (first == SIZE_MAX) {
      first = index;
    }
    ++count;
  }
};

// A `__device__` function body in the file: what it uses and whom it calls, so that a kernel's
// features include those of the helpers it calls (PTX is usually wrapped in such helpers).
struct DeviceFunction {
  std::string_view name;
  KernelFeatures features;
};

// `name (` inside a kernel or helper body: a possible call of a same-file helper.
struct CallSite {
  std::uint32_t caller = 0;  // kernel index, or index into device_functions
  std::string_view name;
};

// A function-like macro whose body defines a kernel (`#define DEFINE_KERNEL(N) __global__ void
// k_##N(...) {...}`), or only its signature, the body following each expansion: each expansion
// in the file is a kernel of its own.
struct KernelMacro {
  std::string_view name;
  std::vector<std::string_view> params;
  bool has_body = false;  // false: a signature, the body follows the expansion
  bool expanded = false;
  std::size_t kernel = 0;      // the kernel the #define recorded (see expand_kernel_macros)
  std::size_t name_begin = 0;  // the kernel's name as written in the body (`k_ ## N`)
  std::size_t name_end = 0;
};

// One expansion of a KernelMacro: the kernel it defines, named by the expansion.
struct KernelExpansion {
  std::size_t macro = 0;  // index into kernel_macros
  std::string name;
  std::uint32_t line = 0;
};

// The lists a pass over one file fills. A scan thread keeps one and hands it to every file it
// analyses: cleared at the start of a file, they keep their memory, so a thread allocates them
// as large as its largest file once instead of once per file.
struct SourceScratch {
  std::vector<DeviceFunction> device_functions;
  // Call sites in pass order: in kernel bodies (caller = kernel index) and in helper bodies
  // (caller = index into device_functions). One list per kind, not one per kernel and helper:
  // those small lists made nearly a third of a scan's `malloc` calls.
  std::vector<CallSite> kernel_calls;
  std::vector<CallSite> helper_calls;
  std::vector<KernelMacro> kernel_macros;
  std::vector<KernelExpansion> kernel_expansions;
  // Working lists of the end-of-file pass that gives kernels their helpers' features.
  std::vector<std::uint32_t> helpers_by_name;
  std::vector<std::string_view> pending_calls;
  std::vector<bool> visited_helpers;

  void clear();
};

// The state of one pass over one file's tokens that every family shares: the tokens, the output,
// kernel and device-function tracking and the once-per-line slots. A family's own per-file facts
// are in its file's thread_local `State`, reset by the family's `begin`.
struct SourceContext {
  // Clears `scratch` and fills it during the pass.
  SourceContext(const SharedString& file_path, const TokenStream& stream, FileAnalysis& analysis,
                SourceScratch& scratch);

  const SharedString& path;
  const TokenStream& ts;
  std::span<const Token> tok;  // a copy of the data pointer and size: one load each, not two
  FileAnalysis& out;
  bool cuda_file = false;  // .cu/.cuh (and .cu.jinja): asm there is more likely device code

  // Device-code tracking: token index one past the closing brace of the __global__/__device__
  // function body the pass is in (0 when outside), and the kernel being filled (-1 when none).
  std::size_t device_end = 0;
  std::size_t kernel_end = 0;
  std::ptrdiff_t kernel = -1;
  std::uint64_t kernel_shared_sum = 0;  // computable static __shared__ bytes of that kernel
  bool kernel_shared_unknown = false;   // an array whose size could not be computed
  bool kernel_shared_flagged = false;   // GP-MEM-001 already fired for this kernel
  std::ptrdiff_t device_function = -1;  // index into device_functions when in a helper body
  std::size_t device_function_end = 0;
  std::vector<DeviceFunction>& device_functions;
  std::vector<CallSite>& kernel_calls;
  std::vector<CallSite>& helper_calls;
  std::vector<KernelMacro>& kernel_macros;
  std::vector<KernelExpansion>& kernel_expansions;
  std::uint32_t last_line_fired[4] = {0, 0, 0, 0};  // once-per-line slots (see k_slot_*)

  std::size_t size() const { return tok.size(); }
  std::string_view text(std::size_t i) const { return i < tok.size() ? ts.text(tok[i]) : ""; }
  TokenKind kind(std::size_t i) const { return i < tok.size() ? tok[i].kind : TokenKind::Other; }
  bool is_punct(std::size_t i, std::string_view p) const {
    return i < tok.size() && tok[i].kind == TokenKind::Punct && ts.text_is(tok[i], p);
  }
  bool is_ident(std::size_t i, std::string_view name) const {
    return i < tok.size() && tok[i].kind == TokenKind::Identifier && ts.text_is(tok[i], name);
  }
  bool in_device(std::size_t i) const { return i < device_end; }
  Kernel* current_kernel() {
    return kernel >= 0 ? &out.kernels[static_cast<std::size_t>(kernel)] : nullptr;
  }
  // The features of the kernel or `__device__` helper the pass is in; nullptr outside both.
  KernelFeatures* current_features() {
    if (kernel >= 0) {
      return &out.kernels[static_cast<std::size_t>(kernel)].features;
    }
    if (device_function >= 0) {
      return &device_functions[static_cast<std::size_t>(device_function)].features;
    }
    return nullptr;
  }

  // Adds a finding at token i unless it sits in a HIP-only branch (code for AMD already).
  void add(std::string_view rule, std::size_t i, std::string detail = {});
  // Same, at most once per source line for the given slot.
  void add_once_per_line(int slot, std::string_view rule, std::size_t i, std::string detail = {});
  void add_sign(AmdPathKind kind, std::size_t i, std::string detail);
};

inline constexpr int k_slot_cuda_arch = 0;
inline constexpr int k_slot_lane_math = 1;
inline constexpr int k_slot_nvtx = 2;
inline constexpr int k_slot_library = 3;

// Counts an occurrence for a once-per-file rule, unless it sits in a HIP-only branch.
inline void note_once(SourceContext& ctx, OncePerFile& slot, std::size_t i) {
  if (i < ctx.size() && ctx.tok[i].context != BranchContext::Hip) {
    slot.note(i);
  }
}

// ----- token helpers (source_rules.cpp) ------------------------------------------------------

// Index of the first non-comment token after / before i (size() / SIZE_MAX when none).
std::size_t next_code(const SourceContext& ctx, std::size_t i);
std::size_t prev_code(const SourceContext& ctx, std::size_t i);
// The matching closer of the bracket at `open` ("(" / "[" / "{" / "<"), bounded by `limit`
// tokens and, inside a directive, by its end. SIZE_MAX when not found.
std::size_t match_forward(const SourceContext& ctx, std::size_t open, std::size_t limit = 4096);
// True when identifier i is called: `name (` that is not a declaration or a function-pointer
// type (`cublasStatus_t (*fn)(...)`), not a member call and not a macro being defined.
bool is_call(const SourceContext& ctx, std::size_t i);
// Top-level argument ranges [begin, end) of the call whose `(` is at `open`.
std::vector<std::pair<std::size_t, std::size_t>> call_arguments(const SourceContext& ctx,
                                                                std::size_t open);
// Value of an integer literal (decimal, hex, octal, binary; suffixes and ' separators).
std::optional<std::uint64_t> integer_value(std::string_view text);
// Value of a constant expression made of integer literals, + and * and parentheses over
// tokens [begin, end). nullopt when anything else appears.
std::optional<std::uint64_t> constant_value(const SourceContext& ctx, std::size_t begin,
                                            std::size_t end);
// The body of a string literal token, without prefix and quotes (raw strings included).
std::string_view string_body(std::string_view literal);
bool ends_with_type_suffix(std::string_view name);  // `_t`

// ----- detectors --------------------------------------------------------------------------------

// A detector for one identifier; `rule` is the id the table entry carries (may be empty).
using Handler = void (*)(SourceContext&, std::size_t, std::string_view rule);

struct HandlerEntry {
  Handler handler = nullptr;
  std::string_view rule;
};

// Exact-name dispatch table, looked up for every identifier of a file. Most identifiers match
// nothing, so a (first byte, length) and (last byte, length) prefilter rejects them before the
// open-addressing look-up.
class HandlerTable {
 public:
  void add(std::string_view name, Handler handler, std::string_view rule = {});
  const HandlerEntry* find(std::string_view name) const {
    if (name.empty()) {
      return nullptr;
    }
    const std::size_t length_bit = name.size() < 63 ? name.size() : 63;
    const std::uint64_t lengths = m_first_lengths[static_cast<unsigned char>(name.front())] &
                                  m_last_lengths[static_cast<unsigned char>(name.back())];
    if (((lengths >> length_bit) & 1u) == 0 || m_slots.empty()) {
      return nullptr;
    }
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t slot = hash(name) & mask;; slot = (slot + 1) & mask) {
      const Slot& candidate = m_slots[slot];
      if (candidate.name.empty()) {
        return nullptr;
      }
      if (candidate.name == name) {
        return &candidate.entry;
      }
    }
  }

 private:
  struct Slot {
    std::string_view name;  // empty: a free slot
    HandlerEntry entry;
  };
  static std::size_t hash(std::string_view name);
  void insert(std::string_view name, const HandlerEntry& entry);

  std::array<std::uint64_t, 256> m_first_lengths{};
  std::array<std::uint64_t, 256> m_last_lengths{};
  std::vector<Slot> m_slots;  // a power of two, at most half full
  std::size_t m_used = 0;
};

// Generic handlers: the entry's rule fires when the identifier is called / wherever it appears.
void on_call(SourceContext& ctx, std::size_t i, std::string_view rule);
void on_name(SourceContext& ctx, std::size_t i, std::string_view rule);

// Inline asm classification (also used by the unit tests).
enum class AsmKind : std::uint8_t { Unknown, Ptx, Amdgcn };
struct AsmClass {
  AsmKind kind = AsmKind::Unknown;
  std::vector<std::string> mnemonics;  // distinct PTX mnemonics (or the first AMDGCN one)
  std::vector<std::string> registers;  // distinct PTX special registers: %laneid, %globaltimer
  bool tensor = false;                 // mma / wgmma / ldmatrix / cp.async / mbarrier / tcgen05
};
// `cuda_file`: the file is .cu/.cuh or the asm sits in a CUDA-device branch; then undotted PTX
// opcodes that no host ISA uses (trap, brkpt) count as evidence too.
AsmClass classify_asm(std::string_view text, bool cuda_file);

}  // namespace gpuport::source_rules
