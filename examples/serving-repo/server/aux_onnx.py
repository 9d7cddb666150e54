# Auxiliary safety classifier run through ONNX Runtime next to the main model.
import logging
import os

import numpy as np
import onnxruntime as ort

log = logging.getLogger(__name__)

DEFAULT_MODEL = os.environ.get("SAFETY_MODEL", "/models/safety-classifier-v3.onnx")


class SafetyClassifier:
    """Scores prompts with a small ONNX text classifier (token ids in, label logits out)."""

    def __init__(self, path: str = DEFAULT_MODEL, device_id: int = 0):
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.intra_op_num_threads = 2
        self.session = ort.InferenceSession(
            path,
            sess_options=opts,
            providers=["CUDAExecutionProvider", "CPUExecutionProvider"],
            provider_options=[{"device_id": device_id, "arena_extend_strategy": "kSameAsRequested"}, {}],
        )
        active = self.session.get_providers()
        if "CUDAExecutionProvider" not in active:
            log.warning("safety classifier running on CPU; providers=%s", active)
        self.input_name = self.session.get_inputs()[0].name
        self.labels = ["safe", "needs_review", "blocked"]

    def score(self, token_ids: list[int]) -> dict[str, float]:
        ids = np.asarray([token_ids[:512]], dtype=np.int64)
        (logits,) = self.session.run(None, {self.input_name: ids})
        probs = np.exp(logits[0] - logits[0].max())
        probs /= probs.sum()
        return {label: float(p) for label, p in zip(self.labels, probs)}
