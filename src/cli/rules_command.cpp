// `gpuport rules`: the catalog as a table (id, tier, severity, summary), or one rule in detail.
#include "cli/rules_command.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "report/terminal.h"
#include "report/text_table.h"
#include "report/text_util.h"
#include "scan/rules/catalog.h"

namespace gpuport {

namespace {

using Json = nlohmann::ordered_json;

std::string doc_path(const RuleInfo& rule) {
  return fmt::format("docs/rules/{}.md", rule.id);
}

Json rule_json(const RuleInfo& rule) {
  Json out;
  out["id"] = std::string(rule.id);
  out["family"] = std::string(rule.family);
  out["component"] = valid_utf8(rule.component);
  out["tier"] = std::string(tier_name(rule.tier));
  out["severity"] = std::string(severity_name(rule.severity));
  out["effort_hours"] = rule.effort_hours;
  out["summary"] = valid_utf8(rule.summary);
  out["fix"] = valid_utf8(rule.fix);
  out["doc"] = doc_path(rule);
  return out;
}

std::string list_text(Color color) {
  std::vector<std::vector<std::string>> rows;
  for (const RuleInfo& rule : rule_catalog()) {
    rows.push_back({std::string(rule.id), std::string(tier_name(rule.tier)),
                    std::string(severity_name(rule.severity)), std::string(rule.summary)});
  }
  std::string out =
      render_table({{"Rule", Align::Left, Shrink::Fixed, 12},
                    {"Tier", Align::Left, Shrink::Fixed, 10, KeepEnd::Start, tier_color},
                    {"Severity", Align::Left, Shrink::Fixed, 8},
                    {"Summary", Align::Left, Shrink::Allowed, 20}},
                   rows, 0, terminal_width(), color);
  out += fmt::format("\n{} rules. 'gpuport rules ID' explains one.\n", rule_catalog().size());
  return out;
}

std::string detail_text(const RuleInfo& rule) {
  return fmt::format(
      "{}: {}\n\n"
      "  Tier       {}\n"
      "  Severity   {}\n"
      "  Effort     {} engineer-hours per occurrence\n"
      "  Component  {}\n"
      "  Family     {}\n\n"
      "Fix: {}\n\n"
      "Details: {}\n",
      rule.id, rule.summary, tier_name(rule.tier), severity_name(rule.severity), rule.effort_hours,
      rule.component, rule.family, rule.fix, doc_path(rule));
}

}  // namespace

int run_rules_command(const CommandArgs& args) {
  CLI::App app(
      "List the rules gpuport applies (id, tier, severity, summary), or explain one rule:\n"
      "its summary, the fix, tier, effort per occurrence and its documentation page.",
      "gpuport rules");
  std::string id;
  std::string format = "text";
  app.add_option("ID", id, "A rule id, e.g. GP-ASM-001 (omit to list every rule)");
  app.add_option("--format", format, "text or json")->type_name("FORMAT")->capture_default_str();
  app.footer(
      "Examples:\n"
      "  gpuport rules\n"
      "  gpuport rules GP-WARP-001\n"
      "  gpuport rules --format json\n"
      "\n"
      "Exit codes: 0 ok, 2 bad usage or unknown rule id.");
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& error) {
    std::fprintf(stderr, "gpuport: error: %s\n", printable(error.what()).c_str());
    return 2;
  }
  if (format != "text" && format != "json") {
    std::fprintf(stderr, "gpuport: error: invalid --format '%s' (valid: text, json)\n",
                 printable(format).c_str());
    return 2;
  }

  std::string out;
  if (id.empty()) {
    if (format == "json") {
      Json list = Json::array();
      for (const RuleInfo& rule : rule_catalog()) {
        list.push_back(rule_json(rule));
      }
      out = list.dump(2) + "\n";
    } else {
      out = list_text(decide_stdout_color(ColorMode::Auto));
    }
  } else {
    const RuleInfo* rule = find_rule(id);
    if (rule == nullptr) {
      std::vector<std::string_view> ids;
      for (const RuleInfo& candidate : rule_catalog()) {
        ids.push_back(candidate.id);
      }
      std::string message = fmt::format("gpuport: error: unknown rule '{}'.", printable(id));
      if (auto suggestion = did_you_mean(id, ids)) {
        message += fmt::format(" Did you mean '{}'?", *suggestion);
      }
      std::fprintf(stderr, "%s\n", message.c_str());
      return 2;
    }
    out = format == "json" ? rule_json(*rule).dump(2) + "\n" : detail_text(*rule);
  }
  // A closed pipe is not an error worth a message.
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return 0;
}

}  // namespace gpuport
