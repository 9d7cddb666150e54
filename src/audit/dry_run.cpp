// Reducing a hipify run to the effort model's inputs.
#include "audit/dry_run.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "hipify/translator.h"
#include "scan/rules/catalog.h"

namespace gpuport {

DryRunDigest digest_dry_run(const HipifyRun& run, const ScanResult& scan) {
  DryRunDigest digest;
  std::set<std::string_view> translated;
  std::map<std::string, ApiUse> unsupported;
  for (const FileOutcome& file : run.files) {
    if (file.action != FileAction::Translate) {
      continue;
    }
    ++digest.translatable_files;
    translated.insert(file.relative);
    if (file.changed) {
      digest.changed_files.push_back(file.relative);
    }
    for (const UnsupportedUse& use : file.stats.unsupported) {
      auto [it, added] =
          unsupported.try_emplace(use.name, ApiUse{use.name, file.relative, use.line, 0});
      it->second.uses += 1;
    }
    for (const UnsupportedUse& use : file.stats.needs_review) {
      digest.needs_review.push_back({use.name, file.relative, use.line, 1});
    }
  }
  for (auto& [name, use] : unsupported) {
    digest.unsupported.push_back(std::move(use));
  }
  const auto catalog = rule_catalog();
  for (const Finding& finding : scan.findings) {
    if (finding.rule < catalog.size() && resolved_by_translation(catalog[finding.rule].id) &&
        translated.contains(std::string_view(finding.file))) {
      digest.resolved.emplace(finding.rule, std::string(finding.file), finding.line);
    }
  }
  return digest;
}

}  // namespace gpuport
