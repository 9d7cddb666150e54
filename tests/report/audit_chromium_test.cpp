// Renders the HTML audit report in headless Chromium (Debian's `chromium`): the rendered DOM
// has the four charts and the tables, no script error reaches the console, and a screenshot
// lands in the build directory (audit-report.png) for a person to look at. Skips when chromium
// is not installed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "audit_sample.h"
#include "report/audit/audit_charts.h"
#include "report/audit/audit_html.h"

namespace gpuport {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool chromium_installed() {
  return std::system("command -v chromium >/dev/null 2>&1") == 0;
}

// Runs chromium headless on `page` with `flags`; stdout and stderr go to files in `dir`.
int run_chromium(const fs::path& dir, const std::string& flags, const fs::path& page) {
  const std::string command =
      "timeout 60 chromium --headless=new --no-sandbox --disable-gpu "
      "--enable-logging=stderr --v=0 --user-data-dir='" +
      (dir / "profile").string() + "' " + flags + " 'file://" + page.string() + "' >'" +
      (dir / "stdout.txt").string() + "' 2>'" + (dir / "stderr.txt").string() + "' </dev/null";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Lines of chromium's stderr that report a page error (console messages, uncaught exceptions).
std::string page_errors(const std::string& stderr_text) {
  std::istringstream lines(stderr_text);
  std::string errors;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("CONSOLE") != std::string::npos || line.find("Uncaught") != std::string::npos) {
      errors += line + "\n";
    }
  }
  return errors;
}

std::uint32_t big_endian(const std::string& bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
  }
  return value;
}

class AuditChromium : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!chromium_installed()) {
      GTEST_SKIP() << "chromium is not installed (scripts/setup.sh installs Debian's chromium); "
                      "the HTML report is not rendered";
    }
    // Next to the gpuport binary: the build directory, where the screenshot is kept.
    m_build = fs::absolute(fs::path(GPUPORT_BINARY)).parent_path();
    // One directory (and chromium profile) per test: ctest runs the tests as parallel processes.
    m_dir =
        m_build / ("audit-chromium-" +
                   std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
    m_page = m_dir / "report.html";
    std::ofstream(m_page, std::ios::binary) << render_audit_html(testing::sample_audit());
  }

  fs::path m_build;
  fs::path m_dir;
  fs::path m_page;
};

TEST_F(AuditChromium, RenderedDomHasTheChartsAndTablesAndNoScriptError) {
  ASSERT_EQ(run_chromium(m_dir, "--dump-dom", m_page), 0) << read_all(m_dir / "stderr.txt");
  const std::string dom = read_all(m_dir / "stdout.txt");
  EXPECT_EQ(page_errors(read_all(m_dir / "stderr.txt")), "");
  for (const auto& [id, title] : {std::pair{"chart-gpu-time-1", k_gpu_time_chart_title},
                                  std::pair{"chart-effort", k_effort_chart_title},
                                  std::pair{"chart-cost", k_cost_chart_title},
                                  std::pair{"chart-payback", k_payback_chart_title}}) {
    EXPECT_THAT(dom, HasSubstr("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + std::string(id)))
        << id;
    EXPECT_THAT(dom, HasSubstr("<title id=\"" + std::string(id) + "-title\">" + std::string(title) +
                               "</title>"))
        << id;
  }
  for (const char* table :
       {"<table class=\"portability\">", "<table class=\"classes\">", "<table class=\"items\">",
        "<table class=\"kernels\">", "<table class=\"findings\">"}) {
    EXPECT_THAT(dom, HasSubstr(table));
  }
  EXPECT_THAT(dom, HasSubstr("<tr id=\"kernel-1\" class=\"own\">"));
  // The hostile kernel name is text in the rendered page, not markup.
  EXPECT_THAT(dom, HasSubstr(">k&lt;T&amp;, \"x\"&gt;</code>"));
}

TEST_F(AuditChromium, TheExamplesReportRendersWithoutErrors) {
  const fs::path page = m_dir / "example.html";
  const std::string source = GPUPORT_SOURCE_DIR;
  const std::string audit = std::string(GPUPORT_BINARY) + " audit '" + source +
                            "/examples/serving-repo' --trace '" + source +
                            "/examples/traces/serving-h100.json.gz' --config '" + source +
                            "/examples/gpuport.toml' -q -o '" + page.string() + "' >/dev/null";
  ASSERT_EQ(std::system(audit.c_str()), 0);
  ASSERT_EQ(run_chromium(m_dir, "--dump-dom", page), 0) << read_all(m_dir / "stderr.txt");
  const std::string dom = read_all(m_dir / "stdout.txt");
  EXPECT_EQ(page_errors(read_all(m_dir / "stderr.txt")), "");
  for (const std::string_view title :
       {k_gpu_time_chart_title, k_effort_chart_title, k_cost_chart_title, k_payback_chart_title}) {
    EXPECT_THAT(dom, HasSubstr("-title\">" + std::string(title) + "</title>")) << title;
  }
  EXPECT_THAT(dom, HasSubstr("<section id=\"kernels\">"));
  EXPECT_THAT(dom, HasSubstr("csrc/fused_norm.cu:68</code>"));
}

TEST_F(AuditChromium, SavesAScreenshotInTheBuildDirectory) {
  const fs::path screenshot = m_build / "audit-report.png";
  fs::remove(screenshot);
  ASSERT_EQ(
      run_chromium(m_dir, "--screenshot='" + screenshot.string() + "' --window-size=1280,2400",
                   m_page),
      0)
      << read_all(m_dir / "stderr.txt");
  EXPECT_EQ(page_errors(read_all(m_dir / "stderr.txt")), "");
  ASSERT_TRUE(fs::is_regular_file(screenshot));
  const std::string png = read_all(screenshot);
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png.substr(0, 8), "\x89PNG\r\n\x1a\n");
  EXPECT_EQ(big_endian(png, 16), 1280u);  // IHDR width
  EXPECT_EQ(big_endian(png, 20), 2400u);  // IHDR height
  // A blank page compresses to a few kilobytes; text, tables and charts do not.
  EXPECT_GT(png.size(), 50'000u);
}

}  // namespace
}  // namespace gpuport
