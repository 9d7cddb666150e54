// Merges the rows of every source family (source_families()) and the stack rows into one catalog
// sorted by id, and answers look-ups.
#include "scan/rules/catalog.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "scan/rules/catalog_rows.h"
#include "scan/rules/source_family.h"

namespace gpuport {

namespace {

// Every source family's rows (chosen by `rows_of`), then `stack`, sorted by `key`.
template <typename Row, typename RowsOf, typename Key>
std::vector<Row> merged(RowsOf rows_of, std::span<const Row> stack, Key key) {
  std::vector<Row> rows;
  for (const source_rules::SourceFamily* family : source_rules::source_families()) {
    std::span<const Row> family_rows = rows_of(*family);
    rows.insert(rows.end(), family_rows.begin(), family_rows.end());
  }
  rows.insert(rows.end(), stack.begin(), stack.end());
  std::sort(rows.begin(), rows.end(), [&](const Row& x, const Row& y) { return key(x) < key(y); });
  return rows;
}

const std::vector<RuleInfo>& rules() {
  static const std::vector<RuleInfo> all =
      merged<RuleInfo>([](const source_rules::SourceFamily& family) { return family.rules; },
                       stack_rule_rows(), [](const RuleInfo& r) { return r.id; });
  return all;
}

const std::vector<ComponentInfo>& components() {
  static const std::vector<ComponentInfo> all = merged<ComponentInfo>(
      [](const source_rules::SourceFamily& family) { return family.components; },
      stack_component_rows(), [](const ComponentInfo& c) { return c.name; });
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
