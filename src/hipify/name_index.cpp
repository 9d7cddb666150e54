// Builds the identifier prefilter from a mapping table's entries.
#include "hipify/name_index.h"

#include <algorithm>
#include <bit>

namespace gpuport {

namespace {

constexpr std::uint32_t k_min_bits_log2 = 10;
constexpr std::uint32_t k_max_bits_log2 = 18;  // 32 KiB: stays in L1/L2 during the token pass

}  // namespace

NameIndex::NameIndex(const MappingTable& table) : m_table(table) {
  std::size_t names = 0;
  for (const Mapping& entry : table.entries()) {
    names += entry.kind != MappingKind::Header ? 1 : 0;
  }
  // About 16 bits per name keeps the prefilter's false-positive rate near 6%.
  auto log2 = std::clamp(static_cast<std::uint32_t>(std::bit_width(names * 16)), k_min_bits_log2,
                         k_max_bits_log2);
  m_shift = 32 - log2;
  m_bits.assign((std::size_t{1} << log2) / 64, 0);
  for (const Mapping& entry : table.entries()) {
    if (entry.kind == MappingKind::Header || entry.cuda.empty()) {
      continue;
    }
    std::uint32_t bit = slot(entry.cuda);
    m_bits[bit >> 6] |= std::uint64_t{1} << (bit & 63);
    if (entry.kind == MappingKind::Namespace) {
      m_namespaces.insert(entry.hip);
      m_namespaces.insert(entry.roc);
    }
  }
  m_namespaces.erase(std::string_view{});
}

bool NameIndex::is_api_qualifier(std::string_view name) const {
  return find(name) != nullptr || m_namespaces.contains(name);
}

const NameIndex& name_index_for(const MappingTable& table, std::unique_ptr<NameIndex>& storage) {
  const MappingTable& builtin = builtin_mapping_table();
  if (&table == &builtin) {
    static const NameIndex k_builtin_index(builtin);
    return k_builtin_index;
  }
  storage = std::make_unique<NameIndex>(table);
  return *storage;
}

}  // namespace gpuport
