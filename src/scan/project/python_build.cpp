// The Python reader of the build model: logical lines from the Python lexer, if-blocks by
// indentation, conditions read as and/or/not over names that select a backend.
#include "scan/project/python_build.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "lex/python_lexer.h"
#include "scan/project/build_switches.h"
#include "scan/project/path_glob.h"
#include "scan/rules/stack_rules.h"
#include "source/ascii_text.h"

namespace gpuport {

namespace {

bool has_source_extension(std::string_view name) {
  static constexpr std::string_view k_extensions[] = {".cu", ".cuh", ".cpp", ".cc", ".cxx",
                                                      ".c",  ".hip", ".h",   ".hpp"};
  for (std::string_view extension : k_extensions) {
    if (name.size() > extension.size() && name.ends_with(extension)) {
      return true;
    }
  }
  return false;
}

// The segments of a name or attribute chain, lower case: "torch.version.hip" -> torch version hip.
std::vector<std::string> segments(std::string_view name) {
  std::vector<std::string> out;
  std::string current;
  for (char c : name) {
    if (c == '.' || c == '_') {
      if (!current.empty()) {
        out.push_back(to_lower_ascii(current));
        current.clear();
      }
    } else {
      current += c;
    }
  }
  if (!current.empty()) {
    out.push_back(to_lower_ascii(current));
  }
  return out;
}

// The backend a name in a condition selects: torch.version.hip, ROCM_HOME, HIP_HOME, a flag or
// function named for it (IS_HIP_EXTENSION, is_rocm_pytorch(), USE_ROCM, _is_rocm), a build switch
// (BUILD_HIP); torch.version.cuda, CUDA_HOME, IS_CUDA and CUDA switches for the CUDA build. A
// name that merely holds the word (rocm_ver_file, install_hip_version) selects nothing.
BuildSwitch classify_name(std::string_view chain) {
  if (chain.ends_with("version.hip")) {
    return BuildSwitch::Amd;
  }
  if (chain.ends_with("version.cuda")) {
    return BuildSwitch::Cuda;
  }
  std::string_view name =
      chain.substr(chain.rfind('.') == std::string_view::npos ? 0 : chain.rfind('.') + 1);
  while (name.starts_with('_')) {
    name.remove_prefix(1);
  }
  if (name == "ROCM_HOME" || name == "HIP_HOME") {
    return BuildSwitch::Amd;
  }
  if (name == "CUDA_HOME") {
    return BuildSwitch::Cuda;
  }
  const std::vector<std::string> parts = segments(name);
  if (parts.size() >= 2 && (parts[0] == "is" || parts[0] == "use" || parts[0] == "build" ||
                            parts[0] == "with" || parts[0] == "enable" || parts[0] == "has")) {
    for (std::size_t i = 1; i < parts.size(); ++i) {
      if (parts[i] == "hip" || parts[i] == "rocm") {
        return BuildSwitch::Amd;
      }
    }
    if (parts[1] == "cuda" && parts.size() == 2) {
      return BuildSwitch::Cuda;
    }
  }
  const BuildSwitch value = classify_build_switch(name);
  return value == BuildSwitch::Amd || value == BuildSwitch::Cuda ? value : BuildSwitch::None;
}

struct Tok {
  TokenKind kind;
  std::string_view text;
};

bool is_word(const Tok& t, std::string_view word) {
  return t.kind == TokenKind::Identifier && t.text == word;
}

class ConditionReader {
 public:
  ConditionReader(std::span<const Tok> tokens, const BuildContext& context)
      : m_tokens(tokens), m_context(context) {}

  TruthMask run() {
    std::size_t pos = 0;
    TruthMask truth = parse_or(pos, 0);
    return pos == m_tokens.size() ? truth : TruthMask::all_unknown(k_both_sides);
  }

  bool names_amd() const {
    for (const Tok& t : m_tokens) {
      if (t.kind == TokenKind::Identifier && classify_name(t.text) == BuildSwitch::Amd) {
        return true;
      }
      if (t.kind == TokenKind::String &&
          classify_backend_value(python_string_content(t.text)) == BuildSwitch::Amd) {
        return true;
      }
    }
    return false;
  }

 private:
  TruthMask parse_or(std::size_t& pos, int depth) {
    TruthMask left = parse_and(pos, depth);
    while (pos < m_tokens.size() && is_word(m_tokens[pos], "or")) {
      ++pos;
      left = truth_or(left, parse_and(pos, depth));
    }
    return left;
  }

  TruthMask parse_and(std::size_t& pos, int depth) {
    TruthMask left = parse_not(pos, depth);
    while (pos < m_tokens.size() && is_word(m_tokens[pos], "and")) {
      ++pos;
      left = truth_and(left, parse_not(pos, depth));
    }
    return left;
  }

  TruthMask parse_not(std::size_t& pos, int depth) {
    if (pos < m_tokens.size() && is_word(m_tokens[pos], "not") && depth < 64) {
      ++pos;
      return truth_not(parse_not(pos, depth + 1));
    }
    return parse_atom(pos, depth);
  }

  // Everything up to the next `and`/`or` outside brackets; a bracketed group alone recurses.
  TruthMask parse_atom(std::size_t& pos, int depth) {
    if (pos < m_tokens.size() && m_tokens[pos].text == "(" && depth < 64) {
      std::size_t close = matching(pos);
      if (close != SIZE_MAX &&
          (close + 1 == m_tokens.size() || is_word(m_tokens[close + 1], "and") ||
           is_word(m_tokens[close + 1], "or"))) {
        ConditionReader inner(m_tokens.subspan(pos + 1, close - pos - 1), m_context);
        pos = close + 1;
        return inner.run();
      }
    }
    const std::size_t start = pos;
    int brackets = 0;
    while (pos < m_tokens.size()) {
      const Tok& t = m_tokens[pos];
      if (t.kind == TokenKind::Punct && (t.text == "(" || t.text == "[" || t.text == "{")) {
        ++brackets;
      } else if (t.kind == TokenKind::Punct && (t.text == ")" || t.text == "]" || t.text == "}")) {
        --brackets;
      } else if (brackets == 0 && (is_word(t, "and") || is_word(t, "or"))) {
        break;
      }
      ++pos;
    }
    return atom_truth(m_tokens.subspan(start, pos - start));
  }

  std::size_t matching(std::size_t open) const {
    int depth = 0;
    for (std::size_t i = open; i < m_tokens.size(); ++i) {
      if (m_tokens[i].text == "(") {
        ++depth;
      } else if (m_tokens[i].text == ")" && --depth == 0) {
        return i;
      }
    }
    return SIZE_MAX;
  }

  // `torch.version.hip is not None`, `BUILD_TARGET == "rocm"`, `is_rocm_pytorch()`.
  TruthMask atom_truth(std::span<const Tok> atom) const {
    bool negate = false;
    BuildSwitch value = BuildSwitch::None;
    bool ambiguous = false;
    for (std::size_t i = 0; i < atom.size(); ++i) {
      const Tok& t = atom[i];
      BuildSwitch found = BuildSwitch::None;
      if (t.kind == TokenKind::Identifier) {
        if (t.text == "None" && i > 0) {
          // `x is None`, `x == None`: true where x is not set; `is not None`, `!= None` keep it.
          negate = is_word(atom[i - 1], "is") || atom[i - 1].text == "==";
          continue;
        }
        // An attribute chain: join `a . b . c`.
        std::string chain(t.text);
        while (i + 2 < atom.size() && atom[i + 1].text == "." &&
               atom[i + 2].kind == TokenKind::Identifier) {
          chain += ".";
          chain += atom[i + 2].text;
          i += 2;
        }
        found = classify_name(chain);
      } else if (t.kind == TokenKind::String) {
        found = classify_backend_value(python_string_content(t.text));
        if (found != BuildSwitch::None && i > 0 && atom[i - 1].text == "!=") {
          negate = !negate;
        }
      }
      if (found != BuildSwitch::None) {
        if (value != BuildSwitch::None && value != found) {
          ambiguous = true;
        }
        value = found;
      }
    }
    if (value == BuildSwitch::None || ambiguous) {
      return TruthMask::all_unknown(k_both_sides);
    }
    TruthMask truth = switch_truth(value, m_context);
    return negate ? truth_not(truth) : truth;
  }

  std::span<const Tok> m_tokens;
  const BuildContext& m_context;
};

struct Level {
  std::uint32_t indent = 0;
  TruthMask none_taken;
  TruthMask branch;
  std::uint32_t chain = 0;
  std::uint32_t branch_index = 0;
  std::uint32_t if_line = 0;
  std::uint32_t range_start = 0;  // first line of the current branch
  std::uint32_t guard_line = 0;
};

struct ChainBranch {
  TruthMask truth;
  bool adds_sources = false;
};

std::string trimmed_line(std::string_view line) {
  std::size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) {
    return {};
  }
  std::size_t end = line.find_last_not_of(" \t\r");
  std::string out(line.substr(start, end - start + 1));
  return out.size() > 120 ? out.substr(0, 117) + "..." : out;
}

class PythonBuildReader {
 public:
  PythonBuildReader(std::string_view path, const BuildContext& context, const PathLookup& paths,
                    BuildFacts& out)
      : m_path(path),
        m_folder(parent_folder(path)),
        m_context(context),
        m_paths(paths),
        m_out(out) {}

  void run(const TokenStream& stream) {
    m_stream = &stream;
    std::vector<Tok> line;
    std::uint32_t line_number = 0;
    std::uint32_t indent = 0;
    for (const Token& token : stream.tokens) {
      if (token.kind == TokenKind::Comment) {
        continue;
      }
      if (token.kind == TokenKind::Newline) {
        if (!line.empty()) {
          logical_line(line, line_number, indent);
        }
        line.clear();
        continue;
      }
      if (line.empty()) {
        line_number = token.line;
        indent = stream.column(token) - 1;
      }
      line.push_back({token.kind, stream.text(token)});
      if (line.size() > 4096) {
        line.clear();  // a pathological line: read no more of it
      }
    }
    if (!line.empty()) {
      logical_line(line, line_number, indent);
    }
    finish();
  }

 private:
  TruthMask scope() const {
    return m_levels.empty() ? TruthMask::all_true(k_both_sides) : m_levels.back().branch;
  }

  BuildLine where(std::uint32_t line) const {
    return {std::string(m_path), line, trimmed_line(m_stream->line_text(line))};
  }

  void close_branch(const Level& level, std::uint32_t last_line) {
    ScopeRange range;
    range.file = std::string(m_path);
    range.first_line = level.range_start;
    range.last_line = last_line;
    range.truth = level.branch;
    range.guard_line = level.guard_line;
    m_ranges.emplace_back(std::move(range), std::make_pair(level.chain, level.branch_index));
  }

  void logical_line(std::vector<Tok>& line, std::uint32_t number, std::uint32_t indent) {
    const bool is_elif = is_word(line[0], "elif");
    const bool is_else = is_word(line[0], "else");
    while (!m_levels.empty() && indent <= m_levels.back().indent) {
      if (indent == m_levels.back().indent && (is_elif || is_else)) {
        close_branch(m_levels.back(), number > 0 ? number - 1 : 0);
        break;
      }
      close_branch(m_levels.back(), number > 0 ? number - 1 : 0);
      m_levels.pop_back();
    }
    if (is_word(line[0], "if") ||
        ((is_elif || is_else) && !m_levels.empty() && m_levels.back().indent == indent)) {
      std::span<const Tok> condition = condition_of(line);
      TruthMask cond = TruthMask::all_true(k_both_sides);
      if (!is_else) {
        ConditionReader reader(condition, m_context);
        cond = reader.run();
        if (reader.names_amd() && (cond.may_true & k_side_amd) != 0) {
          note_amd_branch(number);
        }
      }
      if (is_word(line[0], "if")) {
        Level level;
        level.indent = indent;
        level.none_taken = scope();
        level.chain = static_cast<std::uint32_t>(m_chains.size());
        level.if_line = number;
        m_chains.emplace_back();
        m_levels.push_back(level);
      }
      Level& level = m_levels.back();
      level.range_start = number;
      level.guard_line = is_else ? level.if_line : number;
      level.branch = truth_and(level.none_taken, cond);
      level.none_taken = truth_and(level.none_taken, truth_not(cond));
      level.branch_index = static_cast<std::uint32_t>(m_chains[level.chain].size());
      m_chains[level.chain].push_back({level.branch, false});
    }
    if (line.size() >= 3 && line[0].kind == TokenKind::Identifier && line[1].text == "=" &&
        line[2].kind == TokenKind::String && line.size() == 3) {
      m_variables[std::string(line[0].text)] = std::string(python_string_content(line[2].text));
    }
    bool mentions_include = false;
    for (const Tok& t : line) {
      if (t.kind == TokenKind::Identifier) {
        std::string low = to_lower_ascii(t.text);
        mentions_include = mentions_include || low.find("include") != std::string::npos;
        if (low.starts_with("hipify") && (scope().may_true & k_side_amd) != 0) {
          note_amd_setup(number);
        }
      }
    }
    for (const Tok& t : line) {
      if (t.kind == TokenKind::String) {
        string_literal(t.text, number, mentions_include);
      }
    }
  }

  static std::span<const Tok> condition_of(const std::vector<Tok>& line) {
    std::size_t end = line.size();
    for (std::size_t i = line.size(); i-- > 1;) {
      if (line[i].text == ":") {
        end = i;
        break;
      }
    }
    return std::span<const Tok>(line).subspan(1, end > 1 ? end - 1 : 0);
  }

  std::string complete(std::string_view text, bool formatted) const {
    if (!formatted) {
      return std::string(text);
    }
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
      std::size_t open = text.find('{', pos);
      if (open == std::string_view::npos) {
        out.append(text.substr(pos));
        break;
      }
      std::size_t close = text.find('}', open);
      if (close == std::string_view::npos) {
        out.append(text.substr(pos));
        break;
      }
      out.append(text.substr(pos, open - pos));
      auto it = m_variables.find(std::string(text.substr(open + 1, close - open - 1)));
      if (it == m_variables.end()) {
        return {};  // an unknown part: not a path this reader can name
      }
      out += it->second;
      pos = close + 1;
    }
    return out;
  }

  void string_literal(std::string_view token, std::uint32_t line, bool mentions_include) {
    std::size_t quote = token.find_first_of("\"'");
    std::string_view prefix = token.substr(0, quote == std::string_view::npos ? 0 : quote);
    const bool formatted =
        prefix.find('f') != std::string_view::npos || prefix.find('F') != std::string_view::npos;
    std::string text = complete(python_string_content(token), formatted);
    if (text.empty() || text.size() > 512) {
      return;
    }
    const TruthMask truth = scope();
    if (text.starts_with("-D") && text.size() > 2) {
      BuildDefinition definition;
      std::size_t equals = text.find('=');
      definition.name =
          text.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
      if (equals != std::string::npos) {
        definition.value = text.substr(equals + 1);
      }
      definition.unknown_value = definition.value.find_first_of("%{") != std::string::npos ||
                                 (equals != std::string::npos && definition.value.empty());
      definition.truth = truth;
      definition.where = where(line);
      m_out.definitions.push_back(std::move(definition));
      return;
    }
    const bool glob = is_glob(text);
    if (glob || has_source_extension(text)) {
      std::string resolved;
      for (std::string_view base : {m_folder, std::string_view{}}) {
        std::string candidate = join_relative(base, text);
        if (candidate.empty()) {
          continue;
        }
        if (glob ? m_paths.has_folder(parent_folder(candidate)) || parent_folder(candidate).empty()
                 : m_paths.has_file(candidate)) {
          resolved = std::move(candidate);
          break;
        }
      }
      if (resolved.empty()) {
        return;
      }
      SourceReference reference;
      reference.pattern = std::move(resolved);
      reference.truth = truth;
      reference.where = where(line);
      m_references.push_back({std::move(reference), level_path()});
      for (const Level& level : m_levels) {
        m_chains[level.chain][level.branch_index].adds_sources = true;
      }
      return;
    }
    if (mentions_include) {
      for (std::string_view base : {m_folder, std::string_view{}}) {
        std::string candidate = join_relative(base, text);
        if (!candidate.empty() && m_paths.has_folder(candidate)) {
          if (std::find(m_out.include_dirs.begin(), m_out.include_dirs.end(), candidate) ==
              m_out.include_dirs.end()) {
            m_out.include_dirs.push_back(candidate);
          }
          break;
        }
      }
    }
  }

  std::vector<std::pair<std::uint32_t, std::uint32_t>> level_path() const {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> path;
    for (const Level& level : m_levels) {
      path.emplace_back(level.chain, level.branch_index);
    }
    return path;
  }

  void note_amd_branch(std::uint32_t line) {
    if (m_switches_noted < 2) {
      ++m_switches_noted;
      m_out.amd_switches.push_back(where(line));
    }
    note_amd_setup(line);
  }

  void note_amd_setup(std::uint32_t line) {
    if (!m_noted_setup) {
      m_noted_setup = true;
      m_out.amd_setup.push_back(where(line));
    }
  }

  void finish() {
    while (!m_levels.empty()) {
      close_branch(m_levels.back(), UINT32_MAX);
      m_levels.pop_back();
    }
    for (auto& [range, at] : m_ranges) {
      const std::vector<ChainBranch>& branches = m_chains[at.first];
      for (std::size_t b = 0; b < branches.size(); ++b) {
        if (b != at.second && (branches[b].truth.sure_true() & k_side_amd) != 0) {
          range.amd_alternative = true;
        }
      }
      m_out.scopes.push_back(std::move(range));
    }
    for (auto& [reference, path] : m_references) {
      if ((reference.truth.may_true & k_side_amd) == 0) {
        for (const auto& [chain, branch] : path) {
          const std::vector<ChainBranch>& branches = m_chains[chain];
          if ((branches[branch].truth.may_true & k_side_amd) != 0) {
            continue;
          }
          for (std::size_t b = 0; b < branches.size(); ++b) {
            if (b != branch && (branches[b].truth.sure_true() & k_side_amd) != 0 &&
                branches[b].adds_sources) {
              reference.amd_alternative = true;
            }
          }
          break;
        }
      }
      m_out.sources.push_back(std::move(reference));
    }
  }

  std::string_view m_path;
  std::string_view m_folder;
  const BuildContext& m_context;
  const PathLookup& m_paths;
  BuildFacts& m_out;
  const TokenStream* m_stream = nullptr;
  std::vector<Level> m_levels;
  std::vector<std::vector<ChainBranch>> m_chains;
  std::map<std::string, std::string> m_variables;
  std::vector<std::pair<SourceReference, std::vector<std::pair<std::uint32_t, std::uint32_t>>>>
      m_references;
  std::vector<std::pair<ScopeRange, std::pair<std::uint32_t, std::uint32_t>>> m_ranges;
  bool m_noted_setup = false;
  int m_switches_noted = 0;
};

}  // namespace

bool is_python_build_script(std::string_view path) {
  std::string_view name = file_name_of(path);
  if (!name.ends_with(".py")) {
    return false;
  }
  std::string low_name = to_lower_ascii(name);
  std::string low_folder = to_lower_ascii(file_name_of(parent_folder(path)));
  return low_name.find("setup") != std::string::npos ||
         low_name.find("build") != std::string::npos ||
         low_folder.find("build") != std::string::npos;
}

bool python_mentions_amd_build(std::string_view text) {
  static constexpr std::string_view k_markers[] = {
      "version.hip", "IS_HIP_EXTENSION", "is_rocm",  "ROCM_HOME",
      "IS_ROCM",     "hipify_python",    "\"rocm\"", "'rocm'"};
  for (std::string_view marker : k_markers) {
    if (text.find(marker) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

void read_python_build(std::string_view path, std::string_view text, const BuildContext& context,
                       const PathLookup& paths, BuildFacts& out) {
  TokenStream tokens;
  lex_python(text, tokens);
  PythonBuildReader reader(path, context, paths, out);
  reader.run(tokens);
}

}  // namespace gpuport
