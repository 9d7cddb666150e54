// Root-relative path joining and a wildcard matcher bounded in time (no backtracking blow-up).
#include "scan/project/path_glob.h"

#include <vector>

namespace gpuport {

namespace {

// One character class at pattern[p] == '['; returns the index past it and whether `c` matches,
// or npos when the class is not closed (then '[' is literal).
std::size_t match_class(std::string_view pattern, std::size_t p, char c, bool& matched) {
  std::size_t i = p + 1;
  bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
  if (negate) {
    ++i;
  }
  bool found = false;
  bool first = true;
  while (i < pattern.size() && (pattern[i] != ']' || first)) {
    char low = pattern[i];
    char high = low;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      high = pattern[i + 2];
      i += 2;
    }
    if (c >= low && c <= high) {
      found = true;
    }
    ++i;
    first = false;
  }
  if (i >= pattern.size()) {
    return std::string_view::npos;
  }
  matched = found != negate && c != '/';
  return i + 1;
}

// Wildcard match of `text` against `pattern`; `*` stops at '/' unless `cross` is set. The
// classic two-pointer algorithm with one backtrack point: linear in practice, quadratic at worst.
bool wildcard(std::string_view pattern, std::string_view text, bool cross) {
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star_p = std::string_view::npos;
  std::size_t star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size()) {
      char pc = pattern[p];
      if (pc == '*') {
        while (p < pattern.size() && pattern[p] == '*') {
          ++p;
        }
        star_p = p;
        star_t = t;
        continue;
      }
      if (pc == '?' && text[t] != '/') {
        ++p;
        ++t;
        continue;
      }
      if (pc == '[') {
        bool matched = false;
        std::size_t next = match_class(pattern, p, text[t], matched);
        if (next != std::string_view::npos) {
          if (matched) {
            p = next;
            ++t;
            continue;
          }
        } else if (text[t] == '[') {
          ++p;
          ++t;
          continue;
        }
      } else if (pc != '?' && pc == text[t]) {
        ++p;
        ++t;
        continue;
      }
    }
    if (star_p != std::string_view::npos && (cross || text[star_t] != '/')) {
      ++star_t;
      t = star_t;
      p = star_p;
      continue;
    }
    return false;
  }
  while (p < pattern.size() && pattern[p] == '*') {
    ++p;
  }
  return p == pattern.size();
}

}  // namespace

std::string_view parent_folder(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

std::string_view file_name_of(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string join_relative(std::string_view folder, std::string_view relative) {
  if (relative.starts_with('/') || (relative.size() > 1 && relative[1] == ':')) {
    return {};
  }
  std::vector<std::string_view> parts;
  auto push = [&](std::string_view text) {
    std::size_t pos = 0;
    while (pos <= text.size()) {
      std::size_t end = text.find('/', pos);
      if (end == std::string_view::npos) {
        end = text.size();
      }
      std::string_view part = text.substr(pos, end - pos);
      if (part == "..") {
        if (parts.empty()) {
          return false;
        }
        parts.pop_back();
      } else if (!part.empty() && part != ".") {
        parts.push_back(part);
      }
      pos = end + 1;
    }
    return true;
  };
  if (!push(folder) || !push(relative)) {
    return {};
  }
  std::string out;
  for (std::string_view part : parts) {
    if (!out.empty()) {
      out += '/';
    }
    out += part;
  }
  return out;
}

bool is_glob(std::string_view pattern) {
  return pattern.find_first_of("*?[") != std::string_view::npos;
}

bool glob_matches(std::string_view pattern, std::string_view path, bool recursive) {
  if (!recursive && pattern.find("**") == std::string_view::npos) {
    return wildcard(pattern, path, false);
  }
  // GLOB_RECURSE dir/*.cu: the name part in dir and in every folder below it.
  std::string_view folder = parent_folder(pattern);
  std::string_view name = file_name_of(pattern);
  if (folder.find("**") != std::string_view::npos || name.find("**") != std::string_view::npos) {
    return wildcard(pattern, path, true);
  }
  std::string_view path_folder = parent_folder(path);
  if (!folder.empty()) {
    if (path_folder.size() < folder.size()) {
      return false;
    }
    std::string_view head = path_folder.substr(0, folder.size());
    if (!wildcard(folder, head, false) ||
        (path_folder.size() > folder.size() && path_folder[folder.size()] != '/')) {
      return false;
    }
  }
  return wildcard(name, file_name_of(path), false);
}

}  // namespace gpuport
