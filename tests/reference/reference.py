#!/usr/bin/python3
"""The attnlab core against an independent numpy implementation of src/DESIGN.md's math.

Writes random Config JSON files with every matrix given explicitly (X, X_q, W_q, W_k, W_v, W_o, so neither the
tokenizer nor the seeded embeddings matter), runs `attnlab trace --config FILE` on each, and compares every
per-head Q, K, V, S, S_scaled, A, O and the concat and output to 1e-5. Then checks the text path: the sinusoidal
positional encoding, X = E + PE, same token -> same embedding row, and the whole chain recomputed from the trace's
own E and weights (self- and cross-attention, the padding mask).

Usage: /usr/bin/python3 reference.py ATTNLAB [RUNNER_ARGS...] [--configs N] [--seed S] [--keep DIR]
Prints the largest absolute difference seen; exits 1 if any exceeds the tolerance.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

TOLERANCE = 1e-5
HEAD_MATRICES = ("Q", "K", "V", "S", "S_scaled", "A", "O")


# ---------------------------------------------------------------- the math (src/DESIGN.md "The walkthrough")

def softmax_rows(scores):
    """Row-wise softmax, stabilised by subtracting the row max; -inf scores get weight 0."""
    out = np.zeros_like(scores)
    for r, row in enumerate(scores):
        finite = np.isfinite(row)
        if not finite.any():
            continue  # fully masked row: all zeros
        shifted = np.where(finite, row - row[finite].max(), -np.inf)
        e = np.exp(shifted)
        out[r] = e / e.sum()
    return out


def causal_mask(l_q, l_kv):
    """Additive mask: query i may attend to keys 0..i (key j > i gets -inf)."""
    mask = np.zeros((l_q, l_kv))
    mask[np.triu_indices(l_q, k=1, m=l_kv)] = -np.inf
    return mask


def padding_mask(l_q, key_is_pad):
    return np.tile(np.where(np.asarray(key_is_pad), -np.inf, 0.0), (l_q, 1))


def attention(X, Xq, Wq, Wk, Wv, Wo, heads, d_k, d_v, scale=None, mask=None):
    """Multi-head scaled dot-product attention, row-vector convention. Returns per-head dicts, concat, output."""
    scale = 1.0 / np.sqrt(d_k) if scale is None else scale
    result = []
    for i in range(heads):
        q_cols, v_cols = slice(i * d_k, (i + 1) * d_k), slice(i * d_v, (i + 1) * d_v)
        Q = Xq @ Wq[:, q_cols]           # (L_q, d_k)
        K = X @ Wk[:, q_cols]            # (L_kv, d_k)
        V = X @ Wv[:, v_cols]            # (L_kv, d_v)
        S = Q @ K.T                      # (L_q, L_kv)
        S_scaled = S * scale
        A = softmax_rows(S_scaled + (mask if mask is not None else 0.0))
        O = A @ V                        # (L_q, d_v)
        result.append(dict(Q=Q, K=K, V=V, S=S, S_scaled=S_scaled, A=A, O=O))
    concat = np.hstack([h["O"] for h in result])   # (L_q, h*d_v)
    return result, concat, concat @ Wo             # output: (L_q, d_model)


def positional_encoding(length, d_model):
    """PE[pos, 2i] = sin(pos / 10000^(2i/d_model)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d_model))."""
    pe = np.zeros((length, d_model))
    pos = np.arange(length)[:, None]
    even = np.arange(0, d_model, 2)
    angle = pos / np.power(10000.0, even / d_model)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d_model // 2])
    return pe


# ---------------------------------------------------------------- running the CLI

class Runner:
    def __init__(self, command):
        self.command = command

    def trace(self, *args):
        proc = subprocess.run(self.command + ["trace", *map(str, args)], capture_output=True, text=True,
                              timeout=300)
        if proc.returncode != 0:
            raise RuntimeError(f"attnlab trace {' '.join(map(str, args))} exited {proc.returncode}: {proc.stderr}")
        return json.loads(proc.stdout)


def matrix(m):
    """A Trace JSON matrix {"shape":[r,c],"data":[[...]]} as a float array; null (-inf) -> -inf."""
    rows, cols = m["shape"]
    data = np.array([[-np.inf if v is None else v for v in row] for row in m["data"]], dtype=float)
    return data.reshape(rows, cols)


class Comparison:
    """Keeps the largest absolute difference per matrix name and overall, and the failures."""

    def __init__(self):
        self.largest = {}
        self.failures = []
        self.compared = 0

    def check(self, label, name, expected, actual):
        self.compared += 1
        if expected.shape != actual.shape:
            self.failures.append(f"{label} {name}: shape {actual.shape}, expected {expected.shape}")
            return
        same_inf = np.array_equal(np.isinf(expected), np.isinf(actual))
        finite = np.isfinite(expected) & np.isfinite(actual)
        diff = float(np.max(np.abs(expected[finite] - actual[finite]), initial=0.0))
        self.largest[name] = max(self.largest.get(name, 0.0), diff)
        if not same_inf or diff > TOLERANCE:
            self.failures.append(f"{label} {name}: largest difference {diff:.3g}" +
                                 ("" if same_inf else " and -inf cells differ"))

    def check_trace(self, label, trace, heads, concat, output):
        if len(trace["heads"]) != len(heads):
            self.failures.append(f"{label}: {len(trace['heads'])} heads, expected {len(heads)}")
            return
        for i, (got, want) in enumerate(zip(trace["heads"], heads)):
            for name in HEAD_MATRICES:
                self.check(f"{label} head {i}", name, want[name], matrix(got[name]))
        self.check(label, "concat", concat, matrix(trace["concat"]))
        self.check(label, "output", output, matrix(trace["output"]))

    @property
    def overall(self):
        return max(self.largest.values(), default=0.0)


# ---------------------------------------------------------------- random explicit configs

def random_config(rng, index):
    """Cycles through self/cross, none/causal, default/custom scale; heads 1..8, d_k != d_v mostly."""
    cross = index % 2 == 1
    causal = (index // 2) % 2 == 1
    custom_scale = (index // 4) % 2 == 1
    heads = 1 + index % 8
    d_model = int(rng.integers(1, 17))
    d_k = int(rng.integers(1, 7))
    d_v = int(rng.integers(1, 7))
    if index % 5 != 0 and d_v == d_k:
        d_v = d_k + 1
    l_kv = int(rng.integers(1, 10))
    l_q = int(rng.integers(1, 8)) if cross else l_kv
    spread = float(rng.choice([0.5, 1.0, 3.0]))  # larger values push rows toward saturation

    def m(rows, cols):
        return np.round(rng.normal(0.0, spread, (rows, cols)), 6)

    cfg = {"d_model": d_model, "heads": heads, "d_k": d_k, "d_v": d_v,
           "mask": "causal" if causal else "none", "positional": bool(index % 3 == 0),
           "X": m(l_kv, d_model), "W_q": m(d_model, heads * d_k), "W_k": m(d_model, heads * d_k),
           "W_v": m(d_model, heads * d_v), "W_o": m(heads * d_v, d_model)}
    if cross:
        cfg["X_q"] = m(l_q, d_model)
    if custom_scale:
        cfg["scale"] = float(np.round(rng.uniform(0.05, 2.5), 4))
    return cfg


def expected_for(cfg):
    X = np.asarray(cfg["X"], dtype=float)
    Xq = np.asarray(cfg.get("X_q", cfg["X"]), dtype=float)
    mask = causal_mask(len(Xq), len(X)) if cfg["mask"] == "causal" else None
    return attention(X, Xq, *(np.asarray(cfg[k], dtype=float) for k in ("W_q", "W_k", "W_v", "W_o")),
                     cfg["heads"], cfg["d_k"], cfg["d_v"], cfg.get("scale"), mask)


def run_explicit_configs(runner, comparison, count, seed, folder):
    rng = np.random.default_rng(seed)
    kinds = set()
    for index in range(count):
        cfg = random_config(rng, index)
        kinds.add(("cross" if "X_q" in cfg else "self", cfg["mask"], "custom" if "scale" in cfg else "default",
                   cfg["heads"]))
        path = os.path.join(folder, f"config_{index:02d}.json")
        with open(path, "w") as f:
            json.dump({k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in cfg.items()}, f)
        trace = runner.trace("--config", path)
        comparison.check_trace(f"config {index:02d}", trace, *expected_for(cfg))
    covered = {k[0] for k in kinds}, {k[1] for k in kinds}, {k[2] for k in kinds}, {k[3] for k in kinds}
    print(f"explicit configs: {count} (attention {sorted(covered[0])}, masks {sorted(covered[1])}, "
          f"scale {sorted(covered[2])}, heads {sorted(covered[3])})")


# ---------------------------------------------------------------- the text path

def token_texts(tokens):
    return [t["text"] if isinstance(t, dict) else t for t in tokens]


def check_text_path(runner, comparison, label, *args, d_k, d_v, heads, positional=True, mask=None):
    trace = runner.trace(*args)
    keys = token_texts(trace["tokens"])
    queries = token_texts(trace.get("query_tokens") or trace["tokens"])
    E, X = matrix(trace["E"]), matrix(trace["X"])
    d_model = E.shape[1]
    pe = positional_encoding(len(keys), d_model) if positional else np.zeros_like(E)
    if positional:
        comparison.check(label, "PE", pe, matrix(trace["PE"]))
    comparison.check(label, "X=E+PE", E + pe, X)

    # Same token, same embedding row, wherever it appears.
    rows = {}
    for token, row in zip(keys, E):
        if token in rows:
            comparison.check(label, f"E row of repeated '{token}'", rows[token], row)
        rows[token] = row

    cross = "X_q" in trace and trace["config"].get("cross")
    if cross:
        Eq = matrix(trace["E_q"])
        pe_q = positional_encoding(len(queries), d_model) if positional else np.zeros_like(Eq)
        comparison.check(label, "X_q=E_q+PE_q", Eq + pe_q, matrix(trace["X_q"]))
        Xq = Eq + pe_q
    else:
        Xq = E + pe

    if mask == "padding":
        mask_matrix = padding_mask(len(queries), [t == "<pad>" for t in keys])
    elif mask == "causal":
        mask_matrix = causal_mask(len(queries), len(keys))
    else:
        mask_matrix = None
    weights = [matrix(trace[k]) for k in ("W_q", "W_k", "W_v", "W_o")]
    expected = attention(E + pe, Xq, *weights, heads, d_k, d_v, None, mask_matrix)
    comparison.check_trace(label, trace, *expected)
    return keys, queries


def run_text_paths(runner, comparison):
    keys, _ = check_text_path(runner, comparison, "text pe", "--text", "the cat saw the cat", "--d-model", "6",
                              "--heads", "2", "--d-k", "3", "--d-v", "2", "--seed", "5", d_k=3, d_v=2, heads=2)
    assert keys == ["the", "cat", "saw", "the", "cat"], keys
    check_text_path(runner, comparison, "text odd d_model", "--text", "i love sushi", "--d-model", "5",
                    "--heads", "3", "--d-k", "2", "--d-v", "4", "--seed", "11", "--mask", "causal",
                    d_k=2, d_v=4, heads=3, mask="causal")
    check_text_path(runner, comparison, "text no pe", "--text", "Give me a second, please.", "--no-pe",
                    "--d-model", "8", "--heads", "2", "--d-k", "4", "--d-v", "4", d_k=4, d_v=4, heads=2,
                    positional=False)
    _, queries = check_text_path(runner, comparison, "text cross", "--text", "the cat sat", "--query-text",
                                 "le chat", "--bos", "--d-model", "6", "--heads", "2", "--d-k", "2", "--d-v", "3",
                                 d_k=2, d_v=3, heads=2)
    assert queries == ["<bos>", "le", "chat"], queries
    keys, _ = check_text_path(runner, comparison, "text padding", "--text", "a b c", "--pad-to", "6",
                              "--mask", "padding", "--d-model", "4", "--heads", "1", "--d-k", "2", "--d-v", "2",
                              d_k=2, d_v=2, heads=1, mask="padding")
    assert keys.count("<pad>") == 3, keys
    print("text-path checks: 5 (PE, X = E + PE, repeated-token rows, full chain; self, cross, causal, padding)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="attnlab, or e.g. node --no-experimental-fetch attnlab.js (options go before it)")
    parser.add_argument("--configs", type=int, default=24)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--keep", help="write the generated configs here instead of a temporary folder")
    args = parser.parse_args()
    if not args.command:
        parser.error("give the attnlab command")

    runner, comparison = Runner(args.command), Comparison()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or tmp
        os.makedirs(folder, exist_ok=True)
        run_explicit_configs(runner, comparison, args.configs, args.seed, folder)
    run_text_paths(runner, comparison)

    print(f"matrices compared: {comparison.compared}")
    for name in sorted(comparison.largest):
        print(f"  largest |difference| {name:28s} {comparison.largest[name]:.3e}")
    print(f"largest absolute difference vs numpy: {comparison.overall:.3e} (tolerance {TOLERANCE:g})")
    if comparison.failures:
        print(f"FAILED: {len(comparison.failures)} mismatches", file=sys.stderr)
        for failure in comparison.failures[:40]:
            print("  " + failure, file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
