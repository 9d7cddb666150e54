// The format-neutral trace every reader produces and every analysis reads. Times are integer
// nanoseconds: Kineto's microsecond decimals ("18.112") are converted exactly, so sums match the
// profiler's own totals to the nanosecond.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpuport {

// Every input `gpuport profile` reads; docs/profile-formats.md describes each.
enum class TraceFormat : std::uint8_t {
  KinetoJson,       // PyTorch profiler / Kineto Chrome trace (.json, .json.gz), CUDA and ROCm
  Rocprofv3Json,    // rocprofv3 -f json (*_results.json)
  NsysSqlite,       // nsys export --type sqlite
  NsysStatsCsv,     // nsys stats --report cuda_gpu_kern_sum --format csv (summary only)
  RocprofCsv,       // rocprof v1/v2 results.csv (one row per dispatch)
  RocprofStatsCsv,  // rocprof results.stats.csv and rocprofv3 *_kernel_stats.csv (summary only)
  Rocprofv3Csv,     // rocprofv3 *_kernel_trace.csv
  RocpdSqlite,      // rocpd SQLite (the `kernels` view)
};

// The spelling used by --input-format and in JSON ("kineto", "nsys-sqlite", ...).
std::string_view format_name(TraceFormat format);
std::optional<TraceFormat> parse_format_name(std::string_view name);
// Every format name, in enum order (for --help and error messages).
std::vector<std::string_view> format_names();

enum class ActivityKind : std::uint8_t { Kernel, Memcpy, Memset };

enum class Vendor : std::uint8_t { Unknown, Nvidia, Amd };
std::string_view vendor_name(Vendor vendor);  // "unknown", "nvidia", "amd"

using NameId = std::uint32_t;

// Interned strings: kernel names repeat thousands of times in a trace, so each is stored once and
// events carry its id. Ids are dense and stable; views stay valid for the table's lifetime.
class NameTable {
 public:
  NameId intern(std::string_view name);
  std::string_view operator[](NameId id) const { return m_by_id[id]; }
  std::size_t size() const { return m_by_id.size(); }

 private:
  std::deque<std::string> m_storage;
  std::unordered_map<std::string_view, NameId> m_index;
  std::vector<std::string_view> m_by_id;
};

// One GPU activity (a kernel dispatch, a copy or a fill) as the profiler recorded it.
struct GpuActivity {
  std::int64_t start_ns = 0;
  std::int64_t duration_ns = 0;
  std::int64_t correlation = -1;  // id shared with the host launch call; -1 when absent
  NameId name = 0;                // the name exactly as the file spells it
  std::int32_t device = -1;
  std::int32_t stream = -1;
  ActivityKind kind = ActivityKind::Kernel;
};

// A per-name row of a summary-only input (stats CSVs), which has no individual dispatches.
struct KernelSummary {
  NameId name = 0;
  std::int64_t calls = 0;
  std::int64_t total_ns = 0;
};

// The host API call that launched a GPU activity, joined through `correlation`
// (`cudaLaunchKernel`, `cuLaunchKernelEx`, `hipExtModuleLaunchKernel`, `cudaGraphLaunch`, ...).
// `api` is the name as the file spells it (nsys adds version suffixes: `cudaLaunchKernel_v7000`).
struct LaunchCall {
  std::int64_t correlation = -1;
  NameId api = 0;
};

// A named time range that may delimit steps: `ProfilerStep#N`, record_function ranges, NVTX.
struct TraceRange {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  NameId name = 0;
  bool on_gpu = false;  // Kineto gpu_user_annotation: the range projected onto the GPU timeline
};

struct DeviceInfo {
  std::string name;   // "NVIDIA H100 80GB HBM3", "gfx942", may be empty
  int warp_size = 0;  // 0 when the file does not say
  int compute_major = -1;
  int compute_minor = -1;
};

struct Trace {
  std::string path;
  TraceFormat format = TraceFormat::KinetoJson;
  Vendor vendor = Vendor::Unknown;
  NameTable names;
  std::vector<GpuActivity> activities;   // kernels, copies and fills, in file order
  std::vector<KernelSummary> summaries;  // summary-only formats; empty otherwise
  std::vector<LaunchCall> launches;      // host launch calls that carry a correlation id
  std::vector<TraceRange> ranges;        // annotation / NVTX ranges, in file order
  std::vector<DeviceInfo> devices;
  // Who generated the file, when it says it was made by a script rather than recorded by a
  // profiler (a Kineto trace's top-level "gpuport_synthetic": "<generator>" or true); empty
  // otherwise. Its times are then not measurements.
  std::string synthetic;

  // True for inputs that carry per-name totals instead of dispatches (no steps, no launches).
  bool summary_only() const { return activities.empty() && !summaries.empty(); }
};

// A reader's refusal: one line naming the file and the position ("trace.json.gz: byte 1234
// (uncompressed): expected ',' or '}' in an object"), printed as is; exit status 2.
struct TraceError {
  std::string message;
};

}  // namespace gpuport
