// The stderr progress line drawn by a polling thread; cleared when the scan ends.
#include "cli/progress.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>

#include "report/terminal.h"
#include "report/text_util.h"

namespace gpuport {

namespace {
constexpr auto k_poll_interval = std::chrono::milliseconds(100);
// Scans that finish quickly never draw, so short runs do not flicker.
constexpr int k_quiet_polls = 2;
}  // namespace

ProgressDisplay decide_progress_display(bool quiet) {
  if (quiet || stderr_is_terminal() == IsTerminal::No) {
    return ProgressDisplay::Off;
  }
  return ProgressDisplay::On;
}

ProgressLine::ProgressLine(const ScanProgress& progress, ProgressDisplay display,
                           std::string_view label)
    : m_progress(progress), m_label(label) {
  if (display == ProgressDisplay::On) {
    m_thread = std::thread([this] { run(); });
  }
}

ProgressLine::~ProgressLine() {
  stop();
}

void ProgressLine::stop() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) {
    m_thread.join();
  }
  if (m_drawn) {
    std::fputs("\r\x1b[K", stderr);
    std::fflush(stderr);
    m_drawn = false;
  }
}

void ProgressLine::run() {
  int polls = 0;
  std::unique_lock lock(m_mutex);
  while (!m_wake.wait_for(lock, k_poll_interval, [this] { return m_stopping; })) {
    if (++polls <= k_quiet_polls) {
      continue;
    }
    const std::uint64_t files = m_progress.files.load(std::memory_order_relaxed);
    const std::uint64_t bytes = m_progress.bytes.load(std::memory_order_relaxed);
    const std::string line =
        fmt::format("\r\x1b[K{}: {} files, {}", m_label, files, format_megabytes(bytes));
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    m_drawn = true;
  }
}

}  // namespace gpuport
