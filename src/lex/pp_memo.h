// What walking a header did, kept so that the next translation unit that includes it with the
// same macros in force can replay the effects instead of walking the header again.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lex/pp_directives.h"
#include "lex/pp_expression.h"
#include "lex/pp_macros.h"

namespace gpuport {

// A macro as the walk first read it (before the walk itself changed it), in every world. A
// later walk with the same values takes the same branches.
struct MemoRead {
  std::string name;
  struct World {
    MacroResolution::Kind kind = MacroResolution::Kind::Unknown;
    std::int64_t value = 0;
    std::string body;
  };
  std::array<World, k_world_count> worlds;
};

// One effect, in walk order: a #define or #undef with the worlds it certainly and maybe ran in,
// or a `#pragma once`.
struct MemoOp {
  enum class Kind : std::uint8_t { Define, Undefine, Once };
  Kind kind = Kind::Define;
  MacroDefinition definition;  // Define: views into skeletons, which outlive the scan's memo
  std::string_view name;       // Undefine: the macro; Once: the header's path
  WorldMask sure = 0;
  WorldMask maybe = 0;
};

// A header walked from one reach, with everything its walk depended on.
struct HeaderRecording {
  std::vector<MemoRead> reads;
  std::vector<std::pair<std::string_view, bool>> once_reads;  // `#pragma once` state it saw
  std::vector<MemoOp> ops;
  std::vector<std::string_view> walked;  // every header walked, itself included
  std::size_t directives = 0;            // directives walked, for the budget
  std::size_t depth = 0;                 // include levels below the header, for the depth limit
};

// Recordings of a scan. Each is a pure function of the header, the reach it was included from
// and the recorded reads, so which worker recorded it, or whether a worker has it at all, never
// changes a result. Not thread-safe: each scan thread keeps its own (ProjectHeaders::memo).
// Bounded in size.
class HeaderMemo {
 public:
  struct Key {
    const HeaderSkeleton* header = nullptr;
    WorldMask may_true = 0;
    WorldMask may_false = 0;
    bool operator==(const Key&) const = default;
  };

  // Every recording of `key`; valid until the next add().
  const std::vector<std::shared_ptr<const HeaderRecording>>& find(const Key& key) const;
  void add(const Key& key, std::shared_ptr<const HeaderRecording> recording);
  std::size_t size() const;

 private:
  struct KeyHash {
    std::size_t operator()(const Key& key) const {
      return std::hash<const void*>{}(key.header) ^ (std::size_t{key.may_true} << 20) ^
             (std::size_t{key.may_false} << 40);
    }
  };
  static constexpr std::size_t k_max_ops = 4'000'000;  // all recordings together
  static constexpr std::size_t k_max_per_key = 8;

  std::unordered_map<Key, std::vector<std::shared_ptr<const HeaderRecording>>, KeyHash> m_map;
  std::size_t m_ops = 0;
};

}  // namespace gpuport
