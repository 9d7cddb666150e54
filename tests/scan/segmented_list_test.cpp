// SegmentedList: the scan's findings, kernels and launch sites, one segment per file, read like
// one vector.
#include "scan/segmented_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

namespace gpuport {
namespace {

using ::testing::ElementsAre;

static_assert(std::random_access_iterator<SegmentedList<int>::iterator>);
static_assert(std::random_access_iterator<SegmentedList<int>::const_iterator>);

SegmentedList<int> one_to_six() {
  SegmentedList<int> list;
  list.append_segment({1, 2});
  list.append_segment({});  // adds no segment
  list.append_segment({3});
  list.append_segment({4, 5, 6});
  return list;
}

TEST(SegmentedList, IndexesAcrossSegmentsAndSkipsEmptyOnes) {
  const SegmentedList<int> list = one_to_six();
  EXPECT_EQ(list.size(), 6u);
  EXPECT_EQ(list.segment_count(), 3u);
  for (std::size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(list[i], static_cast<int>(i) + 1) << i;
  }
  EXPECT_EQ(list.front(), 1);
  EXPECT_EQ(list.back(), 6);
  EXPECT_TRUE(SegmentedList<int>().empty());
  EXPECT_EQ(SegmentedList<int>().begin(), SegmentedList<int>().end());
}

TEST(SegmentedList, IteratorsStepJumpAndCompareAcrossSegments) {
  const SegmentedList<int> list = one_to_six();
  EXPECT_THAT(list, ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_EQ(list.end() - list.begin(), 6);
  EXPECT_EQ(*(list.begin() + 3), 4);  // a jump into another segment
  EXPECT_EQ(*(list.begin() + 1), 2);  // within the first
  EXPECT_EQ(*(list.end() - 1), 6);    // back from the end
  EXPECT_EQ(list.begin()[4], 5);
  auto it = list.end();
  std::vector<int> backwards;
  while (it != list.begin()) {
    --it;
    backwards.push_back(*it);
  }
  EXPECT_THAT(backwards, ElementsAre(6, 5, 4, 3, 2, 1));
  auto moved = list.begin() + 5;
  moved -= 3;  // from the last segment into the second
  EXPECT_EQ(*moved, 3);
  EXPECT_LT(list.begin(), moved);
  // Standard algorithms that jump: a binary search, a sortedness check.
  EXPECT_EQ(*std::lower_bound(list.begin(), list.end(), 4), 4);
  EXPECT_EQ(std::upper_bound(list.begin(), list.end(), 6), list.end());
  EXPECT_TRUE(std::is_sorted(list.begin(), list.end()));
}

TEST(SegmentedList, WritesThroughMutableIteratorsAndConvertsToConst) {
  SegmentedList<int> list = one_to_six();
  for (int& value : list) {
    value *= 10;
  }
  list[2] += 1;
  SegmentedList<int>::const_iterator first = list.begin();
  EXPECT_EQ(*first, 10);
  EXPECT_THAT(list, ElementsAre(10, 20, 31, 40, 50, 60));
}

TEST(SegmentedList, PushBackAddsToTheLastSegment) {
  SegmentedList<int> list;
  list.push_back(1);  // the first push makes a segment
  EXPECT_EQ(list.segment_count(), 1u);
  list.append_segment({2, 3});
  list.emplace_back(4);
  EXPECT_EQ(list.segment_count(), 2u);
  EXPECT_EQ(list.size(), 4u);
  EXPECT_THAT(list, ElementsAre(1, 2, 3, 4));
  list.clear();
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.segment_count(), 0u);
}

TEST(SegmentedList, StableSortJoinsTheSegmentsAndKeepsTiesInOrder) {
  SegmentedList<std::pair<int, char>> list;
  list.append_segment({{2, 'a'}, {1, 'b'}});
  list.append_segment({{2, 'c'}, {0, 'd'}});
  list.append_segment({{1, 'e'}});
  list.stable_sort([](const auto& x, const auto& y) { return x.first < y.first; });
  EXPECT_EQ(list.segment_count(), 1u);
  std::vector<char> tags;
  for (const auto& [key, tag] : list) {
    tags.push_back(tag);
  }
  EXPECT_THAT(tags, ElementsAre('d', 'b', 'e', 'a', 'c'));
}

TEST(SegmentedList, EqualityComparesItemsNotSegments) {
  SegmentedList<int> split = one_to_six();
  SegmentedList<int> whole = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(whole.segment_count(), 1u);
  EXPECT_TRUE(split == whole);
  whole[5] = 7;
  EXPECT_FALSE(split == whole);
}

}  // namespace
}  // namespace gpuport
