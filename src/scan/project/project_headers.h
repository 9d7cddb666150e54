// The project's headers for the preprocessor view: #include targets resolved against the
// project's files, each header's directives read once per scan, and header walks recorded for
// replay (pp_memo.h).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "lex/preprocessor_view.h"
#include "scan/project/project_index.h"
#include "source/file_system.h"

namespace gpuport {

class ProjectHeaders final : public IncludeSource {
 public:
  bool names_project_file(std::string_view file_name) const override;
  ProjectHeaders(const FileSystem& fs, const ProjectIndex& index, std::uint64_t max_file_size);

  // Thread-safe. A header is searched, in order: beside the including file (for "x.h"), in the
  // build's include directories, then as the one project file whose path ends with the
  // include's path (the nearest to the including file when several do).
  const HeaderSkeleton* find(std::string_view from, const IncludeTarget& target) override;

  // The resolution alone (for tests): a root-relative path, or empty.
  std::string resolve(std::string_view from, const IncludeTarget& target) const;

  std::size_t headers_read() const;
  // Each scan thread records and replays with its own memo: recordings are pure functions of
  // their inputs, so which thread holds one changes no result, and no lock or shared counter
  // is touched per #include.
  HeaderMemo* memo() override;

 private:
  const HeaderSkeleton* skeleton(const std::string& path);

  const FileSystem& m_fs;
  const ProjectIndex& m_index;
  std::uint64_t m_max_file_size;
  std::uint64_t m_generation;  // tells this scan's thread-local caches from an earlier scan's
  std::unordered_map<std::string_view, std::size_t> m_include_dir_rank;
  mutable std::mutex m_mutex;
  // nullptr: a header that could not be read.
  std::unordered_map<std::string, std::unique_ptr<HeaderSkeleton>> m_skeletons;
};

}  // namespace gpuport
