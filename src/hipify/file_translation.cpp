// Per-use bookkeeping of a translation: targets under --roc, conversion counts, unsupported and
// deprecated uses.
#include "hipify/file_translation.h"

#include <algorithm>
#include <tuple>

namespace gpuport {
namespace {

// Library families that have roc* names under --roc.
bool has_roc_names(ApiFamily family) {
  return family == ApiFamily::Blas || family == ApiFamily::Rand || family == ApiFamily::Fft ||
         family == ApiFamily::Sparse || family == ApiFamily::Solver;
}

bool stays_hip_under_roc(const Mapping& entry, const TranslateOptions& options,
                         std::string_view chosen) {
  return options.roc && chosen.empty() && entry.kind == MappingKind::Function &&
         entry.roc.empty() && has_roc_names(entry.family);
}

}  // namespace

std::string_view FileTranslation::target(const Mapping& entry) const {
  if (entry.support == Support::Unsupported) {
    return {};
  }
  if (options.roc && !entry.roc.empty()) {
    return entry.roc;
  }
  return entry.hip;
}

void FileTranslation::review(std::size_t index, ApiFamily family, Lifecycle lifecycle,
                             std::string_view why) {
  const Token& token = ts.tokens[index];
  stats.needs_review.push_back(
      {std::string(ts.text(token)), path, token.line, ts.column(token), family, lifecycle, why});
}

std::string_view FileTranslation::record_use(const Mapping& entry, std::string_view written,
                                             std::uint32_t offset, std::uint32_t line, bool in_code,
                                             std::string_view chosen) {
  std::string_view to = chosen.empty() ? target(entry) : chosen;
  if (in_code) {
    auto use = [&] {
      std::uint32_t at_line = line != 0 ? line : ts.line_of(offset);
      std::uint32_t column = offset - ts.line_starts[at_line - 1] + 1;
      return UnsupportedUse{std::string(written), path, at_line, column, entry.family,
                            entry.lifecycle,      {}};
    };
    if (entry.lifecycle != Lifecycle::Current) {
      ++stats.deprecated_uses;
    }
    if (entry.hip_deprecated != 0 && !to.empty() && to == entry.hip) {
      ++stats.hip_deprecated_uses;
    }
    if (to.empty()) {
      stats.unsupported.push_back(use());
      stats.unsupported.back().needs_rocm = entry.needs_rocm;
    } else if (entry.family == ApiFamily::Fp8) {
      stats.needs_review.push_back(use());
      stats.needs_review.back().why =
          "FP8 encodings differ: MI300 uses FNUZ, CUDA and gfx950 use OCP; check the scaling";
    } else if (stays_hip_under_roc(entry, options, chosen)) {
      stats.needs_review.push_back(use());
      stats.needs_review.back().why =
          "no one-for-one roc* form (its arguments differ), so it stays hip* under --roc; pass it "
          "a hip* handle or port the call by hand";
    }
  }
  if (!to.empty()) {
    if (to == entry.cuda) {
      ++stats.kept;
      ++stats.kept_by_family[static_cast<std::size_t>(entry.family)];
    } else {
      ++stats.converted;
      ++stats.converted_by_family[static_cast<std::size_t>(entry.family)];
      m_converted.emplace_back(&entry, to);
    }
  }
  return to;
}

void FileTranslation::finish_stats() {
  std::sort(m_converted.begin(), m_converted.end());
  stats.converted_by_name.clear();
  for (std::size_t i = 0; i < m_converted.size();) {
    const auto& [entry, to] = m_converted[i];
    std::size_t end = i + 1;
    while (end < m_converted.size() && m_converted[end] == m_converted[i]) {
      ++end;
    }
    stats.converted_by_name.push_back(
        {std::string(entry->cuda), std::string(to), entry->family, end - i});
    i = end;
  }
  std::sort(stats.converted_by_name.begin(), stats.converted_by_name.end(),
            [](const ConversionCount& a, const ConversionCount& b) {
              return std::tie(a.cuda, a.hip) < std::tie(b.cuda, b.hip);
            });
}

}  // namespace gpuport
