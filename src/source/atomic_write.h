// Writing a whole file so that readers see either the old contents or the new, never a part.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

#include "source/file_system.h"

namespace gpuport {

// Whether commit() waits until the bytes are on the disk before the rename. Either way a reader
// sees the old file or the whole new one; Synced also keeps the new one through a power cut.
// A report the same command writes again can skip the wait, which for a 100 MB report is a
// seventh of a second; a file that replaces a user's source must not.
enum class Durability : std::uint8_t { Synced, Regenerable };

// Where the bytes for an output path really go. A symbolic link is followed to the file it
// names (the link stays a link); a device, FIFO or terminal is written directly, never replaced
// by a regular file (`-o /dev/null`, `-o /dev/stdout`).
struct OutputTarget {
  std::string path;     // the final file, links resolved
  bool direct = false;  // a character or block device or a FIFO: opened and written in place
};

// Decides the target of `path` and checks that it can be written: its directory exists and is
// writable, it is not a directory or a socket, a link does not loop. Commands call it before
// any work, so that a bad -o fails in a second, not after the work. Errors name `path`.
tl::expected<OutputTarget, IoError> resolve_output_path(const std::string& path);

// A file written in pieces to a temporary file beside its target (resolve_output_path) and
// renamed over it by commit(), after flushing it to disk (Durability::Synced). Destroyed without
// a successful commit(), it removes the temporary file and leaves the target as it was. A device
// or FIFO target is opened and written directly instead. Errors name `path` with a
// strerror-style message. A new file gets the usual 0666 & ~umask permissions; an existing file
// keeps its permissions.
class AtomicFile {
 public:
  static tl::expected<AtomicFile, IoError> create(const std::string& path,
                                                  Durability durability = Durability::Synced);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  tl::expected<void, IoError> write(std::string_view bytes);
  tl::expected<void, IoError> commit();

 private:
  AtomicFile(std::string path, std::string target, std::string temp, int fd, Durability durability);
  void abandon();

  std::string m_path;    // as the user named it: errors name this
  std::string m_target;  // where the bytes go (links resolved)
  std::string m_temp;    // empty: the target is written directly (a device or FIFO)
  int m_fd = -1;
  Durability m_durability = Durability::Synced;
  std::uint64_t m_written = 0;  // bytes written so far
  std::uint64_t m_flushed = 0;  // bytes whose write-back has been started
};

// Writes all of `bytes` to `fd`, retrying short writes and EINTR; false with errno set otherwise.
bool write_all(int fd, std::string_view bytes);

// The whole file at once: AtomicFile::create, write, commit.
tl::expected<void, IoError> write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace gpuport
