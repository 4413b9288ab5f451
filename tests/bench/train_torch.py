#!/usr/bin/env python3
"""PyTorch (Debian's python3-torch, ONE CPU thread) training the model of src/core/train/model.h on the exact data and
initial weights attnlab used, to measure training steps per second against `attnlab train` and to check that it is
the same model (its losses must match attnlab's).

What it measures: the wall time of the training loop over the dumped steps (per step: the batch's tensors from
pre-packed lists, forward, backward with autograd, torch.nn.utils.clip_grad_norm_, torch.optim.Adam with the step's
learning rate), excluding start-up (import, reading the JSON, creating the parameters). torch.set_num_threads(1) and
set_num_interop_threads(1); float32.

The model (batched; examples padded to the batch's longest, as in train_tfjs.mjs):
  x0 = E[input] + PE ; per layer a = x + SelfAttn(x) [+ CrossAttn(a, memory)] [+ MLP] ; logits = y·W_out + b_out
  SelfAttn: Q = x·W_q, K = x·W_k, V = x·W_v per head, A = softmax(scale·Q·Kᵀ + mask), output = concat(A·V)·W_o
  loss = Σ_b (1/B)·mean over example b's counted positions of −log softmax(logits)[target]
Masks: causal as the task's config, padded source keys −inf, padded target positions weigh 0. Adam: β1 .9, β2 .999,
ε 1e-8, lr_t from the dump (attnlab's warm-up and decay); clipping g ×= clip/(‖g‖ + 1e-6) when ‖g‖ > clip (the same
formula attnlab's adam.cpp uses).

Usage: train_torch.py --init INIT.json --batches BATCHES.json [--steps N] [--check TOL]
Prints one JSON object like train_tfjs.mjs. Exit 77 when torch is missing; with --check, 1 unless every step's
|loss − attnlab's| <= TOL.
"""
import argparse
import json
import math
import sys
import time

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print("train_torch: PyTorch is missing: apt-get install python3-torch", file=sys.stderr)
    sys.exit(77)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--init", required=True)
    ap.add_argument("--batches", required=True)
    ap.add_argument("--steps", type=int)
    ap.add_argument("--check", type=float)
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    with open(args.init) as f:
        model = json.load(f)
    with open(args.batches) as f:
        dump = json.load(f)
    cfg = model["config"]
    steps = min(args.steps or len(dump["steps"]), len(dump["steps"]))
    D, H, dk, dv = cfg["d_model"], cfg["heads"], cfg["d_k"], cfg["d_v"]
    scale = {"default": 1 / math.sqrt(dk), "none": 1.0}.get(cfg["scale"]) if isinstance(cfg["scale"], str) \
        else float(cfg["scale"])
    enc_dec = cfg["encoder_decoder"]
    enc_layers = (cfg["encoder_layers"] or cfg["layers"]) if enc_dec else 0
    vocab = len(model["vocab"])

    P = {name: torch.tensor(p["data"], dtype=torch.float32).reshape(p["shape"]).requires_grad_()
         for name, p in model["parameters"].items()}
    # The sinusoidal positions of model.cpp: computed in double, stored as float32.
    max_len = cfg["max_length"]
    pe = torch.zeros(max_len, D, dtype=torch.float64)
    if cfg["positional"]:
        for pos in range(max_len):
            for dim in range(D):
                angle = pos / math.exp((2 * (dim // 2)) / D * math.log(10000))
                pe[pos, dim] = math.sin(angle) if dim % 2 == 0 else math.cos(angle)
    PE = pe.float()
    causal_masks = {}

    def causal(L):
        if L not in causal_masks:
            causal_masks[L] = torch.triu(torch.full((L, L), float("-inf")), diagonal=1)
        return causal_masks[L]

    def pack(examples):
        B = len(examples)
        L = max(len(e["input"]) for e in examples)
        S = max(len(e["source"]) for e in examples) if enc_dec else 0
        inp, tgt, w, src, smask = [[0] * L for _ in range(B)], [[0] * L for _ in range(B)], \
            [[0.0] * L for _ in range(B)], [[0] * S for _ in range(B)], [[0.0] * S for _ in range(B)]
        for b, e in enumerate(examples):
            mask = e["loss_mask"] or [1] * len(e["input"])
            counted = sum(mask)
            for t in range(len(e["input"])):
                inp[b][t], tgt[b][t] = e["input"][t], e["target"][t]
                w[b][t] = 1.0 / counted / B if mask[t] and counted else 0.0
            for s in range(S):
                if s < len(e["source"]):
                    src[b][s] = e["source"][s]
                else:
                    smask[b][s] = float("-inf")
        return B, L, S, inp, tgt, w, src, smask

    packed = [pack(s["examples"]) for s in dump["steps"][:steps]]

    def attention(prefix, x, kv, B, Lq, Lk, mask):
        q = (x @ P[prefix + ".W_q"]).reshape(B, Lq, H, dk).transpose(1, 2)   # (B,H,Lq,d_k)
        k = (kv @ P[prefix + ".W_k"]).reshape(B, Lk, H, dk).transpose(1, 2)  # (B,H,Lk,d_k)
        v = (kv @ P[prefix + ".W_v"]).reshape(B, Lk, H, dv).transpose(1, 2)  # (B,H,Lk,d_v)
        s = (q @ k.transpose(-1, -2)) * scale                                  # (B,H,Lq,Lk)
        if mask is not None:
            s = s + mask
        o = torch.softmax(s, dim=-1) @ v                                        # (B,H,Lq,d_v)
        return o.transpose(1, 2).reshape(B, Lq, H * dv) @ P[prefix + ".W_o"]   # (B,Lq,D)

    def mlp(prefix, x):
        return x + torch.relu(x @ P[prefix + ".mlp.W1"] + P[prefix + ".mlp.b1"]) @ P[prefix + ".mlp.W2"] \
            + P[prefix + ".mlp.b2"]

    def loss_of(batch):
        B, L, S, inp, tgt, w, src, smask = batch
        inp, tgt, w = torch.tensor(inp), torch.tensor(tgt), torch.tensor(w)
        memory = cross_mask = None
        if enc_dec:
            cross_mask = torch.tensor(smask).reshape(B, 1, 1, S)
            e = P["E_src"][torch.tensor(src)] + PE[:S]
            for l in range(enc_layers):
                m = cross_mask + causal(S) if cfg["encoder_causal"] else cross_mask
                e = e + attention(f"enc{l}.self", e, e, B, S, S, m)
                if cfg["mlp"]:
                    e = mlp(f"enc{l}", e)
            memory = e
        x = P["E"][inp] + PE[:L]                                                # (B,L,D)
        for l in range(cfg["layers"]):
            x = x + attention(f"layer{l}.self", x, x, B, L, L, causal(L) if cfg["causal"] else None)
            if enc_dec:
                x = x + attention(f"layer{l}.cross", x, memory, B, L, S, cross_mask)
            if cfg["mlp"]:
                x = mlp(f"layer{l}", x)
        logits = x @ P["out.W"] + P["out.b"]                                    # (B,L,vocab)
        logp = torch.log_softmax(logits, dim=-1)
        picked = logp.gather(-1, tgt.unsqueeze(-1)).squeeze(-1)                # (B,L)
        return -(picked * w).sum()

    adam = dump["adam"]
    params = list(P.values())
    opt = torch.optim.Adam(params, lr=adam["lr"], betas=(adam["beta1"], adam["beta2"]), eps=adam["eps"])
    losses = []
    start = time.perf_counter()
    for i in range(steps):
        opt.zero_grad(set_to_none=True)
        loss = loss_of(packed[i])
        loss.backward()
        if adam["clip_norm"] > 0:
            torch.nn.utils.clip_grad_norm_(params, adam["clip_norm"])
        for group in opt.param_groups:
            group["lr"] = dump["steps"][i]["lr"]
        opt.step()
        losses.append(loss.item())
    seconds = time.perf_counter() - start

    ref = [s["loss"] for s in dump["steps"][:steps]]
    diffs = [abs(a - b) for a, b in zip(losses, ref)]
    mean = lambda v: sum(v) / max(len(v), 1)
    print(json.dumps({
        "framework": f"torch {torch.__version__}", "backend": "cpu", "threads": torch.get_num_threads(),
        "task": dump["task"], "steps": steps, "batch": dump["batch"],
        "train_seconds": seconds, "steps_per_second": steps / seconds,
        "losses": losses, "attnlab_losses": ref, "step1_abs_diff": diffs[0],
        "max_abs_diff_first10": max(diffs[:10]),
        "last50_mean": mean(losses[-50:]), "attnlab_last50_mean": mean(ref[-50:]),
    }))
    if args.check is not None:
        for i, d in enumerate(diffs):
            if not d <= args.check:
                print(f"train_torch: step {i + 1} loss {losses[i]} vs attnlab {ref[i]} (|diff| {d} > {args.check})",
                      file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
