// Warp/wavefront rules (GP-WARP-*): code that assumes 32 lanes or 32-bit lane masks.
#include <algorithm>
#include <cctype>
#include <string>

#include "scan/inventory.h"
#include "scan/rules/source_rules.h"

namespace gpuport::source_rules {

namespace {

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
bool is_warp_size_name(std::string_view name) {
  if (name == "warpSize" || name.size() > 64) {
    return false;
  }
  std::string folded;
  for (char c : name) {
    if (c != '_') {
      folded.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  return folded.ends_with("warpsize") || folded.ends_with("threadsperwarp") ||
         folded.ends_with("warpthreads");
}

bool is_lane_name(std::string_view name) {
  return name == "threadIdx" || name == "blockDim" || contains_lower(name, "lane") ||
         contains_lower(name, "tid") || contains_lower(name, "thread") ||
         contains_lower(name, "warp");
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

// The `(` matching the `)` at `close`, walking back at most 64 tokens.
std::size_t match_back_paren(const SourceContext& ctx, std::size_t close) {
  long depth = 0;
  for (std::size_t j = close + 1; j-- > 0 && j + 64 > close;) {
    if (ctx.kind(j) != TokenKind::Punct) {
      continue;
    }
    std::string_view p = ctx.text(j);
    if (p == ")") {
      ++depth;
    } else if (p == "(" && --depth == 0) {
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
  if (wide) {
    ctx.logical_warp_evidence = true;
  } else if (narrow) {
    if (ctx.ballot_vars.size() < 64) {
      ctx.ballot_vars.push_back(ctx.text(var));
    }
    ctx.add("GP-WARP-003", type,
            std::string(t) + " " + std::string(ctx.text(var)) + " = " + std::string(ctx.text(i)));
  }
}

void on_sync_intrinsic(SourceContext& ctx, std::size_t i, std::string_view) {
  note_intrinsic(ctx, i);
  if (!is_call(ctx, i)) {
    return;
  }
  if (ctx.tok[i].context != BranchContext::Hip) {
    ctx.sync_intrinsics.note(i);
  }
  std::string_view name = ctx.text(i);
  if (name.starts_with("__shfl")) {
    auto args = call_arguments(ctx, next_code(ctx, i));
    if (args.size() == 4) {
      ctx.logical_warp_evidence = true;  // explicit width: a logical warp (ggml pattern)
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

void check_lane_math(SourceContext& ctx, std::size_t i, std::size_t op) {
  std::size_t j = op;
  for (int steps = 0; steps < 10; ++steps) {
    j = prev_code(ctx, j);
    if (j == SIZE_MAX || is_statement_boundary(ctx, j) || ctx.tok[j].line != ctx.tok[i].line) {
      return;
    }
    if (ctx.kind(j) == TokenKind::Identifier && is_lane_name(ctx.text(j))) {
      ctx.add_once_per_line(k_slot_lane_math, "GP-WARP-001", op,
                            std::string(ctx.text(op)) + " " + std::string(ctx.text(i)));
      return;
    }
  }
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
    ctx.warp64_defined = true;
  } else if (ctx.tok[i].context == BranchContext::Neutral) {
    ctx.warp_size_defines.push_back(i);
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
    std::string_view name = ctx.text(j);
    return std::find(ctx.ballot_vars.begin(), ctx.ballot_vars.end(), name) != ctx.ballot_vars.end();
  }
  if (ctx.is_punct(j, ")")) {
    std::size_t open = match_back_paren(ctx, j);
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

}  // namespace

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
      break;
    default:
      break;
  }
}

void finish_warp(SourceContext& ctx) {
  if (!ctx.logical_warp_evidence && !ctx.warp64_defined) {
    for (std::size_t i : ctx.warp_size_defines) {
      ctx.add("GP-WARP-002", i, "warp size fixed at 32");
    }
  }
  if (ctx.sync_intrinsics.count > 0) {
    ctx.add("GP-WARP-009", ctx.sync_intrinsics.first,
            std::to_string(ctx.sync_intrinsics.count) + " *_sync warp intrinsic calls");
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

}  // namespace gpuport::source_rules
