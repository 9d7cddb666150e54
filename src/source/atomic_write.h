// Writing a whole file so that readers see either the old contents or the new, never a part.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

#include "source/file_system.h"

namespace gpuport {

// A file written in pieces to a temporary file beside `path` and renamed over `path` by
// commit(), after flushing it to disk. Destroyed without a successful commit(), it removes the
// temporary file and leaves `path` as it was. Errors name `path` with a strerror-style message.
// A new file gets the usual 0666 & ~umask permissions; an existing file keeps its permissions.
class AtomicFile {
 public:
  static tl::expected<AtomicFile, IoError> create(const std::string& path);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  tl::expected<void, IoError> write(std::string_view bytes);
  tl::expected<void, IoError> commit();

 private:
  AtomicFile(std::string path, std::string temp, int fd);
  void abandon();

  std::string m_path;
  std::string m_temp;
  int m_fd = -1;
  std::uint64_t m_written = 0;  // bytes written so far
  std::uint64_t m_flushed = 0;  // bytes whose write-back has been started
};

// The whole file at once: AtomicFile::create, write, commit.
tl::expected<void, IoError> write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace gpuport
