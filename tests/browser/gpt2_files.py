"""Writes a GPT-2 checkpoint with random weights (tests/models/gpt2_checkpoint.py: Hugging Face's layout, the real
50,257-row vocabulary) into a folder as model.safetensors + config.json, for the page's tests (gpt2.test.mjs) and
its memory measurement (GPT-2 small's shapes: --layers 12 --heads 12 --d 768 --positions 1024; put big files under
build/, never commit them).

  /usr/bin/python3 tests/browser/gpt2_files.py --out DIR [--layers 2 --heads 2 --d 32 --positions 64]
                                               [--dtype F32|F16|BF16] [--prefix transformer.] [--seed 0]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
import gpt2_checkpoint as ck  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--heads", type=int, default=2)
    ap.add_argument("--d", type=int, default=32)
    ap.add_argument("--positions", type=int, default=64)
    ap.add_argument("--dtype", default="F32")
    ap.add_argument("--prefix", default="")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tensors = ck.gpt2_tensors(args.layers, args.heads, args.d, positions=args.positions, seed=args.seed)
    with open(os.path.join(args.out, "model.safetensors"), "wb") as f:
        f.write(ck.safetensors_bytes(tensors, dtype=args.dtype, prefix=args.prefix))
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(ck.config_json(args.layers, args.heads, args.d, positions=args.positions), f)


if __name__ == "__main__":
    main()
