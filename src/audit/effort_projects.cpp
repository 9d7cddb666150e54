// Which code belongs to a component project (a CUTLASS/CuTe kernel family, TensorRT and its
// plugins), so that the project is priced once and its code is not priced again.
#include <algorithm>

#include "audit/effort_detail.h"
#include "scan/rules/catalog.h"

namespace gpuport::effort_detail {

namespace {

std::string_view folder_of(std::string_view file) {
  const std::size_t slash = file.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : file.substr(0, slash);
}

bool is_under(std::string_view file, std::string_view folder) {
  return !folder.empty() && file.size() > folder.size() && file.starts_with(folder) &&
         file[folder.size()] == '/';
}

// The folder (up to three levels deep) a CUTLASS/CuTe use sits in: its kernel family.
std::string family_of(std::string_view file) {
  std::size_t end = 0;
  for (int level = 0; level < 3; ++level) {
    const std::size_t slash = file.find('/', end == 0 ? 0 : end + 1);
    if (slash == std::string_view::npos) {
      break;
    }
    end = slash;
  }
  return std::string(file.substr(0, end));
}

}  // namespace

bool is_cutlass_rule(std::string_view rule) {
  return rule == "GP-LIB-009" || rule == "GP-FW-024";  // C++ and the Python CuTe DSL
}

bool is_tensorrt_rule(std::string_view rule) {
  return rule == "GP-LIB-007" || rule == "GP-LIB-012" || rule == "GP-FW-005" ||
         rule == "GP-FW-006" || rule == "GP-BUILD-008" || rule == "GP-DEPLOY-007" ||
         rule == "GP-PKG-004";
}

bool is_cudnn_graph_use(const Finding& finding) {
  static const std::uint16_t k_cudnn = rule_index("GP-LIB-003");
  return finding.rule == k_cudnn && finding.detail == "cudnn_frontend::";
}

ComponentProjects::ComponentProjects(const ScanResult& scan) {
  const auto catalog = rule_catalog();
  std::map<std::string, std::size_t> family_index;
  std::optional<std::size_t> tensorrt;
  std::optional<std::size_t> cudnn;
  for (const Finding& finding : scan.findings) {
    if (!finding.is_port_work()) {
      continue;
    }
    const std::string_view rule = catalog[finding.rule].id;
    const std::string file(finding.file);
    if (is_cutlass_rule(rule)) {
      const std::string family = family_of(file);
      auto [it, added] = family_index.emplace(family, m_projects.size());
      if (added) {
        Project project;
        project.kind = Kind::CutlassFamily;
        project.folder = family;
        project.feature_gap = scan.amd_build.exists;
        // A CUDA-only feature is its whole folder; a family to port is the files that use it.
        if (project.feature_gap && !family.empty()) {
          project.trees.push_back(family);
        }
        m_projects.push_back(std::move(project));
      }
      m_projects[it->second].files.insert(file);
    } else if (is_cudnn_graph_use(finding)) {
      if (!cudnn) {
        cudnn = m_projects.size();
        m_projects.push_back(Project{Kind::CudnnGraph, "", {}, {}, {}, false});
      }
      m_projects[*cudnn].files.insert(file);
    } else if (is_tensorrt_rule(rule)) {
      if (!tensorrt) {
        tensorrt = m_projects.size();
        m_projects.push_back(Project{Kind::TensorRt, "", {}, {}, {}, false});
      }
      Project& project = m_projects[*tensorrt];
      project.files.insert(file);
      // A plugin's folder (two levels down or deeper, so never a whole source tree) holds its
      // kernels and helpers: on AMD they go with the plugin.
      const std::string_view folder = folder_of(file);
      if (rule == "GP-LIB-012" && std::count(folder.begin(), folder.end(), '/') >= 1 &&
          std::find(project.trees.begin(), project.trees.end(), folder) == project.trees.end()) {
        project.trees.emplace_back(folder);
      }
    }
  }
  static const std::uint16_t k_tensorrt_types = rule_index("GP-LIB-008");
  // Code that only names TensorRT's types (GP-LIB-008) goes with TensorRT when it is replaced.
  if (tensorrt) {
    for (const Finding& finding : scan.findings) {
      if (finding.is_port_work() && finding.rule == k_tensorrt_types) {
        m_projects[*tensorrt].derived.insert(std::string(finding.file));
      }
    }
  }
}

std::optional<std::size_t> ComponentProjects::owner(std::string_view file) const {
  for (std::size_t p = 0; p < m_projects.size(); ++p) {
    if (m_projects[p].files.contains(file) || m_projects[p].derived.contains(file)) {
      return p;
    }
  }
  std::optional<std::size_t> best;
  std::size_t best_length = 0;
  for (std::size_t p = 0; p < m_projects.size(); ++p) {
    for (const std::string& tree : m_projects[p].trees) {
      if (is_under(file, tree) && tree.size() > best_length) {
        best = p;
        best_length = tree.size();
      }
    }
  }
  return best;
}

std::string ComponentProjects::name(std::size_t project) const {
  const Project& p = m_projects[project];
  if (p.kind == Kind::TensorRt) {
    return "the TensorRT replacement";
  }
  if (p.kind == Kind::CudnnGraph) {
    return "the cuDNN graph port";
  }
  return "the CUTLASS/CuTe kernel family " +
         (p.folder.empty() ? std::string("at the root") : "in " + p.folder + "/");
}

}  // namespace gpuport::effort_detail
