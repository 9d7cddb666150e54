// Evaluates #if expressions in every world at once, with three-valued results and the
// project's macros expanded.
#pragma once

#include <cstdint>
#include <string_view>

#include "lex/pp_directives.h"
#include "lex/pp_worlds.h"

namespace gpuport {

// How a name resolves in one world, from the translation unit's own #defines, the build's
// -D flags and the platform (in that order).
struct MacroResolution {
  enum class Kind : std::uint8_t {
    Undefined,            // not defined: 0 as an operand, false under `defined`
    Value,                // a known integer (platform macros)
    Nonzero,              // defined, value unknown but not zero (__CUDA_ARCH__ in an unknown pass)
    Unknown,              // may or may not be defined
    Body,                 // defined as `body`, which is evaluated in its turn
    FunctionLike,         // a function-like macro: its calls are not expanded (unknown)
    DefinedUnknownValue,  // defined, value unknown (-DNAME=${VAR})
  };
  Kind kind = Kind::Unknown;
  std::int64_t value = 0;
  std::string_view body;
};

class MacroResolver {
 public:
  virtual ~MacroResolver() = default;
  virtual MacroResolution resolve(std::string_view name, World world) const = 0;
  // The resolution in every world of `worlds` (others are left as they are): an implementation
  // looks a name up once for all worlds, where resolve() would look it up once per world.
  virtual void resolve_worlds(std::string_view name, WorldMask worlds,
                              MacroResolution (&out)[k_world_count]) const {
    for (std::size_t w = 0; w < k_world_count; ++w) {
      if ((worlds & (1u << w)) != 0) {
        out[w] = resolve(name, static_cast<World>(w));
      }
    }
  }
};

// A condition's truth in each world: possibly true / possibly false. True in a world is
// (true, not false), false is (not true, false), unknown is both; a world outside the mask the
// evaluation was asked for has neither bit.
struct TruthMask {
  WorldMask may_true = 0;
  WorldMask may_false = 0;

  WorldMask sure_true() const { return may_true & ~may_false; }
  WorldMask sure_false() const { return may_false & ~may_true; }
  WorldMask unknown() const { return may_true & may_false; }
  static TruthMask all_true(WorldMask worlds) { return {worlds, 0}; }
  static TruthMask all_false(WorldMask worlds) { return {0, worlds}; }
  static TruthMask all_unknown(WorldMask worlds) { return {worlds, worlds}; }
};

inline TruthMask truth_and(TruthMask a, TruthMask b) {
  return {static_cast<WorldMask>(a.may_true & b.may_true),
          static_cast<WorldMask>(a.may_false | b.may_false)};
}
inline TruthMask truth_not(TruthMask a) {
  return {a.may_false, a.may_true};
}

// Limits that keep a hostile condition or macro from costing more than a bounded amount: a
// condition that exceeds one is unknown.
struct ExpressionLimits {
  std::size_t max_expansion_depth = 32;  // nested macro bodies
  std::size_t max_tokens = 20000;        // condition and body tokens read, in all
  std::size_t max_stack = 256;           // operands and operators pending
};

// The truth of `#<directive> <text>` (#if/#elif: the expression; #ifdef/#ifndef and
// #elifdef/#elifndef: the first identifier) in the worlds of `worlds`. A condition that does
// not parse, or exceeds a limit, is unknown in every world of `worlds`; `evaluated`, when set,
// then becomes false (true otherwise).
TruthMask evaluate_condition(Directive directive, std::string_view text,
                             const MacroResolver& resolver, WorldMask worlds,
                             const ExpressionLimits& limits = {}, bool* evaluated = nullptr);

// The platform alone (no project macros, no build): for tests and for callers without a file.
class PlatformResolver : public MacroResolver {
 public:
  MacroResolution resolve(std::string_view name, World world) const override;
};

}  // namespace gpuport
