// The scan driver: walk, read, lex, analyze on the same worker; order by path at the end.
#include "scan/scanner.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <tuple>
#include <type_traits>

#include "lex/char_scan.h"
#include "lex/config_reader.h"
#include "lex/cuda_lexer.h"
#include "lex/notebook.h"
#include "lex/python_lexer.h"
#include "scan/build_view.h"
#include "scan/components.h"
#include "scan/file_analysis.h"
#include "scan/header_membership.h"
#include "scan/heap_prefault.h"
#include "scan/project/project_headers.h"
#include "scan/rules/catalog.h"
#include "scan/rules/source_family.h"
#include "scan/suppression.h"
#include "source/tree_listing.h"

namespace gpuport {

namespace {

constexpr std::size_t k_binary_probe_bytes = 8192;

std::uint64_t count_lines(std::string_view bytes) {
  if (bytes.empty()) {
    return 0;
  }
  const auto lines = static_cast<std::uint64_t>(char_scan::count_byte(bytes, '\n'));
  return bytes.back() == '\n' ? lines : lines + 1;
}

// count_lines() from a lexed stream's line starts (one per newline, plus the first), which
// saves a pass over the bytes. The lexers stop at 4 GiB; beyond that the bytes are counted.
std::uint64_t lexed_lines(std::string_view bytes, const TokenStream& tokens) {
  if (bytes.empty()) {
    return 0;
  }
  if (bytes.size() >= std::numeric_limits<std::uint32_t>::max() - 1) {
    return count_lines(bytes);
  }
  const std::uint64_t starts = tokens.line_starts.size();
  return bytes.back() == '\n' ? starts - 1 : starts;
}

void add_lexer_warnings(const std::string& path, const TokenStream& tokens, FileAnalysis& out) {
  for (const LexDiagnostic& diagnostic : tokens.diagnostics) {
    out.warnings.push_back({path, diagnostic.line, diagnostic.column, diagnostic.message});
  }
}

// Notebook findings point into the joined code; move them to the .ipynb lines they came from.
void map_notebook_lines(const std::vector<std::uint32_t>& file_line, FileAnalysis& out) {
  auto map = [&](std::uint32_t& line) {
    if (line >= 1 && line <= file_line.size()) {
      line = file_line[line - 1];
    }
  };
  for (Finding& finding : out.findings) {
    map(finding.line);
  }
  for (AmdPathSign& sign : out.amd_path) {
    map(sign.line);
  }
  for (FileWarning& warning : out.warnings) {
    map(warning.line);
  }
}

// Imports of the project's own packages are its code, not a framework it depends on
// (`import deepspeed` inside DeepSpeed).
void drop_self_imports(const ProjectContext* project, PythonFacts& facts) {
  if (project == nullptr || project->index == nullptr ||
      project->index->python_packages().empty()) {
    return;
  }
  const std::vector<std::string>& packages = project->index->python_packages();
  std::erase_if(facts.imports, [&](const PythonImport& import) {
    std::string_view module = import.module;
    std::string_view root = module.substr(0, module.find('.'));
    return !root.empty() && std::binary_search(packages.begin(), packages.end(), root);
  });
}

void analyze_notebook(const SharedString& path, std::string_view bytes, TokenStream& tokens,
                      FileAnalysis& out) {
  auto code = extract_notebook_code(bytes);
  if (!code) {
    out.warnings.push_back({path, code.error().line, code.error().column,
                            "not a readable notebook: " + code.error().message});
    return;
  }
  lex_python(code->python, tokens);
  PythonFacts facts = extract_python_facts(tokens, {python_chain_roots()});
  analyze_python(path, tokens, facts, out);
  add_lexer_warnings(path, tokens, out);
  map_notebook_lines(code->file_line, out);
}

template <typename T, typename Key>
void sort_by(std::vector<T>& items, Key key) {
  std::stable_sort(items.begin(), items.end(),
                   [&](const T& a, const T& b) { return key(a) < key(b); });
}

// The order of each list: by file, then by these fields. Sorting happens in two steps so that
// the end of the scan does no big sort: each worker sorts a file's items by the fields after the
// file (`within`), and the collector concatenates the files in path order.
struct FindingOrder {
  static const std::string& file(const Finding& f) { return f.file; }
  static auto within(const Finding& f) { return std::tie(f.line, f.column, f.rule, f.detail); }
};
struct KernelOrder {
  static const std::string& file(const Kernel& k) { return k.file; }
  static auto within(const Kernel& k) { return std::tie(k.line, k.name); }
};
struct LaunchOrder {
  static const std::string& file(const LaunchSite& l) { return l.file; }
  static auto within(const LaunchSite& l) { return std::tie(l.line, l.kernel); }
};
struct ArtifactOrder {
  static const std::string& file(const Artifact& a) { return a.file; }
  static auto within(const Artifact& a) { return std::tie(a.line); }
};
struct AmdPathOrder {
  static const std::string& file(const AmdPathSign& s) { return s.file; }
  static auto within(const AmdPathSign& s) { return std::tie(s.line, s.detail); }
};
struct WarningOrder {
  static const std::string& file(const FileWarning& w) { return w.file; }
  static auto within(const FileWarning& w) { return std::tie(w.line, w.column, w.message); }
};

// A file's kernels, launches and other short lists mostly come out of the rules in order:
// checking is a pass of compares, while std::stable_sort would move every item through a buffer
// it allocates.
template <typename Order, typename T>
void sort_within_file(std::vector<T>& items) {
  const auto less = [](const T& a, const T& b) { return Order::within(a) < Order::within(b); };
  if (items.size() > 1 && !std::is_sorted(items.begin(), items.end(), less)) {
    std::stable_sort(items.begin(), items.end(), less);
  }
}

// Sorted by (file, within) as a whole. Concatenating per-file sorted lists in path order already
// gives that unless an item names another file or came from the walker; then sort it all (the
// result is the same stable order, since equal items always come from the same list).
template <typename Order, typename List>
void ensure_sorted(List& items) {
  using T = typename List::value_type;
  const auto less = [](const T& a, const T& b) {
    const int files = Order::file(a).compare(Order::file(b));
    return files != 0 ? files < 0 : Order::within(a) < Order::within(b);
  };
  if (std::is_sorted(items.begin(), items.end(), less)) {
    return;
  }
  if constexpr (requires { items.stable_sort(less); }) {
    items.stable_sort(less);
  } else {
    std::stable_sort(items.begin(), items.end(), less);
  }
}

// The order of a file's findings as indices into its list, for take_exact; left empty when the
// list is in order already. Over a third of the files need sorting (the rule families add their
// findings one family after another): sorting 4-byte indices, then moving each finding once,
// costs less than std::stable_sort, which moves every finding through a buffer and back.
void order_findings(const std::vector<Finding>& findings, std::vector<std::uint32_t>& order) {
  order.clear();
  const auto less = [](const Finding& a, const Finding& b) {
    return FindingOrder::within(a) < FindingOrder::within(b);
  };
  if (std::is_sorted(findings.begin(), findings.end(), less)) {
    return;
  }
  order.resize(findings.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto by_key = FindingOrder::within(findings[a]) <=> FindingOrder::within(findings[b]);
    return by_key != 0 ? by_key < 0 : a < b;  // stable: equal keys keep the rules' order
  });
}

// Every list but the findings (see order_findings).
void sort_within_file(FileAnalysis& analysis) {
  sort_within_file<KernelOrder>(analysis.kernels);
  sort_within_file<LaunchOrder>(analysis.launches);
  sort_within_file<ArtifactOrder>(analysis.artifacts);
  sort_within_file<AmdPathOrder>(analysis.amd_path);
  sort_within_file<WarningOrder>(analysis.warnings);
}

template <typename Order, typename T>
bool all_name(const std::vector<T>& items, const std::string& path) {
  if (items.empty() || Order::file(items.front()) != path) {
    return items.empty();
  }
  // Items whose path is a SharedString share the first one's text: no string comparison.
  return std::all_of(items.begin() + 1, items.end(), [&](const T& item) {
    if constexpr (std::is_same_v<decltype(item.file), SharedString>) {
      if (item.file.shares_with(items.front().file)) {
        return true;
      }
    }
    return Order::file(item) == path;
  });
}

// True when every item of the analysis names `path`: then the files' lists, each sorted within
// the file, concatenate in path order into sorted lists, and the end of the scan checks nothing.
bool names_only(const FileAnalysis& analysis, const std::string& path) {
  return all_name<FindingOrder>(analysis.findings, path) &&
         all_name<KernelOrder>(analysis.kernels, path) &&
         all_name<LaunchOrder>(analysis.launches, path) &&
         all_name<ArtifactOrder>(analysis.artifacts, path) &&
         all_name<AmdPathOrder>(analysis.amd_path, path) &&
         all_name<WarningOrder>(analysis.warnings, path);
}

template <typename T>
void append(std::vector<T>& to, std::vector<T>& from) {
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

// An instantiation-only file (flash-attention's per-head-size .cu files) is generated code.
void mark_generated(FileAnalysis& analysis) {
  for (Finding& finding : analysis.findings) {
    if (finding.scope == Scope::Product) {
      finding.scope = Scope::Generated;
    }
  }
  for (LaunchSite& launch : analysis.launches) {
    if (launch.scope == Scope::Product) {
      launch.scope = Scope::Generated;
    }
  }
}

// Collects the per-file results from every worker; finish() orders them by path.
class Collector {
 public:
  explicit Collector(ScanResult& result) : m_result(result) {}

  void add_file(const DiscoveredFile& file, std::uint64_t bytes, FileAnalysis&& analysis) {
    const bool own_items = names_only(analysis, file.path);
    const bool instantiates = analysis.kernels.empty() && analysis.template_instantiations > 0 &&
                              (file.language == Language::Cuda || file.language == Language::Cpp);
    if (instantiates) {
      mark_generated(analysis);
    }
    FindingTotals totals;
    for (const Finding& finding : analysis.findings) {
      totals.add(finding);
    }
    std::lock_guard lock(m_mutex);
    m_totals.add(totals);
    m_all_own_items = m_all_own_items && own_items;
    LanguageStats& stats = m_result.languages[file.language];
    stats.files += 1;
    stats.bytes += bytes;
    stats.lines += analysis.lines;
    m_result.files_scanned += 1;
    m_result.bytes_scanned += bytes;
    m_file_warnings += analysis.warnings.size();
    m_files.push_back({file.path, file.language, instantiates, std::move(analysis)});
  }

  // A file no reader handles: counted under its language, never read.
  void add_unread(const DiscoveredFile& file) {
    std::lock_guard lock(m_mutex);
    LanguageStats& stats = m_result.languages[file.language];
    stats.files += 1;
    stats.bytes += file.size;
  }

  void add_skip(SkippedEntry entry) {
    std::lock_guard lock(m_mutex);
    m_result.skipped.push_back(std::move(entry));
  }

  void add_warning(FileWarning warning) {
    std::lock_guard lock(m_mutex);
    m_walk_warnings.push_back(std::move(warning));
  }

  // After the walk: every list of the result in its documented order. The files' lists of
  // findings, kernels and launches become the segments of the result's lists (no item moves);
  // the short lists are moved into one vector each.
  void finish() {
    exclude_headers_of_left_out_sources();
    record_shim_includes();
    demote_tensorrt_stub_users();
    drop_warp_sizes_no_device_code_uses();
    // Sorting indices moves 4 bytes per swap; a CollectedFile is ~200.
    std::vector<std::uint32_t> by_path(m_files.size());
    std::iota(by_path.begin(), by_path.end(), 0u);
    std::sort(by_path.begin(), by_path.end(), [this](std::uint32_t a, std::uint32_t b) {
      return m_files[a].path < m_files[b].path;
    });
    m_result.warnings.reserve(m_file_warnings + m_walk_warnings.size());
    m_result.findings.reserve_segments(m_files.size());
    m_result.kernels.reserve_segments(m_files.size());
    m_result.launches.reserve_segments(m_files.size());
    for (std::size_t i = 0; i < by_path.size(); ++i) {
      // The files lie in the order the workers added them: fetch a few ahead of the loop.
      if (i + k_prefetch_files < by_path.size()) {
        const auto* ahead = reinterpret_cast<const char*>(&m_files[by_path[i + k_prefetch_files]]);
        for (std::size_t line = 0; line < sizeof(CollectedFile); line += 64) {
          __builtin_prefetch(ahead + line);
        }
      }
      CollectedFile& file = m_files[by_path[i]];
      FileAnalysis& analysis = file.analysis;
      if (file.instantiates) {
        m_result.instantiation_files.push_back({file.path, analysis.template_instantiations});
      }
      m_result.findings.append_segment(std::move(analysis.findings));
      m_result.kernels.append_segment(std::move(analysis.kernels));
      m_result.launches.append_segment(std::move(analysis.launches));
      append(m_result.artifacts, analysis.artifacts);
      append(m_result.amd_path, analysis.amd_path);
      append(m_result.warnings, analysis.warnings);
      append(m_result.guards, analysis.guards);
      append(m_result.excluded_sources, analysis.excluded);
    }
    m_files.clear();
    m_result.totals = m_totals;
    if (!m_all_own_items) {
      ensure_sorted<FindingOrder>(m_result.findings);
      ensure_sorted<KernelOrder>(m_result.kernels);
      ensure_sorted<LaunchOrder>(m_result.launches);
      ensure_sorted<ArtifactOrder>(m_result.artifacts);
      ensure_sorted<AmdPathOrder>(m_result.amd_path);
    }
    if (!m_all_own_items || !m_walk_warnings.empty()) {
      append(m_result.warnings, m_walk_warnings);
      ensure_sorted<WarningOrder>(m_result.warnings);
    }
    sort_by(m_result.skipped, [](const SkippedEntry& s) { return std::tie(s.path); });
  }

 private:
  struct CollectedFile {
    std::string path;
    Language language = Language::Other;
    bool instantiates = false;  // lists as an instantiation file
    FileAnalysis analysis;
  };

  // An #include of a project header that is a vendor shim (#defines of CUDA names to HIP
  // names) is AMD-path evidence of the including file: known only once every file is read.
  void record_shim_includes() {
    std::set<std::string_view> shims;
    for (const CollectedFile& file : m_files) {
      for (const AmdPathSign& sign : file.analysis.amd_path) {
        if (sign.kind == AmdPathKind::VendorShimHeader) {
          shims.insert(file.path);
        }
      }
    }
    if (shims.empty()) {
      return;
    }
    for (CollectedFile& file : m_files) {
      FileAnalysis& analysis = file.analysis;
      bool added = false;
      for (std::size_t i = 0; i < analysis.includes.size() && i < analysis.include_lines.size();
           ++i) {
        if (shims.contains(analysis.includes[i]) && analysis.includes[i] != file.path) {
          analysis.amd_path.push_back({AmdPathKind::ShimInclude, file.path,
                                       analysis.include_lines[i],
                                       "#include of the shim " + analysis.includes[i]});
          added = true;
        }
      }
      if (added) {
        sort_within_file<AmdPathOrder>(analysis.amd_path);
      }
    }
  }

  // A project header with a TensorRT header's name that declares nvinfer1 types and includes no
  // TensorRT header itself is a stub of those types (kept for compatibility), not TensorRT: a file
  // whose every TensorRT #include is such a stub uses TensorRT-derived types (GP-LIB-008), not the
  // TensorRT API (GP-LIB-007). Known only once every file is read.
  void demote_tensorrt_stub_users() {
    const std::uint16_t api = rule_index("GP-LIB-007");
    const std::uint16_t derived = rule_index("GP-LIB-008");
    std::set<std::string_view> stubs;
    for (const CollectedFile& file : m_files) {
      const std::string_view name = std::string_view(file.path).substr(file.path.rfind('/') + 1);
      // It declares TensorRT's types itself (its own GP-LIB-008): a header of macros only
      // (TensorRT's NvInferVersion.h) is no stub.
      const bool declares_types =
          std::any_of(file.analysis.findings.begin(), file.analysis.findings.end(),
                      [&](const Finding& finding) { return finding.rule == derived; });
      if ((file.language == Language::Cuda || file.language == Language::Cpp) &&
          source_rules::is_tensorrt_header(name) && file.analysis.tensorrt_includes == 0 &&
          declares_types) {
        stubs.insert(file.path);
      }
    }
    if (stubs.empty()) {
      return;
    }
    bool demoted = false;
    for (CollectedFile& file : m_files) {
      FileAnalysis& analysis = file.analysis;
      if (analysis.tensorrt_includes == 0) {
        continue;
      }
      std::string_view stub;
      std::uint32_t stub_includes = 0;
      for (const std::string& header : analysis.includes) {
        if (const auto it = stubs.find(header); it != stubs.end()) {
          stub = *it;
          ++stub_includes;
        }
      }
      if (stub_includes < analysis.tensorrt_includes) {
        continue;  // a TensorRT header that is not the project's stub: the real API
      }
      for (Finding& finding : analysis.findings) {
        if (finding.rule == api) {
          finding.rule = derived;
          finding.detail = "nvinfer1 types from the project's TensorRT stub " + std::string(stub);
          demoted = true;
        }
      }
    }
    if (demoted) {
      recount_totals();
    }
  }

  // `#define WARP_SIZE 32` matters where device code uses it: in its own file, or in a file
  // that includes it (directly or through other headers). A definition no such device code
  // names is no wave64 hazard, so its GP-WARP-002 goes.
  void drop_warp_sizes_no_device_code_uses() {
    std::map<std::string_view, std::size_t> by_path;
    bool any = false;
    for (std::size_t f = 0; f < m_files.size(); ++f) {
      by_path.emplace(m_files[f].path, f);
      any = any || !m_files[f].analysis.unused_warp_size_defines.empty();
    }
    if (!any) {
      return;
    }
    std::map<std::size_t, std::vector<std::size_t>> includers;  // header -> files including it
    for (std::size_t f = 0; f < m_files.size(); ++f) {
      for (const std::string& header : m_files[f].analysis.includes) {
        if (const auto it = by_path.find(header); it != by_path.end() && it->second != f) {
          includers[it->second].push_back(f);
        }
      }
    }
    const std::uint16_t rule = rule_index("GP-WARP-002");
    bool dropped = false;
    for (std::size_t h = 0; h < m_files.size(); ++h) {
      FileAnalysis& header = m_files[h].analysis;
      for (const auto& define : header.unused_warp_size_defines) {
        if (used_by_device_code_of_includers(h, define.second, includers)) {
          continue;
        }
        const std::uint32_t line = define.first;  // (a lambda cannot capture a binding in C++20)
        std::erase_if(header.findings, [&](const Finding& finding) {
          return finding.rule == rule && finding.line == line;
        });
        dropped = true;
      }
    }
    if (dropped) {
      recount_totals();
    }
  }

  // Whether device code of a file that includes file `h` (at any depth) names `name`.
  bool used_by_device_code_of_includers(
      std::size_t h, const std::string& name,
      const std::map<std::size_t, std::vector<std::size_t>>& includers) const {
    std::vector<std::size_t> pending{h};
    std::set<std::size_t> seen{h};
    while (!pending.empty()) {
      const std::size_t file = pending.back();
      pending.pop_back();
      const auto it = includers.find(file);
      if (it == includers.end()) {
        continue;
      }
      for (std::size_t includer : it->second) {
        if (!seen.insert(includer).second) {
          continue;
        }
        const std::vector<std::string>& names = m_files[includer].analysis.device_warp_size_names;
        if (std::find(names.begin(), names.end(), name) != names.end()) {
          return true;
        }
        pending.push_back(includer);
      }
    }
    return false;
  }

  // The totals again, after a pass over the whole tree changed findings the files were counted
  // with.
  void recount_totals() {
    m_totals = {};
    for (const CollectedFile& file : m_files) {
      for (const Finding& finding : file.analysis.findings) {
        m_totals.add(finding);
      }
    }
  }

  // Headers that only left-out sources include are left out too (header_membership.h): their
  // items are stamped excluded like a left-out source's, and the totals are taken again.
  void exclude_headers_of_left_out_sources() {
    std::vector<IncluderFile> files;
    bool any_left_out = false;
    for (const CollectedFile& file : m_files) {
      if (file.language != Language::Cuda && file.language != Language::Cpp) {
        continue;
      }
      const FileAnalysis& analysis = file.analysis;
      any_left_out = any_left_out || !analysis.excluded.empty();
      files.push_back({file.path, analysis.named_by_build,
                       analysis.excluded.empty() ? nullptr : &analysis.excluded.front(),
                       &analysis.includes, &analysis.unresolved_includes});
    }
    if (!any_left_out) {
      return;
    }
    std::vector<ExcludedSource> headers = headers_left_out(files);
    if (headers.empty()) {
      return;
    }
    std::map<std::string_view, ExcludedSource*> by_path;
    for (ExcludedSource& header : headers) {
      by_path.emplace(header.file, &header);
    }
    m_totals = {};
    for (CollectedFile& file : m_files) {
      FileAnalysis& analysis = file.analysis;
      if (auto it = by_path.find(file.path); it != by_path.end()) {
        const AmdBuild left_out{AmdBuildState::Excluded, it->second->alternative, 0};
        for (Finding& finding : analysis.findings) {
          finding.set_amd(left_out);
        }
        for (Kernel& kernel : analysis.kernels) {
          kernel.amd = left_out;
        }
        for (LaunchSite& launch : analysis.launches) {
          launch.amd = left_out;
        }
        analysis.excluded.push_back(std::move(*it->second));
      }
      for (const Finding& finding : analysis.findings) {
        m_totals.add(finding);
      }
    }
  }

  static constexpr std::size_t k_prefetch_files = 8;

  std::mutex m_mutex;
  ScanResult& m_result;
  FindingTotals m_totals;
  std::vector<CollectedFile> m_files;
  std::vector<FileWarning> m_walk_warnings;
  std::size_t m_file_warnings = 0;  // of every file added so far
  bool m_all_own_items = true;      // every file's items name that file (see names_only)
};

}  // namespace

void analyze_file(const std::string& file_path, std::string_view bytes, FileAnalysis& out,
                  const ProjectContext* project) {
  // One token buffer per worker thread, reused: memory follows the largest file, not the tree.
  thread_local TokenStream tokens;
  const SharedString path(file_path);  // one copy, shared by every item of the file
  Language language = detect_language(file_path);
  const ProjectIndex* index = project != nullptr ? project->index : nullptr;
  static const std::vector<std::string> k_no_submodules;
  Scope scope = scope_of_path(file_path, index != nullptr ? index->submodules() : k_no_submodules);
  switch (language) {
    case Language::Cuda:
    case Language::Cpp: {
      if (holds_nvidia_binary(file_path, bytes)) {
        out.lines = count_lines(bytes);
        analyze_embedded_binary(path, bytes, out);
        break;
      }
      PreprocessorSetup setup;
      setup.path = file_path;
      if (index != nullptr) {
        setup.build = &index->build_model().macros();
        setup.includes = project->headers;
      }
      lex_cuda(bytes, tokens, setup);
      out.lines = lexed_lines(bytes, tokens);
      analyze_cuda(path, tokens, out);
      add_lexer_warnings(path, tokens, out);
      FileMembership membership;
      if (index != nullptr) {
        membership = index->build_model().membership(file_path);
      }
      stamp_source_items(file_path, tokens, &membership, out);
      out.named_by_build = membership.named;
      // Moved, not copied: the token buffer is cleared for the next file anyway.
      out.includes.swap(tokens.amd_includes);
      out.include_lines.swap(tokens.amd_include_lines);
      out.unresolved_includes.swap(tokens.unresolved_amd_includes);
      if (scope != Scope::Vendored && says_generated(bytes)) {
        scope = Scope::Generated;
      }
      break;
    }
    case Language::Python: {
      lex_python(bytes, tokens);
      out.lines = lexed_lines(bytes, tokens);
      PythonFacts facts = extract_python_facts(tokens, {python_chain_roots()});
      drop_self_imports(project, facts);
      analyze_python(path, tokens, facts, out);
      add_lexer_warnings(path, tokens, out);
      if (index != nullptr) {
        stamp_build_file_items(file_path, bytes, index->build_model(), out);
      }
      break;
    }
    case Language::Notebook:
      out.lines = count_lines(bytes);
      analyze_notebook(path, bytes, tokens, out);
      break;
    case Language::CMake:
    case Language::Packaging:
    case Language::Docker:
    case Language::Shell:
    case Language::Yaml: {
      out.lines = count_lines(bytes);
      std::vector<ConfigLine> lines = read_config_lines(bytes, language);
      analyze_config(path, language, lines, out);
      if (index != nullptr) {
        stamp_build_file_items(file_path, bytes, index->build_model(), out);
      }
      break;
    }
    case Language::Artifact:
      out.lines = count_lines(bytes);
      analyze_artifact(path, bytes.size(), bytes.substr(0, k_artifact_head_bytes), out);
      break;
    case Language::Other:
      out.lines = count_lines(bytes);
      break;
  }
  tokens.clear();
  apply_suppressions(bytes, out.findings);
  stamp_scope(scope, out);
}

tl::expected<ScanResult, IoError> scan(const FileSystem& fs, const std::string& root,
                                       const ScanOptions& options, ScanProgress* progress) {
  auto started = std::chrono::steady_clock::now();
  ScanResult result;
  result.root = root;
  Collector collector(result);
  // The reader opens each file anyway: its size comes from there, one stat fewer per file.
  WalkOptions walk = options.walk;
  walk.sizes_from_reader = true;
  // First the project as a whole: its paths and its build files, which the preprocessor view
  // of every source needs (the build's macros, include folders, which sources AMD compiles).
  // The one walk of the tree happens here; the files are then read from its listing.
  TreeListing listing;
  auto index = ProjectIndex::build(fs, root, walk, &listing);
  if (!index) {
    return tl::unexpected(index.error());
  }
  ProjectHeaders headers(fs, *index, walk.max_file_size);
  const ProjectContext project{&*index, &headers};

  WalkCallbacks callbacks;
  callbacks.on_file = [&](const DiscoveredFile& file) {
    if (file.language == Language::Other) {
      collector.add_unread(file);
      return;
    }
    // One analysis per worker, reused: its lists grow once, and each file keeps exact-size
    // copies of them (take_exact), not lists grown by doubling.
    thread_local FileAnalysis analysis;
    analysis.clear();
    analysis.excerpts = options.excerpts;
    std::uint64_t bytes = file.size;
    if (file.language == Language::Artifact) {
      // Engines and cubins are decided by their first bytes and counted by size; the rest of
      // them (often gigabytes) is never read.
      auto head = fs.read_head(file.directory_fd, file.disk_path, k_artifact_head_bytes);
      if (!head) {
        collector.add_skip({file.path, SkipReason::Unreadable, file.size, head.error().message});
        return;
      }
      analyze_artifact(file.path, file.size, *head, analysis);
    } else {
      // The walker applied the limit to the files it stat-ed; this read applies it to the rest.
      // One buffer per worker, reused from file to file (see ReadBuffer).
      thread_local ReadBuffer buffer;
      auto contents = fs.read_entry(file.directory_fd, file.disk_path, walk.max_file_size, buffer);
      if (!contents) {
        std::uint64_t size = file.size;
        if (!file.size_known) {  // rare: the walker left the stat to this read
          const auto status = fs.status(file.disk_path, false);
          size = status ? status->size : 0;
        }
        collector.add_skip({file.path, SkipReason::Unreadable, size, contents.error().message});
        return;
      }
      if (contents->is_over_limit()) {
        collector.add_skip({file.path, SkipReason::TooLarge, contents->size_over_limit(), {}});
        return;
      }
      std::string_view data = contents->bytes();
      bytes = data.size();
      if (looks_binary(data.substr(0, k_binary_probe_bytes))) {
        collector.add_skip({file.path, SkipReason::Binary, bytes, "NUL byte in the first block"});
        return;
      }
      analyze_file(file.path, data, analysis, &project);
      if (options.prefault_heap) {
        thread_local HeapPrefault prefault;
        prefault.after_file(bytes);
      }
    }
    if (progress != nullptr) {
      progress->files.fetch_add(1, std::memory_order_relaxed);
      progress->bytes.fetch_add(bytes, std::memory_order_relaxed);
    }
    sort_within_file(analysis);
    thread_local std::vector<std::uint32_t> finding_order;
    order_findings(analysis.findings, finding_order);
    collector.add_file(file, bytes, analysis.take_exact(finding_order));
  };
  callbacks.on_skip = [&](const SkippedEntry& entry) { collector.add_skip(entry); };
  callbacks.on_warning = [&](const IoError& error) {
    collector.add_warning({error.path, 0, 0, error.message});
  };

  replay_listing(fs, listing, walk.jobs, callbacks);
  result.ignored_entries = listing.summary.ignored;
  if (options.keep_listing != nullptr) {
    *options.keep_listing = std::move(listing);
  }
  collector.finish();
  result.components = build_components(result);
  result.amd_build = summarize_amd_build(result, index->build_model());
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

AmdBuildPath summarize_amd_build(const ScanResult& result, const BuildModel& model) {
  constexpr std::size_t k_max_lines = 8;
  AmdBuildPath path;
  const BuildFacts& facts = model.facts();
  for (const BuildLine& line : facts.amd_setup) {
    if (path.setup.size() < k_max_lines) {
      path.setup.push_back(line);
    }
  }
  for (const BuildLine& line : facts.amd_switches) {
    if (path.switches.size() < k_max_lines) {
      path.switches.push_back(line);
    }
  }
  for (const AmdPathSign& sign : result.amd_path) {
    if (sign.kind == AmdPathKind::VendorShimHeader && path.shims.size() < k_max_lines) {
      path.shims.push_back({sign.file, sign.line});
    } else if ((sign.kind == AmdPathKind::RocmImage || sign.kind == AmdPathKind::RocmPackage) &&
               path.ci.size() < k_max_lines) {
      path.ci.push_back({sign.file, sign.line});
    } else if (sign.kind == AmdPathKind::HipInclude) {
      if (path.hip_include_files++ < k_max_lines) {
        path.hip_includes.push_back({sign.file, sign.line});
      }
    } else if (sign.kind == AmdPathKind::ShimInclude) {
      if (path.shim_include_sites++ < k_max_lines) {
        path.shim_includes.push_back({sign.file, sign.line});
      }
    }
  }
  // Source written for HIP is an AMD path too, even where no build file of the scan sets one up.
  path.exists = model.amd_build_exists() || !path.shims.empty() || path.hip_include_files > 0;
  // Kernels are sorted by file: count each product file that defines one.
  std::string_view current;
  bool any_compiled = false;
  bool all_excluded = true;
  auto close_file = [&] {
    if (current.empty()) {
      return;
    }
    ++path.kernel_files;
    path.kernel_files_compiled += any_compiled ? 1 : 0;
    path.kernel_files_excluded += all_excluded ? 1 : 0;
  };
  for (const Kernel& kernel : result.kernels) {
    if (kernel.scope != Scope::Product) {
      continue;
    }
    if (std::string_view(kernel.file) != current) {
      close_file();
      current = kernel.file;
      any_compiled = false;
      all_excluded = true;
    }
    any_compiled = any_compiled || kernel.amd.state == AmdBuildState::Compiled;
    all_excluded = all_excluded && kernel.amd.state == AmdBuildState::Excluded;
  }
  close_file();
  return path;
}

}  // namespace gpuport
