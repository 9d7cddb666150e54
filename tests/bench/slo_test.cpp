// parse_slo: the forms users write, the canonical spelling saved in results, exact errors.
#include "bench/slo.h"

#include <gtest/gtest.h>

namespace gpuport {
namespace {

TEST(Slo, ParsesTermsWithUnits) {
  const auto slo = parse_slo("p95_ttft=500ms, p95_e2el=4s,p99_tpot=50,p99.9_itl=750us");
  ASSERT_TRUE(slo.has_value()) << slo.error();
  ASSERT_EQ(slo->terms.size(), 4u);
  EXPECT_EQ(slo->terms[0].metric, "ttft");
  EXPECT_EQ(slo->terms[0].percentile, 95);
  EXPECT_EQ(slo->terms[0].limit_us, 500'000);
  EXPECT_EQ(slo->terms[1].limit_us, 4'000'000);
  EXPECT_EQ(slo->terms[2].limit_us, 50'000);  // a bare number is milliseconds
  EXPECT_EQ(slo->terms[3].percentile, 99.9);
  EXPECT_EQ(slo->terms[3].limit_us, 750);
  EXPECT_EQ(slo->to_string(), "p95_ttft=500ms,p95_e2el=4000ms,p99_tpot=50ms,p99.9_itl=750us");
}

TEST(Slo, CanonicalTextParsesBackToTheSameSlo) {
  const auto slo = parse_slo("p50_e2el=1.5s,p90_ttft=0.25ms");
  ASSERT_TRUE(slo.has_value());
  EXPECT_EQ(slo->to_string(), "p50_e2el=1500ms,p90_ttft=250us");
  EXPECT_EQ(parse_slo(slo->to_string())->to_string(), slo->to_string());
}

TEST(Slo, ErrorsNameTheTerm) {
  EXPECT_EQ(parse_slo("p95_ttft=5xs").error(),
            "SLO term 'p95_ttft=5xs': unknown unit 'xs' (use us, ms or s)");
  EXPECT_EQ(parse_slo("p95_ttft=500ms,p95_foo=1s").error(),
            "SLO term 'p95_foo=1s': unknown metric 'foo' (use ttft, tpot, itl or e2el)");
  EXPECT_EQ(parse_slo("p95_ttft").error(),
            "SLO term 'p95_ttft': expected pNN_metric=limit, e.g. p95_ttft=500ms");
  EXPECT_EQ(parse_slo("ttft=5").error(),
            "SLO term 'ttft=5': expected a percentile and a metric such as p95_ttft before '='");
  EXPECT_EQ(parse_slo("p101_ttft=5").error(),
            "SLO term 'p101_ttft=5': percentile 'p101' must be p followed by a number above 0 "
            "and at most 100");
  EXPECT_EQ(parse_slo("p95_ttft=-5ms").error(),
            "SLO term 'p95_ttft=-5ms': expected a number after '='");
  EXPECT_EQ(parse_slo("p95_ttft=0.1us").error(),
            "SLO term 'p95_ttft=0.1us': the limit must be at least 1us");
  EXPECT_EQ(parse_slo("p95_ttft=2,p95_ttft=3").error(),
            "SLO term 'p95_ttft=3': p95_ttft is given twice");
  EXPECT_EQ(parse_slo("p95_ttft=2,,").error(),
            "SLO term '': expected pNN_metric=limit, e.g. p95_ttft=500ms");
  EXPECT_EQ(parse_slo("  ").error(), "empty SLO: expected terms such as p95_ttft=500ms");
}

}  // namespace
}  // namespace gpuport
