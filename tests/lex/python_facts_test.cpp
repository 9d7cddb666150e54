// Tests for the Python facts: imports, decorators and attribute chains with their positions.
#include "lex/python_lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpuport {
namespace {

PythonFacts facts_of(std::string_view source) {
  TokenStream stream;
  lex_python(source, stream);
  return extract_python_facts(stream);
}

// "module|name@line" for compact, exact comparisons.
std::vector<std::string> imports_of(std::string_view source) {
  std::vector<std::string> out;
  for (const PythonImport& entry : facts_of(source).imports) {
    out.push_back(entry.module + "|" + entry.name + "@" + std::to_string(entry.line));
  }
  return out;
}

// "name@line:column".
std::vector<std::string> dotted(const std::vector<PythonDotted>& entries) {
  std::vector<std::string> out;
  for (const PythonDotted& entry : entries) {
    out.push_back(entry.name + "@" + std::to_string(entry.line) + ":" +
                  std::to_string(entry.column));
  }
  return out;
}

using Strings = std::vector<std::string>;

TEST(PythonFacts, PlainImports) {
  EXPECT_EQ(imports_of("import a.b.c\nimport a.b as x, d\nimport os, sys\n"),
            (Strings{"a.b.c|@1", "a.b|@2", "d|@2", "os|@3", "sys|@3"}));
}

TEST(PythonFacts, FromImports) {
  EXPECT_EQ(imports_of("from a.b import c, d as e\nfrom torch.cuda import amp\n"),
            (Strings{"a.b|c@1", "a.b|d@1", "torch.cuda|amp@2"}));
}

TEST(PythonFacts, RelativeImports) {
  EXPECT_EQ(imports_of("from . import x\nfrom .mod import y\nfrom ..pkg.sub import z\n"
                       "from ... import w\n"),
            (Strings{".|x@1", ".mod|y@2", "..pkg.sub|z@3", "...|w@4"}));
}

TEST(PythonFacts, ParenthesizedImportOverSeveralLines) {
  EXPECT_EQ(imports_of("from a import (\n    b,  # first\n    c as cc,\n)\nx = 1\n"),
            (Strings{"a|b@2", "a|c@3"}));
}

TEST(PythonFacts, StarImportAndSemicolons) {
  EXPECT_EQ(imports_of("from triton.language import *; import numpy as np; x = 1\n"),
            (Strings{"triton.language|*@1", "numpy|@1"}));
}

TEST(PythonFacts, ImportsInsideBlocksAndFunctions) {
  const char* source =
      "try:\n"
      "    import apex\n"
      "except ImportError:\n"
      "    pass\n"
      "if HAS_CUDA: import pycuda.driver as drv\n"
      "def f():\n"
      "    from numba import cuda\n"
      "    return cuda\n";
  EXPECT_EQ(imports_of(source), (Strings{"apex|@2", "pycuda.driver|@5", "numba|cuda@7"}));
}

TEST(PythonFacts, YieldFromAndRaiseFromAreNotImports) {
  PythonFacts facts = facts_of("def g():\n    yield from a.b\n    raise X from err.cause\n");
  EXPECT_TRUE(facts.imports.empty());
  EXPECT_EQ(dotted(facts.attribute_chains), (Strings{"a.b@2:16", "err.cause@3:18"}));
}

TEST(PythonFacts, ImportsInStringsAndCommentsAreIgnored) {
  EXPECT_TRUE(imports_of("s = 'import torch'\n# from x import y\n\"\"\"import z\"\"\"\n").empty());
}

TEST(PythonFacts, Decorators) {
  const char* source =
      "@triton.jit\n"
      "def kernel(x):\n"
      "    pass\n"
      "\n"
      "class A:\n"
      "    @torch.compile(mode=\"max-autotune\")\n"
      "    def f(self): pass\n"
      "    @property\n"
      "    def p(self): pass\n"
      "@cuda.jit(device=True)\n"
      "def g(): pass\n"
      "y = a @ b\n";
  PythonFacts facts = facts_of(source);
  EXPECT_EQ(dotted(facts.decorators),
            (Strings{"triton.jit@1:2", "torch.compile@6:6", "property@8:6", "cuda.jit@10:2"}));
  // The decorator names are not repeated as attribute chains; `a @ b` is not a decorator.
  EXPECT_TRUE(facts.attribute_chains.empty());
}

TEST(PythonFacts, AttributeChainsAreMaximal) {
  PythonFacts facts = facts_of(
      "torch.backends.cudnn.benchmark = True\nx.y.z\nif torch.cuda.is_available().x:\n"
      "    v = obj[0].attr.more\n    w = \"s\".join(parts)\n");
  EXPECT_EQ(dotted(facts.attribute_chains), (Strings{"torch.backends.cudnn.benchmark@1:1",
                                                     "x.y.z@2:1", "torch.cuda.is_available@3:4"}));
}

TEST(PythonFacts, ChainsSpanLinesInsideBracketsAndSkipComments) {
  PythonFacts facts = facts_of("f(torch.  # note\n  cuda.synchronize)\n");
  EXPECT_EQ(dotted(facts.attribute_chains), (Strings{"torch.cuda.synchronize@1:3"}));
}

TEST(PythonFacts, ChainsInDecoratorArgumentsAreRecorded) {
  PythonFacts facts =
      facts_of("@triton.autotune(configs=[triton.Config({})], key=[])\ndef k(): pass\n");
  EXPECT_EQ(dotted(facts.decorators), (Strings{"triton.autotune@1:2"}));
  EXPECT_EQ(dotted(facts.attribute_chains), (Strings{"triton.Config@1:27"}));
}

TEST(PythonFacts, BrokenInputDoesNotCrash) {
  PythonFacts facts = facts_of("from\nimport\n@\nfrom . import\nimport a.\nx.\n(((\n");
  EXPECT_EQ(facts.imports.size(), 1u);
  EXPECT_EQ(facts.imports[0].module, "a");
  EXPECT_TRUE(facts.decorators.empty());
}

}  // namespace
}  // namespace gpuport
