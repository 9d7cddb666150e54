// read_bounded_file: whole text inputs with a cap, so that `--config /dev/zero` or an endless
// FIFO is one error and not memory grown until std::bad_alloc (issue 27, item 11).
#include "source/bounded_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>
#include <thread>

#include "temp_dir.h"

namespace gpuport {
namespace {

using gpuport::testing::TempDir;

TEST(BoundedRead, ReadsAWholeFileUpToTheLimit) {
  TempDir dir;
  dir.write("a.toml", "[hot]\nthreshold = 0.1\n");
  auto text = read_bounded_file(dir.str() + "/a.toml", 22, "gpuport config");
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(*text, "[hot]\nthreshold = 0.1\n");
  auto over = read_bounded_file(dir.str() + "/a.toml", 21, "gpuport config");
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().path, dir.str() + "/a.toml");
  EXPECT_EQ(over.error().message, "larger than 21 bytes; not a gpuport config");
  EXPECT_EQ(read_bounded_file(dir.str(), 1 << 20, "x").error().message, "is a directory");
  EXPECT_EQ(read_bounded_file(dir.str() + "/none", 1 << 20, "x").error().message,
            std::strerror(ENOENT));
}

TEST(BoundedRead, AStreamThatDoesNotEndStopsAtTheLimit) {
  TempDir dir;
  const std::string fifo = dir.str() + "/endless";
  // The writer learns the reader is gone from EPIPE, not from a signal that ends the test.
  const auto previous = std::signal(SIGPIPE, SIG_IGN);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    const std::string block(4096, 'x');
    while (fd >= 0 && ::write(fd, block.data(), block.size()) > 0) {
    }
    if (fd >= 0) {
      ::close(fd);
    }
  });
  auto text = read_bounded_file(fifo, 1 << 20, "prompt dataset");
  writer.join();  // the reader closed its end: the writer's next write fails with EPIPE
  std::signal(SIGPIPE, previous);
  ASSERT_FALSE(text.has_value());
  EXPECT_EQ(text.error().message, "larger than 1 MiB; not a prompt dataset");
}

// /dev/zero's numbers on a private node: its first byte ends the read.
TEST(BoundedRead, ANulByteEndsATextInputAtOnce) {
  TempDir dir;
  dir.write("result.json", std::string("{\"a\": 1}\n\0\0", 11));
  auto text = read_bounded_file(dir.str() + "/result.json", 1 << 20, "gpuport bench result");
  ASSERT_FALSE(text.has_value());
  EXPECT_EQ(text.error().message, "byte 9: a NUL byte; a gpuport bench result is text");
  const std::string zero = dir.str() + "/zero";
  if (::mknod(zero.c_str(), S_IFCHR | 0444, ::makedev(1, 5)) != 0) {
    GTEST_SKIP() << "cannot make a private device node here (mknod: " << std::strerror(errno)
                 << ")";
  }
  auto zeros = read_bounded_file(zero, 1ull << 30, "gpuport config");
  ASSERT_FALSE(zeros.has_value());
  EXPECT_EQ(zeros.error().message, "byte 0: a NUL byte; a gpuport config is text");
}

}  // namespace
}  // namespace gpuport
