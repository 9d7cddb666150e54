// #include handling: renames CUDA headers through the table, drops the duplicate includes that
// renaming creates, and adds hip/hip_runtime.h once where the file needs it.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "hipify/file_translation.h"

namespace gpuport {

inline constexpr std::string_view k_hip_runtime_header = "hip/hip_runtime.h";

class IncludeFixup {
 public:
  explicit IncludeFixup(FileTranslation& ft) : m_ft(ft) {}

  // Called for every DirectiveStart token, in order (HIP branches included: they still open
  // and close #if scopes and may already include hip_runtime.h). `name` is the directive name.
  void on_directive(std::size_t index, std::string_view name);
  // After the token pass: inserts hip/hip_runtime.h when ft.needs_runtime_header and the file
  // does not include it yet.
  void finish();

 private:
  struct Seen {
    std::string_view path;  // as it reads after translation
    std::uint32_t scope = 0;
    bool renamed = false;
  };

  void on_include(std::size_t directive);
  bool in_open_scope(std::uint32_t scope) const;
  void remove_directive_line(std::size_t directive);
  std::uint32_t insertion_offset() const;

  FileTranslation& m_ft;
  // The #if branches enclosing the current position, each with a unique id; 0 is the file.
  std::vector<std::uint32_t> m_scopes{0};
  std::uint32_t m_next_scope = 1;
  std::vector<Seen> m_seen;
  bool m_has_runtime = false;
};

}  // namespace gpuport
