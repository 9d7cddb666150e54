// The small interface every file access goes through, so tests can build trees in memory.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tl/expected.hpp>

namespace gpuport {

enum class EntryType : std::uint8_t { File, Directory, Symlink, Other };

struct DirEntry {
  std::string name;
  EntryType type = EntryType::Other;  // as lstat sees it
};

struct FileStatus {
  EntryType type = EntryType::Other;
  std::uint64_t size = 0;
  std::uint64_t device = 0;  // device and inode identify a directory for loop detection
  std::uint64_t inode = 0;
};

struct IoError {
  std::string path;
  std::string message;  // strerror-style: "Permission denied", "No such file or directory"
};

// A heap buffer that one thread reads file after file into. Its pages stay mapped between files,
// so a scan of thousands of files faults them in once instead of once per file (a fresh buffer
// or mapping per file also costs an munmap, which flushes the TLB of every core).
class ReadBuffer {
 public:
  char* data() { return m_bytes.get(); }
  std::size_t capacity() const { return m_capacity; }
  // Room for at least `size` bytes, keeping the first `keep` bytes held now.
  char* grow(std::size_t size, std::size_t keep);
  // Hands over the bytes and leaves the buffer empty.
  std::unique_ptr<char[]> release();

 private:
  std::unique_ptr<char[]> m_bytes;
  std::size_t m_capacity = 0;
};

// Bytes of one file: a heap buffer, or a view of a ReadBuffer. Move-only.
class FileContents {
 public:
  FileContents() = default;
  // Bytes held elsewhere (a ReadBuffer), valid until that memory is reused.
  static FileContents borrowed(std::string_view bytes);
  static FileContents from_string(std::string bytes);
  // The first `size` bytes of `bytes` (a buffer read() filled without zeroing it first).
  static FileContents from_buffer(std::unique_ptr<char[]> bytes, std::size_t size);
  FileContents(FileContents&& other) noexcept;
  FileContents& operator=(FileContents&& other) noexcept;
  FileContents(const FileContents&) = delete;
  FileContents& operator=(const FileContents&) = delete;
  ~FileContents();

  std::string_view bytes() const { return m_view; }

  // A regular file over the size limit given to FileSystem::read: no bytes, only its size.
  static FileContents over_limit(std::uint64_t size);
  bool is_over_limit() const { return m_over_limit; }
  std::uint64_t size_over_limit() const { return m_over_limit_size; }

 private:
  void release();
  std::string m_buffer;
  std::unique_ptr<char[]> m_heap;
  std::string_view m_view;
  bool m_borrowed = false;  // m_view points into memory someone else owns
  bool m_over_limit = false;
  std::uint64_t m_over_limit_size = 0;
};

inline constexpr std::uint64_t k_no_size_limit = UINT64_MAX;

// An open directory, closed with the handle. The walker keeps the directory it lists open while
// it hands the directory's files on, so that each file is opened by its name in the directory
// (FileSystem::read_entry) and the kernel does not look up every component of its path again.
class DirectoryHandle {
 public:
  DirectoryHandle() = default;
  explicit DirectoryHandle(int fd) : m_fd(fd) {}
  DirectoryHandle(DirectoryHandle&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
  DirectoryHandle& operator=(DirectoryHandle&& other) noexcept;
  DirectoryHandle(const DirectoryHandle&) = delete;
  DirectoryHandle& operator=(const DirectoryHandle&) = delete;
  ~DirectoryHandle();

  int fd() const { return m_fd; }  // -1: none (a file system without descriptors)

 private:
  int m_fd = -1;
};

struct DirectoryListing {
  std::vector<DirEntry> entries;
  DirectoryHandle handle;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  virtual tl::expected<std::vector<DirEntry>, IoError> list_directory(
      const std::string& path) const = 0;
  // follow == false behaves like lstat.
  virtual tl::expected<FileStatus, IoError> status(const std::string& path, bool follow) const = 0;
  // The bytes of a file. A regular file over `max_size` bytes is not read: the result is then
  // FileContents::over_limit(its size), so a size limit bounds memory even where the walker
  // did not stat the file.
  virtual tl::expected<FileContents, IoError> read(const std::string& path,
                                                   std::uint64_t max_size) const = 0;
  tl::expected<FileContents, IoError> read(const std::string& path) const {
    return read(path, k_no_size_limit);
  }
  // Like read(path, max_size), but the bytes may be read into `reuse` instead of memory of
  // their own: the result is then valid until the next read into `reuse`.
  virtual tl::expected<FileContents, IoError> read(const std::string& path, std::uint64_t max_size,
                                                   ReadBuffer& reuse) const {
    (void)reuse;
    return read(path, max_size);
  }
  // list_directory, plus an open handle of the directory where the file system has one.
  virtual tl::expected<DirectoryListing, IoError> list_directory_open(
      const std::string& path) const {
    auto entries = list_directory(path);
    if (!entries) {
      return tl::unexpected(entries.error());
    }
    return DirectoryListing{std::move(*entries), DirectoryHandle()};
  }
  // An open handle of a directory, for read_entry; none (fd -1) where the file system has no
  // descriptors or the directory cannot be opened (read_entry then opens files by path).
  virtual DirectoryHandle open_directory(const std::string& path) const {
    (void)path;
    return DirectoryHandle();
  }
  // Like read(path, max_size, reuse). `directory_fd`, unless -1, is the open directory that
  // holds the file (DirectoryHandle::fd() of its listing): the file is then opened by its name
  // (the part of `path` after the last '/') in that directory. Errors still name `path`.
  virtual tl::expected<FileContents, IoError> read_entry(int directory_fd, const std::string& path,
                                                         std::uint64_t max_size,
                                                         ReadBuffer& reuse) const {
    (void)directory_fd;
    return read(path, max_size, reuse);
  }
  // The first `bytes` bytes of a file (all of it when shorter), whatever its size: what a
  // format check needs of a file too large to read (a TensorRT engine). `directory_fd` as in
  // read_entry.
  virtual tl::expected<std::string, IoError> read_head(int directory_fd, const std::string& path,
                                                       std::size_t bytes) const {
    (void)directory_fd;
    auto contents = read(path);
    if (!contents) {
      return tl::unexpected(contents.error());
    }
    return std::string(contents->bytes().substr(0, bytes));
  }
};

// The real disk: opendir/lstat/stat; read() maps files above a small size, the ReadBuffer
// overload reads every file into the buffer.
class DiskFileSystem final : public FileSystem {
 public:
  tl::expected<std::vector<DirEntry>, IoError> list_directory(
      const std::string& path) const override;
  tl::expected<FileStatus, IoError> status(const std::string& path, bool follow) const override;
  using FileSystem::read;
  tl::expected<FileContents, IoError> read(const std::string& path,
                                           std::uint64_t max_size) const override;
  tl::expected<FileContents, IoError> read(const std::string& path, std::uint64_t max_size,
                                           ReadBuffer& reuse) const override;
  // Reads the entries with getdents64 on a descriptor it keeps open for the handle.
  tl::expected<DirectoryListing, IoError> list_directory_open(
      const std::string& path) const override;
  DirectoryHandle open_directory(const std::string& path) const override;
  tl::expected<FileContents, IoError> read_entry(int directory_fd, const std::string& path,
                                                 std::uint64_t max_size,
                                                 ReadBuffer& reuse) const override;
  tl::expected<std::string, IoError> read_head(int directory_fd, const std::string& path,
                                               std::size_t bytes) const override;
};

// A tree in memory for tests. Paths use '/', e.g. "repo/src/a.cu".
class MemoryFileSystem final : public FileSystem {
 public:
  void add_file(const std::string& path, std::string contents);
  void add_directory(const std::string& path);
  void add_symlink(const std::string& path, const std::string& target);
  void make_unreadable(const std::string& path);

  tl::expected<std::vector<DirEntry>, IoError> list_directory(
      const std::string& path) const override;
  tl::expected<FileStatus, IoError> status(const std::string& path, bool follow) const override;
  using FileSystem::read;
  tl::expected<FileContents, IoError> read(const std::string& path,
                                           std::uint64_t max_size) const override;

 private:
  struct Node {
    EntryType type = EntryType::Directory;
    std::string contents;  // file bytes or symlink target
    bool unreadable = false;
    std::uint64_t inode = 0;
  };
  std::string resolve(const std::string& path, int depth) const;
  std::map<std::string, Node> m_nodes;
  std::uint64_t m_next_inode = 1;
};

}  // namespace gpuport
