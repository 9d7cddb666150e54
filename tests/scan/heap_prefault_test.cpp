// HeapPrefault maps heap pages ahead of a worker's allocations; it must never change what a scan
// finds, and it maps a chunk once per `every` bytes of source.
#include "scan/heap_prefault.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "scan/scanner.h"

namespace gpuport {
namespace {

TEST(HeapPrefault, MapsOneChunkPerEveryBytesOfSource) {
  HeapPrefault prefault(100, 64 * 1024);
  EXPECT_FALSE(prefault.after_file(60));
  EXPECT_TRUE(prefault.after_file(60));  // 120 >= 100: a chunk, and the count starts again
  EXPECT_FALSE(prefault.after_file(99));
  EXPECT_TRUE(prefault.after_file(1));
  EXPECT_TRUE(prefault.after_file(5000));  // one chunk however large the file
  EXPECT_FALSE(prefault.after_file(0));
}

TEST(HeapPrefault, ZeroEveryNeverMaps) {
  HeapPrefault prefault(0, 64 * 1024);
  EXPECT_FALSE(prefault.after_file(1u << 30));
}

// Mapping pages for writing keeps what they hold, also where the range holds whole 2 MiB
// blocks (asked for as huge pages); a range within one page needs no call.
TEST(HeapPrefault, PopulateKeepsTheBytes) {
  constexpr std::size_t k_size = 6 * 1024 * 1024;
  std::unique_ptr<char[]> buffer(new char[k_size]);
  for (std::size_t i = 0; i < k_size; ++i) {
    buffer[i] = static_cast<char>(i * 7 + 3);
  }
  populate_for_writing(buffer.get(), k_size);
  for (std::size_t i = 0; i < k_size; ++i) {
    ASSERT_EQ(buffer[i], static_cast<char>(i * 7 + 3)) << i;
  }
  alignas(4096) static char page[4096];
  EXPECT_TRUE(populate_for_writing(page + 1, 100));
}

// Enough source for several chunks per worker: the findings and kernels are the same with the
// prefault on and off.
TEST(HeapPrefault, ScanFindsTheSameWithAndWithoutIt) {
  MemoryFileSystem fs;
  std::string body;
  while (body.size() < 1024 * 1024) {
    body += "__global__ void k" + std::to_string(body.size()) +
            "(unsigned m) { asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(m)); }\n";
  }
  for (int i = 0; i < 12; ++i) {
    fs.add_file("repo/f" + std::to_string(i) + ".cu", body);
  }
  ScanOptions options;
  options.walk.jobs = 2;
  auto without = scan(fs, "repo", options);
  options.prefault_heap = true;
  auto with = scan(fs, "repo", options);
  ASSERT_TRUE(without.has_value());
  ASSERT_TRUE(with.has_value());
  ASSERT_EQ(with->findings.size(), without->findings.size());
  ASSERT_GT(with->findings.size(), 1000u);
  for (std::size_t i = 0; i < with->findings.size(); ++i) {
    ASSERT_EQ(with->findings[i].file, without->findings[i].file) << i;
    ASSERT_EQ(with->findings[i].line, without->findings[i].line) << i;
    ASSERT_EQ(with->findings[i].rule, without->findings[i].rule) << i;
  }
  ASSERT_EQ(with->kernels.size(), without->kernels.size());
  EXPECT_EQ(with->kernels.back().name, without->kernels.back().name);
}

}  // namespace
}  // namespace gpuport
