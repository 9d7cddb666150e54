// Tests for reading notebook code cells: joined Python, line mapping, magics and JSON errors.
#include "lex/notebook.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace gpuport {
namespace {

std::string read_fixture(const std::string& name) {
  std::ifstream in(std::string(GPUPORT_SOURCE_DIR) + "/tests/fixtures/notebooks/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

NotebookError error_of(std::string_view json) {
  auto result = extract_notebook_code(json);
  EXPECT_FALSE(result.has_value());
  return result.has_value() ? NotebookError{} : result.error();
}

TEST(Notebook, CodeCellsJoinedWithLineMap) {
  auto result = extract_notebook_code(read_fixture("example.ipynb"));
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->python,
            "import torch\n"
            "\n"  // %matplotlib inline
            "\n"  //   !nvidia-smi
            "x = torch.cuda.is_available()\n"
            "from triton import jit\n"
            "@jit\n"
            "def k(): pass\n"
            "s = \"caf\xC3\xA9 \xF0\x9F\x9A\x80\"\t# \"quoted\" \\ /\n"
            "y = 1\n");
  // List sources map line by line; a single-string source maps all its lines to its line.
  EXPECT_EQ(result->file_line, (std::vector<std::uint32_t>{17, 18, 19, 20, 24, 24, 24, 32, 33}));
}

TEST(Notebook, ListElementsWithoutNewlineContinueTheLine) {
  auto result = extract_notebook_code(
      "{\"cells\": [{\"cell_type\": \"code\", \"source\": [\n\"a = (1,\", \n\" 2)\\n\",\n"
      "\"b\"]}]}");
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->python, "a = (1, 2)\nb\n");
  EXPECT_EQ(result->file_line, (std::vector<std::uint32_t>{2, 4}));
}

TEST(Notebook, EmptyCellsAndNoCodeCells) {
  auto result = extract_notebook_code(
      "{\"cells\": [{\"cell_type\": \"code\", \"source\": []}, {\"cell_type\": \"markdown\", "
      "\"source\": \"x\"}], \"nbformat\": 4}");
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->python, "");
  EXPECT_TRUE(result->file_line.empty());
}

TEST(Notebook, MagicOnlyBlanksTheLine) {
  auto result = extract_notebook_code(
      "{\"cells\": [{\"cell_type\": \"code\", \"source\": \"%%time\\nx = 1 % 2\\n\\t!ls\"}]}");
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->python, "\nx = 1 % 2\n\n");
  EXPECT_EQ(result->file_line, (std::vector<std::uint32_t>{1, 1, 1}));
}

TEST(Notebook, LoneSurrogateBecomesReplacementCharacter) {
  auto result =
      extract_notebook_code("{\"cells\": [{\"cell_type\": \"code\", \"source\": \"\\ud800x\"}]}");
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->python, "\xEF\xBF\xBDx\n");
}

TEST(Notebook, TruncatedFileReportsEndOfInput) {
  NotebookError error = error_of(read_fixture("truncated.ipynb"));
  EXPECT_EQ(error.line, 6u);
  EXPECT_EQ(error.column, 1u);
  EXPECT_EQ(error.message, "unexpected end of input");
}

TEST(Notebook, BadEscapeReportsItsPosition) {
  NotebookError error = error_of(read_fixture("bad_escape.ipynb"));
  EXPECT_EQ(error.line, 5u);
  EXPECT_EQ(error.column, 32u);
  EXPECT_EQ(error.message, "invalid escape in string");
}

TEST(Notebook, NotAnObject) {
  NotebookError error = error_of(read_fixture("not_object.ipynb"));
  EXPECT_EQ(error.line, 2u);
  EXPECT_EQ(error.column, 3u);
  EXPECT_EQ(error.message, "notebook is not a JSON object");
}

TEST(Notebook, MissingCommaBetweenCells) {
  NotebookError error = error_of(read_fixture("missing_comma.ipynb"));
  EXPECT_EQ(error.line, 4u);
  EXPECT_EQ(error.column, 3u);
  EXPECT_EQ(error.message, "expected ',' or ']' after array element");
}

TEST(Notebook, MissingCommaBetweenMembers) {
  NotebookError error = error_of("{\"a\": 1\n \"cells\": []}");
  EXPECT_EQ(error.line, 2u);
  EXPECT_EQ(error.column, 2u);
  EXPECT_EQ(error.message, "expected ',' or '}' after object member");
}

TEST(Notebook, OtherMalformedInputs) {
  NotebookError error = error_of("");
  EXPECT_EQ(error.message, "unexpected end of input");
  EXPECT_EQ(error.line, 1u);
  EXPECT_EQ(error.column, 1u);

  error = error_of("{}");
  EXPECT_EQ(error.message, "no \"cells\" array: not an nbformat 4 notebook");
  EXPECT_EQ(error.column, 1u);

  error = error_of("{\"cells\": 5}");
  EXPECT_EQ(error.message, "\"cells\" is not an array");
  EXPECT_EQ(error.column, 11u);

  error = error_of("{\"cells\": []} x");
  EXPECT_EQ(error.message, "unexpected data after the notebook object");
  EXPECT_EQ(error.column, 15u);

  error = error_of("{\"cells\": [\"a\nb\"]}");
  EXPECT_EQ(error.message, "unescaped control character in string");
  EXPECT_EQ(error.line, 1u);
  EXPECT_EQ(error.column, 14u);

  error = error_of("{\"cells\": [\"\\u12G4\"]}");
  EXPECT_EQ(error.message, "invalid \\u escape in string");
  EXPECT_EQ(error.column, 13u);

  error = error_of("{\"cells\": [tru]}");
  EXPECT_EQ(error.message, "invalid literal");
  EXPECT_EQ(error.column, 12u);

  error = error_of("{\"cells\": [1,]}");
  EXPECT_EQ(error.message, "expected a JSON value");
  EXPECT_EQ(error.column, 14u);
}

TEST(Notebook, DeepNestingIsAnErrorNotACrash) {
  std::string json = "{\"metadata\": ";
  json.append(100000, '[');
  NotebookError error = error_of(json);
  EXPECT_EQ(error.message, "nesting deeper than 256 levels");
  EXPECT_EQ(error.line, 1u);
  EXPECT_EQ(error.column, 14u + 256u);
}

TEST(Notebook, CrLfLineEndsCountOnce) {
  auto result = extract_notebook_code(
      "{\r\n\"cells\": [\r\n{\"cell_type\": \"code\",\r\n\"source\": [\"a\\n\", \r\n\"b\"]}]}\r\n");
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->python, "a\nb\n");
  EXPECT_EQ(result->file_line, (std::vector<std::uint32_t>{4, 5}));
}

}  // namespace
}  // namespace gpuport
