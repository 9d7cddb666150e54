// #include resolution over the project index, and the shared skeleton cache.
#include "scan/project/project_headers.h"

#include "lex/cuda_lexer.h"
#include "scan/project/path_glob.h"
#include "source/walker.h"

namespace gpuport {

namespace {

std::size_t common_prefix(std::string_view a, std::string_view b) {
  std::size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) {
    ++n;
  }
  return n;
}

}  // namespace

namespace {

std::atomic<std::uint64_t> g_generations{0};

// What a scan thread keeps for the scan it works for: the headers it already found, and its memo.
struct ThreadCache {
  std::uint64_t generation = 0;
  std::unordered_map<std::string_view, const HeaderSkeleton*> skeletons;
  std::unique_ptr<HeaderMemo> memo;
};

ThreadCache& thread_cache(std::uint64_t generation) {
  thread_local ThreadCache cache;
  if (cache.generation != generation) {
    cache.generation = generation;
    cache.skeletons.clear();
    cache.memo = std::make_unique<HeaderMemo>();
  }
  return cache;
}

}  // namespace

ProjectHeaders::ProjectHeaders(const FileSystem& fs, const ProjectIndex& index,
                               std::uint64_t max_file_size)
    : m_fs(fs), m_index(index), m_max_file_size(max_file_size), m_generation(++g_generations) {
  const auto& folders = m_index.build_model().include_dirs();
  for (std::size_t i = 0; i < folders.size(); ++i) {
    m_include_dir_rank.try_emplace(folders[i], i);
  }
}

HeaderMemo* ProjectHeaders::memo() {
  return thread_cache(m_generation).memo.get();
}

// The candidates are the project files with the header's name (usually one or two), so the
// search is over them, not over every include directory.
std::string ProjectHeaders::resolve(std::string_view from, const IncludeTarget& target) const {
  if (!target.valid || target.header.empty()) {
    return {};
  }
  const std::vector<std::string_view>& named = m_index.files_named(file_name_of(target.header));
  if (named.empty()) {
    return {};  // no project file has the header's name: a system or toolkit header
  }
  std::string_view header = target.header;
  std::string normalized;
  if (header.front() == '/' || header.find("./") != std::string_view::npos ||
      header.find("//") != std::string_view::npos) {
    // "../common.h", "./x.h": resolve the dots against the including file's folder first.
    if (!target.angled) {
      std::string beside = join_relative(parent_folder(from), header);
      if (!beside.empty() && m_index.has_file(beside)) {
        return beside;
      }
    }
    normalized = join_relative({}, header);
    if (normalized.empty()) {
      return {};
    }
    header = normalized;
  }
  const std::string_view folder = parent_folder(from);
  std::string_view best_dir;
  std::size_t best_rank = SIZE_MAX;
  std::string_view nearest;
  std::size_t nearest_shared = 0;
  for (std::string_view path : named) {
    if (path.size() < header.size() || !path.ends_with(header) ||
        (path.size() > header.size() && path[path.size() - header.size() - 1] != '/')) {
      continue;
    }
    const std::string_view prefix = path.size() == header.size()
                                        ? std::string_view{}
                                        : path.substr(0, path.size() - header.size() - 1);
    if (!target.angled && prefix == folder) {
      return std::string(path);  // beside the including file
    }
    if (auto rank = m_include_dir_rank.find(prefix);
        rank != m_include_dir_rank.end() && rank->second < best_rank) {
      best_rank = rank->second;
      best_dir = path;
    }
    if (path == from) {
      continue;
    }
    const std::size_t shared = common_prefix(path, from);
    if (nearest.empty() || shared > nearest_shared) {
      nearest = path;
      nearest_shared = shared;
    }
  }
  return std::string(!best_dir.empty() ? best_dir : nearest);
}

bool ProjectHeaders::names_project_file(std::string_view file_name) const {
  return !m_index.files_named(file_name).empty();
}

const HeaderSkeleton* ProjectHeaders::find(std::string_view from, const IncludeTarget& target) {
  if (!target.valid || m_index.files_named(file_name_of(target.header)).empty()) {
    return nullptr;  // <vector>, <cuda_runtime.h>: no project file of that name
  }
  const std::string path = resolve(from, target);
  if (path.empty()) {
    return nullptr;
  }
  ThreadCache& cache = thread_cache(m_generation);
  if (auto it = cache.skeletons.find(path); it != cache.skeletons.end()) {
    return it->second;
  }
  const HeaderSkeleton* found = skeleton(path);
  if (found != nullptr) {
    cache.skeletons.emplace(found->path, found);  // the key views the skeleton's own path
  }
  return found;
}

const HeaderSkeleton* ProjectHeaders::skeleton(const std::string& path) {
  {
    std::lock_guard lock(m_mutex);
    if (auto it = m_skeletons.find(path); it != m_skeletons.end()) {
      return it->second.get();
    }
  }
  // Read and lexed outside the lock; a worker that loses the race drops its copy, which is the
  // same (a pure function of the file's bytes).
  std::unique_ptr<HeaderSkeleton> made;
  auto contents = m_fs.read(m_index.disk_path(path), m_max_file_size);
  if (contents && !contents->is_over_limit() && !looks_binary(contents->bytes().substr(0, 8192))) {
    TokenStream tokens;
    lex_cuda_tokens(contents->bytes(), tokens);
    made = std::make_unique<HeaderSkeleton>(make_skeleton(path, tokens.directive_list()));
  }
  std::lock_guard lock(m_mutex);
  auto [it, inserted] = m_skeletons.emplace(path, std::move(made));
  return it->second.get();
}

std::size_t ProjectHeaders::headers_read() const {
  std::lock_guard lock(m_mutex);
  return m_skeletons.size();
}

}  // namespace gpuport
