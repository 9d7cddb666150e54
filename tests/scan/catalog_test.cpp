// The catalog contract: unique sorted ids, known components, a fixture and a doc page per rule;
// the source families own their rows, and no published rule or component goes missing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string_view>

#include "fixture_expectations.h"
#include "scan/rules/catalog.h"
#include "scan/rules/catalog_rows.h"
#include "scan/rules/source_family.h"

namespace gpuport {
namespace {

const std::filesystem::path k_root = GPUPORT_SOURCE_DIR;

bool valid_id(std::string_view id) {
  // GP-<FAMILY>-NNN
  if (!id.starts_with("GP-") || id.size() < 8) {
    return false;
  }
  std::string_view number = id.substr(id.size() - 3);
  return id[id.size() - 4] == '-' &&
         std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; });
}

TEST(Catalog, HasAtLeastFiftyRules) {
  EXPECT_GE(rule_catalog().size(), 50u);
}

TEST(Catalog, IdsAreWellFormedSortedAndUnique) {
  std::span<const RuleInfo> rules = rule_catalog();
  for (std::size_t i = 0; i < rules.size(); ++i) {
    EXPECT_TRUE(valid_id(rules[i].id)) << rules[i].id;
    if (i > 0) {
      EXPECT_LT(rules[i - 1].id, rules[i].id) << "duplicate or unsorted id";
    }
    std::string family_prefix = "GP-" + std::string(rules[i].family) + "-";
    EXPECT_TRUE(rules[i].id.starts_with(family_prefix)) << rules[i].id;
  }
}

TEST(Catalog, EveryRuleHasTextAndAKnownComponent) {
  for (const RuleInfo& rule : rule_catalog()) {
    EXPECT_FALSE(rule.summary.empty()) << rule.id;
    EXPECT_TRUE(rule.summary.ends_with(".")) << rule.id << ": summary is one sentence";
    EXPECT_FALSE(rule.fix.empty()) << rule.id;
    EXPECT_GE(rule.effort_hours, 0.0) << rule.id;
    EXPECT_NE(find_component(rule.component), nullptr)
        << rule.id << " names unknown component '" << rule.component << "'";
  }
}

TEST(Catalog, ComponentNamesAreUnique) {
  std::set<std::string_view> names;
  for (const ComponentInfo& component : component_catalog()) {
    EXPECT_TRUE(names.insert(component.name).second) << component.name;
    EXPECT_FALSE(component.amd_status.empty()) << component.name;
  }
}

TEST(Catalog, EveryRuleHasAFixtureThatExpectsIt) {
  for (const RuleInfo& rule : rule_catalog()) {
    std::filesystem::path directory = k_root / "tests/fixtures/rules" / std::string(rule.id);
    ASSERT_TRUE(std::filesystem::is_directory(directory)) << "no fixture for " << rule.id;
    std::vector<std::string> expected = testing::read_expectations(directory);
    bool claimed = std::any_of(expected.begin(), expected.end(), [&](const std::string& e) {
      return e.ends_with(" " + std::string(rule.id));
    });
    EXPECT_TRUE(claimed) << "fixture of " << rule.id << " never expects it";
  }
}

TEST(Catalog, EveryRuleHasADocPageOpeningWithItsSummary) {
  for (const RuleInfo& rule : rule_catalog()) {
    std::filesystem::path page = k_root / "docs/rules" / (std::string(rule.id) + ".md");
    std::ifstream in(page);
    ASSERT_TRUE(in.good()) << "missing " << page.filename();
    std::string first_line;
    std::getline(in, first_line);
    EXPECT_EQ(first_line, "# " + std::string(rule.id) + ": " + std::string(rule.summary));
  }
}

TEST(Catalog, NoFixtureDirectoryForAnUnknownRule) {
  for (const auto& directory : testing::fixture_directories("rules")) {
    EXPECT_NE(find_rule(directory.filename().string()), nullptr)
        << "fixture directory without a rule: " << directory.filename();
  }
}

// Rule ids are stable forever, and findings name their component: every rule and component the
// catalog held when the source families became units (109 rules, 51 components) is still there.
// A new rule or component needs no entry here.
TEST(Catalog, KeepsEveryPublishedRuleAndComponent) {
  constexpr std::string_view k_rule_ids[] = {
      "GP-ART-001",    "GP-ART-002",    "GP-ART-003",    "GP-ART-004",    "GP-ASM-001",
      "GP-ASM-002",    "GP-BUILD-001",  "GP-BUILD-002",  "GP-BUILD-003",  "GP-BUILD-004",
      "GP-BUILD-005",  "GP-BUILD-006",  "GP-BUILD-007",  "GP-BUILD-008",  "GP-BUILD-009",
      "GP-BUILD-010",  "GP-DEPLOY-001", "GP-DEPLOY-002", "GP-DEPLOY-003", "GP-DEPLOY-004",
      "GP-DEPLOY-005", "GP-DEPLOY-006", "GP-DEPLOY-007", "GP-DEV-001",    "GP-DEV-002",
      "GP-DEV-003",    "GP-DEV-004",    "GP-DEV-005",    "GP-DEV-006",    "GP-DEV-007",
      "GP-DEV-008",    "GP-DEV-009",    "GP-EXEC-001",   "GP-EXEC-002",   "GP-EXEC-003",
      "GP-EXEC-004",   "GP-EXEC-005",   "GP-EXEC-006",   "GP-EXEC-007",   "GP-EXEC-008",
      "GP-EXEC-009",   "GP-EXEC-010",   "GP-EXEC-011",   "GP-EXEC-012",   "GP-FW-001",
      "GP-FW-002",     "GP-FW-003",     "GP-FW-004",     "GP-FW-005",     "GP-FW-006",
      "GP-FW-007",     "GP-FW-008",     "GP-FW-009",     "GP-FW-010",     "GP-FW-011",
      "GP-FW-012",     "GP-FW-013",     "GP-FW-014",     "GP-FW-015",     "GP-FW-016",
      "GP-FW-017",     "GP-FW-018",     "GP-FW-019",     "GP-FW-020",     "GP-FW-021",
      "GP-FW-022",     "GP-FW-023",     "GP-FW-024",     "GP-FW-025",     "GP-FW-026",
      "GP-LIB-001",    "GP-LIB-002",    "GP-LIB-003",    "GP-LIB-004",    "GP-LIB-005",
      "GP-LIB-006",    "GP-LIB-007",    "GP-LIB-008",    "GP-LIB-009",    "GP-LIB-010",
      "GP-LIB-011",    "GP-LIB-012",    "GP-MEM-001",    "GP-MEM-002",    "GP-MEM-003",
      "GP-MEM-004",    "GP-MEM-005",    "GP-MEM-006",    "GP-MEM-007",    "GP-MEM-008",
      "GP-MMA-001",    "GP-MMA-002",    "GP-PKG-001",    "GP-PKG-002",    "GP-PKG-003",
      "GP-PKG-004",    "GP-PKG-005",    "GP-PKG-006",    "GP-PKG-007",    "GP-PKG-008",
      "GP-TYPE-001",   "GP-TYPE-002",   "GP-TYPE-003",   "GP-WARP-001",   "GP-WARP-002",
      "GP-WARP-003",   "GP-WARP-004",   "GP-WARP-005",   "GP-WARP-006",   "GP-WARP-007",
      "GP-WARP-008",   "GP-WARP-009",   "GP-WARP-010",   "GP-WARP-011",   "GP-WARP-012",
      "GP-WARP-013",   "GP-WARP-014",
  };
  constexpr std::string_view k_component_names[] = {
      "AmgX",
      "Apex",
      "Arch guards",
      "CUB / Thrust",
      "CUDA build (CMake)",
      "CUDA build (setup.py)",
      "CUDA driver API",
      "CUDA math libraries",
      "CUDA runtime API",
      "CUDA source in Python strings",
      "CUDA wheels",
      "CUTLASS / CuTe",
      "CuPy",
      "Custom CUDA kernels",
      "DeepSpeed",
      "Device functions",
      "Docker base image",
      "Execution model",
      "GPU scheduling (Kubernetes/compose)",
      "GPU tooling in scripts",
      "Hopper features",
      "Inline PTX",
      "JAX",
      "Low-precision types",
      "Managed memory",
      "NCCL",
      "NVML",
      "NVRTC",
      "Numba CUDA",
      "ONNX Runtime",
      "Precompiled NVIDIA binaries",
      "Profiling hooks (NVTX)",
      "PyTorch",
      "SGLang",
      "Shared memory (LDS)",
      "TensorRT",
      "TensorRT-LLM",
      "TensorRT-derived code",
      "Textures and surfaces",
      "Transformer Engine",
      "Triton",
      "WMMA",
      "Warp size (wave64)",
      "bitsandbytes",
      "cuBLAS / cuBLASLt",
      "cuDNN",
      "cuda-python",
      "flash-attention",
      "pynvml / NVML (Python)",
      "vLLM",
      "xFormers",
  };
  for (std::string_view id : k_rule_ids) {
    EXPECT_NE(find_rule(id), nullptr) << id;
  }
  for (std::string_view name : k_component_names) {
    EXPECT_NE(find_component(name), nullptr) << name;
  }
}

// The catalog is the rows of every source family plus the stack rows, nothing else, each once.
TEST(Catalog, IsTheSourceFamiliesRowsAndTheStackRows) {
  std::multiset<std::string_view> ids;
  std::multiset<std::string_view> components;
  for (const source_rules::SourceFamily* family : source_rules::source_families()) {
    for (const RuleInfo& rule : family->rules) {
      ids.insert(rule.id);
    }
    for (const ComponentInfo& component : family->components) {
      components.insert(component.name);
    }
  }
  for (const RuleInfo& rule : stack_rule_rows()) {
    ids.insert(rule.id);
  }
  for (const ComponentInfo& component : stack_component_rows()) {
    components.insert(component.name);
  }
  std::multiset<std::string_view> catalog_ids;
  for (const RuleInfo& rule : rule_catalog()) {
    catalog_ids.insert(rule.id);
  }
  std::multiset<std::string_view> catalog_components;
  for (const ComponentInfo& component : component_catalog()) {
    catalog_components.insert(component.name);
  }
  EXPECT_EQ(ids, catalog_ids);
  EXPECT_EQ(components, catalog_components);
}

// Each family's rows carry its own family field(s) ("MMA/TYPE": MMA or TYPE); ids and component
// rows are unique across families; every family registers handlers.
TEST(Catalog, EachSourceFamilyOwnsItsRows) {
  std::set<std::string_view> names;
  std::map<std::string_view, std::string_view> id_owner;
  std::map<std::string_view, std::string_view> component_owner;
  for (const source_rules::SourceFamily* family : source_rules::source_families()) {
    ASSERT_NE(family, nullptr);
    EXPECT_TRUE(names.insert(family->name).second) << "family listed twice: " << family->name;
    EXPECT_NE(family->register_handlers, nullptr) << family->name;
    EXPECT_FALSE(family->rules.empty()) << family->name;
    std::set<std::string_view> fields;
    for (std::string_view rest = family->name; !rest.empty();) {
      const std::size_t slash = rest.find('/');
      fields.insert(rest.substr(0, slash));
      rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
    }
    for (const RuleInfo& rule : family->rules) {
      EXPECT_TRUE(fields.contains(rule.family))
          << rule.id << " has family " << rule.family << " but sits in " << family->name;
      auto [it, inserted] = id_owner.emplace(rule.id, family->name);
      EXPECT_TRUE(inserted) << rule.id << " in " << it->second << " and " << family->name;
    }
    for (const ComponentInfo& component : family->components) {
      auto [it, inserted] = component_owner.emplace(component.name, family->name);
      EXPECT_TRUE(inserted) << component.name << " in " << it->second << " and " << family->name;
    }
  }
}

}  // namespace
}  // namespace gpuport
