// Tests for the build model: CMake, setup.py and Makefile readers, source membership, the
// macros each build defines, include folders, line states, path joining and globs.
#include "scan/project/build_model.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "scan/project/build_switches.h"
#include "scan/project/path_glob.h"
#include "scan/project/python_build.h"

namespace gpuport {
namespace {

class Paths : public PathLookup {
 public:
  explicit Paths(std::vector<std::string> files) {
    for (const std::string& file : files) {
      m_files.insert(file);
      std::string_view folder = parent_folder(file);
      while (!folder.empty()) {
        m_folders.insert(std::string(folder));
        folder = parent_folder(folder);
      }
    }
  }
  bool has_file(std::string_view path) const override {
    return m_files.contains(std::string(path));
  }
  bool has_folder(std::string_view path) const override {
    return path.empty() || m_folders.contains(std::string(path));
  }

 private:
  std::set<std::string> m_files;
  std::set<std::string> m_folders;
};

BuildModel model_of(std::vector<BuildFile> files, const std::vector<std::string>& paths = {}) {
  Paths lookup(paths);
  return BuildModel::read(files, lookup);
}

// ---- paths and globs -------------------------------------------------------------------------

TEST(PathGlob, JoinResolvesDotsAndRefusesToLeaveTheRoot) {
  EXPECT_EQ(join_relative("ggml/src/ggml-hip", "../ggml-cuda/*.cu"), "ggml/src/ggml-cuda/*.cu");
  EXPECT_EQ(join_relative("", "./csrc//ops.cu"), "csrc/ops.cu");
  EXPECT_EQ(join_relative("a", "../../x.cu"), "");
  EXPECT_EQ(join_relative("a", "/usr/include/x.h"), "");
  EXPECT_EQ(parent_folder("a/b/c.cu"), "a/b");
  EXPECT_EQ(file_name_of("a/b/c.cu"), "c.cu");
}

TEST(PathGlob, StarStaysInItsFolderUnlessRecursive) {
  EXPECT_TRUE(glob_matches("src/*.cu", "src/a.cu", false));
  EXPECT_FALSE(glob_matches("src/*.cu", "src/sub/a.cu", false));
  EXPECT_TRUE(glob_matches("src/*.cu", "src/sub/a.cu", true));
  EXPECT_FALSE(glob_matches("src/*.cu", "other/a.cu", true));
  EXPECT_TRUE(glob_matches("t/fattn-vec*q4_0-q4_0.cu", "t/fattn-vec-f16-instance-hs64-q4_0-q4_0.cu",
                           false));
  EXPECT_FALSE(glob_matches("t/fattn-vec*q4_0-q4_0.cu", "t/fattn-vec-f16-q8_0-q8_0.cu", false));
  EXPECT_TRUE(glob_matches("k/gemm_sm[78]0.cu", "k/gemm_sm80.cu", false));
  EXPECT_FALSE(glob_matches("k/gemm_sm[!78]0.cu", "k/gemm_sm80.cu", false));
  EXPECT_TRUE(glob_matches("csrc/**/*.cu", "csrc/a/b/c.cu", false));
  EXPECT_TRUE(is_glob("a/*.cu"));
  EXPECT_FALSE(is_glob("a/b.cu"));
}

TEST(PathGlob, PathologicalPatternsStayFast) {
  const std::string pattern = std::string(30, '*') + "a" + std::string(30, '*') + "b";
  EXPECT_FALSE(glob_matches(pattern, std::string(2000, 'a'), true));
}

// ---- switches ---------------------------------------------------------------------------------

TEST(BuildSwitches, BackendNamesAndValues) {
  EXPECT_EQ(classify_build_switch("GGML_HIP"), BuildSwitch::Amd);
  EXPECT_EQ(classify_build_switch("BUILD_HIP"), BuildSwitch::Amd);
  EXPECT_EQ(classify_build_switch("USE_ROCM"), BuildSwitch::Amd);
  EXPECT_EQ(classify_build_switch("LLAMA_HIPBLAS"), BuildSwitch::Amd);
  EXPECT_EQ(classify_build_switch("hip_FOUND"), BuildSwitch::Amd);
  EXPECT_EQ(classify_build_switch("GGML_CUDA"), BuildSwitch::Cuda);
  EXPECT_EQ(classify_build_switch("CUDAToolkit_FOUND"), BuildSwitch::Cuda);
  EXPECT_EQ(classify_build_switch("GGML_MUSA"), BuildSwitch::OtherBackend);
  EXPECT_EQ(classify_build_switch("GGML_HIP_UMA"), BuildSwitch::None);
  EXPECT_EQ(classify_build_switch("GGML_CUDA_F16"), BuildSwitch::None);
  EXPECT_EQ(classify_build_switch("CMAKE_HIP_ARCHITECTURES"), BuildSwitch::None);
  EXPECT_EQ(classify_backend_value("rocm"), BuildSwitch::Amd);
  EXPECT_EQ(classify_backend_value("cuda"), BuildSwitch::Cuda);
  EXPECT_EQ(classify_backend_value("xpu"), BuildSwitch::OtherBackend);
  EXPECT_EQ(classify_backend_value("cpu"), BuildSwitch::None);
}

TEST(BuildSwitches, CudaSwitchIsOnInTheAmdBuildOnlyWithoutAnAmdBuild) {
  BuildContext with;
  with.amd_build_exists = true;
  EXPECT_EQ(switch_truth(BuildSwitch::Cuda, with).sure_false(), k_side_amd);
  EXPECT_EQ(switch_truth(BuildSwitch::Cuda, BuildContext{}).sure_true(), k_both_sides);
  EXPECT_EQ(switch_truth(BuildSwitch::Amd, with).sure_true(), k_side_amd);
  EXPECT_EQ(switch_truth(BuildSwitch::None, with).unknown(), k_both_sides);
}

// ---- CMake ------------------------------------------------------------------------------------

// bitsandbytes' shape: one CMakeLists choosing the backend, a source list per branch.
const char* const k_backend_choice = R"cmake(cmake_minimum_required(VERSION 3.22)
project(kernels LANGUAGES CXX)
set(GPU_FILES csrc/ops.cu csrc/kernels.cu)
set(COMPUTE_BACKEND "cpu" CACHE STRING "cpu, cuda or hip")
if(${COMPUTE_BACKEND} STREQUAL "cuda")
    set(BUILD_CUDA ON)
elseif(${COMPUTE_BACKEND} STREQUAL "hip")
    set(BUILD_HIP ON)
endif()
if(BUILD_CUDA)
    enable_language(CUDA)
    list(APPEND SRC_FILES ${GPU_FILES})
    if(80 IN_LIST CAPABILITIES)
        list(APPEND SRC_FILES csrc/gemm_sm80.cu)
        add_compile_definitions(HAS_GEMM_SM80)
    endif()
    add_compile_definitions(BUILD_CUDA)
elseif(BUILD_HIP)
    enable_language(HIP)
    list(APPEND SRC_FILES ${GPU_FILES} csrc/gemm_simt.cu)
    add_compile_definitions(BUILD_HIP)
    add_compile_definitions(WAVE=${WAVE_SIZE})
endif()
if(BUILD_HIP AND ENABLE_PROFILING)
    add_compile_definitions(KERNELS_PROFILE)
endif()
add_library(kernels SHARED ${SRC_FILES} csrc/host.cpp)
target_include_directories(kernels PUBLIC csrc)
)cmake";

TEST(CMakeBuild, SourcesPerBranchAndTheirAlternative) {
  BuildModel model = model_of({{"CMakeLists.txt", k_backend_choice, BuildScriptKind::CMake}});
  EXPECT_TRUE(model.amd_build_exists());
  const FileMembership sm80 = model.membership("csrc/gemm_sm80.cu");
  EXPECT_TRUE(sm80.named);
  EXPECT_EQ(sm80.amd, AmdBuildState::Excluded);
  EXPECT_TRUE(sm80.alternative);  // the HIP branch lists its own GEMM
  EXPECT_EQ(sm80.where.line, 14u);
  EXPECT_EQ(sm80.where.text, "list(APPEND SRC_FILES csrc/gemm_sm80.cu)");
  EXPECT_EQ(model.membership("csrc/gemm_simt.cu").amd, AmdBuildState::Compiled);
  EXPECT_EQ(model.membership("csrc/ops.cu").amd, AmdBuildState::Compiled);
  EXPECT_EQ(model.membership("csrc/host.cpp").amd, AmdBuildState::Compiled);
  EXPECT_FALSE(model.membership("csrc/other.cu").named);
  EXPECT_EQ(model.membership("csrc/other.cu").amd, AmdBuildState::Unknown);
  EXPECT_EQ(model.include_dirs(), (std::vector<std::string>{"csrc"}));
}

TEST(CMakeBuild, MacrosPerSide) {
  BuildModel model = model_of({{"CMakeLists.txt", k_backend_choice, BuildScriptKind::CMake}});
  const ProjectMacros& macros = model.macros();
  ASSERT_NE(macros.find(BuildSide::Amd, "BUILD_HIP"), nullptr);
  EXPECT_EQ(macros.find(BuildSide::Amd, "BUILD_HIP")->state, BuildMacro::State::Defined);
  EXPECT_EQ(macros.find(BuildSide::Cuda, "BUILD_HIP")->state, BuildMacro::State::Undefined);
  EXPECT_EQ(macros.find(BuildSide::Amd, "BUILD_CUDA")->state, BuildMacro::State::Undefined);
  EXPECT_EQ(macros.find(BuildSide::Amd, "HAS_GEMM_SM80")->state, BuildMacro::State::Undefined);
  EXPECT_EQ(macros.find(BuildSide::Cuda, "HAS_GEMM_SM80")->state, BuildMacro::State::Unknown);
  EXPECT_EQ(macros.find(BuildSide::Amd, "KERNELS_PROFILE")->state, BuildMacro::State::Unknown);
  const BuildMacro* wave = macros.find(BuildSide::Amd, "WAVE");
  ASSERT_NE(wave, nullptr);
  EXPECT_TRUE(wave->unknown_value);
  EXPECT_EQ(macros.find(BuildSide::Amd, "BUILD_HIP")->evidence, "CMakeLists.txt:21");
}

TEST(CMakeBuild, LinesOfACudaOnlyBranchAreExcludedWithTheirGuard) {
  BuildModel model = model_of({{"CMakeLists.txt", k_backend_choice, BuildScriptKind::CMake}});
  const AmdBuild enable_cuda = model.line_amd("CMakeLists.txt", 11);
  EXPECT_EQ(enable_cuda.state, AmdBuildState::Excluded);
  EXPECT_EQ(enable_cuda.guard_line, 10u);
  EXPECT_TRUE(enable_cuda.alternative);
  EXPECT_EQ(model.line_amd("CMakeLists.txt", 19).state, AmdBuildState::Compiled);
  EXPECT_EQ(model.line_amd("CMakeLists.txt", 25).state, AmdBuildState::Unknown);
  EXPECT_EQ(model.line_amd("CMakeLists.txt", 27).state, AmdBuildState::Compiled);
  EXPECT_EQ(model.line_amd("src/main.cpp", 1).state, AmdBuildState::Unknown);
  ASSERT_FALSE(model.facts().amd_setup.empty());
  EXPECT_EQ(model.facts().amd_setup[0].text, "enable_language(HIP)");
}

// llama.cpp's shape: a CUDA backend folder, and a HIP folder that globs the CUDA sources.
TEST(CMakeBuild, AHipFolderGlobbingTheCudaSourcesCompilesThemOnAmd) {
  const char* cuda = R"(find_package(CUDAToolkit)
if (CUDAToolkit_FOUND)
    enable_language(CUDA)
    file(GLOB SOURCES "*.cu")
    file(GLOB SRCS "template-instances/fattn-mma*.cu")
    list(APPEND SOURCES ${SRCS})
    file(GLOB SRCS "template-instances/fattn-wmma*.cu")
    list(APPEND SOURCES ${SRCS})
    ggml_add_backend_library(ggml-cuda ${SOURCES})
    add_compile_definitions(GGML_CUDA_USE_GRAPHS)
endif()
)";
  const char* hip = R"(find_package(hip REQUIRED)
file(GLOB SOURCES_ROCM "../ggml-cuda/*.cu")
file(GLOB SRCS "../ggml-cuda/template-instances/fattn-mma*.cu")
list(APPEND SOURCES_ROCM ${SRCS})
ggml_add_backend_library(ggml-hip ${SOURCES_ROCM})
add_compile_definitions(GGML_USE_HIP)
if (GGML_HIP_UMA)
    add_compile_definitions(GGML_HIP_UMA)
endif()
)";
  const char* musa = "find_package(MUSAToolkit)\nadd_compile_definitions(GGML_USE_MUSA)\n";
  BuildModel model = model_of({{"src/ggml-cuda/CMakeLists.txt", cuda, BuildScriptKind::CMake},
                               {"src/ggml-hip/CMakeLists.txt", hip, BuildScriptKind::CMake},
                               {"src/ggml-musa/CMakeLists.txt", musa, BuildScriptKind::CMake}});
  EXPECT_EQ(model.membership("src/ggml-cuda/mmq.cu").amd, AmdBuildState::Compiled);
  EXPECT_EQ(model.membership("src/ggml-cuda/template-instances/fattn-mma-f16-64.cu").amd,
            AmdBuildState::Compiled);
  const FileMembership wmma =
      model.membership("src/ggml-cuda/template-instances/fattn-wmma-f16-64.cu");
  EXPECT_EQ(wmma.amd, AmdBuildState::Excluded);
  EXPECT_TRUE(wmma.alternative);  // the CUDA folder's file is replaced by the HIP folder's build
  const ProjectMacros& macros = model.macros();
  EXPECT_EQ(macros.find(BuildSide::Amd, "GGML_USE_HIP")->state, BuildMacro::State::Defined);
  EXPECT_EQ(macros.find(BuildSide::Cuda, "GGML_USE_HIP")->state, BuildMacro::State::Undefined);
  EXPECT_EQ(macros.find(BuildSide::Amd, "GGML_HIP_UMA")->state, BuildMacro::State::Unknown);
  EXPECT_EQ(macros.find(BuildSide::Amd, "GGML_USE_MUSA")->state, BuildMacro::State::Undefined);
  EXPECT_EQ(macros.find(BuildSide::Cuda, "GGML_USE_MUSA")->state, BuildMacro::State::Undefined);
  EXPECT_EQ(macros.find(BuildSide::Amd, "GGML_CUDA_USE_GRAPHS")->state,
            BuildMacro::State::Undefined);
  EXPECT_EQ(macros.find(BuildSide::Cuda, "GGML_CUDA_USE_GRAPHS")->state,
            BuildMacro::State::Defined);
  ASSERT_EQ(model.facts().amd_switches.size(), 1u);
  EXPECT_EQ(model.facts().amd_switches[0].text, "add_compile_definitions(GGML_USE_HIP)");
}

TEST(CMakeBuild, WithoutAnAmdBuildTheCudaBuildIsTheOneToPort) {
  const char* text =
      "project(x LANGUAGES CXX CUDA)\nif(USE_CUDA)\n  add_library(k k.cu)\nendif()\n";
  BuildModel model = model_of({{"CMakeLists.txt", text, BuildScriptKind::CMake}});
  EXPECT_FALSE(model.amd_build_exists());
  EXPECT_EQ(model.membership("k.cu").amd, AmdBuildState::Compiled);
}

TEST(CMakeBuild, HostileInputIsBoundedNotACrash) {
  std::string deep;
  for (int i = 0; i < 5000; ++i) {
    deep += "if(NOT (A AND (B OR (C";
  }
  deep += "\nset(X";
  for (int i = 0; i < 1000; ++i) {
    deep += " ${X}";
  }
  deep += ")\nendif(\n";
  BuildModel model = model_of({{"CMakeLists.txt", deep, BuildScriptKind::CMake}});
  EXPECT_FALSE(model.membership("a.cu").named);
}

// ---- setup.py and Makefiles ---------------------------------------------------------------------

TEST(PythonBuild, RocmBranchesChooseSourcesAndFlags) {
  const char* setup = R"py(import os
from torch.utils.cpp_extension import IS_HIP_EXTENSION
src_dir = "csrc/attn"
sources = [f"{src_dir}/api.cpp"]
if IS_HIP_EXTENSION:
    sources += ["csrc/attn_ck/fwd.cpp"]
    flags = ["-DUSE_CK=1", "-DWAVE=%d" % wave]
else:
    sources += ["csrc/attn/fwd_sm80.cu", "csrc/attn/missing.cu"]
    flags = ["-DUSE_CUTLASS"]
if torch.version.hip is None:
    extra = ["csrc/attn/sm90.cu"]
)py";
  const std::vector<std::string> files = {"csrc/attn/api.cpp", "csrc/attn_ck/fwd.cpp",
                                          "csrc/attn/fwd_sm80.cu", "csrc/attn/sm90.cu"};
  BuildModel model = model_of({{"setup.py", setup, BuildScriptKind::Python}}, files);
  EXPECT_TRUE(model.amd_build_exists());
  EXPECT_EQ(model.membership("csrc/attn/api.cpp").amd, AmdBuildState::Compiled);
  EXPECT_EQ(model.membership("csrc/attn_ck/fwd.cpp").amd, AmdBuildState::Compiled);
  const FileMembership sm80 = model.membership("csrc/attn/fwd_sm80.cu");
  EXPECT_EQ(sm80.amd, AmdBuildState::Excluded);
  EXPECT_TRUE(sm80.alternative);
  EXPECT_EQ(sm80.where.line, 9u);
  EXPECT_EQ(model.membership("csrc/attn/sm90.cu").amd, AmdBuildState::Excluded);
  EXPECT_FALSE(model.membership("csrc/attn/missing.cu").named);  // not a file of the project
  const ProjectMacros& macros = model.macros();
  EXPECT_EQ(macros.find(BuildSide::Amd, "USE_CK")->state, BuildMacro::State::Defined);
  EXPECT_EQ(macros.find(BuildSide::Amd, "USE_CUTLASS")->state, BuildMacro::State::Undefined);
  EXPECT_EQ(macros.find(BuildSide::Cuda, "USE_CUTLASS")->state, BuildMacro::State::Defined);
  EXPECT_TRUE(macros.find(BuildSide::Amd, "WAVE")->unknown_value);
  EXPECT_EQ(model.line_amd("setup.py", 10).state, AmdBuildState::Excluded);
  EXPECT_EQ(model.line_amd("setup.py", 10).guard_line, 5u);
}

TEST(PythonBuild, NamesThatOnlyHoldTheWordSelectNothing) {
  const char* script = R"py(rocm_ver_file = find()
if rocm_ver_file.is_file():
    sources = ["k.cu"]
)py";
  BuildModel model = model_of({{"build_ops.py", script, BuildScriptKind::Python}}, {"k.cu"});
  EXPECT_EQ(model.membership("k.cu").amd, AmdBuildState::Unknown);
  EXPECT_TRUE(is_python_build_script("op_builder/fused_adam.py"));
  EXPECT_TRUE(is_python_build_script("setup.py"));
  EXPECT_FALSE(is_python_build_script("model/attention.py"));
}

TEST(MakeBuild, IfeqOnTheBackendChoosesSources) {
  const char* make = R"(ifeq ($(BACKEND),rocm)
  CXX = hipcc
  SRCS = kernels_hip.cpp
  CFLAGS += -DUSE_HIP=1
else
  SRCS = kernels.cu kernels_sm90.cu
endif
)";
  BuildModel model = model_of({{"Makefile", make, BuildScriptKind::Make}},
                              {"kernels_hip.cpp", "kernels.cu", "kernels_sm90.cu"});
  EXPECT_TRUE(model.amd_build_exists());
  EXPECT_EQ(model.membership("kernels_hip.cpp").amd, AmdBuildState::Compiled);
  EXPECT_EQ(model.membership("kernels_sm90.cu").amd, AmdBuildState::Excluded);
  EXPECT_EQ(model.macros().find(BuildSide::Amd, "USE_HIP")->state, BuildMacro::State::Defined);
  EXPECT_EQ(model.facts().amd_setup[0].line, 2u);
}

}  // namespace
}  // namespace gpuport
