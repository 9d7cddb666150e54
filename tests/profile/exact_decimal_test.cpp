#include "profile/json/exact_decimal.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace gpuport::json {
namespace {

TEST(ExactDecimalTest, MicrosecondDecimalsBecomeExactNanoseconds) {
  EXPECT_EQ(scaled_decimal("18.112", 3), 18112);
  EXPECT_EQ(scaled_decimal("1428625731622.25", 3), 1428625731622250);
  EXPECT_EQ(scaled_decimal("2.08", 3), 2080);
  EXPECT_EQ(scaled_decimal("0.001", 3), 1);
  EXPECT_EQ(scaled_decimal("769537350099", 3), 769537350099000);
  EXPECT_EQ(scaled_decimal("0", 3), 0);
  EXPECT_EQ(scaled_decimal("-0.0", 3), 0);
  EXPECT_EQ(scaled_decimal("-3.5", 3), -3500);
}

TEST(ExactDecimalTest, SumsThatDoubleArithmeticGetsWrong) {
  // 0.1 + 0.2 in doubles is 0.30000000000000004; in nanoseconds it is exactly 300.
  EXPECT_EQ(*scaled_decimal("0.1", 3) + *scaled_decimal("0.2", 3), 300);
  // A timestamp whose double is 4909913692278.2802734375: still 4909913692278281 ns.
  EXPECT_EQ(scaled_decimal("4909913692278.281", 3), 4909913692278281);
}

TEST(ExactDecimalTest, ExponentsShiftTheDecimalPoint) {
  EXPECT_EQ(scaled_decimal("1.5e3", 3), 1500000);
  EXPECT_EQ(scaled_decimal("1.5E+0", 3), 1500);
  EXPECT_EQ(scaled_decimal("18112e-3", 3), 18112);
  EXPECT_EQ(scaled_decimal("1e-9", 3), 0);
  EXPECT_EQ(scaled_decimal("1e-999999999999", 3), 0);
  EXPECT_FALSE(scaled_decimal("1e999999999999", 3).has_value());
}

TEST(ExactDecimalTest, DigitsBelowTheScaleRoundHalfAwayFromZero) {
  EXPECT_EQ(scaled_decimal("1.0004", 3), 1000);
  EXPECT_EQ(scaled_decimal("1.0005", 3), 1001);
  EXPECT_EQ(scaled_decimal("-1.0005", 3), -1001);
  EXPECT_EQ(scaled_decimal("0.0005", 3), 1);
  EXPECT_EQ(scaled_decimal("0.00049999999999999999999999", 3), 0);
  EXPECT_EQ(scaled_decimal("2.5", 0), 3);
}

TEST(ExactDecimalTest, LongMantissasAndInt64Limits) {
  EXPECT_EQ(scaled_decimal("9223372036854775807", 0), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(scaled_decimal("-9223372036854775808", 0), std::numeric_limits<std::int64_t>::min());
  EXPECT_FALSE(scaled_decimal("9223372036854775808", 0).has_value());
  EXPECT_FALSE(scaled_decimal("17332996360099338395", 0).has_value());
  EXPECT_EQ(scaled_decimal("0.000000000000000000000000000000000000000000000000001234e54", 0), 1234);
  EXPECT_EQ(scaled_decimal("12345678901234567890123456789012345678901234567890e-40", 3),
            1234567890123);
}

TEST(ExactDecimalTest, RejectsWhatIsNotAJsonNumber) {
  for (const char* text : {"", "-", "+1", "1.", ".5", "01", "1e", "1e+", "0x10", "1.2.3", " 1",
                           "1 ", "NaN", "inf", "12a"}) {
    EXPECT_FALSE(scaled_decimal(text, 3).has_value()) << text;
  }
}

}  // namespace
}  // namespace gpuport::json
