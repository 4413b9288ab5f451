#!/usr/bin/env python3
"""The training engine's gradients (src/core/train) against PyTorch autograd, in float64.

Runs train_torch_dump (path given as the first argument) to get random attention blocks (self/cross, causal,
padding with fully masked rows, d_k != d_v, scale 1/sqrt(d_k) | none | custom) and small models (2-layer decoder
with MLP, encoder-decoder, 3-layer plain) with the engine's outputs and gradients, recomputes every one with
torch.nn.functional (softmax, matmul, relu, cross_entropy) and autograd, and reports the largest relative
difference: per matrix, max |ours - torch| / max |torch| (the matrix's own scale). Fails if it exceeds 1e-6.

Conventions reproduced here: the causal mask blocks key j > query i (cross-attention too); a row whose keys are all
blocked gets all-zero weights and zero gradient; the loss is the mean over counted positions of each example, then
the mean over the batch.

Needs Debian's python3-torch (apt-get install python3-torch).
Usage: torch_reference.py PATH/TO/train_torch_dump [--tolerance 1e-6] [--seed N]
Exit code: 0 all within tolerance; 1 a difference above it (or torch missing); 77 the dump program is not built.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print("torch_reference: PyTorch is missing: apt-get install python3-torch", file=sys.stderr)
    sys.exit(1)

torch.set_default_dtype(torch.float64)


def t(rows):
    """A JSON matrix (list of rows) as a float64 tensor; an empty matrix keeps its shape (0 rows)."""
    return torch.tensor(rows, dtype=torch.float64)


def attention(xq, x, wq, wk, wv, wo, heads, causal, padding, scale, keep=None):
    """Multi-head attention, row-vector convention. Returns output and the per-head weights A (for retain_grad)."""
    lq, lkv = xq.shape[0], x.shape[0]
    dk, dv = wq.shape[1] // heads, wv.shape[1] // heads
    q, k, v = xq @ wq, x @ wk, x @ wv
    blocked = torch.zeros(lq, lkv, dtype=torch.bool)
    if causal:
        blocked |= torch.arange(lkv)[None, :] > torch.arange(lq)[:, None]
    if padding:
        blocked |= torch.tensor(padding, dtype=torch.bool)[None, :]
    full = blocked.all(dim=1, keepdim=True)      # rows with every key blocked
    blocked_soft = blocked & ~full               # those rows: softmax of anything, then times 0
    outs, weights = [], []
    for h in range(heads):
        qh, kh, vh = q[:, h * dk:(h + 1) * dk], k[:, h * dk:(h + 1) * dk], v[:, h * dv:(h + 1) * dv]
        s = qh @ kh.T
        if keep is not None:
            s.retain_grad()
        masked = (s * scale).masked_fill(blocked_soft, float("-inf"))
        a = F.softmax(masked, dim=-1) * (~full).to(torch.float64)
        if keep is not None:
            a.retain_grad()
            keep.append((s, a))
        outs.append(a @ vh)
    return torch.cat(outs, dim=1) @ wo


def rel_diff(ours, ref):
    ours = torch.as_tensor(ours, dtype=torch.float64).reshape(ref.shape)
    scale = ref.abs().max().item() if ref.numel() else 0.0
    diff = (ours - ref).abs().max().item() if ref.numel() else 0.0
    if diff == 0.0:
        return 0.0
    return diff / max(scale, 1e-300)


def check_block(case):
    x = t(case["X"]).requires_grad_()
    cross = "X_q" in case
    xq = t(case["X_q"]).requires_grad_() if cross else x
    ws = {n: t(case[n]).requires_grad_() for n in ("W_q", "W_k", "W_v", "W_o")}
    g = t(case["G"])
    keep = []
    out = attention(xq, x, ws["W_q"], ws["W_k"], ws["W_v"], ws["W_o"], case["heads"], case["causal"],
                    case["padding"], case["scale"], keep)
    (out * g).sum().backward()
    ours = case["ours"]
    diffs = {"output": rel_diff(ours["output"], out.detach()), "dX": rel_diff(ours["dX"], x.grad)}
    if cross:
        diffs["dX_q"] = rel_diff(ours["dX_q"], xq.grad)
    for n in ("W_q", "W_k", "W_v", "W_o"):
        diffs["d" + n] = rel_diff(ours["d" + n], ws[n].grad)
    for h, (s, a) in enumerate(keep):
        diffs[f"head{h}.dA"] = rel_diff(ours["heads"][h]["dA"], a.grad)
        diffs[f"head{h}.dS"] = rel_diff(ours["heads"][h]["dS"], s.grad)
    return diffs


def positions(length, d_model):
    pe = torch.zeros(length, d_model)
    for pos in range(length):
        for dim in range(d_model):
            angle = pos / math.pow(10000.0, (2 * (dim // 2)) / d_model)
            pe[pos, dim] = math.sin(angle) if dim % 2 == 0 else math.cos(angle)
    return pe


def stack(x, params, prefix, layers, cfg, causal, memory):
    for l in range(layers):
        p = lambda name: params[f"{prefix}{l}.{name}"]
        a = x + attention(x, x, p("self.W_q"), p("self.W_k"), p("self.W_v"), p("self.W_o"), cfg["heads"], causal,
                          None, cfg["scale"])
        b = a
        if memory is not None:
            b = a + attention(a, memory, p("cross.W_q"), p("cross.W_k"), p("cross.W_v"), p("cross.W_o"),
                              cfg["heads"], False, None, cfg["scale"])
        y = b
        if cfg["mlp"]:
            y = b + F.relu(b @ p("mlp.W1") + p("mlp.b1")) @ p("mlp.W2") + p("mlp.b2")
        x = y
    return x


def check_model(case):
    cfg = case["config"]
    params = {n: t(m).requires_grad_() for n, m in case["params"].items()}
    d = cfg["d_model"]
    total = 0.0
    for ex in case["examples"]:
        memory = None
        if cfg["encoder_decoder"]:
            src = ex["source"]
            xs = params["E_src"][src] + (positions(len(src), d) if cfg["positional"] else 0)
            memory = stack(xs, params, "enc", cfg["encoder_layers"], cfg, cfg["encoder_causal"], None)
        inp = ex["input"]
        x = params["E"][inp] + (positions(len(inp), d) if cfg["positional"] else 0)
        y = stack(x, params, "layer", cfg["layers"], cfg, cfg["causal"], memory)
        logits = y @ params["out.W"] + params["out.b"]
        losses = F.cross_entropy(logits, torch.tensor(ex["target"]), reduction="none")
        mask = torch.tensor(ex["loss_mask"], dtype=torch.float64)
        if mask.sum() > 0:
            total = total + (losses * mask).sum() / mask.sum()
    loss = total / len(case["examples"])
    loss.backward()
    diffs = {"loss": abs(case["loss"] - loss.item()) / max(abs(loss.item()), 1e-300)}
    for n, p in params.items():
        diffs["d" + n] = rel_diff(case["grads"][n], p.grad)
    return diffs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dump", help="the train_torch_dump program")
    parser.add_argument("--tolerance", type=float, default=1e-6)
    parser.add_argument("--seed", default="2024")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if not os.path.exists(args.dump):  # e.g. the sanitizer build, which builds only the *_tests programs
        print(f"torch_reference: skipped: {args.dump} is not built in this tree")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "dump.json")
        subprocess.run([args.dump, path, args.seed], check=True, stdout=subprocess.DEVNULL)
        with open(path) as f:
            data = json.load(f)

    worst, worst_where, failures, checked = 0.0, "", 0, 0
    for kind, cases, check in (("block", data["blocks"], check_block), ("model", data["models"], check_model)):
        for i, case in enumerate(cases):
            diffs = check(case)
            checked += 1
            name, value = max(diffs.items(), key=lambda kv: kv[1])
            label = f"{kind} {i}"
            if kind == "block":
                label += (f" ({'cross' if 'X_q' in case else 'self'}, heads {case['heads']},"
                          f" {'causal' if case['causal'] else 'no mask'}{', padding' if case['padding'] else ''},"
                          f" scale {case['scale']:.4g})")
            else:
                cfg = case["config"]
                label += (f" ({'encoder-decoder' if cfg['encoder_decoder'] else 'decoder'}, {cfg['layers']} layers,"
                          f" {len(diffs) - 1} parameter matrices)")
            ok = value <= args.tolerance
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {label}: largest relative difference {value:.3e} ({name})")
            if value > worst:
                worst, worst_where = value, f"{label} {name}"
    print(f"largest relative difference over {checked} cases: {worst:.3e} at {worst_where} "
          f"(tolerance {args.tolerance:g}; torch {torch.__version__})")
    print(f"{checked - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
