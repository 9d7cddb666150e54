// ConditionalStack: #if/#elif/#else/#endif levels and the branch class of the code in them.
#include "lex/conditional_stack.h"

namespace gpuport {

Directive directive_of(std::string_view name) {
  struct Entry {
    std::string_view name;
    Directive directive;
  };
  static constexpr Entry k_directives[] = {
      {"if", Directive::If},           {"ifdef", Directive::Ifdef},
      {"ifndef", Directive::Ifndef},   {"elif", Directive::Elif},
      {"elifdef", Directive::Elifdef}, {"elifndef", Directive::Elifndef},
      {"else", Directive::Else},       {"endif", Directive::Endif},
      {"include", Directive::Include}, {"include_next", Directive::Include},
      {"import", Directive::Include},
  };
  for (const Entry& entry : k_directives) {
    if (entry.name == name) {
      return entry.directive;
    }
  }
  return Directive::Other;
}

bool continues_chain(Directive d) {
  return d == Directive::Elif || d == Directive::Elifdef || d == Directive::Elifndef ||
         d == Directive::Else || d == Directive::Endif;
}

BranchContext ConditionalStack::context_below_top() const {
  BranchContext top = m_levels.back().context;
  return context_of(m_hip_levels - (top == BranchContext::Hip ? 1 : 0),
                    m_cuda_levels - (top == BranchContext::CudaDevice ? 1 : 0));
}

const char* ConditionalStack::apply(Directive directive, std::string_view name,
                                    std::string_view condition, std::uint32_t line,
                                    std::uint32_t column) {
  switch (directive) {
    case Directive::If:
    case Directive::Ifdef:
    case Directive::Ifndef: {
      if (m_overflow_levels > 0 || m_levels.size() >= k_max_depth) {
        if (m_overflow_levels++ == 0) {
          return "#if nesting deeper than 4096 levels; deeper levels are treated as neutral";
        }
        return nullptr;
      }
      Level level;
      level.line = line;
      level.column = column;
      level.context = level.chain.begin(evaluate_condition(name, condition));
      push_level(level);
      return nullptr;
    }
    case Directive::Elif:
    case Directive::Elifdef:
    case Directive::Elifndef:
      if (m_overflow_levels > 0) {
        return nullptr;
      }
      if (m_levels.empty()) {
        return "#elif without #if";
      }
      set_top_context(m_levels.back().chain.next(evaluate_condition(name, condition)));
      return nullptr;
    case Directive::Else:
      if (m_overflow_levels > 0) {
        return nullptr;
      }
      if (m_levels.empty()) {
        return "#else without #if";
      }
      set_top_context(m_levels.back().chain.otherwise());
      return nullptr;
    case Directive::Endif:
      if (m_overflow_levels > 0) {
        --m_overflow_levels;
        return nullptr;
      }
      if (m_levels.empty()) {
        return "#endif without #if";
      }
      set_top_context(BranchContext::Neutral);
      m_levels.pop_back();
      return nullptr;
    default:
      return nullptr;
  }
}

void ConditionalStack::report_unterminated(std::vector<LexDiagnostic>& out) const {
  for (const Level& level : m_levels) {
    out.push_back({level.line, level.column, "unterminated #if"});
  }
}

void ConditionalStack::push_level(Level level) {
  BranchContext context = level.context;
  level.context = BranchContext::Neutral;
  m_levels.push_back(level);
  set_top_context(context);
}

void ConditionalStack::set_top_context(BranchContext context) {
  Level& top = m_levels.back();
  m_hip_levels -= top.context == BranchContext::Hip ? 1 : 0;
  m_cuda_levels -= top.context == BranchContext::CudaDevice ? 1 : 0;
  top.context = context;
  m_hip_levels += context == BranchContext::Hip ? 1 : 0;
  m_cuda_levels += context == BranchContext::CudaDevice ? 1 : 0;
}

}  // namespace gpuport
