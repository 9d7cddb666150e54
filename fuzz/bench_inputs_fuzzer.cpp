// libFuzzer target: the bench parsers that read what a user or a client hands over, on arbitrary
// bytes. The input is read as a saved result file (the offset-keeping JSON reader, then the
// result reader: `bench compare` and `bench merge` take such files), as bytes arriving at the
// mock server (its request parser), as a --dataset JSONL file, and each of its first lines as an
// --slo, a URL, a mock latency distribution and a fault rule. Checked:
// - errors are one line, and a result file's error names the file;
// - a result that reads back writes JSON that reads back to the same JSON, and merges with
//   itself;
// - the mock's parser is stateless: a complete request is incomplete at every shorter prefix
//   of what it consumed, and `consumed` never passes the buffer.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "bench/json_value.h"
#include "bench/mock_http_request.h"
#include "bench/mock_options.h"
#include "bench/prompts.h"
#include "bench/result_json.h"
#include "bench/slo.h"
#include "bench/url.h"

namespace {

void check_one_line(const std::string& message) {
  if (message.empty() || message.find('\n') != std::string::npos) {
    std::abort();
  }
}

template <typename T>
void check_spec(const tl::expected<T, std::string>& parsed) {
  if (!parsed) {
    check_one_line(parsed.error());
  }
}

void check_result_file(std::string_view text) {
  const auto value = gpuport::parse_json(text);
  if (!value) {
    check_one_line(value.error().message);
    if (value.error().offset > text.size()) {
      std::abort();
    }
  }
  const auto result = gpuport::bench_result_from_json(text, "fuzz.json");
  if (!result) {
    check_one_line(result.error());
    if (!result.error().starts_with("fuzz.json")) {
      std::abort();
    }
    return;
  }
  const std::string written = gpuport::bench_result_to_json(*result);
  const auto again = gpuport::bench_result_from_json(written, "written.json");
  if (!again || gpuport::bench_result_to_json(*again) != written) {
    std::abort();
  }
  if (!gpuport::merge_bench_results({*result, *result}, {"a.json", "b.json"})) {
    std::abort();
  }
}

void check_mock_request(std::string_view buffer) {
  std::size_t requests = 0;
  while (!buffer.empty() && requests < 16) {
    const gpuport::MockRequestParse parse = gpuport::parse_mock_request(buffer);
    if (parse.status == gpuport::MockRequestParse::Status::error) {
      check_one_line(parse.error);
      if (parse.error_status < 400 || parse.error_status > 599) {
        std::abort();
      }
      return;
    }
    if (parse.status == gpuport::MockRequestParse::Status::incomplete) {
      return;
    }
    if (parse.consumed == 0 || parse.consumed > buffer.size()) {
      std::abort();
    }
    // Every shorter prefix is incomplete (or already an error, e.g. a head over the limit).
    for (std::size_t cut = parse.consumed - 1, step = 0; step < 8 && cut > 0; ++step) {
      if (gpuport::parse_mock_request(buffer.substr(0, cut)).status ==
          gpuport::MockRequestParse::Status::complete) {
        std::abort();
      }
      cut = cut / 2;
    }
    buffer.remove_prefix(parse.consumed);
    ++requests;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_result_file(text);
  check_mock_request(text);
  if (const auto prompts = gpuport::parse_prompt_dataset(text, "fuzz.jsonl"); !prompts) {
    check_one_line(prompts.error());
    if (!prompts.error().starts_with("fuzz.jsonl")) {
      std::abort();
    }
  } else if (prompts->empty()) {
    std::abort();
  }
  std::size_t lines = 0;
  for (std::size_t at = 0; at < text.size() && lines < 4; ++lines) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    check_spec(gpuport::parse_slo(line));
    check_spec(gpuport::parse_url(line));
    check_spec(gpuport::parse_latency_distribution(line));
    check_spec(gpuport::parse_fault_rule(line));
    at = end + 1;
  }
  return 0;
}
