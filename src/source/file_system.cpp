// The disk and in-memory implementations of FileSystem, and the FileContents byte holder.
#include "source/file_system.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>

namespace gpuport {
namespace {

// Files at least this large are mapped instead of read into a heap buffer.
// How many symlinks one memory path lookup may pass through (like Linux's MAXSYMLINKS).
constexpr int k_max_symlink_depth = 40;

IoError error_from_errno(const std::string& path, int error) {
  return IoError{path, std::strerror(error)};
}

EntryType type_from_mode(mode_t mode) {
  if (S_ISREG(mode)) {
    return EntryType::File;
  }
  if (S_ISDIR(mode)) {
    return EntryType::Directory;
  }
  if (S_ISLNK(mode)) {
    return EntryType::Symlink;
  }
  return EntryType::Other;
}

// Closes a descriptor on every return path.
class FdGuard {
 public:
  explicit FdGuard(int fd) : m_fd(fd) {}
  FdGuard(const FdGuard&) = delete;
  FdGuard& operator=(const FdGuard&) = delete;
  ~FdGuard() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  int get() const { return m_fd; }

 private:
  int m_fd;
};

// Reads until end of file into `buffer`, or for a regular file (`known_size`) until its size as
// fstat gave it, which saves the read() that would only return 0. `expected_size` sizes the
// buffer. Returns the byte count.
tl::expected<std::size_t, int> read_all(int fd, std::size_t expected_size, bool known_size,
                                        ReadBuffer& buffer) {
  if (buffer.capacity() < expected_size + 1) {
    buffer.grow(expected_size + 1, 0);
  }
  std::size_t used = 0;
  for (;;) {
    if (used == buffer.capacity()) {
      buffer.grow(buffer.capacity() * 2 + 4096, used);
    }
    const ssize_t got = ::read(fd, buffer.data() + used, buffer.capacity() - used);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      return tl::unexpected(errno);
    }
    if (got == 0) {
      break;
    }
    used += static_cast<std::size_t>(got);
    if (known_size && used == expected_size) {
      break;
    }
  }
  return used;
}

// The last component of `path`, as a C string inside it.
const char* entry_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return path.c_str() + (slash == std::string::npos ? 0 : slash + 1);
}

// What both disk reads do around reading: open, fstat, refuse a directory, apply the size
// limit, then `read_open(fd, st)` and close.
template <typename ReadOpen>
tl::expected<FileContents, IoError> read_file(const std::string& path, std::uint64_t max_size,
                                              ReadOpen read_open, int directory_fd = -1) {
  constexpr int k_flags = O_RDONLY | O_CLOEXEC | O_NOCTTY;
  const FdGuard fd(directory_fd >= 0 ? ::openat(directory_fd, entry_name(path), k_flags)
                                     : ::open(path.c_str(), k_flags));
  if (fd.get() < 0) {
    return tl::unexpected(error_from_errno(path, errno));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return tl::unexpected(error_from_errno(path, errno));
  }
  if (S_ISDIR(st.st_mode)) {
    return tl::unexpected(error_from_errno(path, EISDIR));
  }
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max_size) {
    return FileContents::over_limit(static_cast<std::uint64_t>(st.st_size));
  }
  return read_open(fd.get(), st);
}

// Splits "a//b/./c/" into its components.
std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) {
      end = path.size();
    }
    const std::string_view part = path.substr(start, end - start);
    if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  return parts;
}

std::string join_parts(const std::vector<std::string_view>& parts, std::size_t count) {
  std::string joined;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) {
      joined += '/';
    }
    joined += parts[i];
  }
  return joined;
}

std::string normalize(std::string_view path) {
  const std::vector<std::string_view> parts = split_path(path);
  return join_parts(parts, parts.size());
}

enum class FollowLast : std::uint8_t { Yes, No };

struct Resolved {
  std::string path;  // canonical key in the node map; "" is the memory root
  int error = 0;     // ENOENT, ENOTDIR or ELOOP when the lookup failed
};

// Walks `path` one component at a time, replacing symlinks by their targets. Relative targets are
// resolved against the link's directory, absolute ones against the memory root.
template <typename Nodes>
Resolved resolve_in(const Nodes& nodes, std::string_view path, FollowLast follow_last,
                    int& budget) {
  std::vector<std::string> pending;  // components still to walk, in reverse order
  const std::vector<std::string_view> parts = split_path(path);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    pending.emplace_back(*it);
  }
  std::vector<std::string> done;  // components of the resolved prefix
  while (!pending.empty()) {
    std::string part = std::move(pending.back());
    pending.pop_back();
    if (part == "..") {
      if (!done.empty()) {
        done.pop_back();
      }
      continue;
    }
    std::string candidate;
    for (const std::string& d : done) {
      candidate += d;
      candidate += '/';
    }
    candidate += part;
    const auto found = nodes.find(candidate);
    if (found == nodes.end()) {
      return Resolved{{}, ENOENT};
    }
    const bool last = pending.empty();
    if (found->second.type == EntryType::Symlink && (!last || follow_last == FollowLast::Yes)) {
      if (--budget < 0) {
        return Resolved{{}, ELOOP};
      }
      const std::string& target = found->second.contents;
      if (!target.empty() && target.front() == '/') {
        done.clear();
      }
      const std::vector<std::string_view> target_parts = split_path(target);
      for (auto it = target_parts.rbegin(); it != target_parts.rend(); ++it) {
        pending.emplace_back(*it);
      }
      continue;
    }
    if (!last && found->second.type != EntryType::Directory) {
      return Resolved{{}, ENOTDIR};
    }
    done.push_back(std::move(part));
  }
  std::string joined;
  for (const std::string& d : done) {
    if (!joined.empty()) {
      joined += '/';
    }
    joined += d;
  }
  return Resolved{std::move(joined), 0};
}

}  // namespace

// ---- FileContents ---------------------------------------------------------------------------

char* ReadBuffer::grow(std::size_t size, std::size_t keep) {
  // Not zeroed (make_unique would): read() overwrites it.
  auto larger = std::make_unique_for_overwrite<char[]>(size);
  if (keep > 0) {
    std::memcpy(larger.get(), m_bytes.get(), keep);
  }
  m_bytes = std::move(larger);
  m_capacity = size;
  return m_bytes.get();
}

std::unique_ptr<char[]> ReadBuffer::release() {
  m_capacity = 0;
  return std::move(m_bytes);
}

FileContents FileContents::borrowed(std::string_view bytes) {
  FileContents contents;
  contents.m_view = bytes;
  contents.m_borrowed = true;
  return contents;
}

FileContents FileContents::from_string(std::string bytes) {
  FileContents contents;
  contents.m_buffer = std::move(bytes);
  contents.m_view = contents.m_buffer;
  return contents;
}

FileContents FileContents::from_buffer(std::unique_ptr<char[]> bytes, std::size_t size) {
  FileContents contents;
  contents.m_heap = std::move(bytes);
  contents.m_view = std::string_view(contents.m_heap.get(), size);
  return contents;
}

FileContents FileContents::over_limit(std::uint64_t size) {
  FileContents contents;
  contents.m_over_limit = true;
  contents.m_over_limit_size = size;
  return contents;
}

FileContents::FileContents(FileContents&& other) noexcept {
  *this = std::move(other);
}

FileContents& FileContents::operator=(FileContents&& other) noexcept {
  if (this == &other) {
    return *this;
  }
  release();
  m_buffer = std::move(other.m_buffer);
  m_heap = std::move(other.m_heap);
  m_borrowed = std::exchange(other.m_borrowed, false);
  // A moved std::string may live in its small buffer, so that view is rebuilt, never copied.
  if (m_heap != nullptr || m_borrowed) {
    m_view = other.m_view;  // the bytes did not move
  } else {
    m_view = std::string_view(m_buffer);
  }
  m_over_limit = std::exchange(other.m_over_limit, false);
  m_over_limit_size = std::exchange(other.m_over_limit_size, 0);
  other.m_buffer.clear();
  other.m_view = {};
  return *this;
}

FileContents::~FileContents() {
  release();
}

void FileContents::release() {
  m_buffer.clear();
  m_heap.reset();
  m_borrowed = false;
  m_view = {};
}

// ---- DiskFileSystem -------------------------------------------------------------------------

tl::expected<std::vector<DirEntry>, IoError> DiskFileSystem::list_directory(
    const std::string& path) const {
  auto listing = list_directory_open(path);
  if (!listing) {
    return tl::unexpected(listing.error());
  }
  return std::move(listing->entries);
}

DirectoryHandle DiskFileSystem::open_directory(const std::string& path) const {
  // O_PATH: the descriptor only anchors openat, nothing is read through it.
  return DirectoryHandle(::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
}

tl::expected<DirectoryListing, IoError> DiskFileSystem::list_directory_open(
    const std::string& path) const {
  DirectoryListing listing;
  listing.handle = DirectoryHandle(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  const int fd = listing.handle.fd();
  if (fd < 0) {
    return tl::unexpected(error_from_errno(path, errno));
  }
  // getdents64 on the descriptor, not opendir: readdir's DIR owns (and closes) its descriptor,
  // and opendir adds an fstat per directory.
  alignas(struct dirent64) char buffer[32 * 1024];
  for (;;) {
    const ssize_t got = ::getdents64(fd, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      return tl::unexpected(error_from_errno(path, errno));
    }
    if (got == 0) {
      break;
    }
    for (ssize_t at = 0; at < got;) {
      const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + at);
      at += entry->d_reclen;
      const std::string_view name = entry->d_name;
      if (name == "." || name == "..") {
        continue;
      }
      DirEntry out;
      out.name = std::string(name);
      switch (entry->d_type) {
        case DT_REG:
          out.type = EntryType::File;
          break;
        case DT_DIR:
          out.type = EntryType::Directory;
          break;
        case DT_LNK:
          out.type = EntryType::Symlink;
          break;
        case DT_UNKNOWN: {
          struct stat st {};
          if (::fstatat(fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
            out.type = type_from_mode(st.st_mode);
          }
          break;
        }
        default:
          out.type = EntryType::Other;
          break;
      }
      listing.entries.push_back(std::move(out));
    }
  }
  return listing;
}

tl::expected<FileStatus, IoError> DiskFileSystem::status(const std::string& path,
                                                         bool follow) const {
  struct stat st {};
  const int rc = follow ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st);
  if (rc != 0) {
    return tl::unexpected(error_from_errno(path, errno));
  }
  FileStatus status;
  status.type = type_from_mode(st.st_mode);
  status.size = static_cast<std::uint64_t>(st.st_size);
  status.device = static_cast<std::uint64_t>(st.st_dev);
  status.inode = static_cast<std::uint64_t>(st.st_ino);
  return status;
}

tl::expected<FileContents, IoError> DiskFileSystem::read(const std::string& path,
                                                         std::uint64_t max_size) const {
  return read_file(path, max_size,
                   [&](int fd, const struct stat& st) -> tl::expected<FileContents, IoError> {
                     // Read, never mapped: a file truncated while it is read gives fewer
                     // bytes, where a mapping gave SIGBUS (hipify and the audit's dry run
                     // read files other processes may be writing).
                     const bool regular = S_ISREG(st.st_mode);
                     const auto size = static_cast<std::size_t>(st.st_size);
                     ReadBuffer buffer;
                     auto got = read_all(fd, regular ? size : 0, regular, buffer);
                     if (!got) {
                       return tl::unexpected(error_from_errno(path, got.error()));
                     }
                     return FileContents::from_buffer(buffer.release(), *got);
                   });
}

tl::expected<FileContents, IoError> DiskFileSystem::read(const std::string& path,
                                                         std::uint64_t max_size,
                                                         ReadBuffer& reuse) const {
  return read_entry(-1, path, max_size, reuse);
}

tl::expected<FileContents, IoError> DiskFileSystem::read_entry(int directory_fd,
                                                               const std::string& path,
                                                               std::uint64_t max_size,
                                                               ReadBuffer& reuse) const {
  return read_file(
      path, max_size,
      [&](int fd, const struct stat& st) -> tl::expected<FileContents, IoError> {
        const bool regular = S_ISREG(st.st_mode);
        auto got = read_all(fd, regular ? static_cast<std::size_t>(st.st_size) : 0, regular, reuse);
        if (!got) {
          return tl::unexpected(error_from_errno(path, got.error()));
        }
        return FileContents::borrowed(std::string_view(reuse.data(), *got));
      },
      directory_fd);
}

tl::expected<std::string, IoError> DiskFileSystem::read_head(int directory_fd,
                                                             const std::string& path,
                                                             std::size_t bytes) const {
  std::string head;
  auto got = read_file(
      path, k_no_size_limit,
      [&](int fd, const struct stat&) -> tl::expected<FileContents, IoError> {
        head.resize(bytes);
        std::size_t done = 0;
        while (done < bytes) {
          const ssize_t n = ::read(fd, head.data() + done, bytes - done);
          if (n < 0 && errno == EINTR) {
            continue;
          }
          if (n < 0) {
            return tl::unexpected(error_from_errno(path, errno));
          }
          if (n == 0) {
            break;
          }
          done += static_cast<std::size_t>(n);
        }
        head.resize(done);
        return FileContents::borrowed({});
      },
      directory_fd);
  if (!got) {
    return tl::unexpected(got.error());
  }
  return head;
}

DirectoryHandle& DirectoryHandle::operator=(DirectoryHandle&& other) noexcept {
  if (this != &other) {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
    m_fd = std::exchange(other.m_fd, -1);
  }
  return *this;
}

DirectoryHandle::~DirectoryHandle() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

// ---- MemoryFileSystem -----------------------------------------------------------------------

void MemoryFileSystem::add_directory(const std::string& path) {
  const std::vector<std::string_view> parts = split_path(path);
  for (std::size_t i = 1; i <= parts.size(); ++i) {
    const std::string prefix = join_parts(parts, i);
    auto [it, inserted] = m_nodes.try_emplace(prefix);
    if (inserted) {
      it->second.type = EntryType::Directory;
      it->second.inode = m_next_inode++;
    }
  }
}

void MemoryFileSystem::add_file(const std::string& path, std::string contents) {
  const std::vector<std::string_view> parts = split_path(path);
  if (parts.empty()) {
    return;
  }
  add_directory(join_parts(parts, parts.size() - 1));
  Node& node = m_nodes[join_parts(parts, parts.size())];
  node.type = EntryType::File;
  node.contents = std::move(contents);
  node.inode = m_next_inode++;
}

void MemoryFileSystem::add_symlink(const std::string& path, const std::string& target) {
  const std::vector<std::string_view> parts = split_path(path);
  if (parts.empty()) {
    return;
  }
  add_directory(join_parts(parts, parts.size() - 1));
  Node& node = m_nodes[join_parts(parts, parts.size())];
  node.type = EntryType::Symlink;
  node.contents = target;
  node.inode = m_next_inode++;
}

void MemoryFileSystem::make_unreadable(const std::string& path) {
  const auto found = m_nodes.find(normalize(path));
  if (found != m_nodes.end()) {
    found->second.unreadable = true;
  }
}

std::string MemoryFileSystem::resolve(const std::string& path, int depth) const {
  int budget = depth;
  return resolve_in(m_nodes, path, FollowLast::Yes, budget).path;
}

tl::expected<std::vector<DirEntry>, IoError> MemoryFileSystem::list_directory(
    const std::string& path) const {
  int budget = k_max_symlink_depth;
  const Resolved resolved = resolve_in(m_nodes, path, FollowLast::Yes, budget);
  if (resolved.error != 0) {
    return tl::unexpected(error_from_errno(path, resolved.error));
  }
  if (!resolved.path.empty()) {
    const auto found = m_nodes.find(resolved.path);
    if (found->second.type != EntryType::Directory) {
      return tl::unexpected(error_from_errno(path, ENOTDIR));
    }
    if (found->second.unreadable) {
      return tl::unexpected(error_from_errno(path, EACCES));
    }
  }
  const std::string prefix = resolved.path.empty() ? std::string() : resolved.path + "/";
  std::vector<DirEntry> entries;
  for (auto it = m_nodes.lower_bound(prefix); it != m_nodes.end(); ++it) {
    const std::string& key = it->first;
    if (key.compare(0, prefix.size(), prefix) != 0) {
      break;
    }
    const std::string_view rest = std::string_view(key).substr(prefix.size());
    if (rest.empty() || rest.find('/') != std::string_view::npos) {
      continue;
    }
    entries.push_back(DirEntry{std::string(rest), it->second.type});
  }
  return entries;
}

tl::expected<FileStatus, IoError> MemoryFileSystem::status(const std::string& path,
                                                           bool follow) const {
  int budget = k_max_symlink_depth;
  const Resolved resolved =
      resolve_in(m_nodes, path, follow ? FollowLast::Yes : FollowLast::No, budget);
  if (resolved.error != 0) {
    return tl::unexpected(error_from_errno(path, resolved.error));
  }
  FileStatus status;
  status.device = 1;
  if (resolved.path.empty()) {
    status.type = EntryType::Directory;  // the memory root
    return status;
  }
  const Node& node = m_nodes.find(resolved.path)->second;
  status.type = node.type;
  status.size = node.type == EntryType::Directory ? 0 : node.contents.size();
  status.inode = node.inode;
  return status;
}

tl::expected<FileContents, IoError> MemoryFileSystem::read(const std::string& path,
                                                           std::uint64_t max_size) const {
  int budget = k_max_symlink_depth;
  const Resolved resolved = resolve_in(m_nodes, path, FollowLast::Yes, budget);
  if (resolved.error != 0) {
    return tl::unexpected(error_from_errno(path, resolved.error));
  }
  if (resolved.path.empty()) {
    return tl::unexpected(error_from_errno(path, EISDIR));
  }
  const Node& node = m_nodes.find(resolved.path)->second;
  if (node.type == EntryType::Directory) {
    return tl::unexpected(error_from_errno(path, EISDIR));
  }
  if (node.unreadable) {
    return tl::unexpected(error_from_errno(path, EACCES));
  }
  if (node.contents.size() > max_size) {
    return FileContents::over_limit(node.contents.size());
  }
  return FileContents::from_string(node.contents);
}

}  // namespace gpuport
