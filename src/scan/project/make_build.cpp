// The Makefile reader of the build model: logical lines, conditionals, words.
#include "scan/project/make_build.h"

#include <string>
#include <vector>

#include "scan/project/build_switches.h"
#include "scan/project/path_glob.h"

namespace gpuport {

namespace {

bool has_source_extension(std::string_view name) {
  static constexpr std::string_view k_extensions[] = {".cu", ".cpp", ".cc", ".cxx", ".c", ".hip"};
  for (std::string_view extension : k_extensions) {
    if (name.size() > extension.size() && name.ends_with(extension)) {
      return true;
    }
  }
  return false;
}

std::string_view trim(std::string_view text) {
  std::size_t start = text.find_first_not_of(" \t\r");
  if (start == std::string_view::npos) {
    return {};
  }
  std::size_t end = text.find_last_not_of(" \t\r");
  return text.substr(start, end - start + 1);
}

// $(NAME) or ${NAME} -> NAME; anything else as written.
std::string_view variable_name(std::string_view text) {
  text = trim(text);
  if (text.size() > 3 && text[0] == '$' && (text[1] == '(' || text[1] == '{')) {
    return text.substr(2, text.size() - 3);
  }
  return text;
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos < line.size()) {
    std::size_t start = line.find_first_not_of(" \t=:;,", pos);
    if (start == std::string_view::npos) {
      break;
    }
    std::size_t end = line.find_first_of(" \t;,", start);
    if (end == std::string_view::npos) {
      end = line.size();
    }
    out.push_back(line.substr(start, end - start));
    pos = end;
  }
  return out;
}

struct Level {
  TruthMask none_taken;
  TruthMask branch;
};

class MakeReader {
 public:
  MakeReader(std::string_view path, const BuildContext& context, const PathLookup& paths,
             BuildFacts& out)
      : m_path(path),
        m_folder(parent_folder(path)),
        m_context(context),
        m_paths(paths),
        m_out(out) {}

  void run(std::string_view text) {
    std::uint32_t number = 1;
    std::size_t pos = 0;
    std::string logical;
    std::uint32_t start_line = 1;
    while (pos <= text.size()) {
      std::size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) {
        end = text.size();
      }
      std::string_view raw = text.substr(pos, end - pos);
      if (logical.empty()) {
        start_line = number;
      }
      if (!raw.empty() && raw.back() == '\r') {
        raw.remove_suffix(1);
      }
      if (!raw.empty() && raw.back() == '\\') {
        logical.append(raw.substr(0, raw.size() - 1));
        logical += ' ';
      } else {
        logical.append(raw);
        line(logical, start_line);
        logical.clear();
      }
      ++number;
      pos = end + 1;
    }
  }

 private:
  TruthMask scope() const {
    return m_levels.empty() ? TruthMask::all_true(k_both_sides) : m_levels.back().branch;
  }

  BuildLine where(std::uint32_t number, std::string_view text) const {
    std::string trimmed(trim(text));
    if (trimmed.size() > 120) {
      trimmed = trimmed.substr(0, 117) + "...";
    }
    return {std::string(m_path), number, trimmed};
  }

  // ifdef NAME / ifeq (a,b) / ifeq "a" "b": a backend switch or value decides it.
  TruthMask condition(std::string_view keyword, std::string_view rest) {
    TruthMask truth = TruthMask::all_unknown(k_both_sides);
    bool negate = keyword == "ifndef" || keyword == "ifneq";
    if (keyword == "ifdef" || keyword == "ifndef") {
      BuildSwitch value = classify_build_switch(variable_name(rest));
      if (value != BuildSwitch::None) {
        truth = switch_truth(value, m_context);
      }
    } else {
      std::string text(trim(rest));
      if (text.size() >= 2 && text.front() == '(' && text.back() == ')') {
        text = text.substr(1, text.size() - 2);
      }
      std::size_t comma = text.find(',');
      std::string_view a = comma == std::string::npos ? std::string_view(text)
                                                      : std::string_view(text).substr(0, comma);
      std::string_view b = comma == std::string::npos ? std::string_view{}
                                                      : std::string_view(text).substr(comma + 1);
      auto unquote = [](std::string_view s) {
        s = trim(s);
        if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'')) {
          s = s.substr(1, s.size() - 2);
        }
        return s;
      };
      a = unquote(a);
      b = unquote(b);
      BuildSwitch value = classify_backend_value(a);
      if (value == BuildSwitch::None) {
        value = classify_backend_value(b);
      }
      if (value == BuildSwitch::None) {
        BuildSwitch name = classify_build_switch(variable_name(a));
        if (name != BuildSwitch::None && (b == "1" || b == "ON" || b == "yes" || b == "true")) {
          value = name;
        } else if (name != BuildSwitch::None && (b.empty() || b == "0")) {
          value = name;
          negate = !negate;
        }
      }
      if (value != BuildSwitch::None) {
        truth = switch_truth(value, m_context);
      }
    }
    return negate ? truth_not(truth) : truth;
  }

  void line(std::string_view raw, std::uint32_t number) {
    std::size_t hash = raw.find('#');
    std::string_view text = trim(hash == std::string_view::npos ? raw : raw.substr(0, hash));
    if (text.empty()) {
      return;
    }
    std::size_t space = text.find_first_of(" \t(");
    std::string_view keyword = text.substr(0, space);
    std::string_view rest =
        space == std::string_view::npos ? std::string_view{} : text.substr(space);
    if (keyword == "ifeq" || keyword == "ifneq" || keyword == "ifdef" || keyword == "ifndef") {
      Level level;
      level.none_taken = scope();
      TruthMask cond = condition(keyword, rest);
      level.branch = truth_and(level.none_taken, cond);
      level.none_taken = truth_and(level.none_taken, truth_not(cond));
      m_levels.push_back(level);
      return;
    }
    if (keyword == "else" && !m_levels.empty()) {
      Level& level = m_levels.back();
      std::string_view inner = trim(rest);
      TruthMask cond = TruthMask::all_true(k_both_sides);
      if (!inner.empty()) {
        std::size_t inner_space = inner.find_first_of(" \t(");
        cond = condition(inner.substr(0, inner_space), inner_space == std::string_view::npos
                                                           ? std::string_view{}
                                                           : inner.substr(inner_space));
      }
      level.branch = truth_and(level.none_taken, cond);
      level.none_taken = truth_and(level.none_taken, truth_not(cond));
      return;
    }
    if (keyword == "endif") {
      if (!m_levels.empty()) {
        m_levels.pop_back();
      }
      return;
    }
    const TruthMask truth = scope();
    for (std::string_view word : words(text)) {
      if (word.starts_with("-D") && word.size() > 2) {
        BuildDefinition definition;
        std::string_view body = word.substr(2);
        std::size_t equals = body.find('=');
        definition.name = std::string(body.substr(0, equals));
        if (equals != std::string_view::npos) {
          definition.value = std::string(body.substr(equals + 1));
          definition.unknown_value = definition.value.find('$') != std::string::npos;
        }
        definition.truth = truth;
        definition.where = where(number, text);
        m_out.definitions.push_back(std::move(definition));
      } else if (word == "hipcc" || word.ends_with("/hipcc") ||
                 word.starts_with("--offload-arch")) {
        if ((truth.may_true & k_side_amd) != 0 && !m_amd_noted) {
          m_amd_noted = true;
          m_out.amd_setup.push_back(where(number, text));
        }
      } else if (word == "nvcc" || word.ends_with("/nvcc")) {
        if ((truth.may_true & k_side_cuda) != 0 && !m_cuda_noted) {
          m_cuda_noted = true;
          m_out.cuda_setup.push_back(where(number, text));
        }
      } else if (has_source_extension(word) && word.find('$') == std::string_view::npos) {
        std::string candidate = join_relative(m_folder, word);
        if (!candidate.empty() && (is_glob(candidate) || m_paths.has_file(candidate))) {
          SourceReference reference;
          reference.pattern = std::move(candidate);
          reference.truth = truth;
          reference.where = where(number, text);
          m_out.sources.push_back(std::move(reference));
        }
      }
    }
  }

  std::string_view m_path;
  std::string_view m_folder;
  const BuildContext& m_context;
  const PathLookup& m_paths;
  BuildFacts& m_out;
  std::vector<Level> m_levels;
  bool m_amd_noted = false;
  bool m_cuda_noted = false;
};

}  // namespace

bool is_makefile(std::string_view path) {
  std::string_view name = file_name_of(path);
  return name == "Makefile" || name == "makefile" || name == "GNUmakefile" || name.ends_with(".mk");
}

bool make_mentions_amd_build(std::string_view text) {
  return text.find("hipcc") != std::string_view::npos ||
         text.find("ROCM_PATH") != std::string_view::npos ||
         text.find("--offload-arch") != std::string_view::npos;
}

void read_make_build(std::string_view path, std::string_view text, const BuildContext& context,
                     const PathLookup& paths, BuildFacts& out) {
  MakeReader reader(path, context, paths, out);
  reader.run(text);
}

}  // namespace gpuport
