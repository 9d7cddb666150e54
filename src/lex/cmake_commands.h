// The command invocations of a CMake file with the byte range of every argument, so rewriters
// can edit arguments in place. Comments (line and bracket) are skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuport {

enum class CMakeArgKind : std::uint8_t { Unquoted, Quoted, Bracket };

struct CMakeArg {
  std::size_t offset = 0;  // first byte of the argument as written (the quote, for Quoted)
  std::size_t length = 0;
  std::size_t content_offset = 0;  // inside the quotes or brackets
  std::size_t content_length = 0;
  CMakeArgKind kind = CMakeArgKind::Unquoted;
};

struct CMakeCommand {
  std::string name;  // lower case
  std::size_t name_offset = 0;
  std::size_t end = 0;  // one past the closing parenthesis (or the end of the file)
  bool closed = false;  // false: the file ends inside the argument list
  std::vector<CMakeArg> args;
  // Parentheses nested in the argument list (`if(NOT (A AND B))`): the index of the argument
  // each one comes before, and '(' or ')'. Not arguments themselves.
  std::vector<std::pair<std::uint32_t, char>> parens;
};

// `stray`, when given, receives the offset of the first text outside every command that is not
// blank or a comment (a syntax error for CMake), or npos.
std::vector<CMakeCommand> parse_cmake_commands(std::string_view source,
                                               std::size_t* stray = nullptr);

inline std::string_view arg_text(std::string_view source, const CMakeArg& arg) {
  return source.substr(arg.content_offset, arg.content_length);
}

}  // namespace gpuport
