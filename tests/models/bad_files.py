"""Bad GPT-2 checkpoints (issue 28's list) given to `attnlab trace --model`: each refused with exactly one UTF-8
line "attnlab: …" on stderr naming the tensor or byte offset, exit code 2, nothing on stdout. The files are made
at test time from a small random checkpoint (gpt2_checkpoint.py)."""
import argparse
import json
import os
import struct
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpt2_checkpoint as ckpt  # noqa: E402


def header_and_data(blob):
    n = struct.unpack("<Q", blob[:8])[0]
    return json.loads(blob[8:8 + n]), blob[8 + n:]


def rebuild(header, data):
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    tensors = ckpt.gpt2_tensors(1, 1, 32, positions=16, seed=3)
    good = ckpt.safetensors_bytes(tensors)
    header, data = header_and_data(good)
    cases = []  # (name, file bytes, config dict or None, expected substring)

    cases.append(("truncated", good[:len(good) // 2], None, "beyond the data's"))
    cases.append(("header longer than the file", struct.pack("<Q", len(good)) + good[8:], None,
                  "bytes long but the file has only"))
    cases.append(("header not JSON", struct.pack("<Q", 8) + b"{nojson}" + data, None, "malformed JSON"))
    cases.append(("header not an object", struct.pack("<Q", 8) + b"[1,2,3] " + data, None, "must be a JSON object"))
    h = json.loads(json.dumps(header))
    h["wpe.weight"]["data_offsets"] = [0, h["wpe.weight"]["data_offsets"][1] - h["wpe.weight"]["data_offsets"][0]]
    cases.append(("overlapping offsets", rebuild(h, data), None, "overlap"))
    h = json.loads(json.dumps(header))
    end = len(data)
    h["ln_f.bias"]["data_offsets"] = [end, end + 128]
    cases.append(("out-of-range offsets", rebuild(h, data), None, "beyond the data's"))
    h = json.loads(json.dumps(header))
    h["ln_f.bias"]["dtype"] = "F64"
    cases.append(("unknown dtype", rebuild(h, data), None, "\"ln_f.bias\" has dtype \"F64\""))
    t = dict(tensors)
    del t["h.0.mlp.c_fc.bias"]
    cases.append(("missing tensor", ckpt.safetensors_bytes(t), None, "no tensor \"h.0.mlp.c_fc.bias\""))
    t = dict(tensors)
    t["h.0.attn.c_attn.weight"] = t["h.0.attn.c_attn.weight"][:, :64]
    cases.append(("misshapen tensor", ckpt.safetensors_bytes(t), None,
                  "\"h.0.attn.c_attn.weight\" has shape [32, 64], expected [32, 96]"))
    t = dict(tensors)
    bad = t["h.0.mlp.c_proj.weight"].copy()
    bad[3, 5] = np.nan
    t["h.0.mlp.c_proj.weight"] = bad
    cases.append(("NaN weight", ckpt.safetensors_bytes(t), None, "\"h.0.mlp.c_proj.weight\" has NaN at element 101"))
    t = dict(tensors)
    bad = t["ln_f.weight"].copy()
    bad[0] = np.inf
    t["ln_f.weight"] = bad
    cases.append(("infinite weight", ckpt.safetensors_bytes(t), None, "\"ln_f.weight\" has an infinity"))
    bert = {"embeddings.word_embeddings.weight": np.zeros((30, 8), np.float32),
            "encoder.layer.0.attention.self.query.weight": np.zeros((8, 8), np.float32)}
    cases.append(("BERT's keys", ckpt.safetensors_bytes(bert), None, "these are BERT's keys"))
    five_gb = {"wte.weight": {"dtype": "F32", "shape": [50257, 25000], "data_offsets": [0, 50257 * 25000 * 4]}}
    cases.append(("a declared 5 GB tensor", rebuild(five_gb, b"\0" * 64), None, "more than this reader takes"))
    small_vocab = dict(tensors)
    small_vocab["wte.weight"] = tensors["wte.weight"][:1000]
    cases.append(("not GPT-2's vocabulary", ckpt.safetensors_bytes(small_vocab), None,
                  "\"wte.weight\" has 1000 rows; GPT-2's tokenizer has 50257"))
    cases.append(("config disagrees with the shapes", good, ckpt.config_json(1, 1, 48, positions=16),
                  "\"wte.weight\" has shape [50257, 32], expected [50257, 48]"))
    cases.append(("config with more layers", good, ckpt.config_json(2, 1, 32, positions=16),
                  "no tensor \"h.1.ln_1.weight\""))
    cases.append(("not a model file at all", b"hello, I am not a model\n", None, "bytes long but the file has only"))

    failures = 0
    for i, (name, blob, config, expected) in enumerate(cases):
        config = config or ckpt.config_json(1, 1, 32, positions=16)  # n_embd 32: no 64-wide heads to infer
        folder = os.path.join(args.work, f"case{i}")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "model.safetensors")
        with open(path, "wb") as f:
            f.write(blob)
        cfg = os.path.join(folder, "config.json")
        with open(cfg, "w") as f:
            json.dump(config, f)
        target = folder if name != "not a model file at all" else path.replace("model.safetensors", "model.bin")
        if name == "not a model file at all":
            os.replace(path, target)
        p = subprocess.run([args.cli, "trace", "--model", target, "--text", "The dog"], capture_output=True)
        err = p.stderr.decode("utf-8")  # must be UTF-8
        lines = err.splitlines()
        ok = (p.returncode == 2 and len(lines) == 1 and lines[0].startswith("attnlab: ") and expected in lines[0]
              and not p.stdout)
        print(("ok   " if ok else "FAIL ") + f"{name}: exit {p.returncode}: {err.strip()[:300]}")
        if not ok:
            failures += 1
            print(f"     expected one line containing {expected!r}")
    # a good file with an option that does not fit: --weights writes JSON only
    folder = os.path.join(args.work, "good")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "model.safetensors"), "wb") as f:
        f.write(good)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(ckpt.config_json(1, 1, 32, positions=16), f)
    p = subprocess.run([args.cli, "trace", "--model", folder, "--text", "The dog", "--format", "text",
                        "--weights"], capture_output=True)
    lines = p.stderr.decode("utf-8").splitlines()
    ok = p.returncode == 2 and len(lines) == 1 and "goes with --format json" in lines[0] and not p.stdout
    print(("ok   " if ok else "FAIL ") + f"--weights with --format text: exit {p.returncode}: {lines[:1]}")
    failures += 0 if ok else 1
    if failures:
        sys.exit(1)
    print(f"all {len(cases)} bad files refused")


if __name__ == "__main__":
    main()
