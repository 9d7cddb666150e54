// The walk recorded, then replayed folder by folder from worker threads.
#include "source/tree_listing.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string_view>
#include <thread>
#include <utility>

namespace gpuport {
namespace {

std::string_view folder_of(const std::string& disk_path) {
  const std::size_t slash = disk_path.rfind('/');
  return slash == std::string::npos ? std::string_view()
                                    : std::string_view(disk_path).substr(0, slash);
}

// A run of files of one folder, small enough that a large folder does not leave a worker alone
// at the end.
struct Batch {
  std::size_t first = 0;
  std::size_t end = 0;
};

constexpr std::size_t k_batch_files = 32;

std::vector<Batch> batches_of(const std::vector<DiscoveredFile>& files) {
  std::vector<Batch> batches;
  std::size_t first = 0;
  for (std::size_t i = 1; i <= files.size(); ++i) {
    if (i == files.size() || i - first == k_batch_files ||
        folder_of(files[i].disk_path) != folder_of(files[first].disk_path)) {
      batches.push_back({first, i});
      first = i;
    }
  }
  return batches;
}

}  // namespace

tl::expected<TreeListing, IoError> list_tree(
    const FileSystem& fs, const std::string& root, const WalkOptions& options,
    const std::function<void(const DiscoveredFile&)>& on_file) {
  TreeListing listing;
  std::mutex mutex;
  WalkCallbacks callbacks;
  callbacks.on_file = [&](const DiscoveredFile& file) {
    if (on_file) {
      on_file(file);
    }
    DiscoveredFile recorded = file;
    recorded.directory_fd = -1;  // closed once the walk leaves the folder
    std::lock_guard lock(mutex);
    listing.files.push_back(std::move(recorded));
  };
  callbacks.on_skip = [&](const SkippedEntry& entry) {
    std::lock_guard lock(mutex);
    listing.skips.push_back(entry);
  };
  callbacks.on_warning = [&](const IoError& error) {
    std::lock_guard lock(mutex);
    listing.warnings.push_back(error);
  };
  auto walked = walk_tree(fs, root, options, callbacks);
  if (!walked) {
    return tl::unexpected(walked.error());
  }
  listing.summary = *walked;
  // The walk's threads interleave folders; the replay wants each folder's files together.
  std::vector<std::pair<std::string_view, std::uint32_t>> order;
  order.reserve(listing.files.size());
  for (std::size_t i = 0; i < listing.files.size(); ++i) {
    order.emplace_back(folder_of(listing.files[i].disk_path), static_cast<std::uint32_t>(i));
  }
  std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first
               ? a.first < b.first
               : listing.files[a.second].disk_path < listing.files[b.second].disk_path;
  });
  std::vector<DiscoveredFile> sorted;
  sorted.reserve(order.size());
  for (const auto& [folder, index] : order) {
    sorted.push_back(std::move(listing.files[index]));
  }
  listing.files = std::move(sorted);
  return listing;
}

void replay_listing(const FileSystem& fs, TreeListing& listing, unsigned jobs,
                    const WalkCallbacks& callbacks) {
  const std::vector<Batch> batches = batches_of(listing.files);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex failure_mutex;
  std::exception_ptr failure;
  auto work = [&] {
    try {
      for (;;) {
        const std::size_t b = next.fetch_add(1, std::memory_order_relaxed);
        if (b >= batches.size() || stop.load(std::memory_order_relaxed)) {
          return;
        }
        const Batch& batch = batches[b];
        const std::string_view folder = folder_of(listing.files[batch.first].disk_path);
        const DirectoryHandle directory =
            folder.empty() ? DirectoryHandle() : fs.open_directory(std::string(folder));
        for (std::size_t i = batch.first; i < batch.end; ++i) {
          if (!callbacks.on_file) {
            break;
          }
          // Each file is one worker's alone: its descriptor is set in place, not on a copy.
          DiscoveredFile& file = listing.files[i];
          file.directory_fd = directory.fd();
          callbacks.on_file(file);
          file.directory_fd = -1;
        }
      }
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) {
        failure = std::current_exception();
      }
      stop = true;
    }
  };
  const unsigned threads_wanted = std::max(1u, jobs);
  if (threads_wanted == 1) {
    work();
  } else {
    std::vector<std::thread> threads;
    threads.reserve(threads_wanted);
    for (unsigned i = 0; i < threads_wanted; ++i) {
      threads.emplace_back(work);
    }
    for (std::thread& thread : threads) {
      thread.join();
    }
  }
  if (failure) {
    std::rethrow_exception(failure);
  }
  if (callbacks.on_skip) {
    for (const SkippedEntry& entry : listing.skips) {
      callbacks.on_skip(entry);
    }
  }
  if (callbacks.on_warning) {
    for (const IoError& error : listing.warnings) {
      callbacks.on_warning(error);
    }
  }
}

}  // namespace gpuport
