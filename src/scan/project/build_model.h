// The build model of a project: its build files read together into the macros each build
// defines, the folders headers are searched in, and which sources the AMD build compiles.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lex/cmake_commands.h"
#include "lex/pp_macros.h"
#include "lex/token.h"
#include "scan/project/build_facts.h"

namespace gpuport {

enum class BuildScriptKind : std::uint8_t { CMake, Python, Make };

struct BuildFile {
  BuildFile() = default;
  BuildFile(std::string path_, std::string text_, BuildScriptKind kind_)
      : path(std::move(path_)), text(std::move(text_)), kind(kind_) {}

  std::string path;  // relative to the scan root
  std::string text;
  BuildScriptKind kind = BuildScriptKind::CMake;
  // What prepare_build_file works out from the file alone, so that the walk's threads do it
  // and BuildModel::read (one thread) does not.
  bool prepared = false;
  bool mentions_amd_build = false;
  std::vector<CMakeCommand> cmake_commands;  // a CMake file's commands
};

// Parses the file and decides whether it sets up an AMD build (once; BuildModel::read does it
// for a file that is not prepared yet).
void prepare_build_file(BuildFile& file);

// Which kind of build file a path is, if any.
bool build_script_kind(std::string_view path, BuildScriptKind& kind);

// What the build files say about one source file.
struct FileMembership {
  bool named = false;  // some build file lists it (or a glob of it)
  AmdBuildState amd = AmdBuildState::Unknown;
  bool alternative = false;  // excluded: the AMD build compiles other sources in its place
  BuildLine where;           // the line that decides it
};

class BuildModel {
 public:
  BuildModel() = default;
  // Reads the build files (in the order given: sort them for a deterministic model), preparing
  // those that are not.
  static BuildModel read(std::vector<BuildFile>& files, const PathLookup& paths);

  bool amd_build_exists() const { return m_amd_build_exists; }
  const BuildFacts& facts() const { return m_facts; }
  const ProjectMacros& macros() const { return m_macros; }
  const std::vector<std::string>& include_dirs() const { return m_facts.include_dirs; }
  // A source the AMD build compiles (some build file lists it where the AMD build runs),
  // leaves out (only the CUDA build, or another backend, lists it), or neither is known.
  FileMembership membership(std::string_view path) const;
  // How the AMD build treats a line of a build file (its innermost if-branch); unknown for a
  // file that is not a build file of the model.
  AmdBuild line_amd(std::string_view file, std::uint32_t line) const;

 private:
  void index_sources();
  void merge_definitions();

  BuildFacts m_facts;
  ProjectMacros m_macros;
  bool m_amd_build_exists = false;
  std::unordered_map<std::string, std::vector<std::uint32_t>> m_literals;
  std::unordered_map<std::string, std::vector<std::uint32_t>> m_globs_in_folder;
  std::unordered_map<std::string, std::vector<std::uint32_t>> m_recursive_below;
  std::vector<std::uint32_t> m_wild_folders;  // globs with a wildcard in their folder part
  std::unordered_map<std::string, std::vector<std::uint32_t>> m_scopes_by_file;
  std::unordered_map<std::string, bool> m_read_files;
};

}  // namespace gpuport
