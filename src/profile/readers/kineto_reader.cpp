#include "profile/readers/kineto_reader.h"

#include <optional>

#include "profile/json/json_numbers.h"

namespace gpuport {
namespace {

using json::JsonReader;
using json::ValueKind;

// Kineto writes microseconds ("18.112"); the Trace holds nanoseconds.
constexpr int k_microseconds_to_ns = 3;

// What an event's `cat` makes of it.
enum class EventClass : std::uint8_t {
  Unknown,  // no cat seen yet
  Ignored,
  Kernel,
  Memcpy,
  Memset,
  Launch,    // a runtime or driver API call
  CpuRange,  // user_annotation
  GpuRange,  // gpu_user_annotation
};

bool equals_ignoring_case(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size())
    return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
    if (c != lower[i])
      return false;
  }
  return true;
}

// Current category names and the older ones ("Kernel", "Runtime", "Memcpy") still found in
// traces from earlier PyTorch releases.
EventClass classify_category(std::string_view cat) {
  if (equals_ignoring_case(cat, "kernel"))
    return EventClass::Kernel;
  if (equals_ignoring_case(cat, "cuda_runtime") || equals_ignoring_case(cat, "cuda_driver") ||
      equals_ignoring_case(cat, "runtime") || equals_ignoring_case(cat, "driver")) {
    return EventClass::Launch;
  }
  if (equals_ignoring_case(cat, "gpu_memcpy") || equals_ignoring_case(cat, "memcpy"))
    return EventClass::Memcpy;
  if (equals_ignoring_case(cat, "gpu_memset") || equals_ignoring_case(cat, "memset"))
    return EventClass::Memset;
  if (equals_ignoring_case(cat, "user_annotation"))
    return EventClass::CpuRange;
  if (equals_ignoring_case(cat, "gpu_user_annotation"))
    return EventClass::GpuRange;
  return EventClass::Ignored;
}

bool is_gpu_activity(EventClass event_class) {
  return event_class == EventClass::Kernel || event_class == EventClass::Memcpy ||
         event_class == EventClass::Memset;
}

// A time field: its value, or where it was when it was not a number.
struct TimeField {
  std::optional<std::int64_t> ns;
  bool present = false;
  std::uint64_t offset = 0;
};

void read_time(JsonReader& json, TimeField& field) {
  field.present = true;
  json.peek();
  field.offset = json.value_offset();
  field.ns = json::read_scaled_number(json, k_microseconds_to_ns);
}

Vendor vendor_of_version_key(std::string_view key) {
  if (key == "roctracer_version" || key == "hip_runtime_version" || key == "hip_driver_version")
    return Vendor::Amd;
  if (key == "cupti_version" || key == "cuda_runtime_version" || key == "cuda_driver_version")
    return Vendor::Nvidia;
  return Vendor::Unknown;
}

}  // namespace

void KinetoReader::read_member(std::string_view key) {
  if (key == "deviceProperties") {
    read_device_properties();
    return;
  }
  if (key == "gpuport_synthetic") {  // a generator's own label: see Trace::synthetic
    const ValueKind kind = m_json.peek();
    if (kind == ValueKind::String) {
      m_trace.synthetic = m_json.read_string();
      constexpr std::size_t k_label_bytes = 200;  // a label, shown in a report's banner
      if (m_trace.synthetic.size() > k_label_bytes) {
        m_trace.synthetic.resize(k_label_bytes);
      }
      if (m_trace.synthetic.empty()) {
        m_trace.synthetic = "a script";
      }
      return;
    }
    if (kind == ValueKind::True) {
      m_trace.synthetic = "a script";
    }
  }
  if (const Vendor vendor = vendor_of_version_key(key); vendor != Vendor::Unknown) {
    m_vendor_by_version = vendor;
  }
  m_json.skip_value();
}

void KinetoReader::read_device_properties() {
  if (m_json.peek() != ValueKind::Array) {
    m_json.skip_value();
    return;
  }
  m_json.enter_array();
  while (m_json.next_element()) {
    if (m_json.peek() != ValueKind::Object) {
      m_json.skip_value();
      continue;
    }
    m_json.enter_object();
    DeviceInfo device;
    std::string_view key;
    while (m_json.next_key(key)) {
      if (key == "name") {
        if (m_json.peek() == ValueKind::String)
          device.name = m_json.read_string();
        else
          m_json.skip_value();
      } else if (key == "warpSize") {
        device.warp_size = json::read_small_id(m_json);
      } else if (key == "computeMajor") {
        device.compute_major = json::read_small_id(m_json);
      } else if (key == "computeMinor") {
        device.compute_minor = json::read_small_id(m_json);
      } else {
        m_json.skip_value();
      }
    }
    m_devices.push_back(std::move(device));
  }
}

void KinetoReader::read_events() {
  if (!m_json.enter_array())
    return;
  while (m_json.next_element())
    read_event();
}

void KinetoReader::read_event() {
  ++m_events;
  if (m_json.peek() != ValueKind::Object) {
    if (!m_json.failed())
      m_json.fail(m_json.value_offset(), "expected an event object in traceEvents");
    return;
  }
  const std::uint64_t event_offset = m_json.value_offset();
  m_json.enter_object();

  EventClass event_class = EventClass::Unknown;
  bool complete = false;  // ph == "X"
  bool phase_seen = false;
  bool has_name = false;
  TimeField ts;
  TimeField dur;
  std::int64_t correlation = -1;
  std::int32_t device = -1;
  std::int32_t stream = -1;
  std::int32_t pid = -1;
  std::int32_t tid = -1;

  std::string_view key;
  while (m_json.next_key(key)) {
    if (key == "ph") {
      const std::string_view phase = m_json.read_string();
      phase_seen = true;
      complete = phase == "X";
      if (!complete) {
        m_json.skip_rest();
        return;
      }
    } else if (key == "cat") {
      event_class = classify_category(m_json.read_string());
      if (event_class == EventClass::Ignored) {
        m_json.skip_rest();
        return;
      }
    } else if (key == "name") {
      if (m_json.peek() == ValueKind::String) {
        m_name.assign(m_json.read_string());
        has_name = true;
      } else {
        m_json.skip_value();
      }
    } else if (event_class == EventClass::Launch && key != "args") {
      m_json.skip_value();  // a launch call needs only its name and correlation
    } else if (key == "ts") {
      read_time(m_json, ts);
    } else if (key == "dur") {
      read_time(m_json, dur);
    } else if (key == "pid") {
      pid = json::read_small_id(m_json);
    } else if (key == "tid") {
      tid = json::read_small_id(m_json);
    } else if (key == "args" && m_json.peek() == ValueKind::Object) {
      m_json.enter_object();
      std::string_view arg;
      while (m_json.next_key(arg)) {
        if (arg == "correlation") {
          correlation = json::read_scaled_number(m_json, 0).value_or(-1);
        } else if (arg == "device") {
          device = json::read_small_id(m_json);
        } else if (arg == "stream") {
          stream = json::read_small_id(m_json);
        } else {
          m_json.skip_value();
        }
      }
    } else {
      m_json.skip_value();
    }
  }
  if (m_json.failed() || !phase_seen || !complete || event_class == EventClass::Unknown)
    return;
  if (!has_name)
    m_name.clear();

  if (is_gpu_activity(event_class)) {
    for (const TimeField* field : {&ts, &dur}) {
      const char* what = field == &ts ? "ts" : "dur";
      if (!field->present) {
        m_json.fail(event_offset, std::string("a GPU event without \"") + what + "\"");
        return;
      }
      if (!field->ns) {
        m_json.fail(field->offset,
                    std::string("\"") + what + "\" of a GPU event is not a number of microseconds");
        return;
      }
    }
    // A negative or overflowing time made a kernel 200 % of the GPU time and a total negative.
    std::int64_t end_ns = 0;
    if (*dur.ns < 0) {
      m_json.fail(dur.offset, "\"dur\" of a GPU event is negative");
      return;
    }
    if (__builtin_add_overflow(*ts.ns, *dur.ns, &end_ns)) {
      m_json.fail(dur.offset, "\"ts\" + \"dur\" of a GPU event is past the largest time");
      return;
    }
    GpuActivity activity;
    activity.start_ns = *ts.ns;
    activity.duration_ns = *dur.ns;
    activity.correlation = correlation;
    activity.name = m_trace.names.intern(m_name);
    activity.device = device >= 0 ? device : pid;
    activity.stream = stream >= 0 ? stream : tid;
    activity.kind = event_class == EventClass::Kernel   ? ActivityKind::Kernel
                    : event_class == EventClass::Memcpy ? ActivityKind::Memcpy
                                                        : ActivityKind::Memset;
    m_trace.activities.push_back(activity);
    if (event_class == EventClass::Kernel)
      ++m_kernels;
    return;
  }
  if (event_class == EventClass::Launch) {
    if (correlation >= 0)
      m_trace.launches.push_back(LaunchCall{correlation, m_trace.names.intern(m_name)});
    return;
  }
  // Annotation ranges without usable times are of no use to anyone; they are left out.
  std::int64_t end_ns = 0;
  if (ts.ns && dur.ns && *dur.ns >= 0 && !__builtin_add_overflow(*ts.ns, *dur.ns, &end_ns)) {
    m_trace.ranges.push_back(TraceRange{*ts.ns, end_ns, m_trace.names.intern(m_name),
                                        event_class == EventClass::GpuRange});
  }
}

tl::expected<void, TraceError> KinetoReader::finish() {
  if (m_events == 0)
    return tl::unexpected(TraceError{m_trace.path + ": no events in the trace"});
  if (m_kernels == 0) {
    return tl::unexpected(TraceError{m_trace.path + ": no GPU kernel events in " +
                                     std::to_string(m_events) +
                                     (m_events == 1 ? " event" : " events")});
  }
  m_trace.format = TraceFormat::KinetoJson;
  m_trace.vendor = m_vendor_by_version;
  if (m_trace.vendor == Vendor::Unknown) {
    for (const DeviceInfo& device : m_devices) {
      if (device.warp_size == 64)
        m_trace.vendor = Vendor::Amd;
      else if (device.warp_size == 32)
        m_trace.vendor = Vendor::Nvidia;
      if (m_trace.vendor != Vendor::Unknown)
        break;
    }
  }
  m_trace.devices = std::move(m_devices);
  return {};
}

}  // namespace gpuport
