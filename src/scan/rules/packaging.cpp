// PKG rules: CUDA-flavoured pins in requirements files, pyproject.toml, setup.cfg, conda
// environments, setup.py and `pip install` lines, plus the AMD packages that show a ROCm path.
#include <algorithm>
#include <array>

#include "scan/rules/catalog.h"
#include "scan/rules/stack_rules.h"

namespace gpuport {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (is_space(text.front()) || text.front() == '\r')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (is_space(text.back()) || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}
bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

template <std::size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

constexpr std::string_view k_torch_cuda = "GP-PKG-001";

// Emits findings for one file, at most one per (line, rule).
class Emitter {
 public:
  Emitter(const SharedString& path, FileAnalysis& out) : m_path(path), m_out(out) {}

  void finding(std::string_view rule, std::uint32_t line, std::uint32_t column,
               std::string_view line_text, std::string detail) {
    for (auto it = m_out.findings.rbegin(); it != m_out.findings.rend(); ++it) {
      if (it->line != line) {
        break;
      }
      if (it->file == m_path && it->rule == rule_index(rule)) {
        return;
      }
    }
    add_line_finding(m_out, rule, m_path, line, column, line_text, std::move(detail));
  }

  void sign(std::uint32_t line, std::string detail) {
    m_out.amd_path.push_back({AmdPathKind::RocmPackage, m_path, line, std::move(detail)});
  }

  // Requirement text found at `column` of a line.
  void requirement(std::string_view text, std::uint32_t line, std::uint32_t column,
                   std::string_view line_text) {
    std::optional<Requirement> req = parse_requirement(text);
    if (!req) {
      return;
    }
    RequirementVerdict verdict = classify_requirement(*req);
    std::string detail = req->name;
    if (!req->extras.empty()) {
      detail += "[" + req->extras + "]";
    }
    if (!req->op.empty() && req->op != "@") {
      detail += req->op + req->version;
      if (!req->local.empty()) {
        detail += "+" + req->local;
      }
    }
    if (!verdict.rule.empty()) {
      finding(verdict.rule, line, column, line_text, detail);
    }
    if (!verdict.amd_sign.empty()) {
      sign(line, detail);
    }
  }

  // Any wheel index URL on the line.
  void index_urls(std::string_view text, std::uint32_t line, std::uint32_t column_base,
                  std::string_view line_text) {
    if (text.find("/whl/") == std::string_view::npos &&
        text.find("/WHL/") == std::string_view::npos) {
      return;
    }
    std::string lower = to_lower_ascii(text);
    IndexUrlVerdict verdict = classify_index_url(lower);
    const std::size_t at = lower.find("/whl/");
    if (!verdict.cuda.empty()) {
      finding(k_torch_cuda, line, column_base + static_cast<std::uint32_t>(at), line_text,
              "index whl/" + verdict.cuda);
    }
    if (!verdict.rocm.empty()) {
      sign(line, "index whl/" + verdict.rocm);
    }
  }

 private:
  const SharedString& m_path;
  FileAnalysis& m_out;
};

// Quoted strings on a line (TOML arrays, setup.cfg never needs this), with a flag for a
// closing ']' outside quotes.
struct QuotedScan {
  std::vector<std::pair<std::size_t, std::string_view>> strings;  // (offset, content)
  bool closes_array = false;
  bool opens_array = false;
};

QuotedScan scan_quoted(std::string_view text) {
  QuotedScan result;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      const std::size_t end = text.find(c, i + 1);
      if (end == std::string_view::npos) {
        result.strings.emplace_back(i + 1, text.substr(i + 1));
        break;
      }
      result.strings.emplace_back(i + 1, text.substr(i + 1, end - i - 1));
      i = end + 1;
      continue;
    }
    if (c == ']') {
      result.closes_array = true;
    } else if (c == '[') {
      result.opens_array = true;
    }
    ++i;
  }
  return result;
}

enum class PackagingKind : std::uint8_t { Requirements, Pyproject, SetupCfg, Conda };

PackagingKind packaging_kind(std::string_view path) {
  std::string name = to_lower_ascii(base_name(path));
  if (name == "pyproject.toml") {
    return PackagingKind::Pyproject;
  }
  if (name == "setup.cfg") {
    return PackagingKind::SetupCfg;
  }
  if (ends_with(name, ".yml") || ends_with(name, ".yaml")) {
    return PackagingKind::Conda;
  }
  return PackagingKind::Requirements;
}

std::uint32_t column_at(const ConfigLine& line, std::size_t offset) {
  return line.indent + 1 + static_cast<std::uint32_t>(offset);
}

void check_requirements_line(Emitter& emit, const ConfigLine& line) {
  std::string_view text = trim(line.text);
  emit.index_urls(text, line.line, line.indent + 1, line.text);
  if (text.empty() || text.front() == '-') {
    return;  // options: -r, -c, --index-url (checked above), -e
  }
  emit.requirement(text, line.line, column_at(line, 0), line.text);
}

void check_conda_line(Emitter& emit, const ConfigLine& line) {
  std::string_view text = trim(line.text);
  emit.index_urls(text, line.line, line.indent + 1, line.text);
  if (!starts_with(text, "- ")) {
    return;
  }
  std::string_view item = trim(text.substr(2));
  if (item.empty() || item.front() == '-') {
    return;
  }
  // "- defaults" channel entries parse as names with no hazard; "- pip:" has a colon.
  if (item.back() == ':') {
    return;
  }
  emit.requirement(item, line.line, column_at(line, 2), line.text);
}

// pyproject.toml: [project] dependencies, optional-dependencies, build-system requires,
// dependency-groups arrays; poetry dependency tables.
class PyprojectReader {
 public:
  explicit PyprojectReader(Emitter& emit) : m_emit(emit) {}

  void line(const ConfigLine& line) {
    std::string_view text = trim(line.text);
    m_emit.index_urls(text, line.line, line.indent + 1, line.text);
    if (!m_in_array && starts_with(text, "[")) {
      std::string_view header = text;
      while (!header.empty() && (header.front() == '[' || is_space(header.front()))) {
        header.remove_prefix(1);
      }
      const std::size_t close = header.find(']');
      m_section = to_lower_ascii(trim(header.substr(0, close)));
      return;
    }
    if (m_in_array) {
      array_line(line, text, 0);
      return;
    }
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos) {
      return;
    }
    std::string key = to_lower_ascii(trim(text.substr(0, eq)));
    if (!key.empty() && (key.front() == '"' || key.front() == '\'')) {
      key = std::string(trim(std::string_view(key).substr(1, key.size() - 2)));
    }
    std::string_view value = trim(text.substr(eq + 1));
    if (!value.empty() && value.front() == '[' && array_key(key)) {
      m_in_array = true;
      array_line(line, text, static_cast<std::size_t>(value.data() - text.data()) + 1);
      return;
    }
    if (poetry_table() && key != "python") {
      QuotedScan quoted = scan_quoted(value);
      if (quoted.strings.empty()) {
        return;
      }
      std::string synthesized = key + "==" + std::string(quoted.strings.front().second);
      m_emit.requirement(synthesized, line.line, line.indent + 1, line.text);
    }
  }

 private:
  bool array_key(std::string_view key) const {
    return (m_section == "project" && key == "dependencies") ||
           (m_section == "build-system" && key == "requires") ||
           m_section == "project.optional-dependencies" || m_section == "dependency-groups";
  }
  bool poetry_table() const {
    return starts_with(m_section, "tool.poetry") && ends_with(m_section, "dependencies");
  }

  void array_line(const ConfigLine& line, std::string_view text, std::size_t from) {
    QuotedScan quoted = scan_quoted(text.substr(std::min(from, text.size())));
    for (const auto& [offset, content] : quoted.strings) {
      m_emit.requirement(content, line.line, column_at(line, from + offset), line.text);
    }
    if (quoted.closes_array) {
      m_in_array = false;
    }
  }

  Emitter& m_emit;
  std::string m_section;
  bool m_in_array = false;
};

// setup.cfg: install_requires / setup_requires / extras_require values and their indented
// continuation lines.
class SetupCfgReader {
 public:
  explicit SetupCfgReader(Emitter& emit) : m_emit(emit) {}

  void line(const ConfigLine& line) {
    std::string_view text = trim(line.text);
    m_emit.index_urls(text, line.line, line.indent + 1, line.text);
    if (line.indent == 0 && starts_with(text, "[")) {
      m_section = to_lower_ascii(text);
      m_in_value = false;
      return;
    }
    if (line.indent > 0) {
      if (m_in_value) {
        m_emit.requirement(text, line.line, column_at(line, 0), line.text);
      }
      return;
    }
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos) {
      m_in_value = false;
      return;
    }
    std::string key = to_lower_ascii(trim(text.substr(0, eq)));
    m_in_value = key == "install_requires" || key == "setup_requires" || key == "tests_require" ||
                 m_section == "[options.extras_require]";
    std::string_view value = trim(text.substr(eq + 1));
    if (m_in_value && !value.empty()) {
      m_emit.requirement(value, line.line,
                         column_at(line, static_cast<std::size_t>(value.data() - text.data())),
                         line.text);
    }
  }

 private:
  Emitter& m_emit;
  std::string m_section;
  bool m_in_value = false;
};

// Options of `pip install` that take a separate value.
bool pip_option_takes_value(std::string_view option) {
  constexpr std::array<std::string_view, 16> k_options = {"-i",
                                                          "--index-url",
                                                          "--extra-index-url",
                                                          "-f",
                                                          "--find-links",
                                                          "-r",
                                                          "--requirement",
                                                          "-c",
                                                          "--constraint",
                                                          "-t",
                                                          "--target",
                                                          "--prefix",
                                                          "--root",
                                                          "--trusted-host",
                                                          "--platform",
                                                          "--python-version"};
  return one_of(option, k_options);
}

}  // namespace

void check_packaging(const SharedString& path, std::span<const ConfigLine> lines,
                     FileAnalysis& out) {
  Emitter emit(path, out);
  switch (packaging_kind(path)) {
    case PackagingKind::Requirements:
      for (const ConfigLine& line : lines) {
        check_requirements_line(emit, line);
      }
      break;
    case PackagingKind::Conda:
      for (const ConfigLine& line : lines) {
        check_conda_line(emit, line);
      }
      break;
    case PackagingKind::Pyproject: {
      PyprojectReader reader(emit);
      for (const ConfigLine& line : lines) {
        reader.line(line);
      }
      break;
    }
    case PackagingKind::SetupCfg: {
      SetupCfgReader reader(emit);
      for (const ConfigLine& line : lines) {
        reader.line(line);
      }
      break;
    }
  }
}

void check_pip_install(const SharedString& path, const ConfigLine& line, FileAnalysis& out) {
  std::string lower = to_lower_ascii(line.text);
  if (lower.find("download.pytorch.org/whl/") == std::string::npos &&
      lower.find("pip") == std::string::npos) {
    return;
  }
  Emitter emit(path, out);
  if (lower.find("download.pytorch.org/whl/") != std::string::npos) {
    emit.index_urls(line.text, line.line, line.indent + 1, line.text);
  }
  std::size_t pos = 0;
  while ((pos = lower.find("pip", pos)) != std::string::npos) {
    const std::size_t word_end = lower.find_first_of(" \t", pos);
    std::string_view word = std::string_view(lower).substr(pos, word_end - pos);
    const bool at_word = pos == 0 || lower[pos - 1] == ' ' || lower[pos - 1] == '\t' ||
                         lower[pos - 1] == '/' || lower[pos - 1] == '"' || lower[pos - 1] == '\'';
    pos += 3;
    if (!at_word || (word != "pip" && word != "pip3") || word_end == std::string::npos) {
      continue;
    }
    std::size_t i = word_end;
    bool after_install = false;
    bool skip_value = false;
    while (i < lower.size()) {
      while (i < lower.size() && (lower[i] == ' ' || lower[i] == '\t')) {
        ++i;
      }
      std::size_t end = lower.find_first_of(" \t", i);
      if (end == std::string::npos) {
        end = lower.size();
      }
      std::string_view arg = std::string_view(line.text).substr(i, end - i);
      const std::size_t arg_at = i;
      i = end;
      if (arg.empty()) {
        break;
      }
      if (arg == "&&" || arg == "||" || arg == ";" || arg == "|" || arg.back() == ';') {
        break;
      }
      if (!after_install) {
        if (arg != "install") {
          break;
        }
        after_install = true;
        continue;
      }
      if (skip_value) {
        skip_value = false;
        continue;
      }
      if (arg.front() == '-') {
        skip_value = arg.find('=') == std::string_view::npos && pip_option_takes_value(arg);
        continue;
      }
      emit.requirement(arg, line.line, column_at(line, arg_at), line.text);
    }
  }
}

void check_python_requirements(const SharedString& path, const TokenStream& tokens,
                               FileAnalysis& out) {
  Emitter emit(path, out);
  // Requirements sit in lists (install_requires=[...]); names elsewhere (name="vllm") do not.
  std::vector<char> open;
  for (const Token& token : tokens.tokens) {
    if (token.kind == TokenKind::Punct) {
      std::string_view p = tokens.text(token);
      if (p == "[" || p == "(" || p == "{") {
        if (open.size() < 256) {
          open.push_back(p[0]);
        }
      } else if ((p == "]" || p == ")" || p == "}") && !open.empty()) {
        open.pop_back();
      }
      continue;
    }
    if (token.kind != TokenKind::String || open.empty() || open.back() != '[') {
      continue;
    }
    std::string_view content = python_string_content(tokens.text(token));
    if (content.empty() || content.size() > 200 || content.find('\n') != std::string_view::npos) {
      continue;
    }
    const std::uint32_t column = tokens.column(token);
    emit.index_urls(content, token.line, column, tokens.line_text(token.line));
    if (content.find(' ') != std::string_view::npos &&
        content.find_first_of("=<>~@") == std::string_view::npos) {
      continue;  // prose, not a requirement
    }
    emit.requirement(content, token.line, column, tokens.line_text(token.line));
  }
}

}  // namespace gpuport
