// Preprocessor directives as the lexer records them: the skeleton the preprocessor view walks.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport {

enum class Directive : std::uint8_t {
  None,
  Include,  // #include, #include_next, #import: a header name follows
  If,
  Ifdef,
  Ifndef,
  Elif,
  Elifdef,
  Elifndef,
  Else,
  Endif,
  Define,
  Undef,
  Pragma,
  Other,
};

// The directive a name after '#' introduces.
Directive directive_of(std::string_view name);
// #if, #ifdef, #ifndef: they open a chain.
bool opens_chain(Directive directive);
// #elif, #elifdef, #elifndef, #else and #endif: they belong to the chain of an open #if.
bool continues_chain(Directive directive);
// The directives the preprocessor view reads (conditionals, #define, #undef, #include, #pragma).
bool is_recorded(Directive directive);

// One directive of a file. `text_*` is the rest of the directive after its name (the
// condition, the macro, the header), comments and continuations included, as offsets into the
// text the list belongs to. Token indices are those of the file's own TokenStream; a skeleton
// of a header (read for its macros only) leaves them 0.
struct DirectiveRecord {
  Directive kind = Directive::None;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t first_token = 0;  // the DirectiveStart token
  std::uint32_t end_token = 0;    // one past the DirectiveEnd token
  std::uint32_t text_offset = 0;
  std::uint32_t text_length = 0;
};

// The directives of one file with the text their records point into.
struct DirectiveList {
  std::string_view text;
  std::span<const DirectiveRecord> records;

  std::string_view rest(const DirectiveRecord& record) const {
    return text.substr(record.text_offset, record.text_length);
  }
};

// A header's directives kept after its tokens are gone: the texts are copied, so a skeleton
// lives as long as the scan that read it.
struct HeaderSkeleton {
  std::string path;  // relative to the scan root
  std::string text;
  std::vector<DirectiveRecord> records;

  DirectiveList list() const { return {text, records}; }
};

// Copies the records of `list` (and only their texts) into a skeleton.
HeaderSkeleton make_skeleton(std::string path, const DirectiveList& list);

// The parts of a #define: `NAME body` or `NAME(params) body`.
struct MacroText {
  std::string_view name;
  std::string_view body;
  bool function_like = false;
};
// nullopt-like: an empty name when the directive names no macro.
MacroText parse_define(std::string_view rest);
// The first identifier of a directive's rest (#ifdef, #undef); empty when there is none.
std::string_view first_identifier(std::string_view rest);

// The target of an #include: the header as written between its delimiters.
struct IncludeTarget {
  std::string_view header;
  bool angled = false;
  bool valid = false;  // false for a computed include (`#include MACRO`)
};
IncludeTarget parse_include(std::string_view rest);

}  // namespace gpuport
