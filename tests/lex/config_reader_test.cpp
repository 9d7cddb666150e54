// Tests for the config readers: comments, quotes, CMake brackets, pip's '#', continuations, YAML.
#include "lex/config_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpuport {
namespace {

// "line:indent:text" for exact comparisons.
std::vector<std::string> read(std::string_view source, Language language) {
  std::vector<std::string> out;
  for (const ConfigLine& line : read_config_lines(source, language)) {
    out.push_back(std::to_string(line.line) + ":" + std::to_string(line.indent) + ":" + line.text);
  }
  return out;
}

using Strings = std::vector<std::string>;

TEST(ConfigReader, ShellCommentsAndQuotes) {
  EXPECT_EQ(read("#!/bin/bash\n"
                 "export CUDA_VISIBLE_DEVICES=0  # pick one\n"
                 "echo \"a # b\" 'c # d' e#f\n"
                 "echo \\# not a comment\n"
                 "\n"
                 "   # indented comment\n",
                 Language::Shell),
            (Strings{"2:0:export CUDA_VISIBLE_DEVICES=0", "3:0:echo \"a # b\" 'c # d' e#f",
                     "4:0:echo \\# not a comment"}));
}

TEST(ConfigReader, ShellContinuationJoinsLines) {
  EXPECT_EQ(read("docker run \\\n  --gpus all \\\n  image:tag\nnext\n", Language::Shell),
            (Strings{"1:0:docker run --gpus all image:tag", "4:0:next"}));
  // An escaped backslash at the end is not a continuation.
  EXPECT_EQ(read("echo a\\\\\necho b\n", Language::Shell),
            (Strings{"1:0:echo a\\\\", "2:0:echo b"}));
  // A continuation on the last line just ends the file.
  EXPECT_EQ(read("nvidia-smi \\", Language::Shell), (Strings{"1:0:nvidia-smi"}));
}

TEST(ConfigReader, DockerContinuationSkipsCommentLines) {
  EXPECT_EQ(read("FROM nvidia/cuda:12.4.0-devel-ubuntu22.04\n"
                 "# comment\n"
                 "RUN apt-get update && \\\n"
                 "    # install tools\n"
                 "\n"
                 "    apt-get install -y git \\  \n"
                 "    && echo \"done # really\"\n"
                 "ENV NVIDIA_VISIBLE_DEVICES=all\n",
                 Language::Docker),
            (Strings{"1:0:FROM nvidia/cuda:12.4.0-devel-ubuntu22.04",
                     "3:0:RUN apt-get update && apt-get install -y git && echo \"done # really\"",
                     "8:0:ENV NVIDIA_VISIBLE_DEVICES=all"}));
}

TEST(ConfigReader, QuoteCarriesAcrossContinuation) {
  EXPECT_EQ(read("echo \"one \\\n # two\" # gone\n", Language::Shell),
            (Strings{"1:0:echo \"one # two\""}));
}

TEST(ConfigReader, CMakeLineAndBracketComments) {
  EXPECT_EQ(read("project(app LANGUAGES CXX CUDA) # main\n"
                 "set(FLAGS \"-DX=1 # kept\")\n"
                 "#[[ a bracket comment\n"
                 "enable_language(CUDA)\n"
                 "]] find_package(CUDAToolkit)\n"
                 "set(A 1) #[==[ inline ]==] set(B 2)\n"
                 "  message([=[ bracket # argument\n"
                 "  still ]] inside ]=])\n"
                 "set(C \\#x) # c\n",
                 Language::CMake),
            (Strings{"1:0:project(app LANGUAGES CXX CUDA)", "2:0:set(FLAGS \"-DX=1 # kept\")",
                     "5:1:find_package(CUDAToolkit)", "6:0:set(A 1)  set(B 2)",
                     "7:2:message([=[ bracket # argument", "8:2:still ]] inside ]=])",
                     "9:0:set(C \\#x)"}));
}

TEST(ConfigReader, CMakeQuotedArgumentSpansLines) {
  EXPECT_EQ(read("set(X \"a\n# not a comment\n\") # c\n", Language::CMake),
            (Strings{"1:0:set(X \"a", "2:0:# not a comment", "3:0:\")"}));
}

TEST(ConfigReader, CMakeUnterminatedBracketCommentRunsToEnd) {
  EXPECT_EQ(read("a()\n#[[ open\nb()\n", Language::CMake), (Strings{"1:0:a()"}));
}

TEST(ConfigReader, RequirementsHashNeedsWhitespace) {
  EXPECT_EQ(read("# pinned\n"
                 "torch==2.3.0+cu121  # CUDA wheel\n"
                 "--extra-index-url https://download.pytorch.org/whl/cu121\n"
                 "git+https://github.com/org/repo.git#egg=pkg\n"
                 "nvidia-cublas-cu12; python_version >= \"3.9\"#x\n",
                 Language::Packaging),
            (Strings{"2:0:torch==2.3.0+cu121",
                     "3:0:--extra-index-url https://download.pytorch.org/whl/cu121",
                     "4:0:git+https://github.com/org/repo.git#egg=pkg",
                     "5:0:nvidia-cublas-cu12; python_version >= \"3.9\"#x"}));
}

TEST(ConfigReader, PyprojectTomlComments) {
  EXPECT_EQ(read("[project]\ndependencies = [\n  \"torch>=2.1\",  # gpu\n  \"x # y\",\n]\n",
                 Language::Packaging),
            (Strings{"1:0:[project]", "2:0:dependencies = [", "3:2:\"torch>=2.1\",",
                     "4:2:\"x # y\",", "5:0:]"}));
}

TEST(ConfigReader, YamlIndentAndComments) {
  EXPECT_EQ(
      read("spec:\n"
           "  containers:\n"
           "    - name: server  # main\n"
           "      resources:\n"
           "        limits:\n"
           "          nvidia.com/gpu: 1\n"
           "      note: it's fine # trailing\n"
           "      url: http://x/#frag\n"
           "      q: 'it''s # in quotes' # gone\n"
           "      d: \"a \\\" # b\"\n",
           Language::Yaml),
      (Strings{"1:0:spec:", "2:2:containers:", "3:4:- name: server",
               "4:6:resources:", "5:8:limits:", "6:10:nvidia.com/gpu: 1", "7:6:note: it's fine",
               "8:6:url: http://x/#frag", "9:6:q: 'it''s # in quotes'", "10:6:d: \"a \\\" # b\""}));
}

TEST(ConfigReader, BomAndCarriageReturnsAreStripped) {
  EXPECT_EQ(read("\xEF\xBB\xBFruntime: nvidia\r\n\r\n  gpus: all\r\n", Language::Yaml),
            (Strings{"1:0:runtime: nvidia", "3:2:gpus: all"}));
  EXPECT_EQ(read("RUN a \\\r\n  b\r\n", Language::Docker), (Strings{"1:0:RUN a b"}));
}

TEST(ConfigReader, OtherLanguagesReadLikeShell) {
  EXPECT_EQ(read("a \\\nb # c\n", Language::Other), (Strings{"1:0:a b"}));
}

TEST(ConfigReader, EmptyAndBlankInput) {
  EXPECT_TRUE(read_config_lines("", Language::Yaml).empty());
  EXPECT_TRUE(read_config_lines("\n  \n\t\n# only\n", Language::CMake).empty());
}

}  // namespace
}  // namespace gpuport
