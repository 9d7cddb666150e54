#!/usr/bin/env python3
"""Generates a deterministic, realistic CUDA/C++/Python inference-stack corpus for benchmarks.

The corpus imitates a monorepo of several ML serving projects: CUDA kernels (shuffles, shared
memory, launches, occasional inline PTX and cuBLAS calls), C++ host code and templates, PyTorch /
Triton / ONNX Runtime Python, CMake, requirements files, Dockerfiles, YAML, .gitignore files. Text
is assembled from templates with randomised identifiers and constants, so it is not trivially
repetitive. About 5% of the files carry UTF-8 (non-ASCII) comments. Standard library only.

    make_corpus.py [OUT_DIR] [--mb 220] [--seed 1] [--force]
"""

import argparse
import os
import random
import shutil
import sys
import time

MARKER = "CORPUS-README.txt"

OPS = (
    "attn gemm gemv rope rmsnorm layernorm softmax topk argmax moe router dequant quant pack "
    "unpack gather scatter embed sample beam prefix decode prefill split merge reduce scan bias "
    "gelu silu swiglu mask kvcache paged block tile conv pool resize nms anchor logits rotary "
    "alibi lora fp8 int4 int8 bf16 cast transpose permute copy fill cumsum histogram sort radix "
    "bitonic flash sparse dense fused grouped batched strided varlen causal sliding"
).split()
NOUNS = (
    "buffer params state config layout stride offset index count scale weight input output cache "
    "table head token batch seq group lane row col tile stage slot page chunk span shard rank "
    "queue pool plan desc handle workspace meta bound limit"
).split()
WORDS = (
    "the a this each every we kernel thread block warp lane tile row column value values "
    "element elements shared memory register registers load store loads stores reduce reduction "
    "sum max scale scales bias input output tensor tensors pointer stride offset layout so "
    "that when if is are be must should can may not only per across within before after then "
    "compute computes computed result results fast path fallback slow case cases handle handles "
    "aligned unaligned vector vectorized width size sizes batch sequence head heads token tokens "
    "cache page pages index indices mask masked causal prefix decode prefill step steps stage "
    "pipeline async barrier sync synchronize launch launches grid dimension dimensions bytes "
    "half float precision accumulate accumulator overflow underflow rounding numerically stable "
    "note todo keep avoid use uses using assume assumes guarantees callers caller host device"
).split()
UNICODE_COMMENTS = (
    "注意：这里假设每个线程块处理一行数据",
    "共享内存的大小必须是 16 字节对齐的",
    "この関数は非同期に実行される（ストリーム順序）",
    "ワープ内の全スレッドが同じ分岐を通る必要がある",
    "Achtung: die Größe muss ein Vielfaches von 128 sein",
    "Hinweis: Überlauf bei sehr großen Eingaben möglich",
    "Внимание: порядок суммирования влияет на результат",
    "Remarque : la mémoire partagée est réutilisée après la barrière",
    "주의: 이 커널은 정렬된 입력만 처리합니다",
    "latency ≤ 20 µs per call → keep it on the fast path",
    "error bound ε ≈ 2⁻¹⁰ for bf16 (see § 3.2)",
    "🚀 fused path, ~1.8× faster than the eager version",
    "TODO(José): revisar el caso de longitud cero",
    "Σ over heads, then ÷ by √d — matches the reference",
    "warning ⚠ the cache layout is [page, head, slot, dim]",
)
TYPES = ("float", "__half", "__nv_bfloat16", "half", "int", "float2", "float4", "uint32_t")
DTYPES = ("float16", "bfloat16", "float32")


class FastRandom(random.Random):
    """Random with cheaper choice/randint (one random() call each); still fully seeded."""

    def choice(self, seq):
        return seq[int(self.random() * len(seq))]

    def randint(self, a, b):
        return a + int(self.random() * (b - a + 1))


class Gen:
    """Template-based text generator; every choice goes through one seeded Random."""

    def __init__(self, seed):
        self.r = FastRandom(seed)
        self.unicode = False  # set per file by main()
        r = self.r
        self.sentences = []
        for _ in range(6000):
            n = r.randint(6, 18)
            s = " ".join(r.choice(WORDS) for _ in range(n))
            self.sentences.append(s[0].upper() + s[1:] + ".")
        # Pre-wrapped comment blocks: wrapping text per use would dominate the run time.
        self.line_comments = {}
        self.block_comments = {}
        self.hash_comments = {}

    def _pooled(self, pool, indent, make, size=400):
        blocks = pool.get(indent)
        if blocks is None:
            blocks = pool[indent] = [make() for _ in range(size)]
        return self.r.choice(blocks)

    # ---- small helpers -------------------------------------------------------------------------
    def ident(self):
        r = self.r
        s = f"{r.choice(OPS)}_{r.choice(NOUNS)}"
        if r.random() < 0.3:
            s += f"_{r.choice(OPS)}"
        if r.random() < 0.2:
            s += str(r.randint(2, 64))
        return s

    def camel(self):
        return "".join(p.capitalize() for p in self.ident().split("_"))

    def prose(self, lo=1, hi=3):
        return " ".join(self.r.choice(self.sentences) for _ in range(self.r.randint(lo, hi)))

    def wrap(self, text, prefix, width=96):
        lines, cur = [], prefix
        for w in text.split():
            if len(cur) + len(w) + 1 > width and cur != prefix:
                lines.append(cur.rstrip())
                cur = prefix
            cur += w + " "
        lines.append(cur.rstrip())
        return "\n".join(lines) + "\n"

    def c_comment(self, indent=""):
        r = self.r
        if self.unicode and r.random() < 0.25:
            return f"{indent}// {r.choice(UNICODE_COMMENTS)}\n"
        if r.random() < 0.15:
            return self._pooled(self.block_comments, indent, lambda: f"{indent}/*\n" +
                                self.wrap(self.prose(2, 5), indent + " * ") + f"{indent} */\n", 1500)
        return self._pooled(self.line_comments, indent, lambda: self.wrap(self.prose(1, 2), indent + "// "), 3000)

    def py_comment(self, indent=""):
        if self.unicode and self.r.random() < 0.25:
            return f"{indent}# {self.r.choice(UNICODE_COMMENTS)}\n"
        return self._pooled(self.hash_comments, indent, lambda: self.wrap(self.prose(1, 2), indent + "# "), 2000)

    # ---- CUDA ------------------------------------------------------------------------------------
    def cu_header(self, project):
        r = self.r
        incs = ["<cuda_runtime.h>", "<cstdint>"]
        incs += r.sample(["<cuda_fp16.h>", "<cuda_bf16.h>", "<cub/cub.cuh>", "<cooperative_groups.h>",
                          "<ATen/cuda/CUDAContext.h>", "<torch/extension.h>", "<c10/cuda/CUDAGuard.h>",
                          "<cublas_v2.h>", "<mma.h>", "<cuda_pipeline.h>", "<algorithm>", "<vector>"],
                         r.randint(2, 6))
        out = f"// {self.prose(1, 1)}\n// Copyright {r.randint(2019, 2025)} The {project} Authors. SPDX-License-Identifier: Apache-2.0\n\n"
        out += "".join(f"#include {i}\n" for i in incs)
        out += f'\n#include "{project}/{self.ident()}.cuh"\n\nnamespace {project} {{\nnamespace {r.choice(OPS)} {{\n\n'
        return out

    def cu_footer(self, project):
        return f"\n}}  // namespace\n}}  // namespace {project}\n"

    def cu_elementwise(self):
        r = self.r
        name, t = self.ident(), r.choice(("float", "__half", "__nv_bfloat16", "T"))
        tmpl = "template <typename T>\n" if t == "T" else ""
        op = r.choice(("x * scale + bias", "x > 0.f ? x : x * slope", "x / (1.f + __expf(-x))",
                       "0.5f * x * (1.f + tanhf(0.79788456f * (x + 0.044715f * x * x * x)))",
                       "fminf(fmaxf(x, lo), hi)", "x * rsqrtf(var + eps)"))
        return (self.c_comment() + tmpl +
                f"__global__ void {name}_kernel(const {t}* __restrict__ in, {t}* __restrict__ out,\n"
                f"    int64_t n, float scale, float bias, float slope, float lo, float hi, float var, float eps) {{\n"
                f"  const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;\n"
                f"  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {{\n"
                f"    const float x = static_cast<float>(in[i]);\n"
                f"    out[i] = static_cast<{t}>({op});\n  }}\n}}\n\n")

    def cu_warp_reduce(self):
        r = self.r
        name = self.ident()
        kind = r.random()
        if kind < 0.45:
            body = (f"  for (int offset = {r.choice((16, 16, 16, 8))}; offset > 0; offset >>= 1) {{\n"
                    f"    v {r.choice(('+=', '+='))} __shfl_xor_sync(0xffffffff, v, offset);\n  }}\n")
        elif kind < 0.75:
            body = ("#pragma unroll\n  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) {\n"
                    "    v = fmaxf(v, __shfl_down_sync(FULL_MASK, v, offset));\n  }\n")
        else:
            body = ("  for (int mask = width / 2; mask >= 1; mask /= 2) {\n"
                    "    v += __shfl_xor_sync(0xffffffffu, v, mask, width);\n  }\n")
        return (self.c_comment() + f"template <int width = {r.choice((32, 32, 16, 8))}>\n"
                f"__device__ __forceinline__ float {name}_warp_reduce(float v) {{\n{body}  return v;\n}}\n\n")

    def cu_block_reduce(self):
        r = self.r
        name, n = self.ident(), r.choice((32, 32, 32, 16, 8))
        return (self.c_comment() +
                f"__device__ float {name}_block_reduce(float v) {{\n"
                f"  __shared__ float partial[{n}];\n"
                f"  const int lane = threadIdx.x {r.choice(('& 31', '% 32', '% WARP_SIZE'))};\n"
                f"  const int wid = threadIdx.x {r.choice(('/ 32', '>> 5', '/ WARP_SIZE'))};\n"
                f"  v = {self.ident()}_warp_reduce(v);\n"
                f"  if (lane == 0) partial[wid] = v;\n  __syncthreads();\n"
                f"  v = (threadIdx.x < blockDim.x / 32) ? partial[lane] : 0.f;\n"
                f"  if (wid == 0) v = {self.ident()}_warp_reduce(v);\n  return v;\n}}\n\n")

    def cu_tiled(self):
        r = self.r
        name, tile = self.ident(), r.choice((8, 16, 32, 64))
        return (self.c_comment() +
                f"template <typename T, int TILE = {tile}>\n"
                f"__global__ void __launch_bounds__({r.choice((128, 256, 512, 1024))}) {name}_kernel(\n"
                f"    const T* __restrict__ a, T* __restrict__ b, int rows, int cols) {{\n"
                f"  __shared__ T tile[TILE][TILE + 1];\n"
                f"  int x = blockIdx.x * TILE + threadIdx.x;\n  int y = blockIdx.y * TILE + threadIdx.y;\n"
                f"  for (int j = 0; j < TILE; j += blockDim.y) {{\n"
                f"    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = a[(y + j) * cols + x];\n  }}\n"
                f"  __syncthreads();\n"
                f"  x = blockIdx.y * TILE + threadIdx.x;\n  y = blockIdx.x * TILE + threadIdx.y;\n"
                f"  for (int j = 0; j < TILE; j += blockDim.y) {{\n"
                f"    if (x < rows && y + j < cols) b[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];\n  }}\n}}\n\n")

    def cu_ptx(self):
        r = self.r
        name = self.ident()
        k = r.randrange(6)
        if k == 0:
            asm = ('  asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\\n" ::"r"(smem_addr), "l"(gmem_ptr),\n'
                   f'               "n"({r.choice((4, 8, 16))}));\n')
            sig = "uint32_t smem_addr, const void* gmem_ptr"
        elif k == 1:
            asm = ('  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\\n"\n'
                   '               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr));\n')
            sig = "uint32_t (&r)[4], uint32_t smem_addr"
        elif k == 2:
            asm = ('  asm volatile(\n      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "\n'
                   '      "{%0,%1,%2,%3};\\n"\n      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])\n'
                   '      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));\n')
            sig = "float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]"
        elif k == 3:
            asm = (f'  asm("lop3.b32 %0, %1, %2, %3, {hex(r.randrange(256))};\\n" : "=r"(d) : "r"(x), "r"(y), "r"(z));\n')
            sig = "uint32_t& d, uint32_t x, uint32_t y, uint32_t z"
        elif k == 4:
            asm = (f'  asm("prmt.b32 %0, %1, %2, {hex(r.choice((0x5410, 0x7632, 0x3210, 0x1054)))};\\n" : "=r"(d) : "r"(x), "r"(y));\n')
            sig = "uint32_t& d, uint32_t x, uint32_t y"
        else:
            asm = '  asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];\\n"\n               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(ptr));\n'
            sig = "uint4& v, const void* ptr"
        guard = r.random() < 0.5
        body = asm
        if guard:
            body = f"#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {r.choice((750, 800, 800, 890, 900))}\n{asm}#else\n  __trap();\n#endif\n"
        return self.c_comment() + f"__device__ __forceinline__ void {name}_ptx({sig}) {{\n{body}}}\n\n"

    def cu_ballot(self):
        name = self.ident()
        return (self.c_comment() +
                f"__device__ int {name}_count(bool pred) {{\n"
                f"  unsigned ballot = __ballot_sync(0xffffffff, pred);\n"
                f"  const int lane = threadIdx.x & 31;\n"
                f"  const unsigned lower = ballot & ((1u << lane) - 1);\n"
                f"  return __popc(lower) + (__any_sync(__activemask(), pred) ? 0 : -1);\n}}\n\n")

    def cu_launcher(self):
        r = self.r
        name = self.ident()
        smem = r.choice(("0", "smem_bytes", "sizeof(float) * block.x", f"{r.randint(1, 48)} * 1024"))
        return (self.c_comment() +
                f"void launch_{name}(const float* in, float* out, int64_t n, cudaStream_t stream) {{\n"
                f"  const dim3 block({r.choice((64, 128, 256, 512))});\n"
                f"  const dim3 grid(static_cast<unsigned>((n + block.x - 1) / block.x));\n"
                f"  const size_t smem_bytes = {r.randint(0, 64)} * sizeof(float);\n"
                f"  (void)smem_bytes;\n"
                f"  {name}_kernel<<<grid, block, {smem}, stream>>>(in, out, n, 1.f, 0.f, 0.01f, -1.f, 1.f, 1.f, 1e-5f);\n"
                f"  C10_CUDA_KERNEL_LAUNCH_CHECK();\n}}\n\n")

    def cu_cublas(self):
        r = self.r
        name = self.ident()
        if r.random() < 0.5:
            call = ("  CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16F, k, a,\n"
                    "                           CUDA_R_16F, k, &beta, c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,\n"
                    "                           CUBLAS_GEMM_DEFAULT_TENSOR_OP));\n")
        else:
            call = ("  CUBLAS_CHECK(cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha,\n"
                    f"      b, n, stride_b, a, k, stride_a, &beta, c, n, stride_c, {r.randint(1, 64)}));\n")
        return (self.c_comment() +
                f"void {name}_gemm(cublasHandle_t handle, const void* a, const void* b, void* c, int m, int n, int k,\n"
                f"    long long stride_a, long long stride_b, long long stride_c, cudaStream_t stream) {{\n"
                f"  const float alpha = {r.choice(('1.0f', '0.5f', 'scale'))}, beta = 0.0f;\n"
                f"  CUBLAS_CHECK(cublasSetStream(handle, stream));\n{call}}}\n\n")

    def cu_wmma(self):
        name = self.ident()
        return (self.c_comment() +
                f"__global__ void {name}_wmma_kernel(const half* a, const half* b, float* c, int ld) {{\n"
                "  using namespace nvcuda;\n"
                "  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;\n"
                "  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;\n"
                "  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;\n"
                "  wmma::fill_fragment(fc, 0.0f);\n"
                "  for (int k = 0; k < ld; k += 16) {\n"
                "    wmma::load_matrix_sync(fa, a + k, ld);\n    wmma::load_matrix_sync(fb, b + k, ld);\n"
                "    wmma::mma_sync(fc, fa, fb, fc);\n  }\n"
                "  wmma::store_matrix_sync(c, fc, ld, wmma::mem_row_major);\n}\n\n")

    def cu_atomic(self):
        r = self.r
        name = self.ident()
        return (self.c_comment() +
                f"__global__ void {name}_histogram(const int* __restrict__ keys, int* __restrict__ bins, int n) {{\n"
                f"  __shared__ int local[{r.choice((64, 128, 256, 1024))}];\n"
                "  for (int i = threadIdx.x; i < sizeof(local) / sizeof(int); i += blockDim.x) local[i] = 0;\n"
                "  __syncthreads();\n"
                "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {\n"
                f"    atomicAdd(&local[keys[i] & {r.choice((63, 127, 255))}], 1);\n  }}\n"
                "  __syncthreads();\n"
                "  for (int i = threadIdx.x; i < sizeof(local) / sizeof(int); i += blockDim.x) atomicAdd(&bins[i], local[i]);\n}\n\n")

    def cu_instantiation(self):
        r = self.r
        fn = f"run_{self.ident()}"
        lines = []
        for _ in range(r.randint(4, 20)):
            t = r.choice(("cutlass::half_t", "cutlass::bfloat16_t", "float", "__half", "__nv_bfloat16"))
            lines.append(f"template void {fn}<{t}, {r.choice((32, 64, 96, 128, 192, 256))}, "
                         f"{r.choice(('true', 'false'))}>(Params& params, cudaStream_t stream);\n")
        return "".join(lines) + "\n"

    def cu_device_helpers(self):
        r = self.r
        t = r.choice(TYPES)
        name = self.ident()
        return (self.c_comment() +
                f"struct {self.camel()} {{\n  {t} {r.choice(NOUNS)}[{r.choice((2, 4, 8))}];\n"
                f"  int {r.choice(NOUNS)};\n  __host__ __device__ int {name}() const {{ return {r.randint(1, 99)}; }}\n}};\n\n"
                f"__device__ __forceinline__ {t} {name}_load(const {t}* p, int i) {{\n"
                f"  return __ldg(p + i);\n}}\n\n")

    # ---- C++ host --------------------------------------------------------------------------------
    def cpp_header(self, project, is_header):
        r = self.r
        incs = r.sample(["<vector>", "<string>", "<memory>", "<unordered_map>", "<mutex>", "<optional>",
                         "<cstdint>", "<stdexcept>", "<algorithm>", "<cuda_runtime_api.h>", "<torch/extension.h>",
                         "<cublas_v2.h>", "<nccl.h>", "<fmt/format.h>", "<span>", "<atomic>", "<thread>"],
                        r.randint(3, 8))
        out = f"// {self.prose(1, 1)}\n"
        if is_header:
            out += "#pragma once\n\n"
        out += "".join(f"#include {i}\n" for i in incs)
        if not is_header:
            out += f'\n#include "{project}/{self.ident()}.h"\n'
        return out + f"\nnamespace {project} {{\n\n"

    def cpp_class(self):
        r = self.r
        cls = self.camel()
        members = [(r.choice(("int64_t", "size_t", "float", "std::string", "std::vector<int>", "bool", "void*")),
                    self.ident()) for _ in range(r.randint(2, 6))]
        out = self.c_comment() + f"class {cls} {{\n public:\n  explicit {cls}(const Options& options);\n  ~{cls}();\n\n"
        for _ in range(r.randint(2, 6)):
            if r.random() < 0.5:
                out += self.c_comment("  ")
            out += f"  {r.choice(('void', 'int', 'bool', 'Status', 'size_t'))} {self.ident()}({r.choice(('', 'int64_t n', 'const Tensor& t', 'cudaStream_t stream', 'std::string_view name'))});\n"
        out += "\n private:\n" + "".join(f"  {t} m_{n};\n" for t, n in members) + "};\n\n"
        return out

    def cpp_function(self):
        r = self.r
        name = self.ident()
        v = self.ident()
        body = [f"  if ({v}.empty()) {{\n    throw std::invalid_argument(\"{name}: empty input\");\n  }}\n",
                f"  std::vector<int64_t> {r.choice(NOUNS)}s;\n  {r.choice(NOUNS)}s.reserve({v}.size());\n",
                f"  for (size_t i = 0; i < {v}.size(); ++i) {{\n    total += {v}[i] * {r.randint(1, 9)};\n  }}\n",
                f"  auto it = std::find_if({v}.begin(), {v}.end(), [&](int64_t x) {{ return x > {r.randint(1, 4096)}; }});\n",
                f"  CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream));\n",
                f"  CUDA_CHECK(cudaMallocAsync(&workspace, {r.randint(1, 256)} << 20, stream));\n",
                f"  std::lock_guard<std::mutex> lock(m_mutex);\n",
                f"  switch (kind) {{\n    case Kind::k{self.camel()}:\n      return {r.randint(0, 9)};\n    default:\n      break;\n  }}\n"]
        out = self.c_comment() + f"int64_t {name}(const std::vector<int64_t>& {v}, Kind kind) {{\n  int64_t total = 0;\n"
        for _ in range(r.randint(3, 7)):
            out += r.choice(body)
        return out + "  return total;\n}\n\n"

    def cpp_template(self):
        r = self.r
        name = self.camel()
        return (self.c_comment() +
                f"template <typename T, int N = {r.choice((1, 2, 4, 8, 16))}>\nstruct {name} {{\n"
                f"  static constexpr int kSize = N * sizeof(T);\n  T data[N];\n\n"
                f"  template <typename U>\n  {name}<U, N> cast() const {{\n    {name}<U, N> out{{}};\n"
                f"    for (int i = 0; i < N; ++i) out.data[i] = static_cast<U>(data[i]);\n    return out;\n  }}\n}};\n\n"
                f"using {name}F = {name}<float, {r.choice((2, 4, 8))}>;\n\n")

    def cpp_enum_table(self):
        r = self.r
        name = self.camel()
        vals = [self.camel() for _ in range(r.randint(3, 10))]
        out = f"enum class {name} {{\n" + "".join(f"  k{v},\n" for v in vals) + "};\n\n"
        out += f"inline const char* to_string({name} v) {{\n  switch (v) {{\n"
        out += "".join(f"    case {name}::k{v}:\n      return \"{v.lower()}\";\n" for v in vals)
        return out + "  }\n  return \"unknown\";\n}\n\n"

    def cpp_torch_binding(self):
        name = self.ident()
        return (f"TORCH_LIBRARY_FRAGMENT({self.r.choice(OPS)}_ops, m) {{\n"
                f"  m.def(\"{name}(Tensor x, float eps) -> Tensor\");\n}}\n\n"
                f"TORCH_LIBRARY_IMPL({self.r.choice(OPS)}_ops, CUDA, m) {{\n  m.impl(\"{name}\", &{name}_cuda);\n}}\n\n")

    def cpp_host_asm(self):
        # x86/ARM host assembly under an ISA guard: must not be mistaken for PTX.
        return (self.c_comment() +
                "#if defined(__x86_64__)\n"
                f"inline uint64_t {self.ident()}_rdtsc() {{\n  uint32_t lo, hi;\n"
                "  __asm__ __volatile__(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi));\n"
                "  return (static_cast<uint64_t>(hi) << 32) | lo;\n}\n"
                "#elif defined(__aarch64__)\n"
                f"inline uint64_t {self.ident()}_rdtsc() {{\n  uint64_t v;\n"
                "  asm volatile(\"mrs %0, cntvct_el0\" : \"=r\"(v));\n  return v;\n}\n#endif\n\n")

    # ---- Python ----------------------------------------------------------------------------------
    def py_header(self):
        r = self.r
        mods = ["import os", "import math", "import logging", "from dataclasses import dataclass, field",
                "from typing import Optional, Sequence", "import numpy as np", "import torch",
                "import torch.nn as nn", "import torch.nn.functional as F", "import triton",
                "import triton.language as tl", "import onnxruntime as ort", "from vllm import LLM, SamplingParams",
                "import time", "import json", "from pathlib import Path", "import pytest"]
        chosen = r.sample(mods, r.randint(3, 9))
        return f'"""{self.prose(1, 2)}"""\n' + "\n".join(chosen) + "\n\nlog = logging.getLogger(__name__)\n\n\n"

    def py_module(self):
        r = self.r
        cls = self.camel()
        dim = r.choice((64, 128, 256, 512, 768, 1024, 2048, 4096))
        return (f"class {cls}(nn.Module):\n    \"\"\"{self.prose(1, 2)}\"\"\"\n\n"
                f"    def __init__(self, dim: int = {dim}, heads: int = {r.choice((4, 8, 16, 32))}, dropout: float = {r.choice((0.0, 0.1))}):\n"
                f"        super().__init__()\n        self.heads = heads\n"
                f"        self.{self.ident()} = nn.Linear(dim, {r.choice((1, 3))} * dim, bias={r.choice(('True', 'False'))})\n"
                f"        self.norm = nn.LayerNorm(dim, eps={r.choice(('1e-5', '1e-6'))})\n"
                f"        self.dropout = nn.Dropout(dropout)\n\n"
                f"    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:\n"
                + self.py_comment("        ") +
                f"        h = self.norm(x)\n        b, t, d = h.shape\n"
                f"        h = h.view(b, t, self.heads, d // self.heads).transpose(1, 2)\n"
                f"        h = F.scaled_dot_product_attention(h, h, h, attn_mask=mask, is_causal=mask is None)\n"
                f"        return x + self.dropout(h.transpose(1, 2).reshape(b, t, d))\n\n\n")

    def py_function(self):
        r = self.r
        name = self.ident()
        lines = [f"    {self.ident()} = torch.empty(({r.randint(1, 64)}, n), device=device, dtype=torch.{r.choice(DTYPES)})\n",
                 "    if torch.cuda.is_available():\n        torch.cuda.synchronize()\n",
                 f"    for i in range({r.randint(2, 32)}):\n        total += math.log1p(i) * scale\n",
                 f"    x = x.to(device, non_blocking=True).contiguous()\n",
                 f"    log.debug(\"{name}: n=%d scale=%.3f\", n, scale)\n",
                 f"    out = torch.compile(fn, mode=\"{r.choice(('reduce-overhead', 'max-autotune', 'default'))}\")(x)\n",
                 f"    stats = {{\"mean\": float(x.mean()), \"max\": float(x.abs().max()), \"n\": n}}\n",
                 "    with torch.autocast(\"cuda\", dtype=torch.bfloat16):\n        y = fn(x)\n"]
        out = (f"def {name}(x: torch.Tensor, n: int = {r.randint(1, 4096)}, scale: float = {r.random():.4f}, device: str = \"cuda\"):\n"
               f"    \"\"\"{self.prose(1, 2)}\"\"\"\n    total = 0.0\n")
        for _ in range(r.randint(2, 6)):
            if r.random() < 0.2:
                out += self.py_comment("    ")
            out += r.choice(lines)
        return out + "    return total\n\n\n"

    def py_triton(self):
        r = self.r
        name = self.ident()
        return (f"@triton.jit\ndef {name}_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):\n"
                "    pid = tl.program_id(axis=0)\n    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
                "    mask = offsets < n_elements\n    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)\n"
                f"    y = {r.choice(('x * tl.sigmoid(x)', 'tl.maximum(x, 0.0)', 'x * x', 'tl.exp(x - tl.max(x, axis=0))'))}\n"
                "    tl.store(y_ptr + offsets, y, mask=mask)\n\n\n"
                f"def {name}(x: torch.Tensor) -> torch.Tensor:\n    y = torch.empty_like(x)\n"
                f"    grid = lambda meta: (triton.cdiv(x.numel(), meta[\"BLOCK_SIZE\"]),)\n"
                f"    {name}_kernel[grid](x, y, x.numel(), BLOCK_SIZE={r.choice((256, 512, 1024, 2048))})\n    return y\n\n\n")

    def py_onnx(self):
        name = self.ident()
        second = self.r.choice(('"TensorrtExecutionProvider",', '"CPUExecutionProvider",'))
        return (f"def load_{name}(path: str, device_id: int = 0) -> \"ort.InferenceSession\":\n"
                "    opts = ort.SessionOptions()\n    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL\n"
                "    providers = [\n        (\"CUDAExecutionProvider\", {\"device_id\": device_id}),\n"
                f"        {second}\n    ]\n"
                "    return ort.InferenceSession(path, sess_options=opts, providers=providers)\n\n\n")

    def py_dataclass(self):
        r = self.r
        out = f"@dataclass\nclass {self.camel()}Config:\n    \"\"\"{self.prose(1, 1)}\"\"\"\n\n"
        for _ in range(r.randint(3, 10)):
            k = r.random()
            if k < 0.3:
                out += f"    {self.ident()}: int = {r.randint(0, 65536)}\n"
            elif k < 0.6:
                out += f"    {self.ident()}: float = {r.random():.5f}\n"
            elif k < 0.8:
                out += f"    {self.ident()}: str = \"{r.choice(('cuda', 'cuda:0', 'auto', 'bf16', 'fp16', 'nccl'))}\"\n"
            else:
                out += f"    {self.ident()}: bool = {r.choice(('True', 'False'))}\n"
        return out + "\n\n"

    def py_test(self):
        r = self.r
        name = self.ident()
        return (f"@pytest.mark.parametrize(\"n\", [{', '.join(str(r.randint(1, 8192)) for _ in range(r.randint(2, 5)))}])\n"
                f"@pytest.mark.parametrize(\"dtype\", [torch.float16, torch.bfloat16])\n"
                f"def test_{name}(n, dtype):\n    torch.manual_seed({r.randint(0, 9999)})\n"
                f"    x = torch.randn(n, {r.choice((64, 128, 256))}, device=\"cuda\", dtype=dtype)\n"
                f"    ref = torch.nn.functional.{r.choice(('silu', 'gelu', 'relu', 'softmax'))}(x.float(){', dim=-1' if r.random() < 0.3 else ''})\n"
                f"    out = ops.{name}(x)\n"
                f"    torch.testing.assert_close(out.float(), ref, atol={r.choice(('1e-2', '2e-2', '5e-3'))}, rtol=1e-2)\n\n\n")

    # ---- files ---------------------------------------------------------------------------------------
    def fill(self, head, parts, weights, target, foot="", comment="// "):
        r = self.r
        chunks = [head]
        if self.unicode:
            chunks.append(f"{comment}{r.choice(UNICODE_COMMENTS)}\n")
        size = len(head) + len(foot)
        while size < target:
            c = r.choices(parts, weights)[0]()
            chunks.append(c)
            size += len(c)
        chunks.append(foot)
        return "".join(chunks)

    def cu_file(self, project, target, is_header):
        parts = (self.cu_elementwise, self.cu_warp_reduce, self.cu_block_reduce, self.cu_tiled, self.cu_ptx,
                 self.cu_ballot, self.cu_launcher, self.cu_cublas, self.cu_wmma, self.cu_atomic,
                 self.cu_instantiation, self.cu_device_helpers, self.cpp_template, self.c_comment)
        w = (14, 8, 6, 8, 2, 2, 10, 2, 0.5, 4, 2, 10, 6, 5)
        head = self.cu_header(project)
        if is_header:
            head = "#pragma once\n" + head
        return self.fill(head, parts, w, target, self.cu_footer(project))

    def cpp_file(self, project, target, is_header):
        parts = (self.cpp_class, self.cpp_function, self.cpp_template, self.cpp_enum_table, self.cpp_torch_binding,
                 self.cpp_host_asm, self.c_comment, self.cu_cublas)
        w = (12, 20, 8, 5, 2, 0.5, 3, 1)
        return self.fill(self.cpp_header(project, is_header), parts, w, target, f"}}  // namespace {project}\n")

    def py_file(self, target, test):
        if test:
            parts, w = (self.py_test, self.py_function, self.py_comment), (10, 3, 2)
        else:
            parts = (self.py_module, self.py_function, self.py_triton, self.py_onnx, self.py_dataclass, self.py_comment)
            w = (8, 14, 2, 1, 4, 3)
        return self.fill(self.py_header(), parts, w, target, comment="# ")

    def cmake_file(self, project, root):
        r = self.r
        out = ""
        if root:
            archs = " ".join(r.sample(["70", "75", "80", "86", "89", "90"], r.randint(2, 4)))
            out += (f"cmake_minimum_required(VERSION 3.{r.randint(18, 28)})\n"
                    f"project({project} LANGUAGES CXX CUDA)\n\n"
                    f"set(CMAKE_CXX_STANDARD 17)\nset(CMAKE_CUDA_STANDARD 17)\n"
                    f"set(CMAKE_CUDA_ARCHITECTURES {archs})\n"
                    f"option({project.upper()}_BUILD_TESTS \"Build the tests\" ON)\n\n"
                    "find_package(CUDAToolkit REQUIRED)\nfind_package(Torch REQUIRED)\n"
                    "find_package(Python3 COMPONENTS Interpreter Development REQUIRED)\n\n")
        for _ in range(r.randint(1, 4)):
            lib = self.ident()
            srcs = " ".join(f"{self.ident()}.{r.choice(('cu', 'cpp', 'cu'))}" for _ in range(r.randint(2, 8)))
            out += (f"add_library({lib} STATIC {srcs})\n"
                    f"target_include_directories({lib} PUBLIC ${{CMAKE_CURRENT_SOURCE_DIR}}/include)\n"
                    f"target_link_libraries({lib} PUBLIC CUDA::cudart {r.choice(('CUDA::cublas', 'CUDA::cublasLt', 'CUDA::curand', ''))} ${{TORCH_LIBRARIES}})\n"
                    f"target_compile_options({lib} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math -lineinfo --expt-relaxed-constexpr>)\n"
                    f"set_target_properties({lib} PROPERTIES CUDA_SEPARABLE_COMPILATION {r.choice(('ON', 'OFF'))})\n\n")
        if root:
            out += f"if({project.upper()}_BUILD_TESTS)\n  enable_testing()\n  add_subdirectory(tests)\nendif()\n"
        return out

    def requirements(self):
        r = self.r
        cu = r.choice(("cu118", "cu121", "cu124"))
        pins = [f"--extra-index-url https://download.pytorch.org/whl/{cu}", f"torch=={r.choice(('2.1.2', '2.2.2', '2.3.1', '2.4.0'))}+{cu}",
                f"triton=={r.choice(('2.1.0', '2.2.0', '2.3.1', '3.0.0'))}", "numpy>=1.24,<2", f"onnxruntime-gpu=={r.choice(('1.16.3', '1.17.1', '1.18.0'))}",
                f"nvidia-cublas-cu12==12.{r.randint(1, 4)}.{r.randint(1, 5)}.{r.randint(1, 9)}", "pynvml", f"transformers=={r.choice(('4.38.2', '4.40.1', '4.41.2'))}",
                "safetensors", "sentencepiece", "fastapi", "uvicorn[standard]", f"vllm=={r.choice(('0.4.2', '0.5.0', '0.5.3'))}", "pytest"]
        return "\n".join(["# " + self.prose(1, 1)] + r.sample(pins, r.randint(5, len(pins)))) + "\n"

    def dockerfile(self):
        r = self.r
        base = r.choice(("nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04", "nvcr.io/nvidia/pytorch:24.01-py3",
                         "nvidia/cuda:11.8.0-runtime-ubuntu22.04", "python:3.11-slim"))
        return (f"# {self.prose(1, 1)}\nFROM {base}\n\nENV DEBIAN_FRONTEND=noninteractive TORCH_CUDA_ARCH_LIST=\"8.0;8.6;9.0\"\n"
                "RUN apt-get update && apt-get install -y --no-install-recommends git build-essential ninja-build \\\n"
                "    && rm -rf /var/lib/apt/lists/*\nWORKDIR /workspace\nCOPY requirements.txt .\n"
                "RUN pip install --no-cache-dir -r requirements.txt\nCOPY . .\n"
                f"RUN pip install --no-build-isolation -e . && nvidia-smi || true\nEXPOSE {r.choice((8000, 8080, 9000))}\n"
                f"CMD [\"python\", \"-m\", \"{self.ident()}.server\"]\n")

    def yaml_file(self, kind):
        r = self.r
        if kind == "ci":
            return (f"# {self.prose(1, 1)}\nname: ci\non:\n  push:\n    branches: [main]\n  pull_request:\n"
                    "jobs:\n  test:\n    runs-on: [self-hosted, gpu]\n    container:\n      image: nvidia/cuda:12.1.1-devel-ubuntu22.04\n"
                    "      options: --gpus all\n    steps:\n      - uses: actions/checkout@v4\n"
                    "      - run: pip install -r requirements.txt\n      - run: nvidia-smi\n"
                    f"      - run: pytest -x tests/ -k \"not slow\" -n {r.randint(1, 8)}\n")
        return (f"# {self.prose(1, 1)}\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {self.ident().replace('_', '-')}\n"
                f"spec:\n  replicas: {r.randint(1, 8)}\n  template:\n    spec:\n      containers:\n        - name: server\n"
                f"          image: registry.example.com/{self.ident().replace('_', '-')}:{r.randint(0, 9)}.{r.randint(0, 30)}\n"
                "          env:\n            - name: CUDA_VISIBLE_DEVICES\n              value: \"0\"\n"
                f"          resources:\n            limits:\n              nvidia.com/gpu: {r.choice((1, 1, 2, 4, 8))}\n"
                f"              memory: {r.choice((16, 32, 64))}Gi\n")

    def cubin_array(self, target):
        r = self.r
        name = f"{self.ident()}_sm{r.choice((80, 86, 89, 90))}_cubin"
        out = [f"// Generated file: embedded device image, do not edit.\n#include <cstdint>\n\nalignas(16) const unsigned char {name}[] = {{\n"]
        size = len(out[0])
        rb = r.getrandbits
        while size < target:
            line = "  " + ", ".join(f"0x{rb(8):02x}" for _ in range(16)) + ",\n"
            out.append(line)
            size += len(line)
        out.append(f"}};\nconst unsigned int {name}_len = sizeof({name});\n")
        return "".join(out)


def file_size(r, lo=1024, hi=60 * 1024):
    """Log-normal sizes with a median near 10 KB, clipped to [lo, hi]; 1% of files are large."""
    if r.random() < 0.01:
        return r.randint(100 * 1024, 800 * 1024)
    return max(lo, min(hi, int(r.lognormvariate(9.2, 0.8))))


def plan_repo(g, project, budget, cubin_share):
    """Returns [(relative path, content thunk)] for one repository of roughly `budget` bytes."""
    r = g.r
    files = []
    mods = [g.ident() for _ in range(r.randint(3, 8))]
    pkg = project.replace("-", "_")
    files.append((".gitignore", lambda: "build/\ndist/\n*.egg-info/\n__pycache__/\n*.so\n*.o\n.venv/\n/out/\n"))
    files.append(("CMakeLists.txt", lambda: g.cmake_file(pkg, True)))
    files.append(("requirements.txt", g.requirements))
    files.append(("docker/Dockerfile", g.dockerfile))
    files.append((".github/workflows/ci.yml", lambda: g.yaml_file("ci")))
    files.append(("deploy/deployment.yaml", lambda: g.yaml_file("deploy")))
    files.append(("README.md", lambda: f"# {project}\n\n" + g.wrap(g.prose(4, 10), "") + "\n"))
    for m in mods:
        files.append((f"csrc/{m}/CMakeLists.txt", lambda: g.cmake_file(pkg, False)))
    spent = 0
    cubin_budget = int(budget * cubin_share)
    while cubin_budget > 64 * 1024:
        n = min(cubin_budget, r.randint(256 * 1024, 1024 * 1024))
        files.append((f"csrc/{r.choice(mods)}/generated/{g.ident()}_cubin.cpp", lambda n=n: g.cubin_array(n)))
        cubin_budget -= n
        spent += n
    kinds = (("cu", 30), ("cuh", 8), ("cpp", 17), ("h", 12), ("py", 22), ("pytest", 5), ("cmake", 1),
             ("yaml", 1), ("docker", 0.5), ("req", 0.5))
    names, weights = [k for k, _ in kinds], [w for _, w in kinds]
    seen = set(p for p, _ in files)
    while spent < budget:
        kind = r.choices(names, weights)[0]
        m = r.choice(mods)
        sub = r.choice(("", "", "kernels/", "detail/", "impl/", "kernels/sm80/", "kernels/sm90/"))
        if kind in ("cu", "cuh"):
            size = file_size(r)
            path = f"csrc/{m}/{sub}{g.ident()}.{kind}"
            thunk = lambda size=size, h=(kind == "cuh"): g.cu_file(pkg, size, h)
        elif kind in ("cpp", "h"):
            size = file_size(r)
            base = "include/" + pkg if kind == "h" else "src"
            path = f"{base}/{m}/{g.ident()}.{kind}"
            thunk = lambda size=size, h=(kind == "h"): g.cpp_file(pkg, size, h)
        elif kind == "py":
            size = file_size(r, 512, 40 * 1024)
            path = f"python/{pkg}/{m}/{g.ident()}.py"
            thunk = lambda size=size: g.py_file(size, False)
        elif kind == "pytest":
            size = file_size(r, 512, 30 * 1024)
            path = f"tests/{m}/test_{g.ident()}.py"
            thunk = lambda size=size: g.py_file(size, True)
        elif kind == "cmake":
            size, path, thunk = 1500, f"csrc/{m}/{sub}CMakeLists.txt", lambda: g.cmake_file(pkg, False)
        elif kind == "yaml":
            size, path = 600, f"deploy/{r.choice(('k8s', 'helm/templates', 'compose'))}/{g.ident()}.yaml"
            thunk = lambda: g.yaml_file("deploy")
        elif kind == "docker":
            size, path, thunk = 700, f"docker/{g.ident()}/Dockerfile", g.dockerfile
        else:
            size, path, thunk = 500, f"requirements/{g.ident()}.txt", g.requirements
        if path in seen:
            continue
        seen.add(path)
        files.append((path, thunk))
        spent += size
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus"),
                    help="output directory (default: bench/corpus next to this script)")
    ap.add_argument("--mb", type=float, default=220.0, help="approximate corpus size in MB (10^6 bytes; default 220)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1); same seed and size give the same bytes")
    ap.add_argument("--unicode-share", type=float, default=0.05, help="share of files with UTF-8 comments (default 0.05)")
    ap.add_argument("--cubin-share", type=float, default=0.005,
                    help="share of bytes in generated cubin byte-array sources (default 0.005)")
    ap.add_argument("--force", action="store_true", help="replace an existing corpus made by this script")
    args = ap.parse_args()

    out = os.path.abspath(args.out)
    if os.path.exists(out) and os.listdir(out):
        if not args.force:
            sys.exit(f"make_corpus: {out} exists and is not empty (use --force to regenerate)")
        if not os.path.isfile(os.path.join(out, MARKER)):
            sys.exit(f"make_corpus: refusing to delete {out}: it has no {MARKER}, so this script did not make it")
        shutil.rmtree(out)

    start = time.monotonic()
    g = Gen(args.seed)
    target = int(args.mb * 1e6)
    n_repos = max(2, min(24, int(args.mb // 16) + 1))
    projects = []
    while len(projects) < n_repos:
        p = f"{g.r.choice(OPS)}-{g.r.choice(('serve', 'kernels', 'infer', 'runtime', 'ops', 'engine', 'lib'))}"
        if p not in projects:
            projects.append(p)
    os.makedirs(out)
    total_bytes = total_files = unicode_files = 0
    for i, project in enumerate(projects):
        budget = (target - total_bytes) // (n_repos - i)
        written = 0
        for rel, thunk in plan_repo(g, project, budget, args.cubin_share):
            g.unicode = g.r.random() < args.unicode_share
            data = thunk().encode("utf-8")
            path = os.path.join(out, project, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
            written += len(data)
            total_files += 1
            unicode_files += g.unicode
        total_bytes += written
    with open(os.path.join(out, ".gitignore"), "w") as f:
        f.write("# Nothing in the generated corpus matches these; they keep ignore handling on the hot path.\n"
                "*.pyc\n/build/\nnode_modules/\n")
    with open(os.path.join(out, MARKER), "w") as f:
        f.write(f"Benchmark corpus generated by bench/make_corpus.py --mb {args.mb:g} --seed {args.seed}.\n")
    secs = time.monotonic() - start
    print(f"make_corpus: {total_files} files, {total_bytes / 1e6:.1f} MB in {len(projects)} repositories "
          f"({unicode_files} with UTF-8 comments) written to {out} in {secs:.1f} s "
          f"({total_bytes / 1e6 / max(secs, 1e-9):.1f} MB/s)")


if __name__ == "__main__":
    main()
