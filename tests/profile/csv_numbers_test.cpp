// Exact number parsing for CSV fields: no floating point between the file and the nanosecond.
#include "profile/csv/csv_numbers.h"

#include <gtest/gtest.h>

namespace gpuport {
namespace {

TEST(CsvNumbers, Integers) {
  EXPECT_EQ(parse_integer("769537350107288"), 769537350107288);
  EXPECT_EQ(parse_integer(" -42\t"), -42);
  EXPECT_EQ(parse_integer("+7"), 7);
  EXPECT_EQ(parse_integer("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(parse_integer("9223372036854775808").error(), NumberProblem::OutOfRange);
  EXPECT_EQ(parse_integer("").error(), NumberProblem::NotANumber);
  EXPECT_EQ(parse_integer("-").error(), NumberProblem::NotANumber);
  EXPECT_EQ(parse_integer("12a").error(), NumberProblem::NotANumber);
  EXPECT_EQ(parse_integer("1.0").error(), NumberProblem::NotANumber);
  EXPECT_EQ(parse_integer("1 2").error(), NumberProblem::NotANumber);
}

TEST(CsvNumbers, DecimalsInUnitsBecomeExactNanoseconds) {
  EXPECT_EQ(parse_decimal_ns("135.137", 1000), 135137);
  EXPECT_EQ(parse_decimal_ns("135.1", 1000), 135100);
  EXPECT_EQ(parse_decimal_ns("135", 1000), 135000);
  EXPECT_EQ(parse_decimal_ns("0.000001", 1000000000), 1000);
  EXPECT_EQ(parse_decimal_ns("2.5", 1000000), 2500000);
  EXPECT_EQ(parse_decimal_ns("1234", 1), 1234);
  EXPECT_EQ(parse_decimal_ns(".5", 1000), 500);
  EXPECT_EQ(parse_decimal_ns("7.", 1000), 7000);
}

TEST(CsvNumbers, DigitsBelowANanosecondRoundHalfAwayFromZero) {
  EXPECT_EQ(parse_decimal_ns("87.5215", 1000), 87522);
  EXPECT_EQ(parse_decimal_ns("87.5214999", 1000), 87521);
  EXPECT_EQ(parse_decimal_ns("0.0015", 1000), 2);
  EXPECT_EQ(parse_decimal_ns("-0.0015", 1000), -2);
  EXPECT_EQ(parse_decimal_ns("40544.5", 1), 40545);
}

TEST(CsvNumbers, BadDecimals) {
  EXPECT_EQ(parse_decimal_ns("", 1000).error(), NumberProblem::NotANumber);
  EXPECT_EQ(parse_decimal_ns(".", 1000).error(), NumberProblem::NotANumber);
  EXPECT_EQ(parse_decimal_ns("1.2.3", 1000).error(), NumberProblem::NotANumber);
  EXPECT_EQ(parse_decimal_ns("1e3", 1000).error(), NumberProblem::NotANumber);
  EXPECT_EQ(parse_decimal_ns("1,234", 1).error(), NumberProblem::NotANumber);
  EXPECT_EQ(parse_decimal_ns("9223372036854775.808", 1000).error(), NumberProblem::OutOfRange);
  EXPECT_EQ(parse_decimal_ns("9223372036854775807.9", 1).error(), NumberProblem::OutOfRange);
}

TEST(CsvNumbers, LabelledIds) {
  EXPECT_EQ(parse_labelled_integer("Agent 4"), 4);
  EXPECT_EQ(parse_labelled_integer("4"), 4);
  EXPECT_EQ(parse_labelled_integer(" Queue 139690710949888 "), 139690710949888);
  EXPECT_EQ(parse_labelled_integer("Agent four").error(), NumberProblem::NotANumber);
  EXPECT_EQ(parse_labelled_integer("0x10 4").error(), NumberProblem::NotANumber);
}

TEST(CsvNumbers, Units) {
  EXPECT_EQ(unit_nanoseconds("ns"), 1);
  EXPECT_EQ(unit_nanoseconds("us"), 1000);
  EXPECT_EQ(unit_nanoseconds("\xCE\xBCs"), 1000);
  EXPECT_EQ(unit_nanoseconds("msec"), 1000000);
  EXPECT_EQ(unit_nanoseconds("s"), 1000000000);
  EXPECT_EQ(unit_nanoseconds("min"), 0);
}

}  // namespace
}  // namespace gpuport
