#include "report/profile/profile_units.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <vector>

#include "report/text_util.h"

namespace gpuport {

std::string format_duration(std::int64_t ns) {
  const auto value = static_cast<double>(ns);
  if (ns < 1'000) {
    return fmt::format("{} ns", ns);
  }
  if (ns < 1'000'000) {
    return fmt::format("{:.2f} \u00b5s", value / 1e3);
  }
  if (ns < 1'000'000'000) {
    return fmt::format("{:.2f} ms", value / 1e6);
  }
  return fmt::format("{:.3f} s", value / 1e9);
}

std::string format_share(double fraction) {
  return fmt::format("{:.1f}%", fraction * 100.0);
}

std::string format_ratio(std::optional<double> ratio) {
  if (!ratio) {
    return "-";
  }
  if (*ratio > 0 && *ratio < 0.01) {
    return "<0.01x";
  }
  if (*ratio >= 100) {
    return fmt::format("{:.0f}x", *ratio);
  }
  return fmt::format("{:.2f}x", *ratio);
}

std::string format_count(std::int64_t count) {
  std::string digits = std::to_string(count < 0 ? -count : count);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) {
      out += ',';
    }
    out += digits[i];
  }
  return count < 0 ? "-" + out : out;
}

double round6(double value) {
  return std::round(value * 1e6) / 1e6;
}

std::string fixed6(double value) {
  return fmt::format("{:.6f}", value);
}

std::string_view activity_kind_name(ActivityKind kind) {
  switch (kind) {
    case ActivityKind::Memcpy:
      return "memcpy";
    case ActivityKind::Memset:
      return "memset";
    case ActivityKind::Kernel:
      break;
  }
  return "kernel";
}

std::string platform_summary(const TraceInfo& trace) {
  // Device names in first-seen order, with counts: "8x NVIDIA B200".
  std::vector<std::string> order;
  std::map<std::string, int> counts;
  for (const DeviceInfo& device : trace.devices) {
    if (device.name.empty()) {
      continue;
    }
    if (counts[device.name]++ == 0) {
      order.push_back(device.name);
    }
  }
  std::string text = trace.vendor == Vendor::Unknown ? std::string("unknown vendor")
                                                     : std::string(vendor_name(trace.vendor));
  for (const std::string& name : order) {
    text += ", ";
    if (counts[name] > 1) {
      text += fmt::format("{}x ", counts[name]);
    }
    text += printable(name);
  }
  return text;
}

std::string csv_field(std::string_view text) {
  // Control bytes become '?' (a name from a trace is data, not layout), and a cell a spreadsheet
  // would run as a formula (=, +, -, @ first) gets a leading apostrophe, as OWASP advises.
  std::string clean = printable(text);
  const bool formula = !clean.empty() && (clean.front() == '=' || clean.front() == '+' ||
                                          clean.front() == '-' || clean.front() == '@');
  if (formula) {
    clean.insert(clean.begin(), '\'');
  }
  if (!formula && clean.find_first_of(",\"") == std::string::npos) {
    return clean;
  }
  std::string out = "\"";
  for (const char c : clean) {
    if (c == '"') {
      out += '"';
    }
    out += c;
  }
  out += '"';
  return out;
}

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (const char c : printable(text)) {
    switch (c) {
      case '|':
        out += "\\|";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\\':
      case '*':
      case '_':
      case '~':
      case '`':
      case '[':
      case ']':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace gpuport
