#!/usr/bin/env python3
"""Every preset and a set of links open with the same numbers as before: a digest of every number `attnlab trace`
prints (each double as float.hex, so a single changed bit changes the digest) for each preset and for configurations
a link can hold (64:512:8, odd widths, causal, padding, cross-attention, seeds), compared with
tests/reference/trace_digests.json. Native and WebAssembly builds sum Eigen's products in different orders, so each
platform has its own digests.

  trace_digests.py --cli build/native/attnlab [--platform native]              check (exit 1 on a difference)
  trace_digests.py --cli build/wasm-cli/attnlab.js --node node --platform wasm   the wasm CLI under node
  trace_digests.py ... --write                                                 record the current digests

The recorded digests come from the build of the commit named in the JSON file ("recorded_from"); a change of the
arithmetic that is meant (a new default, a fixed bug) re-records them with --write and says so in its commit.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIGESTS = os.path.join(HERE, "trace_digests.json")
WORDS = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "and"]
LONG = " ".join(f"{WORDS[i % 10]}{i}" for i in range(64))

# name -> extra `attnlab trace` arguments (besides the presets, which come from `attnlab presets`)
CONFIGS = {
    "64:512:8": ["--text", LONG, "--d-model", "512", "--heads", "8", "--d-k", "64", "--d-v", "64"],
    "64:384:8 d_k 63": ["--text", LONG, "--d-model", "384", "--heads", "8", "--d-k", "63", "--d-v", "47"],
    "odd widths, causal": ["--text", "one two three four five six seven", "--d-model", "48", "--heads", "3",
                           "--d-k", "7", "--d-v", "5", "--mask", "causal", "--seed", "3"],
    "padding": ["--text", "a short one", "--pad-to", "9", "--mask", "padding", "--d-model", "16", "--heads", "2",
                "--d-k", "8", "--d-v", "8", "--seed", "42"],
    "cross, bos": ["--text", "the black cat sleeps", "--query-text", "le chat noir dort", "--bos", "--d-model", "32",
                   "--heads", "4", "--d-k", "8", "--d-v", "6", "--seed", "7"],
    "no scale, direction only": ["--text", "north east south west", "--scale", "none", "--direction-only",
                                 "--d-model", "8", "--heads", "2", "--d-k", "2", "--d-v", "3"],
    "char tokens, no PE": ["--tokenizer", "char", "--text", "我想吃酸菜鱼", "--no-pe", "--d-model", "24", "--heads", "2",
                           "--d-k", "12", "--d-v", "12", "--seed", "9007199254740991"],
}


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"trace_digests: {' '.join(cmd[:4])} … failed ({out.returncode}): {out.stderr.strip()}")
    return out.stdout


def numbers(value, path, out):
    """Every number of the trace JSON in a fixed order, with its path (floats as float.hex: exact bits)."""
    if isinstance(value, dict):
        for key in sorted(value):
            if key in ("formula", "notes"):  # words, not numbers: their wording may change
                continue
            numbers(value[key], f"{path}/{key}", out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            numbers(item, f"{path}[{i}]", out)
    elif isinstance(value, bool):
        out.append(f"{path}={value}")
    elif isinstance(value, float):
        out.append(f"{path}={value.hex()}")
    elif isinstance(value, int):
        out.append(f"{path}={value}")


def digest(trace_json):
    out = []
    numbers(json.loads(trace_json), "", out)
    return hashlib.sha256("\n".join(out).encode()).hexdigest(), len(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--node", default=None, help="run --cli (a .js file) under this node")
    ap.add_argument("--platform", default="native", choices=["native", "wasm"])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--commit", default="", help="with --write: the commit the CLI was built from")
    args = ap.parse_args()
    if args.platform == "wasm" and not os.path.exists(args.cli):
        print(f"SKIP: {args.cli} not built (the Emscripten tree builds it)")
        return 77
    base = ([args.node, "--no-experimental-fetch", args.cli] if args.node else [args.cli])
    presets = [line.split()[0] for line in run(base + ["presets"]).splitlines() if line.strip()]
    cases = {f"preset {p}": ["--preset", p] for p in presets}
    cases.update(CONFIGS)
    current = {}
    for name, extra in cases.items():
        current[name] = digest(run(base + ["trace", "--format", "json"] + extra))
    recorded = json.load(open(DIGESTS)) if os.path.exists(DIGESTS) else {}
    if args.write:
        recorded.setdefault("platforms", {})[args.platform] = {k: {"sha256": d, "numbers": n} for k, (d, n) in current.items()}
        if args.commit:
            recorded.setdefault("recorded_from", {})[args.platform] = args.commit
        with open(DIGESTS, "w") as f:
            json.dump(recorded, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"recorded {len(current)} digests for {args.platform}")
        return 0
    expected = recorded.get("platforms", {}).get(args.platform, {})
    bad = 0
    for name, (d, n) in current.items():
        want = expected.get(name)
        if want is None:
            print(f"NEW (not recorded): {name}")  # a new preset: record it with --write
            continue
        if want["sha256"] != d:
            bad += 1
            print(f"DIFFERENT NUMBERS: {name} ({n} numbers; recorded {want['numbers']})")
    missing = [name for name in expected if name not in current]
    for name in missing:
        bad += 1
        print(f"MISSING: {name} is recorded but no longer traced")
    print(f"{len(current) - bad}/{len(current)} traces have the recorded numbers ({args.platform})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
