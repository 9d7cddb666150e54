// Fast identifier look-up over a mapping table: a bit-set prefilter in front of the table's hash
// map, because nearly every identifier in real code is not a CUDA name.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "hipify/mapping.h"

namespace gpuport {

class NameIndex {
 public:
  explicit NameIndex(const MappingTable& table);

  // The entry for an identifier, or nullptr. Most misses cost one bit test.
  const Mapping* find(std::string_view name) const {
    return might_contain(name) ? m_table.find(name) : nullptr;
  }
  bool might_contain(std::string_view name) const {
    std::uint32_t bit = slot(name);
    return (m_bits[bit >> 6] >> (bit & 63) & 1U) != 0;
  }
  // Whether `name::x` may name a CUDA API: the qualifier is a CUDA (or translated HIP)
  // namespace, or any name the table knows.
  bool is_api_qualifier(std::string_view name) const;
  const MappingTable& table() const { return m_table; }

 private:
  std::uint32_t slot(std::string_view name) const {
    auto byte = [&](std::size_t i) { return static_cast<std::uint32_t>(name[i]) & 0xffU; };
    std::uint32_t size = static_cast<std::uint32_t>(name.size());
    std::uint32_t key =
        byte(0) | (size > 1 ? byte(1) : 0U) << 8 | byte(size - 1) << 16 | (size & 0xffU) << 24;
    return (key * 0x9E3779B1U) >> m_shift;
  }

  const MappingTable& m_table;
  std::vector<std::uint64_t> m_bits;
  std::uint32_t m_shift = 0;
  std::unordered_set<std::string_view> m_namespaces;  // hip and roc names of Namespace entries
};

// The index for `table`. The builtin table's index is built once and shared; for any other
// table one is built into `storage` (cheap: one pass over the entries).
const NameIndex& name_index_for(const MappingTable& table, std::unique_ptr<NameIndex>& storage);

}  // namespace gpuport
