// Reducing a hipify run to the effort model's inputs.
#include "audit/dry_run.h"

#include <algorithm>
#include <map>

namespace gpuport {

DryRunDigest digest_dry_run(const HipifyRun& run) {
  DryRunDigest digest;
  std::map<std::string, ApiUse> unsupported;
  for (const FileOutcome& file : run.files) {
    if (file.action != FileAction::Translate) {
      continue;
    }
    ++digest.translatable_files;
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
    for (const Finding& finding : file.resolved) {
      digest.resolved.emplace(finding.rule, file.relative, finding.line);
    }
  }
  for (auto& [name, use] : unsupported) {
    digest.unsupported.push_back(std::move(use));
  }
  return digest;
}

}  // namespace gpuport
