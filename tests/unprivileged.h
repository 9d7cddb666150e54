// Runs a test body as an unprivileged user, so that permission tests also mean something when the
// suite runs as root (as CI does): root reads a mode-000 directory, "nobody" cannot.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

namespace gpuport::testing {

// Makes `dir` and everything below it reachable by other users (the unprivileged child).
inline void open_to_everyone(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  fs::permissions(dir, fs::perms::all, fs::perm_options::add);
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_symlink()) {
      fs::permissions(entry.path(),
                      fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                          fs::perms::others_read | fs::perms::others_exec,
                      fs::perm_options::add);
    }
  }
}

// Calls `body` (which returns a printable summary of what it saw) directly when not root, and in
// a forked child that has dropped to uid/gid 65534 when root. Returns the summary, or a line
// starting with "error:" when the child could not run it.
template <typename Body>
std::string run_unprivileged(Body body) {
  if (::geteuid() != 0) {
    return body();
  }
  int fds[2];
  if (::pipe(fds) != 0) {
    return std::string("error: pipe: ") + std::strerror(errno);
  }
  const pid_t child = ::fork();
  if (child < 0) {
    return std::string("error: fork: ") + std::strerror(errno);
  }
  if (child == 0) {
    ::close(fds[0]);
    std::string summary;
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) {
      summary = std::string("error: cannot drop privileges: ") + std::strerror(errno);
    } else {
      summary = body();
    }
    const char* data = summary.data();
    std::size_t left = summary.size();
    while (left > 0) {
      const ssize_t written = ::write(fds[1], data, left);
      if (written <= 0) {
        break;
      }
      data += written;
      left -= static_cast<std::size_t>(written);
    }
    ::_exit(0);  // no destructors or gtest reporting in the child
  }
  ::close(fds[1]);
  std::string summary;
  char buffer[4096];
  ssize_t got;
  while ((got = ::read(fds[0], buffer, sizeof buffer)) > 0) {
    summary.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return "error: child did not exit cleanly";
  }
  return summary;
}

}  // namespace gpuport::testing
