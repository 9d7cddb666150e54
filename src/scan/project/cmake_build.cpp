// The CMake reader of the build model: scopes evaluated on both sides, variables holding source
// lists and globs followed within the file, targets' sources, definitions and include folders.
#include "scan/project/cmake_build.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "lex/char_scan.h"
#include "lex/cmake_commands.h"
#include "scan/project/build_switches.h"
#include "scan/project/path_glob.h"
#include "source/ascii_text.h"

namespace gpuport {

namespace {

bool has_source_extension(std::string_view name) {
  static constexpr std::string_view k_extensions[] = {
      ".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".hip", ".h", ".hpp", ".hh", ".inl", ".cu.h"};
  for (std::string_view extension : k_extensions) {
    if (name.size() > extension.size() && name.ends_with(extension)) {
      return true;
    }
  }
  return false;
}

constexpr std::uint32_t k_none = UINT32_MAX;

struct ChainBranch {
  TruthMask truth;
  // Where the branch puts sources: the variables it appends them to and the targets it gives
  // them to. A source left out of the AMD build has an alternative when a branch the AMD build
  // takes puts sources in the same place (SRC_FILES), not merely anywhere.
  std::vector<std::string> sinks;
};

struct Chain {
  std::vector<ChainBranch> branches;
};

struct LevelRef {
  std::uint32_t chain = k_none;
  std::uint32_t branch = 0;
};

// A value of a variable: a path or glob (root-relative when it looks like one), where it was set.
struct Element {
  std::string text;
  bool glob = false;
  bool recursive = false;
  std::string sink;  // the variable it was set in
  TruthMask truth;
  BuildLine where;               // the set()/list()/file() that made it (line 0: an argument)
  std::vector<LevelRef> levels;  // the if-branches it was set in, outermost first
};

struct Level {
  TruthMask parent;
  TruthMask none_taken;
  TruthMask branch;
  LevelRef ref;
  std::uint32_t if_line = 0;
  std::uint32_t branch_line = 0;  // the line of the if/elseif/else that opened the branch
  bool is_else = false;
};

struct OpenRange {
  std::uint32_t first_line = 0;
  std::uint32_t guard_line = 0;
  LevelRef ref;
  TruthMask truth;
};

struct PendingReference {
  SourceReference reference;
  std::vector<LevelRef> levels;
  std::string sink;  // the variable or target it was put in
};

class CMakeReader {
 public:
  CMakeReader(std::string_view path, std::string_view text,
              const std::vector<CMakeCommand>& commands, const BuildContext& context,
              BuildFacts& out)
      : m_path(path),
        m_folder(parent_folder(path)),
        m_text(text),
        m_commands(commands),
        m_context(context),
        m_out(out) {
    char_scan::append_line_starts(text, 0, m_line_starts);
  }

  void run() {
    m_base = file_truth();
    m_out.scopes.push_back({std::string(m_path), 1, UINT32_MAX, m_base, m_base_line,
                            (m_base.may_true & k_side_amd) == 0 && m_context.amd_build_exists});
    std::size_t skip_depth = 0;
    for (const CMakeCommand& command : m_commands) {
      const std::string& name = command.name;
      if (skip_depth > 0) {
        if (name == "function" || name == "macro") {
          ++skip_depth;
        } else if (name == "endfunction" || name == "endmacro") {
          --skip_depth;
        }
        continue;
      }
      if (name == "function" || name == "macro") {
        skip_depth = 1;
        continue;
      }
      handle(command);
    }
    finish();
  }

 private:
  // ---- positions -----------------------------------------------------------------------------

  std::uint32_t line_of(std::size_t offset) const {
    auto it = std::upper_bound(m_line_starts.begin(), m_line_starts.end(), offset);
    return static_cast<std::uint32_t>(it - m_line_starts.begin()) + 1;
  }

  BuildLine where(const CMakeCommand& command) const {
    std::string_view text = m_text.substr(command.name_offset, command.end - command.name_offset);
    std::string trimmed;
    for (char c : text) {
      if (c == '\n' || c == '\r' || c == '\t') {
        c = ' ';
      }
      if (c == ' ' && (trimmed.empty() || trimmed.back() == ' ')) {
        continue;
      }
      trimmed += c;
    }
    if (trimmed.size() > 120) {
      trimmed = trimmed.substr(0, 117) + "...";
    }
    return {std::string(m_path), line_of(command.name_offset), trimmed};
  }

  std::string_view arg(const CMakeCommand& command, std::size_t i) const {
    return i < command.args.size() ? arg_text(m_text, command.args[i]) : std::string_view{};
  }

  // ---- the file's own build side -------------------------------------------------------------

  static bool names_hip(std::string_view text) {
    const std::string low = to_lower_ascii(text);
    return low == "hip" || low.starts_with("hip::") || low.starts_with("roc::") ||
           classify_build_switch(text) == BuildSwitch::Amd ||
           classify_backend_value(text) == BuildSwitch::Amd;
  }

  static bool is_hip_package(std::string_view name) {
    const std::string low = to_lower_ascii(name);
    return low == "hip" || low.starts_with("hipblas") || low.starts_with("rocblas") ||
           low == "rocm" || low.starts_with("hipcub") || low.starts_with("rocprim") ||
           low.starts_with("hipfft") || low.starts_with("rocthrust") || low.starts_with("rccl") ||
           low.starts_with("miopen") || low.starts_with("composable_kernel");
  }

  static bool is_cuda_package(std::string_view name) {
    return name == "CUDAToolkit" || name == "CUDA" || name == "CUDNN" || name == "cuDNN" ||
           name == "NCCL" || name == "TensorRT";
  }

  static bool is_other_backend_package(std::string_view name) {
    const std::string low = to_lower_ascii(name);
    return low == "musatoolkit" || low == "musa" || low == "intelsycl" || low == "intelsyclexp" ||
           low == "sycl" || low == "vulkan" || low == "opencl" || low == "ascendcl";
  }

  TruthMask file_truth() {
    bool hip = false;
    bool cuda = false;
    bool other = false;
    std::uint32_t cuda_line = 0;
    std::uint32_t other_line = 0;
    for (const CMakeCommand& command : m_commands) {
      const std::string& name = command.name;
      const bool had_cuda = cuda;
      const bool had_other = other;
      if (name == "enable_language" || name == "project") {
        for (std::size_t i = 0; i < command.args.size(); ++i) {
          std::string_view a = arg(command, i);
          hip = hip || a == "HIP";
          cuda = cuda || a == "CUDA";
        }
      } else if (name == "find_package") {
        std::string_view package = arg(command, 0);
        hip = hip || is_hip_package(package);
        cuda = cuda || is_cuda_package(package);
        other = other || is_other_backend_package(package);
      } else if (name.starts_with("hip_add_")) {
        hip = true;
      } else if (name == "check_cxx_compiler_flag" && arg(command, 0) == "-fsycl") {
        other = true;
      } else if (name.starts_with("cuda_add_")) {
        cuda = true;
      } else {
        for (std::size_t i = 0; i < command.args.size() && !hip; ++i) {
          std::string_view a = arg(command, i);
          if ((name == "if" || name == "elseif")
                  ? names_hip(strip_reference(a))
                  : (starts_with_ci(a, "hip::") || starts_with_ci(a, "roc::") ||
                     (a == "HIP" && i > 0 && arg(command, i - 1) == "LANGUAGE"))) {
            hip = true;
          }
        }
      }
      if (cuda && !had_cuda) {
        cuda_line = line_of(command.name_offset);
      }
      if (other && !had_other) {
        other_line = line_of(command.name_offset);
      }
    }
    if (hip && !cuda) {
      return {k_side_amd, k_side_cuda};
    }
    // The line that makes the file another build's is its "guard" in reports.
    if (cuda && !hip) {
      m_base_line = cuda_line;
      return m_context.amd_build_exists ? TruthMask{k_side_cuda, k_side_amd}
                                        : TruthMask::all_true(k_both_sides);
    }
    if (other && !hip && !cuda) {
      m_base_line = other_line;
      return TruthMask::all_false(k_both_sides);
    }
    return TruthMask::all_true(k_both_sides);
  }

  static std::string_view strip_reference(std::string_view a) {
    if (a.starts_with("${") && a.ends_with("}")) {
      return a.substr(2, a.size() - 3);
    }
    return a;
  }

  // ---- conditions ----------------------------------------------------------------------------

  struct CondItem {
    std::string_view text;
    bool quoted = false;
    char paren = 0;  // '(' or ')' for a nested parenthesis
  };

  std::vector<CondItem> condition_items(const CMakeCommand& command) const {
    std::vector<CondItem> items;
    std::size_t next_paren = 0;
    for (std::size_t i = 0; i <= command.args.size(); ++i) {
      while (next_paren < command.parens.size() && command.parens[next_paren].first == i) {
        items.push_back({{}, false, command.parens[next_paren].second});
        ++next_paren;
      }
      if (i < command.args.size()) {
        items.push_back({arg(command, i), command.args[i].kind != CMakeArgKind::Unquoted, 0});
      }
    }
    return items;
  }

  static bool is_constant_true(std::string_view text) {
    const std::string low = to_lower_ascii(text);
    if (low == "1" || low == "on" || low == "yes" || low == "true" || low == "y") {
      return true;
    }
    return !low.empty() &&
           std::all_of(low.begin(), low.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
           low != "0";
  }

  static bool is_constant_false(std::string_view text) {
    const std::string low = to_lower_ascii(text);
    return low.empty() || low == "0" || low == "off" || low == "no" || low == "false" ||
           low == "n" || low == "ignore" || low == "notfound" || low.ends_with("-notfound");
  }

  TruthMask atom_truth(const CondItem& item) const {
    std::string_view text = strip_reference(item.text);
    if (!item.quoted || item.text.starts_with("${")) {
      BuildSwitch value = classify_build_switch(text);
      if (value != BuildSwitch::None) {
        return switch_truth(value, m_context);
      }
    }
    if (is_constant_true(item.text)) {
      return TruthMask::all_true(k_both_sides);
    }
    if (is_constant_false(item.text)) {
      return TruthMask::all_false(k_both_sides);
    }
    return TruthMask::all_unknown(k_both_sides);
  }

  // `a STREQUAL b`: a backend name on one side decides it.
  TruthMask compare_truth(const CondItem& a, std::string_view op, const CondItem& b) const {
    if (op == "STREQUAL" || op == "EQUAL" || op == "MATCHES") {
      BuildSwitch left = classify_backend_value(a.text);
      BuildSwitch right = classify_backend_value(b.text);
      BuildSwitch value = left != BuildSwitch::None ? left : right;
      if (value != BuildSwitch::None) {
        return switch_truth(value, m_context);
      }
    }
    return TruthMask::all_unknown(k_both_sides);
  }

  static bool is_binary_operator(std::string_view text) {
    static constexpr std::string_view k_ops[] = {"STREQUAL",
                                                 "EQUAL",
                                                 "LESS",
                                                 "GREATER",
                                                 "LESS_EQUAL",
                                                 "GREATER_EQUAL",
                                                 "STRLESS",
                                                 "STRGREATER",
                                                 "STRLESS_EQUAL",
                                                 "STRGREATER_EQUAL",
                                                 "VERSION_EQUAL",
                                                 "VERSION_LESS",
                                                 "VERSION_GREATER",
                                                 "VERSION_LESS_EQUAL",
                                                 "VERSION_GREATER_EQUAL",
                                                 "MATCHES",
                                                 "IN_LIST",
                                                 "IS_NEWER_THAN",
                                                 "PATH_EQUAL"};
    for (std::string_view op : k_ops) {
      if (text == op) {
        return true;
      }
    }
    return false;
  }

  static bool is_unary_operator(std::string_view text) {
    return text == "EXISTS" || text == "COMMAND" || text == "DEFINED" || text == "TARGET" ||
           text == "POLICY" || text == "IS_DIRECTORY" || text == "IS_ABSOLUTE" ||
           text == "IS_SYMLINK" || text == "TEST";
  }

  // Recursive descent over NOT > AND > OR; `pos` advances. Depth is bounded by the item count
  // of one command.
  TruthMask parse_or(const std::vector<CondItem>& items, std::size_t& pos, int depth) const {
    TruthMask left = parse_and(items, pos, depth);
    while (pos < items.size() && !items[pos].paren && !items[pos].quoted &&
           items[pos].text == "OR") {
      ++pos;
      left = truth_or(left, parse_and(items, pos, depth));
    }
    return left;
  }

  TruthMask parse_and(const std::vector<CondItem>& items, std::size_t& pos, int depth) const {
    TruthMask left = parse_not(items, pos, depth);
    while (pos < items.size() && !items[pos].paren && !items[pos].quoted &&
           items[pos].text == "AND") {
      ++pos;
      left = truth_and(left, parse_not(items, pos, depth));
    }
    return left;
  }

  TruthMask parse_not(const std::vector<CondItem>& items, std::size_t& pos, int depth) const {
    if (pos < items.size() && !items[pos].paren && !items[pos].quoted && items[pos].text == "NOT") {
      ++pos;
      return truth_not(parse_not(items, pos, depth + 1));
    }
    return parse_primary(items, pos, depth);
  }

  TruthMask parse_primary(const std::vector<CondItem>& items, std::size_t& pos, int depth) const {
    if (pos >= items.size() || depth > 64) {
      pos = items.size();
      return TruthMask::all_unknown(k_both_sides);
    }
    if (items[pos].paren == '(') {
      ++pos;
      TruthMask inner = parse_or(items, pos, depth + 1);
      if (pos < items.size() && items[pos].paren == ')') {
        ++pos;
      }
      return inner;
    }
    if (items[pos].paren == ')') {
      ++pos;
      return TruthMask::all_unknown(k_both_sides);
    }
    if (!items[pos].quoted && is_unary_operator(items[pos].text)) {
      pos += 2;
      return TruthMask::all_unknown(k_both_sides);
    }
    const CondItem& first = items[pos++];
    if (pos + 1 <= items.size() && pos < items.size() && !items[pos].paren && !items[pos].quoted &&
        is_binary_operator(items[pos].text)) {
      std::string_view op = items[pos].text;
      ++pos;
      if (pos < items.size() && !items[pos].paren) {
        const CondItem& second = items[pos++];
        return compare_truth(first, op, second);
      }
      return TruthMask::all_unknown(k_both_sides);
    }
    return atom_truth(first);
  }

  TruthMask condition(const CMakeCommand& command) const {
    std::vector<CondItem> items = condition_items(command);
    if (items.empty()) {
      return TruthMask::all_unknown(k_both_sides);
    }
    std::size_t pos = 0;
    TruthMask truth = parse_or(items, pos, 0);
    return pos == items.size() ? truth : TruthMask::all_unknown(k_both_sides);
  }

  // ---- scopes --------------------------------------------------------------------------------

  TruthMask scope() const { return m_levels.empty() ? m_base : m_levels.back().branch; }

  std::vector<LevelRef> level_refs() const {
    std::vector<LevelRef> refs;
    refs.reserve(m_levels.size());
    for (const Level& level : m_levels) {
      refs.push_back(level.ref);
    }
    return refs;
  }

  void open_branch(Level& level, TruthMask cond) {
    level.branch = truth_and(level.none_taken, cond);
    level.none_taken = truth_and(level.none_taken, truth_not(cond));
    Chain& chain = m_chains[level.ref.chain];
    level.ref.branch = static_cast<std::uint32_t>(chain.branches.size());
    chain.branches.push_back({level.branch, {}});
  }

  void note_sources_in_scope(const std::string& sink) {
    for (const Level& level : m_levels) {
      std::vector<std::string>& sinks = m_chains[level.ref.chain].branches[level.ref.branch].sinks;
      if (std::find(sinks.begin(), sinks.end(), sink) == sinks.end()) {
        sinks.push_back(sink);
      }
    }
  }

  void open_range(std::uint32_t line) {
    const Level& level = m_levels.back();
    m_open_ranges.push_back(
        {line, level.is_else ? level.if_line : level.branch_line, level.ref, level.branch});
  }

  void close_range(std::uint32_t line) {
    if (m_open_ranges.empty()) {
      return;
    }
    OpenRange open = m_open_ranges.back();
    m_open_ranges.pop_back();
    ScopeRange range;
    range.file = std::string(m_path);
    range.first_line = open.first_line;
    range.last_line = line;
    range.truth = open.truth;
    range.guard_line = open.guard_line;
    m_closed_ranges.push_back({std::move(range), open.ref});
  }

  // ---- arguments -----------------------------------------------------------------------------

  // `${CMAKE_CURRENT_SOURCE_DIR}` and friends, `$<BUILD_INTERFACE:x>`; other references are kept.
  std::string substitute(std::string_view text) const {
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
      std::size_t open = text.find("${", pos);
      if (open == std::string_view::npos) {
        out.append(text.substr(pos));
        break;
      }
      out.append(text.substr(pos, open - pos));
      std::size_t close = text.find('}', open);
      if (close == std::string_view::npos) {
        out.append(text.substr(open));
        break;
      }
      std::string_view name = text.substr(open + 2, close - open - 2);
      if (name == "CMAKE_CURRENT_SOURCE_DIR" || name == "CMAKE_CURRENT_LIST_DIR") {
        out += "@CURRENT@";
      } else if (name == "CMAKE_SOURCE_DIR" || name == "PROJECT_SOURCE_DIR" ||
                 name.ends_with("_SOURCE_DIR")) {
        out += "@ROOT@";
      } else {
        auto it = m_variables.find(std::string(name));
        if (it != m_variables.end() && it->second.size() == 1 && !it->second[0].glob) {
          out += it->second[0].text;
        } else {
          out.append(text.substr(open, close + 1 - open));
        }
      }
      pos = close + 1;
    }
    if (out.starts_with("$<BUILD_INTERFACE:") && out.ends_with(">")) {
      out = out.substr(18, out.size() - 19);
    }
    return out;
  }

  // A path-like value made root-relative; other values are kept as written.
  Element make_element(std::string_view raw, bool glob_command, bool recursive) const {
    Element element;
    element.truth = scope();
    element.levels = level_refs();
    std::string text = substitute(raw);
    std::string_view folder = m_folder;
    if (text.starts_with("@CURRENT@")) {
      text = text.substr(9);
      while (text.starts_with('/')) {
        text.erase(0, 1);
      }
    } else if (text.starts_with("@ROOT@")) {
      text = text.substr(6);
      while (text.starts_with('/')) {
        text.erase(0, 1);
      }
      folder = {};
    }
    const bool glob = glob_command || is_glob(text);
    if ((glob || has_source_extension(text)) && text.find("${") == std::string::npos &&
        text.find("$<") == std::string::npos) {
      std::string joined = join_relative(folder, text);
      if (!joined.empty()) {
        element.text = std::move(joined);
        element.glob = glob;
        element.recursive = recursive;
        return element;
      }
    }
    element.text = std::move(text);
    return element;
  }

  // The elements an argument stands for: a variable's values, or itself.
  void expand(std::string_view raw, bool quoted, std::vector<Element>& out) const {
    if (!quoted && raw.starts_with("${") && raw.ends_with("}") &&
        raw.find("${", 2) == std::string_view::npos) {
      auto it = m_variables.find(std::string(raw.substr(2, raw.size() - 3)));
      if (it != m_variables.end()) {
        const TruthMask here = scope();
        for (const Element& element : it->second) {
          Element copy = element;
          copy.truth = truth_and(copy.truth, here);
          out.push_back(std::move(copy));
        }
      }
      return;
    }
    if (!quoted && raw.find(';') != std::string_view::npos) {
      std::size_t pos = 0;
      while (pos <= raw.size()) {
        std::size_t end = raw.find(';', pos);
        if (end == std::string_view::npos) {
          end = raw.size();
        }
        if (end > pos) {
          expand(raw.substr(pos, end - pos), false, out);
        }
        pos = end + 1;
      }
      return;
    }
    out.push_back(make_element(raw, false, false));
  }

  std::vector<Element> expand_args(const CMakeCommand& command, std::size_t first,
                                   std::size_t last) const {
    std::vector<Element> out;
    for (std::size_t i = first; i < last && i < command.args.size(); ++i) {
      expand(arg(command, i), command.args[i].kind != CMakeArgKind::Unquoted, out);
    }
    return out;
  }

  // ---- commands ------------------------------------------------------------------------------

  void handle(const CMakeCommand& command) {
    const std::string& name = command.name;
    const std::uint32_t line = line_of(command.name_offset);
    if (name == "if") {
      Level level;
      level.parent = scope();
      level.none_taken = level.parent;
      level.ref.chain = static_cast<std::uint32_t>(m_chains.size());
      level.if_line = line;
      m_chains.emplace_back();
      note_switches(command);
      open_branch(level, condition(command));
      level.branch_line = line;
      m_levels.push_back(level);
      open_range(line);
    } else if (name == "elseif" || name == "else") {
      if (!m_levels.empty()) {
        close_range(line);
        if (name == "elseif") {
          note_switches(command);
        }
        open_branch(m_levels.back(),
                    name == "else" ? TruthMask::all_true(k_both_sides) : condition(command));
        m_levels.back().branch_line = line;
        m_levels.back().is_else = name == "else";
        open_range(line);
      }
    } else if (name == "endif") {
      if (!m_levels.empty()) {
        close_range(line);
        m_levels.pop_back();
      }
    } else if (name == "set") {
      set_variable(command);
    } else if (name == "list") {
      std::string_view op = arg(command, 0);
      if (op == "APPEND" || op == "PREPEND" || op == "INSERT") {
        std::size_t first = op == "INSERT" ? 3 : 2;
        append_variable(std::string(arg(command, 1)),
                        expand_args(command, first, command.args.size()), command);
      }
    } else if (name == "file") {
      read_glob(command);
    } else if (name == "string") {
      if (arg(command, 0) == "APPEND") {
        flags(arg(command, 1), command, 2);
      }
    } else if (name == "add_compile_definitions") {
      definitions(command, 0, false);
    } else if (name == "add_definitions" || name == "add_compile_options") {
      definitions(command, 0, true);
    } else if (name == "target_compile_definitions") {
      definitions(command, 1, false);
    } else if (name == "target_compile_options") {
      definitions(command, 1, true);
    } else if (name == "include_directories") {
      include_dirs(command, 0);
    } else if (name == "target_include_directories") {
      include_dirs(command, 1);
    } else if (name == "enable_language" || name == "project") {
      for (std::size_t i = 0; i < command.args.size(); ++i) {
        if (arg(command, i) == "HIP") {
          note_setup(command, k_side_amd);
        } else if (arg(command, i) == "CUDA") {
          note_setup(command, k_side_cuda);
        }
      }
    } else if (name == "find_package") {
      if (is_hip_package(arg(command, 0))) {
        note_setup(command, k_side_amd);
      } else if (is_cuda_package(arg(command, 0))) {
        note_setup(command, k_side_cuda);
      }
    } else if (name == "option") {
      if (classify_build_switch(arg(command, 0)) == BuildSwitch::Amd &&
          (scope().may_true & k_side_amd) != 0) {
        add_switch(command);
      }
    }
    if (is_target_command(name)) {
      target_sources(command);
    }
  }

  static bool is_target_command(std::string_view name) {
    return name.find("add_library") != std::string_view::npos ||
           name.find("add_executable") != std::string_view::npos || name.ends_with("_library") ||
           name.ends_with("_executable") || name.ends_with("_add_module") ||
           name == "target_sources" || name == "set_source_files_properties";
  }

  void set_variable(const CMakeCommand& command) {
    std::string_view variable = arg(command, 0);
    if (variable.starts_with("CMAKE_") && variable.ends_with("_FLAGS")) {
      flags(variable, command, 1);
      return;
    }
    std::size_t last = command.args.size();
    for (std::size_t i = 1; i < command.args.size(); ++i) {
      if (arg(command, i) == "CACHE" || arg(command, i) == "PARENT_SCOPE") {
        last = i;
        break;
      }
    }
    append_variable(std::string(variable), expand_args(command, 1, last), command);
  }

  // A value keeps the line that first set it; a source value marks its branches as adding
  // sources (the HIP branch of bitsandbytes lists its GEMM in a variable, not a target).
  void append_variable(const std::string& variable, std::vector<Element> elements,
                       const CMakeCommand& command) {
    if (variable.empty() || elements.empty()) {
      return;
    }
    std::vector<Element>& values = m_variables[variable];
    if (values.size() + elements.size() > 100000) {
      return;  // a hostile file: keep memory bounded
    }
    bool sources = false;
    for (Element& element : elements) {
      if (element.where.line == 0) {
        element.where = where(command);
        element.sink = variable;
      }
      sources = sources || element.glob || has_source_extension(element.text);
      values.push_back(std::move(element));
    }
    if (sources) {
      note_sources_in_scope(variable);
    }
  }

  void read_glob(const CMakeCommand& command) {
    std::string_view mode = arg(command, 0);
    if (mode != "GLOB" && mode != "GLOB_RECURSE") {
      return;
    }
    const bool recursive = mode == "GLOB_RECURSE";
    std::vector<Element> elements;
    for (std::size_t i = 2; i < command.args.size(); ++i) {
      std::string_view a = arg(command, i);
      if (a == "RELATIVE" || a == "LIST_DIRECTORIES") {
        ++i;
        continue;
      }
      if (a == "CONFIGURE_DEPENDS" || a == "FOLLOW_SYMLINKS") {
        continue;
      }
      Element element = make_element(a, true, recursive);
      if (element.glob) {
        elements.push_back(std::move(element));
      }
    }
    append_variable(std::string(arg(command, 1)), std::move(elements), command);
  }

  void target_sources(const CMakeCommand& command) {
    std::size_t last = command.args.size();
    if (command.name == "set_source_files_properties") {
      for (std::size_t i = 0; i < command.args.size(); ++i) {
        if (arg(command, i) == "PROPERTIES") {
          last = i;
          break;
        }
      }
    }
    const std::size_t first = command.name == "set_source_files_properties" ? 0 : 1;
    const BuildLine line = where(command);
    const std::string target(first == 1 ? arg(command, 0) : std::string_view("<properties>"));
    bool any = false;
    for (Element& element : expand_args(command, first, last)) {
      if (!element.glob && !has_source_extension(element.text)) {
        continue;
      }
      if (element.text.find("${") != std::string::npos || element.text.empty()) {
        continue;
      }
      PendingReference pending;
      pending.reference.pattern = element.text;
      pending.reference.recursive = element.recursive;
      pending.reference.truth = truth_and(element.truth, scope());
      const bool from_variable = element.where.line != 0;
      pending.reference.where = from_variable ? element.where : line;
      pending.levels = from_variable ? element.levels : level_refs();
      pending.sink = from_variable ? element.sink : target;
      any = any || !from_variable;
      m_references.push_back(std::move(pending));
    }
    if (any) {
      note_sources_in_scope(target);
    }
  }

  void add_definition(std::string_view text, const CMakeCommand& command, TruthMask truth) {
    if (text.empty() || text.starts_with("$<")) {
      return;
    }
    BuildDefinition definition;
    std::size_t equals = text.find('=');
    definition.name = std::string(text.substr(0, equals));
    if (equals != std::string_view::npos) {
      definition.value = std::string(text.substr(equals + 1));
      definition.unknown_value = definition.value.find("${") != std::string::npos ||
                                 definition.value.find("$<") != std::string::npos;
    }
    bool identifier = !definition.name.empty();
    for (char c : definition.name) {
      identifier = identifier && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                  (c >= '0' && c <= '9') || c == '_');
    }
    if (!identifier) {
      return;
    }
    definition.truth = truth;
    definition.where = where(command);
    if ((truth.sure_true() & k_side_amd) != 0 &&
        is_hip_macro(classify_platform_macro(definition.name))) {
      add_switch(command);  // GGML_USE_HIP set wherever the AMD build runs
    }
    m_out.definitions.push_back(std::move(definition));
  }

  // -DNAME arguments (dash_d) or bare NAME[=value] ones.
  void definitions(const CMakeCommand& command, std::size_t first, bool dash_d) {
    const TruthMask truth = scope();
    for (std::size_t i = first; i < command.args.size(); ++i) {
      std::string_view a = arg(command, i);
      if (a == "PUBLIC" || a == "PRIVATE" || a == "INTERFACE" || a == "BEFORE") {
        continue;
      }
      if (a.starts_with("-D")) {
        add_definition(a.substr(2), command, truth);
      } else if (!dash_d) {
        add_definition(a, command, truth);
      }
    }
  }

  // CMAKE_HIP_FLAGS (the AMD build), CMAKE_CUDA_FLAGS (the CUDA build), others (both): the -D
  // words of the values.
  void flags(std::string_view variable, const CMakeCommand& command, std::size_t first) {
    TruthMask truth = scope();
    if (variable == "CMAKE_HIP_FLAGS") {
      truth = truth_and(truth, {k_side_amd, k_side_cuda});
    } else if (variable == "CMAKE_CUDA_FLAGS") {
      truth = truth_and(truth, {k_side_cuda, k_side_amd});
    }
    for (std::size_t i = first; i < command.args.size(); ++i) {
      std::string_view value = arg(command, i);
      std::size_t pos = 0;
      while ((pos = value.find("-D", pos)) != std::string_view::npos) {
        if (pos > 0 && value[pos - 1] != ' ') {
          pos += 2;
          continue;
        }
        std::size_t end = value.find(' ', pos);
        if (end == std::string_view::npos) {
          end = value.size();
        }
        add_definition(value.substr(pos + 2, end - pos - 2), command, truth);
        pos = end;
      }
    }
  }

  void include_dirs(const CMakeCommand& command, std::size_t first) {
    for (std::size_t i = first; i < command.args.size(); ++i) {
      std::string_view a = arg(command, i);
      if (a == "PUBLIC" || a == "PRIVATE" || a == "INTERFACE" || a == "SYSTEM" || a == "BEFORE" ||
          a == "AFTER" || a.starts_with("$<INSTALL_INTERFACE")) {
        continue;
      }
      std::string text = substitute(a);
      std::string_view folder = m_folder;
      if (text.starts_with("@CURRENT@")) {
        text = text.substr(9);
      } else if (text.starts_with("@ROOT@")) {
        text = text.substr(6);
        folder = {};
      }
      while (text.starts_with('/')) {
        text.erase(0, 1);
      }
      if (text.find("${") != std::string::npos || text.find("$<") != std::string::npos) {
        continue;
      }
      std::string joined = text.empty() ? std::string(folder) : join_relative(folder, text);
      if ((!joined.empty() || text.empty()) &&
          std::find(m_out.include_dirs.begin(), m_out.include_dirs.end(), joined) ==
              m_out.include_dirs.end()) {
        m_out.include_dirs.push_back(joined);
      }
    }
  }

  void note_setup(const CMakeCommand& command, WorldMask side) {
    if ((scope().may_true & side) == 0) {
      return;
    }
    (side == k_side_amd ? m_out.amd_setup : m_out.cuda_setup).push_back(where(command));
  }

  void add_switch(const CMakeCommand& command) {
    BuildLine line = where(command);
    for (const BuildLine& known : m_out.amd_switches) {
      if (known.file == line.file && known.line == line.line) {
        return;
      }
    }
    m_out.amd_switches.push_back(std::move(line));
  }

  // if(GGML_HIP), if(COMPUTE_BACKEND STREQUAL "hip"): the switch that selects the AMD build.
  void note_switches(const CMakeCommand& command) {
    if ((scope().may_true & k_side_amd) == 0) {
      return;  // a file of another backend (SYCL's `GGML_SYCL_TARGET STREQUAL "AMD"`)
    }
    for (std::size_t i = 0; i < command.args.size(); ++i) {
      std::string_view a = strip_reference(arg(command, i));
      if (classify_build_switch(a) == BuildSwitch::Amd ||
          (command.args[i].kind == CMakeArgKind::Quoted &&
           classify_backend_value(a) == BuildSwitch::Amd)) {
        add_switch(command);
        return;
      }
    }
  }

  // ---- end of file ---------------------------------------------------------------------------

  // A source the AMD side leaves out is replaced there when the deciding if-chain has a sibling
  // branch that the AMD build takes and that adds sources, or when the whole file is another
  // build's and the project has an AMD build.
  bool amd_alternative(const PendingReference& pending) const {
    if ((m_base.may_true & k_side_amd) == 0) {
      return m_context.amd_build_exists;  // the whole file is another build's
    }
    for (const LevelRef& ref : pending.levels) {
      const Chain& chain = m_chains[ref.chain];
      const ChainBranch& branch = chain.branches[ref.branch];
      if ((branch.truth.may_true & k_side_amd) != 0) {
        continue;
      }
      // The outermost branch that leaves it out decides: a sibling the AMD build takes, putting
      // sources where this one went.
      for (std::size_t b = 0; b < chain.branches.size(); ++b) {
        const std::vector<std::string>& sinks = chain.branches[b].sinks;
        if (b != ref.branch && (chain.branches[b].truth.sure_true() & k_side_amd) != 0 &&
            std::find(sinks.begin(), sinks.end(), pending.sink) != sinks.end()) {
          return true;
        }
      }
      return false;
    }
    return false;
  }

  void finish() {
    while (!m_open_ranges.empty()) {
      close_range(UINT32_MAX);
    }
    for (auto& [range, ref] : m_closed_ranges) {
      const Chain& chain = m_chains[ref.chain];
      for (std::size_t b = 0; b < chain.branches.size(); ++b) {
        if (b != ref.branch && (chain.branches[b].truth.sure_true() & k_side_amd) != 0) {
          range.amd_alternative = true;
        }
      }
      m_out.scopes.push_back(std::move(range));
    }
    for (PendingReference& pending : m_references) {
      if ((pending.reference.truth.may_true & k_side_amd) == 0) {
        pending.reference.amd_alternative = amd_alternative(pending);
      }
      m_out.sources.push_back(std::move(pending.reference));
    }
  }

  std::string_view m_path;
  std::string_view m_folder;
  std::string_view m_text;
  const std::vector<CMakeCommand>& m_commands;
  const BuildContext& m_context;
  BuildFacts& m_out;
  std::vector<std::uint32_t> m_line_starts;
  TruthMask m_base;
  std::uint32_t m_base_line = 0;  // the setup command that makes the file another build's
  std::vector<Level> m_levels;
  std::vector<Chain> m_chains;
  std::map<std::string, std::vector<Element>> m_variables;
  std::vector<PendingReference> m_references;
  std::vector<OpenRange> m_open_ranges;
  std::vector<std::pair<ScopeRange, LevelRef>> m_closed_ranges;
};

}  // namespace

bool cmake_mentions_amd_build(std::string_view text, const std::vector<CMakeCommand>& commands) {
  for (const CMakeCommand& command : commands) {
    const std::string& name = command.name;
    if (name.starts_with("hip_add_")) {
      return true;
    }
    for (std::size_t i = 0; i < command.args.size(); ++i) {
      std::string_view a = arg_text(text, command.args[i]);
      if (((name == "enable_language" || name == "project") && a == "HIP") ||
          (name == "find_package" && i == 0 && (a == "hip" || a == "HIP")) ||
          (a == "HIP" && i > 0 && arg_text(text, command.args[i - 1]) == "LANGUAGE") ||
          starts_with_ci(a, "hip::") || starts_with_ci(a, "roc::")) {
        return true;
      }
      if ((name == "if" || name == "elseif" || name == "option") &&
          (classify_build_switch(a.starts_with("${") && a.ends_with("}") ? a.substr(2, a.size() - 3)
                                                                         : a) == BuildSwitch::Amd ||
           (command.args[i].kind == CMakeArgKind::Quoted &&
            classify_backend_value(a) == BuildSwitch::Amd))) {
        return true;
      }
    }
  }
  return false;
}

void read_cmake_build(std::string_view path, std::string_view text,
                      const std::vector<CMakeCommand>& commands, const BuildContext& context,
                      BuildFacts& out) {
  CMakeReader reader(path, text, commands, context, out);
  reader.run();
}

}  // namespace gpuport
