#!/usr/bin/env python3
"""The training benchmark's other frameworks train the same model as attnlab (a cheap regression test).

Runs `attnlab train --steps 3 --save-init --dump-batches` on kv-lookup (2 layers, causal, variable lengths, one
counted position) and translation (encoder–decoder, cross-attention, MLP, padded source), then trains the same 3
steps with tests/bench/train_tfjs.mjs (TensorFlow.js, wasm backend, one thread) and tests/bench/train_torch.py
(PyTorch, one thread) on the dumped batches and initial weights, and checks that each step's loss matches attnlab's
to --tolerance (float32; the measured differences are ~1e-6, a different mask, scale, residual or optimiser step
moves them by 1e-2 or more). About 10 s.
Usage: framework_agreement.py PATH/TO/attnlab [--node node] [--python /usr/bin/python3] [--tolerance 1e-4]
Exit code: 0 agreement; 1 a loss differs (or a script failed); 77 tfjs is not installed (node_modules) — torch
missing only skips its half.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("attnlab")
    ap.add_argument("--node", default="node")
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--tolerance", default="1e-4")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(ROOT, "node_modules", "@tensorflow", "tfjs-backend-wasm")):
        print("framework_agreement: node_modules/@tensorflow/tfjs-backend-wasm missing (npm ci): skipped")
        return 77
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for task in ("kv-lookup", "translation"):
            init, batches = os.path.join(tmp, f"{task}-init.json"), os.path.join(tmp, f"{task}-batches.json")
            subprocess.run([args.attnlab, "train", "--task", task, "--steps", "3", "--held-out", "10",
                            "--save-init", init, "--dump-batches", batches], check=True, stdout=subprocess.DEVNULL)
            runners = [("tfjs", [args.node, os.path.join(ROOT, "tests/bench/train_tfjs.mjs")]),
                       ("torch", [args.python, os.path.join(ROOT, "tests/bench/train_torch.py")])]
            for name, command in runners:
                r = subprocess.run(command + ["--init", init, "--batches", batches, "--check", args.tolerance],
                                   capture_output=True, text=True)
                if name == "torch" and r.returncode == 77:
                    print(f"{task} {name}: skipped (PyTorch missing)")
                    continue
                if r.returncode != 0:
                    print(f"FAIL {task} {name}: exit {r.returncode}\n{r.stderr.strip()}")
                    failures += 1
                    continue
                out = json.loads(r.stdout)
                print(f"ok {task} {name}: losses {['%.6f' % x for x in out['losses']]} vs attnlab "
                      f"{['%.6f' % x for x in out['attnlab_losses']]}, step-1 |diff| {out['step1_abs_diff']:.2e}")
    print(f"{'FAILED' if failures else 'passed'}: {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
