// Synthetic prompts of N common English words (≈ N tokens, see prompts.h) and JSONL datasets.
#include "bench/prompts.h"
#include "source/bounded_read.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gpuport {

namespace {

// Short, frequent words: each is one token, with its leading space, in the Llama 2/3, GPT-2/4
// and Qwen vocabularies.
constexpr std::array<std::string_view, 64> k_words = {
    "the",   "of",    "and",  "to",   "in",    "is",    "was",  "that", "for",  "it",  "with",
    "as",    "on",    "be",   "at",   "by",    "this",  "had",  "not",  "are",  "but", "from",
    "or",    "have",  "an",   "they", "which", "one",   "you",  "were", "all",  "we",  "her",
    "she",   "there", "been", "his",  "when",  "who",   "will", "more", "no",   "if",  "out",
    "so",    "said",  "what", "up",   "its",   "about", "into", "than", "them", "can", "only",
    "other", "time",  "new",  "some", "could", "these", "two",  "may",  "first"};

// Beyond this a synthetic prompt is a mistake, not a benchmark (about 4 MB of text).
constexpr std::int64_t k_max_synthetic_tokens = 1'000'000;

std::uint64_t mix(std::uint64_t value) {
  value += 0x9e3779b97f4a7c15ULL;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
  return value ^ (value >> 31);
}

}  // namespace

std::string synthetic_prompt(std::int64_t tokens, std::uint64_t request_index) {
  const std::int64_t words = std::clamp<std::int64_t>(tokens, 0, k_max_synthetic_tokens);
  std::string prompt;
  prompt.reserve(static_cast<std::size_t>(words) * 5);
  // Every word comes from a stream seeded by the request, so two prompts differ from their
  // first word on and a prefix cache cannot serve one from another.
  std::uint64_t state = mix(request_index ^ 0x5eedULL);
  for (std::int64_t i = 0; i < words; ++i) {
    state = mix(state);
    if (i > 0) {
      prompt += ' ';
    }
    prompt += k_words[state % k_words.size()];
  }
  return prompt;
}

tl::expected<std::vector<DatasetPrompt>, std::string> parse_prompt_dataset(
    std::string_view text, const std::string& name) {
  std::vector<DatasetPrompt> prompts;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    ++line_number;
    const auto where = [&] { return name + ":" + std::to_string(line_number) + ": "; };
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
      continue;
    }
    nlohmann::json object;
    try {
      object = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& error) {
      return tl::unexpected(where() + "malformed JSON at column " + std::to_string(error.byte));
    } catch (const nlohmann::json::exception& error) {
      // Valid syntax the library cannot hold, e.g. a number beyond a double's range.
      const std::string_view what = error.what();
      return tl::unexpected(where() + std::string(what.substr(what.find("] ") + 2)));
    }
    if (!object.is_object()) {
      return tl::unexpected(where() + "not a JSON object");
    }
    auto prompt_text = object.find("prompt");
    if (prompt_text == object.end()) {
      prompt_text = object.find("text");
    }
    if (prompt_text == object.end()) {
      return tl::unexpected(where() + "no 'prompt' key");
    }
    if (!prompt_text->is_string()) {
      return tl::unexpected(where() + "'" + prompt_text.key() + "' must be a string");
    }
    DatasetPrompt prompt;
    prompt.prompt = prompt_text->get<std::string>();
    for (const char* key : {"output_tokens", "max_tokens"}) {
      const auto value = object.find(key);
      if (value == object.end()) {
        continue;
      }
      if (!value->is_number_integer() || value->get<std::int64_t>() <= 0) {
        return tl::unexpected(where() + "'" + key + "' must be a positive integer");
      }
      prompt.output_tokens = value->get<std::int64_t>();
      break;
    }
    prompts.push_back(std::move(prompt));
  }
  if (prompts.empty()) {
    return tl::unexpected(name + ": no prompts");
  }
  return prompts;
}

tl::expected<std::vector<DatasetPrompt>, std::string> load_prompt_dataset(const std::string& path) {
  auto text = read_bounded_file(path, k_report_file_limit, "prompt dataset");
  if (!text) {
    return tl::unexpected(path + ": cannot read: " + text.error().message);
  }
  return parse_prompt_dataset(*text, path);
}

}  // namespace gpuport
