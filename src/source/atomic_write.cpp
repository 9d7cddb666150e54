// AtomicFile and write_file_atomically: mkstemp in the target's directory, write, fsync (unless
// regenerable), rename.
#include "source/atomic_write.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2, RENAME_EXCHANGE
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

namespace gpuport {
namespace {

constexpr std::uint64_t k_writeback_chunk = 8 * 1024 * 1024;
constexpr int k_max_link_hops = 40;  // as the kernel's own limit for a path (ELOOP)

IoError error_for(const std::string& path, int error) {
  return IoError{path, std::strerror(error)};
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) {
    return ".";
  }
  if (slash == 0) {
    return "/";
  }
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// umask() can only be read by setting it; the lock keeps two writers from racing on it.
mode_t current_umask() {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

// Swaps `temp` with an existing regular file at `path` in one step, then removes the old contents
// (now under the temporary name). A plain rename over an existing file makes ext4 write the new
// file's data out on the spot (its auto_da_alloc guard for programs that skip fsync): a
// seventh of a second for a 100 MB report. False when there is nothing to swap with or the file
// system cannot exchange; the caller then renames.
bool exchange_with_existing(const std::string& temp, const std::string& path) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
  struct stat existing {};
  if (::lstat(path.c_str(), &existing) != 0 || !S_ISREG(existing.st_mode)) {
    return false;
  }
  if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) != 0) {
    return false;
  }
  ::unlink(temp.c_str());
  return true;
#else
  (void)temp;
  (void)path;
  return false;
#endif
}

// The text of the link at `path`, or the errno that stopped reading it.
tl::expected<std::string, int> read_link(const std::string& path) {
  std::array<char, 4096> text{};
  const ssize_t length = ::readlink(path.c_str(), text.data(), text.size());
  if (length < 0) {
    return tl::unexpected(errno);
  }
  if (static_cast<std::size_t>(length) == text.size()) {
    return tl::unexpected(ENAMETOOLONG);
  }
  return std::string(text.data(), static_cast<std::size_t>(length));
}

// A regular file is replaced through a temporary file beside it: its directory must take one.
tl::expected<OutputTarget, IoError> file_in_writable_directory(const std::string& path,
                                                               const std::string& target) {
  const std::string directory = directory_of(target);
  struct stat st {};
  if (::stat(directory.c_str(), &st) != 0) {
    const int error = errno;
    return tl::unexpected(IoError{path, error == ENOENT
                                            ? "its directory '" + directory + "' does not exist"
                                            : std::string(std::strerror(error))});
  }
  if (!S_ISDIR(st.st_mode)) {
    return tl::unexpected(IoError{path, "'" + directory + "' is not a directory"});
  }
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    return tl::unexpected(
        IoError{path, "cannot create files in '" + directory + "': " + std::strerror(errno)});
  }
  return OutputTarget{target, false};
}

}  // namespace

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
    if (wrote < 0 && errno == EINTR) {
      continue;
    }
    if (wrote <= 0) {
      if (wrote == 0) {
        errno = EIO;  // no progress and no error: never loop on it
      }
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(wrote));
  }
  return true;
}

tl::expected<OutputTarget, IoError> resolve_output_path(const std::string& path) {
  if (path.empty()) {
    return tl::unexpected(error_for(path, ENOENT));
  }
  if (path.back() == '/') {
    return tl::unexpected(IoError{path, "is a directory"});
  }
  std::string current = path;
  for (int hop = 0; hop <= k_max_link_hops; ++hop) {
    struct stat st {};
    if (::lstat(current.c_str(), &st) != 0) {
      if (errno != ENOENT) {
        return tl::unexpected(error_for(path, errno));
      }
      return file_in_writable_directory(path, current);  // a new file (or a dangling link's)
    }
    if (S_ISLNK(st.st_mode)) {
      auto link = read_link(current);
      if (!link) {
        return tl::unexpected(error_for(path, link.error()));
      }
      current = link->starts_with('/') ? *link : directory_of(current) + "/" + *link;
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      return tl::unexpected(IoError{path, "is a directory"});
    }
    if (S_ISSOCK(st.st_mode)) {
      return tl::unexpected(IoError{path, "is a socket; gpuport writes files, devices and FIFOs"});
    }
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode)) {
      if (::access(current.c_str(), W_OK) != 0) {
        return tl::unexpected(error_for(path, errno));
      }
      return OutputTarget{current, true};
    }
    return file_in_writable_directory(path, current);
  }
  return tl::unexpected(error_for(path, ELOOP));
}

AtomicFile::AtomicFile(std::string path, std::string target, std::string temp, int fd,
                       Durability durability)
    : m_path(std::move(path)),
      m_target(std::move(target)),
      m_temp(std::move(temp)),
      m_fd(fd),
      m_durability(durability) {}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : m_path(std::move(other.m_path)),
      m_target(std::move(other.m_target)),
      m_temp(std::move(other.m_temp)),
      m_fd(std::exchange(other.m_fd, -1)),
      m_durability(other.m_durability),
      m_written(other.m_written),
      m_flushed(other.m_flushed) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    abandon();
    m_path = std::move(other.m_path);
    m_target = std::move(other.m_target);
    m_temp = std::move(other.m_temp);
    m_fd = std::exchange(other.m_fd, -1);
    m_durability = other.m_durability;
    m_written = other.m_written;
    m_flushed = other.m_flushed;
  }
  return *this;
}

AtomicFile::~AtomicFile() {
  abandon();
}

void AtomicFile::abandon() {
  if (m_fd >= 0) {
    ::close(m_fd);
    if (!m_temp.empty()) {
      ::unlink(m_temp.c_str());
    }
    m_fd = -1;
  }
}

tl::expected<AtomicFile, IoError> AtomicFile::create(const std::string& path,
                                                     Durability durability) {
  auto target = resolve_output_path(path);
  if (!target) {
    return tl::unexpected(target.error());
  }
  if (target->direct) {
    // O_NONBLOCK is not set: a FIFO waits for its reader, as a shell's `>` does.
    const int fd = ::open(target->path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
      return tl::unexpected(error_for(path, errno));
    }
    return AtomicFile(path, target->path, std::string(), fd, durability);
  }
  const std::string name =
      directory_of(target->path) + "/." + base_of(target->path) + ".tmp-XXXXXX";
  std::vector<char> temp(name.begin(), name.end());
  temp.push_back('\0');
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    return tl::unexpected(error_for(path, errno));
  }
  AtomicFile file(path, target->path, std::string(temp.data()), fd, durability);
  struct stat existing {};
  const mode_t mode = ::stat(target->path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)
                          ? (existing.st_mode & 07777)
                          : (0666 & ~current_umask());
  if (::fchmod(fd, mode) != 0) {
    return tl::unexpected(error_for(path, errno));  // `file` removes the temporary
  }
  return file;
}

tl::expected<void, IoError> AtomicFile::write(std::string_view bytes) {
  if (m_fd < 0) {
    return tl::unexpected(error_for(m_path, EBADF));
  }
  if (!write_all(m_fd, bytes)) {
    return tl::unexpected(error_for(m_path, errno));
  }
  m_written += bytes.size();
#if defined(__linux__)
  // Start writing large outputs back while the rest is produced, so that commit()'s fsync
  // waits only for the tail (a 100 MB report otherwise spends a fifth of a second there).
  if (m_durability == Durability::Synced && !m_temp.empty() &&
      m_written - m_flushed >= k_writeback_chunk) {
    ::sync_file_range(m_fd, static_cast<off_t>(m_flushed),
                      static_cast<off_t>(m_written - m_flushed), SYNC_FILE_RANGE_WRITE);
    m_flushed = m_written;
  }
#endif
  return {};
}

tl::expected<void, IoError> AtomicFile::commit() {
  if (m_fd < 0) {
    return tl::unexpected(error_for(m_path, EBADF));
  }
  if (m_temp.empty()) {  // a device or FIFO: the bytes are already there
    const int fd = std::exchange(m_fd, -1);
    if (::close(fd) != 0) {
      return tl::unexpected(error_for(m_path, errno));
    }
    return {};
  }
  if (m_durability == Durability::Synced && ::fsync(m_fd) != 0) {
    const int error = errno;
    abandon();
    return tl::unexpected(error_for(m_path, error));
  }
  const int fd = m_fd;
  m_fd = -1;
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(m_temp.c_str());
    return tl::unexpected(error_for(m_path, error));
  }
  if (m_durability == Durability::Regenerable && exchange_with_existing(m_temp, m_target)) {
    return {};
  }
  if (::rename(m_temp.c_str(), m_target.c_str()) != 0) {
    const int error = errno;
    ::unlink(m_temp.c_str());
    return tl::unexpected(error_for(m_path, error));
  }
  if (m_durability != Durability::Synced) {
    return {};
  }
  // Make the rename itself durable; a failure here leaves a complete file, so it is not an error.
  const int directory_fd =
      ::open(directory_of(m_target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_fd >= 0) {
    ::fsync(directory_fd);
    ::close(directory_fd);
  }
  return {};
}

tl::expected<void, IoError> write_file_atomically(const std::string& path, std::string_view bytes) {
  auto file = AtomicFile::create(path);
  if (!file) {
    return tl::unexpected(file.error());
  }
  if (auto written = file->write(bytes); !written) {
    return written;
  }
  return file->commit();
}

}  // namespace gpuport
