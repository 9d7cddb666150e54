// hipify_tree(): one walk per input on the scan's walker; each worker reads, translates or
// analyses the files it finds; results are merged under one mutex and sorted at the end.
#include "hipify/hipify_tree.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <mutex>
#include <tuple>

namespace gpuport {

namespace {

constexpr std::size_t k_binary_probe_bytes = 8192;

std::string lower_extension(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
    return {};
  }
  std::string extension(path.substr(dot));
  for (char& c : extension) {
    c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return extension;
}

class Collector {
 public:
  explicit Collector(HipifyRun& run) : m_run(run) {}

  void add(FileOutcome outcome) {
    std::lock_guard lock(m_mutex);
    m_run.files.push_back(std::move(outcome));
  }
  void warn(IoError error) {
    std::lock_guard lock(m_mutex);
    m_run.warnings.push_back(std::move(error));
  }

 private:
  std::mutex m_mutex;
  HipifyRun& m_run;
};

// Reads, then translates or analyses one file; never throws.
void process_file(const FileSystem& fs, const HipifyOptions& options, const MappingTable& table,
                  FileOutcome& outcome, Collector& collector) {
  const bool translatable = is_translatable(outcome.relative);
  const std::optional<BuildFileKind> build_kind = build_file_kind(outcome.relative);
  if (!translatable && !build_kind) {
    outcome.action = FileAction::Copy;
    return;
  }
  // The limit applies here too: a replayed listing (HipifyOptions::listing) may not have
  // stat-ed the file, so the walker could not apply it.
  auto contents = fs.read(outcome.disk_path, options.walk.max_file_size);
  if (!contents) {
    outcome.action = FileAction::Skip;
    outcome.reason = SkipReason::Unreadable;
    outcome.reason_detail = contents.error().message;
    return;
  }
  if (contents->is_over_limit()) {
    outcome.action = FileAction::Copy;  // as the walker reports it: mirrored, never translated
    outcome.reason = SkipReason::TooLarge;
    outcome.size = contents->size_over_limit();
    return;
  }
  const std::string_view bytes = contents->bytes();
  outcome.size = bytes.size();
  if (looks_binary(bytes.substr(0, k_binary_probe_bytes))) {
    outcome.action = FileAction::Copy;
    outcome.reason = SkipReason::Binary;
    outcome.reason_detail = "NUL byte in the first block";
    return;
  }
  try {
    if (translatable) {
      outcome.action = FileAction::Translate;
      TranslationResult result = translate_cuda(outcome.display, bytes, table, options.translate);
      outcome.changed = result.changed && result.output != bytes;
      outcome.kept_as_is = result.kept_as_is;
      if (outcome.changed) {
        outcome.output = std::move(result.output);
      }
      outcome.stats = std::move(result.stats);
      outcome.warnings = std::move(result.warnings);
      outcome.resolved = std::move(result.resolved);
      outcome.diagnostics = std::move(result.diagnostics);
    } else {
      outcome.action = FileAction::BuildFile;
      BuildFileResult result = analyze_build_file(*build_kind, bytes, options.build);
      if (options.rewrite_build_files && result.changed) {
        outcome.changed = true;
        outcome.output = result.rewritten;
      }
      result.rewritten.clear();  // kept once, in `output`
      outcome.build = std::move(result);
    }
  } catch (const std::exception& error) {
    // A translator bug must not stop the run or write a half-translated file.
    FileOutcome untouched;
    untouched.root = outcome.root;
    untouched.relative = std::move(outcome.relative);
    untouched.display = std::move(outcome.display);
    untouched.disk_path = std::move(outcome.disk_path);
    untouched.size = outcome.size;
    outcome = std::move(untouched);
    collector.warn({outcome.display, std::string("not translated: ") + error.what()});
  }
}

}  // namespace

std::string_view file_action_name(FileAction action) {
  switch (action) {
    case FileAction::Translate:
      return "translate";
    case FileAction::BuildFile:
      return "build-file";
    case FileAction::Copy:
      return "copy";
    case FileAction::Symlink:
      return "symlink";
    case FileAction::Skip:
      return "skip";
  }
  return "skip";
}

bool is_translatable(std::string_view path) {
  const Language language = detect_language(path);
  return language == Language::Cuda || language == Language::Cpp || lower_extension(path) == ".hip";
}

std::string display_path(const std::string& root, bool root_is_directory,
                         const std::string& relative) {
  const std::filesystem::path joined =
      root_is_directory ? std::filesystem::path(root) / relative : std::filesystem::path(root);
  std::string text = joined.lexically_normal().generic_string();
  while (text.starts_with("./")) {
    text.erase(0, 2);
  }
  return text;
}

tl::expected<HipifyRun, IoError> hipify_tree(const FileSystem& fs,
                                             std::span<const std::string> inputs,
                                             const HipifyOptions& options,
                                             const MappingTable& table, ScanProgress* progress) {
  HipifyRun run;
  Collector collector(run);
  for (std::size_t index = 0; index < inputs.size(); ++index) {
    const std::string& root = inputs[index];
    const auto status = fs.status(root, true);
    if (!status) {
      return tl::unexpected(status.error());
    }
    const bool directory = status->type == EntryType::Directory;
    run.roots.push_back(InputRoot{root, directory});

    auto outcome_for = [&](const std::string& relative, const std::string& disk_path,
                           std::uint64_t size) {
      FileOutcome outcome;
      outcome.root = index;
      outcome.relative = relative;
      outcome.display = display_path(root, directory, relative);
      outcome.disk_path = disk_path;
      outcome.size = size;
      return outcome;
    };
    WalkCallbacks callbacks;
    callbacks.on_file = [&](const DiscoveredFile& file) {
      FileOutcome outcome = outcome_for(file.path, file.disk_path, file.size);
      process_file(fs, options, table, outcome, collector);
      if (progress != nullptr) {
        progress->files.fetch_add(1, std::memory_order_relaxed);
        progress->bytes.fetch_add(outcome.size, std::memory_order_relaxed);
      }
      collector.add(std::move(outcome));
    };
    callbacks.on_skip = [&](const SkippedEntry& entry) {
      const std::string disk_path =
          directory ? (std::filesystem::path(root) / entry.path).string() : root;
      FileOutcome outcome = outcome_for(entry.path, disk_path, entry.size);
      outcome.reason = entry.reason;
      outcome.reason_detail = entry.detail;
      switch (entry.reason) {
        case SkipReason::TooLarge:
        case SkipReason::Binary:
          outcome.action = FileAction::Copy;  // mirrored as they are, never translated
          break;
        case SkipReason::Symlink:
          outcome.action = FileAction::Symlink;
          break;
        default:
          outcome.action = FileAction::Skip;
          break;
      }
      collector.add(std::move(outcome));
    };
    callbacks.on_warning = [&](const IoError& error) { collector.warn(error); };
    if (options.listing != nullptr && inputs.size() == 1 && directory) {
      replay_listing(fs, *options.listing, std::max(1u, options.walk.jobs), callbacks);
      run.ignored_entries += options.listing->summary.ignored;
      continue;
    }
    auto walked = walk_tree(fs, root, options.walk, callbacks);
    if (!walked) {
      return tl::unexpected(walked.error());
    }
    run.ignored_entries += walked->ignored;
  }
  std::sort(run.files.begin(), run.files.end(), [](const FileOutcome& a, const FileOutcome& b) {
    return std::tie(a.root, a.relative) < std::tie(b.root, b.relative);
  });
  std::sort(run.warnings.begin(), run.warnings.end(), [](const IoError& a, const IoError& b) {
    return std::tie(a.path, a.message) < std::tie(b.path, b.message);
  });
  for (const FileOutcome& file : run.files) {
    merge_stats(run.totals, file.stats);
  }
  return run;
}

}  // namespace gpuport
