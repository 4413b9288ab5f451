"""core/models/gpt2_analysis.h against numpy (issue 29): a random GPT-2 checkpoint written at test time
(gpt2_checkpoint.py, 3 layers × 4 heads, d = 32), run by `gpt2_analysis_dump`, and the same quantities computed
here in float64 from the architecture (not calling AttnLab):
  - layer norm of every row entering every block: μ, σ² (biased) and the output (and the dump's own check that its
    output rounded to float is the forward's ln_1 row bit for bit);
  - find the head: every (layer, head)'s A[i][j], and A[i][j] / (1 − A[i][0]) ignoring the first token, ranked
    largest first with ties by (layer, head); the ranking must be sorted and agree with numpy's wherever two
    weights differ by more than the float forward's error;
  - sinks: each head's mean over rows i ≥ 1 of A[i][0], and how many exceed one half;
  - the top 10 next tokens (softmax of each logits row) at every position.
Run with /usr/bin/python3 (python3-numpy). Usage: gpt2_analysis_numpy.py --dump BIN --work DIR"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpt2_checkpoint as ckpt  # noqa: E402

LAYERS, HEADS, D = 3, 4, 32
IDS = [464, 3854, 481, 1239, 307, 2818, 11, 475, 663, 3586, 815, 307, 655]  # "The Law will never be perfect, but its application should be just"
QUERY, KEY = 8, 1  # "its" -> "Law"


def layer_norm(x, g, b, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b, mu[:, 0], var[:, 0]


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def forward(t, ids):
    w = {k: v.astype(np.float64) for k, v in t.items()}
    L, d = len(ids), D
    hw = d // HEADS
    x = w["wte.weight"][ids] + w["wpe.weight"][:L]
    mask = np.tril(np.ones((L, L), dtype=bool))
    ln_stats, As = [], []
    for l in range(LAYERS):
        p = f"h.{l}."
        a, mu, var = layer_norm(x, w[p + "ln_1.weight"], w[p + "ln_1.bias"])
        ln_stats.append((mu, var, a))
        qkv = a @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]
        q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
        outs, layer_As = [], []
        for h in range(HEADS):
            sl = slice(h * hw, (h + 1) * hw)
            s = q[:, sl] @ k[:, sl].T / np.sqrt(hw)
            s = np.where(mask, s, -np.inf)
            s = np.exp(s - s.max(-1, keepdims=True))
            A = s / s.sum(-1, keepdims=True)
            layer_As.append(A)
            outs.append(A @ v[:, sl])
        As.append(layer_As)
        x = x + np.concatenate(outs, 1) @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m, _, _ = layer_norm(x, w[p + "ln_2.weight"], w[p + "ln_2.bias"])
        x = x + gelu(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"]) @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
    f, _, _ = layer_norm(x, w["ln_f.weight"], w["ln_f.bias"])
    return ln_stats, As, f @ w["wte.weight"].T


def check_ranking(name, ranked, expected, tol, failures):
    weights = [r[2] for r in ranked]
    if any(weights[k] < weights[k + 1] for k in range(len(weights) - 1)):
        failures.append(f"{name}: not sorted largest first")
    for k in range(len(ranked) - 1):
        (l1, h1, w1), (l2, h2, w2) = ranked[k], ranked[k + 1]
        if w1 == w2 and (l1, h1) > (l2, h2):
            failures.append(f"{name}: tie not ordered by (layer, head) at {k}")
    for l, h, w in ranked:
        if abs(w - expected[l][h]) > tol:
            failures.append(f"{name}: layer {l} head {h}: {w} vs numpy {expected[l][h]}")
    # numpy's order, where numpy's weights are clearly apart, must be the dump's
    pos = {(l, h): k for k, (l, h, _) in enumerate(ranked)}
    flat = [(expected[l][h], l, h) for l in range(LAYERS) for h in range(HEADS)]
    for wa, la, ha in flat:
        for wb, lb, hb in flat:
            if wa > wb + 4 * tol and pos[(la, ha)] > pos[(lb, hb)]:
                failures.append(f"{name}: ({la},{ha}) ranked below ({lb},{hb})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    t = ckpt.gpt2_tensors(LAYERS, HEADS, D, seed=29)
    path = os.path.join(args.work, "model.safetensors")
    with open(path, "wb") as f:
        f.write(ckpt.safetensors_bytes(t))
    with open(os.path.join(args.work, "config.json"), "w") as f:
        json.dump(ckpt.config_json(LAYERS, HEADS, D), f)
    out = subprocess.run([args.dump, path, str(QUERY), str(KEY)] + [str(i) for i in IDS], capture_output=True,
                         text=True, check=True)
    got = json.loads(out.stdout)
    ln_stats, As, logits = forward(t, IDS)
    failures = []
    tol = 2e-5
    if not got["ln1_bits_equal"]:
        failures.append("layer norm row: output rounded to float differs from the forward's ln_1")
    for l in range(LAYERS):
        mu, var, a = ln_stats[l]
        for r, row in enumerate(got["ln1"][l]):
            if abs(row["mean"] - mu[r]) > tol * max(1, abs(mu[r])):
                failures.append(f"ln1 layer {l} row {r}: mean {row['mean']} vs {mu[r]}")
            if abs(row["variance"] - var[r]) > tol * max(1, var[r]):
                failures.append(f"ln1 layer {l} row {r}: variance {row['variance']} vs {var[r]}")
            if np.max(np.abs(np.array(row["output"]) - a[r])) > 1e-4:
                failures.append(f"ln1 layer {l} row {r}: output differs")
    plain = [[As[l][h][QUERY, KEY] for h in range(HEADS)] for l in range(LAYERS)]
    renorm = [[As[l][h][QUERY, KEY] / (1 - As[l][h][QUERY, 0]) for h in range(HEADS)] for l in range(LAYERS)]
    check_ranking("ranked", got["ranked"], plain, tol, failures)
    check_ranking("ranked_ignore_first", got["ranked_ignore_first"], renorm, 1e-4, failures)
    sinks = [As[l][h][1:, 0].mean() for l in range(LAYERS) for h in range(HEADS)]
    for k, (a, b) in enumerate(zip(got["sinks"]["first_weight"], sinks)):
        if abs(a - b) > tol:
            failures.append(f"sink {k}: {a} vs numpy {b}")
    if got["sinks"]["over_half"] != sum(1 for s in sinks if s > 0.5):
        failures.append(f"sinks over half: {got['sinks']['over_half']}")
    print("sinks:", got["sinks"]["sentence"])
    for pos in range(len(IDS)):
        row = logits[pos] - logits[pos].max()
        p = np.exp(row) / np.exp(row).sum()
        order = np.argsort(-p, kind="stable")[:10]
        top = got["top10"][pos]
        if len(top) != 10:
            failures.append(f"top10 at {pos}: {len(top)} tokens")
        for k, (tid, prob) in enumerate(top):
            if abs(prob - p[tid]) > 1e-4 * max(1e-3, p[tid]) + 1e-7:
                failures.append(f"top10 at {pos} #{k}: p({tid}) {prob} vs numpy {p[tid]}")
            if tid != order[k] and abs(p[order[k]] - p[tid]) > 1e-5:
                failures.append(f"top10 at {pos} #{k}: id {tid}, numpy {order[k]}")
    if failures:
        print("\n".join(failures[:40]))
        print(f"FAILED: {len(failures)} differences")
        return 1
    print(f"OK: layer norm of {LAYERS}x{len(IDS)} rows, {LAYERS * HEADS} heads ranked twice, sinks, top 10 at "
          f"{len(IDS)} positions agree with numpy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
