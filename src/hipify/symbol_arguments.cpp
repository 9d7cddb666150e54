// HIP_SYMBOL(...) wrapping for the symbol APIs.
#include "hipify/symbol_arguments.h"

#include "hipify/value_types.h"

#include <array>
#include <utility>

namespace gpuport {

namespace {

using ArgumentOf = std::pair<std::string_view, std::size_t>;

template <std::size_t N>
std::optional<std::size_t> argument_in(const std::array<ArgumentOf, N>& calls,
                                       std::string_view cuda_name) {
  for (const auto& [name, argument] : calls) {
    if (name == cuda_name) {
      return argument;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::size_t> symbol_argument_of(std::string_view cuda_name) {
  // The graph memcpy-node calls take the symbol as HIP declares them (hip_runtime_api.h).
  static constexpr std::array<ArgumentOf, 12> k_calls{{
      {"cudaMemcpyToSymbol", 0},
      {"cudaMemcpyToSymbolAsync", 0},
      {"cudaMemcpyFromSymbol", 1},
      {"cudaMemcpyFromSymbolAsync", 1},
      {"cudaGetSymbolAddress", 1},
      {"cudaGetSymbolSize", 1},
      {"cudaGraphAddMemcpyNodeToSymbol", 4},
      {"cudaGraphAddMemcpyNodeFromSymbol", 5},
      {"cudaGraphMemcpyNodeSetParamsToSymbol", 1},
      {"cudaGraphMemcpyNodeSetParamsFromSymbol", 2},
      {"cudaGraphExecMemcpyNodeSetParamsToSymbol", 2},
      {"cudaGraphExecMemcpyNodeSetParamsFromSymbol", 3},
  }};
  return argument_in(k_calls, cuda_name);
}

std::optional<std::size_t> kernel_argument_of(std::string_view cuda_name) {
  static constexpr std::array<ArgumentOf, 5> k_calls{{
      {"cudaFuncGetAttributes", 1},
      {"cudaFuncSetAttribute", 0},
      {"cudaFuncSetCacheConfig", 0},
      {"cudaFuncSetSharedMemConfig", 0},
      {"cudaLaunchKernel", 0},
  }};
  return argument_in(k_calls, cuda_name);
}

std::optional<DroppedArgument> dropped_argument_of(std::string_view cuda_name) {
  constexpr std::string_view k_callback =
      "HIP's form takes no block-size-to-shared-memory callback: pass the shared memory size "
      "instead and drop the callback";
  constexpr std::string_view k_edge_data =
      "HIP's form takes no edge data (CUDA 12.3's cudaGraphEdgeData): only default edges can "
      "be ported; drop the argument";
  static constexpr std::array<std::pair<std::string_view, DroppedArgument>, 8> k_calls{{
      {"cuOccupancyMaxPotentialBlockSize", {3, k_callback}},
      {"cuOccupancyMaxPotentialBlockSizeWithFlags", {3, k_callback}},
      {"cudaGraphAddDependencies", {3, k_edge_data}},
      {"cudaGraphAddNode", {3, k_edge_data}},
      {"cudaGraphGetEdges", {3, k_edge_data}},
      {"cudaGraphNodeGetDependencies", {2, k_edge_data}},
      {"cudaGraphNodeGetDependentNodes", {2, k_edge_data}},
      {"cudaGraphRemoveDependencies", {3, k_edge_data}},
  }};
  for (const auto& [name, dropped] : k_calls) {
    if (name == cuda_name) {
      return dropped;
    }
  }
  return std::nullopt;
}

namespace {

bool is_cast(std::string_view name) {
  return name == "static_cast" || name == "reinterpret_cast" || name == "const_cast" ||
         name == "dynamic_cast";
}

// After `xxx_cast` at `i`: the index of the '>' closing its `<...>` when no comma sits inside
// (so the comma split was right), else k_no_token.
std::size_t cast_close(const TokenStream& ts, std::size_t i, std::size_t last) {
  if (!is_punct(ts, i + 1, "<")) {
    return k_no_token;
  }
  int depth = 0;
  for (std::size_t j = i + 1; j <= last; ++j) {
    if (ts.tokens[j].kind != TokenKind::Punct) {
      continue;
    }
    std::string_view text = ts.text(ts.tokens[j]);
    if (text == "<") {
      ++depth;
    } else if (text == ">" || text == ">>") {
      depth -= text == ">" ? 1 : 2;
      if (depth <= 0) {
        return depth == 0 ? j : k_no_token;
      }
    } else if (text == "," || text == ";" || text == "#" || text == "##") {
      return k_no_token;
    }
  }
  return k_no_token;
}

void drop_null_argument(FileTranslation& ft, const BracketMatch& match, const SymbolCall& call,
                        std::size_t open, std::size_t close) {
  const TokenStream& ts = ft.ts;
  std::vector<TokenRange> parts = split_top_level(ts, match, open, close, call.argument + 2);
  if (parts.size() <= call.argument || parts[call.argument].empty() || call.argument == 0 ||
      !boundaries_certain(ts, open + 1, parts[call.argument].last)) {
    return;
  }
  const TokenRange& argument = parts[call.argument];
  if (is_null_argument(ts, argument)) {
    // ", NULL": from the end of the argument before to the end of this one.
    ft.edits.replace(end_of(ts.tokens[parts[call.argument - 1].last]),
                     end_of(ts.tokens[argument.last]), "");
    ++ft.stats.arguments_dropped;
    return;
  }
  const std::optional<DroppedArgument> dropped =
      dropped_argument_of(ts.text(ts.tokens[call.token]));
  ft.review(call.token, call.family, Lifecycle::Current,
            dropped ? dropped->why_kept : std::string_view{});
}

}  // namespace

// Whether the comma split of tokens [first, last] can be trusted: no `<` or `>` that may be
// template brackets around a comma (a cast's brackets are checked), no # or ##, no directive.
bool boundaries_certain(const TokenStream& ts, std::size_t first, std::size_t last) {
  for (std::size_t i = first; i <= last; ++i) {
    const Token& token = ts.tokens[i];
    if (token.kind == TokenKind::DirectiveStart) {
      return false;
    }
    if (token.kind == TokenKind::Identifier && is_cast(ts.text(token))) {
      std::size_t close = cast_close(ts, i, last);
      if (close == k_no_token) {
        return false;
      }
      i = close;
      continue;
    }
    if (token.kind != TokenKind::Punct) {
      continue;
    }
    std::string_view text = ts.text(token);
    if (text == "<" || text == ">" || text == "<<" || text == ">>" || text == "#" || text == "##") {
      return false;
    }
  }
  return true;
}

bool is_null_argument(const TokenStream& ts, const TokenRange& part) {
  if (part.first != part.last) {
    return false;
  }
  std::string_view text = ts.text(ts.tokens[part.first]);
  return text == "NULL" || text == "nullptr" || text == "0";
}

void wrap_symbol_arguments(FileTranslation& ft, const BracketMatch& match) {
  const TokenStream& ts = ft.ts;
  for (const SymbolCall& call : ft.symbol_calls) {
    std::size_t open = next_code(ts, call.token);
    if (!is_punct(ts, open, "(")) {
      continue;
    }
    std::size_t close = match.closing(open);
    if (close == k_no_token) {
      continue;
    }
    if (call.wrap == ArgumentWrap::DropNull) {
      drop_null_argument(ft, match, call, open, close);
      continue;
    }
    if (call.wrap == ArgumentWrap::RocValueTypes) {
      cast_roc_arguments(ft, match, call, open, close);
      continue;
    }
    std::vector<TokenRange> parts = split_top_level(ts, match, open, close, call.argument + 1);
    if (parts.size() <= call.argument || parts[call.argument].empty()) {
      continue;
    }
    const TokenRange& symbol = parts[call.argument];
    const bool kernel = call.wrap == ArgumentWrap::KernelPointer;
    if (is_identifier(ts, symbol.first, "HIP_SYMBOL")) {
      continue;  // already translated
    }
    // A kernel argument already cast, C++ or C style (`(const void*)k`, `(void*)&k`), is left,
    // and so is a null one (reinterpret_cast cannot take nullptr).
    if (kernel && (is_punct(ts, symbol.first, "(") || is_null_argument(ts, symbol) ||
                   (ts.tokens[symbol.first].kind == TokenKind::Identifier &&
                    is_cast(ts.text(ts.tokens[symbol.first]))))) {
      continue;
    }
    if (!boundaries_certain(ts, open + 1, symbol.last)) {
      continue;
    }
    ft.edits.insert(ts.tokens[symbol.first].offset,
                    kernel ? "reinterpret_cast<const void*>(" : "HIP_SYMBOL(");
    ft.edits.insert(end_of(ts.tokens[symbol.last]), ")");
    ++(kernel ? ft.stats.kernel_arguments_cast : ft.stats.symbol_arguments_wrapped);
  }
}

}  // namespace gpuport
