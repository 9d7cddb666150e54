// A trace file read in chunks, gunzipped on the fly when it starts with the gzip magic, so no
// reader ever holds the whole (uncompressed) file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

#include "profile/trace.h"

namespace gpuport {

class ByteStream {
 public:
  // Opens `path`; errors name the file ("x.json: No such file or directory").
  static tl::expected<ByteStream, TraceError> open(const std::string& path);
  // The same over bytes in memory (fuzz targets, tests); `name` stands for the path in errors.
  static ByteStream from_memory(std::string name, std::string bytes);
  ByteStream(ByteStream&&) noexcept;
  ByteStream& operator=(ByteStream&&) noexcept;
  ~ByteStream();

  // Up to `size` bytes of the (uncompressed) content; 0 only at the end. A corrupt or truncated
  // gzip stream is an error naming the compressed byte offset.
  tl::expected<std::size_t, TraceError> read(char* out, std::size_t size);

  // The first bytes of the content, without consuming them (fewer at a short end): used to
  // detect the format. Must be called before the first read().
  tl::expected<std::string_view, TraceError> peek(std::size_t size);

  const std::string& path() const;
  bool gzipped() const;
  // Uncompressed bytes handed out by read() so far: the position errors report.
  std::uint64_t position() const;

 private:
  struct State;
  explicit ByteStream(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

}  // namespace gpuport
