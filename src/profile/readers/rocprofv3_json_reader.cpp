#include "profile/readers/rocprofv3_json_reader.h"

#include <limits>
#include <optional>

#include "profile/json/json_numbers.h"

namespace gpuport {
namespace {

using json::JsonReader;
using json::ValueKind;

// rocprofiler's agent types: 1 = CPU, 2 = GPU.
constexpr std::int64_t k_gpu_agent = 2;

std::optional<std::int64_t> read_integer(JsonReader& json) {
  return json::read_scaled_number(json, 0);
}

// `{"handle": N}` (agent, queue and stream ids) or a bare number.
std::optional<std::int64_t> read_handle(JsonReader& json) {
  if (json.peek() != ValueKind::Object)
    return read_integer(json);
  json.enter_object();
  std::optional<std::int64_t> handle;
  std::string_view key;
  while (json.next_key(key)) {
    if (key == "handle")
      handle = read_integer(json);
    else
      json.skip_value();
  }
  return handle;
}

// `{"internal": N, "external": M}` or a bare number.
std::optional<std::int64_t> read_correlation(JsonReader& json) {
  if (json.peek() != ValueKind::Object)
    return read_integer(json);
  json.enter_object();
  std::optional<std::int64_t> internal;
  std::string_view key;
  while (json.next_key(key)) {
    if (key == "internal")
      internal = read_integer(json);
    else
      json.skip_value();
  }
  return internal;
}

void read_string_into(JsonReader& json, std::string& out) {
  if (json.peek() == ValueKind::String)
    out.assign(json.read_string());
  else
    json.skip_value();
}

std::int32_t narrow(std::optional<std::int64_t> value) {
  if (!value || *value < 0 || *value > std::numeric_limits<std::int32_t>::max())
    return -1;
  return static_cast<std::int32_t>(*value);
}

// The fields of a kernel_dispatch or memory_copy record; newer rocprofv3 versions nest the
// dispatch's own fields in dispatch_info, older ones do not, so both places are read.
struct RecordFields {
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> end;
  std::optional<std::int64_t> correlation;
  std::optional<std::int64_t> kernel_id;
  std::optional<std::int64_t> operation;
  std::optional<std::int64_t> agent;
  std::optional<std::int64_t> src_agent;
  std::optional<std::int64_t> stream;
  std::optional<std::int64_t> queue;
};

void read_record_fields(JsonReader& json, RecordFields& fields) {
  json.enter_object();
  std::string_view key;
  while (json.next_key(key)) {
    if (key == "start_timestamp") {
      fields.start = read_integer(json);
    } else if (key == "end_timestamp") {
      fields.end = read_integer(json);
    } else if (key == "correlation_id") {
      fields.correlation = read_correlation(json);
    } else if (key == "kernel_id") {
      fields.kernel_id = read_integer(json);
    } else if (key == "operation") {
      fields.operation = read_integer(json);
    } else if (key == "agent_id" || key == "dst_agent_id") {
      fields.agent = read_handle(json);
    } else if (key == "src_agent_id") {
      fields.src_agent = read_handle(json);
    } else if (key == "stream_id") {
      fields.stream = read_handle(json);
    } else if (key == "queue_id") {
      fields.queue = read_handle(json);
    } else if (key == "dispatch_info" && json.peek() == ValueKind::Object) {
      read_record_fields(json, fields);
    } else {
      json.skip_value();
    }
  }
}

}  // namespace

void Rocprofv3JsonReader::read_tool_array() {
  if (!m_json.enter_array())
    return;
  bool first = true;
  while (m_json.next_element()) {
    if (first && m_json.peek() == ValueKind::Object)
      read_tool();
    else
      m_json.skip_value();
    first = false;
  }
}

void Rocprofv3JsonReader::read_tool() {
  m_json.enter_object();
  std::string_view key;
  while (m_json.next_key(key)) {
    if (key == "agents")
      read_agents();
    else if (key == "kernel_symbols")
      read_kernel_symbols();
    else if (key == "strings")
      read_strings();
    else if (key == "buffer_records")
      read_buffer_records();
    else
      m_json.skip_value();
  }
}

void Rocprofv3JsonReader::read_agents() {
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
    Agent agent;
    std::string name;
    std::string product_name;
    std::string_view key;
    while (m_json.next_key(key)) {
      if (key == "id") {
        agent.handle = static_cast<std::uint64_t>(read_handle(m_json).value_or(-1));
      } else if (key == "type") {
        agent.is_gpu = read_integer(m_json) == k_gpu_agent;
      } else if (key == "name") {
        read_string_into(m_json, name);
      } else if (key == "product_name") {
        read_string_into(m_json, product_name);
      } else if (key == "wave_front_size") {
        agent.info.warp_size = json::read_small_id(m_json);
      } else if (key == "gfx_target_version") {
        // 90500 for gfx950: major 9, minor 5, stepping 0.
        if (const auto version = read_integer(m_json); version && *version > 0) {
          agent.info.compute_major = static_cast<int>(*version / 10000);
          agent.info.compute_minor = static_cast<int>(*version / 100 % 100);
        }
      } else {
        m_json.skip_value();
      }
    }
    agent.info.name = !product_name.empty() ? product_name : name;
    m_agents.push_back(std::move(agent));
  }
}

void Rocprofv3JsonReader::read_kernel_symbols() {
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
    std::optional<std::int64_t> id;
    KernelSymbol symbol;
    std::string_view key;
    while (m_json.next_key(key)) {
      if (key == "kernel_id")
        id = read_integer(m_json);
      else if (key == "formatted_kernel_name")
        read_string_into(m_json, symbol.formatted);
      else if (key == "demangled_kernel_name")
        read_string_into(m_json, symbol.demangled);
      else if (key == "kernel_name")
        read_string_into(m_json, symbol.raw);
      else
        m_json.skip_value();
    }
    if (id)
      m_symbols[static_cast<std::uint64_t>(*id)] = std::move(symbol);
  }
}

// strings.buffer_records: [{"kind": "MEMORY_COPY", "operations": ["MEMORY_COPY_NONE", ...]}, ...]
void Rocprofv3JsonReader::read_strings() {
  if (m_json.peek() != ValueKind::Object) {
    m_json.skip_value();
    return;
  }
  m_json.enter_object();
  std::string_view key;
  while (m_json.next_key(key)) {
    if (key != "buffer_records" || m_json.peek() != ValueKind::Array) {
      m_json.skip_value();
      continue;
    }
    m_json.enter_array();
    while (m_json.next_element()) {
      if (m_json.peek() != ValueKind::Object) {
        m_json.skip_value();
        continue;
      }
      m_json.enter_object();
      bool is_copy = false;
      std::vector<std::string> operations;
      std::string_view field;
      while (m_json.next_key(field)) {
        if (field == "kind" && m_json.peek() == ValueKind::String) {
          is_copy = m_json.read_string() == "MEMORY_COPY";
        } else if (field == "operations" && m_json.peek() == ValueKind::Array) {
          m_json.enter_array();
          while (m_json.next_element())
            read_string_into(m_json, operations.emplace_back());
        } else {
          m_json.skip_value();
        }
      }
      if (is_copy)
        m_copy_operations = std::move(operations);
    }
  }
}

void Rocprofv3JsonReader::read_buffer_records() {
  if (m_json.peek() != ValueKind::Object) {
    m_json.skip_value();
    return;
  }
  m_json.enter_object();
  std::string_view key;
  while (m_json.next_key(key)) {
    if (m_json.peek() != ValueKind::Array) {
      m_json.skip_value();
      continue;
    }
    std::optional<ActivityKind> kind;
    if (key == "kernel_dispatch")
      kind = ActivityKind::Kernel;
    else if (key == "memory_copy")
      kind = ActivityKind::Memcpy;
    m_json.enter_array();
    while (m_json.next_element()) {
      ++m_events;
      if (kind)
        read_record(*kind);
      else
        m_json.skip_value();
    }
  }
}

void Rocprofv3JsonReader::read_record(ActivityKind kind) {
  const bool is_kernel = kind == ActivityKind::Kernel;
  if (m_json.peek() != ValueKind::Object) {
    if (!m_json.failed()) {
      m_json.fail(m_json.value_offset(), is_kernel ? "expected a kernel_dispatch record object"
                                                   : "expected a memory_copy record object");
    }
    return;
  }
  const std::uint64_t offset = m_json.value_offset();
  RecordFields fields;
  read_record_fields(m_json, fields);
  if (m_json.failed())
    return;
  const char* what = is_kernel ? "kernel_dispatch" : "memory_copy";
  if (!fields.start || !fields.end) {
    m_json.fail(offset, std::string("a ") + what +
                            " record without integer start_timestamp and end_timestamp");
    return;
  }
  if (is_kernel && !fields.kernel_id) {
    m_json.fail(offset, "a kernel_dispatch record without kernel_id");
    return;
  }
  GpuActivity activity;
  activity.start_ns = *fields.start;
  if (__builtin_sub_overflow(*fields.end, *fields.start, &activity.duration_ns) ||
      activity.duration_ns < 0) {
    m_json.fail(offset, std::string("a ") + what + " record that ends before it starts");
    return;
  }
  activity.correlation = fields.correlation.value_or(-1);
  activity.stream = narrow(fields.stream ? fields.stream : fields.queue);
  activity.kind = kind;
  Pending pending;
  pending.offset = offset;
  pending.symbol =
      static_cast<std::uint64_t>(is_kernel ? *fields.kernel_id : fields.operation.value_or(0));
  pending.has_agent = fields.agent.has_value();
  pending.agent = static_cast<std::uint64_t>(fields.agent.value_or(0));
  pending.has_src_agent = fields.src_agent.has_value();
  pending.src_agent = static_cast<std::uint64_t>(fields.src_agent.value_or(0));
  m_trace.activities.push_back(activity);
  m_pending.push_back(pending);
  if (is_kernel)
    ++m_kernels;
}

tl::expected<void, TraceError> Rocprofv3JsonReader::finish() {
  const std::string& path = m_trace.path;
  if (m_events == 0)
    return tl::unexpected(TraceError{path + ": no events in the trace"});
  if (m_kernels == 0) {
    return tl::unexpected(TraceError{path + ": no GPU kernel events in " +
                                     std::to_string(m_events) +
                                     (m_events == 1 ? " event" : " events")});
  }
  // GPU agents become devices 0, 1, ... in the order the file lists them.
  std::unordered_map<std::uint64_t, std::int32_t> device_of_agent;
  for (Agent& agent : m_agents) {
    if (!agent.is_gpu)
      continue;
    device_of_agent.emplace(agent.handle, static_cast<std::int32_t>(m_trace.devices.size()));
    m_trace.devices.push_back(std::move(agent.info));
  }
  const auto device_of = [&](bool has, std::uint64_t handle) -> std::int32_t {
    if (!has)
      return -1;
    const auto found = device_of_agent.find(handle);
    return found != device_of_agent.end() ? found->second : -1;
  };

  std::unordered_map<std::uint64_t, NameId> kernel_names;
  for (std::size_t i = 0; i < m_pending.size(); ++i) {
    const Pending& pending = m_pending[i];
    GpuActivity& activity = m_trace.activities[i];
    activity.device = device_of(pending.has_agent, pending.agent);
    if (activity.kind != ActivityKind::Kernel) {
      if (activity.device < 0)
        activity.device = device_of(pending.has_src_agent, pending.src_agent);
      const bool named =
          pending.symbol < m_copy_operations.size() && !m_copy_operations[pending.symbol].empty();
      activity.name =
          m_trace.names.intern(named ? std::string_view(m_copy_operations[pending.symbol])
                                     : std::string_view("MEMORY_COPY"));
      continue;
    }
    if (const auto known = kernel_names.find(pending.symbol); known != kernel_names.end()) {
      activity.name = known->second;
      continue;
    }
    const auto symbol = m_symbols.find(pending.symbol);
    if (symbol == m_symbols.end()) {
      return tl::unexpected(TraceError{
          path + ": byte " + std::to_string(pending.offset) + ": kernel_dispatch names kernel_id " +
          std::to_string(pending.symbol) + ", which kernel_symbols does not list"});
    }
    const KernelSymbol& names = symbol->second;
    const std::string& name = !names.formatted.empty()   ? names.formatted
                              : !names.demangled.empty() ? names.demangled
                                                         : names.raw;
    activity.name = m_trace.names.intern(name);
    kernel_names.emplace(pending.symbol, activity.name);
  }
  m_trace.format = TraceFormat::Rocprofv3Json;
  m_trace.vendor = Vendor::Amd;
  return {};
}

}  // namespace gpuport
