// Subcommand table and typo suggestions, in the style of ninja's tool table.
#include "cli/command_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "cli/audit_command.h"
#include "cli/bench_command.h"
#include "cli/compare_command.h"
#include "cli/hipify_command.h"
#include "cli/profile_command.h"
#include "cli/rules_command.h"
#include "cli/scan_command.h"

namespace gpuport {

namespace {

// clang-format off
constexpr std::array<Command, 7> k_commands = {{
    {"scan",    "Scan a source tree: portability table, custom-CUDA inventory, findings", run_scan_command},
    {"hipify",  "Translate CUDA sources to HIP: a mirrored tree, in place, or a diff; --verify with hipcc", run_hipify_command},
    {"profile", "Read a profiler trace: kernel table by time share, class and owner, steps and p95", run_profile_command},
    {"compare", "Compare two traces of one workload (NVIDIA vs AMD): time per class and kernel, B/A", run_compare_command},
    {"audit",   "Decide a move to AMD: verdict, effort range, cost per 1M requests, payback (HTML report)", run_audit_command},
    {"bench",   "Load-test an inference server: TTFT, TPOT, ITL, E2EL percentiles, throughput, goodput", run_bench_command},
    {"rules",   "List the rule catalog, or explain one rule (gpuport rules GP-ASM-001)",  run_rules_command},
}};
// clang-format on

}  // namespace

std::span<const Command> command_table() {
  return k_commands;
}

const Command* find_command(std::string_view name) {
  for (const Command& command : k_commands) {
    if (command.name == name) {
      return &command;
    }
  }
  return nullptr;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance over three rolling rows.
  std::vector<std::size_t> before(b.size() + 1);
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    previous[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    before.swap(previous);
    previous.swap(current);
  }
  return previous[b.size()];
}

std::optional<std::string_view> did_you_mean(std::string_view typed,
                                             std::span<const std::string_view> candidates) {
  std::optional<std::string_view> best;
  std::size_t best_distance = 0;
  for (std::string_view candidate : candidates) {
    const std::size_t distance = edit_distance(typed, candidate);
    if (!best || distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  // Up to two edits, but never more than half the word: "x" should not suggest "scan".
  const std::size_t limit = std::min<std::size_t>(2, std::max<std::size_t>(1, typed.size() / 2));
  if (best && best_distance <= limit) {
    return best;
  }
  return std::nullopt;
}

std::string main_help() {
  std::string text =
      "gpuport: will this CUDA inference stack run on AMD GPUs, and what does the move cost?\n"
      "\n"
      "Usage: gpuport <command> [options]\n"
      "       gpuport --version\n"
      "\n"
      "Commands:\n";
  for (const Command& command : k_commands) {
    text += fmt::format("  {:<8} {}\n", command.name, command.summary);
  }
  text +=
      "\n"
      "Run 'gpuport <command> --help' for the options of a command.\n"
      "Exit codes: 0 ok, 1 a --fail-on threshold was reached, 2 bad usage or unreadable input.\n";
  return text;
}

}  // namespace gpuport
