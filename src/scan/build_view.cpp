// Stamping items with the AMD-build state and the scope.
#include "scan/build_view.h"

#include <algorithm>

namespace gpuport {

namespace {

AmdBuild state_at(const TokenStream& tokens, std::uint32_t line) {
  const BranchRegion* region = tokens.region_at_line(line);
  return region == nullptr ? AmdBuild{} : region->amd;
}

std::string trimmed(std::string_view text) {
  std::size_t start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) {
    return {};
  }
  std::size_t end = text.find_last_not_of(" \t\r");
  std::string out(text.substr(start, end - start + 1));
  return out.size() > 160 ? out.substr(0, 160) : out;
}

}  // namespace

void stamp_source_items(std::string_view path, const TokenStream& tokens,
                        const FileMembership* membership, FileAnalysis& out) {
  const bool left_out = membership != nullptr && membership->amd == AmdBuildState::Excluded;
  AmdBuild build_excluded;
  if (left_out) {
    build_excluded.state = AmdBuildState::Excluded;
    build_excluded.alternative = membership->alternative;
    out.excluded.push_back({std::string(path), membership->where, membership->alternative, {}});
  }
  std::vector<std::uint32_t> guard_lines;
  auto stamp = [&](std::uint32_t line) {
    if (left_out) {
      return build_excluded;
    }
    AmdBuild amd = state_at(tokens, line);
    if (amd.state == AmdBuildState::Excluded && amd.guard_line != 0) {
      guard_lines.push_back(amd.guard_line);
    }
    return amd;
  };
  for (Finding& finding : out.findings) {
    finding.set_amd(stamp(finding.line));
  }
  for (Kernel& kernel : out.kernels) {
    kernel.amd = stamp(kernel.line);
  }
  for (LaunchSite& launch : out.launches) {
    launch.amd = stamp(launch.line);
  }
  if (guard_lines.empty()) {
    return;
  }
  std::sort(guard_lines.begin(), guard_lines.end());
  guard_lines.erase(std::unique(guard_lines.begin(), guard_lines.end()), guard_lines.end());
  for (std::uint32_t line : guard_lines) {
    out.guards.push_back({std::string(path), line, trimmed(tokens.line_text(line))});
  }
}

void stamp_build_file_items(std::string_view path, std::string_view text, const BuildModel& model,
                            FileAnalysis& out) {
  std::vector<std::uint32_t> guard_lines;
  for (Finding& finding : out.findings) {
    const AmdBuild amd = model.line_amd(path, finding.line);
    finding.set_amd(amd);
    if (amd.state == AmdBuildState::Excluded && amd.guard_line != 0) {
      guard_lines.push_back(amd.guard_line);
    }
  }
  if (guard_lines.empty()) {
    return;
  }
  std::sort(guard_lines.begin(), guard_lines.end());
  guard_lines.erase(std::unique(guard_lines.begin(), guard_lines.end()), guard_lines.end());
  std::uint32_t line = 1;
  std::size_t pos = 0;
  for (std::uint32_t wanted : guard_lines) {
    while (line < wanted && pos < text.size()) {
      std::size_t newline = text.find('\n', pos);
      pos = newline == std::string_view::npos ? text.size() : newline + 1;
      ++line;
    }
    std::size_t end = text.find('\n', pos);
    out.guards.push_back(
        {std::string(path), wanted,
         trimmed(text.substr(pos,
                             end == std::string_view::npos ? std::string_view::npos : end - pos))});
  }
}

void stamp_scope(Scope scope, FileAnalysis& out) {
  if (scope == Scope::Product) {
    return;  // the default
  }
  for (Finding& finding : out.findings) {
    finding.scope = scope;
  }
  for (Kernel& kernel : out.kernels) {
    kernel.scope = scope;
  }
  for (LaunchSite& launch : out.launches) {
    launch.scope = scope;
  }
}

}  // namespace gpuport
