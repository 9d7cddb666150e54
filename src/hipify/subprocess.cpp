// run_process(): posix_spawn with a close-on-exec pipe, poll() for the time limit, and a kill of
// the whole process group on timeout.
#include "hipify/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace gpuport {

namespace {

// Closes a descriptor when it goes out of scope.
class Descriptor {
 public:
  explicit Descriptor(int fd = -1) : m_fd(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() { reset(); }
  int get() const { return m_fd; }
  void reset() {
    if (m_fd >= 0) {
      ::close(m_fd);
      m_fd = -1;
    }
  }

 private:
  int m_fd;
};

SpawnError spawn_error(int error) {
  SpawnError out;
  out.message = std::strerror(error);
  if (error == ENOENT || error == ENOTDIR) {
    out.failure = SpawnFailure::NotFound;
  } else if (error == EACCES || error == ENOEXEC || error == EPERM) {
    out.failure = SpawnFailure::NotExecutable;
  }
  return out;
}

bool is_executable_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

// Reads `fd` until EOF (true) or until `limit` passes (false).
bool drain(int fd, std::chrono::milliseconds limit, std::string& output, std::size_t max_output) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  char buffer[8192];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return false;
    }
    pollfd poll_fd{fd, POLLIN, 0};
    const int ready = ::poll(&poll_fd, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready < 0) {
      return true;  // a broken descriptor: nothing more will come
    }
    if (ready == 0) {
      return false;
    }
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      return true;
    }
    const std::size_t room = max_output > output.size() ? max_output - output.size() : 0;
    output.append(buffer, std::min(room, static_cast<std::size_t>(got)));
  }
}

}  // namespace

std::optional<std::string> find_executable(const std::string& name) {
  if (name.empty()) {
    return std::nullopt;
  }
  if (name.find('/') != std::string::npos) {
    return is_executable_file(name) ? std::optional(name) : std::nullopt;
  }
  const char* path_env = std::getenv("PATH");
  const std::string path = path_env != nullptr ? path_env : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t colon = path.find(':', start);
    const std::size_t end = colon == std::string::npos ? path.size() : colon;
    const std::string directory = end > start ? path.substr(start, end - start) : ".";
    const std::string candidate = directory + "/" + name;
    if (is_executable_file(candidate)) {
      return candidate;
    }
    if (colon == std::string::npos) {
      break;
    }
    start = colon + 1;
  }
  return std::nullopt;
}

tl::expected<ProcessResult, SpawnError> run_process(const std::vector<std::string>& argv,
                                                    const ProcessLimits& limits) {
  if (argv.empty()) {
    return tl::unexpected(SpawnError{SpawnFailure::Other, "empty command"});
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return tl::unexpected(spawn_error(errno));
  }
  Descriptor read_end(fds[0]);
  Descriptor write_end(fds[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, write_end.get(), 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Own process group (for the timeout kill); SIGPIPE back to default, since gpuport ignores it
  // and ignored signals survive exec.
  sigset_t default_signals;
  sigemptyset(&default_signals);
  sigaddset(&default_signals, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &default_signals);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> args;
  for (const std::string& arg : argv) {
    args.push_back(const_cast<char*>(arg.c_str()));
  }
  args.push_back(nullptr);
  pid_t pid = 0;
  const bool has_path = argv[0].find('/') != std::string::npos;
  const int spawned =
      has_path ? ::posix_spawn(&pid, argv[0].c_str(), &actions, &attributes, args.data(), environ)
               : ::posix_spawnp(&pid, argv[0].c_str(), &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  write_end.reset();
  if (spawned != 0) {
    return tl::unexpected(spawn_error(spawned));
  }

  ProcessResult result;
  if (!drain(read_end.get(), limits.timeout, result.output, limits.max_output)) {
    // Over the time limit: stop the whole group (hipcc runs clang as its child).
    result.timed_out = true;
    ::kill(-pid, SIGKILL);
    drain(read_end.get(), std::chrono::seconds(5), result.output, limits.max_output);
  }
  int status = 0;
  pid_t waited = 0;
  while ((waited = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (waited == pid && WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  }
  return result;
}

}  // namespace gpuport
