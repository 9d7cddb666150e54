#!/usr/bin/env python3
"""Writes a deterministic, realistic Kineto (PyTorch profiler) trace of a given size.

The event mix follows a PyTorch inference trace recorded with with_stack and record_shapes:
python_function stacks, cpu_op events with shapes, cudaLaunchKernel / cuLaunchKernelEx calls
with correlation ids, kernels with CUPTI args and long templated names, memcpy/memset, ac2g flow
events, and ProfilerStep#N annotations on the CPU and the GPU. Times are microseconds with three
decimals, as Kineto writes them. The same --seed and --mb always give the same bytes.

Besides FILE it writes FILE.expected.json with the exact kernel count and total (nanoseconds),
computed while generating, so a reader can be checked on the benchmark input too.

Usage: make_kineto_trace.py FILE [--mb 500] [--seed 1]
"""
import argparse
import json
import random

DTYPES = ["c10::BFloat16", "c10::Half", "float"]
SHORT_TYPES = {"c10::BFloat16": "bf16", "c10::Half": "f16", "float": "f32"}


def kernel_names(rng):
    """About forty kernel names shaped like those of cuBLAS, ATen, FlashAttention and Triton."""
    names = []
    for tile in ["128x128x64", "256x128x64", "64x256x32", "128x256x64"]:
        for variant in ["tn_n", "nn_n"]:
            names.append(
                "sm90_xmma_gemm_bf16bf16_bf16f32_f32_%s_tilesize%s_warpgroupsize1x1x1_"
                "execute_segment_k_off_kernel__5x_cublas" % (variant, tile))
    for dtype in DTYPES:
        for functor in ["MulFunctor<float>", "AddFunctor<float>", "DivFunctor<float>"]:
            names.append(
                "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<"
                "{t}, {t}, {t}, at::native::binary_internal::{f}>, std::array<char*, 3ul> >"
                "(int, at::native::BinaryFunctor<{t}, {t}, {t}, at::native::binary_internal::{f}>,"
                " std::array<char*, 3ul>)".format(t=dtype, f=functor))
        names.append(
            "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<"
            "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::"
            "operator()() const::{lambda()#7}::operator()() const::{lambda(%s)#1}>"
            "(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)"
            "::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(%s)#1}"
            " const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::"
            "direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::"
            "{lambda()#7}::operator()() const::{lambda(%s)#1}>(at::TensorIteratorBase&, "
            "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::"
            "operator()() const::{lambda()#7}::operator()() const::{lambda(%s)#1} const&)::"
            "{lambda(int)#1})" % ((dtype,) * 4))
        names.append(
            "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<%s, at::native::MeanOps<"
            "float, float, float, float>, unsigned int, %s, 4> >(at::native::ReduceOp<%s, "
            "at::native::MeanOps<float, float, float, float>, unsigned int, %s, 4>)"
            % ((dtype,) * 4))
        names.append(
            "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, %s, float, %s, "
            "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(%s*, %s const*, int)"
            % ((dtype,) * 4))
    for head in [64, 128]:
        names.append(
            "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<%d, 128, "
            "64, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<%d, 128, "
            "64, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>"
            "(pytorch_flash::Flash_fwd_params)" % (head, head))
    for i in range(8):
        names.append("triton_poi_fused_add_mul_rsqrt_%d" % rng.randrange(1000))
        names.append("triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_%d" % rng.randrange(1000))
    names.append("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)")
    names.append(
        "std::enable_if<(((8)>(0)))&&vllm::_typeConvert<c10::BFloat16>::exists, void>::type "
        "vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, "
        "c10::BFloat16 const*, float, int, int)")
    return names


PY_FRAMES = [
    "torch/nn/modules/module.py(1747): _call_impl",
    "torch/nn/modules/module.py(1736): _wrapped_call_impl",
    "vllm/model_executor/layers/linear.py(382): forward",
    "vllm/model_executor/models/qwen2.py(241): forward",
    "vllm/model_executor/layers/layernorm.py(131): forward_cuda",
    "vllm/attention/layer.py(287): forward",
    "torch/_ops.py(1123): __call__",
    "<built-in method linear of PyCapsule object at 0x7f3a1c2b9e40>",
    "torch/utils/_contextlib.py(116): decorate_context",
]
CPU_OPS = [("aten::linear", "aten::addmm"), ("aten::mul", None), ("aten::add", None),
           ("aten::_to_copy", "aten::copy_"), ("aten::mean", None),
           ("aten::_scaled_dot_product_flash_attention", "aten::_flash_attention_forward"),
           ("aten::softmax", "aten::_softmax")]


def us(ns):
    """Nanoseconds as Kineto's microseconds with three decimals."""
    return "%d.%03d" % divmod(ns, 1000)


class Writer:
    def __init__(self, out, rng):
        self.out = out
        self.rng = rng
        self.parts = []
        self.size = 0
        self.first = True
        self.external_id = 1
        self.correlation = 1
        self.flow_id = 1
        self.kernels = 0
        self.kernel_ns = 0

    def event(self, text):
        if not self.first:
            text = ",\n" + text
        self.first = False
        self.parts.append(text)
        self.size += len(text)
        if len(self.parts) >= 4096:
            self.flush()

    def flush(self):
        self.out.write("".join(self.parts))
        self.parts = []

    def x(self, cat, name, pid, tid, ts, dur, args):
        self.event('  {\n    "ph": "X", "cat": "%s", "name": %s, "pid": %s, "tid": %s,\n'
                   '    "ts": %s, "dur": %s,\n    "args": {\n      %s\n    }\n  }'
                   % (cat, json.dumps(name), pid, tid, us(ts), us(dur), args))

    def flow(self, phase, ts, pid, tid, ident):
        extra = ', "bp": "e"' if phase == "f" else ""
        self.event('  {\n    "ph": "%s", "id": %d, "pid": %s, "tid": %s, "ts": %s,\n'
                   '    "cat": "ac2g", "name": "ac2g"%s\n  }' % (phase, ident, pid, tid, us(ts),
                                                                   extra))


def write_step(w, step, names, clock, gpu_clock, layers):
    rng = w.rng
    cpu_pid, cpu_tid = 2147, 2147
    gpu_start = gpu_clock
    step_ns = layers * len(CPU_OPS) * 10000  # each op below advances the CPU clock by 10 us
    w.x("user_annotation", "ProfilerStep#%d" % step, cpu_pid, cpu_tid, clock, step_ns,
        '"External id": %d' % w.external_id)
    w.external_id += 1
    for layer in range(layers):
        for op, inner in CPU_OPS:
            depth = rng.randrange(2, 5)
            for d in range(depth):
                w.x("python_function", PY_FRAMES[rng.randrange(len(PY_FRAMES))], cpu_pid, cpu_tid,
                    clock + d * 200, 9000 - d * 300,
                    '"Python parent id": %d, "Python id": %d, "Python module id": %d'
                    % (w.external_id, w.external_id + 1, rng.randrange(300)))
            dtype = DTYPES[rng.randrange(3)]
            ext = w.external_id
            w.external_id += 1
            dims = "[[%d, %d], [%d, %d]]" % (rng.randrange(1, 64), 896, 896, 896 * rng.randrange(1, 5))
            w.x("cpu_op", op, cpu_pid, cpu_tid, clock + 1000, 6500,
                '"External id": %d, "Record function id": 0, "Ev Idx": %d,\n      "Input Dims": %s,'
                ' "Input type": ["%s", "%s"], "Input Strides": [[896, 1], [1, 896]],'
                ' "Concrete Inputs": ["", ""]' % (ext, ext, dims, dtype, dtype))
            if inner:
                w.x("cpu_op", inner, cpu_pid, cpu_tid, clock + 1500, 5000,
                    '"External id": %d, "Record function id": 0, "Ev Idx": %d' % (ext, ext + 1))
            launches = 1 if rng.random() < 0.8 else 2
            for _ in range(launches):
                corr = w.correlation
                w.correlation += 1
                launch_ts = clock + 2500
                if rng.random() < 0.03:
                    bytes_ = 4 * rng.randrange(1, 1 << 20)
                    w.x("cuda_runtime", "cudaMemcpyAsync", cpu_pid, cpu_tid, launch_ts, 3100,
                        '"External id": %d, "cbid": 41, "correlation": %d' % (ext, corr))
                    dur = 500 + bytes_ // 20
                    w.x("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 0, 7, gpu_clock, dur,
                        '"device": 0, "context": 1, "stream": 7, "correlation": %d, "bytes": %d,'
                        ' "memory bandwidth (GB/s)": %.6f' % (corr, bytes_, bytes_ / dur))
                    gpu_clock += dur + 800
                    continue
                driver = rng.random() < 0.15
                api = "cuLaunchKernelEx" if driver else "cudaLaunchKernel"
                w.x("cuda_driver" if driver else "cuda_runtime", api, cpu_pid, cpu_tid, launch_ts,
                    4200 + rng.randrange(3000),
                    '"External id": %d, "cbid": %d, "correlation": %d' % (ext, 652 if driver else
                                                                         211, corr))
                w.flow("s", launch_ts, cpu_pid, cpu_tid, corr)
                name = names[rng.randrange(len(names))]
                dur = 1000 + int(rng.expovariate(1 / 15000.0))
                gpu_clock = max(gpu_clock, launch_ts + 5000)
                grid = rng.randrange(1, 20000)
                w.x("kernel", name, 0, 7, gpu_clock, dur,
                    '"External id": %d, "queued": 0, "device": 0, "context": 1, "stream": 7,'
                    ' "correlation": %d,\n      "registers per thread": %d, "shared memory": %d,'
                    ' "blocks per SM": %.6f, "warps per SM": %.6f,\n      "grid": [%d, 1, 1],'
                    ' "block": [128, 1, 1], "est. achieved occupancy %%": %d'
                    % (ext, corr, rng.randrange(16, 255), 1024 * rng.randrange(0, 64),
                       grid / 132.0, grid * 4 / 132.0, grid, rng.randrange(10, 101)))
                w.flow("f", gpu_clock, 0, 7, corr)
                w.kernels += 1
                w.kernel_ns += dur
                gpu_clock += dur + rng.randrange(500, 3000)
            clock += 10000
    w.x("gpu_user_annotation", "ProfilerStep#%d" % step, 0, 7, gpu_start, gpu_clock - gpu_start,
        '"External id": %d' % w.external_id)
    return clock, gpu_clock


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file")
    parser.add_argument("--mb", type=float, default=500.0, help="size in 10^6 bytes (default 500)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    target = int(args.mb * 1_000_000)
    rng = random.Random(args.seed)
    names = kernel_names(rng)
    with open(args.file, "w", encoding="utf-8") as out:
        header = {
            "schemaVersion": 1,
            "deviceProperties": [{
                "id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85045870592,
                "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024,
                "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32,
                "sharedMemPerBlock": 49152, "numSms": 132, "regsPerMultiprocessor": 65536,
                "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472}],
            "cupti_version": 22, "cuda_runtime_version": 12040, "cuda_driver_version": 12040,
            "gpuport_synthetic": "bench/make_kineto_trace.py",
            "record_shapes": 1, "with_stack": 1, "displayTimeUnit": "ms",
            "baseTimeNanoseconds": 1751410836000000000,
        }
        text = json.dumps(header, indent=2)[:-2] + ',\n  "traceEvents": [\n'
        out.write(text)
        w = Writer(out, rng)
        clock = 1428625731622250
        gpu_clock = clock + 40000
        step = 0
        while len(text) + w.size < target:
            clock, gpu_clock = write_step(w, step, names, clock, gpu_clock, layers=24)
            clock = max(clock, gpu_clock) + 20000
            step += 1
        w.flush()
        out.write('\n  ],\n  "traceName": "generated_kineto_trace.json"\n}\n')
    with open(args.file + ".expected.json", "w", encoding="utf-8") as out:
        json.dump({"n_kernels": w.kernels, "kernel_total_ns": w.kernel_ns, "steps": step,
                   "seed": args.seed, "mb": args.mb}, out)
        out.write("\n")


if __name__ == "__main__":
    main()
