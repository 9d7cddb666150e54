// Build files: what is reported at which line, and the exact rewritten CMake and setup.py text.
#include "hipify/build_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hipify/cmake_hip_names.h"
#include "hipify/nvcc_flags.h"
#include "hipify/unified_diff.h"

namespace gpuport {
namespace {

using ::testing::Contains;
using ::testing::Field;
using ::testing::IsEmpty;

BuildFileResult cmake(std::string_view text, BuildFileOptions options = {}) {
  return analyze_build_file(BuildFileKind::CMake, text, options);
}

BuildFileResult setup_py(std::string_view text, BuildFileOptions options = {}) {
  return analyze_build_file(BuildFileKind::SetupPy, text, options);
}

// "LINE change cuda -> hip" rows, for readable comparisons.
std::vector<std::string> rows(const BuildFileResult& result) {
  std::vector<std::string> out;
  for (const BuildFileItem& item : result.items) {
    out.push_back(std::to_string(item.line) + " " + std::string(build_change_name(item.change)) +
                  " " + item.cuda + " -> " + item.hip);
  }
  return out;
}

constexpr std::string_view k_server_cmake =
    "cmake_minimum_required(VERSION 3.18)\n"
    "project(server LANGUAGES CXX CUDA)\n"
    "\n"
    "find_package(CUDAToolkit 11.8 REQUIRED)\n"
    "set(CMAKE_CUDA_ARCHITECTURES 80 86)\n"
    "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} --use_fast_math --expt-relaxed-constexpr\")\n"
    "\n"
    "add_library(kernels STATIC src/gemm.cu src/host.cpp)\n"
    "set_target_properties(kernels PROPERTIES CUDA_ARCHITECTURES \"80;86\")\n"
    "target_compile_options(kernels PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)\n"
    "target_link_libraries(kernels PUBLIC CUDA::cudart CUDA::cublas)  # BLAS\n"
    "# enable_language(CUDA) in a comment stays\n";

TEST(BuildFilesCMake, RewritesLanguageTargetsArchitecturesAndFlags) {
  const BuildFileResult result = cmake(k_server_cmake);
  EXPECT_TRUE(result.changed);
  EXPECT_EQ(
      result.rewritten,
      "cmake_minimum_required(VERSION 3.21)\n"
      "project(server LANGUAGES CXX HIP)\n"
      "\n"
      "find_package(hip REQUIRED)\n"
      "set(CMAKE_HIP_ARCHITECTURES gfx90a)\n"
      "set(CMAKE_HIP_FLAGS \"${CMAKE_HIP_FLAGS} -ffast-math\")\n"
      "\n"
      "add_library(kernels STATIC src/gemm.cu src/host.cpp)\n"
      "set_source_files_properties(src/gemm.cu PROPERTIES LANGUAGE HIP)\n"
      "set_target_properties(kernels PROPERTIES HIP_ARCHITECTURES \"gfx90a\")\n"
      "target_compile_options(kernels PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-gline-tables-only>)\n"
      "find_package(hipblas REQUIRED)\n"
      "target_link_libraries(kernels PUBLIC hip::host roc::hipblas)  # BLAS\n"
      "# enable_language(CUDA) in a comment stays\n");
}

TEST(BuildFilesCMake, ReportsEachItemAtItsLine) {
  EXPECT_EQ(
      rows(cmake(k_server_cmake)),
      (std::vector<std::string>{
          "1 rewrite cmake_minimum_required(VERSION 3.18) -> "
          "cmake_minimum_required(VERSION 3.21) (LANGUAGE HIP needs it)",
          "2 rewrite project(... CUDA) -> project(... HIP)",
          "4 rewrite find_package(CUDAToolkit 11.8) -> find_package(hip)",
          "5 rewrite CMAKE_CUDA_ARCHITECTURES -> CMAKE_HIP_ARCHITECTURES",
          "5 rewrite 80 86 -> gfx90a",
          "6 rewrite CMAKE_CUDA_FLAGS -> CMAKE_HIP_FLAGS",
          "6 rewrite --use_fast_math -> -ffast-math",
          "6 rewrite --expt-relaxed-constexpr -> (removed: nvcc-only, not needed by HIP-Clang)",
          "8 insert src/gemm.cu (.cu: CUDA by extension) -> "
          "set_source_files_properties(src/gemm.cu PROPERTIES LANGUAGE HIP)",
          "9 rewrite CUDA_ARCHITECTURES -> HIP_ARCHITECTURES",
          "9 rewrite \"80;86\" -> gfx90a",
          "10 rewrite $<COMPILE_LANGUAGE:CUDA> -> $<COMPILE_LANGUAGE:HIP>",
          "10 rewrite -lineinfo -> -gline-tables-only",
          "11 insert (package of the HIP target) -> find_package(hipblas REQUIRED)",
          "11 rewrite CUDA::cudart -> hip::host",
          "11 rewrite CUDA::cublas -> roc::hipblas",
      }));
}

TEST(BuildFilesCMake, EveryLineWithoutAnItemIsKeptByteForByte) {
  const BuildFileResult result = cmake(k_server_cmake);
  std::vector<bool> named(20, false);
  for (const BuildFileItem& item : result.items) {
    named[item.line] = true;
  }
  const auto old_lines = split_lines(k_server_cmake);
  const auto new_lines = split_lines(result.rewritten);
  for (const LineEdit& edit : diff_lines(old_lines, new_lines)) {
    if (edit.kind == LineEditKind::Delete) {
      EXPECT_TRUE(named[edit.old_index + 1]) << "line " << edit.old_index + 1 << " changed";
    }
  }
}

TEST(BuildFilesCMake, RenameTurnsCuSourcesAndGlobsIntoHip) {
  BuildFileOptions options;
  options.rename_sources = true;
  const BuildFileResult result = cmake(
      "file(GLOB_RECURSE KERNELS csrc/*.cu)\n"
      "add_library(ops ${KERNELS} \"attention.cu\" main.cpp)\n"
      "set_source_files_properties(extra.cu PROPERTIES LANGUAGE CUDA)\n",
      options);
  EXPECT_EQ(result.rewritten,
            "file(GLOB_RECURSE KERNELS csrc/*.hip)\n"
            "add_library(ops ${KERNELS} \"attention.hip\" main.cpp)\n"
            "set_source_files_properties(extra.hip PROPERTIES LANGUAGE HIP)\n");
}

TEST(BuildFilesCMake, WithoutRenameGlobbedSourcesAreMarkedHip) {
  EXPECT_EQ(cmake("file(GLOB KERNELS src/*.cu)\n"
                  "  add_library(ops\n"
                  "    ${KERNELS})\n")
                .rewritten,
            "file(GLOB KERNELS src/*.cu)\n"
            "set_source_files_properties(${KERNELS} PROPERTIES LANGUAGE HIP)\n"
            "  add_library(ops\n"
            "    ${KERNELS})\n");
}

TEST(BuildFilesCMake, RocOptionPicksAmdNativeLibraries) {
  BuildFileOptions options;
  options.roc = true;
  EXPECT_EQ(
      cmake("target_link_libraries(app CUDA::cublas_static CUDA::curand)\n", options).rewritten,
      "find_package(rocblas REQUIRED)\n"
      "find_package(rocrand REQUIRED)\n"
      "target_link_libraries(app roc::rocblas roc::rocrand)\n");
}

TEST(BuildFilesCMake, LegacyFindCudaIsRewrittenWhereItCanBeAndReportedWhereNot) {
  const BuildFileResult result = cmake(
      "find_package(CUDA 10.0 REQUIRED)\n"
      "list(APPEND CUDA_NVCC_FLAGS -O3 -gencode arch=compute_70,code=sm_70 -maxrregcount=64)\n"
      "cuda_add_library(ops a.cu)\n"
      "cuda_add_cublas_to_target(ops)\n"
      "target_link_libraries(ops ${CUDA_LIBRARIES})\n");
  EXPECT_EQ(
      result.rewritten,
      "find_package(hip REQUIRED)\n"
      "list(APPEND CUDA_NVCC_FLAGS -O3 -gencode arch=compute_70,code=sm_70 -maxrregcount=64)\n"
      "add_library(ops a.cu)\n"
      "set_source_files_properties(a.cu PROPERTIES LANGUAGE HIP)\n"
      "cuda_add_cublas_to_target(ops)\n"
      "target_link_libraries(ops hip::host)\n");
  const auto items = rows(result);
  EXPECT_THAT(items, Contains("2 manual CUDA_NVCC_FLAGS -> CMAKE_HIP_FLAGS (a space-separated "
                              "string): -O3 --offload-arch=gfx90a -maxrregcount=64; "
                              "-maxrregcount=64: no register cap flag in HIP-Clang; bound "
                              "registers with __launch_bounds__"));
  EXPECT_THAT(items, Contains("4 manual cuda_add_cublas_to_target -> target_link_libraries(TARGET "
                              "roc::hipblas) after find_package(hipblas)"));
}

TEST(BuildFilesCMake, UnknownCudaTargetsAndPropertiesNeedAPerson) {
  const BuildFileResult result = cmake(
      "target_link_libraries(app CUDA::nvml CUDA::cuFooBar)\n"
      "set_target_properties(app PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n");
  EXPECT_FALSE(result.changed);
  EXPECT_EQ(rows(result),
            (std::vector<std::string>{
                "1 manual CUDA::nvml -> ROCm SMI: find_package(rocm_smi), link rocm_smi64",
                "1 manual CUDA::cuFooBar -> no HIP target known for this CUDA library",
                "2 manual CUDA_SEPARABLE_COMPILATION -> add -fgpu-rdc to the target's compile "
                "and link options",
            }));
}

TEST(BuildFilesCMake, ASourceListedTwiceIsMarkedOnce) {
  EXPECT_EQ(cmake("set(SRCS a.cu)\n"
                  "add_library(ops ${SRCS} a.cu b.cu)\n"
                  "set_source_files_properties(b.cu PROPERTIES LANGUAGE CUDA)\n")
                .rewritten,
            "set(SRCS a.cu)\n"
            "set_source_files_properties(a.cu PROPERTIES LANGUAGE HIP)\n"
            "add_library(ops ${SRCS} a.cu b.cu)\n"
            "set_source_files_properties(b.cu PROPERTIES LANGUAGE HIP)\n");
}

TEST(BuildFilesCMake, CrlfFilesGetCrlfInsertedLines) {
  EXPECT_EQ(cmake("project(x CUDA)\r\ntarget_link_libraries(app CUDA::cufft)\r\n").rewritten,
            "project(x HIP)\r\nfind_package(hipfft REQUIRED)\r\n"
            "target_link_libraries(app hip::hipfft)\r\n");
}

TEST(BuildFilesCMake, FilesWithoutCudaAreLeftAlone) {
  constexpr std::string_view text =
      "cmake_minimum_required(VERSION 3.10)\n"
      "project(plain CXX)\n"
      "#[[ enable_language(CUDA) ]]\n"
      "message(STATUS \"CUDA::cublas is not used\")  # CUDA\n"
      "add_executable(app main.cpp)\n";
  const BuildFileResult result = cmake(text);
  EXPECT_FALSE(result.changed);
  EXPECT_EQ(result.rewritten, text);
  EXPECT_THAT(result.items, IsEmpty());
}

constexpr std::string_view k_setup_py =
    "from setuptools import setup\n"
    "from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n"
    "\n"
    "nvcc_flags = [\n"
    "    '-O3',\n"
    "    '-gencode', 'arch=compute_80,code=sm_80',\n"
    "    '-gencode', 'arch=compute_90,code=sm_90',\n"
    "    '--use_fast_math',\n"
    "]\n"
    "setup(\n"
    "    name='ops',\n"
    "    ext_modules=[CUDAExtension('ops', ['ops.cpp', 'kernels.cu'],\n"
    "        extra_compile_args={'cxx': ['-O3'], 'nvcc': ['-Xcompiler', '-fPIC', '-lineinfo']})],\n"
    "    cmdclass={'build_ext': BuildExtension})\n";

TEST(BuildFilesSetupPy, TranslatesNvccFlagsAndKeepsTheExtension) {
  BuildFileOptions options;
  options.rename_sources = true;
  const BuildFileResult result = setup_py(k_setup_py, options);
  EXPECT_EQ(
      result.rewritten,
      "from setuptools import setup\n"
      "from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n"
      "\n"
      "nvcc_flags = [\n"
      "    '-O3',\n"
      "    '--offload-arch=gfx90a',\n"
      "    '-ffast-math',\n"
      "]\n"
      "setup(\n"
      "    name='ops',\n"
      "    ext_modules=[CUDAExtension('ops', ['ops.cpp', 'kernels.hip'],\n"
      "        extra_compile_args={'cxx': ['-O3'], 'nvcc': ['-fPIC', '-gline-tables-only']})],\n"
      "    cmdclass={'build_ext': BuildExtension})\n");
  EXPECT_THAT(rows(result),
              Contains("12 note CUDAExtension -> keep it: on ROCm PyTorch it hipifies the sources "
                       "and builds with hipcc"));
  EXPECT_THAT(rows(result), Contains("7 rewrite -gencode arch=compute_90,code=sm_90 -> (removed: "
                                     "one --offload-arch names the AMD target)"));
}

TEST(BuildFilesSetupPy, ComputedArchitecturesAndCudaPathsAreReported) {
  const BuildFileResult result = setup_py(
      "import os\n"
      "from torch.utils.cpp_extension import CUDA_HOME\n"
      "archs = os.environ.get('TORCH_CUDA_ARCH_LIST', '8.0')\n"
      "flags = [f'-gencode=arch=compute_{a},code=sm_{a}' for a in archs]\n");
  EXPECT_FALSE(result.changed);
  EXPECT_EQ(rows(result),
            (std::vector<std::string>{
                "2 manual CUDA_HOME -> ROCM_HOME (torch.utils.cpp_extension.ROCM_HOME) on ROCm",
                "3 manual TORCH_CUDA_ARCH_LIST -> ROCm PyTorch reads PYTORCH_ROCM_ARCH (e.g. "
                "gfx90a)",
                "4 manual f'-gencode=arch=compute_{a},code=sm_{a}' -> build "
                "--offload-arch=gfx90a instead",
            }));
}

TEST(BuildFiles, RewritingARewrittenFileChangesNothing) {
  BuildFileOptions renaming;
  renaming.rename_sources = true;
  for (const BuildFileOptions& options : {BuildFileOptions{}, renaming}) {
    const BuildFileResult cmake_once = cmake(k_server_cmake, options);
    const BuildFileResult cmake_twice = cmake(cmake_once.rewritten, options);
    EXPECT_FALSE(cmake_twice.changed) << cmake_twice.rewritten;
    const BuildFileResult setup_once = setup_py(k_setup_py, options);
    const BuildFileResult setup_twice = setup_py(setup_once.rewritten, options);
    EXPECT_FALSE(setup_twice.changed) << setup_twice.rewritten;
  }
}

TEST(BuildFiles, FlagsWithComputedValuesAreLeftToAPerson) {
  const BuildFileResult setup = setup_py(
      "nvcc_flags = ['-O3']\n"
      "for a in archs:\n"
      "    nvcc_flags += ['-gencode', f'arch=compute_{a},code=sm_{a}']\n");
  EXPECT_FALSE(setup.changed) << setup.rewritten;
  EXPECT_THAT(rows(setup), Contains("3 manual -gencode f'arch=compute_{a},code=sm_{a}' -> computed "
                                    "architecture: build --offload-arch=gfx90a instead"));
  const BuildFileResult cmake_file =
      cmake("set(CMAKE_CUDA_FLAGS \"-gencode arch=compute_${CC},code=sm_${CC} -lineinfo\")\n");
  EXPECT_EQ(
      cmake_file.rewritten,
      "set(CMAKE_HIP_FLAGS \"-gencode arch=compute_${CC},code=sm_${CC} -gline-tables-only\")\n");
  EXPECT_THAT(rows(cmake_file), Contains("1 manual -gencode arch=compute_${CC},code=sm_${CC} -> "
                                         "computed architecture: set --offload-arch=gfx90a"));
}

TEST(BuildFileKind, IsDecidedByTheFileName) {
  EXPECT_EQ(build_file_kind("CMakeLists.txt"), BuildFileKind::CMake);
  EXPECT_EQ(build_file_kind("cmake/cuda.cmake"), BuildFileKind::CMake);
  EXPECT_EQ(build_file_kind("pkg/setup.py"), BuildFileKind::SetupPy);
  EXPECT_EQ(build_file_kind("src/kernel.cu"), std::nullopt);
  EXPECT_EQ(build_file_kind("setup.cfg"), std::nullopt);
}

template <typename Rows>
void expect_sorted_and_unique(const Rows& rows, const char* name) {
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_LT(rows[i - 1].cuda, rows[i].cuda) << name << " row " << i;
  }
}

TEST(CMakeHipNames, TablesAreSortedAndUnique) {
  expect_sorted_and_unique(cmake_names::k_library_targets, "k_library_targets");
  expect_sorted_and_unique(cmake_names::k_manual_targets, "k_manual_targets");
  expect_sorted_and_unique(cmake_names::k_manual_packages, "k_manual_packages");
  expect_sorted_and_unique(cmake_names::k_variables, "k_variables");
  expect_sorted_and_unique(cmake_names::k_properties, "k_properties");
  expect_sorted_and_unique(cmake_names::k_manual_commands, "k_manual_commands");
}

TEST(NvccFlags, ListTranslationCollapsesArchitecturesAndKeepsPortableFlags) {
  const std::vector<std::string_view> flags = {"-O3",
                                               "-gencode",
                                               "arch=compute_80,code=sm_80",
                                               "-arch=sm_90",
                                               "--use_fast_math",
                                               "-Xcompiler",
                                               "-fPIC,-Wall",
                                               "-DNDEBUG",
                                               "--expt-extended-lambda",
                                               "-maxrregcount",
                                               "64"};
  const FlagListTranslation result = translate_nvcc_flags(flags, "gfx942");
  EXPECT_TRUE(result.changed);
  EXPECT_EQ(result.flags,
            (std::vector<std::string>{"-O3", "--offload-arch=gfx942", "-ffast-math", "-fPIC",
                                      "-Wall", "-DNDEBUG", "-maxrregcount", "64"}));
  ASSERT_EQ(result.notes.size(), 1u);
  EXPECT_THAT(result.notes[0], ::testing::StartsWith("-maxrregcount: no register cap"));
}

TEST(NvccFlags, PortableFlagsAreUnchanged) {
  const std::vector<std::string_view> flags = {"-O2", "-std=c++17", "-I/opt/include", "-g"};
  const FlagListTranslation result = translate_nvcc_flags(flags, "gfx90a");
  EXPECT_FALSE(result.changed);
  EXPECT_EQ(result.flags, (std::vector<std::string>{"-O2", "-std=c++17", "-I/opt/include", "-g"}));
}

}  // namespace
}  // namespace gpuport
