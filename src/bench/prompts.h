// Prompts for a run: synthetic ones of a requested token length, or the lines of a JSONL dataset.
//
// The synthetic length is an approximation, documented in docs/bench.md: common English words
// separated by spaces, each of which the usual BPE tokenizers (Llama, GPT, Qwen) encode as one
// token, so N words ≈ N tokens. Prompts differ from one another (a per-request prefix) so a
// server's prefix cache does not turn the run into a cache benchmark.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

namespace gpuport {

std::string synthetic_prompt(std::int64_t tokens, std::uint64_t request_index);

struct DatasetPrompt {
  std::string prompt;
  std::int64_t output_tokens = 0;  // 0: use --output-tokens
};

// JSONL, one object per line: {"prompt": "..."} (also "text"), optional "output_tokens" /
// "max_tokens"; blank lines skipped. Errors name the file and line: "p.jsonl:7: no 'prompt' key".
tl::expected<std::vector<DatasetPrompt>, std::string> load_prompt_dataset(const std::string& path);
// The same on a file's text; `name` stands for the file in errors.
tl::expected<std::vector<DatasetPrompt>, std::string> parse_prompt_dataset(std::string_view text,
                                                                           const std::string& name);

}  // namespace gpuport
