// The built-in mapping table (generated rows from mapping_table.inc) and its index.
#include <array>
#include <iterator>
#include <vector>

#include "hipify/mapping.h"

namespace gpuport {
namespace {

// The row codes of mapping_table.inc.
constexpr MappingKind k_kind_F = MappingKind::Function;
constexpr MappingKind k_kind_T = MappingKind::Type;
constexpr MappingKind k_kind_C = MappingKind::Constant;
constexpr MappingKind k_kind_N = MappingKind::Namespace;
constexpr MappingKind k_kind_H = MappingKind::Header;
constexpr MappingKind k_kind_G = MappingKind::Condition;
constexpr Support k_support_V = Support::Verified;
constexpr Support k_support_D = Support::Documented;
constexpr Lifecycle k_life_C = Lifecycle::Current;
constexpr Lifecycle k_life_D = Lifecycle::Deprecated;
constexpr Lifecycle k_life_R = Lifecycle::Removed;

// Rows hold plain C strings: an array of literals is constant-initialized without the compiler
// evaluating ~30k strlen calls (clang's constexpr step limit, GCC's slow dynamic initializers).
struct Row {
  const char* cuda;
  const char* hip;
  const char* roc;
  ApiFamily family;
  MappingKind kind;
  Support support;
  Lifecycle lifecycle;
};

#define M(family, cuda, hip, roc, kind, support, life) \
  Row{cuda, hip, roc, ApiFamily::family, k_kind_##kind, k_support_##support, k_life_##life},
#define S(family, name, kind, support, life) \
  Row{name, name, "", ApiFamily::family, k_kind_##kind, k_support_##support, k_life_##life},
#define U(family, cuda, kind, life) \
  Row{cuda, "", "", ApiFamily::family, k_kind_##kind, Support::Unsupported, k_life_##life},

constexpr Row k_rows[] = {
#include "hipify/tables/mapping_table.inc"
};

#undef M
#undef S
#undef U

constexpr std::array<std::string_view, k_api_family_count> k_family_names = {
    "runtime",     "driver",  "device_function",
    "device_type", "complex", "fp16",
    "bf16",        "fp8",     "cooperative_groups",
    "blas",        "blas_lt", "rand",
    "fft",         "sparse",  "solver",
    "dnn",         "nccl",    "cub",
    "thrust",      "nvtx",    "rtc",
    "nvml",        "header",
};

}  // namespace

MappingTable::MappingTable(std::span<const Mapping> entries) : m_entries(entries) {
  m_names.reserve(entries.size());
  for (const Mapping& entry : entries) {
    auto& index = entry.kind == MappingKind::Header ? m_headers : m_names;
    index.emplace(entry.cuda, &entry);
  }
}

const Mapping* MappingTable::find(std::string_view cuda_name) const {
  auto it = m_names.find(cuda_name);
  return it == m_names.end() ? nullptr : it->second;
}

const Mapping* MappingTable::find_header(std::string_view include_path) const {
  auto it = m_headers.find(include_path);
  return it == m_headers.end() ? nullptr : it->second;
}

const MappingTable& builtin_mapping_table() {
  static const std::vector<Mapping> entries = [] {
    std::vector<Mapping> out;
    out.reserve(std::size(k_rows));
    for (const Row& row : k_rows) {
      const char* roc = row.roc != nullptr ? row.roc : "";  // `{}` in the table: no roc name
      out.push_back({row.cuda, row.hip, roc, row.family, row.kind, row.support, row.lifecycle});
    }
    return out;
  }();
  static const MappingTable table{std::span<const Mapping>(entries)};
  return table;
}

std::string_view api_family_name(ApiFamily family) {
  return k_family_names[static_cast<std::size_t>(family)];
}

bool family_keeps_names(ApiFamily family) {
  switch (family) {
    case ApiFamily::DeviceFunction:
    case ApiFamily::DeviceType:
    case ApiFamily::Fp16:
    case ApiFamily::CooperativeGroups:
    case ApiFamily::Nccl:
    case ApiFamily::Thrust:
      return true;
    default:
      return false;
  }
}

std::string_view support_name(Support support) {
  switch (support) {
    case Support::Verified:
      return "verified";
    case Support::Documented:
      return "documented";
    case Support::Unsupported:
      return "unsupported";
  }
  return "unsupported";
}

std::string_view lifecycle_name(Lifecycle lifecycle) {
  switch (lifecycle) {
    case Lifecycle::Current:
      return "current";
    case Lifecycle::Deprecated:
      return "deprecated";
    case Lifecycle::Removed:
      return "removed";
  }
  return "current";
}

}  // namespace gpuport
