// Gitignore patterns (gitignore(5)): parsing ignore files and matching relative paths against them.
#pragma once

#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport {

enum class IgnoreMatch : std::uint8_t { None, Ignore, Include };
enum class PathKind : std::uint8_t { File, Directory };

// One compiled wildcard pattern. `*`, `?` and `[...]` never match '/'; `**/` at the start or after
// a '/' matches zero or more whole directories; a trailing `/**` matches everything below.
// Matching is iterative: at most the last `*` and the last `**/` are revisited, never exponential.
class Glob {
 public:
  // False when the pattern is malformed (a trailing lone backslash); `out` is then unusable.
  static bool compile(std::string_view pattern, Glob& out);
  bool matches(std::string_view text) const;

 private:
  enum class Kind : std::uint8_t { Literal, AnyChar, Star, Class, DoubleStarSlash, DoubleStarAll };
  struct Token {
    Kind kind = Kind::Literal;
    char ch = 0;                    // Literal
    std::uint16_t class_index = 0;  // Class
  };
  std::size_t parse_class(std::string_view pattern, std::size_t open);
  std::vector<Token> m_tokens;
  std::vector<std::bitset<256>> m_classes;
};

struct IgnorePattern {
  Glob glob;
  bool negated = false;         // "!pattern": re-include
  bool directory_only = false;  // "pattern/": matches directories only
  bool anchored = false;        // has a '/' before its end: matched against the whole path
};

// The patterns of one ignore file (or of the --exclude list). Paths given to match() are relative
// to the directory the rules belong to, '/'-separated, without a trailing '/'.
class IgnoreRules {
 public:
  static IgnoreRules parse(std::string_view text);
  void add_line(std::string_view line);
  // The last pattern that matches decides; None when no pattern matches.
  IgnoreMatch match(std::string_view path, PathKind kind) const;
  bool empty() const { return m_patterns.empty(); }
  std::size_t size() const { return m_patterns.size(); }

 private:
  std::vector<IgnorePattern> m_patterns;
};

// The ignore files in force in one directory, deepest first. Levels are shared between the
// directories below them and live only while a pending directory refers to them.
struct IgnoreLevel {
  IgnoreRules rules;
  std::string base;  // the directory the rules belong to, relative to the scan root, "" or "a/b/"
  std::shared_ptr<const IgnoreLevel> parent;
};

// Asks each level from the deepest up; the first level with a matching pattern decides.
// `path` is relative to the scan root and must lie below every level's base.
IgnoreMatch match_ignore_levels(const IgnoreLevel* deepest, std::string_view path, PathKind kind);

}  // namespace gpuport
