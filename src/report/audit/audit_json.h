// `gpuport audit --format json`: every value of the AuditResult, documented in
// docs/audit-json.md. Days and dollars are rounded to the cent, shares to 6 decimals.
#pragma once

#include <string>
#include <string_view>

#include "audit/audit_result.h"

namespace gpuport {

inline constexpr std::string_view k_audit_schema_version = "1";

std::string render_audit_json(const AuditResult& result);

}  // namespace gpuport
