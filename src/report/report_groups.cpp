// Counts and orderings shared by the writers; nothing here looks at source text.
#include "report/report_groups.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "source/walker.h"

namespace gpuport {

namespace {

// Counts `key(item)` in first-seen order of keys, remembering each key's first position.
template <typename Items, typename Key, typename Position>
std::vector<NameCount> count_by(const Items& items, Key key, Position position) {
  std::vector<NameCount> counts;
  std::map<std::string, std::size_t, std::less<>> slot;
  for (const auto& item : items) {
    const std::string_view name = key(item);
    auto it = slot.find(name);  // a string only for a new key
    if (it == slot.end()) {
      NameCount entry;
      entry.name = std::string(name);
      auto [file, line] = position(item);
      entry.first_file = file;
      entry.first_line = line;
      it = slot.emplace(entry.name, counts.size()).first;
      counts.push_back(std::move(entry));
    }
    ++counts[it->second].count;
  }
  return counts;
}

// The findings of each rule, by index into rule_catalog(): one pass that reads only the index.
std::vector<std::uint64_t> counts_by_rule_index(const ScanResult& result) {
  std::vector<std::uint64_t> counts(rule_catalog().size());
  for (const Finding& finding : result.findings) {
    if (finding.rule < counts.size()) {
      ++counts[finding.rule];
    }
  }
  return counts;
}

template <typename Enum>
void sort_by_enum_order(std::vector<NameCount>& counts, std::string_view (*name)(Enum),
                        int enum_size) {
  auto rank = [&](const NameCount& c) {
    for (int i = 0; i < enum_size; ++i) {
      if (name(static_cast<Enum>(i)) == c.name) {
        return i;
      }
    }
    return enum_size;
  };
  std::stable_sort(counts.begin(), counts.end(),
                   [&](const NameCount& a, const NameCount& b) { return rank(a) < rank(b); });
}

}  // namespace

const RuleInfo* rule_of(const Finding& finding) {
  const auto catalog = rule_catalog();
  return finding.rule < catalog.size() ? &catalog[finding.rule] : nullptr;
}

std::array<std::uint64_t, k_tier_count> findings_by_tier(const ScanResult& result) {
  const auto catalog = rule_catalog();
  const std::vector<std::uint64_t> by_rule = counts_by_rule_index(result);
  std::array<std::uint64_t, k_tier_count> counts{};
  for (std::size_t index = 0; index < by_rule.size(); ++index) {
    counts[static_cast<std::size_t>(catalog[index].tier)] += by_rule[index];
  }
  return counts;
}

std::optional<Tier> highest_tier(const ScanResult& result) {
  const auto counts = findings_by_tier(result);
  for (std::size_t i = k_tier_count; i-- > 0;) {
    if (counts[i] > 0) {
      return static_cast<Tier>(i);
    }
  }
  return std::nullopt;
}

std::vector<RuleCount> findings_by_rule(const ScanResult& result) {
  const std::vector<std::uint64_t> counts = counts_by_rule_index(result);
  std::vector<RuleCount> rows;
  for (std::size_t index = 0; index < counts.size(); ++index) {
    if (counts[index] > 0) {
      rows.push_back({&rule_catalog()[index], static_cast<std::uint16_t>(index), counts[index]});
    }
  }
  std::sort(rows.begin(), rows.end(), [](const RuleCount& a, const RuleCount& b) {
    if (a.rule->tier != b.rule->tier) {
      return a.rule->tier > b.rule->tier;
    }
    if (a.count != b.count) {
      return a.count > b.count;
    }
    return a.rule->id < b.rule->id;
  });
  return rows;
}

KernelTotals kernel_totals(const ScanResult& result) {
  KernelTotals totals;
  for (const Kernel& kernel : result.kernels) {
    ++totals.kernels;
    totals.templated += kernel.is_template ? 1 : 0;
    totals.via_macro += kernel.via_macro ? 1 : 0;
    totals.lines_of_code += kernel.lines_of_code;
    totals.with_ptx += kernel.features.ptx_instructions.empty() ? 0 : 1;
    totals.with_wmma += (kernel.features.wmma || kernel.features.mma_ptx) ? 1 : 0;
    totals.with_warp_intrinsics += kernel.features.warp_intrinsics.empty() ? 0 : 1;
  }
  return totals;
}

std::vector<NameCount> ptx_sites_by_instruction(const ScanResult& result) {
  const auto catalog = rule_catalog();
  std::vector<char> asm_rule(catalog.size());  // by rule index: one compare per rule, not finding
  for (std::size_t index = 0; index < catalog.size(); ++index) {
    asm_rule[index] = catalog[index].family == "ASM";
  }
  std::vector<const Finding*> ptx;
  for (const Finding& finding : result.findings) {
    if (finding.rule < asm_rule.size() && asm_rule[finding.rule] != 0 && !finding.detail.empty() &&
        finding.context != BranchContext::Hip) {
      ptx.push_back(&finding);
    }
  }
  auto counts = count_by(
      ptx, [](const Finding* f) { return std::string_view(f->detail); },
      [](const Finding* f) {
        return std::pair{f->file, f->line};
      });
  std::stable_sort(counts.begin(), counts.end(),
                   [](const NameCount& a, const NameCount& b) { return a.count > b.count; });
  return counts;
}

std::vector<NameCount> artifacts_by_kind(const ScanResult& result) {
  auto counts = count_by(
      result.artifacts, [](const Artifact& a) { return artifact_kind_name(a.kind); },
      [](const Artifact& a) {
        return std::pair{a.file, a.line};
      });
  sort_by_enum_order<ArtifactKind>(counts, artifact_kind_name, 5);
  return counts;
}

std::vector<NameCount> amd_path_by_kind(const ScanResult& result) {
  auto counts = count_by(
      result.amd_path, [](const AmdPathSign& s) { return amd_path_kind_name(s.kind); },
      [](const AmdPathSign& s) {
        return std::pair{s.file, s.line};
      });
  sort_by_enum_order<AmdPathKind>(counts, amd_path_kind_name, 8);
  return counts;
}

std::vector<NameCount> skipped_by_reason(const ScanResult& result) {
  auto counts = count_by(
      result.skipped, [](const SkippedEntry& s) { return skip_reason_name(s.reason); },
      [](const SkippedEntry& s) {
        return std::pair{s.path, std::uint32_t{0}};
      });
  sort_by_enum_order<SkipReason>(counts, skip_reason_name, 6);
  return counts;
}

std::vector<const Kernel*> kernels_by_size(const ScanResult& result, std::size_t limit) {
  // (lines, index) pairs, so that ordering them reads no kernel and ties keep the list's order
  // (as a stable sort would); only the first `limit` are ordered.
  struct Entry {
    std::uint32_t lines = 0;
    std::uint32_t index = 0;
  };
  std::vector<Entry> entries;
  entries.reserve(result.kernels.size());
  std::uint32_t index = 0;
  for (const Kernel& kernel : result.kernels) {
    entries.push_back({kernel.lines_of_code, index++});
  }
  const auto larger = [](const Entry& a, const Entry& b) {
    return a.lines != b.lines ? a.lines > b.lines : a.index < b.index;
  };
  const std::size_t count = std::min(limit, entries.size());
  std::partial_sort(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(count),
                    entries.end(), larger);
  std::vector<const Kernel*> kernels;
  kernels.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    kernels.push_back(&result.kernels[entries[i].index]);
  }
  return kernels;
}

std::string_view context_name(BranchContext context) {
  switch (context) {
    case BranchContext::Neutral:
      return "neutral";
    case BranchContext::Hip:
      return "hip";
    case BranchContext::CudaDevice:
      return "cuda_device";
    case BranchContext::Dead:
      return "dead";
  }
  return "neutral";
}

std::string_view kernel_language_name(KernelLanguage language) {
  switch (language) {
    case KernelLanguage::Cuda:
      return "cuda";
    case KernelLanguage::CuteDsl:
      return "cute_dsl";
    case KernelLanguage::Numba:
      return "numba";
    case KernelLanguage::PythonString:
      return "python_string";
  }
  return "cuda";
}

std::string_view amd_state_name(AmdBuildState state) {
  switch (state) {
    case AmdBuildState::Compiled:
      return "compiled";
    case AmdBuildState::Excluded:
      return "excluded";
    case AmdBuildState::Unknown:
      break;
  }
  return "unknown";
}

const GuardLine* find_guard(const ScanResult& result, std::string_view file, std::uint32_t line) {
  auto it = std::lower_bound(
      result.guards.begin(), result.guards.end(), std::pair(file, line),
      [](const GuardLine& guard, const std::pair<std::string_view, std::uint32_t>& key) {
        const int order = guard.file.compare(key.first);
        return order != 0 ? order < 0 : guard.line < key.second;
      });
  return it != result.guards.end() && it->file == file && it->line == line ? &*it : nullptr;
}

const ExcludedSource* find_excluded_source(const ScanResult& result, std::string_view file) {
  auto it = std::lower_bound(
      result.excluded_sources.begin(), result.excluded_sources.end(), file,
      [](const ExcludedSource& source, std::string_view key) { return source.file < key; });
  return it != result.excluded_sources.end() && it->file == file ? &*it : nullptr;
}

AmdBuildTally count_amd_build(const ScanResult& result) {
  return finding_totals(result).amd;
}

std::array<std::size_t, k_scope_count> findings_by_scope(const ScanResult& result) {
  return finding_totals(result).by_scope;
}

namespace {

// "#ifdef  NEW_MMA_AVAILABLE // ..." -> "#ifdef NEW_MMA_AVAILABLE".
std::string normalized_directive(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 2) == "//" || text.substr(i, 2) == "/*") {
      break;
    }
    const char c = text[i];
    if (c == ' ' || c == '\t') {
      if (!out.empty() && out.back() != ' ' && out.back() != '#') {
        out += ' ';
      }
      continue;
    }
    out += c;
  }
  while (!out.empty() && out.back() == ' ') {
    out.pop_back();
  }
  return out;
}

}  // namespace

std::vector<ExcludedGroup> excluded_groups(const ScanResult& result, std::size_t max) {
  if (finding_totals(result).product_excluded == 0) {
    return {};  // no pass over the findings
  }
  struct Group {
    ExcludedGroup group;
    std::set<std::pair<std::string, std::uint32_t>> places;
  };
  std::map<std::pair<std::string, bool>, Group> groups;
  // Adds a place (a guard line or a build line) to the group of its text.
  const auto group_for = [&groups](std::string text, bool build, std::string_view file,
                                   std::uint32_t line) -> Group& {
    Group& entry = groups[{text, build}];
    const auto place = std::pair(std::string(file), line);
    if (entry.places.empty() || place < *entry.places.begin()) {
      entry.group.file = place.first;
      entry.group.line = line;
    }
    entry.places.insert(place);
    entry.group.text = std::move(text);
    entry.group.build = build;
    return entry;
  };
  // The findings come in file order, and so do the guards: the guards of the current file are
  // a range found once per file, searched by line alone. Each guard (or excluded source) finds
  // its group once; the findings under it count into that group.
  std::unordered_map<const void*, Group*> group_of;
  std::string_view range_file;
  auto range_begin = result.guards.begin();
  auto range_end = result.guards.begin();
  bool have_range = false;
  for (const Finding& finding : result.findings) {
    if (finding.scope != Scope::Product || finding.amd_state != AmdBuildState::Excluded) {
      continue;
    }
    const std::string_view file = finding.file;
    Group* entry = nullptr;
    if (finding.guard_line != 0) {
      if (!have_range || file != range_file) {
        range_begin = std::lower_bound(
            result.guards.begin(), result.guards.end(), file,
            [](const GuardLine& guard, std::string_view key) { return guard.file < key; });
        range_end = std::upper_bound(
            range_begin, result.guards.end(), file,
            [](std::string_view key, const GuardLine& guard) { return key < guard.file; });
        range_file = file;
        have_range = true;
      }
      const auto guard =
          std::lower_bound(range_begin, range_end, finding.guard_line,
                           [](const GuardLine& g, std::uint32_t line) { return g.line < line; });
      if (guard != range_end && guard->line == finding.guard_line) {
        Group*& known = group_of[&*guard];
        if (known == nullptr) {
          known = &group_for(normalized_directive(guard->text), false, file, guard->line);
        }
        entry = known;
      } else {
        entry = &group_for(std::string(), false, file, finding.guard_line);
      }
    } else if (const ExcludedSource* source = find_excluded_source(result, file)) {
      Group*& known = group_of[source];
      if (known == nullptr) {
        known = &group_for(source->where.text, true, source->where.file, source->where.line);
      }
      entry = known;
    } else {
      continue;
    }
    ++entry->group.findings;
    entry->group.with_alternative += finding.amd_alternative ? 1 : 0;
  }
  std::vector<ExcludedGroup> out;
  out.reserve(groups.size());
  for (auto& [key, entry] : groups) {
    entry.group.places = entry.places.size();
    out.push_back(std::move(entry.group));
  }
  std::stable_sort(out.begin(), out.end(), [](const ExcludedGroup& a, const ExcludedGroup& b) {
    return a.findings > b.findings;
  });
  if (out.size() > max) {
    out.resize(max);
  }
  return out;
}

AmdView amd_view(const ScanResult& result) {
  const FindingTotals totals = finding_totals(result);
  AmdView view;
  view.highest = totals.product_open_highest;
  view.open = totals.product_open;
  view.excluded = totals.product_excluded;
  view.excluded_with_alternative = totals.product_excluded_with_alternative;
  view.outside_product =
      result.findings.size() - totals.by_scope[static_cast<std::size_t>(Scope::Product)];
  return view;
}

std::string amd_build_phrase(const AmdBuildTally& amd) {
  if (amd.compiled == 0 && amd.excluded == 0) {
    return {};
  }
  std::string out;
  auto part = [&](std::string text) {
    if (!out.empty()) {
      out += ", ";
    }
    out += text;
  };
  if (amd.compiled > 0) {
    part(fmt::format("{} compiled", amd.compiled));
  }
  if (amd.excluded > 0) {
    part(amd.excluded_with_alternative > 0
             ? fmt::format("{} excluded ({} with an AMD alternative)", amd.excluded,
                           amd.excluded_with_alternative)
             : fmt::format("{} excluded", amd.excluded));
  }
  if (amd.unknown > 0) {
    part(fmt::format("{} unknown", amd.unknown));
  }
  return out;
}

std::string_view launch_kind_name(LaunchKind kind) {
  switch (kind) {
    case LaunchKind::TripleChevron:
      return "triple_chevron";
    case LaunchKind::RuntimeApi:
      return "runtime_api";
    case LaunchKind::DriverApi:
      return "driver_api";
    case LaunchKind::Cooperative:
      return "cooperative";
    case LaunchKind::Cluster:
      return "cluster";
  }
  return "triple_chevron";
}

std::string_view artifact_kind_name(ArtifactKind kind) {
  switch (kind) {
    case ArtifactKind::TensorRtEngine:
      return "tensorrt_engine";
    case ArtifactKind::Cubin:
      return "cubin";
    case ArtifactKind::Ptx:
      return "ptx";
    case ArtifactKind::Fatbin:
      return "fatbin";
    case ArtifactKind::EmbeddedCubin:
      return "embedded_cubin";
  }
  return "cubin";
}

std::string kernel_feature_tags(const KernelFeatures& features) {
  std::string tags;
  auto add = [&](std::string_view tag) {
    if (!tags.empty()) {
      tags.push_back(' ');
    }
    tags.append(tag);
  };
  if (features.wmma) {
    add("wmma");
  }
  if (features.mma_ptx) {
    add("mma");
  }
  if (!features.warp_intrinsics.empty()) {
    add("warp");
  }
  if (features.static_shared_bytes && *features.static_shared_bytes > 0) {
    add("smem=" + std::to_string(*features.static_shared_bytes));
  }
  if (features.atomics) {
    add("atomics");
  }
  if (features.textures) {
    add("tex");
  }
  if (features.surfaces) {
    add("surf");
  }
  if (features.cooperative_groups) {
    add("coop");
  }
  if (features.dynamic_parallelism) {
    add("dynpar");
  }
  // Last, so a narrow column cuts the list of instructions rather than the flags.
  if (!features.ptx_instructions.empty()) {
    std::string ptx = "ptx(";
    for (std::size_t i = 0; i < features.ptx_instructions.size(); ++i) {
      // The opcode and its first qualifier: "mma.sync.aligned.m16n8k16" -> "mma.sync".
      std::string_view name = features.ptx_instructions[i];
      const auto first_dot = name.find('.');
      if (first_dot != std::string_view::npos) {
        name = name.substr(0, name.find('.', first_dot + 1));
      }
      ptx += (i > 0 ? "," : "") + std::string(name);
    }
    add(ptx + ")");
  }
  return tags;
}

}  // namespace gpuport
