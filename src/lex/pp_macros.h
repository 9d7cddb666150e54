// Macro state for the preprocessor view: what the project's build defines, and what its
// sources define and undefine, per world, as a translation unit is walked.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lex/pp_worlds.h"

namespace gpuport {

// What a build file sets for one side (the CUDA build or the AMD build): `-DNAME=body`,
// add_compile_definitions(NAME), a setup.py `-DNAME` under a ROCm branch.
struct BuildMacro {
  enum class State : std::uint8_t {
    Defined,    // set in every configuration of this side
    Undefined,  // set only in the other side's configurations
    Unknown,    // set under an option the user chooses
  };
  State state = State::Unknown;
  std::string body = "1";      // the value as written; "1" for a bare -DNAME
  bool unknown_value = false;  // -DNAME=${VAR}: defined, value not known
  std::string evidence;        // "CMakeLists.txt:42", for reports
};

// The macros a project's build files set, per side. Empty when the build was not read.
class ProjectMacros {
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const {
      return std::hash<std::string_view>{}(text);
    }
  };

 public:
  using Map = std::unordered_map<std::string, BuildMacro, Hash, std::equal_to<>>;

  void set(BuildSide side, std::string name, BuildMacro macro);
  // nullptr when the build says nothing of `name` for that side.
  const BuildMacro* find(BuildSide side, std::string_view name) const;
  bool empty() const { return m_cuda.empty() && m_amd.empty(); }
  std::size_t size(BuildSide side) const {
    return side == BuildSide::Amd ? m_amd.size() : m_cuda.size();
  }
  // Every macro of one side, for reports (unordered).
  const Map& all(BuildSide side) const { return side == BuildSide::Amd ? m_amd : m_cuda; }

 private:
  Map m_cuda;
  Map m_amd;
};

// One #define as the preprocessor view keeps it. The texts point into the file or skeleton
// that holds the directive, which outlives the walk.
struct MacroDefinition {
  std::string_view name;
  std::string_view body;
  bool function_like = false;
  bool unknown_value = false;
};

// A macro's state in each world while a translation unit is walked.
struct MacroSlots {
  static constexpr std::int32_t k_absent = -1;     // nothing known: the build, the platform
  static constexpr std::int32_t k_undefined = -2;  // #undef ran (or never defined after one)
  static constexpr std::int32_t k_unknown = -3;    // defined on some paths only
  // A #define of it exists but did not run here: the project owns the name, so when neither the
  // build nor the platform defines it, it is not defined.
  static constexpr std::int32_t k_known_absent = -4;
  std::array<std::int32_t, k_world_count> slot{};

  MacroSlots() { slot.fill(k_absent); }
};

// The macros of one translation unit. Names and bodies are views (see MacroDefinition).
class MacroTable {
 public:
  void clear();
  // Applies `#define` in the worlds of `sure` (the directive certainly runs) and `maybe` (it
  // may run: the macro becomes unknown unless it already had the same definition); in the
  // other worlds the name becomes known.
  void define(const MacroDefinition& definition, WorldMask sure, WorldMask maybe);
  void undefine(std::string_view name, WorldMask sure, WorldMask maybe);
  const MacroSlots* find(std::string_view name) const;
  const MacroDefinition& definition(std::int32_t index) const {
    return m_definitions[static_cast<std::size_t>(index)];
  }
  std::size_t size() const { return m_slots.size(); }

 private:
  MacroSlots& slots(std::string_view name);
  void apply(std::string_view name, std::int32_t value, WorldMask sure, WorldMask maybe);

  std::unordered_map<std::string_view, MacroSlots> m_slots;
  std::vector<MacroDefinition> m_definitions;
};

}  // namespace gpuport
