// Tests for headers_left_out(): a header's AMD-build membership from the files that include it.
#include "scan/header_membership.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace gpuport {
namespace {

struct Tree {
  std::map<std::string, std::vector<std::string>> includes;
  std::map<std::string, std::vector<std::string>> unresolved;
  std::map<std::string, ExcludedSource> left_out;  // by a build file
  std::map<std::string, bool> named;

  void source(const std::string& path, std::vector<std::string> headers, bool named_by_build) {
    includes[path] = std::move(headers);
    named[path] = named_by_build;
  }
  void leave_out(const std::string& path, bool alternative) {
    left_out[path] = {
        path, {"CMakeLists.txt", 7, "list(APPEND SRC " + path + ")"}, alternative, {}};
  }

  std::map<std::string, ExcludedSource> run() {
    std::vector<IncluderFile> files;
    for (const auto& [path, headers] : includes) {
      auto out = left_out.find(path);
      auto names = unresolved.find(path);
      files.push_back({path, named[path], out == left_out.end() ? nullptr : &out->second, &headers,
                       names == unresolved.end() ? nullptr : &names->second});
    }
    std::map<std::string, ExcludedSource> result;
    for (ExcludedSource& source : headers_left_out(files)) {
      result.emplace(source.file, std::move(source));
    }
    return result;
  }
};

TEST(HeaderMembership, AHeaderOnlyLeftOutSourcesIncludeIsLeftOutThroughChains) {
  Tree tree;
  tree.source("a/sm80.cu", {"a/mma.cuh", "a/common.cuh"}, true);
  tree.source("a/ops.cu", {"a/common.cuh"}, true);
  tree.source("a/mma.cuh", {"a/detail/frag.cuh"}, false);
  tree.source("a/detail/frag.cuh", {}, false);
  tree.source("a/common.cuh", {}, false);
  tree.leave_out("a/sm80.cu", true);
  const auto out = tree.run();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out.at("a/mma.cuh").via, "a/sm80.cu");
  EXPECT_EQ(out.at("a/mma.cuh").where.line, 7u);
  EXPECT_TRUE(out.at("a/mma.cuh").alternative);
  EXPECT_EQ(out.at("a/detail/frag.cuh").via, "a/mma.cuh");
  EXPECT_FALSE(out.contains("a/common.cuh"));  // ops.cu, in both builds, includes it
}

TEST(HeaderMembership, AlternativeOnlyWhenEveryIncluderHasOne) {
  Tree tree;
  tree.source("x/sm75.cu", {"x/h.cuh"}, true);
  tree.source("x/sm90.cu", {"x/h.cuh"}, true);
  tree.source("x/h.cuh", {}, false);
  tree.leave_out("x/sm75.cu", true);
  tree.leave_out("x/sm90.cu", false);
  const auto out = tree.run();
  ASSERT_TRUE(out.contains("x/h.cuh"));
  EXPECT_FALSE(out.at("x/h.cuh").alternative);
  EXPECT_EQ(out.at("x/h.cuh").via, "x/sm75.cu");  // the first includer by path
}

TEST(HeaderMembership, NothingIsGuessed) {
  Tree tree;
  tree.source("s/left.cu", {"s/only.cuh", "s/listed.cuh", "s/cycle_a.cuh"}, true);
  tree.source("s/kept.cu", {}, true);
  tree.source("s/only.cuh", {}, false);
  tree.source("s/listed.cuh", {}, true);   // a build file lists it: its own membership decides
  tree.source("s/nobody.cuh", {}, false);  // included by nothing
  tree.source("s/cycle_a.cuh", {"s/cycle_b.cuh"}, false);
  tree.source("s/cycle_b.cuh", {"s/cycle_a.cuh"}, false);
  tree.source("s/cycle_c.cuh", {"s/cycle_d.cuh"}, false);  // a cycle nothing left out enters
  tree.source("s/cycle_d.cuh", {"s/cycle_c.cuh"}, false);
  tree.leave_out("s/left.cu", true);
  // A file the AMD build may compile has an #include of "only.cuh" it could not resolve: it may
  // mean s/only.cuh, so s/only.cuh is not left out.
  tree.unresolved["s/kept.cu"] = {"only.cuh"};
  const auto out = tree.run();
  EXPECT_FALSE(out.contains("s/only.cuh"));
  EXPECT_FALSE(out.contains("s/listed.cuh"));
  EXPECT_FALSE(out.contains("s/nobody.cuh"));
  EXPECT_FALSE(out.contains("s/cycle_c.cuh"));
  // cycle_b is included only by cycle_a, which includes it back: neither is ever decided, and
  // cycle_a also has cycle_b as an includer, so both stay.
  EXPECT_FALSE(out.contains("s/cycle_a.cuh"));
  EXPECT_FALSE(out.contains("s/cycle_b.cuh"));
}

}  // namespace
}  // namespace gpuport
