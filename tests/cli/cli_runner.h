// Running the built gpuport binary from a test: arguments, environment, captured output.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gpuport::testing {

namespace fs = std::filesystem;

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// A temporary directory and a way to run the binary with stdout and stderr captured.
class CliFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "gpuport-profile-cli-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    m_dir = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(m_dir, ignored);
  }

  // `args` are already shell-quoted where needed; `env` is `NAME=value ...`.
  CliRun gpuport(const std::string& args, const std::string& env = "") {
    const fs::path out = m_dir / "stdout.txt";
    const fs::path err = m_dir / "stderr.txt";
    const std::string command = "env " + env + " " + shell_quoted(GPUPORT_BINARY) + " " + args +
                                " >" + shell_quoted(out.string()) + " 2>" +
                                shell_quoted(err.string()) + " </dev/null";
    const int status = std::system(command.c_str());
    CliRun run;
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = read_text(out);
    run.err = read_text(err);
    fs::remove(out);
    fs::remove(err);
    return run;
  }

  fs::path m_dir;
};

}  // namespace gpuport::testing
