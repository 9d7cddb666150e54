#include "source/bounded_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpuport {

std::string size_text(std::uint64_t bytes) {
  if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) {
    return std::to_string(bytes >> 30) + " GiB";
  }
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) {
    return std::to_string(bytes >> 20) + " MiB";
  }
  return std::to_string(bytes) + " bytes";
}

tl::expected<std::string, IoError> read_bounded_file(const std::string& path, std::uint64_t limit,
                                                     std::string_view kind) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return tl::unexpected(IoError{path, std::strerror(errno)});
  }
  auto fail = [&](std::string message) -> tl::expected<std::string, IoError> {
    ::close(fd);
    return tl::unexpected(IoError{path, std::move(message)});
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return fail(std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) {
    return fail("is a directory");
  }
  const std::string too_large = "larger than " + size_text(limit) + "; not a " + std::string(kind);
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > limit) {
    return fail(too_large);
  }
  std::string text;
  if (S_ISREG(st.st_mode)) {
    text.reserve(static_cast<std::size_t>(st.st_size));
  }
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      return fail(std::strerror(errno));
    }
    if (got == 0) {
      break;
    }
    if (text.size() + static_cast<std::size_t>(got) > limit) {
      return fail(too_large);  // a device or FIFO that does not end, or a file that grew
    }
    // Every input read this way is text: a NUL byte ends it at once (`--config /dev/zero`).
    if (const void* nul = std::memchr(buffer, '\0', static_cast<std::size_t>(got))) {
      const auto at =
          text.size() + static_cast<std::size_t>(static_cast<const char*>(nul) - buffer);
      return fail("byte " + std::to_string(at) + ": a NUL byte; a " + std::string(kind) +
                  " is text");
    }
    text.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return text;
}

}  // namespace gpuport
