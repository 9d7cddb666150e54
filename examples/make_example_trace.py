#!/usr/bin/env python3
"""Writes examples/traces/serving-h100.json.gz: a synthetic PyTorch-profiler (Kineto) trace of
the bundled example server, for `gpuport audit` and `gpuport profile` to read.

No GPU is available where gpuport is built and tested, so this trace is generated, not recorded.
It follows the real Kineto Chrome-trace format of PyTorch 2.x on CUDA 12 (top-level keys,
deviceProperties of an H100, kernel / cuda_runtime / cuda_driver / gpu_memcpy events with their
args, ac2g flows joined by correlation id, ProfilerStep#N as user_annotation on the CPU and
gpu_user_annotation on the GPU) and models what examples/serving-repo runs: the decode loop of
server/app.py `generate()`, one ProfilerStep per generated token, through server/model.py with
the defaults of `Runner` (24 layers, 16 heads, 4 KV heads) in eager mode (the profiling run sets
TORCHDYNAMO_DISABLE=1, so kernels are launched one by one instead of replayed from a CUDA graph).

Per layer: the team's own kernels from csrc/ (rms_norm_kernel, dequant_int4_kernel, rotary_kernel,
masked_softmax_kernel; launched with cudaLaunchKernel), cuBLAS GEMMs for the int4 linears
(cublasGemmEx, launched with cudaLaunchKernelExC) and the attention einsums, ATen copies,
index and elementwise kernels, and the Triton SwiGLU kernel (cuLaunchKernel). Per step: the
embedding lookup, the causal mask, the LM-head GEMV, argmax, the token copy back to the host and
torch.cat. Durations come from a simple roofline of an H100 (bf16 GEMMs at a fraction of peak,
memory-bound kernels at a fraction of HBM bandwidth) plus seeded jitter, so the output is the
same on every run. Two requests are decoded (prompts of 240 and 900 tokens), so the slow steps
(p95) are the long-context ones, where the quadratic attention kernels weigh more.

Left out to keep the file small (gpuport does not read them): cpu_op and python_function events
and the process/thread metadata of the CPU side. Usage:

    python3 examples/make_example_trace.py [-o examples/traces/serving-h100.json.gz]
"""

import argparse
import gzip
import io
import json
import os
import random

LAYERS = 24
HIDDEN = 2048
HEADS = 16
KV_HEADS = 4
HEAD_DIM = HIDDEN // HEADS
FFN = 5632
VOCAB = 32000
REQUESTS = [(240, 7), (900, 5)]  # (prompt tokens, generated tokens) per request

GEMM_FLOP_PER_US = 3.2e8  # ~320 TFLOP/s sustained bf16 for the large GEMMs
BYTES_PER_US = 2.2e6  # ~2.2 TB/s for memory-bound kernels
BASE_NS = 1_760_000_000_000_000_000  # baseTimeNanoseconds
PID = 48213  # the server process
STREAM = 7

CBID = {
    "cudaLaunchKernel": 211,
    "cudaLaunchKernelExC": 430,
    "cuLaunchKernel": 307,
    "cudaMemcpyAsync": 41,
    "cudaStreamSynchronize": 131,
}

# Kernel names exactly as CUPTI reports them (demangled; templates carry their return type).
OWN_RMS_NORM = ("void serving::rms_norm_kernel<__nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16 const*, "
                "__nv_bfloat16 const*, int, float)")
OWN_DEQUANT = ("serving::dequant_int4_kernel(__nv_bfloat16*, unsigned int const*, "
               "__nv_bfloat16 const*, int, int, int)")
OWN_ROTARY = ("serving::rotary_kernel(__nv_bfloat16*, __nv_bfloat16*, long const*, "
              "__nv_bfloat16 const*, int, int, int)")
OWN_SOFTMAX = ("void serving::masked_softmax_kernel<__nv_bfloat16>(__nv_bfloat16*, "
               "__nv_bfloat16 const*, __nv_bfloat16 const*, int)")
TRITON_SWIGLU = "_swiglu_kernel"
GEMM_LARGE = ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
              "execute_segment_k_off_kernel__5x_cublas")
GEMM_SMALL = ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_"
              "execute_segment_k_off_kernel__5x_cublas")
BMM_SCORES = ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_warpgroupsize1x1x1_"
              "execute_segment_k_off_kernel__5x_cublas")
BMM_VALUES = ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize64x128x64_warpgroupsize1x1x1_"
              "execute_segment_k_off_kernel__5x_cublas")
GEMV_LM_HEAD = (
    "void gemv2T_kernel_val<int, int, __nv_bfloat16, __nv_bfloat16, float, 128, 16, 4, 4, false, "
    "false, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, "
    "cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<"
    "__nv_bfloat16>, float> >(cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<"
    "__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, "
    "cublasGemvTensorStridedBatched<__nv_bfloat16>, float>, float, float)")
_COPY_LAMBDA = ("at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::"
                "operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}")
ATEN_COPY = (
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<"
    f"{_COPY_LAMBDA}>(at::TensorIteratorBase&, {_COPY_LAMBDA} const&)::{{lambda(int)#1}}>(int, "
    f"at::native::gpu_kernel_impl_nocast<{_COPY_LAMBDA}>(at::TensorIteratorBase&, {_COPY_LAMBDA} "
    "const&)::{lambda(int)#1})")
ATEN_ADD = ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<"
            "c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<"
            "c10::BFloat16>, std::array<char*, 3ul>)")
ATEN_SCALE = (
    "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<c10::BFloat16, "
    "c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, "
    "std::array<char*, 2ul> >(int, at::native::AUnaryFunctor<c10::BFloat16, c10::BFloat16, "
    "c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul>)")
ATEN_INDEX_SELECT = (
    "void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned "
    "int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, "
    "at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::"
    "TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)")
ATEN_ARANGE = (
    "void (anonymous namespace)::elementwise_kernel_with_index<int, at::native::arange_cuda_out("
    "c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::"
    "operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(int, at::native::"
    "arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::"
    "{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, "
    "function_traits<at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, "
    "c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()"
    "() const::{lambda(long)#1}>::result_type*)")
ATEN_FILL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<"
             "c10::BFloat16>, std::array<char*, 1ul> >(int, at::native::FillFunctor<"
             "c10::BFloat16>, std::array<char*, 1ul>)")
ATEN_TRIU = ("void at::native::triu_tril_kernel<c10::BFloat16, int, true, 4, true>(at::cuda::"
             "detail::TensorInfo<c10::BFloat16, int>, at::cuda::detail::TensorInfo<c10::BFloat16 "
             "const, int>, long, long)")
ATEN_ARGMAX = ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::"
               "ArgMaxOps<float>, unsigned int, long, 4> >(at::native::ReduceOp<float, at::native::"
               "ArgMaxOps<float>, unsigned int, long, 4>)")
ATEN_CAT = (
    "void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous "
    "namespace)::OpaqueType<8u>, unsigned int, 1, 64, 64>(at::native::(anonymous namespace)::"
    "OpaqueType<8u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::"
    "(anonymous namespace)::OpaqueType<8u>, unsigned int, 64, 64>, at::native::(anonymous "
    "namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)")

# Launch shape per kernel: (launch API, registers, static shared memory, block threads).
LAUNCH = {
    OWN_RMS_NORM: ("cudaLaunchKernel", 30, 132, 256),
    OWN_DEQUANT: ("cudaLaunchKernel", 40, 0, 256),
    OWN_ROTARY: ("cudaLaunchKernel", 28, 0, 256),
    OWN_SOFTMAX: ("cudaLaunchKernel", 32, 140, 256),
    TRITON_SWIGLU: ("cuLaunchKernel", 26, 0, 128),
    GEMM_LARGE: ("cudaLaunchKernelExC", 168, 231424, 384),
    GEMM_SMALL: ("cudaLaunchKernelExC", 168, 213120, 384),
    BMM_SCORES: ("cudaLaunchKernelExC", 154, 147456, 384),
    BMM_VALUES: ("cudaLaunchKernelExC", 168, 213120, 384),
    GEMV_LM_HEAD: ("cudaLaunchKernel", 64, 0, 128),
    ATEN_COPY: ("cudaLaunchKernel", 18, 0, 128),
    ATEN_ADD: ("cudaLaunchKernel", 24, 0, 128),
    ATEN_SCALE: ("cudaLaunchKernel", 22, 0, 128),
    ATEN_INDEX_SELECT: ("cudaLaunchKernel", 32, 0, 128),
    ATEN_ARANGE: ("cudaLaunchKernel", 16, 0, 64),
    ATEN_FILL: ("cudaLaunchKernel", 16, 0, 128),
    ATEN_TRIU: ("cudaLaunchKernel", 20, 0, 128),
    ATEN_ARGMAX: ("cudaLaunchKernel", 32, 16, 512),
    ATEN_CAT: ("cudaLaunchKernel", 25, 0, 512),
}

SMS = 132


def gemm_us(m, n, k, tokens_scale=1.0):
    """A bf16 GEMM: less efficient when M (tokens) is small."""
    efficiency = min(1.0, 0.35 + m / 1024)
    return 4.0 + 2.0 * m * n * k / (GEMM_FLOP_PER_US * efficiency) * tokens_scale


def memory_us(bytes_moved, floor=2.5, slowdown=1.0):
    return floor + bytes_moved / BYTES_PER_US * slowdown


def layer_kernels(t):
    """(name, microseconds, grid blocks) for one decoder layer over t tokens."""
    qkv_n = HIDDEN + 2 * KV_HEADS * HEAD_DIM
    ops = []

    def linear(k, n):
        # dequant_int4_kernel expands the packed weight to bf16 (n * k * 2 bytes written,
        # n * k / 2 read), then cublasGemmEx multiplies.
        ops.append((OWN_DEQUANT, memory_us(n * k * 2.5, slowdown=1.35), n * k // 8 // 256))
        ops.append((GEMM_LARGE if n >= 4096 else GEMM_SMALL, gemm_us(t, n, k), SMS))

    ops.append((OWN_RMS_NORM, memory_us(t * HIDDEN * 6), t))
    linear(HIDDEN, qkv_n)
    ops.append((ATEN_COPY, memory_us(t * HIDDEN * 4), t * HIDDEN // 512))  # q.contiguous()
    ops.append((ATEN_COPY, memory_us(t * KV_HEADS * HEAD_DIM * 4), t * 4))  # k.contiguous()
    ops.append((OWN_ROTARY, memory_us(t * (HEADS + KV_HEADS) * HEAD_DIM * 4), t))
    for _ in range(2):  # repeat_interleave of k and v
        ops.append((ATEN_INDEX_SELECT, memory_us(t * HIDDEN * 4), t * 8))
    scores = HEADS * t * t
    ops.append((BMM_SCORES, gemm_us(t, t, HEAD_DIM, tokens_scale=HEADS / 4), SMS))
    ops.append((ATEN_SCALE, memory_us(scores * 4), scores // 512))
    ops.append((ATEN_COPY, memory_us(scores * 4), scores // 512))  # mask.expand_as().contiguous()
    # The block-per-row softmax with 32-lane reductions runs well below bandwidth.
    ops.append((OWN_SOFTMAX, memory_us(scores * 6, slowdown=1.9), HEADS * t))
    ops.append((BMM_VALUES, gemm_us(t, HEAD_DIM, t, tokens_scale=HEADS / 4), SMS))
    ops.append((ATEN_COPY, memory_us(t * HIDDEN * 4), t * HIDDEN // 512))  # reshape
    linear(HIDDEN, HIDDEN)
    ops.append((ATEN_ADD, memory_us(t * HIDDEN * 6), t * HIDDEN // 512))
    ops.append((OWN_RMS_NORM, memory_us(t * HIDDEN * 6), t))
    linear(HIDDEN, 2 * FFN)
    ops.append((ATEN_COPY, memory_us(t * FFN * 4), t * FFN // 512))  # gate.contiguous()
    ops.append((ATEN_COPY, memory_us(t * FFN * 4), t * FFN // 512))  # up.contiguous()
    ops.append((TRITON_SWIGLU, memory_us(t * FFN * 6), t * FFN // 1024))
    linear(FFN, HIDDEN)
    ops.append((ATEN_ADD, memory_us(t * HIDDEN * 6), t * HIDDEN // 512))
    return ops


class Trace:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.cpu_ns = 2_000_000_000  # relative to BASE_NS, as Kineto writes it
        self.gpu_free_ns = self.cpu_ns
        self.correlation = 1_204_000
        self.external = 52_000
        self.lines = []

    @staticmethod
    def us(ns):
        return f"{ns // 1000}.{ns % 1000:03d}"

    def jitter(self, value, spread=0.06):
        return value * (1.0 + self.rng.uniform(-spread, spread))

    def emit(self, text):
        self.lines.append(text)

    def runtime(self, api, duration_ns, category="cuda_runtime"):
        self.correlation += 1
        self.external += 1
        start = self.cpu_ns
        self.emit(
            f'{{"ph": "X", "cat": "{category}", "name": "{api}", "pid": {PID}, "tid": {PID}, '
            f'"ts": {self.us(start)}, "dur": {self.us(duration_ns)}, "args": {{"External id": '
            f'{self.external}, "cbid": {CBID[api]}, "correlation": {self.correlation}}}}}')
        self.emit(f'{{"ph": "s", "id": {self.correlation}, "pid": {PID}, "tid": {PID}, '
                  f'"ts": {self.us(start)}, "cat": "ac2g", "name": "ac2g"}}')
        self.cpu_ns += duration_ns
        return start

    def kernel(self, name, microseconds, blocks):
        api, registers, shared, threads = LAUNCH[name]
        category = "cuda_driver" if api.startswith("cu") and not api.startswith("cuda") else \
            "cuda_runtime"
        self.cpu_ns += int(self.jitter(9_000, 0.3))  # Python and dispatcher time between ops
        launch_ns = int(self.jitter(4_600 if api == "cudaLaunchKernel" else 6_200, 0.15))
        issued = self.runtime(api, launch_ns, category)
        start = max(self.gpu_free_ns + int(self.jitter(1_400, 0.3)), issued + 3_000)
        duration = int(self.jitter(microseconds * 1000))
        blocks = max(1, int(blocks))
        warps = threads // 32
        self.emit(
            f'{{"ph": "X", "cat": "kernel", "name": {json.dumps(name)}, "pid": 0, "tid": {STREAM}, '
            f'"ts": {self.us(start)}, "dur": {self.us(duration)}, "args": {{"External id": '
            f'{self.external}, "queued": 0, "device": 0, "context": 1, "stream": {STREAM}, '
            f'"correlation": {self.correlation}, "registers per thread": {registers}, '
            f'"shared memory": {shared}, "blocks per SM": {blocks / SMS:.6f}, "warps per SM": '
            f'{blocks * warps / SMS:.6f}, "grid": [{blocks}, 1, 1], "block": [{threads}, 1, 1], '
            f'"est. achieved occupancy %": {min(100, int(blocks * warps / SMS / 64 * 100))}}}}}')
        self.emit(f'{{"ph": "f", "id": {self.correlation}, "pid": 0, "tid": {STREAM}, '
                  f'"ts": {self.us(start)}, "cat": "ac2g", "name": "ac2g", "bp": "e"}}')
        self.gpu_free_ns = start + duration
        return start

    def memcpy(self, kind, label, byte_count):
        self.cpu_ns += int(self.jitter(6_000, 0.3))
        issued = self.runtime("cudaMemcpyAsync", int(self.jitter(5_200, 0.15)))
        start = max(self.gpu_free_ns + 1_200, issued + 2_500)
        duration = int(self.jitter(2_300, 0.1))
        bandwidth = byte_count / duration  # bytes per ns = GB/s
        self.emit(
            f'{{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy {kind} ({label})", "pid": 0, '
            f'"tid": {STREAM}, "ts": {self.us(start)}, "dur": {self.us(duration)}, "args": '
            f'{{"External id": {self.external}, "device": 0, "context": 1, "stream": {STREAM}, '
            f'"correlation": {self.correlation}, "bytes": {byte_count}, "memory bandwidth '
            f'(GB/s)": {bandwidth:.6f}}}}}')
        self.emit(f'{{"ph": "f", "id": {self.correlation}, "pid": 0, "tid": {STREAM}, '
                  f'"ts": {self.us(start)}, "cat": "ac2g", "name": "ac2g", "bp": "e"}}')
        self.gpu_free_ns = start + duration
        return start + duration

    def synchronize(self, until_ns):
        start = self.cpu_ns
        duration = max(until_ns - start, 0) + int(self.jitter(3_000, 0.2))
        self.runtime("cudaStreamSynchronize", duration)
        return start

    def step(self, number, tokens):
        cpu_start = self.cpu_ns
        self.external += 1
        step_external = self.external
        gpu_first = None

        def track(start):
            nonlocal gpu_first
            if gpu_first is None:
                gpu_first = start
        track(self.kernel(ATEN_ARANGE, 2.2, 1))
        self.kernel(ATEN_FILL, memory_us(tokens * tokens * 2), tokens * tokens // 512)
        self.kernel(ATEN_TRIU, memory_us(tokens * tokens * 4), tokens * tokens // 512)
        self.kernel(ATEN_INDEX_SELECT, memory_us(tokens * HIDDEN * 4), tokens * 8)
        for _ in range(LAYERS):
            for name, microseconds, blocks in layer_kernels(tokens):
                self.kernel(name, microseconds, blocks)
        self.kernel(GEMV_LM_HEAD, memory_us(VOCAB * HIDDEN * 2, slowdown=1.2), VOCAB // 16)
        self.kernel(ATEN_ARGMAX, memory_us(VOCAB * 4, floor=4.0), 1)
        copied = self.memcpy("DtoH", "Device -> Pageable", 8)
        self.synchronize(copied)
        self.memcpy("HtoD", "Pageable -> Device", 8)
        gpu_end = self.gpu_free_ns
        self.kernel(ATEN_CAT, 2.6, 1)
        gpu_end = self.gpu_free_ns
        self.cpu_ns += int(self.jitter(40_000, 0.2))
        self.emit(
            f'{{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#{number}", "pid": {PID}, '
            f'"tid": {PID}, "ts": {self.us(cpu_start)}, "dur": {self.us(self.cpu_ns - cpu_start)}, '
            f'"args": {{"External id": {step_external}, "Record function id": 0}}}}')
        self.emit(
            f'{{"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#{number}", "pid": 0, '
            f'"tid": {STREAM}, "ts": {self.us(gpu_first)}, "dur": {self.us(gpu_end - gpu_first)}, '
            f'"args": {{"External id": {step_external}}}}}')


def metadata_events(start_ns):
    ts = Trace.us(start_ns)
    events = [
        {"name": "process_name", "ph": "M", "ts": ts, "pid": PID, "tid": 0,
         "args": {"name": "python3"}},
        {"name": "process_labels", "ph": "M", "ts": ts, "pid": PID, "tid": 0,
         "args": {"labels": "CPU"}},
        {"name": "process_name", "ph": "M", "ts": ts, "pid": 0, "tid": 0,
         "args": {"name": "python3"}},
        {"name": "process_labels", "ph": "M", "ts": ts, "pid": 0, "tid": 0,
         "args": {"labels": "GPU 0"}},
        {"name": "process_sort_index", "ph": "M", "ts": ts, "pid": 0, "tid": 0,
         "args": {"sort_index": 5000000}},
        {"name": "thread_name", "ph": "M", "ts": ts, "pid": 0, "tid": STREAM,
         "args": {"name": f"stream {STREAM} "}},
        {"name": "thread_name", "ph": "M", "ts": ts, "pid": PID, "tid": PID,
         "args": {"name": "thread 48213 (python3)"}},
    ]
    lines = []
    for event in events:
        text = json.dumps(event)
        lines.append(text.replace(f'"ts": "{ts}"', f'"ts": {ts}'))
    return lines


def render():
    trace = Trace(seed=5)
    start = trace.cpu_ns
    number = 2  # schedule(wait=1, warmup=1, active=12): the first recorded step is #2
    for prompt, generated in REQUESTS:
        for i in range(generated):
            trace.step(number, prompt + i)
            number += 1
    header = {
        "schemaVersion": 1,
        "deviceProperties": [{
            "id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85018279936,
            "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024,
            "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32,
            "sharedMemPerBlock": 49152, "numSms": SMS, "regsPerMultiprocessor": 65536,
            "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472}],
        "cupti_version": 22, "cuda_runtime_version": 12010, "cuda_driver_version": 12040,
        "record_shapes": 0, "with_stack": 0, "with_flops": 0, "with_modules": 0,
        "profile_memory": 0, "trace_id": "5E7A2D0C41B84F0A9C3E6B1D2F4A8C90",
        "displayTimeUnit": "ms", "baseTimeNanoseconds": BASE_NS,
        # Not a PyTorch key: says the file was generated, so gpuport flags its times as
        # assumed rather than measured.
        "gpuport_synthetic": "examples/make_example_trace.py",
    }
    out = io.StringIO()
    out.write("{\n")
    for key, value in header.items():
        out.write(f"  {json.dumps(key)}: {json.dumps(value)},\n")
    out.write('  "traceEvents": [\n')
    events = metadata_events(start) + trace.lines
    out.write(",\n".join("  " + line for line in events))
    out.write('\n  ],\n  "traceName": "/tmp/serving-profile/serving-h100.pt.trace.json"\n}\n')
    return out.getvalue()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output",
                        default=os.path.join(here, "traces", "serving-h100.json.gz"))
    args = parser.parse_args()
    text = render()
    json.loads(text)  # the output must be valid JSON
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    # mtime=0 and no file name in the gzip header: the same bytes on every run.
    with open(args.output, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            gz.write(text.encode())
    print(f"{args.output}: {len(text):,} bytes of JSON, {os.path.getsize(args.output):,} gzipped")


if __name__ == "__main__":
    main()
