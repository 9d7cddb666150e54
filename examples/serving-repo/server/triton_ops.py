# Fused SwiGLU activation as a Triton kernel, with a plain PyTorch fallback when Triton is absent.
import torch

try:
    import triton
    import triton.language as tl

    HAVE_TRITON = True
except ImportError:  # CPU-only test environments
    HAVE_TRITON = False


if HAVE_TRITON:

    @triton.jit
    def _swiglu_kernel(gate_ptr, up_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
        pid = tl.program_id(axis=0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n_elements
        g = tl.load(gate_ptr + offs, mask=mask).to(tl.float32)
        u = tl.load(up_ptr + offs, mask=mask).to(tl.float32)
        y = g * tl.sigmoid(g) * u
        tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


def swiglu(gate_up: torch.Tensor) -> torch.Tensor:
    """SiLU(gate) * up, where gate_up holds [gate | up] along the last dimension."""
    gate, up = gate_up.chunk(2, dim=-1)
    if not (HAVE_TRITON and gate_up.is_cuda):
        return torch.nn.functional.silu(gate) * up
    gate = gate.contiguous()
    up = up.contiguous()
    out = torch.empty_like(gate)
    n = out.numel()
    grid = (triton.cdiv(n, 1024),)
    _swiglu_kernel[grid](gate, up, out, n, BLOCK=1024)
    return out
