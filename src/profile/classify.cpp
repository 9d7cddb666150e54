// Applies the rule table (classify_rules.cpp) in order and refines what no rule knows by the
// launch API. Every matcher is linear in the name, so a classification costs
// O(rules x name length); callers classify each unique name once.
#include "profile/classify.h"

#include <string>
#include <vector>

#include "profile/classify_rules.h"
#include "profile/name_glob.h"

namespace gpuport {
namespace {

std::vector<std::string_view> split_alternatives(std::string_view pattern) {
  std::vector<std::string_view> out;
  while (true) {
    const std::size_t bar = pattern.find('|');
    out.push_back(pattern.substr(0, bar));
    if (bar == std::string_view::npos)
      return out;
    pattern.remove_prefix(bar + 1);
  }
}

// A rule with its alternatives split (and globs compiled) once.
struct CompiledRule {
  const ClassRule* rule = nullptr;
  std::vector<std::string_view> alternatives;
  std::vector<NameGlob> globs;
};

const std::vector<CompiledRule>& compiled_rules() {
  static const std::vector<CompiledRule> rules = [] {
    std::vector<CompiledRule> out;
    for (const ClassRule& rule : class_rules()) {
      CompiledRule compiled;
      compiled.rule = &rule;
      compiled.alternatives = split_alternatives(rule.pattern);
      if (rule.match == RuleMatch::Glob) {
        for (const std::string_view alternative : compiled.alternatives)
          compiled.globs.emplace_back(alternative);
      }
      out.push_back(std::move(compiled));
    }
    return out;
  }();
  return rules;
}

std::string_view field_of(const KernelName& name, RuleField field) {
  switch (field) {
    case RuleField::Display:
      return name.display;
    case RuleField::Qualified:
      return name.qualified;
    case RuleField::Base:
      break;
  }
  return name.base;
}

bool matches(const CompiledRule& compiled, std::string_view text) {
  switch (compiled.rule->match) {
    case RuleMatch::Prefix:
      for (const std::string_view a : compiled.alternatives) {
        if (text.substr(0, a.size()) == a)
          return true;
      }
      return false;
    case RuleMatch::Contains:
      for (const std::string_view a : compiled.alternatives) {
        if (text.find(a) != std::string_view::npos)
          return true;
      }
      return false;
    case RuleMatch::Exact:
    case RuleMatch::TemplateOwner:
      for (const std::string_view a : compiled.alternatives) {
        if (text == a)
          return true;
      }
      return false;
    case RuleMatch::Glob:
      for (const NameGlob& glob : compiled.globs) {
        if (glob.matches(text))
          return true;
      }
      return false;
  }
  return false;
}

// The first `::`-separated part of a qualified name (`dpsk` of `dpsk::grouped_gemm::…`).
std::string outermost_namespace(const std::string& qualified) {
  int depth = 0;
  for (std::size_t i = 0; i + 1 < qualified.size(); ++i) {
    const char c = qualified[i];
    if (c == '(' || c == '{' || c == '[' || c == '<')
      ++depth;
    else if ((c == ')' || c == '}' || c == ']' || c == '>') && depth > 0)
      --depth;
    else if (c == ':' && qualified[i + 1] == ':' && depth == 0)
      return qualified.substr(0, i);
  }
  return qualified;
}

Classification classify_by_rules(const KernelName& name, bool inside_wrapper);

// `cutlass::device_kernel<flash::FlashAttnBwd<…>>` belongs to what its argument is.
bool classify_wrapped(const ClassRule& rule, const KernelName& name, bool inside_wrapper,
                      Classification& out) {
  if (inside_wrapper)
    return false;
  const std::string_view argument = first_template_argument(name);
  if (argument.empty())
    return false;
  const KernelName inner = parse_kernel_name(argument);
  Classification known = classify_by_rules(inner, true);
  if (known.klass != KernelClass::Unknown) {
    known.rule = std::string(rule.id) + ":" + known.rule;
    out = std::move(known);
    return true;
  }
  out.klass = rule.klass;
  out.owner = outermost_namespace(inner.qualified);
  out.rule = std::string(rule.id);
  out.own_code = rule.own_code;
  return true;
}

Classification classify_by_rules(const KernelName& name, bool inside_wrapper) {
  Classification out;
  for (const CompiledRule& compiled : compiled_rules()) {
    const ClassRule& rule = *compiled.rule;
    if (!matches(compiled, field_of(name, rule.field)))
      continue;
    if (rule.match == RuleMatch::TemplateOwner) {
      if (classify_wrapped(rule, name, inside_wrapper, out))
        return out;
      continue;
    }
    out.klass = rule.klass;
    out.owner = std::string(rule.owner);
    out.rule = std::string(rule.id);
    out.own_code = rule.own_code;
    return out;
  }
  return out;
}

}  // namespace

LaunchApi launch_api_of(std::string_view api_name) {
  // nsys appends the API version (`cudaLaunchKernel_v7000`); per-thread-stream variants end in
  // `_ptsz` / `_ptds`.
  std::string_view name = api_name;
  if (const std::size_t v = name.rfind("_v"); v != std::string_view::npos && v + 2 < name.size()) {
    bool digits = true;
    for (const char c : name.substr(v + 2))
      digits = digits && c >= '0' && c <= '9';
    if (digits)
      name = name.substr(0, v);
  }
  for (const std::string_view suffix : {std::string_view("_ptsz"), std::string_view("_ptds")}) {
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix)
      name.remove_suffix(suffix.size());
  }
  struct Entry {
    std::string_view name;
    LaunchApi api;
  };
  static constexpr Entry kApis[] = {
      {"cudaLaunchKernel", LaunchApi::Runtime},
      {"cudaLaunchCooperativeKernel", LaunchApi::Runtime},
      {"cudaLaunchCooperativeKernelMultiDevice", LaunchApi::Runtime},
      {"cudaLaunch", LaunchApi::Runtime},
      {"hipLaunchKernel", LaunchApi::Runtime},
      {"hipLaunchCooperativeKernel", LaunchApi::Runtime},
      {"hipLaunchCooperativeKernelMultiDevice", LaunchApi::Runtime},
      {"cudaLaunchKernelExC", LaunchApi::RuntimeEx},
      {"cudaLaunchKernelEx", LaunchApi::RuntimeEx},
      {"hipExtModuleLaunchKernel", LaunchApi::RuntimeEx},
      {"hipExtLaunchKernel", LaunchApi::RuntimeEx},
      {"hipLaunchKernelExC", LaunchApi::RuntimeEx},
      {"hipHccModuleLaunchKernel", LaunchApi::RuntimeEx},
      {"cuLaunchKernel", LaunchApi::Module},
      {"cuLaunchKernelEx", LaunchApi::Module},
      {"cuLaunchCooperativeKernel", LaunchApi::Module},
      {"hipModuleLaunchKernel", LaunchApi::Module},
      {"hipModuleLaunchKernelEx", LaunchApi::Module},
      {"hipModuleLaunchCooperativeKernel", LaunchApi::Module},
      {"cudaGraphLaunch", LaunchApi::Graph},
      {"cuGraphLaunch", LaunchApi::Graph},
      {"hipGraphLaunch", LaunchApi::Graph},
  };
  for (const Entry& entry : kApis) {
    if (entry.name == name)
      return entry.api;
  }
  return LaunchApi::Unknown;
}

std::string_view launch_api_name(LaunchApi api) {
  switch (api) {
    case LaunchApi::Unknown:
      break;
    case LaunchApi::Runtime:
      return "runtime";
    case LaunchApi::RuntimeEx:
      return "runtime-ex";
    case LaunchApi::Module:
      return "module";
    case LaunchApi::Graph:
      return "graph";
  }
  return "unknown";
}

std::string_view class_name(KernelClass klass) {
  switch (klass) {
    case KernelClass::VendorBlas:
      return "vendor-blas";
    case KernelClass::VendorDnn:
      return "vendor-dnn";
    case KernelClass::VendorOther:
      return "vendor-other";
    case KernelClass::Framework:
      return "framework";
    case KernelClass::Attention:
      return "attention";
    case KernelClass::Communication:
      return "communication";
    case KernelClass::Jit:
      return "jit";
    case KernelClass::TensorRt:
      return "tensorrt";
    case KernelClass::ServingEngine:
      return "serving-engine";
    case KernelClass::Cutlass:
      return "cutlass";
    case KernelClass::Memory:
      return "memory";
    case KernelClass::Unknown:
      break;
  }
  return "unknown";
}

Classification classify_kernel(const KernelName& name, LaunchApi launch) {
  Classification out = classify_by_rules(name, false);
  if (out.klass != KernelClass::Unknown)
    return out;
  switch (launch) {
    case LaunchApi::Module:  // JIT or cubin code: Triton written by hand (a library's or yours)
      out.klass = KernelClass::Jit;
      out.owner = "Triton or other JIT (module launch)";
      out.rule = "launch.module";
      break;
    case LaunchApi::Runtime:  // compiled C++/CUDA that no library rule knows: likely the team's
    case LaunchApi::RuntimeEx:
      out.rule = "launch.runtime";
      out.own_code = true;
      break;
    case LaunchApi::Graph:
    case LaunchApi::Unknown:
      break;
  }
  return out;
}

}  // namespace gpuport
