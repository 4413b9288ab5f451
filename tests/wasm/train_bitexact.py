#!/usr/bin/python3
"""Training is deterministic across platforms: `attnlab train --task reverse --steps 60 --save M.json` natively and
as WebAssembly under node must write the same model, every weight bit for bit, and report the same losses,
accuracies and gradient norms (everything but the timings).

The engine makes this possible (src/core/train: fixed-order products, its own exp/log, IEEE-only arithmetic); this
test is the proof. A second, shorter run covers the encoder-decoder path (translation, with MLP).

Usage: /usr/bin/python3 train_bitexact.py --native build/native/attnlab --wasm build/wasm-cli/attnlab.js [--node node]
Exits 77 (ctest SKIP_RETURN_CODE) with the reason when the wasm build or node is missing.
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

SKIP = 77
RUNS = [
    ("reverse", ["--task", "reverse", "--steps", "60", "--eval-every", "20", "--held-out", "100"]),
    ("translation", ["--task", "translation", "--steps", "8", "--eval-every", "4", "--held-out", "20"]),
]
TIMINGS = {"train_seconds", "eval_seconds", "steps_per_second", "seconds_to_99", "saved"}


def without_timings(value):
    """A report field with the per-evaluation wall times (elapsed_seconds) removed."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k != "elapsed_seconds"}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def run(command, args):
    proc = subprocess.run(command + args, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command[-1:] + args)} exited {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def bits(x):
    return struct.pack("<d", x)


def compare_models(label, native, wasm):
    """Every parameter bit for bit; returns (numbers compared, problems)."""
    problems = []
    for key in ("format", "version", "task", "config", "vocab", "source_vocab"):
        if native.get(key) != wasm.get(key):
            problems.append(f"{label}: {key} differs")
    if native["parameters"].keys() != wasm["parameters"].keys():
        problems.append(f"{label}: parameter names differ")
        return 0, problems
    count = 0
    for name, matrix in native["parameters"].items():
        other = wasm["parameters"][name]
        if matrix["shape"] != other["shape"]:
            problems.append(f"{label}: {name} shape {matrix['shape']} vs {other['shape']}")
            continue
        for r, (row_n, row_w) in enumerate(zip(matrix["data"], other["data"])):
            for c, (a, b) in enumerate(zip(row_n, row_w)):
                count += 1
                if bits(a) != bits(b):
                    problems.append(f"{label}: {name}[{r}][{c}] native {a!r} wasm {b!r}")
    return count, problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--native", required=True)
    parser.add_argument("--wasm", required=True)
    parser.add_argument("--node", default="node")
    args = parser.parse_args()
    if not os.path.exists(args.wasm):
        print(f"SKIP: {args.wasm} does not exist (build the web tree first)")
        return SKIP
    node = shutil.which(args.node) or (args.node if os.path.exists(args.node) else None)
    if not node:
        print(f"SKIP: node ({args.node}) not found")
        return SKIP
    native_cmd = [args.native, "train"]
    wasm_cmd = [node, "--no-experimental-fetch", args.wasm, "train"]
    problems, numbers = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for label, run_args in RUNS:
            paths = {side: os.path.join(tmp, f"{label}-{side}.json") for side in ("native", "wasm")}
            reports = {}
            for side, command in (("native", native_cmd), ("wasm", wasm_cmd)):
                reports[side] = run(command, run_args + ["--format", "json", "--save", paths[side]])
            for key in set(reports["native"]) | set(reports["wasm"]):
                if key in TIMINGS:
                    continue
                if without_timings(reports["native"].get(key)) != without_timings(reports["wasm"].get(key)):  # exactly
                    problems.append(f"{label}: report field {key!r} differs")
            models = {}
            for side in paths:
                with open(paths[side]) as f:
                    models[side] = json.load(f)
            count, found = compare_models(label, models["native"], models["wasm"])
            numbers += count
            problems += found
            final = reports["native"]["final"]
            print(f"{label}: {count} weights identical natively and in wasm: {count - len(found)}; final loss "
                  f"{final['loss']:.6g}, held-out accuracy {final['accuracy']:.4f}")
    if problems:
        print(f"FAIL: {len(problems)} differences")
        for p in problems[:40]:
            print("  " + p)
        return 1
    print(f"OK: {numbers} weights and every reported number bit-identical (native vs WebAssembly)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
