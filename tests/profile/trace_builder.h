// Hand-built traces for the analysis tests: no reader involved, every number chosen by the test.
#pragma once

#include <cstdint>
#include <string_view>

#include "profile/trace.h"

namespace gpuport::testing {

class TraceBuilder {
 public:
  explicit TraceBuilder(TraceFormat format = TraceFormat::KinetoJson) {
    m_trace.path = "hand-built.json";
    m_trace.format = format;
  }

  TraceBuilder& activity(std::string_view name, std::int64_t start_ns, std::int64_t duration_ns,
                         std::int64_t correlation = -1, ActivityKind kind = ActivityKind::Kernel) {
    GpuActivity activity;
    activity.name = m_trace.names.intern(name);
    activity.start_ns = start_ns;
    activity.duration_ns = duration_ns;
    activity.correlation = correlation;
    activity.kind = kind;
    m_trace.activities.push_back(activity);
    return *this;
  }
  TraceBuilder& kernel(std::string_view name, std::int64_t start_ns, std::int64_t duration_ns,
                       std::int64_t correlation = -1) {
    return activity(name, start_ns, duration_ns, correlation, ActivityKind::Kernel);
  }
  TraceBuilder& launch(std::int64_t correlation, std::string_view api) {
    m_trace.launches.push_back({correlation, m_trace.names.intern(api)});
    return *this;
  }
  TraceBuilder& range(std::string_view name, std::int64_t start_ns, std::int64_t end_ns,
                      bool on_gpu) {
    m_trace.ranges.push_back({start_ns, end_ns, m_trace.names.intern(name), on_gpu});
    return *this;
  }
  TraceBuilder& summary(std::string_view name, std::int64_t calls, std::int64_t total_ns) {
    m_trace.summaries.push_back({m_trace.names.intern(name), calls, total_ns});
    return *this;
  }
  TraceBuilder& device(std::string_view name, Vendor vendor) {
    m_trace.devices.push_back({std::string(name), vendor == Vendor::Amd ? 64 : 32, 9, 0});
    m_trace.vendor = vendor;
    return *this;
  }
  TraceBuilder& path(std::string_view path) {
    m_trace.path = std::string(path);
    return *this;
  }

  const Trace& trace() const { return m_trace; }
  Trace take() { return std::move(m_trace); }

 private:
  Trace m_trace;
};

}  // namespace gpuport::testing
