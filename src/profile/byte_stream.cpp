#include "profile/byte_stream.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace gpuport {

struct ByteStream::State {
  std::string path;
  int fd = -1;
  bool gzip = false;
  bool input_done = false;   // the file has been read to its end
  bool stream_done = false;  // gzip: the last member ended and nothing follows
  z_stream zs{};
  bool zs_live = false;
  std::vector<unsigned char> input = std::vector<unsigned char>(1 << 18);
  std::uint64_t compressed_offset = 0;  // file bytes consumed by inflate
  std::string peeked;                   // content returned by peek(), not yet by read()
  std::string memory;                   // the bytes, for a stream made by from_memory()
  std::size_t memory_offset = 0;
  std::uint64_t position = 0;

  ~State() {
    if (zs_live)
      inflateEnd(&zs);
    if (fd >= 0)
      ::close(fd);
  }

  TraceError error(const std::string& what) const { return TraceError{path + ": " + what}; }

  // Reads more of the file into `input`; returns the count (0 at end of file).
  tl::expected<std::size_t, TraceError> fill(unsigned char* out, std::size_t size) {
    if (fd < 0) {
      const std::size_t count = std::min(size, memory.size() - memory_offset);
      std::memcpy(out, memory.data() + memory_offset, count);
      memory_offset += count;
      return count;
    }
    for (;;) {
      const ssize_t got = ::read(fd, out, size);
      if (got >= 0)
        return static_cast<std::size_t>(got);
      if (errno != EINTR)
        return tl::unexpected(error(std::strerror(errno)));
    }
  }

  tl::expected<std::size_t, TraceError> read_plain(char* out, std::size_t size) {
    if (input_done)
      return 0;
    auto got = fill(reinterpret_cast<unsigned char*>(out), size);
    if (got && *got == 0)
      input_done = true;
    return got;
  }

  tl::expected<std::size_t, TraceError> read_gzip(char* out, std::size_t size) {
    zs.next_out = reinterpret_cast<Bytef*>(out);
    zs.avail_out = static_cast<uInt>(std::min<std::size_t>(size, 1u << 30));
    while (zs.avail_out > 0 && !stream_done) {
      if (zs.avail_in == 0 && !input_done) {
        auto got = fill(input.data(), input.size());
        if (!got)
          return tl::unexpected(got.error());
        if (*got == 0)
          input_done = true;
        zs.next_in = input.data();
        zs.avail_in = static_cast<uInt>(*got);
      }
      const uInt before_in = zs.avail_in;
      const int status = inflate(&zs, Z_NO_FLUSH);
      compressed_offset += before_in - zs.avail_in;
      if (status == Z_STREAM_END) {
        // Concatenated gzip members (what `cat a.gz b.gz` makes) are one stream.
        if (zs.avail_in == 0 && !input_done) {
          auto got = fill(input.data(), input.size());
          if (!got)
            return tl::unexpected(got.error());
          if (*got == 0)
            input_done = true;
          zs.next_in = input.data();
          zs.avail_in = static_cast<uInt>(*got);
        }
        if (zs.avail_in == 0) {
          stream_done = true;
        } else {
          inflateReset(&zs);
        }
        continue;
      }
      if (status == Z_BUF_ERROR && zs.avail_in == 0 && input_done) {
        return tl::unexpected(error("compressed byte " + std::to_string(compressed_offset) +
                                    ": truncated gzip stream (the file ends inside it)"));
      }
      if (status != Z_OK && status != Z_BUF_ERROR) {
        return tl::unexpected(error("compressed byte " + std::to_string(compressed_offset) +
                                    ": corrupt gzip data (" +
                                    (zs.msg != nullptr ? zs.msg : "inflate failed") + ")"));
      }
    }
    return size - zs.avail_out;
  }

  // Reads the first two bytes and sets the stream up for gzip when they are its magic.
  tl::expected<void, TraceError> start() {
    unsigned char magic[2] = {0, 0};
    std::size_t have = 0;
    while (have < 2) {
      auto got = fill(magic + have, 2 - have);
      if (!got)
        return tl::unexpected(got.error());
      if (*got == 0)
        break;
      have += *got;
    }
    if (have == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
      gzip = true;
      if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        return tl::unexpected(error("cannot start gzip decompression"));
      }
      zs_live = true;
      std::memcpy(input.data(), magic, 2);
      zs.next_in = input.data();
      zs.avail_in = 2;
    } else {
      peeked.assign(reinterpret_cast<const char*>(magic), have);
      if (have < 2)
        input_done = true;  // the content ended inside the magic
    }
    return {};
  }

  tl::expected<std::size_t, TraceError> read_raw(char* out, std::size_t size) {
    return gzip ? read_gzip(out, size) : read_plain(out, size);
  }
};

ByteStream::ByteStream(std::unique_ptr<State> state) : m_state(std::move(state)) {}
ByteStream::ByteStream(ByteStream&&) noexcept = default;
ByteStream& ByteStream::operator=(ByteStream&&) noexcept = default;
ByteStream::~ByteStream() = default;

tl::expected<ByteStream, TraceError> ByteStream::open(const std::string& path) {
  auto state = std::make_unique<State>();
  state->path = path;
  state->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (state->fd < 0)
    return tl::unexpected(state->error(std::strerror(errno)));
  if (auto started = state->start(); !started)
    return tl::unexpected(started.error());
  return ByteStream(std::move(state));
}

ByteStream ByteStream::from_memory(std::string name, std::string bytes) {
  auto state = std::make_unique<State>();
  state->path = std::move(name);
  state->memory = std::move(bytes);
  // Reading memory cannot fail, and gzip set-up only fails when zlib is out of memory.
  (void)state->start();
  return ByteStream(std::move(state));
}

tl::expected<std::size_t, TraceError> ByteStream::read(char* out, std::size_t size) {
  State& s = *m_state;
  if (size == 0)
    return 0;
  std::size_t given = 0;
  if (!s.peeked.empty()) {
    given = std::min(size, s.peeked.size());
    std::memcpy(out, s.peeked.data(), given);
    s.peeked.erase(0, given);
    if (given == size) {
      s.position += given;
      return given;
    }
  }
  auto got = s.read_raw(out + given, size - given);
  if (!got)
    return got;
  given += *got;
  s.position += given;
  return given;
}

tl::expected<std::string_view, TraceError> ByteStream::peek(std::size_t size) {
  State& s = *m_state;
  while (s.peeked.size() < size) {
    const std::size_t old = s.peeked.size();
    s.peeked.resize(size);
    auto got = s.read_raw(s.peeked.data() + old, size - old);
    if (!got)
      return tl::unexpected(got.error());
    s.peeked.resize(old + *got);
    if (*got == 0)
      break;
  }
  return std::string_view(s.peeked).substr(0, std::min(size, s.peeked.size()));
}

const std::string& ByteStream::path() const {
  return m_state->path;
}
bool ByteStream::gzipped() const {
  return m_state->gzip;
}
std::uint64_t ByteStream::position() const {
  return m_state->position;
}

}  // namespace gpuport
