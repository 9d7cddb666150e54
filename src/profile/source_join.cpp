// Trace kernels to scan definitions: by base name (CUDA names survive hipification, so AMD
// traces join too), with namespaces breaking ties where both sides have them.
#include "profile/source_join.h"
#include "source/bounded_read.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gpuport {
namespace {

// `a::b::k<T>` -> {"a", "b", "k"}; template arguments and parameters dropped.
std::vector<std::string> name_parts(const std::string& name) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      // `(anonymous namespace)` is a part, not a parameter list.
      if (c == '(' && name.compare(i, 21, "(anonymous namespace)") == 0) {
        parts.back() += "(anonymous namespace)";
        i += 20;
        continue;
      }
      ++depth;
    } else if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (depth == 0 && c == ':' && i + 1 < name.size() && name[i + 1] == ':') {
      parts.emplace_back();
      ++i;
    } else if (depth == 0 && c != ' ') {
      parts.back() += c;
    }
  }
  std::erase_if(parts, [](const std::string& part) { return part.empty(); });
  return parts;
}

std::string base_of(const std::string& name) {
  const std::vector<std::string> parts = name_parts(name);
  return parts.empty() ? std::string() : parts.back();
}

// How well the namespaces of a definition agree with the trace name's, innermost first: the
// number of agreeing levels, 0 when either side has none, -1 when the innermost ones differ.
int namespace_score(const std::vector<std::string>& trace, const std::vector<std::string>& source) {
  if (trace.size() < 2 || source.size() < 2)
    return 0;
  int score = 0;
  auto t = trace.rbegin() + 1;
  auto s = source.rbegin() + 1;
  for (; t != trace.rend() && s != source.rend(); ++t, ++s) {
    if (*t != *s)
      break;
    ++score;
  }
  return score == 0 ? -1 : score;
}

std::string error_at(const std::string& path, const std::string& what) {
  return path + ": " + what;
}

}  // namespace

SourceIndex::SourceIndex(std::vector<SourceKernel> kernels) : m_kernels(std::move(kernels)) {
  std::stable_sort(m_kernels.begin(), m_kernels.end(),
                   [](const SourceKernel& a, const SourceKernel& b) {
                     return a.file != b.file ? a.file < b.file : a.line < b.line;
                   });
  for (std::size_t i = 0; i < m_kernels.size(); ++i)
    m_by_base.emplace(base_of(m_kernels[i].name), i);
}

SourceMatch SourceIndex::find(const KernelName& name) const {
  const auto [first, last] = m_by_base.equal_range(name.base);
  if (first == last || name.base.empty())
    return {};
  const std::vector<std::string> trace_parts = name_parts(name.qualified);
  int best = -2;
  SourceMatch match;
  // equal_range keeps insertion order, which is file and line order.
  for (auto it = first; it != last; ++it) {
    const SourceKernel& kernel = m_kernels[it->second];
    const int score = namespace_score(trace_parts, name_parts(kernel.name));
    if (score > best) {
      best = score;
      match.kernel = &kernel;
      match.candidates = 1;
    } else if (score == best) {
      ++match.candidates;
    }
  }
  return match;
}

tl::expected<std::vector<SourceKernel>, TraceError> load_scan_kernels(const std::string& path) {
  auto text = read_bounded_file(path, k_report_file_limit, "gpuport scan report");
  if (!text)
    return tl::unexpected(TraceError{error_at(path, text.error().message)});
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(*text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann counts bytes from 1 (the end of input counts as one); errors here give offsets.
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    return tl::unexpected(
        TraceError{error_at(path, "byte " + std::to_string(offset) + ": not valid JSON")});
  } catch (const nlohmann::json::exception& e) {
    // Valid syntax the library cannot hold, e.g. a number beyond a double's range.
    const std::string_view what = e.what();
    return tl::unexpected(TraceError{
        error_at(path, "not readable: " + std::string(what.substr(what.find("] ") + 2)))});
  }
  if (!document.is_object() || !document.contains("schema_version"))
    return tl::unexpected(
        TraceError{error_at(path, "not a gpuport scan JSON (no schema_version)")});
  const nlohmann::json& version = document["schema_version"];
  if (!version.is_string() || version.get<std::string>() != "1") {
    return tl::unexpected(
        TraceError{error_at(path, "scan schema_version " + version.dump() +
                                      " is not supported (this gpuport reads \"1\")")});
  }
  const auto kernels = document.find("kernels");
  if (kernels == document.end() || !kernels->is_array())
    return tl::unexpected(TraceError{error_at(path, "not a gpuport scan JSON (no kernels array)")});

  std::vector<SourceKernel> out;
  out.reserve(kernels->size());
  for (std::size_t i = 0; i < kernels->size(); ++i) {
    const nlohmann::json& entry = (*kernels)[i];
    const std::string where = "kernels[" + std::to_string(i) + "]: ";
    if (!entry.is_object())
      return tl::unexpected(TraceError{error_at(path, where + "not an object")});
    SourceKernel kernel;
    for (const char* field : {"name", "file"}) {
      const auto value = entry.find(field);
      if (value == entry.end() || !value->is_string())
        return tl::unexpected(
            TraceError{error_at(path, where + "\"" + field + "\" is missing or not a string")});
    }
    const auto line = entry.find("line");
    if (line == entry.end() || !line->is_number_unsigned() ||
        line->get<std::uint64_t>() > UINT32_MAX) {
      return tl::unexpected(
          TraceError{error_at(path, where + "\"line\" is missing or not a line number")});
    }
    kernel.name = entry["name"].get<std::string>();
    kernel.file = entry["file"].get<std::string>();
    kernel.line = static_cast<std::uint32_t>(line->get<std::uint64_t>());
    out.push_back(std::move(kernel));
  }
  return out;
}

}  // namespace gpuport
