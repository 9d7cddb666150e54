// Tests for detect_language() and language_name(): the file-name table.
#include "source/language.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace gpuport {
namespace {

struct Case {
  const char* path;
  Language expected;
};

class LanguageTable : public ::testing::TestWithParam<Case> {};

TEST_P(LanguageTable, DetectsFromName) {
  const Case& c = GetParam();
  EXPECT_EQ(language_name(detect_language(c.path)), language_name(c.expected)) << c.path;
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Names, LanguageTable, ::testing::Values(
    Case{"kernels/softmax.cu", Language::Cuda},
    Case{"include/ops.cuh", Language::Cuda},
    Case{"hip/kernels.hip", Language::Cuda},  // HIP kernel sources: same lexer and rules
    Case{"templates/gemm.cu.jinja", Language::Cuda},
    Case{"templates/gemm.cuh.jinja", Language::Cuda},
    Case{"a.c", Language::Cpp},           Case{"a.cc", Language::Cpp},
    Case{"a.cpp", Language::Cpp},         Case{"a.cxx", Language::Cpp},
    Case{"a.h", Language::Cpp},           Case{"a.hh", Language::Cpp},
    Case{"a.hpp", Language::Cpp},         Case{"a.hxx", Language::Cpp},
    Case{"a.inl", Language::Cpp},         Case{"a.inc", Language::Cpp},
    Case{"a.ipp", Language::Cpp},         Case{"a.tcc", Language::Cpp},
    Case{"LEGACY.CPP", Language::Cpp},
    Case{"server/app.py", Language::Python},
    Case{"stubs/torch.pyi", Language::Python},
    Case{"setup.py", Language::Python},
    Case{"notebooks/explore.ipynb", Language::Notebook},
    Case{"CMakeLists.txt", Language::CMake},
    Case{"sub/dir/CMakeLists.txt", Language::CMake},
    Case{"cmake/FindCUDAToolkit.cmake", Language::CMake},
    Case{"requirements.txt", Language::Packaging},
    Case{"requirements-cuda12.txt", Language::Packaging},
    Case{"deploy/requirements_dev.txt", Language::Packaging},
    Case{"constraints.txt", Language::Packaging},
    Case{"pyproject.toml", Language::Packaging},
    Case{"setup.cfg", Language::Packaging},
    Case{"environment.yml", Language::Packaging},
    Case{"conda/environment.yaml", Language::Packaging},
    Case{"Dockerfile", Language::Docker},
    Case{"docker/Dockerfile.rocm", Language::Docker},
    Case{"serve.Dockerfile", Language::Docker},
    Case{"serve.dockerfile", Language::Docker},
    Case{"Containerfile", Language::Docker},
    Case{"scripts/run.sh", Language::Shell},
    Case{"env.bash", Language::Shell},
    Case{"prompt.zsh", Language::Shell},
    Case{".github/workflows/ci.yml", Language::Yaml},
    Case{"charts/values.yaml", Language::Yaml},
    Case{"models/llama.engine", Language::Artifact},
    Case{"models/llama.plan", Language::Artifact},
    Case{"models/llama.trt", Language::Artifact},
    Case{"bin/kernels.cubin", Language::Artifact},
    Case{"bin/kernels.ptx", Language::Artifact},
    Case{"bin/kernels.fatbin", Language::Artifact},
    Case{"README.md", Language::Other},
    Case{"notes.txt", Language::Other},
    Case{"Makefile", Language::Other},
    Case{".bashrc", Language::Other},
    Case{"model.py.jinja", Language::Other},
    Case{"weird.", Language::Other},
    Case{"", Language::Other},
    Case{"dir.cu/", Language::Other}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string name = std::to_string(info.index) + "_";
      for (const char c : std::string(info.param.path)) {
        name += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
      }
      return name;
    });
// clang-format on

TEST(LanguageName, GivesShortLowercaseNames) {
  EXPECT_EQ(language_name(Language::Cuda), "cuda");
  EXPECT_EQ(language_name(Language::Cpp), "cpp");
  EXPECT_EQ(language_name(Language::Python), "python");
  EXPECT_EQ(language_name(Language::Notebook), "notebook");
  EXPECT_EQ(language_name(Language::CMake), "cmake");
  EXPECT_EQ(language_name(Language::Packaging), "packaging");
  EXPECT_EQ(language_name(Language::Docker), "docker");
  EXPECT_EQ(language_name(Language::Shell), "shell");
  EXPECT_EQ(language_name(Language::Yaml), "yaml");
  EXPECT_EQ(language_name(Language::Artifact), "artifact");
  EXPECT_EQ(language_name(Language::Other), "other");
}

TEST(DetectLanguage, LooksOnlyAtTheFileName) {
  // A directory called "kernels.cu" does not make its files CUDA.
  EXPECT_EQ(detect_language("kernels.cu/README"), Language::Other);
  EXPECT_EQ(detect_language("Dockerfile.d/run.sh"), Language::Shell);
}

}  // namespace
}  // namespace gpuport
