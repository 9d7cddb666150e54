// Parallel tree walk: a shared stack of pending directories drained by worker threads.
#include "source/walker.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "source/ignore_rules.h"

namespace gpuport {
namespace {

// The (device, inode) chain from the root to a directory, for symlink loop detection.
struct Ancestor {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::shared_ptr<const Ancestor> parent;
};

struct PendingDirectory {
  std::string path;       // relative to the root, "" for the root
  std::string disk_path;  // for the FileSystem
  std::shared_ptr<const IgnoreLevel> ignores;
  std::shared_ptr<const Ancestor> ancestors;  // includes this directory
};

std::string join(const std::string& directory, const std::string& name) {
  if (directory.empty()) {
    return name;
  }
  if (directory.back() == '/') {
    return directory + name;
  }
  return directory + "/" + name;
}

bool is_loop_error(const IoError& error) {
  return error.message == std::strerror(ELOOP);
}

class Walk {
 public:
  Walk(const FileSystem& fs, const WalkOptions& options, const WalkCallbacks& callbacks)
      : m_fs(fs), m_options(options), m_callbacks(callbacks) {
    for (const std::string& exclude : options.excludes) {
      m_excludes.add_line(exclude);
    }
  }

  void run(PendingDirectory root, DirectoryListing root_listing) {
    process(std::move(root), std::move(root_listing.entries), root_listing.handle.fd());
    const unsigned jobs = std::max(1u, m_options.jobs);
    if (jobs == 1) {
      work();
    } else {
      std::vector<std::thread> threads;
      threads.reserve(jobs);
      for (unsigned i = 0; i < jobs; ++i) {
        threads.emplace_back([this] { work(); });
      }
      for (std::thread& thread : threads) {
        thread.join();
      }
    }
    if (m_failure) {
      std::rethrow_exception(m_failure);
    }
  }

  // Reports a regular file, or skips it when it is over the size limit (artifacts never are).
  void report_file(std::string path, std::string disk_path, std::uint64_t size, Language language) {
    if (size > m_options.max_file_size && language != Language::Artifact) {
      skip(std::move(path), SkipReason::TooLarge, size, {});
      return;
    }
    if (m_callbacks.on_file) {
      m_callbacks.on_file(DiscoveredFile{std::move(path), std::move(disk_path), size, language});
    }
  }

  WalkSummary summary() const {
    WalkSummary summary;
    summary.directories = m_directories.load();
    summary.ignored = m_ignored.load();
    return summary;
  }

 private:
  void work() {
    for (;;) {
      PendingDirectory next;
      {
        std::unique_lock lock(m_mutex);
        m_wake.wait(lock, [this] { return !m_pending.empty() || m_active == 0 || m_stop; });
        if (m_stop || m_pending.empty()) {
          m_wake.notify_all();
          return;
        }
        next = std::move(m_pending.back());
        m_pending.pop_back();
        ++m_active;
      }
      try {
        auto listing = m_fs.list_directory_open(next.disk_path);
        if (listing) {
          // The handle stays open while process() hands the directory's files on.
          process(std::move(next), std::move(listing->entries), listing->handle.fd());
        } else if (m_callbacks.on_warning) {
          m_callbacks.on_warning(listing.error());
        }
      } catch (...) {
        std::lock_guard lock(m_mutex);
        if (!m_failure) {
          m_failure = std::current_exception();
        }
        m_stop = true;
      }
      std::lock_guard lock(m_mutex);
      --m_active;
      if (m_active == 0 || m_stop) {
        m_wake.notify_all();
      }
    }
  }

  // True when ignore files or --exclude prune `path`.
  bool ignored(const PendingDirectory& directory, const std::string& path, PathKind kind) const {
    const IgnoreMatch excluded = m_excludes.match(path, kind);
    if (excluded != IgnoreMatch::None) {
      return excluded == IgnoreMatch::Ignore;
    }
    return match_ignore_levels(directory.ignores.get(), path, kind) == IgnoreMatch::Ignore;
  }

  // Pushes one more ignore level for `directory` when it holds a non-empty ignore file.
  void load_ignore_file(PendingDirectory& directory, const std::string& name) {
    auto contents = m_fs.read(join(directory.disk_path, name));
    if (!contents) {
      return;  // unreadable or absent ignore files change nothing
    }
    IgnoreRules rules = IgnoreRules::parse(contents->bytes());
    if (rules.empty()) {
      return;
    }
    auto level = std::make_shared<IgnoreLevel>();
    level->rules = std::move(rules);
    level->base = directory.path.empty() ? std::string() : directory.path + "/";
    level->parent = std::move(directory.ignores);
    directory.ignores = std::move(level);
  }

  void skip(std::string path, SkipReason reason, std::uint64_t size, std::string detail) {
    if (m_callbacks.on_skip) {
      m_callbacks.on_skip(SkippedEntry{std::move(path), reason, size, std::move(detail)});
    }
  }

  void process(PendingDirectory directory, std::vector<DirEntry> entries, int directory_fd) {
    ++m_directories;
    std::sort(entries.begin(), entries.end(),
              [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    if (m_options.ignore_files == IgnoreFiles::Honour) {
      if (directory.path.empty()) {
        load_ignore_file(directory, ".git/info/exclude");
      }
      const bool has_ignore_file =
          std::any_of(entries.begin(), entries.end(), [](const DirEntry& entry) {
            return entry.name == ".gitignore" && entry.type != EntryType::Directory;
          });
      if (has_ignore_file) {
        load_ignore_file(directory, ".gitignore");
      }
    }
    std::vector<PendingDirectory> subdirectories;
    for (DirEntry& entry : entries) {
      if (entry.name == ".git") {
        continue;
      }
      std::string path = join(directory.path, entry.name);
      std::string disk_path = join(directory.disk_path, entry.name);
      EntryType type = entry.type;
      const bool is_link = type == EntryType::Symlink;
      if (is_link) {
        if (m_options.symlinks == Symlinks::Skip) {
          if (ignored(directory, path, PathKind::File)) {
            ++m_ignored;
          } else {
            skip(std::move(path), SkipReason::Symlink, 0, {});
          }
          continue;
        }
        const auto target = m_fs.status(disk_path, true);
        if (!target) {
          if (ignored(directory, path, PathKind::File)) {
            ++m_ignored;
          } else if (is_loop_error(target.error())) {
            skip(std::move(path), SkipReason::SymlinkLoop, 0, target.error().message);
          } else {
            skip(std::move(path), SkipReason::Unreadable, 0, target.error().message);
          }
          continue;
        }
        type = target->type;
      }
      const PathKind kind = type == EntryType::Directory ? PathKind::Directory : PathKind::File;
      if (ignored(directory, path, kind)) {
        ++m_ignored;
        continue;
      }
      std::optional<Language> language;  // decided once per file
      if (!is_link && type == EntryType::File && m_options.sizes_from_reader) {
        language = detect_language(path);
        if (*language != Language::Other && *language != Language::Artifact) {
          if (m_callbacks.on_file) {
            m_callbacks.on_file(DiscoveredFile{std::move(path), std::move(disk_path), 0, *language,
                                               false, directory_fd});
          }
          continue;
        }
      }
      const auto status = m_fs.status(disk_path, is_link);
      if (!status) {
        skip(std::move(path), SkipReason::Unreadable, 0, status.error().message);
        continue;
      }
      type = status->type;
      if (type == EntryType::Directory) {
        if (revisits_ancestor(directory.ancestors.get(), *status)) {
          skip(std::move(path), SkipReason::SymlinkLoop, 0, "already visited");
          continue;
        }
        auto ancestor = std::make_shared<Ancestor>();
        ancestor->device = status->device;
        ancestor->inode = status->inode;
        ancestor->parent = directory.ancestors;
        subdirectories.push_back(PendingDirectory{std::move(path), std::move(disk_path),
                                                  directory.ignores, std::move(ancestor)});
      } else if (type == EntryType::File) {
        const Language file_language = language ? *language : detect_language(path);
        report_file(std::move(path), std::move(disk_path), status->size, file_language);
      } else {
        skip(std::move(path), SkipReason::Special, 0, {});
      }
    }
    if (subdirectories.empty()) {
      return;
    }
    std::lock_guard lock(m_mutex);
    // Reverse order so that a single worker pops them in name order.
    for (auto it = subdirectories.rbegin(); it != subdirectories.rend(); ++it) {
      m_pending.push_back(std::move(*it));
    }
    m_wake.notify_all();
  }

  static bool revisits_ancestor(const Ancestor* ancestor, const FileStatus& status) {
    for (; ancestor != nullptr; ancestor = ancestor->parent.get()) {
      if (ancestor->device == status.device && ancestor->inode == status.inode) {
        return true;
      }
    }
    return false;
  }

 private:
  const FileSystem& m_fs;
  const WalkOptions& m_options;
  const WalkCallbacks& m_callbacks;
  IgnoreRules m_excludes;

  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::vector<PendingDirectory> m_pending;  // a stack: depth first keeps it small
  unsigned m_active = 0;
  bool m_stop = false;
  std::exception_ptr m_failure;

  std::atomic<std::uint64_t> m_directories{0};
  std::atomic<std::uint64_t> m_ignored{0};
};

std::string base_name(const std::string& path) {
  std::string_view view = path;
  while (view.size() > 1 && view.back() == '/') {
    view.remove_suffix(1);
  }
  const std::size_t slash = view.rfind('/');
  return std::string(slash == std::string_view::npos ? view : view.substr(slash + 1));
}

}  // namespace

std::string_view skip_reason_name(SkipReason reason) {
  switch (reason) {
    case SkipReason::TooLarge:
      return "too_large";
    case SkipReason::Binary:
      return "binary";
    case SkipReason::Unreadable:
      return "unreadable";
    case SkipReason::SymlinkLoop:
      return "symlink_loop";
    case SkipReason::Symlink:
      return "symlink";
    case SkipReason::Special:
      return "special";
  }
  return "unreadable";
}

tl::expected<WalkSummary, IoError> walk_tree(const FileSystem& fs, const std::string& root,
                                             const WalkOptions& options,
                                             const WalkCallbacks& callbacks) {
  const auto status = fs.status(root, true);
  if (!status) {
    return tl::unexpected(status.error());
  }
  Walk walk(fs, options, callbacks);
  if (status->type == EntryType::File) {
    walk.report_file(base_name(root), root, status->size, detect_language(base_name(root)));
    return walk.summary();
  }
  if (status->type != EntryType::Directory) {
    return tl::unexpected(IoError{root, "not a regular file or directory"});
  }
  auto listing = fs.list_directory_open(root);
  if (!listing) {
    return tl::unexpected(listing.error());
  }
  auto ancestor = std::make_shared<Ancestor>();
  ancestor->device = status->device;
  ancestor->inode = status->inode;
  walk.run(PendingDirectory{std::string(), root, nullptr, std::move(ancestor)},
           std::move(*listing));
  return walk.summary();
}

bool looks_binary(std::string_view first_block) {
  return first_block.find('\0') != std::string_view::npos;
}

}  // namespace gpuport
