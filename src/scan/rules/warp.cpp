// Warp/wavefront rules (GP-WARP-*): code that assumes 32 lanes or 32-bit lane masks.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "lex/preprocessor_view.h"
#include "scan/inventory.h"
#include "scan/rules/source_family.h"

namespace gpuport::source_rules {

namespace {

using namespace catalog_rows;

// Provenance: hazards, AMD behaviour and equivalents from the project's reference notes
// porting-hazards.md (section 4.1: rows W1-W10, citing the HIP porting guide, HIP C++ language
// extensions, the HIPIFY tables and ROCm/clr headers) and real-world-lessons.md (section 3: the
// traps these rules must not fire on); tiers from ARCHITECTURE.md. Effort weights are
// engineer-hours per occurrence (per file for the once-per-file rules); each docs/rules/<id>.md
// page states the basis of its number.
// clang-format off
constexpr RuleInfo k_rules[] = {
  {"GP-WARP-001","WARP", "Warp size (wave64)",     k_ret,  k_high,  4.00,
   "A lane or warp index is computed with a literal 32 (% 32, & 31, / 32, >> 5), which is wrong on 64-wide wavefronts.",
   "Use warpSize, or a warp-size template parameter chosen per architecture, for lane and warp-index math."},
  {"GP-WARP-002","WARP", "Warp size (wave64)",     k_ret,  k_high,  2.00,
   "A warp-size constant is defined as 32 with no 64-wide alternative or logical-warp use in the file.",
   "Select 64 for CDNA (__GFX9__) and 32 otherwise, or template kernels on the warp size."},
  {"GP-WARP-003","WARP", "Warp size (wave64)",     k_ret,  k_high,  2.00,
   "A ballot, activemask or match result is held in 32 bits or counted with __popc/__ffs, but AMD lane masks are 64-bit.",
   "Hold masks in uint64_t (or auto) and count them with __popcll/__ffsll."},
  {"GP-WARP-004","WARP", "Warp size (wave64)",     k_ret,  k_high,  2.00,
   "A ballot or activemask result is compared with 0xffffffff, an all-lanes test that never holds on a 64-lane wavefront.",
   "Compare with a full mask built from warpSize, or use __all_sync for the all-lanes test."},
  {"GP-WARP-005","WARP", "Warp size (wave64)",     k_ret,  k_med,   1.00,
   "A __shared__ array of exactly 32 slots (one per warp) assumes warps of 32 lanes.",
   "Size the array from the block size and warpSize, and review the reduction that reads it back."},
  {"GP-WARP-006","WARP", "Warp size (wave64)",     k_ret,  k_high,  4.00,
   "A shuffle reduction loop starts at offset 16 (or runs up to 32), so it combines only 32 of 64 lanes.",
   "Start the loop at warpSize / 2, or at a width template parameter."},
  {"GP-WARP-007","WARP", "Warp size (wave64)",     k_ret,  k_high,  1.00,
   "warpSize is used where a constant expression is required, but it is not constexpr since ROCm 7.0.",
   "Use a compile-time warp size from the architecture macros (__GFX9__ -> 64) or a host-selected template parameter."},
  {"GP-WARP-008","WARP", "Warp size (wave64)",     k_ret,  k_high,  1.00,
   "A lane mask is built with a 32-bit shift (1 << lane), which overflows for lanes 32 to 63.",
   "Shift a 64-bit one (1ull << lane) or a lane-mask type chosen per architecture."},
  {"GP-WARP-009","WARP", "Warp size (wave64)",     k_mech, k_med,   0.50,
   "The file calls *_sync warp intrinsics, which need ROCm 7.0 (or HIP_ENABLE_WARP_SYNC_BUILTINS) and 64-bit masks on AMD.",
   "Build with ROCm 7.0 or later (or define HIP_ENABLE_WARP_SYNC_BUILTINS) and pass 64-bit masks."},
  {"GP-WARP-010","WARP", "Warp size (wave64)",     k_ret,  k_med,   1.00,
   "__activemask() is used; AMD lanes do not diverge independently, so it returns the converged 64-bit wave mask.",
   "Treat the result as a 64-bit converged mask and review algorithms that depend on partial warps."},
  {"GP-WARP-011","WARP", "Warp size (wave64)",     k_ret,  k_med,   2.00,
   "__syncwarp() is used; AMD GPUs have no independent thread scheduling and HIP headers may lack it.",
   "Drop it where lanes run in lockstep, or replace the intra-warp handshake with __syncthreads or wave intrinsics."},
  {"GP-WARP-012","WARP", "Warp size (wave64)",     k_ret,  k_med,   2.00,
   "A cooperative-groups tile of 32 threads (tiled_partition<32>, thread_block_tile<32>) assumes 32-lane warps.",
   "Use a tile of warpSize (64 on CDNA) or template the tile size."},
  {"GP-WARP-013","WARP", "Warp size (wave64)",     k_mech, k_low,   0.25,
   "__AMDGCN_WAVEFRONT_SIZE is used, a macro deprecated in recent LLVM and ROCm.",
   "Test __GFX9__/__GFX8__ for wave64, or read warpSize at run time."},
  {"GP-WARP-014","WARP", "Warp size (wave64)",     k_ret,  k_high,  0.50,
   "A full 32-lane mask (0xffffffff, ~0u, uint32_t(-1)) is passed to a *_sync warp intrinsic; AMD lane masks are 64-bit, so on a 64-lane wavefront it names only half the lanes.",
   "Pass a full mask of the wavefront's width (~0ull on wave64, a per-architecture constant) or __activemask(); keep the mask 64-bit."},
};

constexpr ComponentInfo k_components[] = {
  {"Warp size (wave64)",     "needs rework", "warpSize-templated kernels, 64-bit lane masks",                      "days per critical kernel"},
};
// clang-format on

// Per-file state, one per scan thread; reset by begin_warp (clear() keeps the vectors' memory).
struct State {
  OncePerFile sync_intrinsics;  // GP-WARP-009
  // Candidate GP-WARP-002 sites: the literal 32 and the constant's name.
  std::vector<std::pair<std::size_t, std::string_view>> warp_size_defines;
  std::vector<std::string_view> device_uses;  // warp-size constants device code names
  bool logical_warp_evidence = false;         // 64-bit masks or width-parameterised shuffles
  bool warp64_defined = false;                // a warp-size constant is also defined as 64
  std::vector<std::string_view> ballot_vars;  // 32-bit variables holding a ballot/activemask
  std::vector<std::string_view> mask32_vars;  // variables initialised with a full 32-lane mask

  void clear() {
    sync_intrinsics = {};
    warp_size_defines.clear();
    device_uses.clear();
    logical_warp_evidence = false;
    warp64_defined = false;
    ballot_vars.clear();
    mask32_vars.clear();
  }
};

thread_local State t_state;

bool contains_lower(std::string_view name, std::string_view needle) {
  if (name.size() < needle.size()) {
    return false;
  }
  for (std::size_t i = 0; i + needle.size() <= name.size(); ++i) {
    bool same = true;
    for (std::size_t k = 0; k < needle.size() && same; ++k) {
      same = std::tolower(static_cast<unsigned char>(name[i + k])) == needle[k];
    }
    if (same) {
      return true;
    }
  }
  return false;
}

// WARP_SIZE, kWarpSize, warp_size, CUDA_WARP_SIZE, THREADS_PER_WARP (not the builtin warpSize).
// A name lowercased without its underscores: WARP_SIZE, kWarpSize and warp_size read alike.
std::string folded_name(std::string_view name) {
  std::string folded;
  for (char c : name) {
    if (c != '_') {
      folded.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  return folded;
}

bool is_warp_size_name(std::string_view name) {
  if (name == "warpSize" || name.size() > 64) {
    return false;
  }
  const std::string folded = folded_name(name);
  return folded.ends_with("warpsize") || folded.ends_with("threadsperwarp") ||
         folded.ends_with("warpthreads");
}

bool is_statement_boundary(const SourceContext& ctx, std::size_t j) {
  TokenKind kind = ctx.kind(j);
  if (kind == TokenKind::DirectiveStart || kind == TokenKind::DirectiveEnd) {
    return true;
  }
  if (kind != TokenKind::Punct) {
    return false;
  }
  std::string_view p = ctx.text(j);
  return p == ";" || p == "{" || p == "}";
}

// The `(` or `[` matching the `)` or `]` at `close`, walking back at most 64 tokens.
std::size_t match_back(const SourceContext& ctx, std::size_t close) {
  const std::string_view closer = ctx.text(close);
  const std::string_view opener = closer == "]" ? "[" : "(";
  long depth = 0;
  for (std::size_t j = close + 1; j-- > 0 && j + 64 > close;) {
    if (ctx.kind(j) != TokenKind::Punct) {
      continue;
    }
    std::string_view p = ctx.text(j);
    if (p == closer) {
      ++depth;
    } else if (p == opener && --depth == 0) {
      return j;
    }
  }
  return SIZE_MAX;
}

bool is_ballot_name(std::string_view name) {
  return name == "__ballot_sync" || name == "__ballot" || name == "__activemask" ||
         name == "__match_any_sync";
}

void note_intrinsic(SourceContext& ctx, std::size_t i) {
  if (KernelFeatures* features = ctx.current_features()) {
    add_distinct(features->warp_intrinsics, ctx.text(i));
  }
}

// A ballot-like result stored in 32 bits, or counted with the 32-bit __popc/__ffs (GP-WARP-003).
void check_ballot_result(SourceContext& ctx, std::size_t i) {
  std::size_t before = prev_code(ctx, i);
  if (before == SIZE_MAX) {
    return;
  }
  if (ctx.is_punct(before, "(")) {
    std::size_t callee = prev_code(ctx, before);
    std::string_view name = ctx.text(callee);
    if (name == "__popc" || name == "__ffs" || name == "__clz" || name == "__brev") {
      ctx.add("GP-WARP-003", i, std::string(name) + "(" + std::string(ctx.text(i)) + ")");
    }
    return;
  }
  if (!ctx.is_punct(before, "=")) {
    return;
  }
  std::size_t var = prev_code(ctx, before);
  std::size_t type = prev_code(ctx, var);
  if (var == SIZE_MAX || type == SIZE_MAX || ctx.kind(var) != TokenKind::Identifier) {
    return;
  }
  std::string_view t = ctx.text(type);
  std::string_view t2 = ctx.text(prev_code(ctx, type));
  bool wide = t == "uint64_t" || t == "int64_t" || t == "long" || t2 == "long" ||
              t == "lane_mask_t" || t == "size_t";
  bool narrow = !wide && (t == "unsigned" || t == "int" || t == "uint32_t" || t == "uint" ||
                          t == "int32_t" || t == "unsigned_int");
  State& state = t_state;
  if (wide) {
    state.logical_warp_evidence = true;
  } else if (narrow) {
    if (state.ballot_vars.size() < 64) {
      state.ballot_vars.push_back(ctx.text(var));
    }
    ctx.add("GP-WARP-003", type,
            std::string(t) + " " + std::string(ctx.text(var)) + " = " + std::string(ctx.text(i)));
  }
}

// A full 32-lane mask written out: 0xffffffff (any suffix: 0xffffffffull still names lanes 0-31),
// ~0u, (unsigned)-1, uint32_t(-1), static_cast<uint32_t>(-1), UINT32_MAX. `text` has no blanks.
bool is_full_mask32_text(std::string_view text) {
  while (text.size() >= 2 && text.front() == '(' && text.back() == ')') {
    text = text.substr(1, text.size() - 2);
  }
  if (text.starts_with("std::")) {
    text.remove_prefix(5);
  }
  if (text == "UINT32_MAX" || text == "UINT_MAX" || text == "numeric_limits<uint32_t>::max()" ||
      text == "numeric_limits<unsigned>::max()" || text == "numeric_limits<unsignedint>::max()") {
    return true;
  }
  if (text.starts_with("~")) {
    // ~0u is 32 bits; ~0 (an int, sign-extended) and ~0ull are full 64-bit masks.
    const std::string_view literal = text.substr(1);
    const bool unsigned32 = literal.find_first_of("uU") != std::string_view::npos &&
                            literal.find_first_of("lL") == std::string_view::npos;
    return unsigned32 && integer_value(literal) == 0u;
  }
  for (std::string_view type : {"unsigned", "unsignedint", "uint32_t", "uint"}) {
    for (std::string_view form : {"(T)-1", "T(-1)", "static_cast<T>(-1)"}) {
      const std::size_t at = form.find('T');
      if (text.size() == form.size() - 1 + type.size() && text.starts_with(form.substr(0, at)) &&
          text.substr(at, type.size()) == type &&
          text.substr(at + type.size()) == form.substr(at + 1)) {
        return true;
      }
    }
  }
  return integer_value(text) == 0xffffffffu;
}

// The tokens [begin, end) joined without blanks (at most a few tokens: a mask expression).
std::string joined(const SourceContext& ctx, std::size_t begin, std::size_t end) {
  std::string text;
  for (std::size_t j = begin; j < end && j < begin + 12; ++j) {
    if (ctx.kind(j) != TokenKind::Comment) {
      text += ctx.text(j);
    }
  }
  return text;
}

// Whether the mask argument [begin, end) is a full 32-lane mask: written out, a variable of the
// file initialised with one, or a macro whose AMD-build definition is one (the project's headers
// are followed).
bool is_full_mask32(const SourceContext& ctx, std::size_t begin, std::size_t end) {
  if (end == begin + 1 && ctx.kind(begin) == TokenKind::Identifier) {
    const std::string_view name = ctx.text(begin);
    const std::vector<std::string_view>& vars = t_state.mask32_vars;
    if (std::find(vars.begin(), vars.end(), name) != vars.end()) {
      return true;
    }
    if (const MacroDefinition* macro = amd_definition_at_end(ctx.ts, name);
        macro != nullptr && !macro->function_like) {
      std::string body;
      for (char c : macro->body) {
        if (c != ' ' && c != '\t') {
          body += c;
        }
      }
      return is_full_mask32_text(body);
    }
  }
  return is_full_mask32_text(joined(ctx, begin, end));
}

// `const unsigned FULL_MASK = 0xffffffff;`: remembered for the calls that pass FULL_MASK.
void check_mask_variable(SourceContext& ctx, std::size_t i) {
  const std::size_t before = prev_code(ctx, i);
  if (!ctx.is_punct(before, "=")) {
    return;
  }
  const std::size_t name = prev_code(ctx, before);
  const std::size_t type = prev_code(ctx, name);
  if (ctx.kind(name) != TokenKind::Identifier || ctx.kind(type) != TokenKind::Identifier ||
      t_state.mask32_vars.size() >= 64) {
    return;
  }
  const std::size_t after = next_code(ctx, i);
  if (ctx.is_punct(after, ";") || ctx.is_punct(after, ",")) {
    t_state.mask32_vars.push_back(ctx.text(name));
  }
}

// A *_sync call given a full 32-lane mask (GP-WARP-014), unless the AMD build sees the intrinsic
// as a macro of the project's shim (which then decides what the mask means there).
void check_sync_mask(SourceContext& ctx, std::size_t i) {
  const MacroDefinition* shim = amd_definition_at_end(ctx.ts, ctx.text(i));
  if (shim != nullptr && shim->function_like) {
    return;
  }
  const auto args = call_arguments(ctx, next_code(ctx, i));
  if (args.size() < 2 || !is_full_mask32(ctx, args[0].first, args[0].second)) {
    return;
  }
  ctx.add("GP-WARP-014", args[0].first,
          std::string(ctx.text(i)) + "(" + joined(ctx, args[0].first, args[0].second) + ", ...)");
}

void on_sync_intrinsic(SourceContext& ctx, std::size_t i, std::string_view) {
  note_intrinsic(ctx, i);
  if (!is_call(ctx, i)) {
    return;
  }
  check_sync_mask(ctx, i);
  State& state = t_state;
  if (ctx.tok[i].context != BranchContext::Hip) {
    state.sync_intrinsics.note(i);
  }
  std::string_view name = ctx.text(i);
  if (name.starts_with("__shfl")) {
    auto args = call_arguments(ctx, next_code(ctx, i));
    if (args.size() == 4) {
      state.logical_warp_evidence = true;  // explicit width: a logical warp (ggml pattern)
    }
  }
  if (is_ballot_name(name)) {
    check_ballot_result(ctx, i);
  }
}

void on_legacy_intrinsic(SourceContext& ctx, std::size_t i, std::string_view) {
  note_intrinsic(ctx, i);
  if (ctx.text(i) == "__ballot" && is_call(ctx, i)) {
    check_ballot_result(ctx, i);
  }
}

void on_activemask(SourceContext& ctx, std::size_t i, std::string_view) {
  note_intrinsic(ctx, i);
  if (!is_call(ctx, i)) {
    return;
  }
  ctx.add("GP-WARP-010", i, "__activemask");
  check_ballot_result(ctx, i);
}

void on_syncwarp(SourceContext& ctx, std::size_t i, std::string_view) {
  note_intrinsic(ctx, i);
  if (is_call(ctx, i)) {
    ctx.add("GP-WARP-011", i, "__syncwarp");
  }
}

void on_tile(SourceContext& ctx, std::size_t i, std::string_view) {
  if (KernelFeatures* features = ctx.current_features()) {
    features->cooperative_groups = true;
  }
  std::size_t open = next_code(ctx, i);
  if (ctx.is_punct(open, "<")) {
    std::size_t value = next_code(ctx, open);
    if (ctx.kind(value) == TokenKind::Number && integer_value(ctx.text(value)) == 32u &&
        ctx.is_punct(next_code(ctx, value), ">")) {
      ctx.add("GP-WARP-012", i, std::string(ctx.text(i)) + "<32>");
    }
    return;
  }
  if (ctx.text(i) == "tiled_partition" && ctx.is_punct(open, "(")) {
    auto args = call_arguments(ctx, open);
    if (args.size() == 2 && args[1].second == args[1].first + 1 &&
        integer_value(ctx.text(args[1].first)) == 32u) {
      ctx.add("GP-WARP-012", i, "tiled_partition(..., 32)");
    }
  }
}

// warpSize where a constant expression is required (GP-WARP-007).
void on_warp_size_builtin(SourceContext& ctx, std::size_t i, std::string_view) {
  std::size_t before = prev_code(ctx, i);
  std::size_t after = next_code(ctx, i);
  if (ctx.is_punct(before, "<") && (ctx.is_punct(after, ">") || ctx.is_punct(after, ","))) {
    std::size_t owner = prev_code(ctx, before);
    if (ctx.kind(owner) == TokenKind::Identifier) {
      ctx.add("GP-WARP-007", i, "template argument");
      return;
    }
  }
  if (ctx.is_punct(before, "[")) {
    std::size_t name = prev_code(ctx, before);
    std::size_t type = prev_code(ctx, name);
    if (ctx.kind(name) == TokenKind::Identifier && ctx.kind(type) == TokenKind::Identifier &&
        ctx.text(type) != "return" && ctx.text(type) != "case") {
      ctx.add("GP-WARP-007", i, "array bound");
      return;
    }
  }
  std::size_t j = i;
  for (int steps = 0; steps < 24; ++steps) {
    j = prev_code(ctx, j);
    if (j == SIZE_MAX || is_statement_boundary(ctx, j)) {
      return;
    }
    std::string_view word = ctx.text(j);
    if (ctx.kind(j) == TokenKind::Identifier &&
        (word == "constexpr" || word == "static_assert" || word == "__launch_bounds__" ||
         word == "alignas" || word == "__shared__")) {
      ctx.add("GP-WARP-007", i, std::string(word));
      return;
    }
  }
}

void on_wavefront_macro(SourceContext& ctx, std::size_t i, std::string_view) {
  ctx.add("GP-WARP-013", i, std::string(ctx.text(i)));
}

// Shuffle reduction loops written for 32 lanes (GP-WARP-006).
void on_for(SourceContext& ctx, std::size_t i, std::string_view) {
  std::size_t open = next_code(ctx, i);
  if (!ctx.is_punct(open, "(")) {
    return;
  }
  std::size_t close = match_forward(ctx, open, 64);
  if (close == SIZE_MAX) {
    return;
  }
  bool from16 = false;
  bool to32 = false;
  bool halves = false;
  bool doubles = false;
  for (std::size_t j = open + 1; j < close; ++j) {
    if (ctx.kind(j) == TokenKind::Number) {
      auto value = integer_value(ctx.text(j));
      std::string_view op = ctx.text(prev_code(ctx, j));
      if (value == 16u && op == "=") {
        from16 = true;
      } else if (value == 32u && (op == "<" || op == "<=")) {
        to32 = true;
      } else if ((value == 1u && op == ">>=") || (value == 2u && op == "/=")) {
        halves = true;
      } else if ((value == 1u && op == "<<=") || (value == 2u && op == "*=")) {
        doubles = true;
      }
    }
  }
  if (!((from16 && halves) || (to32 && doubles))) {
    return;
  }
  for (std::size_t j = close + 1; j < ctx.size() && j < close + 96; ++j) {
    if (ctx.kind(j) == TokenKind::Identifier && ctx.text(j).starts_with("__shfl")) {
      ctx.add("GP-WARP-006", i, from16 ? "offset 16 down to 1" : "offset up to 32");
      return;
    }
  }
}

// A name that is a thread, lane or warp index by itself: threadIdx and blockDim (the block's
// thread count: `blockDim.x / 32` counts warps), lane names, the usual thread and warp index
// names. Other names count only when assigned from one (lane_derived).
bool is_lane_index_name(std::string_view name) {
  if (name == "threadIdx" || name == "blockDim" || name == "__lane_id" ||
      contains_lower(name, "lane")) {
    return true;
  }
  const std::string folded = folded_name(name.substr(0, 32));
  if (folded.find("warp") != std::string::npos) {
    return folded.ends_with("id") || folded.ends_with("idx") || folded.ends_with("index") ||
           folded == "warp";
  }
  // A block's thread count divided by 32 counts its warps: `threads / 32`, like blockDim.
  for (std::string_view index :
       {"tid", "tidx", "tidy", "tidz", "ltid", "localtid", "threadid", "threadidx", "threadindex",
        "wid", "lid", "localid", "threads", "nthreads", "numthreads", "threadsperblock",
        "blockthreads", "threadcount", "blocksize"}) {
    if (folded == index) {
      return true;
    }
  }
  return false;
}

bool is_operand_stop(const SourceContext& ctx, std::size_t j, std::string_view op) {
  if (is_statement_boundary(ctx, j) || ctx.kind(j) == TokenKind::DirectiveStart) {
    return true;
  }
  if (ctx.kind(j) == TokenKind::Identifier) {
    return ctx.text(j) == "return" || ctx.text(j) == "case";
  }
  if (ctx.kind(j) != TokenKind::Punct) {
    return false;
  }
  const std::string_view p = ctx.text(j);
  if (p == "=" || p == "," || p == "?" || p == ":" || p == "&&" || p == "||" || p == "==" ||
      p == "!=" || p == "<" || p == ">" || p == "<=" || p == ">=" || p == "+=" || p == "-=" ||
      p == "*=" || p == "/=" || p == "%=" || p == "&=" || p == "|=" || p == "[" || p == "(") {
    return true;
  }
  // Operators that bind looser than `op`: they end its left operand.
  if (op == "/" || op == "%") {
    return p == "+" || p == "-" || p == "<<" || p == ">>" || p == "&" || p == "|" || p == "^";
  }
  if (op == ">>") {
    return p == "&" || p == "|" || p == "^";
  }
  return p == "|" || p == "^";  // op == "&"
}

// The first token of the left operand of the operator at `op` (the expression it applies to,
// by C++ precedence), on the operator's line.
std::size_t left_operand_start(const SourceContext& ctx, std::size_t op) {
  std::size_t start = op;
  std::size_t j = prev_code(ctx, op);
  for (int steps = 0; steps < 24 && j != SIZE_MAX && ctx.tok[j].line == ctx.tok[op].line; ++steps) {
    if (ctx.is_punct(j, ")") || ctx.is_punct(j, "]")) {  // `(a + b)`, `x[i]`: the whole group
      const std::size_t open = match_back(ctx, j);
      if (open == SIZE_MAX) {
        break;
      }
      start = open;
      j = prev_code(ctx, open);
      continue;
    }
    if (is_operand_stop(ctx, j, ctx.text(op))) {
      break;
    }
    start = j;
    j = prev_code(ctx, j);
  }
  return start;
}

bool lane_derived(const SourceContext& ctx, std::size_t at, std::string_view name, int depth);

// Whether tokens [begin, end) name a lane index, or a variable assigned from one. Subscripts and
// call arguments are skipped (`x[tid]` and `load(p, tid)` are data, not indices), and an
// expression with blockIdx or gridDim is a global element index, not a lane's.
bool mentions_lane_index(const SourceContext& ctx, std::size_t begin, std::size_t end, int depth) {
  bool lane = false;
  for (std::size_t j = begin; j < end; ++j) {
    if (ctx.is_punct(j, "[")) {
      const std::size_t close = match_forward(ctx, j, 256);
      if (close == SIZE_MAX || close >= end) {
        return false;
      }
      j = close;
      continue;
    }
    if (ctx.kind(j) != TokenKind::Identifier) {
      continue;
    }
    // A member (`threadIdx.x`, `p.lane`) is the object's: skip names after '.' or '->'.
    const std::size_t before = prev_code(ctx, j);
    if (before != SIZE_MAX && before >= begin &&
        (ctx.is_punct(before, ".") || ctx.is_punct(before, "->"))) {
      continue;
    }
    const std::string_view name = ctx.text(j);
    if (name == "blockIdx" || name == "gridDim") {
      return false;
    }
    const std::size_t after = next_code(ctx, j);
    const bool call = ctx.is_punct(after, "(") && !is_lane_index_name(name);
    if (!lane && !call &&
        (is_lane_index_name(name) || (depth < 2 && lane_derived(ctx, j, name, depth + 1)))) {
      lane = true;
    }
    if (call) {
      const std::size_t close = match_forward(ctx, after, 256);
      if (close == SIZE_MAX || close >= end) {
        return lane;
      }
      j = close;
    }
  }
  return lane;
}

// Whether the variable `name` used at token `at` was last assigned (within the few thousand
// tokens before) from a lane index: `int row = threadIdx.x + 4 * i;`.
bool lane_derived(const SourceContext& ctx, std::size_t at, std::string_view name, int depth) {
  for (std::size_t j = at; j-- > 0 && j + 4000 > at;) {
    if (ctx.kind(j) != TokenKind::Identifier || ctx.text(j) != name) {
      continue;
    }
    const std::size_t eq = next_code(ctx, j);
    if (!ctx.is_punct(eq, "=")) {
      continue;
    }
    std::size_t end = eq + 1;
    while (end < ctx.size() && end < eq + 64 && !is_statement_boundary(ctx, end)) {
      ++end;
    }
    // A value loaded or computed by a call (`get_int_b2(q, i) >> (4 * lane)`, `x[tid]`) is
    // data, whatever index or shift went into it.
    const std::size_t first = next_code(ctx, eq);
    const std::size_t after = next_code(ctx, first);
    if (ctx.kind(first) == TokenKind::Identifier && !is_lane_index_name(ctx.text(first)) &&
        (ctx.is_punct(after, "(") || ctx.is_punct(after, "["))) {
      return false;
    }
    return mentions_lane_index(ctx, eq + 1, end, depth);
  }
  return false;
}

// `x % 32`, `x / 32`, `x & 31`, `x >> 5`: lane or warp-index math when x is a lane index or
// derives from one (GP-WARP-001). Sizes, hashes, block-quantisation and pixel indices are not.
void check_lane_math(SourceContext& ctx, std::size_t i, std::size_t op) {
  const std::size_t start = left_operand_start(ctx, op);
  if (start >= op || !mentions_lane_index(ctx, start, op, 0)) {
    return;
  }
  ctx.add_once_per_line(k_slot_lane_math, "GP-WARP-001", op,
                        std::string(ctx.text(op)) + " " + std::string(ctx.text(i)));
}

void check_warp_size_constant(SourceContext& ctx, std::size_t i, std::uint64_t value) {
  std::size_t before = prev_code(ctx, i);
  if (ctx.is_punct(before, "(") && ctx.is_punct(next_code(ctx, i), ")")) {
    before = prev_code(ctx, before);
  }
  std::size_t name = SIZE_MAX;
  if (ctx.is_punct(before, "=")) {
    name = prev_code(ctx, before);
  } else if (ctx.kind(before) == TokenKind::Identifier &&
             ctx.kind(prev_code(ctx, before)) == TokenKind::DirectiveStart &&
             ctx.text(prev_code(ctx, before)).ends_with("define")) {
    name = before;
  }
  if (name == SIZE_MAX || ctx.kind(name) != TokenKind::Identifier ||
      !is_warp_size_name(ctx.text(name))) {
    return;
  }
  if (value == 64) {
    t_state.warp64_defined = true;
  } else if (ctx.tok[i].context == BranchContext::Neutral) {
    t_state.warp_size_defines.emplace_back(i, ctx.text(name));
  }
}

// `1 << lane`: a 32-bit lane mask (GP-WARP-008).
void check_lane_shift(SourceContext& ctx, std::size_t i) {
  std::string_view literal = ctx.text(i);
  if (literal.find_first_of("lL") != std::string_view::npos) {
    return;
  }
  std::size_t shift = next_code(ctx, i);
  if (!ctx.is_punct(shift, "<<")) {
    return;
  }
  std::size_t j = shift;
  for (int steps = 0; steps < 6; ++steps) {
    j = next_code(ctx, j);
    if (j >= ctx.size() || is_statement_boundary(ctx, j) || ctx.is_punct(j, ",")) {
      return;
    }
    if (ctx.kind(j) == TokenKind::Identifier &&
        (ctx.text(j) == "threadIdx" || contains_lower(ctx.text(j), "lane"))) {
      ctx.add("GP-WARP-008", i, std::string(literal) + " << " + std::string(ctx.text(j)));
      return;
    }
  }
}

bool is_ballot_value(const SourceContext& ctx, std::size_t j) {
  if (ctx.kind(j) == TokenKind::Identifier) {
    const std::vector<std::string_view>& ballot_vars = t_state.ballot_vars;
    return std::find(ballot_vars.begin(), ballot_vars.end(), ctx.text(j)) != ballot_vars.end();
  }
  if (ctx.is_punct(j, ")")) {
    std::size_t open = match_back(ctx, j);
    return open != SIZE_MAX && is_ballot_name(ctx.text(prev_code(ctx, open)));
  }
  return false;
}

// `ballot == 0xffffffff`: an all-lanes test that never holds on wave64 (GP-WARP-004).
void check_full_mask(SourceContext& ctx, std::size_t i) {
  std::size_t before = prev_code(ctx, i);
  if (ctx.is_punct(before, "==") || ctx.is_punct(before, "!=")) {
    if (is_ballot_value(ctx, prev_code(ctx, before))) {
      ctx.add("GP-WARP-004", i, std::string(ctx.text(i)));
    }
    return;
  }
  std::size_t after = next_code(ctx, i);
  if (ctx.is_punct(after, "==") || ctx.is_punct(after, "!=")) {
    std::size_t other = next_code(ctx, after);
    bool ballot = ctx.kind(other) == TokenKind::Identifier &&
                  (is_ballot_name(ctx.text(other)) || is_ballot_value(ctx, other));
    if (ballot) {
      ctx.add("GP-WARP-004", i, std::string(ctx.text(i)));
    }
  }
}

void begin_warp(SourceContext&) {
  t_state.clear();
}

void finish_warp(SourceContext& ctx) {
  const State& state = t_state;
  if (!state.logical_warp_evidence && !state.warp64_defined) {
    for (const auto& [i, name] : state.warp_size_defines) {
      ctx.add("GP-WARP-002", i, "warp size fixed at 32");
      const auto& uses = state.device_uses;
      if (std::find(uses.begin(), uses.end(), name) == uses.end()) {
        // Kept only if device code of a file that includes this one uses it (the scan decides
        // once every file is read).
        ctx.out.unused_warp_size_defines.emplace_back(ctx.tok[i].line, std::string(name));
      }
    }
  }
  for (std::string_view name : state.device_uses) {
    ctx.out.device_warp_size_names.emplace_back(name);
  }
  if (state.sync_intrinsics.count > 0) {
    ctx.add("GP-WARP-009", state.sync_intrinsics.first,
            std::to_string(state.sync_intrinsics.count) + " *_sync warp intrinsic calls");
  }
}

void register_warp(HandlerTable& table) {
  for (std::string_view name :
       {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
        "__any_sync", "__all_sync", "__uni_sync", "__match_any_sync", "__match_all_sync",
        "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
        "__reduce_or_sync", "__reduce_xor_sync"}) {
    table.add(name, on_sync_intrinsic);
  }
  for (std::string_view name :
       {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__ballot", "__any", "__all"}) {
    table.add(name, on_legacy_intrinsic);
  }
  table.add("__activemask", on_activemask);
  table.add("__syncwarp", on_syncwarp);
  table.add("tiled_partition", on_tile);
  table.add("thread_block_tile", on_tile);
  table.add("warpSize", on_warp_size_builtin);
  table.add("__AMDGCN_WAVEFRONT_SIZE", on_wavefront_macro);
  table.add("__AMDGCN_WAVEFRONT_SIZE__", on_wavefront_macro);
  table.add("for", on_for);
}

constexpr SourceFamily k_family = {
    .name = "WARP",
    .rules = k_rules,
    .components = k_components,
    .register_handlers = register_warp,
    .begin = begin_warp,
    .finish = finish_warp,
};

}  // namespace

void note_warp_size_use(SourceContext&, std::size_t, std::string_view name) {
  // Cheap before is_warp_size_name, which folds the name: every identifier of device code
  // passes here. A warp-size name ends in "size", "warp" or "threads" (any case).
  if (name.size() < 8 || name.size() > 64) {
    return;
  }
  const char last = static_cast<char>(name.back() | 0x20);
  if (last != 'e' && last != 'p' && last != 's') {
    return;
  }
  std::vector<std::string_view>& uses = t_state.device_uses;
  if (uses.size() < 16 && std::find(uses.begin(), uses.end(), name) == uses.end() &&
      is_warp_size_name(name)) {
    uses.push_back(name);
  }
}

void on_warp_number(SourceContext& ctx, std::size_t i, std::uint64_t value) {
  std::size_t before = prev_code(ctx, i);
  std::string_view op = before == SIZE_MAX ? std::string_view{} : ctx.text(before);
  switch (value) {
    case 32:
      if (op == "%" || op == "/") {
        check_lane_math(ctx, i, before);
      }
      check_warp_size_constant(ctx, i, value);
      break;
    case 64:
      check_warp_size_constant(ctx, i, value);
      break;
    case 31:
      if (op == "&") {
        check_lane_math(ctx, i, before);
      }
      break;
    case 5:
      if (op == ">>") {
        check_lane_math(ctx, i, before);
      }
      break;
    case 1:
      check_lane_shift(ctx, i);
      break;
    case 0xffffffffu:
      check_full_mask(ctx, i);
      check_mask_variable(ctx, i);
      break;
    default:
      break;
  }
}

const SourceFamily& warp_family() {
  return k_family;
}

}  // namespace gpuport::source_rules
