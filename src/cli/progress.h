// A progress line on stderr ("scanning: 1,234 files, 56.7 MB") while long work runs on a terminal.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "scan/scanner.h"

namespace gpuport {

enum class ProgressDisplay : std::uint8_t { Off, On };

// Decides whether to draw: only when not --quiet and stderr is a terminal (quiet when piped).
ProgressDisplay decide_progress_display(bool quiet);

// While alive (and On), a thread polls `progress` every 100 ms and redraws one stderr line.
// stop() (or the destructor) ends the thread and clears the line.
class ProgressLine {
 public:
  // `label` names the work: "scanning: 1,234 files, 56.7 MB".
  ProgressLine(const ScanProgress& progress, ProgressDisplay display,
               std::string_view label = "scanning");
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine();

  void stop();

 private:
  void run();

  const ScanProgress& m_progress;
  std::string m_label;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stopping = false;
  bool m_drawn = false;
  std::thread m_thread;
};

}  // namespace gpuport
