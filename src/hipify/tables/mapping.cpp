// The built-in mapping table (generated rows from mapping_table.inc) and its index.
#include <algorithm>
#include <array>
#include <charconv>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
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
constexpr MappingKind k_kind_I = MappingKind::Header;  // matched in #include <...> only
constexpr bool k_angle_F = false;
constexpr bool k_angle_T = false;
constexpr bool k_angle_C = false;
constexpr bool k_angle_N = false;
constexpr bool k_angle_H = false;
constexpr bool k_angle_G = false;
constexpr bool k_angle_I = true;
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
  std::uint16_t since;
  std::uint16_t hip_deprecated;
  bool angle_only;
};

#define M(family, cuda, hip, roc, kind, support, life, since, deprecated)                      \
  Row{cuda,          hip,   roc,        ApiFamily::family, k_kind_##kind, k_support_##support, \
      k_life_##life, since, deprecated, k_angle_##kind},
#define S(family, name, kind, support, life, since, deprecated)                                \
  Row{name,          name,  "",         ApiFamily::family, k_kind_##kind, k_support_##support, \
      k_life_##life, since, deprecated, k_angle_##kind},
#define U(family, cuda, kind, life)                                                  \
  Row{cuda,          "", "", ApiFamily::family, k_kind_##kind, Support::Unsupported, \
      k_life_##life, 0,  0,  k_angle_##kind},

constexpr Row k_rows[] = {
#include "hipify/tables/mapping_table.inc"
};

#undef M
#undef S
#undef U

// Another spelling for the targets from `first` to `last`.
struct VariantRow {
  const char* cuda;
  std::uint16_t first;
  std::uint16_t last;
  const char* hip;
  const char* roc;
  Support support;
};

#define V(cuda, first, last, hip, roc, support) \
  VariantRow{cuda, first, last, hip, roc, k_support_##support},

constexpr VariantRow k_variants[] = {
#include "hipify/tables/mapping_variants.inc"
};

#undef V

#define R(release) release,

constexpr RocmRelease k_releases[] = {
#include "hipify/tables/rocm_releases.inc"
};

#undef R

struct LegacyCall {
  std::string_view name;
  std::size_t arguments;
};

struct ShapeRow {
  std::string_view name;
  ArgumentRange hip;
};

struct FormRow {
  std::string_view name;
  std::size_t arguments;
  std::string_view hip;
};

#define L(name, arguments) LegacyCall{name, arguments},
#define S(name, fewest, most)
#define F(name, arguments, hip)

constexpr LegacyCall k_legacy_cublas[] = {
#include "hipify/tables/call_shapes.inc"
};

#undef L
#undef S
#define L(name, arguments)
#define S(name, fewest, most) ShapeRow{name, ArgumentRange{fewest, most}},

constexpr ShapeRow k_shapes[] = {
#include "hipify/tables/call_shapes.inc"
};

#undef S
#undef F
#define S(name, fewest, most)
#define F(name, arguments, hip) FormRow{name, arguments, hip},

constexpr FormRow k_forms[] = {
#include "hipify/tables/call_shapes.inc"
};

#undef L
#undef S
#undef F

constexpr std::array<std::string_view, k_api_family_count> k_family_names = {
    "runtime",     "driver",        "device_function",
    "device_type", "complex",       "fp16",
    "bf16",        "fp8",           "cooperative_groups",
    "blas",        "blas_lt",       "rand",
    "fft",         "sparse",        "solver",
    "dnn",         "nccl",          "cub",
    "thrust",      "nvtx",          "rtc",
    "nvml",        "math_constant", "header",
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
      out.push_back({row.cuda, row.hip, roc, row.family, row.kind, row.support, row.lifecycle,
                     row.since, 0, row.hip_deprecated, row.angle_only});
    }
    return out;
  }();
  static const MappingTable table{std::span<const Mapping>(entries)};
  return table;
}

std::optional<std::size_t> legacy_cublas_arguments(std::string_view cuda_name) {
  const auto* it = std::ranges::lower_bound(k_legacy_cublas, cuda_name, {}, &LegacyCall::name);
  if (it == std::end(k_legacy_cublas) || it->name != cuda_name) {
    return std::nullopt;
  }
  return it->arguments;
}

std::optional<ArgumentRange> hip_argument_range(std::string_view cuda_name) {
  const auto* it = std::ranges::lower_bound(k_shapes, cuda_name, {}, &ShapeRow::name);
  if (it == std::end(k_shapes) || it->name != cuda_name) {
    return std::nullopt;
  }
  return it->hip;
}

std::string_view hip_call_form(std::string_view cuda_name, std::size_t arguments) {
  for (const FormRow& row : k_forms) {
    if (row.name == cuda_name && row.arguments == arguments) {
      return row.hip;
    }
  }
  return {};
}

std::span<const RocmRelease> rocm_releases() {
  return k_releases;
}

RocmRelease newest_rocm_release() {
  return k_releases[std::size(k_releases) - 1];
}

std::optional<RocmRelease> parse_rocm_release(std::string_view text) {
  const std::size_t dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == text.size() || dot > 2 ||
      text.size() - dot - 1 > 2) {
    return std::nullopt;
  }
  unsigned major = 0;
  unsigned minor = 0;
  const char* begin = text.data();
  auto [major_end, major_error] = std::from_chars(begin, begin + dot, major);
  auto [minor_end, minor_error] = std::from_chars(begin + dot + 1, begin + text.size(), minor);
  if (major_error != std::errc{} || minor_error != std::errc{} || major_end != begin + dot ||
      minor_end != begin + text.size()) {
    return std::nullopt;
  }
  return static_cast<RocmRelease>(major * 100 + minor);
}

std::string rocm_release_name(RocmRelease release) {
  return std::to_string(release / 100) + "." + std::to_string(release % 100);
}

std::optional<RocmRelease> parse_supported_rocm_release(std::string_view text) {
  const std::optional<RocmRelease> release = parse_rocm_release(text);
  if (!release || *release < rocm_releases().front() || *release > newest_rocm_release()) {
    return std::nullopt;
  }
  return release;
}

std::string rocm_releases_covered() {
  return "ROCm " + rocm_release_name(rocm_releases().front()) + " to " +
         rocm_release_name(newest_rocm_release());
}

const MappingTable& mapping_table_for(RocmRelease target) {
  if (target == 0 || target >= newest_rocm_release()) {
    return builtin_mapping_table();
  }
  struct Built {
    std::vector<Mapping> entries;
    std::unique_ptr<MappingTable> table;
  };
  static std::mutex mutex;
  static std::map<RocmRelease, Built> built;
  const std::lock_guard<std::mutex> lock(mutex);
  Built& slot = built[target];
  if (slot.table) {
    return *slot.table;
  }
  slot.entries.assign(builtin_mapping_table().entries().begin(),
                      builtin_mapping_table().entries().end());
  // Rows and variants are both sorted by CUDA name: one merge pass.
  const VariantRow* variant = std::begin(k_variants);
  for (Mapping& entry : slot.entries) {
    while (variant != std::end(k_variants) && std::string_view(variant->cuda) < entry.cuda) {
      ++variant;
    }
    const VariantRow* chosen = nullptr;
    for (const VariantRow* v = variant;
         v != std::end(k_variants) && std::string_view(v->cuda) == entry.cuda; ++v) {
      if (v->first <= target && target <= v->last) {
        chosen = v;
      }
    }
    if (entry.hip_deprecated > target) {
      entry.hip_deprecated = 0;  // not deprecated yet at the target
    }
    if (chosen != nullptr) {
      entry.hip_deprecated = 0;  // the lists' flag is for the newest name
      entry.hip = chosen->hip;
      entry.roc = chosen->roc != nullptr ? chosen->roc : "";
      entry.support = chosen->support;
      entry.since = chosen->first;
    } else if (entry.support != Support::Unsupported && entry.since > target) {
      entry.needs_rocm = entry.since;
      entry.hip = {};
      entry.roc = {};
      entry.support = Support::Unsupported;
    }
  }
  slot.table = std::make_unique<MappingTable>(std::span<const Mapping>(slot.entries));
  return *slot.table;
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
