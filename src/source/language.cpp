// Language detection from a file's name: extensions and the well-known build and packaging names.
#include "source/language.h"

#include <array>
#include <cstddef>

namespace gpuport {
namespace {

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// ASCII case-insensitive comparisons; `expected` is always lowercase.
bool iequals(std::string_view text, std::string_view expected) {
  if (text.size() != expected.size()) {
    return false;
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (lower(text[i]) != expected[i]) {
      return false;
    }
  }
  return true;
}

bool istarts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}

bool iends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && iequals(text.substr(text.size() - suffix.size()), suffix);
}

struct ExtensionRow {
  std::string_view extension;  // with the dot, lowercase
  Language language;
};

// clang-format off
constexpr std::array k_extensions{
    ExtensionRow{".cu",      Language::Cuda},     ExtensionRow{".cuh",    Language::Cuda},
    ExtensionRow{".hip",     Language::Cuda},
    ExtensionRow{".c",       Language::Cpp},      ExtensionRow{".cc",     Language::Cpp},
    ExtensionRow{".cpp",     Language::Cpp},      ExtensionRow{".cxx",    Language::Cpp},
    ExtensionRow{".h",       Language::Cpp},      ExtensionRow{".hh",     Language::Cpp},
    ExtensionRow{".hpp",     Language::Cpp},      ExtensionRow{".hxx",    Language::Cpp},
    ExtensionRow{".inl",     Language::Cpp},      ExtensionRow{".inc",    Language::Cpp},
    ExtensionRow{".ipp",     Language::Cpp},      ExtensionRow{".tcc",    Language::Cpp},
    ExtensionRow{".py",      Language::Python},   ExtensionRow{".pyi",    Language::Python},
    ExtensionRow{".ipynb",   Language::Notebook}, ExtensionRow{".cmake",  Language::CMake},
    ExtensionRow{".sh",      Language::Shell},    ExtensionRow{".bash",   Language::Shell},
    ExtensionRow{".zsh",     Language::Shell},    ExtensionRow{".yml",    Language::Yaml},
    ExtensionRow{".yaml",    Language::Yaml},     ExtensionRow{".engine", Language::Artifact},
    ExtensionRow{".plan",    Language::Artifact}, ExtensionRow{".trt",    Language::Artifact},
    ExtensionRow{".cubin",   Language::Artifact}, ExtensionRow{".ptx",    Language::Artifact},
    ExtensionRow{".fatbin",  Language::Artifact}, ExtensionRow{".dockerfile", Language::Docker},
};
// clang-format on

std::string_view base_name(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Files recognised by their whole name (or a name prefix) before any extension is looked at.
bool detect_by_name(std::string_view name, Language& language) {
  if (iequals(name, "cmakelists.txt")) {
    language = Language::CMake;
    return true;
  }
  if (iequals(name, "setup.py")) {
    language = Language::Python;
    return true;
  }
  if ((istarts_with(name, "requirements") || istarts_with(name, "constraints")) &&
      iends_with(name, ".txt")) {
    language = Language::Packaging;
    return true;
  }
  if (iequals(name, "pyproject.toml") || iequals(name, "setup.cfg") ||
      iequals(name, "environment.yml") || iequals(name, "environment.yaml")) {
    language = Language::Packaging;
    return true;
  }
  if (iequals(name, "dockerfile") || istarts_with(name, "dockerfile.") ||
      iequals(name, "containerfile") || istarts_with(name, "containerfile.")) {
    language = Language::Docker;
    return true;
  }
  if (iends_with(name, ".cu.jinja") || iends_with(name, ".cuh.jinja")) {
    language = Language::Cuda;
    return true;
  }
  if (iends_with(name, ".cmake.in")) {
    language = Language::CMake;
    return true;
  }
  return false;
}

}  // namespace

Language detect_language(std::string_view path) {
  const std::string_view name = base_name(path);
  Language language = Language::Other;
  if (detect_by_name(name, language)) {
    return language;
  }
  const std::size_t dot = name.find_last_of('.');
  if (dot == std::string_view::npos || dot == 0) {
    return Language::Other;  // no extension, or a dot file such as ".bashrc"
  }
  const std::string_view extension = name.substr(dot);
  for (const ExtensionRow& row : k_extensions) {
    if (iequals(extension, row.extension)) {
      return row.language;
    }
  }
  return Language::Other;
}

std::string_view language_name(Language language) {
  switch (language) {
    case Language::Cuda:
      return "cuda";
    case Language::Cpp:
      return "cpp";
    case Language::Python:
      return "python";
    case Language::Notebook:
      return "notebook";
    case Language::CMake:
      return "cmake";
    case Language::Packaging:
      return "packaging";
    case Language::Docker:
      return "docker";
    case Language::Shell:
      return "shell";
    case Language::Yaml:
      return "yaml";
    case Language::Artifact:
      return "artifact";
    case Language::Other:
      return "other";
  }
  return "other";
}

}  // namespace gpuport
