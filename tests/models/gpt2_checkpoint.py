"""Writes GPT-2-format checkpoints with random weights, exactly in Hugging Face's layout (model.safetensors +
config.json), for the tests of src/core/models/ (nothing large is committed: the files are made in the build tree at
test time). The safetensors format: an 8-byte little-endian header length N, N bytes of JSON {name: {"dtype",
"shape", "data_offsets": [begin, end]}, "__metadata__": {...}} padded with spaces to a multiple of 8, then the
tensors' little-endian bytes (offsets relative to the data's start).

Weights: the real 50,257-row wte; the scales are chosen so that attention is far from uniform (q·k/8 spans several
units) and the residual stream stays O(1). Conv1D weights are stored (in, out), as Hugging Face does."""
import json
import struct

import numpy as np

VOCAB = 50257


def gpt2_tensors(layers, heads, d, positions=64, seed=0, head_width=None):
    """The tensors of a GPT-2 checkpoint (float32 numpy arrays) by their names without the prefix."""
    rng = np.random.default_rng(seed)
    f = lambda *shape, scale=1.0: (rng.standard_normal(shape) * scale).astype(np.float32)
    t = {
        "wte.weight": f(VOCAB, d, scale=0.5),
        "wpe.weight": f(positions, d, scale=0.3),
        "ln_f.weight": 1.0 + f(d, scale=0.2),
        "ln_f.bias": f(d, scale=0.1),
    }
    for l in range(layers):
        h = f"h.{l}."
        t[h + "ln_1.weight"] = 1.0 + f(d, scale=0.2)
        t[h + "ln_1.bias"] = f(d, scale=0.1)
        # q·k grows with d; scale so that scores/8 span a few units: attention is peaked, not uniform
        t[h + "attn.c_attn.weight"] = f(d, 3 * d, scale=1.6 / np.sqrt(d))
        t[h + "attn.c_attn.bias"] = f(3 * d, scale=0.3)
        t[h + "attn.c_proj.weight"] = f(d, d, scale=1.0 / np.sqrt(d))
        t[h + "attn.c_proj.bias"] = f(d, scale=0.1)
        # the causal-mask buffer Hugging Face stores (ignored by the reader)
        t[h + "attn.bias"] = np.tril(np.ones((positions, positions), dtype=np.float32)).reshape(1, 1, positions, positions)
        t[h + "ln_2.weight"] = 1.0 + f(d, scale=0.2)
        t[h + "ln_2.bias"] = f(d, scale=0.1)
        t[h + "mlp.c_fc.weight"] = f(d, 4 * d, scale=1.0 / np.sqrt(d))
        t[h + "mlp.c_fc.bias"] = f(4 * d, scale=0.1)
        t[h + "mlp.c_proj.weight"] = f(4 * d, d, scale=1.0 / np.sqrt(4 * d))
        t[h + "mlp.c_proj.bias"] = f(d, scale=0.1)
    return t


def config_json(layers, heads, d, positions=64, eps=1e-5, activation="gelu_new"):
    return {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_layer": layers, "n_head": heads,
            "n_embd": d, "n_positions": positions, "n_ctx": positions, "layer_norm_epsilon": eps,
            "activation_function": activation, "vocab_size": VOCAB}


def safetensors_bytes(tensors, dtype="F32", prefix="", header_extra=None):
    """The file's bytes: tensors (name -> float32 array) stored as F32, F16 or BF16 (the attn.bias buffers F32)."""
    header, chunks, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, array in tensors.items():
        a = np.ascontiguousarray(array, dtype=np.float32)
        kind = "F32" if name.endswith(".attn.bias") else dtype
        if kind == "F32":
            data = a.astype("<f4").tobytes()
        elif kind == "F16":
            data = a.astype("<f2").tobytes()
        else:  # BF16: the top 16 bits of the float32, rounded to nearest even
            bits = a.view(np.uint32).astype(np.uint64)
            rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype("<u2")
            data = rounded.tobytes()
        header[prefix + name] = {"dtype": kind, "shape": list(a.shape), "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    if header_extra:
        header.update(header_extra)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(chunks)


def stored_values(array, dtype):
    """The float32 values a reader gets back from a tensor stored as dtype."""
    a = np.asarray(array, dtype=np.float32)
    if dtype == "F16":
        return a.astype(np.float16).astype(np.float32)
    if dtype == "BF16":
        bits = a.view(np.uint32).astype(np.uint64)
        return (((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16).astype(np.uint32).view(np.float32)
    return a
