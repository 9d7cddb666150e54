// ProjectMacros and MacroTable: the build's macros and a translation unit's own.
#include "lex/pp_macros.h"

namespace gpuport {

void ProjectMacros::set(BuildSide side, std::string name, BuildMacro macro) {
  auto& map = side == BuildSide::Amd ? m_amd : m_cuda;
  map.insert_or_assign(std::move(name), std::move(macro));
}

const BuildMacro* ProjectMacros::find(BuildSide side, std::string_view name) const {
  const auto& map = side == BuildSide::Amd ? m_amd : m_cuda;
  auto it = map.find(name);
  return it == map.end() ? nullptr : &it->second;
}

void MacroTable::clear() {
  m_slots.clear();
  m_definitions.clear();
}

MacroSlots& MacroTable::slots(std::string_view name) {
  return m_slots[name];
}

const MacroSlots* MacroTable::find(std::string_view name) const {
  auto it = m_slots.find(name);
  return it == m_slots.end() ? nullptr : &it->second;
}

void MacroTable::apply(std::string_view name, std::int32_t value, WorldMask sure, WorldMask maybe) {
  MacroSlots& entry = slots(name);
  for (std::size_t w = 0; w < k_world_count; ++w) {
    const WorldMask bit = static_cast<WorldMask>(1u << w);
    std::int32_t& slot = entry.slot[w];
    if ((sure & bit) != 0) {
      slot = value;
    } else if ((maybe & bit) != 0) {
      bool same = slot == value;
      if (!same && slot >= 0 && value >= 0) {
        const MacroDefinition& a = m_definitions[static_cast<std::size_t>(slot)];
        const MacroDefinition& b = m_definitions[static_cast<std::size_t>(value)];
        same = a.body == b.body && a.function_like == b.function_like &&
               a.unknown_value == b.unknown_value;
      }
      if (!same) {
        slot = MacroSlots::k_unknown;
      }
    } else if (slot == MacroSlots::k_absent) {
      slot = MacroSlots::k_known_absent;
    }
  }
}

void MacroTable::define(const MacroDefinition& definition, WorldMask sure, WorldMask maybe) {
  m_definitions.push_back(definition);
  apply(definition.name, static_cast<std::int32_t>(m_definitions.size() - 1), sure, maybe);
}

void MacroTable::undefine(std::string_view name, WorldMask sure, WorldMask maybe) {
  apply(name, MacroSlots::k_undefined, sure, maybe);
}

}  // namespace gpuport
