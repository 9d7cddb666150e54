// The fixed point of "every includer is left out" over the scan's include edges.
#include "scan/header_membership.h"

#include <algorithm>
#include <map>
#include <set>

#include "scan/project/path_glob.h"

namespace gpuport {

std::vector<ExcludedSource> headers_left_out(const std::vector<IncluderFile>& files) {
  std::vector<const IncluderFile*> by_path;
  by_path.reserve(files.size());
  for (const IncluderFile& file : files) {
    by_path.push_back(&file);
  }
  std::sort(by_path.begin(), by_path.end(),
            [](const IncluderFile* a, const IncluderFile* b) { return a->path < b->path; });
  std::map<std::string_view, std::size_t> index;
  for (std::size_t i = 0; i < by_path.size(); ++i) {
    index.emplace(by_path[i]->path, i);
  }
  // Includers of each file, in path order; and the names an unresolved #include of a file that
  // may be compiled on AMD could mean.
  std::vector<std::vector<std::size_t>> includers(by_path.size());
  std::set<std::string_view> undecidable_names;
  for (std::size_t i = 0; i < by_path.size(); ++i) {
    const IncluderFile& file = *by_path[i];
    if (file.includes != nullptr) {
      for (const std::string& header : *file.includes) {
        if (auto it = index.find(header); it != index.end() && it->second != i) {
          std::vector<std::size_t>& list = includers[it->second];
          if (list.empty() || list.back() != i) {
            list.push_back(i);
          }
        }
      }
    }
    if (file.excluded == nullptr && file.unresolved != nullptr) {
      undecidable_names.insert(file.unresolved->begin(), file.unresolved->end());
    }
  }
  // Left out, with the source whose build line decides it, and whether all have alternatives.
  struct State {
    const ExcludedSource* root = nullptr;  // the build exclusion it traces back to
    std::string_view via;
    bool alternative = false;
  };
  std::vector<State> state(by_path.size());
  for (std::size_t i = 0; i < by_path.size(); ++i) {
    if (by_path[i]->excluded != nullptr) {
      state[i] = {by_path[i]->excluded, {}, by_path[i]->excluded->alternative};
    }
  }
  std::vector<ExcludedSource> out;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < by_path.size(); ++i) {
      const IncluderFile& file = *by_path[i];
      if (state[i].root != nullptr || file.named_by_build || includers[i].empty() ||
          undecidable_names.contains(file_name_of(file.path))) {
        continue;
      }
      bool all_left_out = true;
      bool alternative = true;
      for (std::size_t includer : includers[i]) {
        all_left_out = all_left_out && state[includer].root != nullptr;
        alternative = alternative && state[includer].alternative;
      }
      if (!all_left_out) {
        continue;
      }
      const std::size_t first = includers[i].front();
      state[i] = {state[first].root, by_path[first]->path, alternative};
      changed = true;
    }
  }
  for (std::size_t i = 0; i < by_path.size(); ++i) {
    if (state[i].root == nullptr || by_path[i]->excluded != nullptr) {
      continue;
    }
    ExcludedSource source;
    source.file = std::string(by_path[i]->path);
    source.where = state[i].root->where;
    source.alternative = state[i].alternative;
    source.via = std::string(state[i].via);
    out.push_back(std::move(source));
  }
  return out;
}

}  // namespace gpuport
