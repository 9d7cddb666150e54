#include "profile/byte_stream.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "profile/trace.h"
#include "profile/trace_reader.h"

namespace gpuport {
namespace {

namespace fs = std::filesystem;

std::string gzip(const std::string& text) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, text.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

class ByteStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir =
        fs::temp_directory_path() /
        ("gpuport-bytestream-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  std::string write(const std::string& name, const std::string& bytes) {
    const fs::path path = m_dir / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }

  static std::string read_all(ByteStream& in, std::size_t chunk) {
    std::string all;
    std::string buffer(chunk, '\0');
    for (;;) {
      auto got = in.read(buffer.data(), buffer.size());
      EXPECT_TRUE(got.has_value()) << (got ? "" : got.error().message);
      if (!got || *got == 0)
        break;
      all.append(buffer.data(), *got);
    }
    return all;
  }

  fs::path m_dir;
};

std::string sample_text() {
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "{\"name\": \"kernel_" + std::to_string(i) + "\"},\n";
  return text;
}

TEST_F(ByteStreamTest, PlainFileIsReadWhateverTheChunkSize) {
  const std::string text = sample_text();
  const std::string path = write("plain.json", text);
  for (std::size_t chunk : {1u, 7u, 4096u, 1u << 20}) {
    auto in = ByteStream::open(path);
    ASSERT_TRUE(in.has_value());
    EXPECT_FALSE(in->gzipped());
    EXPECT_EQ(read_all(*in, chunk), text) << "chunk " << chunk;
    EXPECT_EQ(in->position(), text.size());
  }
}

TEST_F(ByteStreamTest, GzipIsDetectedByItsMagicNotItsName) {
  const std::string text = sample_text();
  const std::string path = write("trace.json", gzip(text));
  auto in = ByteStream::open(path);
  ASSERT_TRUE(in.has_value());
  EXPECT_TRUE(in->gzipped());
  auto head = in->peek(9);
  ASSERT_TRUE(head.has_value());
  EXPECT_EQ(*head, "{\"name\": ");
  EXPECT_EQ(read_all(*in, 1000), text);
}

TEST_F(ByteStreamTest, ConcatenatedGzipMembersReadAsOneStream) {
  const std::string path = write("two.gz", gzip("first half, ") + gzip("second half"));
  auto in = ByteStream::open(path);
  ASSERT_TRUE(in.has_value());
  EXPECT_EQ(read_all(*in, 5), "first half, second half");
}

TEST_F(ByteStreamTest, TruncatedGzipIsAnErrorNamingTheFileAndOffset) {
  const std::string whole = gzip(sample_text());
  const std::string path = write("cut.json.gz", whole.substr(0, whole.size() / 2));
  auto in = ByteStream::open(path);
  ASSERT_TRUE(in.has_value());
  std::string buffer(1 << 16, '\0');
  std::string error;
  for (;;) {
    auto got = in->read(buffer.data(), buffer.size());
    if (!got) {
      error = got.error().message;
      break;
    }
    ASSERT_NE(*got, 0u) << "a truncated stream must not end quietly";
  }
  EXPECT_EQ(error.rfind(path + ": compressed byte ", 0), 0u) << error;
  EXPECT_NE(error.find("truncated gzip stream"), std::string::npos) << error;
}

TEST_F(ByteStreamTest, CorruptGzipIsAnError) {
  std::string bytes = gzip(sample_text());
  for (std::size_t i = 20; i < 60; ++i)
    bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  const std::string path = write("bad.gz", bytes);
  auto in = ByteStream::open(path);
  ASSERT_TRUE(in.has_value());
  std::string buffer(1 << 16, '\0');
  bool failed = false;
  for (int i = 0; i < 100; ++i) {
    auto got = in->read(buffer.data(), buffer.size());
    if (!got) {
      failed = true;
      EXPECT_NE(got.error().message.find("bad.gz: compressed byte "), std::string::npos);
      break;
    }
    if (*got == 0)
      break;
  }
  EXPECT_TRUE(failed);
}

TEST_F(ByteStreamTest, MissingFileNamesTheFile) {
  auto in = ByteStream::open((m_dir / "nope.json").string());
  ASSERT_FALSE(in.has_value());
  EXPECT_EQ(in.error().message, (m_dir / "nope.json").string() + ": No such file or directory");
}

TEST_F(ByteStreamTest, EmptyAndOneByteFiles) {
  auto empty = ByteStream::open(write("empty", ""));
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(read_all(*empty, 16), "");
  auto one = ByteStream::open(write("one", "x"));
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(read_all(*one, 16), "x");
}

TEST_F(ByteStreamTest, EmptyTraceIsRefusedByReadTrace) {
  const std::string path = write("empty.json", "  \n");
  auto trace = read_trace(path, {});
  ASSERT_FALSE(trace.has_value());
  EXPECT_EQ(trace.error().message, path + ": empty file (no trace in it)");
}

TEST(NameTableTest, InternsEachNameOnce) {
  NameTable names;
  const NameId a = names.intern("gemm");
  const NameId b = names.intern("softmax");
  EXPECT_EQ(names.intern(std::string("gemm")), a);
  EXPECT_NE(a, b);
  EXPECT_EQ(names[a], "gemm");
  EXPECT_EQ(names[b], "softmax");
  EXPECT_EQ(names.size(), 2u);
}

TEST(TraceFormatTest, NamesRoundTrip) {
  for (std::string_view name : format_names()) {
    auto format = parse_format_name(name);
    ASSERT_TRUE(format.has_value()) << name;
    EXPECT_EQ(format_name(*format), name);
  }
  EXPECT_EQ(format_names().size(), 8u);
  EXPECT_FALSE(parse_format_name("chrome").has_value());
}

}  // namespace
}  // namespace gpuport

namespace gpuport {
namespace {

TEST(ByteStreamMemoryTest, ReadsPlainAndGzipBytes) {
  ByteStream plain = ByteStream::from_memory("mem.json", "{\"traceEvents\": []}");
  std::string buffer(64, '\0');
  auto got = plain.read(buffer.data(), buffer.size());
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(buffer.substr(0, *got), "{\"traceEvents\": []}");

  ByteStream packed = ByteStream::from_memory("mem.json.gz", gzip("hello"));
  EXPECT_TRUE(packed.gzipped());
  got = packed.read(buffer.data(), buffer.size());
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(buffer.substr(0, *got), "hello");

  ByteStream cut = ByteStream::from_memory("cut.gz", gzip("hello world").substr(0, 12));
  got = cut.read(buffer.data(), buffer.size());
  ASSERT_FALSE(got.has_value());
  EXPECT_EQ(got.error().message.rfind("cut.gz: compressed byte ", 0), 0u);
}

}  // namespace
}  // namespace gpuport
