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

std::string ProjectHeaders::resolve(std::string_view from, const IncludeTarget& target) const {
  if (!target.valid || target.header.empty()) {
    return {};
  }
  if (!target.angled) {
    std::string beside = join_relative(parent_folder(from), target.header);
    if (!beside.empty() && m_index.has_file(beside)) {
      return beside;
    }
  }
  for (const std::string& folder : m_index.build_model().include_dirs()) {
    std::string candidate = join_relative(folder, target.header);
    if (!candidate.empty() && m_index.has_file(candidate)) {
      return candidate;
    }
  }
  // The project file whose path ends with the include's path; of several, the one sharing the
  // longest folder prefix with the including file, then the first in path order.
  std::string normalized = join_relative({}, target.header);
  if (normalized.empty()) {
    return {};
  }
  std::string_view best;
  std::size_t best_shared = 0;
  for (std::string_view path : m_index.files_named(file_name_of(normalized))) {
    if (path.size() != normalized.size() &&
        !(path.size() > normalized.size() && path.ends_with(normalized) &&
          path[path.size() - normalized.size() - 1] == '/')) {
      continue;
    }
    if (path == from) {
      continue;
    }
    std::size_t shared = common_prefix(path, from);
    if (best.empty() || shared > best_shared) {
      best = path;
      best_shared = shared;
    }
  }
  return std::string(best);
}

const HeaderSkeleton* ProjectHeaders::find(std::string_view from, const IncludeTarget& target) {
  if (!target.valid) {
    return nullptr;
  }
  // Resolution depends on the folder of `from` (the file itself only breaks ties between equally
  // near candidates, which a file never is for its own includes).
  std::string key(parent_folder(from));
  key += target.angled ? '<' : '"';
  key += target.header;
  {
    std::lock_guard lock(m_mutex);
    if (auto it = m_resolved.find(key); it != m_resolved.end()) {
      return it->second;
    }
  }
  std::string path = resolve(from, target);
  const HeaderSkeleton* found = path.empty() ? nullptr : skeleton(path);
  std::lock_guard lock(m_mutex);
  m_resolved.emplace(std::move(key), found);
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
