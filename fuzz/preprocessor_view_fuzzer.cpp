// libFuzzer target: the preprocessor view on arbitrary bytes, split into a root file and headers
// that include each other, with build macros drawn from the input. Aborts when the token stream
// breaks an invariant (regions, contexts, anchors, directive records) or when a scan with the
// header memo gives a different view than one without it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "../tests/lex/token_invariants.h"
#include "lex/cuda_lexer.h"
#include "lex/preprocessor_view.h"

namespace {

// Headers h0.h ... hN.h from the input; `memo` shared across files like a scan's.
class Headers : public gpuport::IncludeSource {
 public:
  Headers(std::vector<std::string> texts, bool use_memo)
      : m_texts(std::move(texts)), m_use_memo(use_memo) {}

  const gpuport::HeaderSkeleton* find(std::string_view,
                                      const gpuport::IncludeTarget& target) override {
    std::string name(target.header);
    if (name.size() < 4 || name[0] != 'h' || !name.ends_with(".h")) {
      return nullptr;
    }
    const std::size_t index = static_cast<std::size_t>(std::atoi(name.c_str() + 1));
    if (index >= m_texts.size()) {
      return nullptr;
    }
    auto& slot = m_skeletons[index];
    if (!slot) {
      gpuport::TokenStream tokens;
      gpuport::lex_cuda_tokens(m_texts[index], tokens);
      slot = std::make_unique<gpuport::HeaderSkeleton>(
          gpuport::make_skeleton("h" + std::to_string(index) + ".h", tokens.directive_list()));
    }
    return slot.get();
  }
  gpuport::HeaderMemo* memo() override { return m_use_memo ? &m_memo : nullptr; }

 private:
  std::vector<std::string> m_texts;
  bool m_use_memo;
  std::map<std::size_t, std::unique_ptr<gpuport::HeaderSkeleton>> m_skeletons;
  gpuport::HeaderMemo m_memo;
};

std::string describe(const gpuport::TokenStream& out) {
  std::string text;
  for (const gpuport::BranchRegion& region : out.regions) {
    text += std::to_string(region.first_token) + ":" + std::to_string(region.may_true) + "/" +
            std::to_string(region.may_false) + "/" +
            std::to_string(static_cast<int>(region.amd.state)) +
            std::to_string(region.amd.guard_line) + (region.amd.alternative ? "a" : "") + " ";
  }
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // Files are separated by a form feed: the first is the root, the others h0.h, h1.h, ...;
  // a line "D NAME VALUE" in the last part sets a build macro for both builds.
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (parts.size() < 16) {
    const std::size_t end = input.find('\f', start);
    parts.emplace_back(
        input.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
  const std::string root = parts.front();
  std::vector<std::string> headers(parts.begin() + 1, parts.end());
  gpuport::ProjectMacros build;
  if (!headers.empty()) {
    const std::string& last = headers.back();
    std::size_t pos = 0;
    while (pos < last.size()) {
      std::size_t end = last.find('\n', pos);
      if (end == std::string::npos) {
        end = last.size();
      }
      const std::string line = last.substr(pos, end - pos);
      if (line.size() > 2 && line[0] == 'D' && line[1] == ' ') {
        const std::size_t space = line.find(' ', 2);
        const std::string name =
            line.substr(2, space == std::string::npos ? std::string::npos : space - 2);
        gpuport::BuildMacro macro;
        macro.state = static_cast<gpuport::BuildMacro::State>(name.size() % 3);
        macro.body = space == std::string::npos ? "1" : line.substr(space + 1);
        build.set(gpuport::BuildSide::Amd, name, macro);
        build.set(gpuport::BuildSide::Cuda, name, macro);
      }
      pos = end + 1;
    }
  }
  std::string views[2];
  for (int with_memo = 0; with_memo < 2; ++with_memo) {
    Headers includes(headers, with_memo == 1);
    gpuport::PreprocessorSetup setup;
    setup.path = "root.cu";
    setup.build = &build;
    setup.includes = &includes;
    setup.max_include_depth = 12;
    setup.max_directives = 4000;
    // Twice per source: the second run may replay what the first recorded.
    for (int round = 0; round < 2; ++round) {
      gpuport::TokenStream out;
      gpuport::lex_cuda(root, out, setup);
      const std::string problem = gpuport::check_token_invariants(out);
      if (!problem.empty()) {
        std::fprintf(stderr, "invariant violated: %s\n", problem.c_str());
        std::abort();
      }
      const std::string view = describe(out);
      if (round == 1 && view != views[with_memo]) {
        std::fprintf(stderr, "a second walk differs from the first\n");
        std::abort();
      }
      views[with_memo] = view;
    }
  }
  if (views[0] != views[1]) {
    std::fprintf(stderr, "the header memo changed the view:\n%s\n%s\n", views[0].c_str(),
                 views[1].c_str());
    std::abort();
  }
  return 0;
}
