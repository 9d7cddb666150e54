// The magnitude check: kernel lines in scope per likely engineer-day of port work, against the
// shipped plausible range (10–2,000 lines a day, judged from 20 days of port work).
#include <gtest/gtest.h>

#include "audit/config.h"
#include "audit/magnitude.h"
#include "scan/rules/catalog.h"

namespace gpuport {
namespace {

Kernel kernel(const std::string& file, std::uint32_t lines, Scope scope = Scope::Product) {
  Kernel out;
  out.name = "k";
  out.file = file;
  out.line = 1;
  out.lines_of_code = lines;
  out.scope = scope;
  return out;
}

EffortItem item(EffortTier tier, double likely, const std::string& weight_key = "") {
  EffortItem out;
  out.tier = tier;
  out.weight_key = weight_key;
  out.days = {likely / 2, likely, likely * 2};
  return out;
}

struct Case {
  ScanResult scan;
  std::vector<EffortItem> items;

  MagnitudeCheck check() const {
    EffortSummary effort;
    for (const EffortItem& each : items) {
      effort.total.likely += each.days.likely;
    }
    return check_magnitude(scan, items, effort, default_audit_config().magnitude);
  }
};

TEST(Magnitude, AnEstimateOfUnderTenLinesADayIsFlaggedAsPossiblyTooHigh) {
  Case c;
  c.scan.kernels = {kernel("a.cu", 300), kernel("b.cu", 100)};
  c.items = {item(EffortTier::Rewrite, 50),
             item(EffortTier::Mechanical, 2, "effort.validation.base_days"),
             item(EffortTier::Config, 1)};
  const MagnitudeCheck check = c.check();
  EXPECT_EQ(check.kernels, 2u);
  EXPECT_EQ(check.kernel_lines, 400u);
  EXPECT_DOUBLE_EQ(check.port_days, 50);  // validation and config left out
  ASSERT_TRUE(check.lines_per_day);
  EXPECT_DOUBLE_EQ(*check.lines_per_day, 8);
  EXPECT_EQ(check.state, MagnitudeState::TooHigh);
  EXPECT_EQ(check.text,
            "400 kernel lines in 2 kernels in scope; the port work (50 days likely) implies 8 "
            "lines per engineer-day, below the plausible 10–2,000: the estimate may be too high "
            "for the code in scope; check its largest items before using it");
}

TEST(Magnitude, ARateInsideTheRangeIsPlausible) {
  Case c;
  c.scan.kernels = {kernel("a.cu", 6000), kernel("t.cu", 900, Scope::Test)};
  c.items = {item(EffortTier::Rewrite, 150)};
  const MagnitudeCheck check = c.check();
  EXPECT_EQ(check.kernel_lines, 6000u);  // test code is not in scope
  EXPECT_EQ(check.state, MagnitudeState::Plausible);
  EXPECT_EQ(check.text,
            "6,000 kernel lines in 1 kernel in scope; the port work (150 days likely) implies 40 "
            "lines per engineer-day (plausible: 10–2,000)");
}

TEST(Magnitude, OverTwoThousandLinesADayIsPossiblyTooLowUnlessTheProjectBuildsForAmd) {
  Case c;
  c.scan.kernels = {kernel("a.cu", 90'000)};
  c.items = {item(EffortTier::Mechanical, 30)};
  EXPECT_EQ(c.check().state, MagnitudeState::TooLow);
  c.scan.amd_build.exists = true;  // its kernels are validated, not ported
  EXPECT_EQ(c.check().state, MagnitudeState::Plausible);
}

TEST(Magnitude, NoKernelCodeOrLittlePortWorkIsNotChecked) {
  Case none;
  none.items = {item(EffortTier::Mechanical, 40)};
  EXPECT_EQ(none.check().state, MagnitudeState::NotChecked);
  EXPECT_FALSE(none.check().lines_per_day);
  Case small;
  small.scan.kernels = {kernel("a.cu", 12)};
  small.items = {item(EffortTier::Rewrite, 4)};
  const MagnitudeCheck check = small.check();
  EXPECT_EQ(check.state, MagnitudeState::NotChecked);
  EXPECT_EQ(check.text,
            "12 kernel lines in 1 kernel in scope; 4 days of port work is under 20, too little to "
            "judge by the code's size");
  // No port work at all, with the threshold set to 0: nothing to divide by, not "inf lines".
  MagnitudeConfig zero = default_audit_config().magnitude;
  zero.min_port_days = 0;
  EffortSummary nothing;
  const MagnitudeCheck idle = check_magnitude(small.scan, {}, nothing, zero);
  EXPECT_EQ(idle.state, MagnitudeState::NotChecked);
  EXPECT_FALSE(idle.lines_per_day);
  EXPECT_EQ(idle.text.find("inf"), std::string::npos) << idle.text;
  // Left out of the AMD build: not in scope.
  Case excluded;
  excluded.scan.kernels = {kernel("a.cu", 500)};
  excluded.scan.kernels[0].amd.state = AmdBuildState::Excluded;
  excluded.items = {item(EffortTier::Rewrite, 30)};
  EXPECT_EQ(excluded.check().kernel_lines, 0u);
}

}  // namespace
}  // namespace gpuport
