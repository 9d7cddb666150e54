// libFuzzer target: the JSON pull parser walks arbitrary bytes with a tiny buffer and a large
// one. Aborts unless both readings see the same values and end with the same error, so tokens
// split across refills are never read differently.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "profile/byte_stream.h"
#include "profile/json/exact_decimal.h"
#include "profile/json/json_reader.h"

namespace {

using gpuport::json::JsonReader;
using gpuport::json::ValueKind;

// Echoes the document; the first byte of the input picks, per level, whether to read or skip.
void walk(JsonReader& json, std::string& out, unsigned pattern, int level) {
  const bool skip = ((pattern >> (level % 8)) & 1) != 0 && level > 0;
  if (skip) {
    json.skip_value();
    out += '_';
    return;
  }
  switch (json.peek()) {
    case ValueKind::Object: {
      json.enter_object();
      out += '{';
      std::string_view key;
      while (json.next_key(key)) {
        out.append(key).append(":");
        walk(json, out, pattern, level + 1);
        if (level == 1 && (pattern & 0x80) != 0) {
          json.skip_rest();
          out += '~';
          break;
        }
      }
      out += '}';
      return;
    }
    case ValueKind::Array:
      json.enter_array();
      out += '[';
      while (json.next_element())
        walk(json, out, pattern, level + 1);
      out += ']';
      return;
    case ValueKind::String:
      out.append(json.read_string()).append(",");
      return;
    case ValueKind::Number: {
      const std::string_view number = json.read_number();
      out.append(number).append(",");
      (void)gpuport::json::scaled_decimal(number, 3);
      return;
    }
    default:
      json.skip_value();
      out += '.';
      return;
  }
}

std::string run(const std::string& bytes, unsigned pattern, std::size_t chunk) {
  gpuport::ByteStream in = gpuport::ByteStream::from_memory("fuzz.json", bytes);
  JsonReader json(in, chunk);
  std::string out;
  walk(json, out, pattern, 0);
  json.finish();
  if (json.failed())
    out += "\nERROR " + json.error().message;
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0)
    return 0;
  const unsigned pattern = data[0];
  const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::size_t small_chunk = 1 + (pattern % 7);
  if (run(bytes, pattern, small_chunk) != run(bytes, pattern, 1 << 16))
    std::abort();
  return 0;
}
