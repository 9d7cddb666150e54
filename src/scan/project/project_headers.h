// The project's headers for the preprocessor view: #include targets resolved against the
// project's files, and each header's directives read once per scan and shared by the workers.
#pragma once

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
  ProjectHeaders(const FileSystem& fs, const ProjectIndex& index, std::uint64_t max_file_size)
      : m_fs(fs), m_index(index), m_max_file_size(max_file_size) {}

  // Thread-safe. A header is searched, in order: beside the including file (for "x.h"), in the
  // build's include directories, then as the one project file whose path ends with the
  // include's path (the nearest to the including file when several do).
  const HeaderSkeleton* find(std::string_view from, const IncludeTarget& target) override;

  // The resolution alone (for tests): a root-relative path, or empty.
  std::string resolve(std::string_view from, const IncludeTarget& target) const;

  std::size_t headers_read() const;
  HeaderMemo* memo() override { return &m_memo; }

 private:
  const HeaderSkeleton* skeleton(const std::string& path);

  const FileSystem& m_fs;
  const ProjectIndex& m_index;
  std::uint64_t m_max_file_size;
  mutable std::mutex m_mutex;
  // nullptr: a header that could not be read.
  std::unordered_map<std::string, std::unique_ptr<HeaderSkeleton>> m_skeletons;
  // An #include as seen from a folder -> its skeleton (nullptr: not a project file). Most files
  // include the same few headers; resolving them once per folder saves the path searches.
  std::unordered_map<std::string, const HeaderSkeleton*> m_resolved;
  HeaderMemo m_memo;
};

}  // namespace gpuport
