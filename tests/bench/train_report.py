#!/usr/bin/env python3
"""The training benchmark's table (tests/bench/run.sh, section "training"), from the JSON files it wrote.

Reads DIR/<task>/{native,wasm,tfjs,torch}_<r>.json for every task folder in DIR: `attnlab train --format json`
natively and as WebAssembly under node, train_tfjs.mjs (TensorFlow.js, wasm backend, one thread) and train_torch.py
(PyTorch, one thread), all on the same data and initial weights (DIR/<task>/init.json and batches.json, written by
`attnlab train --save-init --dump-batches`). Prints a Markdown table:
  task, model, parameters, batch, steps; training steps per second as median (min–max) over the repeats for native,
  wasm, tfjs-wasm and torch; wasm/tfjs (ratio of medians: > 1 means AttnLab's wasm is faster); wasm seconds to 99%
  held-out accuracy (wall time from the command's start to the end of the first evaluation at >= 99%, evaluations
  included; median over the repeats, and the step); the step-1 loss |tfjs − attnlab| and |torch − attnlab|; the mean
  training loss over the last 50 steps for attnlab / tfjs / torch (the runs diverge in the last bits, then chaotically,
  so only closeness is expected); whether wasm's reported numbers equal native's exactly.
Then the goal per task: wasm faster than tfjs-wasm, and wasm reaches 99% in under 10 s.
Usage: train_report.py DIR
"""
import glob
import json
import os
import statistics
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def runs(folder, kind):
    return [load(p) for p in sorted(glob.glob(os.path.join(folder, f"{kind}_*.json")))]


def spread(values, digits=1):
    if not values:
        return "–"
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.{digits}f}"
    return f"{med:.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def model_text(cfg):
    m = cfg["model"]
    parts = []
    if m["encoder_decoder"]:
        parts.append(f"enc {m['encoder_layers'] or m['layers']} + dec {m['layers']} layers")
    else:
        parts.append(f"{m['layers']} layer{'s' if m['layers'] > 1 else ''}")
    parts.append(f"{m['heads']} head{'s' if m['heads'] > 1 else ''}")
    parts.append(f"d_model {m['d_model']}")
    if m["mlp"]:
        parts.append("MLP")
    return ", ".join(parts)


def without_times(report):
    """A train report's numbers without the timings (which differ run to run)."""
    drop = {"train_seconds", "eval_seconds", "steps_per_second", "seconds_to_99", "elapsed_seconds"}
    if isinstance(report, dict):
        return {k: without_times(v) for k, v in report.items() if k not in drop}
    if isinstance(report, list):
        return [without_times(v) for v in report]
    return report


def main():
    root = sys.argv[1]
    order = ["previous-token", "reverse", "sort", "kv-lookup", "translation"]
    tasks = sorted((d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))),
                   key=lambda t: order.index(t) if t in order else len(order))
    rows, goals = [], []
    for task in tasks:
        folder = os.path.join(root, task)
        native, wasm, tfjs, torch = (runs(folder, k) for k in ("native", "wasm", "tfjs", "torch"))
        if not native:
            continue
        cfg = native[0]["config"]
        sps = {k: [r["steps_per_second"] for r in v] for k, v in
               (("native", native), ("wasm", wasm), ("tfjs", tfjs), ("torch", torch))}
        ratio = (statistics.median(sps["wasm"]) / statistics.median(sps["tfjs"])) if sps["wasm"] and sps["tfjs"] else None
        to99 = [r["seconds_to_99"] for r in wasm if r.get("seconds_to_99") is not None]
        step99 = wasm[0]["first_step_at_99"] if wasm else None
        same_bits = all(without_times(w) == without_times(native[0]) for w in wasm) if wasm else None
        frameworks_steps = tfjs[0]["steps"] if tfjs else (torch[0]["steps"] if torch else cfg["steps"])
        d1 = lambda v: max(r["step1_abs_diff"] for r in v) if v else None
        last50 = lambda v: statistics.median(r["last50_mean"] for r in v) if v else None
        attnlab_last50 = (tfjs or torch)[0]["attnlab_last50_mean"] if (tfjs or torch) else None
        fmt = lambda x, f: "–" if x is None else format(x, f)
        rows.append("| " + " | ".join([
            task, model_text(cfg), str(cfg["parameters"]), str(cfg["batch"]),
            str(cfg["steps"]) + ("" if frameworks_steps == cfg["steps"] else f" ({frameworks_steps})"),
            spread(sps["native"], 0), spread(sps["wasm"], 0), spread(sps["tfjs"], 1), spread(sps["torch"], 1),
            fmt(ratio, ".1f") + "x" if ratio else "–",
            (spread(to99, 2) + (f" (step {step99})" if step99 else "")) if to99 else "not reached",
            f"{fmt(d1(tfjs), '.1e')} / {fmt(d1(torch), '.1e')}",
            f"{fmt(attnlab_last50, '.3g')} / {fmt(last50(tfjs), '.3g')} / {fmt(last50(torch), '.3g')}",
            {True: "yes", False: "NO", None: "–"}[same_bits],
        ]) + " |")
        faster = ratio is not None and ratio > 1
        under10 = bool(to99) and statistics.median(to99) < 10
        goals.append(f"- {task}: wasm {'faster' if faster else 'NOT faster'} than tfjs-wasm "
                     f"({fmt(ratio, '.1f')}x); 99% in {spread(to99, 2) if to99 else 'never'} s in wasm: "
                     f"{'met' if faster and under10 else 'NOT met'}")
    print("| task | model | parameters | batch | steps (compared) | native steps/s | AttnLab wasm steps/s | "
          "tfjs-wasm steps/s | PyTorch 1-thread steps/s | wasm/tfjs | wasm s to 99% | step-1 loss diff tfjs / torch | "
          "last-50 mean loss attnlab / tfjs / torch | wasm = native bits |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|")
    for r in rows:
        print(r)
    print()
    print("Goal (wasm faster than tfjs-wasm on every task, each default task at 99% in < 10 s in wasm):")
    for g in goals:
        print(g)


if __name__ == "__main__":
    main()
