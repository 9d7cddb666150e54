// -o on every report command: a FIFO or device is written, not replaced; a link is followed and
// stays a link; a path that cannot be written is refused before any work (issue 27, item 1).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <thread>

#include "cli_runner.h"

namespace gpuport::testing {
namespace {

std::string source(const std::string& relative) {
  return shell_quoted(std::string(GPUPORT_SOURCE_DIR) + "/" + relative);
}

const std::string& example_trace() {
  static const std::string path = source("examples/traces/serving-h100.json.gz");
  return path;
}

class OutputPathCli : public CliFixture {
 protected:
  // Runs `args` with -o a FIFO read by another thread; returns what the reader got.
  std::string through_fifo(const std::string& args, CliRun& run) {
    const fs::path fifo = m_dir / "report.pipe";
    EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] { received = read_text(fifo); });
    run = gpuport(args + " -o " + shell_quoted(fifo.string()));
    // Had gpuport never opened the FIFO, the reader would wait for ever: open and close it.
    const int unblock = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (unblock >= 0) {
      ::close(unblock);
    }
    reader.join();
    struct stat st {};
    EXPECT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
    fs::remove(fifo);
    return received;
  }
};

TEST_F(OutputPathCli, ScanProfileAndAuditStreamIntoAFifo) {
  CliRun run;
  const std::string scan =
      through_fifo("scan --quiet --format json " + source("examples/serving-repo"), run);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(scan.find("\"schema_version\""), std::string::npos);

  const std::string profile = through_fifo("profile --format csv " + example_trace(), run);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(profile.substr(0, 5), "rank,");

  const std::string audit =
      through_fifo("audit " + source("examples/serving-repo") + " --trace " + example_trace() +
                       " --config " + source("examples/gpuport.toml") + " -q --format md",
                   run);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(audit.substr(0, 2), "# ");
}

TEST_F(OutputPathCli, ALinkIsFollowedAndStaysALink) {
  fs::create_directories(m_dir / "runs");
  fs::create_symlink("runs/today.md", m_dir / "latest.md");
  const CliRun run = gpuport("profile --format md " + example_trace() + " -o " +
                             shell_quoted((m_dir / "latest.md").string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::is_symlink(m_dir / "latest.md"));
  EXPECT_EQ(read_text(m_dir / "runs/today.md").substr(0, 2), "# ");
}

// The output is checked first: a bad -o fails at once, naming the output, even when the input
// would fail too (before, the whole trace was read and analysed, then the write failed).
TEST_F(OutputPathCli, AnUnwritableOutputIsRefusedBeforeAnyWork) {
  const std::string missing = (m_dir / "no-such-dir/report.json").string();
  const std::string expected = "gpuport: error: cannot write '" + missing + "': its directory '" +
                               (m_dir / "no-such-dir").string() + "' does not exist\n";
  const std::string bad_trace = shell_quoted((m_dir / "absent-trace.json").string());
  for (const std::string& command :
       {"profile " + bad_trace, "compare " + bad_trace + " " + bad_trace, "scan " + bad_trace,
        "audit " + bad_trace + " -q", "bench compare " + bad_trace + " " + bad_trace,
        "bench merge " + bad_trace + " " + bad_trace}) {
    const CliRun run = gpuport(command + " -o " + shell_quoted(missing));
    EXPECT_EQ(run.exit_code, 2) << command;
    EXPECT_EQ(run.err, expected) << command;
    EXPECT_EQ(run.out, "") << command;
  }
  const CliRun directory =
      gpuport("profile " + example_trace() + " -o " + shell_quoted(m_dir.string()));
  EXPECT_EQ(directory.exit_code, 2);
  EXPECT_EQ(directory.err,
            "gpuport: error: cannot write '" + m_dir.string() + "': is a directory\n");
}

// bench checks both of its outputs before it sends a request (the URL here would refuse one).
TEST_F(OutputPathCli, BenchChecksItsResultAndRequestLogBeforeSending) {
  const std::string url = " http://127.0.0.1:9 --requests 1 --quiet";
  const CliRun result = gpuport("bench" + url + " -o " + shell_quoted(m_dir.string()));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "gpuport: error: cannot write '" + m_dir.string() + "': is a directory\n");
  const CliRun log = gpuport("bench" + url + " --requests-jsonl " + shell_quoted(m_dir.string()));
  EXPECT_EQ(log.exit_code, 2);
  EXPECT_EQ(log.err, "gpuport: error: cannot write '" + m_dir.string() + "': is a directory\n");
}

}  // namespace
}  // namespace gpuport::testing
