// Unit tests for the stack rule families: requirement and image parsing, index URLs, the
// embedded-binary probe, artifacts, and the detectors run over small in-memory files.
#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "lex/config_reader.h"
#include "lex/python_lexer.h"
#include "scan/file_analysis.h"
#include "scan/rules/catalog.h"
#include "scan/rules/catalog_rows.h"
#include "scan/rules/stack_rules.h"

namespace gpuport {
namespace {

// (line, rule id) pairs of an analysis, sorted.
std::vector<std::pair<std::uint32_t, std::string>> hits(const FileAnalysis& analysis) {
  std::vector<std::pair<std::uint32_t, std::string>> out;
  for (const Finding& f : analysis.findings) {
    out.emplace_back(f.line, std::string(rule_catalog()[f.rule].id));
  }
  std::sort(out.begin(), out.end());
  return out;
}

FileAnalysis python(const std::string& path, std::string_view source) {
  TokenStream tokens;
  lex_python(source, tokens);
  PythonFacts facts = extract_python_facts(tokens);
  FileAnalysis out;
  analyze_python(path, tokens, facts, out);
  return out;
}

FileAnalysis config(const std::string& path, Language language, std::string_view source) {
  std::vector<ConfigLine> lines = read_config_lines(source, language);
  FileAnalysis out;
  analyze_config(path, language, lines, out);
  return out;
}

using Hits = std::vector<std::pair<std::uint32_t, std::string>>;

TEST(ParseRequirement, NameExtrasVersionAndLocal) {
  auto req = parse_requirement("Torch_Vision[Extra1, cuda12] == 0.18.0+CU121 ; python_version>'3'");
  ASSERT_TRUE(req);
  EXPECT_EQ(req->name, "torch-vision");
  EXPECT_EQ(req->extras, "extra1, cuda12");
  EXPECT_EQ(req->op, "==");
  EXPECT_EQ(req->version, "0.18.0");
  EXPECT_EQ(req->local, "cu121");
}

TEST(ParseRequirement, QuotedRangeAndConda) {
  auto quoted = parse_requirement("\"jax[cuda12]>=0.4.30,<0.5\"");
  ASSERT_TRUE(quoted);
  EXPECT_EQ(quoted->name, "jax");
  EXPECT_EQ(quoted->extras, "cuda12");
  EXPECT_EQ(quoted->op, ">=");
  EXPECT_EQ(quoted->version, "0.4.30");
  EXPECT_EQ(quoted->local, "");
  auto conda = parse_requirement("pytorch-cuda=12.1");
  ASSERT_TRUE(conda);
  EXPECT_EQ(conda->name, "pytorch-cuda");
  EXPECT_EQ(conda->op, "=");
  EXPECT_EQ(conda->version, "12.1");
}

TEST(ParseRequirement, DirectUrlBareNameAndRejects) {
  auto url = parse_requirement("torch @ https://example.org/whl/cu121/torch.whl");
  ASSERT_TRUE(url);
  EXPECT_EQ(url->op, "@");
  EXPECT_EQ(url->version, "https://example.org/whl/cu121/torch.whl");
  auto bare = parse_requirement("onnxruntime-gpu");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->name, "onnxruntime-gpu");
  EXPECT_EQ(bare->op, "");
  EXPECT_FALSE(parse_requirement("--extra-index-url https://x"));
  EXPECT_FALSE(parse_requirement(""));
  EXPECT_FALSE(parse_requirement("[tool.poetry]"));
}

TEST(ClassifyRequirement, RulesAndSigns) {
  auto rule = [](std::string_view text) {
    return std::string(classify_requirement(*parse_requirement(text)).rule);
  };
  EXPECT_EQ(rule("torch==2.3.0+cu121"), "GP-PKG-001");
  EXPECT_EQ(rule("torch==2.3.0"), "");
  EXPECT_EQ(rule("nvidia-cudnn-cu12==8.9.2.26"), "GP-PKG-002");
  EXPECT_EQ(rule("nvidia-tensorrt-cu12"), "GP-PKG-004");
  EXPECT_EQ(rule("onnxruntime-gpu>=1.17"), "GP-PKG-003");
  EXPECT_EQ(rule("onnxruntime>=1.17"), "");
  EXPECT_EQ(rule("tensorrt-cu12==10.0.1"), "GP-PKG-004");
  EXPECT_EQ(rule("cupy-cuda12x"), "GP-PKG-005");
  EXPECT_EQ(rule("jax[cuda12]"), "GP-PKG-006");
  EXPECT_EQ(rule("jax"), "");
  EXPECT_EQ(rule("nvidia-ml-py"), "GP-PKG-007");
  EXPECT_EQ(rule("flash_attn==2.5.8"), "GP-PKG-008");
  EXPECT_EQ(rule("nvidia-ml-py3"), "GP-PKG-007");
  EXPECT_EQ(classify_requirement(*parse_requirement("torch==2.4.0+rocm6.1")).amd_sign,
            "torch+rocm wheel");
  EXPECT_EQ(classify_requirement(*parse_requirement("onnxruntime-migraphx")).amd_sign,
            "ONNX Runtime AMD build");
}

TEST(ClassifyIndexUrl, CudaRocmAndNightly) {
  EXPECT_EQ(classify_index_url("--extra-index-url https://download.pytorch.org/whl/cu121").cuda,
            "cu121");
  EXPECT_EQ(classify_index_url("https://download.pytorch.org/whl/nightly/cu124").cuda, "cu124");
  IndexUrlVerdict rocm = classify_index_url("--index-url https://download.pytorch.org/whl/rocm6.2");
  EXPECT_EQ(rocm.cuda, "");
  EXPECT_EQ(rocm.rocm, "rocm6.2");
  EXPECT_EQ(classify_index_url("https://download.pytorch.org/whl/cpu").cuda, "");
}

TEST(ParseImage, RegistryRepositoryTagDigest) {
  auto ngc = parse_image("nvcr.io/nvidia/pytorch:24.01-py3");
  ASSERT_TRUE(ngc);
  EXPECT_EQ(ngc->registry, "nvcr.io");
  EXPECT_EQ(ngc->repository, "nvidia/pytorch");
  EXPECT_EQ(ngc->tag, "24.01-py3");
  auto hub = parse_image("nvidia/cuda:12.1.0-devel-ubuntu22.04");
  ASSERT_TRUE(hub);
  EXPECT_EQ(hub->registry, "");
  EXPECT_EQ(hub->repository, "nvidia/cuda");
  EXPECT_EQ(hub->tag, "12.1.0-devel-ubuntu22.04");
  auto local = parse_image("localhost:5000/team/rocm-base@sha256:abc");
  ASSERT_TRUE(local);
  EXPECT_EQ(local->registry, "localhost:5000");
  EXPECT_EQ(local->repository, "team/rocm-base");
  EXPECT_EQ(local->tag, "");
  EXPECT_EQ(local->digest, "sha256:abc");
  auto plain = parse_image("ubuntu");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->repository, "ubuntu");
  EXPECT_FALSE(parse_image("${BASE_IMAGE}"));
  EXPECT_FALSE(parse_image(""));
}

TEST(FindWord, Boundaries) {
  EXPECT_EQ(find_word("project(x CXX CUDA)", "cuda"), std::string::npos);  // case-sensitive
  EXPECT_EQ(find_word("project(x cxx cuda)", "cuda"), 14u);
  EXPECT_EQ(find_word("cuda_samples cuda", "cuda"), 13u);
  EXPECT_EQ(find_word("run-nvidia-smi nvidia-smi -L", "nvidia-smi"), 15u);
  EXPECT_EQ(find_word("docker run --gpus=all", "--gpus"), 11u);
}

TEST(PythonStringContent, Prefixes) {
  EXPECT_EQ(python_string_content("rb'abc'"), "abc");
  EXPECT_EQ(python_string_content("\"\"\"x\ny\"\"\""), "x\ny");
  EXPECT_EQ(python_string_content("\"\""), "");
  EXPECT_EQ(python_string_content("'unterminated"), "unterminated");
}

TEST(EmbeddedBinary, ByteArrayDumpIsDetected) {
  std::string source = "// generated\nnamespace k {\nunsigned char cubin_sm80[] = {\n";
  while (source.size() < 40000) {
    source += "0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x33, 0x07, 0x00, 0x00, 0x00,\n";
  }
  source += "};\n}\n";
  ASSERT_TRUE(looks_like_embedded_binary(source));
  FileAnalysis out;
  analyze_embedded_binary("fmha_sm80.cpp", source, out);
  ASSERT_EQ(out.artifacts.size(), 1u);
  EXPECT_EQ(out.artifacts[0].kind, ArtifactKind::EmbeddedCubin);
  EXPECT_EQ(out.artifacts[0].line, 3u);
  EXPECT_EQ(out.artifacts[0].bytes, source.size());
  EXPECT_EQ(hits(out), (Hits{{3, "GP-ART-003"}}));
  EXPECT_EQ(out.findings[0].excerpt, "unsigned char cubin_sm80[] = {");
}

// Regression: llama.cpp's generated unicode-data.cpp (dense hex pairs) was reported as an
// embedded NVIDIA binary. Decided by the bytes alone: a cubin is an ELF for EM_CUDA (190), a
// fatbinary starts with 0xBA55ED50, PTX text with its directives; names and comments decide
// nothing, and an AMD code object (ELF for EM_AMDGPU) is not NVIDIA's.
TEST(EmbeddedBinary, ANvidiaBinaryByContentOnly) {
  std::string data;
  for (int i = 0; i < 4000; ++i) {
    data += "0x" + std::string(1, "0123456789abcdef"[i % 16]) + "3, ";
  }
  const std::string table = "const unsigned char data[] = {\n" + data + "};\n";
  ASSERT_TRUE(looks_like_embedded_binary(table));
  EXPECT_FALSE(holds_nvidia_binary("src/unicode-data.cpp", table));
  EXPECT_FALSE(holds_nvidia_binary("kernels/fmha_sm80_cubin.cpp", table));
  EXPECT_FALSE(holds_nvidia_binary("src/data.cpp", "// fatbin for sm_90\n" + table));
  const std::string elf_header =
      "0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x33, 0x07, 0, 0, 0, "
      "0, 0, 0, 0, 0x02, 0x00, ";
  const std::string cubin = "unsigned char k[] = {" + elf_header + "0xbe, 0x00, " + data + "};";
  EXPECT_TRUE(holds_nvidia_binary("src/blob.cpp", cubin));
  const std::string hsaco = "unsigned char k[] = {" + elf_header + "0xe0, 0x00, " + data + "};";
  ASSERT_TRUE(looks_like_embedded_binary(hsaco));
  EXPECT_FALSE(holds_nvidia_binary("src/kernel_hsaco.cpp", hsaco));
  const std::string words = "unsigned long long k[] = {0x00100001ba55ed50ull, " + data + "};";
  EXPECT_TRUE(holds_nvidia_binary("src/blob.cpp", words));
  std::string ptx_bytes;
  for (char c : std::string_view("//\n// Generated by NVIDIA NVVM Compiler\n.version 8.4\n"
                                 ".target sm_80\n")) {
    ptx_bytes += std::to_string(static_cast<int>(c)) + ", ";
  }
  EXPECT_TRUE(holds_nvidia_binary("src/k.cpp", "const char ptx[] = {" + ptx_bytes + data + "};"));
  EXPECT_FALSE(holds_nvidia_binary("src/blob.cpp", "int a[] = {0x7f, 0x45, 0x4c, 0x46};"));
}

// The array inside namespaces, declared over two lines with alignas: found, and reported at the
// declaration's first line.
TEST(EmbeddedBinary, ArrayInANamespaceIsReportedAtItsDeclaration) {
  std::string source =
      "namespace nvinfer1\n{\nnamespace plugin\n{\nalignas(16) static const "
      "unsigned char\n    cubin_sm90[] = {\n0x7f, 0x45, 0x4c, 0x46, 0x02, "
      "0x01, 0x01, 0x33, 0x07, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0xbe, 0x00,\n";
  while (source.size() < 40000) {
    source += "0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc,\n";
  }
  source += "};\n}\n}\n";
  ASSERT_TRUE(holds_nvidia_binary("fmha.cpp", source));
  FileAnalysis out;
  analyze_embedded_binary("fmha.cpp", source, out);
  EXPECT_EQ(hits(out), (Hits{{5, "GP-ART-003"}}));
  EXPECT_EQ(out.findings[0].excerpt, "alignas(16) static const unsigned char");
}

TEST(EmbeddedBinary, LookupTableInOrdinaryCodeIsNot) {
  std::string source = "static const unsigned crc[256] = {\n";
  for (int i = 0; i < 256; ++i) {
    source += "0x77073096, ";
  }
  source += "};\n";
  while (source.size() < 40000) {
    source += "int f(int x) { return crc[x & 255] ^ (x >> 8); }  // mix the bits\n";
  }
  EXPECT_FALSE(looks_like_embedded_binary(source));
  EXPECT_FALSE(looks_like_embedded_binary("int a[] = {1, 2, 3};"));
  EXPECT_FALSE(looks_like_embedded_binary(""));
}

// A dump is data when literals and commas are at least 60 % of its non-blank bytes. Each line
// below has 20 such bytes ("0x7f," four times) and a comment of 13 (dense: 20 >= 0.6 * 33) or
// 14 (not dense: 20 < 0.6 * 34) other bytes.
TEST(EmbeddedBinary, SixtyPercentBoundaryIsExact) {
  auto dump = [](std::string_view comment) {
    std::string source = "unsigned char cubin[] = {\n";
    while (source.size() < 40000) {
      source += "0x7f, 0x45, 0x4c, 0x46, //" + std::string(comment) + "\n";
    }
    return source + "};\n";
  };
  EXPECT_TRUE(looks_like_embedded_binary(dump("ghijklmnopq")));    // 2 + 11 other bytes
  EXPECT_FALSE(looks_like_embedded_binary(dump("ghijklmnopqr")));  // 2 + 12
  // Vertical tabs are not blanks (4 of them + 2 + 7 = 13 other bytes); tab, CR, LF, FF are.
  auto spaced = [](std::string_view comment) {
    std::string source = "unsigned char cubin[] = {\r\n";
    while (source.size() < 40000) {
      source += "0x7f,\v0x45,\v0x4c,\v0x46,\v\t\f//" + std::string(comment) + "\r\n";
    }
    return source + "};\r\n";
  };
  EXPECT_TRUE(looks_like_embedded_binary(spaced("ghijklm")));
  EXPECT_FALSE(looks_like_embedded_binary(spaced("ghijklmn")));
  // a-f could be hex digits, but in a comment they are other bytes like the rest.
  EXPECT_TRUE(looks_like_embedded_binary(dump("abcdefghijk")));
  EXPECT_FALSE(looks_like_embedded_binary(dump("abcdefghijkl")));
}

// The extension names the kind; the first bytes decide whether the file is one.
TEST(Artifact, KindsByExtensionAndContent) {
  const std::string plan = std::string("ftrt") + std::string(28, '\0');
  const std::string cubin = std::string(
                                "\x7f"
                                "ELF\x02\x01\x01\x33\x07",
                                9) +
                            std::string(9, '\0') + std::string("\xbe\x00", 2);
  const std::string ptx = "//\n// Generated by NVIDIA NVVM Compiler\n.version 8.4\n.target sm_80\n";
  FileAnalysis out;
  analyze_artifact("models/bert.plan", 1234, plan, out);
  analyze_artifact("kernels/gemm_sm90.CUBIN", 50, cubin, out);
  analyze_artifact("kernels/a.ptx", 7, ptx, out);
  analyze_artifact("notes.txt", 7, "notes", out);
  ASSERT_EQ(out.artifacts.size(), 3u);
  EXPECT_EQ(out.artifacts[0].kind, ArtifactKind::TensorRtEngine);
  EXPECT_EQ(out.artifacts[1].kind, ArtifactKind::Cubin);
  EXPECT_EQ(out.artifacts[2].kind, ArtifactKind::Ptx);
  ASSERT_EQ(out.findings.size(), 3u);
  EXPECT_EQ(rule_catalog()[out.findings[0].rule].id, "GP-ART-001");
  EXPECT_EQ(out.findings[0].detail, "TensorRT engine, 1234 bytes");
  EXPECT_EQ(out.findings[0].line, 1u);
  EXPECT_EQ(rule_catalog()[out.findings[2].rule].id, "GP-ART-002");
  EXPECT_EQ(out.findings[2].detail, "PTX, 7 bytes");
}

// A TensorRT engine is a serialized plan: bare, or behind a length-prefixed metadata block. A
// text file or another format with the extension is not one; nor is an AMD code object named
// .cubin.
TEST(Artifact, ExtensionWithOtherContentIsNotAnArtifact) {
  const std::string metadata = R"({"imgsz": [640, 640]})";
  std::string wrapped(4, '\0');
  wrapped[0] = static_cast<char>(metadata.size());
  wrapped += metadata + "ftrt" + std::string(16, '\0');
  FileAnalysis out;
  analyze_artifact("models/yolo.engine", 4096, wrapped, out);
  EXPECT_EQ(out.artifacts.size(), 1u);
  analyze_artifact("deploy/model.plan", 120, "# rollout plan\n1. build the engine\n", out);
  analyze_artifact("configs/run.trt", 40, "max_batch=8\n", out);
  analyze_artifact("models/empty.engine", 0, "", out);
  const std::string hsaco = std::string(
                                "\x7f"
                                "ELF\x02\x01\x01\x40\x03",
                                9) +
                            std::string(9, '\0') + std::string("\xe0\x00", 2);
  analyze_artifact("kernels/gemm_gfx942.cubin", 50, hsaco, out);
  EXPECT_EQ(out.artifacts.size(), 1u);
  EXPECT_EQ(out.findings.size(), 1u);
}

TEST(PythonRules, GptFastStyleIsFrameworkOnly) {
  FileAnalysis out = python("generate.py",
                            "import torch\n"
                            "import torch.nn as nn\n"
                            "device = 'cuda'\n"
                            "torch.cuda.synchronize()\n"
                            "model = torch.compile(model)\n");
  // One finding per import statement, nothing for the torch.cuda calls.
  EXPECT_EQ(hits(out), (Hits{{1, "GP-FW-001"}, {2, "GP-FW-001"}}));
}

// `from x import a, b` is one import site; `import triton` counts beside @triton.jit kernels.
TEST(PythonRules, ImportsCountPerStatement) {
  FileAnalysis out = python("ops.py",
                            "from torch.utils.cpp_extension import load, load_inline\n"
                            "import triton\n"
                            "import triton.language as tl\n"
                            "@triton.jit\n"
                            "def k(x): pass\n");
  EXPECT_EQ(hits(out),
            (Hits{{1, "GP-FW-001"}, {2, "GP-FW-002"}, {3, "GP-FW-002"}, {4, "GP-FW-002"}}));
}

TEST(PythonRules, ImportsDecoratorsStringsAndSigns) {
  FileAnalysis out = python("serve.py",
                            "import onnxruntime as ort\n"  // 1
                            "from numba import cuda\n"     // 2
                            "@cuda.jit\n"                  // 3
                            "def k(a): pass\n"             // 4
                            "s = ort.InferenceSession(p, providers=['CUDAExecutionProvider'])\n"
                            "# import tensorrt\n"  // 6
                            "if torch.version.hip: providers = ['MIGraphXExecutionProvider']\n"
                            "src = 'extern \"C\" __global__ void add(float* x) {}'\n"  // 8
                            "doc = 'a __global__ function'\n");                        // 9
  // The import is ONNX Runtime (GP-FW-023); the provider it asks for is GP-FW-003.
  EXPECT_EQ(hits(out), (Hits{{1, "GP-FW-023"},
                             {2, "GP-FW-018"},
                             {3, "GP-FW-018"},
                             {5, "GP-FW-003"},
                             {8, "GP-FW-021"}}));
  ASSERT_EQ(out.amd_path.size(), 2u);
  EXPECT_EQ(out.amd_path[0].kind, AmdPathKind::RocmPackage);
  EXPECT_EQ(out.amd_path[0].line, 7u);
  EXPECT_EQ(out.findings[3].detail, "CUDAExecutionProvider");
  EXPECT_EQ(out.findings[3].column, 40u);
}

TEST(PythonRules, FlashAttentionGenerations) {
  FileAnalysis fa2 =
      python("a.py", "from flash_attn.flash_attn_interface import flash_attn_func\n");
  EXPECT_EQ(hits(fa2), (Hits{{1, "GP-FW-009"}}));
  FileAnalysis fa3 = python("b.py", "import flash_attn_interface\nfrom flash_attn import cute\n");
  EXPECT_EQ(hits(fa3), (Hits{{1, "GP-FW-010"}, {2, "GP-FW-010"}}));
}

TEST(ConfigRules, RequirementsFile) {
  FileAnalysis out = config("requirements.txt", Language::Packaging,
                            "--extra-index-url https://download.pytorch.org/whl/cu121\n"
                            "torch==2.3.0+cu121\n"
                            "torchvision==0.18.0\n"
                            "nvidia-nccl-cu12==2.20.5\n"
                            "# onnxruntime-gpu\n"
                            "onnxruntime-migraphx\n");
  EXPECT_EQ(hits(out), (Hits{{1, "GP-PKG-001"}, {2, "GP-PKG-001"}, {4, "GP-PKG-002"}}));
  EXPECT_EQ(out.findings[1].detail, "torch==2.3.0+cu121");
  ASSERT_EQ(out.amd_path.size(), 1u);
  EXPECT_EQ(out.amd_path[0].line, 6u);
}

TEST(ConfigRules, PyprojectArraysAndPoetry) {
  FileAnalysis out = config("pyproject.toml", Language::Packaging,
                            "[project]\n"
                            "name = \"tensorrt\"\n"
                            "dependencies = [\n"
                            "  \"cupy-cuda12x>=13\",\n"
                            "  \"numpy\",\n"
                            "]\n"
                            "[tool.poetry.dependencies]\n"
                            "torch = { version = \"2.3.0+cu121\", source = \"pt\" }\n");
  EXPECT_EQ(hits(out), (Hits{{4, "GP-PKG-005"}, {8, "GP-PKG-001"}}));
}

TEST(ConfigRules, CMakeLanguageArchAndHip) {
  FileAnalysis out = config("CMakeLists.txt", Language::CMake,
                            "project(cuda_samples LANGUAGES CXX CUDA)\n"
                            "set(CMAKE_CUDA_ARCHITECTURES 80 90)\n"
                            "target_link_libraries(app PRIVATE CUDA::cublas)\n"
                            "enable_language(HIP)\n"
                            "project(cuda LANGUAGES CXX)\n");
  EXPECT_EQ(hits(out), (Hits{{1, "GP-BUILD-001"}, {2, "GP-BUILD-002"}, {3, "GP-BUILD-003"}}));
  EXPECT_EQ(out.findings[2].detail, "CUDA::cublas");
  ASSERT_EQ(out.amd_path.size(), 1u);
  EXPECT_EQ(out.amd_path[0].kind, AmdPathKind::HipCMake);
}

TEST(ConfigRules, DockerfileImagesAndRuntime) {
  FileAnalysis out = config("Dockerfile", Language::Docker,
                            "ARG BASE=nvcr.io/nvidia/tritonserver:24.01-py3\n"
                            "FROM --platform=linux/amd64 nvidia/cuda:12.1.0-runtime AS base\n"
                            "ENV NVIDIA_VISIBLE_DEVICES=all\n"
                            "RUN pip install torch==2.3.0+cu121 onnxruntime-gpu\n"
                            "FROM rocm/pytorch:latest\n"
                            "FROM ghcr.io/acme/nvidia/cuda:1\n");
  EXPECT_EQ(hits(out), (Hits{{1, "GP-DEPLOY-002"},
                             {2, "GP-DEPLOY-001"},
                             {3, "GP-DEPLOY-003"},
                             {4, "GP-PKG-001"},
                             {4, "GP-PKG-003"}}));
  ASSERT_EQ(out.amd_path.size(), 1u);
  EXPECT_EQ(out.amd_path[0].line, 5u);
  EXPECT_EQ(out.amd_path[0].kind, AmdPathKind::RocmImage);
}

TEST(StackCatalog, RowsSortedUniqueAndDocumented) {
  std::span<const RuleInfo> rules = stack_rule_rows();
  ASSERT_GE(rules.size(), 40u);
  std::set<std::string_view> components;
  for (const ComponentInfo& c : stack_component_rows()) {
    EXPECT_TRUE(components.insert(c.name).second) << c.name;
  }
  EXPECT_TRUE(std::is_sorted(stack_component_rows().begin(), stack_component_rows().end(),
                             [](const auto& a, const auto& b) { return a.name < b.name; }));
  namespace fs = std::filesystem;
  const fs::path root = GPUPORT_SOURCE_DIR;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const RuleInfo& rule = rules[i];
    if (i > 0) {
      EXPECT_LT(rules[i - 1].id, rule.id);
    }
    EXPECT_NE(find_component(rule.component), nullptr) << rule.id << " " << rule.component;
    EXPECT_TRUE(fs::is_directory(root / "tests/fixtures/rules" / rule.id)) << rule.id;
    EXPECT_TRUE(fs::exists(root / "docs/rules" / (std::string(rule.id) + ".md"))) << rule.id;
  }
}

}  // namespace
}  // namespace gpuport
