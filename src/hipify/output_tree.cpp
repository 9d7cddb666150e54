// plan_output() checks, write_output() writes: a staged mirror tree renamed into place, or
// in-place rewrites each preceded by its backup.
#include "hipify/output_tree.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "source/atomic_write.h"

namespace gpuport {

namespace {

namespace fs = std::filesystem;

fs::path resolved(const std::string& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  if (error) {
    return fs::path(path).lexically_normal();
  }
  fs::path canonical = fs::weakly_canonical(absolute, error);
  return error ? absolute.lexically_normal() : canonical;
}

// True when `child` is `parent` or below it (both resolved).
bool is_within(const fs::path& child, const fs::path& parent) {
  auto parent_it = parent.begin();
  auto child_it = child.begin();
  for (; parent_it != parent.end(); ++parent_it, ++child_it) {
    if (parent_it->empty()) {
      continue;  // a trailing separator
    }
    if (child_it == child.end() || *child_it != *parent_it) {
      return false;
    }
  }
  return true;
}

bool exists(const std::string& path) {
  std::error_code error;
  return fs::symlink_status(path, error).type() != fs::file_type::not_found && !error;
}

std::string with_cu_renamed(const std::string& path) {
  return path.substr(0, path.size() - 3) + ".hip";
}

bool renames(const FileOutcome& file, bool rename) {
  return rename && file.action == FileAction::Translate && file.relative.ends_with(".cu");
}

IoError error_from(const std::string& path, const std::error_code& error) {
  return IoError{path, error.message()};
}

// Copies the bytes of `from` into `to`, a new file, with `from`'s permissions. The error names
// the file that failed and the real errno: std::filesystem::copy_file reported a write cut
// short by `ulimit -f` as "cannot copy: Success". On failure `to` is removed.
tl::expected<void, IoError> copy_new_file(const std::string& from, const std::string& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    return tl::unexpected(IoError{from, std::strerror(errno)});
  }
  struct stat st {};
  if (::fstat(in, &st) != 0) {
    const int error = errno;
    ::close(in);
    return tl::unexpected(IoError{from, std::strerror(error)});
  }
  const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (out < 0) {
    const int error = errno;
    ::close(in);
    return tl::unexpected(IoError{to, std::strerror(error)});
  }
  auto fail = [&](const std::string& path, int error) -> tl::expected<void, IoError> {
    ::close(in);
    ::close(out);
    ::unlink(to.c_str());
    return tl::unexpected(IoError{path, std::strerror(error)});
  };
  // The kernel copies (copy_file_range: no bytes through user space, reflinks where the file
  // system has them); read/write where it cannot (another file system, an old kernel). Either
  // way an error keeps its errno: EFBIG past `ulimit -f`, ENOSPC on a full disk.
  bool in_kernel = true;
  std::vector<char> buffer;
  while (true) {
    ssize_t got = 0;
    if (in_kernel) {
      got = ::copy_file_range(in, nullptr, out, nullptr, 1 << 30, 0);
      if (got < 0 &&
          (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP)) {
        in_kernel = false;
        continue;
      }
      if (got < 0 && errno == EINTR) {
        continue;
      }
      if (got < 0) {
        // Which side failed is not said: a write error is the usual one (the output's disk).
        return fail(errno == EBADF || errno == EIO ? from : to, errno);
      }
      if (got == 0) {
        break;
      }
      continue;
    }
    buffer.resize(256 * 1024);
    got = ::read(in, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      return fail(from, errno);
    }
    if (got == 0) {
      break;
    }
    if (!write_all(out, std::string_view(buffer.data(), static_cast<std::size_t>(got)))) {
      return fail(to, errno);
    }
  }
  if (::fchmod(out, st.st_mode & 07777) != 0) {
    return fail(to, errno);
  }
  ::close(in);
  if (::close(out) != 0) {
    const int error = errno;
    ::unlink(to.c_str());
    return tl::unexpected(IoError{to, std::strerror(error)});
  }
  return {};
}

// Copies `from` over `to` through a temporary file beside `to`, keeping `from`'s permissions.
tl::expected<void, IoError> copy_atomically(const std::string& from, const std::string& to) {
  static std::atomic<unsigned> counter{0};
  const std::string temporary =
      to + ".gpuport-tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  if (auto copied = copy_new_file(from, temporary); !copied) {
    if (copied.error().path == temporary) {
      copied.error().path = to;
    }
    return copied;
  }
  if (::rename(temporary.c_str(), to.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temporary.c_str());
    return tl::unexpected(IoError{to, std::strerror(saved)});
  }
  return {};
}

// "./out/" -> "out": destinations and the staging directory are derived from this spelling.
std::string normalized_directory(const std::string& path) {
  std::string text = fs::path(path).lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') {
    text.pop_back();
  }
  return text;
}

tl::expected<void, IoError> plan_directory(const HipifyRun& run, const OutputOptions& options,
                                           OutputPlan& plan) {
  const std::string& directory = plan.directory;
  std::error_code error;
  const fs::file_status status = fs::status(directory, error);
  if (fs::exists(status) && !fs::is_directory(status)) {
    return tl::unexpected(IoError{directory, "exists and is not a directory"});
  }
  const fs::path output = resolved(directory);
  for (const InputRoot& root : run.roots) {
    const fs::path input = resolved(root.path);
    if (root.directory && is_within(output, input)) {
      return tl::unexpected(
          IoError{directory, "the output directory is inside the input '" + root.path + "'"});
    }
    if (is_within(input, output)) {
      return tl::unexpected(
          IoError{root.path, "the input is inside the output directory '" + directory + "'"});
    }
  }
  if (fs::exists(status)) {
    const bool empty = fs::is_empty(directory, error);
    if (error) {
      return tl::unexpected(error_from(directory, error));
    }
    if (!empty && !options.force) {
      return tl::unexpected(
          IoError{directory, "the output directory is not empty (use --force to write into it)"});
    }
    plan.staged = empty;
  } else {
    plan.staged = true;
  }
  // One directory input is mirrored as DIR itself; with several, each goes under its own name.
  const bool single_directory = run.roots.size() == 1 && run.roots[0].directory;
  std::map<std::string, std::size_t> taken;
  for (std::size_t i = 0; i < run.files.size(); ++i) {
    const FileOutcome& file = run.files[i];
    if (file.action == FileAction::Skip) {
      continue;
    }
    const InputRoot& root = run.roots[file.root];
    fs::path destination(directory);
    if (root.directory && !single_directory) {
      destination /= resolved(root.path).filename();
    }
    destination /= renamed_path(file, options.rename);
    const std::string path = destination.lexically_normal().string();
    const auto [it, inserted] = taken.emplace(path, i);
    if (!inserted) {
      return tl::unexpected(IoError{path, "two files would be written here: '" +
                                              run.files[it->second].display + "' and '" +
                                              file.display + "'"});
    }
    plan.destinations[i] = path;
  }
  return {};
}

bool same_bytes(const std::string& a, const std::string& b) {
  std::ifstream left(a, std::ios::binary);
  std::ifstream right(b, std::ios::binary);
  if (!left || !right) {
    return false;
  }
  return std::equal(std::istreambuf_iterator<char>(left), std::istreambuf_iterator<char>(),
                    std::istreambuf_iterator<char>(right), std::istreambuf_iterator<char>());
}

// Where the original of `path` is kept: FILE.cuda.orig, or under --force when that exists the
// next free FILE.cuda.orig.N, so that no run ever replaces an earlier original. "" when an
// existing backup already holds the file's bytes (the same original, hipified again).
tl::expected<std::string, IoError> backup_for(const std::string& path, bool force) {
  const std::string first = path + std::string(k_backup_suffix);
  if (!exists(first)) {
    return first;
  }
  if (!force) {
    return tl::unexpected(
        IoError{first,
                "backup already exists (from an earlier run?); use --force to keep it and "
                "back this original up as the next FILE.cuda.orig.N"});
  }
  std::string candidate = first;
  for (int number = 2;; ++number) {
    if (same_bytes(path, candidate)) {
      return std::string();
    }
    candidate = first + "." + std::to_string(number);
    if (!exists(candidate)) {
      return candidate;
    }
  }
}

// The input roots as real paths: an in-place write must land inside one of them.
tl::expected<std::vector<fs::path>, IoError> real_roots(const HipifyRun& run) {
  std::vector<fs::path> roots;
  for (const InputRoot& root : run.roots) {
    std::error_code error;
    roots.push_back(fs::canonical(root.path, error));
    if (error) {
      return tl::unexpected(error_from(root.path, error));
    }
  }
  return roots;
}

tl::expected<void, IoError> plan_in_place(const HipifyRun& run, const OutputOptions& options,
                                          OutputPlan& plan) {
  const auto roots = real_roots(run);
  if (!roots) {
    return tl::unexpected(roots.error());
  }
  plan.originals.assign(run.files.size(), std::string());
  plan.backups.assign(run.files.size(), std::string());
  std::set<std::pair<std::uint64_t, std::uint64_t>> written;  // (device, inode)
  for (std::size_t i = 0; i < run.files.size(); ++i) {
    const FileOutcome& file = run.files[i];
    const bool renamed = renames(file, options.rename);
    if (!file.changed && !renamed) {
      continue;
    }
    std::error_code error;
    const fs::path real = fs::canonical(file.disk_path, error);
    struct stat st {};
    if (error || ::stat(real.c_str(), &st) != 0) {
      return tl::unexpected(
          IoError{file.disk_path, error ? error.message() : std::strerror(errno)});
    }
    if (!written.emplace(st.st_dev, st.st_ino).second) {
      continue;  // the same file reached again through a link: rewritten once, backed up once
    }
    const bool inside = std::any_of(roots->begin(), roots->end(), [&](const fs::path& root) {
      return root == real || is_within(real, root);
    });
    if (!inside) {
      return tl::unexpected(
          IoError{file.disk_path, "is a link to '" + real.string() +
                                      "', outside every input; --in-place writes only inside "
                                      "the inputs it is given"});
    }
    // A link is never replaced by a file: the file it names is rewritten (paths through a
    // linked directory already lead there).
    const bool link = fs::is_symlink(file.disk_path, error);
    if (link && renamed) {
      return tl::unexpected(
          IoError{file.disk_path,
                  "is a symbolic link; --rename would leave it dangling (name the file "
                  "it points to)"});
    }
    const std::string original = link ? real.string() : file.disk_path;
    auto backup = backup_for(original, options.force);
    if (!backup) {
      return tl::unexpected(backup.error());
    }
    const std::string destination = renamed ? with_cu_renamed(original) : original;
    if (renamed && !options.force && exists(destination)) {
      return tl::unexpected(IoError{destination, "already exists; use --force to replace it"});
    }
    plan.destinations[i] = destination;
    plan.originals[i] = original;
    plan.backups[i] = std::move(*backup);
  }
  return {};
}

// A new file in a staged tree: created and written in one go. No temporary file and no fsync
// per file: the tree appears all at once when its directory is renamed into place, and it is
// regenerable output, like a report (the user's own files, --in-place, are synced). A
// temporary, an fsync and a rename per file made `hipify -o` 1.9 times `cp -r`; a syncfs
// before the rename waited for every other writer of the file system.
tl::expected<void, IoError> write_new_file(const std::string& target, std::string_view bytes) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    return tl::unexpected(IoError{target, std::strerror(errno)});
  }
  if (!write_all(fd, bytes)) {
    const int error = errno;
    ::close(fd);
    ::unlink(target.c_str());
    return tl::unexpected(IoError{target, std::strerror(error)});
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(target.c_str());
    return tl::unexpected(IoError{target, std::strerror(error)});
  }
  return {};
}

tl::expected<void, IoError> write_one(const FileOutcome& file, const std::string& target,
                                      bool fresh, std::string& made_directory) {
  std::error_code error;
  // Files come sorted by path: the directory of the one before is most often this one's.
  const std::string parent = fs::path(target).parent_path().string();
  if (parent != made_directory) {
    fs::create_directories(parent, error);
    if (error) {
      return tl::unexpected(error_from(parent, error));
    }
    made_directory = parent;
  }
  if (file.action == FileAction::Symlink) {
    const fs::path link = fs::read_symlink(file.disk_path, error);
    if (!error && !fresh) {
      fs::remove(target, error);
    }
    if (!error) {
      fs::create_symlink(link, target, error);
    }
    return error ? tl::expected<void, IoError>(tl::unexpected(error_from(target, error)))
                 : tl::expected<void, IoError>();
  }
  if (file.changed) {
    return fresh ? write_new_file(target, file.output) : write_file_atomically(target, file.output);
  }
  if (fresh) {
    return copy_new_file(file.disk_path, target);
  }
  return copy_atomically(file.disk_path, target);
}

tl::expected<void, IoError> write_directory(const HipifyRun& run, const OutputPlan& plan) {
  std::string root = plan.directory;
  if (plan.staged) {
    const fs::path final_path = fs::path(plan.directory).lexically_normal();
    fs::path parent = final_path.parent_path();
    if (parent.empty()) {
      parent = ".";
    }
    std::error_code error;
    fs::create_directories(parent, error);
    if (error) {
      return tl::unexpected(error_from(parent.string(), error));
    }
    std::string staging_name(1, '.');
    staging_name += final_path.filename().string();
    staging_name += ".gpuport-XXXXXX";
    std::string pattern = (parent / staging_name).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return tl::unexpected(IoError{plan.directory, std::strerror(errno)});
    }
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::chmod(pattern.c_str(), 0777 & ~mask);  // mkdtemp makes it private; DIR should not be
    root = pattern;
  }
  auto abandon = [&](IoError failure) -> tl::expected<void, IoError> {
    if (plan.staged) {
      std::error_code ignored;
      fs::remove_all(root, ignored);
    }
    return tl::unexpected(std::move(failure));
  };
  std::string made_directory;
  for (std::size_t i = 0; i < run.files.size(); ++i) {
    if (plan.destinations[i].empty()) {
      continue;
    }
    const fs::path relative = fs::path(plan.destinations[i]).lexically_relative(plan.directory);
    const std::string target = (fs::path(root) / relative).string();
    if (auto written = write_one(run.files[i], target, plan.staged, made_directory); !written) {
      IoError failure = written.error();
      if (failure.path == target) {
        failure.path = plan.destinations[i];
      }
      return abandon(std::move(failure));
    }
  }
  if (plan.staged && ::rename(root.c_str(), plan.directory.c_str()) != 0) {
    return abandon(IoError{plan.directory, std::strerror(errno)});
  }
  return {};
}

tl::expected<void, IoError> write_in_place(const HipifyRun& run, const OutputPlan& plan) {
  for (std::size_t i = 0; i < run.files.size(); ++i) {
    const std::string& destination = plan.destinations[i];
    if (destination.empty()) {
      continue;
    }
    const FileOutcome& file = run.files[i];
    const std::string& original = plan.originals[i];
    if (!plan.backups[i].empty()) {
      if (auto backup = copy_atomically(original, plan.backups[i]); !backup) {
        return backup;
      }
    }
    auto written = file.changed ? write_file_atomically(destination, file.output)
                                : copy_atomically(original, destination);
    if (!written) {
      return written;
    }
    if (destination != original) {
      std::error_code error;
      fs::remove(original, error);
      if (error) {
        return tl::unexpected(error_from(original, error));
      }
    }
  }
  return {};
}

}  // namespace

std::string renamed_path(const FileOutcome& file, bool rename) {
  return renames(file, rename) ? with_cu_renamed(file.relative) : file.relative;
}

tl::expected<OutputPlan, IoError> plan_output(const HipifyRun& run, const OutputOptions& options) {
  OutputPlan plan;
  plan.mode = options.mode;
  plan.directory = options.mode == OutputMode::Directory ? normalized_directory(options.directory)
                                                         : options.directory;
  plan.destinations.assign(run.files.size(), std::string());
  tl::expected<void, IoError> checked;
  if (options.mode == OutputMode::Directory) {
    checked = plan_directory(run, options, plan);
  } else if (options.mode == OutputMode::InPlace) {
    checked = plan_in_place(run, options, plan);
  }
  if (!checked) {
    return tl::unexpected(checked.error());
  }
  return plan;
}

tl::expected<void, IoError> write_output(const HipifyRun& run, const OutputPlan& plan) {
  switch (plan.mode) {
    case OutputMode::Directory:
      return write_directory(run, plan);
    case OutputMode::InPlace:
      return write_in_place(run, plan);
    case OutputMode::Stdout:
    case OutputMode::DryRun:
      break;
  }
  return {};
}

}  // namespace gpuport
