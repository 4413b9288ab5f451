#!/usr/bin/python3
"""Writes the checkpoint the page benchmark (tests/bench/gpt2_page_bench.mjs, `make bench` section 5b) opens: GPT-2
small's architecture with random weights in Hugging Face's layout (tests/models/gpt2_checkpoint.py, the generator
make_gpt2.py uses: 12 layers, 12 heads, d 768, the 50,257 × 768 wte, 1024 positions), stored float32 like the
published gpt2's model.safetensors, with its h.N.attn.bias mask buffers (which readers skip), so the file is the
published one's size: 548 MB; nothing else (no ONNX, no reference logits).
  make_gpt2_page.py OUT [--seed 0]       writes OUT/model.safetensors and OUT/config.json (never committed)"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "models"))
import gpt2_checkpoint as ckpt  # noqa: E402

LAYERS, HEADS, D, POSITIONS = 12, 12, 768, 1024  # make_gpt2.py's


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    start = time.time()
    t = ckpt.gpt2_tensors(LAYERS, HEADS, D, positions=POSITIONS, seed=args.seed)
    path = os.path.join(args.out, "model.safetensors")
    with open(path + ".part", "wb") as f:
        f.write(ckpt.safetensors_bytes(t, dtype="F32"))
    os.replace(path + ".part", path)  # a half-written file is never taken for the checkpoint
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(ckpt.config_json(LAYERS, HEADS, D, positions=POSITIONS), f)
    print(f"checkpoint: {sum(v.size for k, v in t.items() if not k.endswith('.attn.bias')):,} parameters, F32, "
          f"{os.path.getsize(path) / 1e6:.0f} MB ({time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
