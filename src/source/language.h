// Which reader handles a file, decided from its name alone.
#pragma once

#include <cstdint>
#include <string_view>

namespace gpuport {

enum class Language : std::uint8_t {
  Cuda,       // .cu .cuh (and .cu.jinja templates that generate them)
  Cpp,        // .c .cc .cpp .cxx .h .hh .hpp .hxx .inl .inc .ipp .tcc
  Python,     // .py .pyi (setup.py included)
  Notebook,   // .ipynb: the code cells are Python
  CMake,      // CMakeLists.txt, *.cmake
  Packaging,  // requirements*.txt, constraints*.txt, pyproject.toml, setup.cfg, environment.yml
  Docker,     // Dockerfile, Dockerfile.*, *.dockerfile, Containerfile
  Shell,      // .sh .bash .zsh
  Yaml,       // .yml .yaml (CI, Kubernetes, Helm, compose)
  Artifact,   // precompiled NVIDIA binaries and engines: .engine .plan .trt .cubin .ptx .fatbin
  Other,      // not read
};

Language detect_language(std::string_view path);
std::string_view language_name(Language language);

}  // namespace gpuport
