# Model runner: loads the int4 decoder checkpoint, wires the fused CUDA ops, compiles the forward.
import logging
import os

import torch
import torch.nn as nn
from safetensors.torch import load_file

from server.triton_ops import swiglu

log = logging.getLogger(__name__)

try:
    import serving_ext  # built by setup.py from csrc/

    HAVE_EXT = True
except ImportError:
    HAVE_EXT = False
    log.warning("serving_ext not built; using eager PyTorch ops")


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    if HAVE_EXT and x.is_cuda:
        return serving_ext.rms_norm(x, weight, eps)
    var = x.float().pow(2).mean(-1, keepdim=True)
    return (x.float() * torch.rsqrt(var + eps)).to(x.dtype) * weight


class Int4Linear(nn.Module):
    """Linear layer with int4 weights, dequantized on the fly into a bf16 cuBLAS GEMM."""

    def __init__(self, packed: torch.Tensor, scales: torch.Tensor, group: int = 128):
        super().__init__()
        self.register_buffer("packed", packed)
        self.register_buffer("scales", scales)
        self.group = group

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        w = serving_ext.dequant_int4(self.packed, self.scales, self.group)
        return serving_ext.linear_bf16(x, w)


class DecoderLayer(nn.Module):
    def __init__(self, weights: dict, prefix: str, heads: int, kv_heads: int, eps: float):
        super().__init__()
        self.heads, self.kv_heads, self.eps = heads, kv_heads, eps
        self.norm1 = nn.Parameter(weights[f"{prefix}.input_norm"], requires_grad=False)
        self.norm2 = nn.Parameter(weights[f"{prefix}.post_norm"], requires_grad=False)
        self.qkv = Int4Linear(weights[f"{prefix}.qkv.packed"], weights[f"{prefix}.qkv.scales"])
        self.proj = Int4Linear(weights[f"{prefix}.o.packed"], weights[f"{prefix}.o.scales"])
        self.gate_up = Int4Linear(weights[f"{prefix}.gate_up.packed"], weights[f"{prefix}.gate_up.scales"])
        self.down = Int4Linear(weights[f"{prefix}.down.packed"], weights[f"{prefix}.down.scales"])

    def forward(self, x, positions, cos_sin, mask):
        h = rms_norm(x, self.norm1, self.eps)
        q, k, v = self.qkv(h).split_with_sizes(self._qkv_sizes(x.shape[-1]), dim=-1)
        t = x.shape[0]
        q = q.reshape(t, self.heads, -1).contiguous()
        k = k.reshape(t, self.kv_heads, -1).contiguous()
        serving_ext.rotary_embedding(q, k, positions, cos_sin)
        k = k.repeat_interleave(self.heads // self.kv_heads, dim=1)
        v = v.reshape(t, self.kv_heads, -1).repeat_interleave(self.heads // self.kv_heads, dim=1)
        scores = torch.einsum("qhd,khd->hqk", q, k) * q.shape[-1] ** -0.5
        probs = serving_ext.masked_softmax(scores.contiguous(), mask.expand_as(scores).contiguous())
        attn = torch.einsum("hqk,khd->qhd", probs, v).reshape(t, -1)
        x = x + self.proj(attn)
        return x + self.down(swiglu(self.gate_up(rms_norm(x, self.norm2, self.eps))))

    def _qkv_sizes(self, hidden):
        head_dim = hidden // self.heads
        return [hidden, self.kv_heads * head_dim, self.kv_heads * head_dim]


class Runner:
    def __init__(self, checkpoint: str, layers: int = 24, heads: int = 16, kv_heads: int = 4):
        if not torch.cuda.is_available():
            raise RuntimeError("the serving runner needs a CUDA GPU")
        self.device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0")))
        torch.cuda.set_device(self.device)
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.benchmark = True
        weights = {k: v.to(self.device) for k, v in load_file(checkpoint).items()}
        self.embed = weights["embed"]
        self.cos_sin = weights["rope.cos_sin_cache"]
        self.layers = nn.ModuleList(
            DecoderLayer(weights, f"layers.{i}", heads, kv_heads, 1e-6) for i in range(layers)
        ).eval()
        self.forward = torch.compile(self._forward, mode="reduce-overhead", dynamic=False)
        log.info("loaded %s on %s (%s)", checkpoint, self.device, torch.cuda.get_device_name(self.device))

    @torch.inference_mode()
    def _forward(self, tokens: torch.Tensor) -> torch.Tensor:
        t = tokens.shape[0]
        positions = torch.arange(t, device=self.device)
        mask = torch.full((t, t), float("-inf"), device=self.device, dtype=torch.bfloat16).triu(1)
        x = self.embed[tokens]
        for layer in self.layers:
            x = layer(x, positions, self.cos_sin, mask)
        return x[-1] @ self.embed.t()

    def memory_stats(self) -> dict:
        free, total = torch.cuda.mem_get_info(self.device)
        return {"free_bytes": free, "total_bytes": total, "reserved": torch.cuda.memory_reserved(self.device)}
