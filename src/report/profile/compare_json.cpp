#include "report/profile/compare_json.h"

#include <algorithm>

#include "report/profile/profile_json.h"
#include "report/profile/profile_units.h"

namespace gpuport {

namespace {

void count(JsonWriter& json, std::string_view name, std::int64_t value) {
  json.field(name, static_cast<std::uint64_t>(std::max<std::int64_t>(0, value)));
}

void ratio(JsonWriter& json, std::string_view name, std::optional<double> value) {
  if (value) {
    json.field(name, round6(*value));
  } else {
    json.null_field(name);
  }
}

void side(JsonWriter& json, std::string_view name, const TraceInfo& trace,
          const ProfileTotals& totals) {
  json.key(name);
  json.begin_object();
  json.key("trace");
  write_trace_info(json, trace);
  json.key("totals");
  write_totals(json, totals);
  json.end_object();
}

void unmatched_list(JsonWriter& json, std::string_view name,
                    const std::vector<UnmatchedKernel>& kernels) {
  json.key(name);
  json.begin_array();
  for (const UnmatchedKernel& kernel : kernels) {
    json.begin_object();
    json.field("display", kernel.display);
    count(json, "total_ns", kernel.total_ns);
    count(json, "calls", kernel.calls);
    json.end_object();
  }
  json.end_array();
}

}  // namespace

std::string render_compare_json(const Comparison& comparison) {
  StringSink sink;
  JsonWriter json(sink);
  json.begin_object();
  json.field("schema_version", k_profile_schema_version);
  write_tool(json);
  json.field("command", "compare");
  side(json, "a", comparison.a, comparison.totals_a);
  side(json, "b", comparison.b, comparison.totals_b);
  json.key("ratios");
  json.begin_object();
  ratio(json, "gpu", comparison.gpu_ratio);
  ratio(json, "kernel", comparison.kernel_ratio);
  json.end_object();

  json.key("classes");
  json.begin_array();
  for (const ClassComparison& row : comparison.classes) {
    json.begin_object();
    json.field("class", class_name(row.klass));
    count(json, "a_ns", row.a_ns);
    count(json, "b_ns", row.b_ns);
    ratio(json, "ratio", row.ratio);
    json.field("a_share", round6(row.a_share));
    json.field("b_share", round6(row.b_share));
    json.end_object();
  }
  json.end_array();

  json.key("matched");
  json.begin_array();
  for (const MatchedKernel& row : comparison.matched) {
    json.begin_object();
    json.field("normalized", row.normalized);
    json.field("display_a", row.display_a);
    json.field("display_b", row.display_b);
    json.field("class_a", class_name(row.class_a));
    json.field("class_b", class_name(row.class_b));
    count(json, "a_ns", row.a_ns);
    count(json, "b_ns", row.b_ns);
    count(json, "a_calls", row.a_calls);
    count(json, "b_calls", row.b_calls);
    ratio(json, "ratio", row.ratio);
    json.end_object();
  }
  json.end_array();

  json.key("unmatched");
  json.begin_array();
  for (const UnmatchedClass& group : comparison.unmatched) {
    json.begin_object();
    json.field("class", class_name(group.klass));
    count(json, "a_ns", group.a_ns);
    count(json, "b_ns", group.b_ns);
    unmatched_list(json, "only_a", group.only_a);
    unmatched_list(json, "only_b", group.only_b);
    json.end_object();
  }
  json.end_array();
  json.end_object();
  json.finish();
  return std::move(sink.text());
}

}  // namespace gpuport
