// Merges the per-family rows into one catalog sorted by id, and answers look-ups.
#include "scan/rules/catalog.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "scan/rules/catalog_rows.h"

namespace gpuport {

namespace {

template <typename Row, typename Key>
std::vector<Row> merged(std::span<const Row> a, std::span<const Row> b, Key key) {
  std::vector<Row> rows(a.begin(), a.end());
  rows.insert(rows.end(), b.begin(), b.end());
  std::sort(rows.begin(), rows.end(), [&](const Row& x, const Row& y) { return key(x) < key(y); });
  return rows;
}

const std::vector<RuleInfo>& rules() {
  static const std::vector<RuleInfo> all = merged<RuleInfo>(source_rule_rows(), stack_rule_rows(),
                                                            [](const RuleInfo& r) { return r.id; });
  return all;
}

const std::vector<ComponentInfo>& components() {
  static const std::vector<ComponentInfo> all =
      merged<ComponentInfo>(source_component_rows(), stack_component_rows(),
                            [](const ComponentInfo& c) { return c.name; });
  return all;
}

}  // namespace

std::span<const RuleInfo> rule_catalog() {
  return rules();
}

const RuleInfo* find_rule(std::string_view id) {
  const auto& all = rules();
  auto it = std::lower_bound(all.begin(), all.end(), id,
                             [](const RuleInfo& r, std::string_view v) { return r.id < v; });
  return it != all.end() && it->id == id ? &*it : nullptr;
}

std::uint16_t rule_index(std::string_view id) {
  // Called for every finding: a hash look-up instead of a binary search over string ids.
  static const std::unordered_map<std::string_view, std::uint16_t> k_indices = [] {
    std::unordered_map<std::string_view, std::uint16_t> indices;
    const auto& all = rules();
    for (std::size_t i = 0; i < all.size(); ++i) {
      indices.emplace(all[i].id, static_cast<std::uint16_t>(i));
    }
    return indices;
  }();
  if (auto it = k_indices.find(id); it != k_indices.end()) {
    return it->second;
  }
  const RuleInfo* rule = find_rule(id);
  if (rule == nullptr) {
    // A detector naming a rule that is not in the catalog is a programming error, caught by the
    // catalog tests; it never depends on user input.
    throw std::logic_error("unknown rule id: " + std::string(id));
  }
  return static_cast<std::uint16_t>(rule - rules().data());
}

std::span<const ComponentInfo> component_catalog() {
  return components();
}

const ComponentInfo* find_component(std::string_view name) {
  const auto& all = components();
  auto it = std::lower_bound(all.begin(), all.end(), name,
                             [](const ComponentInfo& c, std::string_view v) { return c.name < v; });
  return it != all.end() && it->name == name ? &*it : nullptr;
}

}  // namespace gpuport
