#!/usr/bin/python3
"""The comparison table of tests/bench/run.sh: native vs WebAssembly (node) vs onnxruntime-web (wasm, node), float32,
same inputs, with ratios and the max |difference| of the outputs.
  report.py OUT   (reads OUT/native.json, OUT/wasm.json, OUT/ort.json and the dumps in OUT/native, OUT/wasm; and
                   OUT/interleaved.json from interleaved_bench.mjs, if present, for the second table)"""
import os
import json
import sys

import numpy as np

out = sys.argv[1]
load = lambda name: json.load(open(f"{out}/{name}.json"))
native, wasm, ort = load("native"), load("wasm"), load("ort")
key = lambda r: (r["L"], r["d_model"], r["heads"])
wasm_by, ort_by = {key(r): r for r in wasm}, {key(r): r for r in ort}


def f32(folder, size, name):
    return np.fromfile(f"{out}/{folder}/{size[0]}_{size[1]}_{size[2]}_{name}.f32", dtype="<f4")


print("# full multi-head attention pass, float32, 1 thread, SIMD on; ms = median of repeats (min in brackets)")
print("| L | d_model | heads | GFLOP | native ms | wasm ms | onnxruntime-web ms | wasm/native | ort/wasm | "
      "wasm GFLOP/s | max abs diff wasm vs native | ort vs native |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for n in native:
    size = key(n)
    w, o = wasm_by.get(size), ort_by.get(size)
    same_inputs = all(np.array_equal(f32("native", size, m), f32("wasm", size, m)) for m in ("X", "Wq", "Wk", "Wv", "Wo"))
    diff_w = float(np.abs(f32("native", size, "out") - f32("wasm", size, "out")).max()) if w else float("nan")
    cell = lambda r: f"{r['ms_median']:.3f} ({r['ms_min']:.3f})" if r else "-"
    print(f"| {size[0]} | {size[1]} | {size[2]} | {n['flops'] / 1e9:.4f} | {cell(n)} | {cell(w)} | {cell(o)} | "
          f"{w['ms_median'] / n['ms_median']:.2f}x | {o['ms_median'] / w['ms_median']:.2f}x | "
          f"{w['gflops']:.2f} | {diff_w:.1e}{'' if same_inputs else ' (INPUTS DIFFER)'} | "
          f"{o['max_abs_diff_vs_native']:.1e} |")
print("wasm/native < 2 is the goal (WebAssembly within 2x of native); ort/wasm > 1 means AttnLab's wasm is faster.")

inter_path = f"{out}/interleaved.json"
if os.path.exists(inter_path):
    rows = json.load(open(inter_path))
    print()
    print("# interleaved in one node process (interleaved_bench.mjs): AttnLab wasm and onnxruntime-web wasm (1 thread, "
          "SIMD) called alternately, ours then ort; ms median [min–max]; ratio = ort/ours per pair, median "
          "(interquartile range) [min–max], > 1 = AttnLab faster")
    print("| L:d_model:heads | pairs | AttnLab wasm ms | onnxruntime-web ms | ort/ours | pairs AttnLab faster | "
          "max abs diff ours vs native | ort vs native | load (1 min) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    fmt = lambda v: f"{v:.3f}" if v < 10 else f"{v:.1f}"
    diff = lambda v: f"{v:.1e}" if isinstance(v, (int, float)) else str(v)
    for r in rows:
        a, b, q = r["ours_ms"], r["ort_ms"], r["ratio_ort_over_ours"]
        print(f"| {r['L']}:{r['d_model']}:{r['heads']} | {r['pairs']} | {fmt(a['median'])} [{fmt(a['min'])}–{fmt(a['max'])}] | "
              f"{fmt(b['median'])} [{fmt(b['min'])}–{fmt(b['max'])}] | **{q['median']:.2f}x** ({q['q1']:.2f}–{q['q3']:.2f}) "
              f"[{q['min']:.2f}–{q['max']:.2f}] | {r['pairs_ours_faster']}/{r['pairs']} | "
              f"{diff(r['max_abs_diff_ours_vs_native'])}{'' if r['same_inputs_as_native_dump'] else ' (INPUTS DIFFER)'} | "
              f"{diff(r['max_abs_diff_ort_vs_native'])} | {r['load_before']:.1f} → {r['load_after']:.1f} |")
