"""GPT-2 checkpoints run by AttnLab (`attnlab trace --model`, `attnlab generate`) against an independent PyTorch
implementation written from the architecture (issue 28; Hugging Face's GPT2LMHeadModel), not calling AttnLab:
  x = wte[ids] + wpe[:L]; per block: x += c_proj(attn(ln_1 x)); x += mlp_c_proj(gelu_tanh(c_fc(ln_2 x)));
  logits = ln_f(x)·wteᵀ; Conv1D weights (in, out) used as x·W + b; causal mask; scores / √(head width).
The checkpoints are random, written at test time in Hugging Face's layout (gpt2_checkpoint.py) into a scratch folder:
F32, F16 and BF16; with and without the "transformer." prefix; with and without config.json. Compared: every head's
A (the float32 forward's, from --dump, and the walkthrough's double trace, from the JSON), the hidden state after
each block and the logits, in float64 PyTorch; greedy generation's ids against PyTorch's argmax. With --wasm, the
WebAssembly CLI under node gives the same float32 bits (the dump, byte for byte) and the same ids.
Run with Debian's /usr/bin/python3 (python3-torch, python3-numpy). Exit 77 (skipped) without torch."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print("SKIPPED: python3-torch is not installed for this python")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpt2_checkpoint as ckpt  # noqa: E402

TEXT = "The Law will never be perfect, but its application should be just"

# (name, layers, heads, d, dtype, prefix, write config.json, activation)
CASES = [
    ("f32", 2, 2, 32, "F32", "", True, "gelu_new"),
    ("f16-prefixed", 3, 4, 64, "F16", "transformer.", True, "gelu_new"),
    ("bf16-no-config", 2, 1, 64, "BF16", "", False, "gelu_new"),
]


def torch_forward(t, heads, ids, eps=1e-5, rows=None):
    """The reference forward in float64: every head's A, the hidden state after each block, the logits. `rows` (a
    list) receives each block's ln_1 input and output and its MLP hidden layer (the trace's pretrained rows)."""
    w = {k: torch.tensor(v, dtype=torch.float64) for k, v in t.items()}
    d = w["wte.weight"].shape[1]
    hw = d // heads
    L = len(ids)
    x = w["wte.weight"][ids] + w["wpe.weight"][:L]
    layers = sum(1 for k in w if k.endswith(".ln_1.weight"))
    causal = torch.tril(torch.ones(L, L, dtype=torch.bool))
    As, hidden = [], []
    for l in range(layers):
        p = f"h.{l}."
        x_in = x
        a = F.layer_norm(x, (d,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        qkv = a @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]
        q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
        outs, layer_As = [], []
        for h in range(heads):
            sl = slice(h * hw, (h + 1) * hw)
            s = (q[:, sl] @ k[:, sl].T) / (hw ** 0.5)
            s = s.masked_fill(~causal, float("-inf"))
            A = torch.softmax(s, dim=-1)
            layer_As.append(A)
            outs.append(A @ v[:, sl])
        x = x + torch.cat(outs, dim=1) @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m = F.layer_norm(x, (d,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        m = F.gelu(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"], approximate="tanh")
        x = x + m @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
        if rows is not None:
            rows.append({"ln1_in": x_in, "ln1_out": a, "mlp_hidden": m})
        As.append(layer_As)
        hidden.append(x)
    x = F.layer_norm(x, (d,), w["ln_f.weight"], w["ln_f.bias"], eps)
    return As, hidden, x @ w["wte.weight"].T


def read_dump(path, layers, heads, L, d):
    data = np.fromfile(path, dtype="<f4")
    at, As, hidden = 0, [], []
    for _ in range(layers):
        layer = []
        for _ in range(heads):
            layer.append(data[at:at + L * L].reshape(L, L))
            at += L * L
        As.append(layer)
        hidden.append(data[at:at + L * d].reshape(L, d))
        at += L * d
    logits = data[at:].reshape(L, ckpt.VOCAB)
    return As, hidden, logits


def run(cmd):
    p = subprocess.run(cmd, capture_output=True)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout


WEIGHTS = ("W_q", "W_k", "W_v", "W_o")


def check_lean_trace(out, full, stored, layers, d, failures, case):
    """`trace --model` leaves each block's W_q … W_o out (top level and config, saying so) unless --weights; with
    --weights they are c_attn's column blocks and attn.c_proj, and everything else is the same JSON."""
    for l in range(layers):
        lean, whole = out["layers"][l]["trace"], full["layers"][l]["trace"]
        kept = [k for k in WEIGHTS if k in lean or k in lean["config"]]
        if kept:
            failures.append(f"{case} h.{l}: the default (lean) trace holds {kept}")
        if lean["config"].get("weights") != "omitted (--weights)":
            failures.append(f"{case} h.{l}: the lean config does not say the weights are omitted")
        c_attn = stored[f"h.{l}.attn.c_attn.weight"].astype(np.float64)
        expect = {"W_q": c_attn[:, :d], "W_k": c_attn[:, d:2 * d], "W_v": c_attn[:, 2 * d:],
                  "W_o": stored[f"h.{l}.attn.c_proj.weight"].astype(np.float64)}
        for name, ref in expect.items():
            for where, got in (("top level", whole.get(name, {}).get("data")), ("config", whole["config"].get(name))):
                if got is None or not np.array_equal(np.array(got, dtype=np.float64), ref):
                    failures.append(f"{case} h.{l}: --weights {name} ({where}) is not the checkpoint's")
        rest = {k: v for k, v in whole.items() if k not in WEIGHTS}
        rest["config"] = {k: v for k, v in whole["config"].items() if k not in WEIGHTS}
        rest["config"]["weights"] = "omitted (--weights)"
        if rest != lean:
            failures.append(f"{case} h.{l}: the lean trace differs from --weights' beyond the weights")


def check_pretrained_rows(out, trows, tlogits, stored, d, check, failures, case):
    """The registry's pretrained rows in each block's trace: ln1_in, ln1_out, mlp_hidden against PyTorch; the biases
    the checkpoint's, bit for bit; logits (the last position's) in the last block's trace only."""
    layers = len(trows)
    for l in range(layers):
        t = out["layers"][l]["trace"]
        for name in ("ln1_in", "ln1_out", "mlp_hidden"):
            ref = trows[l][name].numpy()
            got = np.array(t[name]["data"], dtype=np.float64)
            if got.shape != ref.shape:
                failures.append(f"{case} h.{l}: {name} has shape {got.shape}, expected {ref.shape}")
                continue
            check(f"{name} vs torch (abs / max|ref|)", float(np.abs(got - ref).max() / np.abs(ref).max()), 1e-5)
        if not np.array_equal(np.array(t["ln1_out"]["data"]), np.array(t["X"]["data"])):
            failures.append(f"{case} h.{l}: ln1_out is not the walkthrough's X")
        bias = stored[f"h.{l}.attn.c_attn.bias"].astype(np.float64)
        expect = {"b_q": bias[:d], "b_k": bias[d:2 * d], "b_v": bias[2 * d:],
                  "b_o": stored[f"h.{l}.attn.c_proj.bias"].astype(np.float64)}
        for name, ref in expect.items():
            if not np.array_equal(np.array(t[name]["data"], dtype=np.float64), ref.reshape(1, -1)):
                failures.append(f"{case} h.{l}: {name} is not the checkpoint's bias")
        if ("logits" in t) != (l == layers - 1):
            failures.append(f"{case} h.{l}: logits {'present' if 'logits' in t else 'absent'}; only the last block has them")
    last = out["layers"][-1]["trace"].get("logits")
    if last:
        got = np.array(last["data"], dtype=np.float64)
        check("logits row (last position) vs torch (abs / max|logit|)",
              float(np.abs(got[0] - tlogits[-1]).max() / np.abs(tlogits[-1]).max()), 1e-5)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True, help="native attnlab")
    ap.add_argument("--wasm", help="build/wasm-cli/attnlab.js (compared bit for bit when it exists)")
    ap.add_argument("--node", default="node")
    ap.add_argument("--data-dir", help="folder with gpt2-bpe.bin")
    ap.add_argument("--work", help="scratch folder (default: a temporary one)")
    ap.add_argument("--require-wasm", action="store_true")
    args = ap.parse_args()
    torch.manual_seed(0)
    work = args.work or tempfile.mkdtemp(prefix="attnlab-gpt2-")
    os.makedirs(work, exist_ok=True)
    data = ["--data-dir", args.data_dir] if args.data_dir else []
    wasm = None
    if args.wasm and os.path.exists(args.wasm):
        wasm = [args.node, "--no-experimental-fetch", args.wasm]
    elif args.require_wasm:
        print(f"SKIPPED: no wasm CLI at {args.wasm}")
        sys.exit(77)
    failures = []
    worst = {}

    def check(name, value, limit):
        worst[name] = max(worst.get(name, 0.0), value)
        if not value <= limit:
            failures.append(f"{name}: {value:.3g} > {limit:g}")

    for case, layers, heads, d, dtype, prefix, with_config, activation in CASES:
        folder = os.path.join(work, case)
        os.makedirs(folder, exist_ok=True)
        tensors = ckpt.gpt2_tensors(layers, heads, d, seed=len(case))
        with open(os.path.join(folder, "model.safetensors"), "wb") as f:
            f.write(ckpt.safetensors_bytes(tensors, dtype, prefix))
        config_path = os.path.join(folder, "config.json")
        if with_config:
            with open(config_path, "w") as f:
                json.dump(ckpt.config_json(layers, heads, d, activation=activation), f)
        elif os.path.exists(config_path):
            os.remove(config_path)
        ref_heads = heads if with_config else d // 64
        stored = {k: ckpt.stored_values(v, dtype) for k, v in tensors.items() if not k.endswith(".attn.bias")}

        dump = os.path.join(folder, "native.bin")
        out = json.loads(run([args.cli, "trace", "--model", folder, "--text", TEXT, "--format", "json",
                              "--dump", dump] + data))
        ids = out["token_ids"]
        L = len(ids)
        if out["model"]["config"]["n_head"] != ref_heads:
            failures.append(f"{case}: n_head {out['model']['config']['n_head']}, expected {ref_heads}")
        if not with_config and "inferred" not in out["model"]["config"]["source"]:
            failures.append(f"{case}: the output does not say the config was inferred")
        As, hidden, logits = read_dump(dump, layers, ref_heads, L, d)
        trows = []
        tAs, thidden, tlogits = torch_forward(stored, ref_heads, ids, rows=trows)
        for l in range(layers):
            for h in range(ref_heads):
                ref = tAs[l][h].numpy()
                check("A float32 forward vs torch (abs)", float(np.abs(As[l][h] - ref).max()), 1e-5)
                walk = np.array([[np.nan if x is None else x for x in row]
                                 for row in out["layers"][l]["trace"]["heads"][h]["A"]["data"]])
                check("A walkthrough double vs torch (abs)", float(np.abs(walk - ref).max()), 1e-5)
                check("A walkthrough double vs float32 forward (abs)", float(np.abs(walk - As[l][h]).max()), 1e-5)
                # not uniform: over the rows with 4 or more keys, the largest weight averages well above 1/keys
                peaks = [ref[i].max() * (i + 1) for i in range(3, L)]
                check("uniformity 1/mean(max A × keys) over rows of 4+ keys (1 = uniform)", 1.0 / float(np.mean(peaks)), 0.5)
            ref = thidden[l].numpy()
            check("hidden state after each block (abs / max|h|)",
                  float(np.abs(hidden[l] - ref).max() / np.abs(ref).max()), 1e-5)
        check("logits (abs / max|logit|)", float(np.abs(logits - tlogits.numpy()).max() / np.abs(tlogits.numpy()).max()),
              1e-5)
        check_pretrained_rows(out, trows, tlogits.numpy(), stored, d, check, failures, case)
        # the walkthrough's attention output (concat·W_o + b_o) against the engine: the hidden state minus the MLP is
        # not dumped, so compare A's only above; the predictions' argmax against torch's
        top = [p["token"] for p in out["predictions"]]
        if len(top) != L:
            failures.append(f"{case}: {len(top)} predictions for {L} tokens")
        if case == CASES[0][0]:  # the lean default against --weights, once (every case writes the same schema)
            full = json.loads(run([args.cli, "trace", "--model", folder, "--text", TEXT, "--format", "json",
                                   "--weights"] + data))
            check_lean_trace(out, full, stored, layers, d, failures, case)
        # greedy generation
        gen = json.loads(run([args.cli, "generate", "--model", folder, "--text", "The dog", "--tokens", "6",
                              "--format", "json"] + data))
        seq = list(gen["input_ids"])
        for _ in range(6):
            _, _, lg = torch_forward(stored, ref_heads, seq)
            seq.append(int(torch.argmax(lg[-1])))
        if gen["ids"] != seq:
            failures.append(f"{case}: generate gave {gen['ids']}, torch {seq}")
        if wasm:
            wdump = os.path.join(folder, "wasm.bin")
            wout = json.loads(run(wasm + ["trace", "--model", folder, "--text", TEXT, "--format", "json",
                                          "--dump", wdump] + data))
            if open(dump, "rb").read() != open(wdump, "rb").read():
                failures.append(f"{case}: the wasm CLI's float32 forward differs from native (--dump bytes)")
            for l in range(layers):
                for h in range(ref_heads):
                    a = np.array(out["layers"][l]["trace"]["heads"][h]["A"]["data"], dtype=float)
                    b = np.array(wout["layers"][l]["trace"]["heads"][h]["A"]["data"], dtype=float)
                    check("A walkthrough wasm vs native (abs)", float(np.nanmax(np.abs(a - b))), 1e-12)
            if wout["model"]["sha256"] != out["model"]["sha256"]:
                failures.append(f"{case}: wasm sha256 {wout['model']['sha256']} != native {out['model']['sha256']}")
            wgen = json.loads(run(wasm + ["generate", "--model", folder, "--text", "The dog", "--tokens", "6",
                                          "--format", "json"] + data))
            if wgen["ids"] != gen["ids"]:
                failures.append(f"{case}: wasm generate {wgen['ids']} != native {gen['ids']}")
        print(f"{case}: {layers} blocks, {ref_heads} heads, d {d}, {dtype}, prefix '{prefix}', "
              f"config {'given' if with_config else 'inferred'}: {L} tokens checked" + (", wasm too" if wasm else ""))
    for name, value in worst.items():
        print(f"  worst {name}: {value:.3g}")
    if failures:
        for f in failures:
            print("FAIL:", f)
        sys.exit(1)
    print("gpt2 vs torch: all agree")


if __name__ == "__main__":
    main()
