// The byte edits one translation makes, applied in one pass that copies the unchanged spans.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "lex/token.h"

namespace gpuport {

struct Edit {
  std::uint32_t begin = 0;  // byte range of the source that is replaced ([begin, end))
  std::uint32_t end = 0;
  std::string_view text;  // what replaces it; owned by the table or by the EditList
  bool new_line = false;  // inserts a whole line (counted as one changed line)
};

class EditList {
 public:
  // `text` must outlive apply(): a table name, a literal, or a string from own().
  void replace(std::uint32_t begin, std::uint32_t end, std::string_view text) {
    m_edits.push_back({begin, end, text, false});
  }
  void insert(std::uint32_t at, std::string_view text) { m_edits.push_back({at, at, text, false}); }
  void insert_line(std::uint32_t at, std::string_view text) {
    m_edits.push_back({at, at, text, true});
  }
  // Keeps a composed replacement alive until apply().
  std::string_view own(std::string text);

  bool empty() const { return m_edits.empty(); }
  std::size_t size() const { return m_edits.size(); }

  // The source with every edit applied, in offset order (insertions before a replacement that
  // starts at the same offset). An edit overlapping an earlier one is dropped. Counts the input
  // lines whose bytes changed, plus one per inserted line.
  std::string apply(const TokenStream& tokens, std::uint64_t& changed_lines);

 private:
  std::vector<Edit> m_edits;
  std::deque<std::string> m_owned;  // a deque: views into it stay valid as it grows
};

}  // namespace gpuport
