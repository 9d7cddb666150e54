// What a scan learns of a project before it analyses any file: every path (for #include
// resolution and build globs), the build model, the project's own Python packages and its
// submodules. One walk that reads only the build files.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <tl/expected.hpp>

#include "scan/project/build_model.h"
#include "source/file_system.h"
#include "source/tree_listing.h"
#include "source/walker.h"

namespace gpuport {

class ProjectIndex final : public PathLookup {
 public:
  ProjectIndex() = default;
  // The sets hold views of the file list: a copy would dangle, a move keeps them.
  ProjectIndex(const ProjectIndex&) = delete;
  ProjectIndex& operator=(const ProjectIndex&) = delete;
  ProjectIndex(ProjectIndex&&) = default;
  ProjectIndex& operator=(ProjectIndex&&) = default;

  // Walks `root` with the scan's walk options (ignore files and --exclude apply) and reads its
  // build files. What the walk found goes to `listing` when given, for the scan to read the
  // files from. Fails only when the root cannot be read.
  static tl::expected<ProjectIndex, IoError> build(const FileSystem& fs, const std::string& root,
                                                   const WalkOptions& walk,
                                                   TreeListing* listing = nullptr);
  // An index of the given paths and build files (tests, and callers with no tree on disk).
  static ProjectIndex from(std::string root, std::vector<std::string> files,
                           std::vector<BuildFile> build_files);

  bool has_file(std::string_view path) const override;
  bool has_folder(std::string_view path) const override;
  // The path to hand the FileSystem for a root-relative path.
  std::string disk_path(std::string_view path) const;

  const std::vector<std::string>& files() const { return m_files; }
  // Root-relative paths of the files named `name`, sorted.
  const std::vector<std::string_view>& files_named(std::string_view name) const;
  const BuildModel& build_model() const { return m_build; }
  // Names a Python `import` of the project's own code uses: its top-level packages (a folder
  // with an __init__.py whose parent has none) and its top-level modules.
  const std::vector<std::string>& python_packages() const { return m_packages; }
  // Folders of git submodules (.gitmodules), vendored code.
  const std::vector<std::string>& submodules() const { return m_submodules; }

 private:
  void finish(std::vector<BuildFile> build_files, unsigned jobs = 1);
  void index_file_names();            // m_file_set, m_by_name
  void index_folders_and_packages();  // m_folder_set, m_packages

  std::string m_root;
  bool m_root_is_file = false;
  std::vector<std::string> m_files;  // sorted
  std::unordered_set<std::string_view> m_file_set;
  std::unordered_set<std::string> m_folder_set;
  std::unordered_map<std::string_view, std::vector<std::string_view>> m_by_name;
  BuildModel m_build;
  std::vector<std::string> m_packages;
  std::vector<std::string> m_submodules;
};

}  // namespace gpuport
