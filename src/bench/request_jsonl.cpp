#include "bench/request_jsonl.h"

#include <nlohmann/json.hpp>

namespace gpuport {

namespace {

// ns -> ms with µs resolution; null for an event that did not happen.
nlohmann::json ms(std::int64_t ns) {
  if (ns < 0) {
    return nullptr;
  }
  return static_cast<double>(ns / 1000) / 1000.0;
}

nlohmann::json span_ms(std::int64_t from, std::int64_t to) {
  if (from < 0 || to < 0) {
    return nullptr;
  }
  return ms(to - from);
}

}  // namespace

std::string request_jsonl_line(const RequestRecord& record, double load) {
  nlohmann::json line = nlohmann::json::object();
  line["index"] = record.index;
  line["load"] = load;
  line["warmup"] = record.warmup;
  line["intended_ms"] = ms(record.intended_ns);
  line["sent_ms"] = ms(record.sent_ns);
  line["schedule_lag_ms"] = span_ms(record.intended_ns, record.sent_ns);
  line["ttft_ms"] = span_ms(record.sent_ns, record.first_token_ns);
  line["e2el_ms"] = span_ms(record.sent_ns, record.last_token_ns);
  line["done_ms"] = ms(record.done_ns);
  nlohmann::json itl = nlohmann::json::array();
  for (std::int64_t gap : record.itl_ns) {
    itl.push_back(ms(gap));
  }
  line["itl_ms"] = std::move(itl);
  line["http_status"] = record.http_status;
  line["error"] = std::string(request_error_name(record.error));
  line["error_detail"] = record.error_detail;
  line["prompt_tokens"] = record.prompt_tokens;
  line["prompt_tokens_from_usage"] = record.prompt_tokens_from_usage;
  line["output_tokens"] = record.output_tokens;
  line["output_tokens_from_usage"] = record.output_tokens_from_usage;
  line["content_chunks"] = record.content_chunks;
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gpuport
