// Build files read together: AMD build detection first, then each reader, then the indices.
#include "scan/project/build_model.h"

#include <algorithm>
#include <map>

#include "scan/project/cmake_build.h"
#include "scan/project/make_build.h"
#include "scan/project/path_glob.h"
#include "scan/project/python_build.h"

namespace gpuport {

bool build_script_kind(std::string_view path, BuildScriptKind& kind) {
  std::string_view name = file_name_of(path);
  if (name == "CMakeLists.txt" || name.ends_with(".cmake")) {
    kind = BuildScriptKind::CMake;
    return true;
  }
  if (is_makefile(path)) {
    kind = BuildScriptKind::Make;
    return true;
  }
  if (is_python_build_script(path)) {
    kind = BuildScriptKind::Python;
    return true;
  }
  return false;
}

void prepare_build_file(BuildFile& file) {
  if (file.prepared) {
    return;
  }
  switch (file.kind) {
    case BuildScriptKind::CMake:
      file.cmake_commands = parse_cmake_commands(file.text);
      file.mentions_amd_build = cmake_mentions_amd_build(file.text, file.cmake_commands);
      break;
    case BuildScriptKind::Python:
      file.mentions_amd_build = python_mentions_amd_build(file.text);
      break;
    case BuildScriptKind::Make:
      file.mentions_amd_build = make_mentions_amd_build(file.text);
      break;
  }
  file.prepared = true;
}

BuildModel BuildModel::read(std::vector<BuildFile>& files, const PathLookup& paths) {
  BuildModel model;
  BuildContext context;
  for (BuildFile& file : files) {
    prepare_build_file(file);
    context.amd_build_exists = context.amd_build_exists || file.mentions_amd_build;
  }
  for (const BuildFile& file : files) {
    switch (file.kind) {
      case BuildScriptKind::CMake:
        read_cmake_build(file.path, file.text, file.cmake_commands, context, model.m_facts);
        break;
      case BuildScriptKind::Python:
        read_python_build(file.path, file.text, context, paths, model.m_facts);
        break;
      case BuildScriptKind::Make:
        read_make_build(file.path, file.text, context, paths, model.m_facts);
        break;
    }
  }
  model.m_amd_build_exists = context.amd_build_exists || !model.m_facts.amd_setup.empty();
  for (const BuildFile& file : files) {
    model.m_read_files[file.path] = true;
  }
  for (std::size_t i = 0; i < model.m_facts.scopes.size(); ++i) {
    model.m_scopes_by_file[model.m_facts.scopes[i].file].push_back(static_cast<std::uint32_t>(i));
  }
  model.index_sources();
  model.merge_definitions();
  return model;
}

void BuildModel::index_sources() {
  for (std::size_t i = 0; i < m_facts.sources.size(); ++i) {
    const SourceReference& source = m_facts.sources[i];
    const auto index = static_cast<std::uint32_t>(i);
    if (!is_glob(source.pattern)) {
      m_literals[source.pattern].push_back(index);
      continue;
    }
    std::string folder(parent_folder(source.pattern));
    if (is_glob(folder) || source.pattern.find("**") != std::string::npos) {
      m_wild_folders.push_back(index);
    } else if (source.recursive) {
      m_recursive_below[folder].push_back(index);
    } else {
      m_globs_in_folder[folder].push_back(index);
    }
  }
}

// Per name and side: defined where some line sets it in a scope that build always runs,
// unknown where it sets it only under an option, not defined where no line of that side does.
void BuildModel::merge_definitions() {
  std::map<std::string, std::vector<const BuildDefinition*>> by_name;
  for (const BuildDefinition& definition : m_facts.definitions) {
    by_name[definition.name].push_back(&definition);
  }
  for (const auto& [name, definitions] : by_name) {
    for (BuildSide side : {BuildSide::Cuda, BuildSide::Amd}) {
      const WorldMask bit = side == BuildSide::Amd ? k_side_amd : k_side_cuda;
      const BuildDefinition* sure = nullptr;
      const BuildDefinition* maybe = nullptr;
      bool values_differ = false;
      for (const BuildDefinition* definition : definitions) {
        if ((definition->truth.sure_true() & bit) != 0) {
          if (sure != nullptr && sure->value != definition->value) {
            values_differ = true;
          }
          if (sure == nullptr) {
            sure = definition;
          }
        } else if ((definition->truth.may_true & bit) != 0 && maybe == nullptr) {
          maybe = definition;
        }
      }
      BuildMacro macro;
      const BuildDefinition* evidence = sure != nullptr    ? sure
                                        : maybe != nullptr ? maybe
                                                           : definitions.front();
      if (sure != nullptr) {
        macro.state = BuildMacro::State::Defined;
        macro.body = sure->value;
        macro.unknown_value = sure->unknown_value || values_differ;
      } else if (maybe != nullptr) {
        macro.state = BuildMacro::State::Unknown;
      } else {
        macro.state = BuildMacro::State::Undefined;
      }
      macro.evidence = evidence->where.file + ":" + std::to_string(evidence->where.line);
      m_macros.set(side, name, std::move(macro));
    }
  }
}

AmdBuild BuildModel::line_amd(std::string_view file, std::uint32_t line) const {
  AmdBuild amd;
  const std::string key(file);
  if (!m_read_files.contains(key)) {
    return amd;
  }
  TruthMask truth = TruthMask::all_true(k_both_sides);
  // The ranges holding the line, outermost first: the innermost gives the state, the outermost
  // that leaves the line out of the AMD build decides it (its guard and alternative).
  std::vector<const ScopeRange*> holding;
  if (auto it = m_scopes_by_file.find(key); it != m_scopes_by_file.end()) {
    for (std::uint32_t index : it->second) {
      const ScopeRange& range = m_facts.scopes[index];
      if (range.first_line <= line && line <= range.last_line) {
        holding.push_back(&range);
      }
    }
  }
  std::stable_sort(holding.begin(), holding.end(), [](const ScopeRange* a, const ScopeRange* b) {
    return a->first_line != b->first_line ? a->first_line < b->first_line
                                          : a->last_line > b->last_line;
  });
  if (!holding.empty()) {
    truth = holding.back()->truth;
  }
  if ((truth.sure_true() & k_side_amd) != 0) {
    amd.state = AmdBuildState::Compiled;
  } else if ((truth.may_true & k_side_amd) == 0) {
    amd.state = AmdBuildState::Excluded;
    for (const ScopeRange* range : holding) {
      if ((range->truth.may_true & k_side_amd) == 0) {
        amd.guard_line = range->guard_line;
        amd.alternative = range->amd_alternative;
        break;
      }
    }
  }
  return amd;
}

FileMembership BuildModel::membership(std::string_view path) const {
  FileMembership result;
  // Headers are compiled where they are included, whatever lists them: only sources count.
  static constexpr std::string_view k_sources[] = {".cu", ".cpp", ".cc", ".cxx", ".c", ".hip"};
  bool source = false;
  for (std::string_view extension : k_sources) {
    source = source || path.ends_with(extension);
  }
  if (!source) {
    return result;
  }
  const SourceReference* compiled = nullptr;
  const SourceReference* open = nullptr;
  const SourceReference* excluded = nullptr;
  bool alternative = false;
  auto consider = [&](std::uint32_t index, bool check) {
    const SourceReference& source = m_facts.sources[index];
    if (check && !glob_matches(source.pattern, path, source.recursive)) {
      return;
    }
    result.named = true;
    if ((source.truth.sure_true() & k_side_amd) != 0) {
      if (compiled == nullptr) {
        compiled = &source;
      }
    } else if ((source.truth.may_true & k_side_amd) != 0) {
      if (open == nullptr) {
        open = &source;
      }
    } else {
      if (excluded == nullptr) {
        excluded = &source;
      }
      alternative = alternative || source.amd_alternative;
    }
  };
  const std::string key(path);
  if (auto it = m_literals.find(key); it != m_literals.end()) {
    for (std::uint32_t index : it->second) {
      consider(index, false);
    }
  }
  std::string folder(parent_folder(path));
  if (auto it = m_globs_in_folder.find(folder); it != m_globs_in_folder.end()) {
    for (std::uint32_t index : it->second) {
      consider(index, true);
    }
  }
  if (!m_recursive_below.empty()) {
    std::string ancestor = folder;
    for (;;) {
      if (auto it = m_recursive_below.find(ancestor); it != m_recursive_below.end()) {
        for (std::uint32_t index : it->second) {
          consider(index, true);
        }
      }
      if (ancestor.empty()) {
        break;
      }
      ancestor = std::string(parent_folder(ancestor));
    }
  }
  for (std::uint32_t index : m_wild_folders) {
    consider(index, true);
  }
  if (compiled != nullptr) {
    result.amd = AmdBuildState::Compiled;
    result.where = compiled->where;
  } else if (open != nullptr) {
    result.amd = AmdBuildState::Unknown;
    result.where = open->where;
  } else if (excluded != nullptr) {
    result.amd = AmdBuildState::Excluded;
    result.alternative = alternative;
    result.where = excluded->where;
  }
  return result;
}

}  // namespace gpuport
