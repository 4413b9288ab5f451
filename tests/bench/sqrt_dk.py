#!/usr/bin/python3
"""The √d_k experiment: train the same model with the scores scaled by 1/√d_k ("default") and unscaled
("none") at a large d_k, over 5 seeds, and record the loss curves, the steps to 99% held-out token accuracy and the
gradient through the softmax early in training. Writes tests/bench/SQRT_DK.md (and the raw curves as JSON under
build/bench/).

Every run is `attnlab train --task reverse … --format json` (the native CLI; training is deterministic, so the
numbers reproduce exactly on any machine, only the timings change). Conditions:
  A  the plain setting: d_model 16, d_k 256 (Xavier init of W_q, W_k)
  B  a wider residual stream: d_model 64, d_k 256
  C  larger initial W_q, W_k: d_model 16, d_k 256, W_q and W_k ×3 (--qk-init 3)
  0  control at a small d_k: d_model 16, d_k 16
Measured per run at step 1 (before the first update's effect is visible: --eval-first) and every 20 steps: held-out
loss and accuracy, ‖dL/dS_masked‖ (the gradient at the softmax's input, summed over the batch; what saturation
kills) and the mean largest attention weight of a row (1 = one-hot).

Usage: /usr/bin/python3 tests/bench/sqrt_dk.py [--attnlab build/native/attnlab] [--steps 800] [--seeds 5]
                                               [--out tests/bench/SQRT_DK.md] [--conditions A,B,C,0] [--from-raw]
Takes about 3-6 minutes on a 2-core machine.
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

CONDITIONS = {
    "A": ("d_model 16, d_k 256", ["--d-k", "256"]),
    "B": ("d_model 64, d_k 256", ["--d-model", "64", "--d-k", "256"]),
    "C": ("d_model 16, d_k 256, W_q and W_k initialised x3", ["--d-k", "256", "--qk-init", "3"]),
    "0": ("control: d_model 16, d_k 16", ["--d-k", "16"]),
}
CURVE_STEPS = [1, 20, 60, 100, 200, 300, 400, 600, 800]


def train(attnlab, task, scale, seed, steps, extra):
    args = [attnlab, "train", "--task", task, "--scale", scale, "--seed", str(seed), "--steps", str(steps),
            "--eval-every", "20", "--eval-first", "--held-out", "200", "--format", "json"] + extra
    start = time.time()
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(args)}: {proc.stderr.strip()}")
    report = json.loads(proc.stdout)
    report["wall_seconds"] = time.time() - start
    return report


def fmt(x, digits=3):
    return "–" if x is None else f"{x:.{digits}f}"


def fmt_sci(x):
    return "–" if x is None else f"{x:.2e}"


def at_step(report, step, key):
    for s in report["steps"]:
        if s["step"] == step:
            return s[key]
    return None


def summarize(runs):
    """runs: list of reports of one (condition, scale)."""
    reached = [r["first_step_at_99"] for r in runs]
    done = [s for s in reached if s is not None]
    early = [statistics.mean(s["softmax_grad_norm"] for s in r["steps"] if 1 < s["step"] <= 100) for r in runs]
    return {
        "steps_to_99": reached,
        "reached": len(done),
        "median_steps_to_99": statistics.median(done) if done else None,
        "final_accuracy": [r["final"]["accuracy"] for r in runs],
        "softmax_grad_step1": statistics.mean(at_step(r, 1, "softmax_grad_norm") for r in runs),
        "softmax_grad_early": statistics.mean(early),
        "max_weight_step1": statistics.mean(at_step(r, 1, "attention_max_weight") for r in runs),
        "max_weight_step100": statistics.mean(at_step(r, min(100, r["steps"][-1]["step"]), "attention_max_weight")
                                              for r in runs),
        "entropy_step1": statistics.mean(at_step(r, 1, "attention_entropy") for r in runs),
        "grad_norm_step1": statistics.mean(at_step(r, 1, "grad_norm") for r in runs),
        "seconds": sum(r["wall_seconds"] for r in runs),
        "steps_per_second": statistics.median(r["steps_per_second"] for r in runs),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attnlab", default=os.path.join(ROOT, "build", "native", "attnlab"))
    parser.add_argument("--task", default="reverse")
    parser.add_argument("--steps", type=int, default=800)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--conditions", default="A,B,C,0")
    parser.add_argument("--out", default=os.path.join(HERE, "SQRT_DK.md"))
    parser.add_argument("--raw", default=os.path.join(ROOT, "build", "bench", "sqrt_dk.json"))
    parser.add_argument("--from-raw", action="store_true", help="rewrite --out from --raw without training")
    args = parser.parse_args()
    conditions = args.conditions.split(",")
    seeds = list(range(1, args.seeds + 1))
    started = datetime.datetime.now(datetime.timezone.utc)
    if not args.from_raw:  # run a private copy: a rebuild of the build tree must not pull the binary from under us
        copy = os.path.join(tempfile.mkdtemp(prefix="sqrt_dk-"), "attnlab")
        shutil.copy2(args.attnlab, copy)
        args.attnlab = copy
    t0 = time.time()
    results = {}
    raw = None
    if args.from_raw:  # rewrite the markdown from a previous run's raw reports (no training)
        with open(args.raw) as f:
            raw = json.load(f)
        args.steps, args.task, seeds = raw["steps"], raw["task"], raw["seeds"]
        started = datetime.datetime.fromisoformat(raw["started"])
    for cond in conditions:
        label, extra = CONDITIONS[cond]
        for scale in ("default", "none"):
            if raw is not None:
                results[(cond, scale)] = raw["runs"][f"{cond}/{scale}"]
                continue
            runs = [train(args.attnlab, args.task, scale, seed, args.steps, extra) for seed in seeds]
            results[(cond, scale)] = runs
            s = summarize(runs)
            print(f"{cond} {label:48s} scale {scale:7s}: reached 99% in {s['reached']}/{len(seeds)} "
                  f"(steps {s['steps_to_99']}), softmax grad step 1 {s['softmax_grad_step1']:.2e}, "
                  f"max weight step 1 {s['max_weight_step1']:.3f}, {s['seconds']:.1f} s", flush=True)
    total = raw["seconds"] if raw is not None else time.time() - t0

    if not args.from_raw:
        os.makedirs(os.path.dirname(args.raw), exist_ok=True)
        with open(args.raw, "w") as f:
            json.dump({"seconds": total, "started": started.isoformat(), "load": os.getloadavg()[0], "steps": args.steps, "task": args.task,
                       "seeds": seeds, "runs": {f"{c}/{s}": runs for (c, s), runs in results.items()}}, f)

    try:
        load = raw["load"] if raw is not None else os.getloadavg()[0]
    except OSError:
        load = float("nan")
    lines = []
    w = lines.append
    w("# The √d_k experiment: training with and without the 1/√d_k scale")
    w("")
    w(f"Generated by `tests/bench/sqrt_dk.py` on {started:%Y-%m-%d %H:%M} UTC ({platform.machine()}, "
      f"{os.cpu_count()} cores, load average {load:.1f} at the end; {total:.0f} s in all). Every number below except "
      "the timings is deterministic: the same command gives the same bits on any machine, natively or in "
      "WebAssembly.")
    w("")
    w(f"Task `{args.task}`, 1 layer, 1 head, no MLP, {args.steps} steps of 16 examples, Adam (lr 0.005, warm-up 20, "
      f"linear decay to lr/10, gradient clipping at norm 1), seeds {seeds[0]}–{seeds[-1]} (data and initial "
      "weights), held-out set of 200 examples evaluated after step 1 and every 20 steps. The only difference "
      "between the two columns of a pair is `--scale default` (scores × 1/√d_k) vs `--scale none` (× 1).")
    w("")
    w("Columns: **reached 99%** = runs (of the seeds) whose held-out token accuracy reached 99% within the "
      "budget, with the step of the first evaluation at ≥ 99% per seed (– = never); **final acc** = mean held-out "
      "accuracy at the end; **‖dL/dS‖ step 1** and **steps 20–100** = the norm of the loss gradient at the "
      "softmax's input (dS_masked = A ⊙ (dA − rowsum(dA ⊙ A)), over the batch; mean over seeds, and over the "
      "evaluations at steps 20–100); **max A step 1** = mean largest attention weight of a row at step 1 "
      "(1/8 = uniform over the 8 keys, 1 = one-hot), and **step 100** the same after 100 updates; **entropy step 1** in "
      "nats (log 8 = 2.079 uniform).")
    w("")
    w("| condition | scale | reached 99% | steps to 99% per seed | final acc | ‖dL/dS‖ step 1 | ‖dL/dS‖ steps 20–100 "
      "| max A step 1 | max A step 100 | entropy step 1 | steps/s |")
    w("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for cond in conditions:
        label = CONDITIONS[cond][0]
        for scale in ("default", "none"):
            s = summarize(results[(cond, scale)])
            per_seed = ", ".join("–" if x is None else str(x) for x in s["steps_to_99"])
            scale_text = "1/√d_k" if scale == "default" else "none"
            w(f"| {cond}: {label} | {scale_text} | {s['reached']}/{len(seeds)} | {per_seed} | "
              f"{statistics.mean(s['final_accuracy']):.3f} | {fmt_sci(s['softmax_grad_step1'])} | "
              f"{fmt_sci(s['softmax_grad_early'])} | {s['max_weight_step1']:.3f} | {s['max_weight_step100']:.3f} | "
              f"{s['entropy_step1']:.3f} | "
              f"{s['steps_per_second']:.0f} |")
    w("")
    w("## Loss curves (held-out loss, mean over the seeds)")
    w("")
    header = "| condition | scale | " + " | ".join(f"step {s}" for s in CURVE_STEPS if s <= args.steps) + " |"
    w(header)
    w("|---|---|" + "---:|" * len([s for s in CURVE_STEPS if s <= args.steps]))
    for cond in conditions:
        for scale in ("default", "none"):
            runs = results[(cond, scale)]
            cells = []
            for step in CURVE_STEPS:
                if step > args.steps:
                    continue
                values = [at_step(r, step, "held_out_loss") for r in runs]
                values = [v for v in values if v is not None]
                cells.append(fmt(statistics.mean(values)) if values else "–")
            scale_text = "1/√d_k" if scale == "default" else "none"
            w(f"| {cond} | {scale_text} | " + " | ".join(cells) + " |")
    w("")
    w("Held-out accuracy at the same steps (mean over the seeds):")
    w("")
    w(header)
    w("|---|---|" + "---:|" * len([s for s in CURVE_STEPS if s <= args.steps]))
    for cond in conditions:
        for scale in ("default", "none"):
            runs = results[(cond, scale)]
            cells = []
            for step in CURVE_STEPS:
                if step > args.steps:
                    continue
                values = [at_step(r, step, "accuracy") for r in runs]
                values = [v for v in values if v is not None]
                cells.append(fmt(statistics.mean(values)) if values else "–")
            scale_text = "1/√d_k" if scale == "default" else "none"
            w(f"| {cond} | {scale_text} | " + " | ".join(cells) + " |")
    w("")
    w("Raw curves (every evaluation of every run): `build/bench/sqrt_dk.json` after a run of the script.")
    w("")
    w("## Result")
    w("")
    def reached(cond, scale):
        runs = results.get((cond, scale))
        return None if runs is None else sum(r["first_step_at_99"] is not None for r in runs)
    parts = []
    for cond in conditions:
        parts.append(f"{CONDITIONS[cond][0]}: {reached(cond, 'default')}/{len(seeds)} runs with 1/√d_k, "
                     f"{reached(cond, 'none')}/{len(seeds)} without")
    w("Runs that reached 99% held-out accuracy within " + str(args.steps) + " steps — " + "; ".join(parts) + ".")
    w("")
    w("## Why")
    w("")
    w("A score is q·k, a sum of d_k products. With W_q, W_k initialised Xavier-uniform (variance 2/(d_model + "
      "h·d_k)) and inputs x = e + PE of variance ≈ 1.5 per coordinate, a coordinate of q or k has variance "
      "σ² ≈ 3·d_model/(d_model + d_k), and an unscaled score a standard deviation of ≈ √d_k·σ²: for d_k = 256 "
      "≈ 2.8 at d_model 16 (A), ≈ 9.6 at d_model 64 (B), ≈ 25 with W_q, W_k ×3 (C, ×9 on the scores), ≈ 0.6 in "
      "the control (d_k 16). Divided by √d_k = 16 (or 4 in the control) they are all of order 1 or less.")
    w("")
    w("- **At initialisation** (max A step 1): unscaled rows start peaked (A) or nearly one-hot (B, C). Where a row "
      "is nearly one-hot the softmax Jacobian p_i(δ_ij − p_j) is ≈ 0, so the gradient that would teach W_q and W_k "
      "where to look is tiny (‖dL/dS‖ step 1 of B and C).")
    w("- **During training** (max A step 100, ‖dL/dS‖ steps 20–100): even where the unscaled softmax is not "
      "saturated at first (A, where its step-1 gradient equals the scaled one), it saturates within the first "
      "updates: Adam moves every weight by about the learning rate whatever the gradient's size, and an unscaled "
      "score moves √d_k = 16 times as much per step as a scaled one. The scores outgrow the softmax before the "
      "pattern is learned, and the gradient through the softmax collapses.")
    w("- **What stalls**: reverse needs position t to find position 7−t. Without a useful gradient through the "
      "softmax the model is left with the residual path (its own token and position), and the held-out loss stays "
      "near chance (ln 10 = 2.303) — the plateaus of B and C above; in A some seeds escape the plateau late and "
      "some do not. At d_k = 16 the unscaled scores are small enough that both versions train alike.")
    w("")
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.out} ({total:.0f} s)")


if __name__ == "__main__":
    main()
