#include "profile/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace gpuport {
namespace {

constexpr std::size_t kMaxMangledBytes = 32 * 1024;

std::optional<std::string> cxa_demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || out == nullptr)
    return std::nullopt;
  return std::string(out.get());
}

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

void replace_all(std::string& text, std::string_view from, std::string_view to, bool whole_word) {
  std::string out;
  std::size_t at = 0;
  while (true) {
    const std::size_t hit = text.find(from, at);
    if (hit == std::string::npos)
      break;
    const std::size_t end = hit + from.size();
    const bool word_ok = !whole_word || ((hit == 0 || !is_ident_char(text[hit - 1])) &&
                                         (end == text.size() || !is_ident_char(text[end])));
    out.append(text, at, hit - at);
    out.append(word_ok ? to : from);
    at = end;
  }
  out.append(text, at, std::string::npos);
  text = std::move(out);
}

// A builtin type the demangler does not know, spelled through one it does. Builtin types are never
// substitution candidates, so swapping one for another keeps every back reference valid.
struct StandIn {
  std::string_view code;         // the mangling the demangler rejects
  std::string_view stand_in;     // a builtin it reads
  std::string_view stand_in_as;  // how it prints the stand-in
  std::string_view real;         // how the real type is spelled
};
constexpr StandIn kStandIns[] = {
    {"DF16b", "Dn", "decltype(nullptr)", "std::bfloat16_t"},
    {"DF16_", "Dd", "decimal64", "_Float16"},
};

}  // namespace

bool looks_mangled(std::string_view name) {
  return name.size() > 2 && name[0] == '_' && name[1] == 'Z';
}

std::optional<std::string> demangle_symbol(std::string_view mangled) {
  if (!looks_mangled(mangled) || mangled.size() > kMaxMangledBytes ||
      mangled.find('\0') != std::string_view::npos) {
    return std::nullopt;
  }
  const std::string symbol(mangled);
  // With a newer builtin in it, try the stand-ins first: the old demangler may otherwise read
  // `DF16b` as a fixed-point type and print `_Accum` instead of failing.
  std::string substituted = symbol;
  bool any = false;
  for (const StandIn& s : kStandIns) {
    if (symbol.find(s.code) != std::string::npos && symbol.find(s.stand_in) == std::string::npos) {
      replace_all(substituted, s.code, s.stand_in, false);
      any = true;
    }
  }
  if (any) {
    if (auto out = cxa_demangle(substituted)) {
      for (const StandIn& s : kStandIns) {
        if (symbol.find(s.code) != std::string::npos)
          replace_all(*out, s.stand_in_as, s.real, true);
      }
      return out;
    }
  }
  return cxa_demangle(symbol);
}

std::string mangled_qualified_name(std::string_view mangled) {
  if (!looks_mangled(mangled))
    return {};
  std::size_t at = 2;
  if (at < mangled.size() && mangled[at] == 'L')  // internal linkage
    ++at;
  const bool nested = at < mangled.size() && mangled[at] == 'N';
  if (nested) {
    ++at;
    while (at < mangled.size() && (mangled[at] == 'r' || mangled[at] == 'V' || mangled[at] == 'K' ||
                                   mangled[at] == 'R' || mangled[at] == 'O'))
      ++at;
  }
  std::string out;
  while (at < mangled.size()) {
    std::string_view component;
    if (mangled.substr(at, 2) == "St") {
      component = "std";
      at += 2;
    } else if (mangled[at] >= '0' && mangled[at] <= '9') {
      std::size_t length = 0;
      while (at < mangled.size() && mangled[at] >= '0' && mangled[at] <= '9' && length < 100000) {
        length = length * 10 + static_cast<std::size_t>(mangled[at] - '0');
        ++at;
      }
      if (length == 0 || length > mangled.size() - at)
        break;
      component = mangled.substr(at, length);
      at += length;
      if (component.substr(0, 10) == "_GLOBAL__N")
        component = "(anonymous namespace)";
    } else {
      break;
    }
    if (!out.empty())
      out += "::";
    out += component;
    if (!nested)
      break;
  }
  return out;
}

}  // namespace gpuport
