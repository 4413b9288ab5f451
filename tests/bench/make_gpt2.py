#!/usr/bin/python3
"""Writes what `make bench` section 5 (GPT-2 small, AttnLab's wasm against onnxruntime-web) runs on, into OUT
(build/bench/gpt2; never committed):
  OUT/model.safetensors + OUT/config.json  GPT-2 small's architecture with random weights, Hugging Face's layout
                                           (tests/models/gpt2_checkpoint.py): 12 layers, 12 heads, d 768, the
                                           50,257 × 768 wte, 1024 positions; F16 by default (~250 MB; the forward is
                                           float32 either way), no attn.bias buffers
  OUT/gpt2.onnx                            the SAME model (the stored values, as float32) exported from an
                                           independent PyTorch module (below) by torch.onnx.export, the sequence
                                           length dynamic: ids (L,) int64 -> logits (L,V) float32; checked to keep
                                           the tanh GELU (Tanh nodes, no Erf)
  OUT/ids_L.i32, OUT/ref_L.f64             per length L: the token ids (int32) and the logits of every position
                                           (L,V) from tests/models/torch_gpt2.py's float64 reference forward
The exported module's float32 logits are compared with the float64 reference here (printed), so a wrong export is
caught before anything is timed.
Run with Debian's python (/usr/bin/python3: python3-torch, python3-onnx, python3-numpy):
  make_gpt2.py OUT [--lengths 8,32,128] [--dtype F16|F32] [--seed 0]"""
import argparse
import json
import os
import sys
import time

import numpy as np
import onnx
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "models"))
import gpt2_checkpoint as ckpt  # noqa: E402
from torch_gpt2 import torch_forward  # noqa: E402

LAYERS, HEADS, D, POSITIONS = 12, 12, 768, 1024


class Gpt2(torch.nn.Module):
    """GPT-2 (Hugging Face's GPT2LMHeadModel's forward, float32, written for the export): ids (L,) -> logits (L,V).
    x = wte[ids] + wpe[:L]; per block x += c_proj(attn(ln_1 x)) and x += mlp_c_proj(gelu_tanh(c_fc(ln_2 x)));
    logits = ln_f(x)·wteᵀ (tied). Conv1D weights (in, out) used as x·W + b; scores / 8; causal mask."""

    def __init__(self, t):
        super().__init__()
        self.w = torch.nn.ParameterDict({k.replace(".", "_"): torch.nn.Parameter(torch.tensor(v), False)
                                         for k, v in t.items()})
        self.register_buffer("causal", torch.tril(torch.ones(POSITIONS, POSITIONS, dtype=torch.bool)))

    def p(self, name):
        return self.w[name.replace(".", "_")]

    @staticmethod
    def gelu_tanh(x):  # written out, so the export cannot turn it into erf
        return 0.5 * x * (1.0 + torch.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))

    def forward(self, ids):
        L = ids.shape[0]
        hw = D // HEADS
        x = self.p("wte.weight")[ids] + self.p("wpe.weight")[:L]                      # (L,d)
        mask = self.causal[:L, :L]                                                     # (L,L)
        for l in range(LAYERS):
            h = f"h.{l}."
            a = F.layer_norm(x, (D,), self.p(h + "ln_1.weight"), self.p(h + "ln_1.bias"), 1e-5)
            qkv = a @ self.p(h + "attn.c_attn.weight") + self.p(h + "attn.c_attn.bias")  # (L,3d)
            q, k, v = (qkv[:, i * D:(i + 1) * D].reshape(L, HEADS, hw).transpose(0, 1) for i in range(3))  # (H,L,hw)
            s = (q @ k.transpose(1, 2)) * (1.0 / 8.0)                                  # (H,L,L)
            s = s.masked_fill(~mask, float("-inf"))
            o = torch.softmax(s, dim=-1) @ v                                            # (H,L,hw)
            o = o.transpose(0, 1).reshape(L, D)                                         # (L,d)
            x = x + o @ self.p(h + "attn.c_proj.weight") + self.p(h + "attn.c_proj.bias")
            m = F.layer_norm(x, (D,), self.p(h + "ln_2.weight"), self.p(h + "ln_2.bias"), 1e-5)
            m = self.gelu_tanh(m @ self.p(h + "mlp.c_fc.weight") + self.p(h + "mlp.c_fc.bias"))  # (L,4d)
            x = x + m @ self.p(h + "mlp.c_proj.weight") + self.p(h + "mlp.c_proj.bias")
        x = F.layer_norm(x, (D,), self.p("ln_f.weight"), self.p("ln_f.bias"), 1e-5)
        return x @ self.p("wte.weight").t()                                             # (L,V)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--lengths", default="8,32,128")
    ap.add_argument("--dtype", default="F16", choices=["F16", "F32"])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    lengths = [int(x) for x in args.lengths.split(",")]
    torch.set_num_threads(1)
    start = time.time()

    t = ckpt.gpt2_tensors(LAYERS, HEADS, D, positions=POSITIONS, seed=args.seed)
    t = {k: v for k, v in t.items() if not k.endswith(".attn.bias")}  # the mask buffers (ignored by readers)
    with open(os.path.join(args.out, "model.safetensors"), "wb") as f:
        f.write(ckpt.safetensors_bytes(t, dtype=args.dtype))
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(ckpt.config_json(LAYERS, HEADS, D, positions=POSITIONS), f)
    t = {k: ckpt.stored_values(v, args.dtype) for k, v in t.items()}  # what a reader gets back: float32
    params = sum(v.size for v in t.values())
    print(f"checkpoint: {params:,} parameters, {args.dtype}, "
          f"{os.path.getsize(os.path.join(args.out, 'model.safetensors')) / 1e6:.0f} MB ({time.time() - start:.0f} s)")

    model = Gpt2(t).eval()
    onnx_path = os.path.join(args.out, "gpt2.onnx")
    with torch.no_grad():
        torch.onnx.export(model, (torch.arange(8, dtype=torch.int64),), onnx_path, input_names=["ids"],
                          output_names=["logits"], dynamic_axes={"ids": {0: "L"}, "logits": {0: "L"}},
                          opset_version=14, do_constant_folding=True)
    graph = onnx.load(onnx_path, load_external_data=False).graph
    ops = {}
    for node in graph.node:
        ops[node.op_type] = ops.get(node.op_type, 0) + 1
    if ops.get("Tanh", 0) != LAYERS or "Erf" in ops:
        raise SystemExit(f"the export lost the tanh GELU: {ops}")
    print(f"onnx: {os.path.getsize(onnx_path) / 1e6:.0f} MB, {len(graph.node)} nodes, Tanh {ops['Tanh']}, "
          f"Erf {ops.get('Erf', 0)} ({time.time() - start:.0f} s)")

    rng = np.random.default_rng(args.seed + 1)
    all_ids = rng.integers(0, ckpt.VOCAB, max(lengths))
    for L in lengths:
        ids = [int(i) for i in all_ids[:L]]
        np.asarray(ids, dtype="<i4").tofile(os.path.join(args.out, f"ids_{L}.i32"))
        with torch.no_grad():
            _, _, ref = torch_forward(t, HEADS, ids)  # float64, tests/models/torch_gpt2.py
            ours32 = model(torch.tensor(ids, dtype=torch.int64)).double()
        ref = ref.numpy()
        ref.astype("<f8").tofile(os.path.join(args.out, f"ref_{L}.f64"))
        diff = float(np.abs(ours32.numpy() - ref).max())
        print(f"L {L}: float64 reference logits in [{ref.min():.1f}, {ref.max():.1f}]; the exported module in torch "
              f"float32 vs the reference: max|diff| {diff:.2e} ({time.time() - start:.0f} s)")
        if not diff < 1e-2:
            raise SystemExit("the export module disagrees with the reference forward")


if __name__ == "__main__":
    main()
