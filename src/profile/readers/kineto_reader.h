// Reads a Kineto (PyTorch profiler) Chrome trace into a Trace: GPU kernels, copies and fills,
// the runtime/driver calls that launched them, user annotations (ProfilerStep#N) and the devices.
// json_trace.cpp walks the top-level object and hands each member here, so the reader never
// needs the members in any order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "profile/json/json_reader.h"
#include "profile/trace.h"

namespace gpuport {

class KinetoReader {
 public:
  KinetoReader(json::JsonReader& json, Trace& trace) : m_json(json), m_trace(trace) {}

  // A top-level member other than traceEvents, whose value is next: deviceProperties and the
  // runtime version keys are read (they say which vendor), everything else is skipped. Nothing
  // reaches the Trace before finish(), so this is harmless when the file turns out not to be
  // a Kineto trace.
  void read_member(std::string_view key);
  // The traceEvents array, or a bare top-level array of events (old Chrome traces).
  void read_events();
  // Devices and vendor into the Trace; refuses a trace without events or without kernels.
  tl::expected<void, TraceError> finish();

 private:
  void read_device_properties();
  void read_event();

  json::JsonReader& m_json;
  Trace& m_trace;
  std::vector<DeviceInfo> m_devices;
  Vendor m_vendor_by_version = Vendor::Unknown;
  std::uint64_t m_events = 0;
  std::uint64_t m_kernels = 0;
  std::string m_name;  // the current event's name, copied (the buffer moves on)
};

}  // namespace gpuport
