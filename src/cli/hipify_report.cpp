// The text views of a hipify run: warnings, statistics, --verify results, the summary line.
#include "cli/hipify_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "report/text_util.h"
#include "scan/rules/catalog.h"

namespace gpuport {

namespace {

struct Positioned {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string text;
};

std::string reason_text(const FileOutcome& file) {
  if (!file.reason) {
    return "translation failed";
  }
  switch (*file.reason) {
    case SkipReason::TooLarge:
      return "larger than --max-filesize";
    case SkipReason::Binary:
      return "binary file";
    case SkipReason::Unreadable:
      return "cannot read: " + file.reason_detail;
    case SkipReason::SymlinkLoop:
      return "symbolic link loop";
    case SkipReason::Symlink:
      return "symbolic link not followed (--follow-symlinks follows it)";
    case SkipReason::Special:
      return "not a regular file";
  }
  return "skipped";
}

std::string family_name(ApiFamily family) {
  return std::string(api_family_name(family));
}

void build_file_lines(const HipifyReport& report, const FileOutcome& file,
                      std::vector<std::string>& lines) {
  const bool applied = report.config.hipify.rewrite_build_files;
  const bool written = report.config.output.mode == OutputMode::Directory ||
                       report.config.output.mode == OutputMode::InPlace;
  for (const BuildFileItem& item : file.build->items) {
    const std::string where = fmt::format("{}:{}", printable(file.display), item.line);
    switch (item.change) {
      case BuildChange::Rewrite:
      case BuildChange::Insert:
        if (applied) {
          lines.push_back(fmt::format("{}: note: {}: {} -> {}", where,
                                      written ? "rewritten" : "would rewrite", printable(item.cuda),
                                      printable(item.hip)));
        } else {
          lines.push_back(fmt::format("{}: note: build file: {} -> {} (--build-files rewrites it)",
                                      where, printable(item.cuda), printable(item.hip)));
        }
        break;
      case BuildChange::Manual:
        lines.push_back(fmt::format("{}: warning: build file needs a hand edit: {}: {}", where,
                                    printable(item.cuda), printable(item.hip)));
        break;
      case BuildChange::Note:
        lines.push_back(
            fmt::format("{}: note: {}: {}", where, printable(item.cuda), printable(item.hip)));
        break;
    }
  }
}

std::string thousands(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<std::size_t>(i), 1, ',');
  }
  return digits;
}

std::string plural(std::size_t count, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", thousands(count), count == 1 ? one : many);
}

}  // namespace

HipifyCounts count_results(const HipifyRun& run) {
  HipifyCounts counts;
  std::map<std::uint16_t, std::size_t> by_rule;
  std::map<std::uint16_t, std::size_t> resolved_by_rule;
  for (const FileOutcome& file : run.files) {
    ++counts.files;
    switch (file.action) {
      case FileAction::Translate:
        ++counts.translated;
        counts.changed += file.changed ? 1 : 0;
        counts.hip_shims += file.kept_as_is == KeptAsIs::HipShim ? 1 : 0;
        counts.other_backends += file.kept_as_is == KeptAsIs::OtherBackend ? 1 : 0;
        counts.warnings += file.warnings.size();
        for (const Finding& finding : file.warnings) {
          ++by_rule[finding.rule];
        }
        counts.resolved += file.resolved.size();
        for (const Finding& finding : file.resolved) {
          ++resolved_by_rule[finding.rule];
        }
        break;
      case FileAction::BuildFile:
        ++counts.build_files;
        counts.build_files_rewritten += file.changed ? 1 : 0;
        counts.build_items += file.build->items.size();
        counts.build_manual += static_cast<std::size_t>(
            std::count_if(file.build->items.begin(), file.build->items.end(),
                          [](const BuildFileItem& i) { return i.change == BuildChange::Manual; }));
        break;
      case FileAction::Copy:
        ++counts.copied;
        counts.not_translated += is_translatable(file.relative) ? 1 : 0;
        break;
      case FileAction::Symlink:
        ++counts.symlinks;
        break;
      case FileAction::Skip:
        ++counts.skipped;
        break;
    }
  }
  const auto catalog = rule_catalog();
  counts.warnings_by_rule.assign(by_rule.begin(), by_rule.end());
  counts.resolved_by_rule.assign(resolved_by_rule.begin(), resolved_by_rule.end());
  std::sort(counts.warnings_by_rule.begin(), counts.warnings_by_rule.end(),
            [&catalog](const auto& a, const auto& b) {
              const Tier ta = a.first < catalog.size() ? catalog[a.first].tier : Tier::Framework;
              const Tier tb = b.first < catalog.size() ? catalog[b.first].tier : Tier::Framework;
              return std::make_tuple(tb, b.second, a.first) <
                     std::make_tuple(ta, a.second, b.first);
            });
  return counts;
}

std::vector<std::string> diagnostic_lines(const HipifyReport& report) {
  const bool warnings = report.config.hipify.translate.warnings;
  const auto catalog = rule_catalog();
  std::vector<std::string> lines;
  for (const FileOutcome& file : report.run.files) {
    const std::string name = printable(file.display);
    std::vector<Positioned> positioned;
    if (warnings) {
      for (const LexDiagnostic& diagnostic : file.diagnostics) {
        positioned.push_back({diagnostic.line, diagnostic.column,
                              fmt::format("warning: {}", printable(diagnostic.message))});
      }
      for (const Finding& finding : file.warnings) {
        if (finding.rule >= catalog.size()) {
          continue;
        }
        const RuleInfo& rule = catalog[finding.rule];
        std::string text = fmt::format("warning: [{}] {}", rule.id, printable(rule.summary));
        if (!finding.detail.empty()) {
          text += fmt::format(" ({})", printable(finding.detail));
        }
        positioned.push_back({finding.line, finding.column, std::move(text)});
      }
      for (const UnsupportedUse& use : file.stats.unsupported) {
        positioned.push_back({use.line, use.column,
                              use.needs_rocm != 0
                                  ? fmt::format("warning: needs ROCm >= {}: {} ({})",
                                                rocm_release_name(use.needs_rocm),
                                                printable(use.name), family_name(use.family))
                                  : fmt::format("warning: unsupported on HIP: {} ({})",
                                                printable(use.name), family_name(use.family))});
      }
      for (const UnsupportedUse& use : file.stats.needs_review) {
        positioned.push_back(
            {use.line, use.column,
             fmt::format("warning: needs review: {}: {}", printable(use.name), use.why)});
      }
    }
    std::stable_sort(positioned.begin(), positioned.end(), [](const auto& a, const auto& b) {
      return std::tie(a.line, a.column) < std::tie(b.line, b.column);
    });
    for (const Positioned& entry : positioned) {
      lines.push_back(fmt::format("{}:{}:{}: {}", name, entry.line, entry.column, entry.text));
    }
    const bool source = is_translatable(file.relative);
    if ((file.action == FileAction::Copy && source) || file.action == FileAction::Skip) {
      lines.push_back(
          fmt::format("{}: warning: not translated: {}", name, printable(reason_text(file))));
    } else if (file.action == FileAction::Symlink && source) {
      lines.push_back(fmt::format("{}: note: not translated: {}", name, reason_text(file)));
    }
    if (file.action == FileAction::BuildFile) {
      build_file_lines(report, file, lines);
    }
  }
  for (const IoError& warning : report.run.warnings) {
    lines.push_back(
        fmt::format("{}: warning: {}", printable(warning.path), printable(warning.message)));
  }
  return lines;
}

std::string stats_text(const HipifyReport& report) {
  const HipifyRun& run = report.run;
  const TranslationStats& totals = run.totals;
  const HipifyCounts counts = count_results(run);
  std::string out = "Statistics\n";
  const RocmRelease target = report.config.hipify.translate.rocm;
  out += fmt::format("  target                ROCm {}{}\n",
                     rocm_release_name(target != 0 ? target : newest_rocm_release()),
                     target != 0 ? "" : " (the newest the tables know; --rocm X.Y to change)");
  out += fmt::format(
      "  files                 {}: {} translated ({} changed), {}, {} copied\n",
      thousands(counts.files), thousands(counts.translated), thousands(counts.changed),
      plural(counts.build_files, "build file", "build files"), thousands(counts.copied));
  if (counts.hip_shims + counts.other_backends > 0) {
    out +=
        fmt::format("  kept as they are      {}, {}\n",
                    plural(counts.hip_shims, "HIP shim header", "HIP shim headers"),
                    plural(counts.other_backends, "other-backend source", "other-backend sources"));
  }
  if (counts.not_translated + counts.skipped > 0) {
    out += fmt::format("  not translated        {} (see the warnings)\n",
                       thousands(counts.not_translated + counts.skipped));
  }
  out += fmt::format("  lines of code         {} ({} changed)\n", thousands(totals.lines),
                     thousands(totals.changed_lines));
  out += fmt::format("  references converted  {}\n", thousands(totals.converted));
  for (std::size_t i = 0; i < k_api_family_count; ++i) {
    if (totals.converted_by_family[i] > 0) {
      out += fmt::format("    {:<20} {:>8}\n", family_name(static_cast<ApiFamily>(i)),
                         thousands(totals.converted_by_family[i]));
    }
  }
  if (totals.kept > 0) {
    out += fmt::format("  spelled the same      {} (HIP uses the CUDA name: __syncthreads, ...)\n",
                       thousands(totals.kept));
  }
  out += fmt::format(
      "  kernel launches rewritten {}, HIP_SYMBOL added {}, kernel pointers cast {}, runtime "
      "includes added {}, duplicate includes removed {}\n",
      totals.launches_rewritten, totals.symbol_arguments_wrapped, totals.kernel_arguments_cast,
      totals.includes_added, totals.includes_removed);
  if (totals.roc_arguments_cast > 0) {
    out += fmt::format(
        "  roc value types cast {} (rocblas_float_complex, rocblas_half, ... where the roc call "
        "takes them)\n",
        totals.roc_arguments_cast);
  }
  if (totals.arguments_dropped > 0) {
    out += fmt::format("  null arguments dropped {} (HIP's form of the call lacks them)\n",
                       totals.arguments_dropped);
  }
  out += fmt::format("  deprecated CUDA uses  {}\n", thousands(totals.deprecated_uses));
  if (totals.hip_deprecated_uses > 0) {
    out += fmt::format(
        "  deprecated HIP names  {} written (the target's headers mark them deprecated; HIP has "
        "nothing newer for them)\n",
        thousands(totals.hip_deprecated_uses));
  }
  if (!totals.converted_by_name.empty()) {
    out += "\nConverted by name\n";
    std::size_t width = 0;
    for (const ConversionCount& entry : totals.converted_by_name) {
      width = std::max(width, entry.cuda.size() + entry.hip.size() + 4);
    }
    for (const ConversionCount& entry : totals.converted_by_name) {
      out +=
          fmt::format("  {:<{}} {:>8}  {}\n", printable(entry.cuda) + " -> " + printable(entry.hip),
                      width, thousands(entry.count), family_name(entry.family));
    }
  }
  const auto newer = std::count_if(totals.unsupported.begin(), totals.unsupported.end(),
                                   [](const UnsupportedUse& use) { return use.needs_rocm != 0; });
  out += fmt::format("\nUnsupported on HIP    {}{}\n", thousands(totals.unsupported.size()),
                     newer == 0 ? ""
                                : fmt::format(" ({} need a newer ROCm than the target)",
                                              thousands(static_cast<std::uint64_t>(newer))));
  for (const UnsupportedUse& use : totals.unsupported) {
    out += fmt::format(
        "  {}:{}:{}  {} ({}{}{})\n", printable(use.file), use.line, use.column, printable(use.name),
        family_name(use.family),
        use.lifecycle == Lifecycle::Current
            ? ""
            : ", " + std::string(lifecycle_name(use.lifecycle)) + " in CUDA",
        use.needs_rocm == 0 ? "" : ", needs ROCm >= " + rocm_release_name(use.needs_rocm));
  }
  out += fmt::format("\nWarnings by rule      {}\n", thousands(counts.warnings));
  const auto catalog = rule_catalog();
  for (const auto& [index, count] : counts.warnings_by_rule) {
    if (index < catalog.size()) {
      const RuleInfo& rule = catalog[index];
      out += fmt::format("  {:<12} {:<10} {:>6}  {}\n", rule.id, tier_name(rule.tier),
                         thousands(count), truncate_to_width(rule.summary, 72));
    }
  }
  if (counts.resolved > 0) {
    out += fmt::format("\nResolved by the translation {}\n", thousands(counts.resolved));
    for (const auto& [index, count] : counts.resolved_by_rule) {
      if (index < catalog.size()) {
        const RuleInfo& rule = catalog[index];
        out += fmt::format("  {:<12} {:>6}  {}\n", rule.id, thousands(count),
                           truncate_to_width(rule.summary, 79));
      }
    }
  }
  if (counts.build_files > 0) {
    out += fmt::format("\nBuild files           {}: {} items, {} need a hand edit{}\n",
                       thousands(counts.build_files), thousands(counts.build_items),
                       thousands(counts.build_manual),
                       report.config.hipify.rewrite_build_files
                           ? fmt::format(", {} rewritten", counts.build_files_rewritten)
                           : std::string(" (--build-files rewrites them)"));
  }
  return out;
}

std::string verify_text(const HipifyReport& report) {
  if (!report.verify) {
    return {};
  }
  std::map<VerifyStatus, std::size_t> by_status;
  for (const VerifyResult& result : *report.verify) {
    ++by_status[result.status];
  }
  const VerifyOptions& options = report.config.verify_options;
  std::string out =
      fmt::format("\nVerify (hipcc --offload-arch={} -fsyntax-only)", options.offload_arch);
  std::string separator = ": ";
  for (const auto& [status, count] : by_status) {
    out += fmt::format("{}{} {}", separator, count, verify_status_name(status));
    separator = ", ";
  }
  out += "\n";
  for (const VerifyResult& result : *report.verify) {
    out += fmt::format("  {:<15} {}", verify_status_name(result.status), printable(result.file));
    if (!result.detail.empty()) {
      out += fmt::format(": {}", printable(result.detail));
    }
    out += "\n";
  }
  return out;
}

std::string summary_line(const HipifyReport& report) {
  const HipifyCounts counts = count_results(report.run);
  std::string where;
  switch (report.config.output.mode) {
    case OutputMode::Directory:
      where = fmt::format("written to {}", printable(report.config.output.directory));
      break;
    case OutputMode::InPlace:
      where = fmt::format("rewritten in place (originals kept as *{})", k_backup_suffix);
      break;
    case OutputMode::Stdout:
      where = "printed to stdout";
      break;
    case OutputMode::DryRun:
      where = "dry run: nothing written";
      break;
  }
  return fmt::format("gpuport hipify: {}, {} changed, {} converted, {}, {} unsupported; {}",
                     plural(counts.files, "file", "files"), thousands(counts.changed),
                     plural(report.run.totals.converted, "reference", "references"),
                     plural(counts.warnings, "warning", "warnings"),
                     thousands(report.run.totals.unsupported.size()), where);
}

std::size_t verify_failures(const HipifyReport& report) {
  if (!report.verify) {
    return 0;
  }
  return static_cast<std::size_t>(
      std::count_if(report.verify->begin(), report.verify->end(),
                    [](const VerifyResult& r) { return r.status == VerifyStatus::Fail; }));
}

}  // namespace gpuport
