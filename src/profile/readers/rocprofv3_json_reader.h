// Reads rocprofv3's JSON output (`rocprofv3 -f json`, *_results.json) into a Trace: kernel
// dispatches named through kernel_symbols, memory copies, and the GPU agents. Kernel ids are
// resolved at the end because kernel_symbols may come after the dispatches.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <tl/expected.hpp>

#include "profile/json/json_reader.h"
#include "profile/trace.h"

namespace gpuport {

class Rocprofv3JsonReader {
 public:
  Rocprofv3JsonReader(json::JsonReader& json, Trace& trace) : m_json(json), m_trace(trace) {}

  // The value of "rocprofiler-sdk-tool": an array whose first element is read (one process);
  // any further elements are skipped.
  void read_tool_array();
  // Names, devices and vendor into the Trace; refuses a file without events or kernels.
  tl::expected<void, TraceError> finish();

 private:
  // What finish() still has to resolve for one activity.
  struct Pending {
    std::uint64_t offset = 0;     // the record, for errors
    std::uint64_t symbol = 0;     // kernel_id, or the memory-copy operation
    std::uint64_t agent = 0;      // agent handle (a copy's destination, else its source)
    std::uint64_t src_agent = 0;  // a copy's source agent handle
    bool has_agent = false;
    bool has_src_agent = false;
  };
  struct KernelSymbol {
    std::string formatted;
    std::string demangled;
    std::string raw;
  };
  struct Agent {
    std::uint64_t handle = 0;
    bool is_gpu = false;
    DeviceInfo info;
  };

  void read_tool();
  void read_agents();
  void read_kernel_symbols();
  void read_strings();
  void read_buffer_records();
  void read_record(ActivityKind kind);

  json::JsonReader& m_json;
  Trace& m_trace;
  std::vector<Agent> m_agents;
  std::unordered_map<std::uint64_t, KernelSymbol> m_symbols;
  std::vector<std::string> m_copy_operations;  // strings.buffer_records MEMORY_COPY names
  std::vector<Pending> m_pending;              // parallel to m_trace.activities
  std::uint64_t m_events = 0;
  std::uint64_t m_kernels = 0;
};

}  // namespace gpuport
