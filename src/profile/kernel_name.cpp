// Kernel names as profilers write them, reduced to the forms the profile compares and shows.
#include "profile/kernel_name.h"

#include "profile/demangle.h"
#include "profile/name_canonical.h"
#include "profile/name_layout.h"
#include "profile/name_tokens.h"

namespace gpuport {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && is_space(text.back()))
    text.remove_suffix(1);
  return text;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// rocprof's `[clone .kd]` (from the code object's `.kd` kernel descriptor symbol) or a bare `.kd`;
// other `[clone .xxx]` suffixes of the GNU demangler too.
std::string_view strip_clone_suffixes(std::string_view name) {
  while (true) {
    name = trim(name);
    if (ends_with(name, "]")) {
      const std::size_t open = name.rfind(" [clone ");
      if (open != std::string_view::npos && name.find(']', open) == name.size() - 1) {
        name = name.substr(0, open);
        continue;
      }
    }
    if (ends_with(name, ".kd") && name.size() > 3) {
      name.remove_suffix(3);
      continue;
    }
    return name;
  }
}

std::string collapse_spaces(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space = false;
  for (const char c : text) {
    if (is_space(c)) {
      space = true;
      continue;
    }
    if (space && !out.empty())
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string last_component(const std::string& qualified) {
  // The last `::` outside brackets: `(anonymous namespace)` and lambda groups hold none.
  int depth = 0;
  std::size_t cut = std::string::npos;
  for (std::size_t i = 0; i < qualified.size(); ++i) {
    const char c = qualified[i];
    if (c == '(' || c == '{' || c == '[' || c == '<')
      ++depth;
    else if ((c == ')' || c == '}' || c == ']' || c == '>') && depth > 0)
      --depth;
    else if (c == ':' && depth == 0 && i + 1 < qualified.size() && qualified[i + 1] == ':')
      cut = i + 2;
  }
  return cut == std::string::npos ? qualified : qualified.substr(cut);
}

// A name that is not C++ (`Memcpy HtoD (Host -> Device)`) or that could not be read.
void fill_opaque(KernelName& name, std::string_view text) {
  name.display = std::string(text);
  name.normalized = collapse_spaces(text);
  name.qualified = name.normalized;
  name.base = name.normalized;
}

}  // namespace

KernelName parse_kernel_name(std::string_view raw) {
  KernelName name;
  name.raw = std::string(raw);
  std::string_view text = strip_clone_suffixes(raw);

  std::string demangled;
  if (looks_mangled(text)) {
    auto symbol = demangle_symbol(text);
    if (!symbol) {
      fill_opaque(name, text);
      if (std::string qualified = mangled_qualified_name(text); !qualified.empty()) {
        name.qualified = std::move(qualified);
        name.base = last_component(name.qualified);
      }
      return name;
    }
    demangled = std::move(*symbol);
    text = strip_clone_suffixes(demangled);
  }

  const std::vector<NameToken> tokens = tokenize_name(text);
  const NameLayout layout = layout_name(tokens);
  if (layout.components.empty()) {
    fill_opaque(name, text);
    return name;
  }
  const CanonicalSpelling canonical(tokens);
  name.display = std::string(
      layout.return_type_dropped ? trim(text.substr(tokens[layout.name_begin].offset)) : text);
  canonical.append(layout.name_begin, layout.name_end, name.normalized);
  for (const NameComponent& component : layout.components) {
    if (!name.qualified.empty())
      name.qualified += "::";
    std::string part;
    canonical.append(component.begin, component.end, part);
    name.qualified += part;
    name.base = std::move(part);
  }
  return name;
}

std::string_view first_template_argument(const KernelName& name) {
  const std::string_view display = name.display;
  const std::vector<NameToken> tokens = tokenize_name(display);
  const NameLayout layout = layout_name(tokens);
  if (layout.template_open == NameLayout::npos)
    return {};
  const std::size_t close = static_cast<std::size_t>(tokens[layout.template_open].match);
  std::size_t end = layout.template_open + 1;
  while (end < close && !is_punct(tokens[end], ',')) {
    end = is_open_bracket(tokens[end]) ? static_cast<std::size_t>(tokens[end].match) + 1 : end + 1;
  }
  if (end == layout.template_open + 1)
    return {};
  const std::size_t from = tokens[layout.template_open + 1].offset;
  return trim(display.substr(from, tokens[end].offset - from));
}

}  // namespace gpuport
