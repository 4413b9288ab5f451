#!/usr/bin/python3
"""The attnlab CLI compiled to WebAssembly (run under node) against the native binary: the same command lines must
print the same JSON, numbers within 1e-6 and everything else (tokens, formulas, keys, shapes) identical.

Covers several presets, seeded text configs (so the seeded random embeddings and weights must agree across
platforms), random explicit Config JSON files, softmax, saturation and tokenize.

Usage: /usr/bin/python3 compare_native.py --native build/native/attnlab --wasm build/wasm-cli/attnlab.js [--node node]
Exits 77 (ctest SKIP_RETURN_CODE) with the reason when the wasm build or node is missing.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

# Reuse the reference test's random config generator; don't leave a __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import numpy as np  # noqa: E402
from reference import random_config  # noqa: E402

TOLERANCE = 1e-6
SKIP = 77
PRESETS = ["quick-fox", "softmax-saturation", "i-love-sushi", "polysemy", "dog-thief", "law", "translation"]


def run(command, args):
    proc = subprocess.run(command + [str(a) for a in args], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command[-1:] + [str(a) for a in args])} exited {proc.returncode}: "
                           f"{proc.stderr.strip()}")
    return json.loads(proc.stdout)


class Differences:
    def __init__(self):
        self.largest = 0.0
        self.where = ""
        self.problems = []
        self.numbers = 0

    def compare(self, label, native, wasm, path="$"):
        if isinstance(native, bool) or isinstance(wasm, bool) or native is None or wasm is None \
                or isinstance(native, str):
            if native != wasm:
                self.problems.append(f"{label} {path}: native {native!r} != wasm {wasm!r}")
        elif isinstance(native, (int, float)) and isinstance(wasm, (int, float)):
            self.numbers += 1
            if math.isnan(native) or math.isnan(wasm):
                if not (math.isnan(native) and math.isnan(wasm)):
                    self.problems.append(f"{label} {path}: native {native} wasm {wasm}")
                return
            diff = abs(native - wasm)
            if diff > self.largest:
                self.largest, self.where = diff, f"{label} {path}"
            if diff > TOLERANCE:
                self.problems.append(f"{label} {path}: native {native!r} wasm {wasm!r} (|diff| {diff:.3g})")
        elif isinstance(native, list) and isinstance(wasm, list):
            if len(native) != len(wasm):
                self.problems.append(f"{label} {path}: length {len(native)} native, {len(wasm)} wasm")
                return
            for i, (a, b) in enumerate(zip(native, wasm)):
                self.compare(label, a, b, f"{path}[{i}]")
        elif isinstance(native, dict) and isinstance(wasm, dict):
            if native.keys() != wasm.keys():
                self.problems.append(f"{label} {path}: keys differ: {sorted(native.keys() ^ wasm.keys())}")
                return
            for key in native:
                self.compare(label, native[key], wasm[key], f"{path}.{key}")
        else:
            self.problems.append(f"{label} {path}: types {type(native).__name__} / {type(wasm).__name__}")


def command_lines(folder):
    """(label, args) for every comparison."""
    cases = [(f"preset {name}", ["trace", "--preset", name]) for name in PRESETS]
    for seed, text, extra in [
        (1, "The quick brown fox jumps over the lazy dog.", ["--heads", "4", "--d-model", "16"]),
        (42, "我想吃酸菜鱼", ["--tokenizer", "char", "--d-model", "12", "--heads", "3", "--d-k", "5", "--d-v", "3"]),
        (7, "I came second in the exam.", ["--mask", "causal", "--scale", "0.3"]),
        (123456789, "the cat sat", ["--query-text", "le chat", "--bos", "--pad-to", "5", "--mask", "padding"]),
        (99, "a b c d e f g h", ["--d-model", "64", "--heads", "8", "--d-k", "8", "--d-v", "8", "--no-pe"]),
    ]:
        cases.append((f"text seed {seed}", ["trace", "--text", text, "--seed", seed, *extra]))
    rng = np.random.default_rng(777)
    for index in range(8):
        cfg = random_config(rng, index)
        path = os.path.join(folder, f"config_{index}.json")
        with open(path, "w") as f:
            json.dump({k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in cfg.items()}, f)
        cases.append((f"config {index}", ["trace", "--config", path]))
    cases += [
        ("softmax", ["softmax", "1", "2", "3", "4", "--format", "json"]),
        ("softmax x10", ["softmax", "1", "2", "3", "4", "--scale", "10", "--format", "json"]),
        ("saturation", ["saturation", "--dk", "1,8,64,512", "--samples", "1000", "--seed", "3", "--format", "json"]),
        ("tokenize", ["tokenize", "--text", "Give me a second, please. 👍🏽 naïve", "--bos", "--pad-to", "12"]),
        ("tokenize char", ["tokenize", "--text", "👨‍👩‍👧 我想吃", "--tokenizer", "char"]),
    ]
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--native", required=True)
    parser.add_argument("--wasm", required=True)
    parser.add_argument("--node", default="node")
    args = parser.parse_args()

    if not os.path.exists(args.wasm):
        print(f"SKIP: {args.wasm} does not exist; build the web tree first "
              f"(emcmake cmake -S . -B build/web && cmake --build build/web --target attnlab)")
        return SKIP
    node = shutil.which(args.node)
    if not node:
        print(f"SKIP: node ('{args.node}') not found")
        return SKIP

    native_cmd = [args.native]
    wasm_cmd = [node, "--no-experimental-fetch", args.wasm]
    diffs = Differences()
    with tempfile.TemporaryDirectory() as folder:
        cases = command_lines(folder)
        for label, argv in cases:
            diffs.compare(label, run(native_cmd, argv), run(wasm_cmd, argv))
    print(f"compared {len(cases)} command lines, {diffs.numbers} numbers")
    print(f"largest absolute difference wasm vs native: {diffs.largest:.3e}"
          + (f" ({diffs.where})" if diffs.where else "") + f" (tolerance {TOLERANCE:g})")
    if diffs.problems:
        print(f"FAILED: {len(diffs.problems)} differences", file=sys.stderr)
        for problem in diffs.problems[:40]:
            print("  " + problem, file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
