// read_csv_trace() on every profiler CSV layout: detection, values to the nanosecond, and each
// refusal's exact one-line message.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gzip_bytes.h"
#include "kernel_totals.h"
#include "profile/byte_stream.h"
#include "profile/readers/readers.h"
#include "profile/trace_reader.h"

namespace gpuport {
namespace {

using testing::kernel_totals;
using testing::NameTotal;

std::string fixture_path(const std::string& name) {
  return std::string(GPUPORT_SOURCE_DIR) + "/tests/fixtures/profile/tables/" + name;
}

std::string fixture_text(const std::string& name) {
  std::ifstream in(fixture_path(name), std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Trace read_fixture(const std::string& name, std::optional<TraceFormat> forced = std::nullopt) {
  auto trace = read_trace(fixture_path(name), ReadOptions{forced});
  EXPECT_TRUE(trace.has_value()) << trace.error().message;
  return trace ? std::move(*trace) : Trace{};
}

tl::expected<Trace, TraceError> read_text(std::string text,
                                          std::optional<TraceFormat> forced = std::nullopt) {
  ByteStream in = ByteStream::from_memory("x.csv", std::move(text));
  return read_csv_trace(in, forced);
}

std::string error_of(std::string text, std::optional<TraceFormat> forced = std::nullopt) {
  auto trace = read_text(std::move(text), forced);
  return trace ? "(read without error)" : trace.error().message;
}

const std::string kMulMatQ =
    "void mul_mat_q<(ggml_type)2, 128, false>(char const*, int const*, float*, int, int) [clone "
    ".kd]";
const std::string kCijkRocprof =
    "Cijk_Alik_Bljk_HSS_BH_Bias_HA_S_SAV_UserArgs_MT16x128x32_MI16x16x1_SN_LDSB1.kd";
const std::string kSoftMax =
    "void soft_max_f32<true, 512, 512, float>(float const*, float*, soft_max_params) [clone .kd]";

TEST(RocprofCsv, OneKernelActivityPerRow) {
  const Trace trace = read_fixture("rocprof_results.csv");
  EXPECT_EQ(trace.format, TraceFormat::RocprofCsv);
  EXPECT_EQ(trace.vendor, Vendor::Amd);
  ASSERT_EQ(trace.activities.size(), 6u);
  const GpuActivity& copy = trace.activities[2];
  EXPECT_EQ(trace.names[copy.name], "__amd_rocclr_copyBuffer.kd");  // still a kernel here
  EXPECT_EQ(copy.kind, ActivityKind::Kernel);
  EXPECT_EQ(copy.start_ns, 11000);
  EXPECT_EQ(copy.duration_ns, 250);
  EXPECT_EQ(copy.device, 2);
  EXPECT_EQ(copy.stream, 1);
  EXPECT_EQ(copy.correlation, 2);
  EXPECT_TRUE(trace.summaries.empty());

  const auto totals = kernel_totals(trace);
  EXPECT_EQ(totals.n_kernels, 6);
  EXPECT_EQ(totals.total_ns, 20084);
  EXPECT_EQ(totals.by_total, (std::vector<NameTotal>{{kMulMatQ, 15500, 2},
                                                     {kCijkRocprof, 3333, 1},
                                                     {"__amd_rocclr_fillBufferAligned.kd", 1000, 1},
                                                     {"__amd_rocclr_copyBuffer.kd", 250, 1},
                                                     {kSoftMax, 1, 1}}));
}

TEST(RocprofCsv, CrlfAndByteOrderMarkReadTheSame) {
  std::string text = fixture_text("rocprof_results.csv");
  std::string crlf = "\xEF\xBB\xBF";
  for (char c : text)
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  auto trace = read_text(crlf);
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(trace->format, TraceFormat::RocprofCsv);
  EXPECT_EQ(kernel_totals(*trace).by_total,
            kernel_totals(read_fixture("rocprof_results.csv")).by_total);
}

TEST(RocprofCsv, GzipFileReadsTheSame) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("gpuport-csv-gz-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "results.csv.gz").string();
  std::ofstream(path, std::ios::binary) << testing::gzip_bytes(fixture_text("rocprof_results.csv"));
  auto trace = read_trace(path, {});
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(trace->path, path);
  EXPECT_EQ(kernel_totals(*trace).total_ns, 20084);
  EXPECT_EQ(kernel_totals(*trace).n_kernels, 6);
}

TEST(RocprofCsv, MissingColumnNamesTheHeaderLine) {
  EXPECT_EQ(error_of("\"Index\",\"KernelName\",\"gpu-id\",\"BeginNs\"\n0,\"k\",0,5\n"),
            "x.csv: line 1: missing column \"EndNs\" in the header (a rocprof results.csv needs "
            "KernelName, BeginNs, EndNs)");
  EXPECT_EQ(error_of("\"Index\",\"gpu-id\",\"BeginNs\",\"EndNs\"\n"),
            "x.csv: line 1: missing column \"KernelName\" in the header (a rocprof results.csv "
            "needs KernelName, BeginNs, EndNs)");
}

TEST(RocprofCsv, BadNumberNamesLineAndColumn) {
  EXPECT_EQ(
      error_of("\"Index\",\"KernelName\",\"BeginNs\",\"EndNs\"\n0,\"k\",5,9\n1,\"k\",5,abc\n"),
      "x.csv: line 3, column \"EndNs\": not a number: \"abc\"");
  EXPECT_EQ(error_of("\"Index\",\"KernelName\",\"BeginNs\",\"EndNs\"\n0,\"k\",,9\n"),
            "x.csv: line 2, column \"BeginNs\": not a number: \"\"");
  EXPECT_EQ(error_of("Index,KernelName,BeginNs,EndNs\n0,k,5,99999999999999999999\n"),
            "x.csv: line 2, column \"EndNs\": number out of range: \"99999999999999999999\"");
  EXPECT_EQ(error_of("Index,KernelName,BeginNs,EndNs,gpu-id\n0,k,5,9,gpu\n"),
            "x.csv: line 2, column \"gpu-id\": not an id: \"gpu\"");
}

TEST(RocprofCsv, LineNumbersCountLineBreaksInsideQuotes) {
  EXPECT_EQ(error_of("Index,KernelName,BeginNs,EndNs\n0,\"two\nlines\",5,9\n1,k,x,9\n"),
            "x.csv: line 4, column \"BeginNs\": not a number: \"x\"");
}

TEST(RocprofCsv, EndBeforeBeginIsRefused) {
  EXPECT_EQ(error_of("Index,KernelName,BeginNs,EndNs\n0,k,50,9\n"),
            "x.csv: line 2: EndNs 9 is before BeginNs 50");
  EXPECT_EQ(error_of("Index,KernelName,BeginNs,EndNs\n0,k,-9223372036854775807,"
                     "9223372036854775807\n"),
            "x.csv: line 2: EndNs 9223372036854775807 is before BeginNs -9223372036854775807");
}

TEST(RocprofCsv, RowWithTheWrongFieldCount) {
  EXPECT_EQ(error_of("Index,KernelName,BeginNs,EndNs\n0,void f(int, int),5,9\n"),
            "x.csv: line 2: 5 fields where the header has 4");
  EXPECT_EQ(error_of("Index,KernelName,BeginNs,EndNs\n0,k,5\n"),
            "x.csv: line 2: 3 fields where the header has 4");
}

TEST(RocprofCsv, HeaderOnlyHasNoKernels) {
  EXPECT_EQ(error_of("\"Index\",\"KernelName\",\"BeginNs\",\"EndNs\"\n"),
            "x.csv: no GPU kernels in it");
}

TEST(RocprofStatsCsv, SummaryOnly) {
  const Trace trace = read_fixture("rocprof_results.stats.csv");
  EXPECT_EQ(trace.format, TraceFormat::RocprofStatsCsv);
  EXPECT_EQ(trace.vendor, Vendor::Amd);
  EXPECT_TRUE(trace.summary_only());
  const auto totals = kernel_totals(trace);
  EXPECT_EQ(totals.n_kernels, 6);
  EXPECT_EQ(totals.total_ns, 20084);
  // The same numbers as the per-dispatch file it summarises.
  EXPECT_EQ(totals.by_total, kernel_totals(read_fixture("rocprof_results.csv")).by_total);
}

TEST(RocprofStatsCsv, Rocprofv3KernelStats) {
  const Trace trace = read_fixture("rocprofv3_kernel_stats.csv");
  EXPECT_EQ(trace.format, TraceFormat::RocprofStatsCsv);
  ASSERT_EQ(trace.summaries.size(), 3u);
  EXPECT_EQ(trace.names[trace.summaries[1].name].substr(0, 52),
            "void at::native::vectorized_elementwise_kernel<4, at");
  EXPECT_EQ(trace.summaries[1].calls, 4);
  EXPECT_EQ(trace.summaries[1].total_ns, 100000);
  EXPECT_EQ(kernel_totals(trace).total_ns, 1010000);
  EXPECT_EQ(kernel_totals(trace).n_kernels, 8);
}

TEST(RocprofStatsCsv, Refusals) {
  EXPECT_EQ(error_of("\"Name\",\"TotalDurationNs\",\"AverageNs\"\n"),
            "x.csv: line 1: missing column \"Calls\" in the header (a rocprof stats CSV needs "
            "Name, Calls, TotalDurationNs)");
  EXPECT_EQ(error_of("\"Name\",\"Calls\",\"TotalDurationNs\"\n\"k\",-2,10\n"),
            "x.csv: line 2, column \"Calls\": negative: \"-2\"");
  EXPECT_EQ(error_of("\"Name\",\"Calls\",\"TotalDurationNs\"\n\"k\",2,1.5\n"),
            "x.csv: line 2, column \"TotalDurationNs\": not a number: \"1.5\"");
  EXPECT_EQ(error_of("\"Name\",\"Calls\",\"TotalDurationNs\"\n\"k\",1,9223372036854775807\n"
                     "\"k\",1,1\n"),
            "x.csv: line 3: the totals of this name overflow 64 bits");
}

const std::string kFill =
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)";
const std::string kCijkV3 = "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x256x32_MI16x16x1";

TEST(Rocprofv3Csv, CurrentColumns) {
  const Trace trace = read_fixture("rocprofv3_kernel_trace.csv");
  EXPECT_EQ(trace.format, TraceFormat::Rocprofv3Csv);
  EXPECT_EQ(trace.vendor, Vendor::Amd);
  ASSERT_EQ(trace.activities.size(), 3u);
  const GpuActivity& last = trace.activities[2];
  EXPECT_EQ(trace.names[last.name], kFill);
  EXPECT_EQ(last.device, 5);  // "Agent 5"
  EXPECT_EQ(last.stream, 3);  // Stream_Id, not Queue_Id
  EXPECT_EQ(last.correlation, 11);
  EXPECT_EQ(last.start_ns, 1004000);
  EXPECT_EQ(last.duration_ns, 2600);
  EXPECT_EQ(kernel_totals(trace).by_total,
            (std::vector<NameTotal>{{kCijkV3, 50000, 1}, {kFill, 5000, 2}}));
}

TEST(Rocprofv3Csv, OlderColumns) {
  const Trace trace = read_fixture("rocprofv3_kernel_trace_v1.csv");
  EXPECT_EQ(trace.format, TraceFormat::Rocprofv3Csv);
  ASSERT_EQ(trace.activities.size(), 2u);
  EXPECT_EQ(trace.names[trace.activities[0].name], "matrixTranspose(float*, float*, int)");
  EXPECT_EQ(trace.activities[0].duration_ns, 66760);
  EXPECT_EQ(trace.activities[0].device, 1);
  EXPECT_EQ(trace.activities[0].correlation, 1);
  // A queue handle too wide for the model is folded, the same way for the same handle.
  EXPECT_GE(trace.activities[0].stream, 0);
  EXPECT_EQ(trace.activities[0].stream, trace.activities[1].stream);
  EXPECT_EQ(kernel_totals(trace).total_ns, 67760);
}

TEST(Rocprofv3Csv, Rocprofv2FilePluginCsv) {
  const Trace trace = read_fixture("rocprofv2_results.csv");
  EXPECT_EQ(trace.format, TraceFormat::RocprofCsv);
  ASSERT_EQ(trace.activities.size(), 2u);  // the blank line after the header is skipped
  EXPECT_EQ(trace.activities[1].device, 4);
  EXPECT_EQ(trace.activities[1].correlation, 2);
  EXPECT_EQ(kernel_totals(trace).by_total,
            (std::vector<NameTotal>{{"matrixTranspose(float*, float*, int) (.kd)", 2500, 2}}));
}

TEST(Rocprofv3Csv, Refusals) {
  EXPECT_EQ(error_of("\"Kind\",\"Agent_Id\",\"Kernel_Name\",\"Start_Timestamp\"\n"),
            "x.csv: line 1: missing column \"End_Timestamp\" in the header (a rocprofv3 "
            "kernel_trace.csv needs Kernel_Name, Start_Timestamp, End_Timestamp)");
  EXPECT_EQ(error_of("\"Kind\",\"Agent_Id\",\"Kernel_Name\",\"Start_Timestamp\",\"End_Timestamp\"\n"
                     "\"KERNEL_DISPATCH\",\"Agent x\",\"k\",1,2\n"),
            "x.csv: line 2, column \"Agent_Id\": not an id: \"Agent x\"");
  EXPECT_EQ(error_of("\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Kernel_Name\","
                     "\"Counter_Name\",\"Counter_Value\",\"Start_Timestamp\",\"End_Timestamp\"\n"),
            "x.csv: line 1: a counter-collection CSV (one row per dispatch and counter); profile "
            "with --kernel-trace and read its kernel_trace.csv");
}

TEST(Rocprofv3Csv, RowsOfOtherKindsAreNotKernels) {
  auto trace = read_text(
      "\"Kind\",\"Agent_Id\",\"Kernel_Name\",\"Start_Timestamp\",\"End_Timestamp\"\n"
      "\"KERNEL_DISPATCH\",\"Agent 1\",\"k\",10,30\n\"MEMORY_COPY\",\"Agent 1\",\"c\",40,90\n");
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(trace->activities.size(), 1u);
}

const std::string kNvfuser =
    "<unnamed>::nvfuser_none_f0_c0_r0_g0(<unnamed>::Tensor<<unnamed>::__half, (int)3, (int)3>, "
    "<unnamed>::TensorMap)";

TEST(NsysStatsCsv, KernelSummaryAfterThePreamble) {
  const Trace trace = read_fixture("nsys_cuda_gpu_kern_sum.csv");
  EXPECT_EQ(trace.format, TraceFormat::NsysStatsCsv);
  EXPECT_EQ(trace.vendor, Vendor::Nvidia);
  EXPECT_TRUE(trace.summary_only());
  const auto totals = kernel_totals(trace);
  EXPECT_EQ(totals.n_kernels, 7);
  EXPECT_EQ(totals.total_ns, 323171);
  ASSERT_EQ(totals.by_total.size(), 4u);
  EXPECT_EQ(totals.by_total[0], (NameTotal{kNvfuser, 135137, 1}));
  EXPECT_EQ(totals.by_total[2],
            (NameTotal{"void at::native::<unnamed>::distribution_elementwise_grid_stride_kernel<"
                       "float, (int)4>(int, at::PhiloxCudaState, T3, T4)",
                       81089, 2}));
}

TEST(NsysStatsCsv, MicrosecondsAreConvertedExactly) {
  const Trace trace = read_fixture("nsys_cuda_gpu_kern_sum_us.csv");
  EXPECT_EQ(kernel_totals(trace).by_total,
            (std::vector<NameTotal>{
                {"kernel_a(float*, int)", 135137, 1}, {"kernel_b", 87522, 2}, {"kernel_c", 2, 1}}));
}

TEST(NsysStatsCsv, OlderColumnSpellings) {
  const Trace trace = read_fixture("nsys_gpukernsum_2021.csv");
  EXPECT_EQ(trace.format, TraceFormat::NsysStatsCsv);
  EXPECT_EQ(
      kernel_totals(trace).by_total,
      (std::vector<NameTotal>{{"volta_sgemm_128x64_nn", 7000, 2},
                              {"void add_kernel<float>(float*, float const*, int)", 3000, 1}}));
  // The oldest: no unit in the header (nanoseconds).
  auto oldest = read_text(
      "\"Time(%)\",\"Total Time\",\"Instances\",\"Average\",\"Minimum\",\"Maximum\",\"Name\"\n"
      "\"100.0\",\"1234\",\"2\",\"617.0\",\"600\",\"634\",\"k\"\n");
  ASSERT_TRUE(oldest.has_value()) << oldest.error().message;
  EXPECT_EQ(kernel_totals(*oldest).by_total, (std::vector<NameTotal>{{"k", 1234, 2}}));
}

TEST(NsysStatsCsv, GridBlockReportIsSummedPerName) {
  const Trace trace = read_fixture("nsys_cuda_gpu_kern_gb_sum.csv");
  ASSERT_EQ(trace.summaries.size(), 2u);
  EXPECT_EQ(kernel_totals(trace).by_total,
            (std::vector<NameTotal>{{"gemm_kernel", 8000, 5}, {"reduce<float, 4>", 2000, 1}}));
}

TEST(NsysStatsCsv, OtherReportsAroundTheKernelSummaryAreSkipped) {
  const Trace trace = read_fixture("nsys_stats_three_reports.csv");
  EXPECT_EQ(kernel_totals(trace).by_total,
            (std::vector<NameTotal>{{"burn(float *, int, int)", 28918591, 5}}));
}

TEST(NsysStatsCsv, SkippedReportHasNoKernels) {
  const std::string path = fixture_path("nsys_stats_skipped.csv");
  auto trace = read_trace(path, {});
  ASSERT_FALSE(trace.has_value());
  EXPECT_EQ(trace.error().message,
            path +
                ": no GPU kernels in it (nsys stats: \"SKIPPED: report1.sqlite does not "
                "contain CUDA kernel data.\")");
}

TEST(NsysStatsCsv, Refusals) {
  EXPECT_EQ(
      error_of("Time (%),Total Time (ns),Num Calls,Avg (ns),Name\n81.2,13,1,13.0,cudaMalloc\n"),
      "x.csv: line 1: missing column \"Instances\" in the header (an nsys stats "
      "cuda_gpu_kern_sum CSV needs Total Time (ns), Instances, Name)");
  EXPECT_EQ(error_of("Processing [r.sqlite] with [x.py]... \n\nTime (%),Instances,Name\n"),
            "x.csv: line 3: missing column \"Total Time (ns)\" in the header (an nsys stats "
            "cuda_gpu_kern_sum CSV needs Total Time (ns), Instances, Name)");
  EXPECT_EQ(error_of("Time (%),Total Time (min),Instances,Name\n1,2,3,k\n"),
            "x.csv: line 1: unknown time unit in column \"Total Time (min)\" (expected ns, us, "
            "ms or s)");
  EXPECT_EQ(error_of("Time (%),Total Time (us),Instances,Name\n1,2.x,3,k\n"),
            "x.csv: line 2, column \"Total Time (us)\": not a number: \"2.x\"");
  EXPECT_EQ(error_of("Time (%),Total Time (ns),Instances,Name\n"), "x.csv: no GPU kernels in it");
}

TEST(CsvTrace, UnrecognisedHeader) {
  EXPECT_EQ(error_of("\"id\",\"name\",\"value\"\n1,a,2\n"),
            "x.csv: line 1: not a recognised profiler CSV (header: \"id\",\"name\",\"value\")");
  EXPECT_EQ(error_of("just some text\nwithout a table\n"),
            "x.csv: line 1: not a recognised profiler CSV (no header row)");
}

TEST(CsvTrace, UnrecognisedHeaderIsShownOnOneShortLine) {
  std::string header = "\"a\nb\"";
  for (int i = 0; i < 100; ++i)
    header += ",column" + std::to_string(i);
  const std::string message = error_of(header + "\n");
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_TRUE(message.starts_with(
      "x.csv: line 1: not a recognised profiler CSV (header: \"a\\nb\",\"column0\",\"column1\""))
      << message;
  EXPECT_LT(message.size(), 240u);
}

TEST(CsvTrace, ForcedFormat) {
  // A stats file read as what it is, and as something it is not.
  auto stats = read_fixture("rocprof_results.stats.csv", TraceFormat::RocprofStatsCsv);
  EXPECT_EQ(stats.format, TraceFormat::RocprofStatsCsv);
  EXPECT_EQ(error_of(fixture_text("rocprof_results.stats.csv"), TraceFormat::RocprofCsv),
            "x.csv: line 1: missing column \"KernelName\" in the header (a rocprof results.csv "
            "needs KernelName, BeginNs, EndNs)");
  // Forced rocprof-csv also takes rocprofv2's underscore columns.
  auto v2 = read_fixture("rocprofv2_results.csv", TraceFormat::RocprofCsv);
  EXPECT_EQ(kernel_totals(v2).total_ns, 2500);
  EXPECT_EQ(error_of("a,b\n", TraceFormat::KinetoJson), "x.csv: kineto is not a CSV format");
}

}  // namespace
}  // namespace gpuport
