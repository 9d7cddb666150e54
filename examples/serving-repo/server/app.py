# HTTP front end: /v1/generate (greedy decode), /v1/classify (ONNX safety model), /healthz, /metrics.
import json
import logging
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pynvml
import torch

from server.aux_onnx import SafetyClassifier
from server.model import HAVE_EXT, Runner

log = logging.getLogger("serving")

CHECKPOINT = os.environ.get("MODEL_CHECKPOINT", "/models/decoder-1b-int4.safetensors")
MAX_NEW_TOKENS = int(os.environ.get("MAX_NEW_TOKENS", "128"))

_runner: Runner | None = None
_safety: SafetyClassifier | None = None
_lock = threading.Lock()  # one forward at a time; batching happens in the gateway


def gpu_health() -> dict:
    pynvml.nvmlInit()
    try:
        handle = pynvml.nvmlDeviceGetHandleByIndex(torch.cuda.current_device())
        mem = pynvml.nvmlDeviceGetMemoryInfo(handle)
        util = pynvml.nvmlDeviceGetUtilizationRates(handle)
        return {
            "name": pynvml.nvmlDeviceGetName(handle),
            "memory_used_mb": mem.used // (1 << 20),
            "utilization_pct": util.gpu,
            "temperature_c": pynvml.nvmlDeviceGetTemperature(handle, pynvml.NVML_TEMPERATURE_GPU),
        }
    finally:
        pynvml.nvmlShutdown()


def generate(token_ids: list[int], max_new: int) -> list[int]:
    tokens = torch.tensor(token_ids, dtype=torch.long, device="cuda")
    out = []
    with _lock:
        for _ in range(max_new):
            logits = _runner.forward(tokens)
            nxt = int(torch.argmax(logits))
            out.append(nxt)
            tokens = torch.cat([tokens, tokens.new_tensor([nxt])])
        torch.cuda.synchronize()
    return out


class Handler(BaseHTTPRequestHandler):
    def _send(self, code: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/healthz":
            self._send(200, {"ok": True, "fused_kernels": HAVE_EXT, "gpu": gpu_health()})
        elif self.path == "/metrics":
            self._send(200, _runner.memory_stats())
        else:
            self._send(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        try:
            req = json.loads(self.rfile.read(length) or b"{}")
            ids = [int(t) for t in req["token_ids"]]
        except (ValueError, KeyError, TypeError) as exc:
            self._send(400, {"error": f"bad request: {exc}"})
            return
        if self.path == "/v1/generate":
            verdict = _safety.score(ids)
            if verdict["blocked"] > 0.5:
                self._send(403, {"error": "prompt rejected", "scores": verdict})
                return
            max_new = min(int(req.get("max_new_tokens", MAX_NEW_TOKENS)), MAX_NEW_TOKENS)
            self._send(200, {"token_ids": generate(ids, max_new)})
        elif self.path == "/v1/classify":
            self._send(200, {"scores": _safety.score(ids)})
        else:
            self._send(404, {"error": "not found"})

    def log_message(self, fmt, *args):
        log.debug("%s " + fmt, self.address_string(), *args)


def main() -> None:
    global _runner, _safety
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"))
    _runner = Runner(CHECKPOINT)
    _safety = SafetyClassifier(device_id=torch.cuda.current_device())
    _runner.forward(torch.zeros(8, dtype=torch.long, device="cuda"))  # compile + capture graphs
    kernels = "fused asm kernels" if HAVE_EXT else "eager fallback"
    log.info("warm-up done with %s on %s", kernels, torch.cuda.get_device_name())
    port = int(os.environ.get("PORT", "8080"))
    ThreadingHTTPServer(("0.0.0.0", port), Handler).serve_forever()


if __name__ == "__main__":
    main()
