// Compile checks of translated sources with hipcc, run in parallel, and the reading of hipcc's
// diagnostics into a status a porter can act on.
#include "hipify/verify.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

#include "hipify/subprocess.h"

namespace gpuport {

namespace {

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

bool is_cuda_source(std::string_view extension) {
  return extension == ".cu" || extension == ".hip";
}

bool is_source(std::string_view extension) {
  return is_cuda_source(extension) || extension == ".cpp" || extension == ".cc" ||
         extension == ".cxx" || extension == ".c" || extension == ".c++";
}

std::string_view base_name(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

// "FILE:LINE:COL: " before `at`: a diagnostic that points into a source.
bool has_location(std::string_view line, std::size_t at) {
  std::string_view prefix = line.substr(0, at);
  if (!prefix.ends_with(": ")) {
    return false;
  }
  prefix.remove_suffix(2);
  for (int field = 0; field < 2; ++field) {
    const std::size_t colon = prefix.find_last_of(':');
    if (colon == std::string_view::npos || colon + 1 == prefix.size()) {
      return false;
    }
    for (char c : prefix.substr(colon + 1)) {
      if (c < '0' || c > '9') {
        return false;
      }
    }
    prefix = prefix.substr(0, colon);
  }
  return !prefix.empty();
}

// The file names a source includes ("x.cuh" from #include "detail/x.cuh").
std::vector<std::string> included_names(std::string_view text) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t newline = text.find('\n', start);
    std::string_view line =
        trim(text.substr(start, newline == std::string_view::npos ? text.npos : newline - start));
    start = newline == std::string_view::npos ? text.size() : newline + 1;
    if (!line.starts_with('#')) {
      continue;
    }
    line = trim(line.substr(1));
    if (!line.starts_with("include")) {
      continue;
    }
    line = trim(line.substr(7));
    if (line.empty() || (line[0] != '"' && line[0] != '<')) {
      continue;
    }
    const std::size_t close = line.find(line[0] == '"' ? '"' : '>', 1);
    if (close != std::string_view::npos) {
      names.emplace_back(base_name(line.substr(1, close - 1)));
    }
  }
  return names;
}

VerifyResult compile(const VerifyInput& input, const VerifyOptions& options,
                     const std::string& hipcc) {
  VerifyOptions resolved = options;
  resolved.hipcc = hipcc;
  ProcessLimits limits;
  limits.timeout = options.timeout;
  const auto run = run_process(verify_command(resolved, input.disk_path), limits);
  if (!run) {
    const bool missing = run.error().failure != SpawnFailure::Other;
    return {input.file, missing ? VerifyStatus::MissingHipcc : VerifyStatus::ToolchainError,
            "cannot run " + hipcc + ": " + run.error().message};
  }
  if (run->timed_out) {
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(options.timeout);
    return {input.file, VerifyStatus::Timeout,
            "hipcc gave no result within " + std::to_string(seconds.count()) + " s"};
  }
  CompileOutcome outcome = classify_compile_output(run->exit_code, run->output);
  return {input.file, outcome.status, std::move(outcome.detail)};
}

}  // namespace

std::string_view verify_status_name(VerifyStatus status) {
  switch (status) {
    case VerifyStatus::Pass:
      return "pass";
    case VerifyStatus::Fail:
      return "fail";
    case VerifyStatus::MissingHeader:
      return "missing-header";
    case VerifyStatus::MissingHipcc:
      return "missing-hipcc";
    case VerifyStatus::ToolchainError:
      return "hipcc-error";
    case VerifyStatus::Timeout:
      return "timeout";
    case VerifyStatus::Skipped:
      return "skipped";
  }
  return "skipped";
}

CompileOutcome classify_compile_output(int exit_code, std::string_view output) {
  if (exit_code == 0) {
    return {};
  }
  std::string_view toolchain;
  std::string_view first_text;
  std::size_t start = 0;
  while (start < output.size()) {
    const std::size_t newline = output.find('\n', start);
    const std::string_view line = trim(
        output.substr(start, newline == std::string_view::npos ? output.npos : newline - start));
    start = newline == std::string_view::npos ? output.size() : newline + 1;
    const std::size_t fatal = line.find("fatal error: ");
    const std::size_t error = line.find("error: ");
    if (fatal != std::string_view::npos && has_location(line, fatal)) {
      const std::string_view message = line.substr(fatal + 13);
      if (message.starts_with('\'') && message.ends_with("' file not found")) {
        return {VerifyStatus::MissingHeader, std::string(message.substr(1, message.size() - 17))};
      }
      return {VerifyStatus::Fail, std::string(line)};
    }
    if (error != std::string_view::npos && has_location(line, error)) {
      return {VerifyStatus::Fail, std::string(line)};
    }
    if (error != std::string_view::npos && toolchain.empty()) {
      toolchain = line;  // "clang: error: invalid target ID 'gfx942'"
    }
    if (first_text.empty() && !line.empty() && line.find("warning:") == std::string_view::npos) {
      first_text = line;
    }
  }
  if (!toolchain.empty()) {
    return {VerifyStatus::ToolchainError, std::string(toolchain)};
  }
  if (!first_text.empty()) {
    return {VerifyStatus::ToolchainError, std::string(first_text)};
  }
  return {VerifyStatus::ToolchainError, "hipcc exited with status " + std::to_string(exit_code)};
}

std::vector<std::string> verify_command(const VerifyOptions& options, const std::string& path) {
  std::vector<std::string> argv = {options.hipcc, "--offload-arch=" + options.offload_arch,
                                   "-fsyntax-only"};
  argv.insert(argv.end(), options.extra_args.begin(), options.extra_args.end());
  argv.push_back("-x");
  argv.push_back(lower_extension(path) == ".c" ? "c" : "hip");
  argv.push_back(path);
  return argv;
}

std::vector<VerifyResult> verify_sources(const FileSystem& fs, std::span<const VerifyInput> inputs,
                                         const VerifyOptions& options, ScanProgress* progress) {
  std::vector<VerifyResult> results(inputs.size());
  std::vector<std::size_t> to_compile;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string extension = lower_extension(inputs[i].file);
    results[i].file = inputs[i].file;
    if (!is_source(extension)) {
      continue;  // headers: decided once the sources are known
    }
    if (!inputs[i].changed && !is_cuda_source(extension)) {
      results[i].detail = "unchanged by hipify: no CUDA to check";
      continue;
    }
    to_compile.push_back(i);
  }

  const std::optional<std::string> hipcc = find_executable(options.hipcc);
  if (!hipcc) {
    for (std::size_t i : to_compile) {
      results[i].status = VerifyStatus::MissingHipcc;
      results[i].detail = "hipcc not found: " + options.hipcc;
    }
  } else {
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
      for (std::size_t k = next++; k < to_compile.size(); k = next++) {
        const VerifyInput& input = inputs[to_compile[k]];
        results[to_compile[k]] = compile(input, options, *hipcc);
        if (progress != nullptr) {
          const auto status = fs.status(input.disk_path, true);
          progress->files.fetch_add(1, std::memory_order_relaxed);
          progress->bytes.fetch_add(status ? status->size : 0, std::memory_order_relaxed);
        }
      }
    };
    const std::size_t threads =
        std::clamp<std::size_t>(options.jobs, 1, std::max<std::size_t>(1, to_compile.size()));
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) {
      pool.emplace_back(worker);
    }
    worker();
    for (std::thread& thread : pool) {
      thread.join();
    }
  }

  // Headers are checked where they are used: by the compiled sources that include them.
  std::map<std::string, std::string, std::less<>> includer;  // header file name -> first source
  for (std::size_t i : to_compile) {
    if (auto contents = fs.read(inputs[i].disk_path)) {
      for (std::string& name : included_names(contents->bytes())) {
        includer.emplace(std::move(name), inputs[i].file);
      }
    }
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (is_source(lower_extension(inputs[i].file))) {
      continue;
    }
    const auto found = includer.find(base_name(inputs[i].file));
    results[i].detail = found != includer.end()
                            ? "header: compiled through " + found->second
                            : "header: not included by any translated source; not compiled alone";
  }
  return results;
}

std::optional<RocmRelease> hip_release_of_version_output(std::string_view output) {
  constexpr std::string_view k_label = "HIP version: ";
  const std::size_t at = output.find(k_label);
  if (at == std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view rest = output.substr(at + k_label.size());
  const std::size_t first_dot = rest.find('.');
  if (first_dot == std::string_view::npos) {
    return std::nullopt;
  }
  const std::size_t end = rest.find_first_not_of("0123456789", first_dot + 1);
  return parse_rocm_release(rest.substr(0, end));
}

RocmTarget rocm_target_of_hipcc(const std::string& hipcc) {
  ProcessLimits limits;
  limits.timeout = std::chrono::seconds(60);
  auto ran = run_process({hipcc, "--version"}, limits);
  RocmTarget target;
  target.reported =
      ran && ran->exit_code == 0 ? hip_release_of_version_output(ran->output) : std::nullopt;
  target.release =
      target.reported ? std::clamp(*target.reported, rocm_releases().front(), newest_rocm_release())
                      : newest_rocm_release();
  return target;
}

}  // namespace gpuport
