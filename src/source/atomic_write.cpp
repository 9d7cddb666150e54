// write_file_atomically: mkstemp in the target's directory, write, fsync, rename.
#include "source/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace gpuport {
namespace {

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

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
    if (wrote < 0) {
      if (errno == EINTR) {
        continue;
      }
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(wrote));
  }
  return true;
}

}  // namespace

tl::expected<void, IoError> write_file_atomically(const std::string& path, std::string_view bytes) {
  if (path.empty() || path.back() == '/') {
    return tl::unexpected(error_for(path, EISDIR));
  }
  const std::string directory = directory_of(path);
  std::string name = directory + "/." + base_of(path) + ".tmp-XXXXXX";
  std::vector<char> temp(name.begin(), name.end());
  temp.push_back('\0');
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    return tl::unexpected(error_for(path, errno));
  }
  const auto fail = [&](int error) -> tl::expected<void, IoError> {
    ::close(fd);
    ::unlink(temp.data());
    return tl::unexpected(error_for(path, error));
  };
  struct stat existing {};
  const mode_t mode = ::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)
                          ? (existing.st_mode & 07777)
                          : (0666 & ~current_umask());
  if (::fchmod(fd, mode) != 0) {
    return fail(errno);
  }
  if (!write_all(fd, bytes)) {
    return fail(errno);
  }
  if (::fsync(fd) != 0) {
    return fail(errno);
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp.data());
    return tl::unexpected(error_for(path, error));
  }
  if (::rename(temp.data(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.data());
    return tl::unexpected(error_for(path, error));
  }
  // Make the rename itself durable; a failure here leaves a complete file, so it is not an error.
  const int directory_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_fd >= 0) {
    ::fsync(directory_fd);
    ::close(directory_fd);
  }
  return {};
}

}  // namespace gpuport
