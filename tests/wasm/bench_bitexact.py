#!/usr/bin/python3
"""`attnlab bench` (the float32 attention pass: SIMD matrix kernel, scale folded into the scores, expF32 softmax)
gives the same bits natively and compiled to WebAssembly under node: the --dump outputs must be byte-identical at
the benchmark's sizes and at sizes that leave remainders everywhere (L = 13 or 67, d_k = 16 or 32). Natively the
float32 products run productFixed (src/core/kernels/products.h), which sums every entry in the wasm kernel's
order; Eigen's native product, used before, cut the depth into blocks sized from the CPU's caches, so the bits
depended on the machine (on a 32 KB-L1 CPU 128:768:12 differed by 1e-6).

Usage: /usr/bin/python3 bench_bitexact.py --native build/native/attnlab --wasm build/wasm-cli/attnlab.js [--node node]
Exits 77 (ctest SKIP_RETURN_CODE) with the reason when the wasm build or node is missing."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
SIZES = "8:64:4,64:512:8,128:768:12,13:64:4,67:96:3"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--native", required=True)
    parser.add_argument("--wasm", required=True)
    parser.add_argument("--node", default="node")
    args = parser.parse_args()
    if not os.path.exists(args.wasm):
        print(f"SKIP: {args.wasm} does not exist; build the web tree first")
        return SKIP
    node = shutil.which(args.node)
    if not node:
        print(f"SKIP: node ('{args.node}') not found")
        return SKIP
    with tempfile.TemporaryDirectory() as folder:
        dirs = {name: os.path.join(folder, name) for name in ("native", "wasm")}
        for d in dirs.values():
            os.mkdir(d)
        common = ["bench", "--sizes", SIZES, "--repeats", "1", "--format", "json"]
        subprocess.run([args.native, *common, "--dump", dirs["native"]], check=True, capture_output=True)
        subprocess.run([node, "--no-experimental-fetch", args.wasm, *common, "--dump", dirs["wasm"]], check=True,
                       capture_output=True)
        problems = []
        files = sorted(os.listdir(dirs["native"]))
        for name in files:
            with open(os.path.join(dirs["native"], name), "rb") as a, open(os.path.join(dirs["wasm"], name), "rb") as b:
                if a.read() != b.read():
                    problems.append(name)
        if not files:
            problems.append("no dump files written")
    for p in problems:
        print(f"FAIL: {p} differs between native and wasm")
    if not problems:
        print(f"OK: {len(files)} dump files (inputs and outputs of {SIZES}) byte-identical native vs wasm")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
