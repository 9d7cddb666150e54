// CUDA in CMake files -> HIP: the CUDA language, FindCUDA/CUDAToolkit packages and CUDA::
// targets, CUDA variables and properties, nvcc flags, and .cu sources (names: cmake_hip_names.h).
#include <set>
#include <utility>

#include "hipify/build_file_editor.h"
#include "hipify/cmake_hip_names.h"
#include "hipify/nvcc_flags.h"
#include "lex/cmake_commands.h"

namespace gpuport {

namespace {

using cmake_names::Advice;
using cmake_names::find_row;
using cmake_names::k_hip_language_version;
using cmake_names::k_library_targets;
using cmake_names::k_manual_commands;
using cmake_names::k_manual_packages;
using cmake_names::k_manual_targets;
using cmake_names::k_properties;
using cmake_names::k_renamed_commands;
using cmake_names::k_variables;
using cmake_names::LibraryTarget;
using cmake_names::PropertyRow;
using cmake_names::VariableAction;
using cmake_names::VariableRow;

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

class CMakeRewriter {
 public:
  CMakeRewriter(std::string_view source, const BuildFileOptions& options)
      : m_source(source), m_options(options), m_editor(source) {}

  BuildFileResult run() && {
    std::size_t stray = std::string_view::npos;
    m_commands = parse_cmake_commands(m_source, &stray);
    if (stray != std::string_view::npos) {
      m_editor.report(stray, BuildChange::Manual, "text outside any command",
                      "fix the CMake syntax; the file is left as it is");
      return std::move(m_editor).finish(BuildFileKind::CMake);
    }
    for (const CMakeCommand& command : m_commands) {
      // CMake itself rejects such a file; editing it would be guesswork.
      if (!command.closed || !starts_line(command.name_offset)) {
        m_editor.report(command.name_offset, BuildChange::Manual,
                        command.name + (command.closed ? "(...) not at the start of its line"
                                                       : "( never closed"),
                        "fix the CMake syntax; the file is left as it is");
        return std::move(m_editor).finish(BuildFileKind::CMake);
      }
    }
    for (const CMakeCommand& command : m_commands) {
      if (command.name == "find_package" && !command.args.empty()) {
        m_found_packages.insert(lower_ascii(text(command.args[0])));
      }
      if (command.name == "set_source_files_properties") {
        note_language_properties(command);
      }
    }
    for (const CMakeCommand& command : m_commands) {
      rewrite_command(command);
    }
    raise_minimum_version();
    return std::move(m_editor).finish(BuildFileKind::CMake);
  }

 private:
  std::string_view text(const CMakeArg& arg) const { return arg_text(m_source, arg); }

  void rewrite_command(const CMakeCommand& command) {
    const std::string& name = command.name;
    const auto& args = command.args;
    if (name == "project") {
      for (std::size_t i = 1; i < args.size(); ++i) {
        rename_language(args[i], "project(... CUDA)", "project(... HIP)");
      }
    } else if (name == "enable_language" || name == "check_language") {
      for (const CMakeArg& arg : args) {
        rename_language(arg, name + "(CUDA)", name + "(HIP)");
      }
    } else if (name == "find_package" && !args.empty()) {
      rewrite_find_package(args);
    } else if (const auto* renamed = find_command_rename(name)) {
      m_editor.replace(command.name_offset, name.size(), std::string(renamed->second));
      m_editor.report(command.name_offset, BuildChange::Rewrite, name,
                      std::string(renamed->second));
    } else if (const Advice* advice = find_row(k_manual_commands, name)) {
      m_editor.report(command.name_offset, BuildChange::Manual, name, std::string(advice->advice));
    }
    if (is_property_command(name)) {
      rewrite_properties(command);
    }
    if ((name == "set" || name == "string" || name == "list") && !args.empty()) {
      rewrite_variable_values(command);
    }
    if (name != "message") {  // prose, not build settings
      for (const CMakeArg& arg : args) {
        if (!is_source_name(text(arg))) {  // a file name is not a variable, whatever it spells
          rewrite_names_in(command, arg);
        }
      }
    }
    rewrite_sources(command);
  }

  static const std::pair<std::string_view, std::string_view>* find_command_rename(
      std::string_view name) {
    for (const auto& row : k_renamed_commands) {
      if (row.first == name) {
        return &row;
      }
    }
    return nullptr;
  }

  static bool is_property_command(std::string_view name) {
    return name == "set_target_properties" || name == "set_property" ||
           name == "get_target_property" || name == "get_property" ||
           name == "set_source_files_properties" || name == "get_source_file_property";
  }

  void rename_language(const CMakeArg& arg, std::string cuda, std::string hip) {
    if (text(arg) != "CUDA") {
      return;
    }
    m_editor.replace(arg.content_offset, arg.content_length, "HIP");
    m_editor.report(arg.offset, BuildChange::Rewrite, std::move(cuda), std::move(hip));
    m_enables_hip = true;
  }

  void rewrite_find_package(const std::vector<CMakeArg>& args) {
    const std::string_view package = text(args[0]);
    if (package == "CUDAToolkit" || package == "CUDA") {
      m_editor.replace(args[0].content_offset, args[0].content_length, "hip");
      std::string cuda = "find_package(" + std::string(package);
      if (args.size() > 1 && !text(args[1]).empty() && text(args[1])[0] >= '0' &&
          text(args[1])[0] <= '9') {
        cuda += " " + std::string(text(args[1]));  // a CUDA version means nothing to HIP
        m_editor.remove_with_leading_blanks(args[1].offset, args[1].length);
      }
      m_editor.report(args[0].offset, BuildChange::Rewrite, cuda + ")", "find_package(hip)");
      if (package == "CUDA") {
        m_editor.report(args[0].offset, BuildChange::Manual, "FindCUDA (cuda_add_* macros)",
                        "enable the HIP language (project(... HIP) or enable_language(HIP), "
                        "CMake 3.21+) so the sources compile as HIP");
      }
      return;
    }
    if (const Advice* advice = find_row(k_manual_packages, lower_ascii(package))) {
      m_editor.report(args[0].offset, BuildChange::Manual,
                      "find_package(" + std::string(package) + ")", std::string(advice->advice));
    }
  }

  // CUDA_ARCHITECTURES and friends in set_target_properties / set_property / get_*.
  void rewrite_properties(const CMakeCommand& command) {
    const auto& args = command.args;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string_view word = text(args[i]);
      if (word == "LANGUAGE" && i + 1 < args.size() && text(args[i + 1]) == "CUDA") {
        m_editor.replace(args[i + 1].content_offset, args[i + 1].content_length, "HIP");
        m_editor.report(args[i + 1].offset, BuildChange::Rewrite, "LANGUAGE CUDA", "LANGUAGE HIP");
        continue;
      }
      const PropertyRow* row = find_row(k_properties, word);
      if (row == nullptr) {
        continue;
      }
      if (row->change != BuildChange::Rewrite) {
        m_editor.report(args[i].offset, row->change, std::string(word), std::string(row->hip));
        continue;
      }
      m_editor.replace(args[i].content_offset, args[i].content_length, std::string(row->hip));
      m_editor.report(args[i].offset, BuildChange::Rewrite, std::string(word),
                      std::string(row->hip));
      if (word == "CUDA_ARCHITECTURES" && command.name.starts_with("set_")) {
        // set_property(... PROPERTY P values...) takes every value; set_target_properties one.
        const std::size_t end = command.name == "set_property" ? args.size() : i + 2;
        rewrite_architectures(args, i + 1, std::min(end, args.size()));
        i = std::min(end, args.size()) - 1;
      }
    }
  }

  // The values of an architectures setting become the one --offload-arch target.
  void rewrite_architectures(const std::vector<CMakeArg>& args, std::size_t begin,
                             std::size_t end) {
    if (begin >= end) {
      return;
    }
    std::string cuda;
    for (std::size_t i = begin; i < end; ++i) {
      cuda += (i > begin ? " " : "") + std::string(m_source.substr(args[i].offset, args[i].length));
      if (text(args[i]).find("${") != std::string_view::npos) {
        m_editor.report(args[i].offset, BuildChange::Manual, cuda,
                        "set the AMD target: " + m_options.offload_arch);
        return;
      }
    }
    m_editor.replace(args[begin].content_offset, args[begin].content_length,
                     m_options.offload_arch);
    for (std::size_t i = begin + 1; i < end; ++i) {
      m_editor.remove_with_leading_blanks(args[i].offset, args[i].length);
    }
    m_editor.report(args[begin].offset, BuildChange::Rewrite, cuda, m_options.offload_arch);
  }

  // set(CMAKE_CUDA_ARCHITECTURES ...), set/string(APPEND) of CMAKE_CUDA_FLAGS*, CUDA_NVCC_FLAGS.
  void rewrite_variable_values(const CMakeCommand& command) {
    const auto& args = command.args;
    std::size_t name_index = 0;
    if (command.name != "set") {
      const std::string_view mode = text(args[0]);
      if (mode != "APPEND" && mode != "PREPEND") {
        return;
      }
      name_index = 1;
    }
    if (name_index >= args.size()) {
      return;
    }
    const std::string_view variable = text(args[name_index]);
    std::size_t end = name_index + 1;
    while (end < args.size() && text(args[end]) != "CACHE" && text(args[end]) != "PARENT_SCOPE") {
      ++end;
    }
    if (variable == "CMAKE_CUDA_ARCHITECTURES" && command.name == "set") {
      rewrite_architectures(args, name_index + 1, end);
    } else if (variable == "CMAKE_CUDA_FLAGS" || variable.starts_with("CMAKE_CUDA_FLAGS_")) {
      bool architecture_written = false;
      for (std::size_t i = name_index + 1; i < end; ++i) {
        const auto tokens = flag_tokens(m_source, args[i].content_offset,
                                        args[i].content_offset + args[i].content_length, false);
        edit_nvcc_flags(m_editor, tokens, " ", m_options, architecture_written);
      }
    } else if (variable == "CUDA_NVCC_FLAGS") {
      report_nvcc_flag_list(args, name_index, end);
    }
  }

  // FindCUDA's CUDA_NVCC_FLAGS is a list, CMAKE_HIP_FLAGS a string: reported, not rewritten.
  void report_nvcc_flag_list(const std::vector<CMakeArg>& args, std::size_t name_index,
                             std::size_t end) {
    std::vector<std::string_view> flags;
    for (std::size_t i = name_index + 1; i < end; ++i) {
      for (const FlagToken& token :
           flag_tokens(m_source, args[i].content_offset,
                       args[i].content_offset + args[i].content_length, true)) {
        if (token.text.find("CUDA_NVCC_FLAGS") == std::string_view::npos) {
          flags.push_back(token.text);
        }
      }
    }
    const FlagListTranslation translated = translate_nvcc_flags(flags, m_options.offload_arch);
    std::string hip = "CMAKE_HIP_FLAGS (a space-separated string):";
    for (const std::string& flag : translated.flags) {
      hip += " " + flag;
    }
    for (const std::string& note : translated.notes) {
      hip += "; " + note;
    }
    m_editor.report(args[name_index].offset, BuildChange::Manual, "CUDA_NVCC_FLAGS", hip);
  }

  // CUDA::targets, CUDA variables, $<COMPILE_LANGUAGE:CUDA> and its nvcc flags, in any argument.
  void rewrite_names_in(const CMakeCommand& command, const CMakeArg& arg) {
    const std::string_view content = text(arg);
    std::size_t i = 0;
    while (i < content.size()) {
      if (!is_identifier_char(content[i]) || (i > 0 && is_identifier_char(content[i - 1]))) {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < content.size() && is_identifier_char(content[end])) {
        ++end;
      }
      const std::string_view word = content.substr(i, end - i);
      const std::size_t offset = arg.content_offset + i;
      if (word == "CUDA" && content.substr(end).starts_with("::")) {
        std::size_t target_end = end + 2;
        while (target_end < content.size() && is_identifier_char(content[target_end])) {
          ++target_end;
        }
        rewrite_target(command, offset, content.substr(i, target_end - i));
        end = target_end;
      } else if (word == "CUDA" && i > 0 && content[i - 1] == ':' &&
                 is_language_expression(content.substr(0, i))) {
        m_editor.replace(offset, word.size(), "HIP");
        m_editor.report(offset, BuildChange::Rewrite, "$<COMPILE_LANGUAGE:CUDA>",
                        "$<COMPILE_LANGUAGE:HIP>");
        rewrite_generator_flags(arg, i + word.size());
      } else {
        rewrite_variable(command, arg, i, word);
      }
      i = end;
    }
  }

  static bool is_language_expression(std::string_view before) {
    return before.ends_with("COMPILE_LANGUAGE:") || before.ends_with("LINK_LANGUAGE:") ||
           before.ends_with("COMPILE_LANG_AND_ID:");
  }

  // The flags of $<$<COMPILE_LANGUAGE:CUDA>:flags> are nvcc flags.
  void rewrite_generator_flags(const CMakeArg& arg, std::size_t after_language) {
    const std::string_view content = text(arg);
    if (!content.substr(after_language).starts_with(">:")) {
      return;
    }
    std::size_t begin = after_language + 2;
    if (content.substr(begin).starts_with("SHELL:")) {
      begin += 6;
    }
    std::size_t end = begin;
    int depth = 0;
    while (end < content.size() && (depth > 0 || content[end] != '>')) {
      depth += content.substr(end).starts_with("$<") ? 1 : (content[end] == '>' ? -1 : 0);
      ++end;
    }
    bool architecture_written = false;
    const auto tokens =
        flag_tokens(m_source, arg.content_offset + begin, arg.content_offset + end, true);
    edit_nvcc_flags(m_editor, tokens, ";", m_options, architecture_written);
  }

  void rewrite_target(const CMakeCommand& command, std::size_t offset, std::string_view target) {
    std::string_view base = target;
    if (base.ends_with("_static")) {
      base.remove_suffix(7);
    }
    if (const LibraryTarget* row = find_row(k_library_targets, base)) {
      const bool roc = m_options.roc && !row->roc.empty();
      const std::string_view hip = roc ? row->roc : row->hip;
      m_editor.replace(offset, target.size(), std::string(hip));
      m_editor.report(offset, BuildChange::Rewrite, std::string(target), std::string(hip));
      require_package(command, roc ? row->roc_package : row->hip_package);
      return;
    }
    const Advice* advice = find_row(k_manual_targets, base);
    m_editor.report(offset, BuildChange::Manual, std::string(target),
                    advice != nullptr ? std::string(advice->advice)
                                      : "no HIP target known for this CUDA library");
  }

  // A HIP target needs its package found in this directory: the line goes before the command.
  void require_package(const CMakeCommand& command, std::string_view package) {
    const bool hip_found =
        m_found_packages.count("cudatoolkit") > 0 || m_found_packages.count("cuda") > 0;
    if (m_found_packages.count(std::string(package)) > 0 || (package == "hip" && hip_found)) {
      return;
    }
    m_found_packages.insert(std::string(package));
    const std::string line = "find_package(" + std::string(package) + " REQUIRED)";
    m_editor.insert_line_before(command.name_offset, line);
    m_editor.report(command.name_offset, BuildChange::Insert, "(package of the HIP target)", line);
  }

  void rewrite_variable(const CMakeCommand& command, const CMakeArg& arg, std::size_t at,
                        std::string_view word) {
    const std::size_t offset = arg.content_offset + at;
    const VariableRow* row = find_row(k_variables, word);
    if (row == nullptr) {
      if (word.starts_with("CMAKE_CUDA_FLAGS_")) {
        const std::string hip = "CMAKE_HIP_FLAGS_" + std::string(word.substr(17));
        m_editor.replace(offset, word.size(), hip);
        m_editor.report(offset, BuildChange::Rewrite, std::string(word), hip);
      } else if (word.starts_with("CMAKE_CUDA_")) {
        m_editor.report(offset, BuildChange::Manual, std::string(word),
                        "no HIP counterpart known; see CMake's CMAKE_HIP_* variables");
      }
      return;
    }
    switch (row->action) {
      case VariableAction::Rename:
        m_editor.replace(offset, word.size(), std::string(row->hip));
        m_editor.report(offset, BuildChange::Rewrite, std::string(word), std::string(row->hip));
        break;
      case VariableAction::Manual:
        m_editor.report(offset, BuildChange::Manual, std::string(word), std::string(row->hip));
        break;
      case VariableAction::Target: {
        const std::string_view content = text(arg);
        const bool referenced = at >= 2 && content.substr(at - 2, 2) == "${" &&
                                content.substr(at + word.size()).starts_with("}");
        if (!referenced) {
          break;  // set(CUDA_LIBRARIES ...) defines it; only ${CUDA_LIBRARIES} uses are replaced
        }
        const LibraryTarget* target = find_row(k_library_targets, row->hip);
        if (target == nullptr) {
          m_editor.report(offset, BuildChange::Manual, "${" + std::string(word) + "}",
                          std::string(find_row(k_manual_targets, row->hip)->advice));
          break;
        }
        const bool roc = m_options.roc && !target->roc.empty();
        const std::string_view hip = roc ? target->roc : target->hip;
        m_editor.replace(offset - 2, word.size() + 3, std::string(hip));
        m_editor.report(offset, BuildChange::Rewrite, "${" + std::string(word) + "}",
                        std::string(hip));
        require_package(command, roc ? target->roc_package : target->hip_package);
        break;
      }
    }
  }

  // Sources a set_source_files_properties(... LANGUAGE CUDA|HIP) already covers need no new
  // line (that keeps a second run from adding one again).
  void note_language_properties(const CMakeCommand& command) {
    const auto& args = command.args;
    bool language = false;
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
      language = language || (text(args[i]) == "LANGUAGE" &&
                              (text(args[i + 1]) == "HIP" || text(args[i + 1]) == "CUDA"));
    }
    for (std::size_t i = 0; language && i < args.size() && text(args[i]) != "PROPERTIES"; ++i) {
      m_marked_sources.insert(std::string(text(args[i])));
    }
  }

  // CMake wants each command on a line of its own. (It also allows a bracket comment before it;
  // such a line is left alone, since a line inserted before it could land in the comment.)
  bool starts_line(std::size_t offset) const {
    while (offset > 0 && (m_source[offset - 1] == ' ' || m_source[offset - 1] == '\t')) {
      --offset;
    }
    return offset == 0 || m_source[offset - 1] == '\n';
  }

  // The offset whose line a new line goes after: the command's last line, or the last line of
  // a bracket comment that starts after the command.
  std::size_t insertion_point(const CMakeCommand& command) const {
    std::size_t i = command.end;
    while (i < m_source.size() && (m_source[i] == ' ' || m_source[i] == '\t')) {
      ++i;
    }
    if (m_source.substr(i).starts_with("#[")) {
      std::size_t j = i + 2;
      while (j < m_source.size() && m_source[j] == '=') {
        ++j;
      }
      if (j < m_source.size() && m_source[j] == '[') {
        const std::string closing = "]" + std::string(j - i - 2, '=') + "]";
        const std::size_t found = m_source.find(closing, j + 1);
        if (found != std::string_view::npos) {
          return found;
        }
      }
    }
    return command.end - 1;
  }

  static bool is_source_name(std::string_view text) {
    return text.ends_with(".cu") && text.find('$') == std::string_view::npos;
  }

  // Arguments before this one name a target or a variable, not a source.
  static std::size_t first_source_argument(std::string_view command) {
    if (command == "list" || command == "file") {
      return 2;  // list(APPEND VAR ...), file(GLOB VAR ...)
    }
    if (command == "set_source_files_properties" || command == "set_property") {
      return 0;
    }
    return 1;  // add_library(NAME ...), target_sources(NAME ...), set(VAR ...)
  }

  // .cu sources: renamed with --rename, else marked LANGUAGE HIP on a line after the command.
  void rewrite_sources(const CMakeCommand& command) {
    const std::string& name = command.name;
    const bool lists_sources = name == "add_library" || name == "add_executable" ||
                               name == "cuda_add_library" || name == "cuda_add_executable" ||
                               name == "target_sources" || name == "set" || name == "list" ||
                               name == "file";
    const bool names_sources = name == "set_source_files_properties" || name == "set_property";
    if (!lists_sources && !(names_sources && m_options.rename_sources)) {
      return;
    }
    const bool glob = name == "file" && !command.args.empty() &&
                      (text(command.args[0]) == "GLOB" || text(command.args[0]) == "GLOB_RECURSE");
    if (name == "file" && !glob) {
      return;
    }
    std::vector<std::string_view> sources;
    for (std::size_t i = first_source_argument(name); i < command.args.size(); ++i) {
      const CMakeArg& arg = command.args[i];
      const std::string_view path = text(arg);
      if (!is_source_name(path)) {
        continue;
      }
      if (m_options.rename_sources) {
        const std::string renamed = std::string(path.substr(0, path.size() - 3)) + ".hip";
        m_editor.replace(arg.content_offset + path.size() - 3, 3, ".hip");
        m_editor.report(arg.offset, BuildChange::Rewrite, std::string(path), renamed);
      } else if (!names_sources && (glob || m_marked_sources.insert(std::string(path)).second)) {
        sources.push_back(path);
      }
    }
    if (sources.empty() || !command.closed) {
      return;  // no line to add after a command the file never closes
    }
    std::string list;
    if (glob) {
      if (command.args.size() < 2 ||
          !m_marked_sources.insert("${" + std::string(text(command.args[1])) + "}").second) {
        return;
      }
      list = "${" + std::string(text(command.args[1])) + "}";
    } else {
      for (std::string_view source : sources) {
        list += (list.empty() ? "" : " ") + std::string(source);
      }
    }
    const std::string line = "set_source_files_properties(" + list + " PROPERTIES LANGUAGE HIP)";
    m_editor.insert_line_after(insertion_point(command), line);
    m_editor.report(command.end - 1, BuildChange::Insert, list + " (.cu: CUDA by extension)", line);
  }

  // LANGUAGE HIP needs CMake 3.21; an older cmake_minimum_required is raised.
  void raise_minimum_version() {
    if (!m_enables_hip) {
      return;
    }
    for (const CMakeCommand& command : m_commands) {
      if (command.name != "cmake_minimum_required" || command.args.size() < 2 ||
          text(command.args[0]) != "VERSION") {
        continue;
      }
      const CMakeArg& arg = command.args[1];
      const std::string_view version = text(arg);
      const std::string_view minimum = version.substr(0, version.find("..."));
      if (version_less(minimum, k_hip_language_version)) {
        m_editor.replace(arg.content_offset, minimum.size(), std::string(k_hip_language_version));
        m_editor.report(arg.offset, BuildChange::Rewrite,
                        "cmake_minimum_required(VERSION " + std::string(minimum) + ")",
                        "cmake_minimum_required(VERSION 3.21) (LANGUAGE HIP needs it)");
      }
    }
  }

  static bool version_less(std::string_view a, std::string_view b) {
    auto next = [](std::string_view& text) {
      unsigned value = 0;
      while (!text.empty() && text[0] >= '0' && text[0] <= '9') {
        value = value * 10 + static_cast<unsigned>(text[0] - '0');
        text.remove_prefix(1);
      }
      if (!text.empty() && text[0] == '.') {
        text.remove_prefix(1);
      }
      return value;
    };
    for (int part = 0; part < 3; ++part) {
      const unsigned x = next(a);
      const unsigned y = next(b);
      if (x != y) {
        return x < y;
      }
    }
    return false;
  }

  std::string_view m_source;
  const BuildFileOptions& m_options;
  BuildFileEditor m_editor;
  std::vector<CMakeCommand> m_commands;
  std::set<std::string> m_found_packages;  // lower case
  std::set<std::string> m_marked_sources;  // already LANGUAGE HIP (or CUDA, rewritten to HIP)
  bool m_enables_hip = false;
};

}  // namespace

BuildFileResult analyze_cmake_file(std::string_view source, const BuildFileOptions& options) {
  return CMakeRewriter(source, options).run();
}

}  // namespace gpuport
