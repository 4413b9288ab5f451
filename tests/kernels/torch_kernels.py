#!/usr/bin/env python3
"""ctest kernels_torch_reference: the forward kernels (src/core/kernels/layer_norm.h, gelu.h, bias.h) against PyTorch.

Runs kernels_dump (this folder), which writes each kernel's inputs and outputs for fixed inputs in float32 and
float64, and recomputes them with torch.nn.functional in float64 on the very same inputs:
  layer_norm(x, (d,), gamma, beta, eps)   F.gelu(x, approximate='tanh')   F.gelu(x)   x + b
Errors are |ours - torch| / max(|torch|, floor): floor = 1e-3·|x| for GELU (in its negative tail y -> 0 while the
formula's own rounding, torch's 1 + tanh and 1 + erf, is about |x|·eps) and 1e-3 for layer norm (outputs of order 1).
Limits: float32 within 2 ulp (of float32 at that scale) of torch's float64 result rounded, float64 within 1e-12.
For scale, torch's own float32 result is measured the same way and printed. Exit 77 (skip) without torch.
Usage: torch_kernels.py KERNELS_DUMP
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import torch
    import torch.nn.functional as F
except ImportError as e:  # Debian: apt-get install python3-torch python3-numpy
    print(f"skipped: {e}")
    sys.exit(77)

FLOAT32_ULPS = 2.0
FLOAT64_RELATIVE = 1e-12


def array(entry, key, dtype):
    return np.array([float.fromhex(v) for v in entry[key]], dtype=np.float64).astype(dtype).reshape(
        entry["shape"] if key in ("x", "y") else (1, -1))


def torch_result(kernel, x, gamma, beta, eps):
    t = torch.from_numpy(x)
    if kernel == "layer_norm":
        return F.layer_norm(t, (x.shape[1],), torch.from_numpy(gamma[0]), torch.from_numpy(beta[0]), eps).numpy()
    if kernel == "gelu_tanh":
        return F.gelu(t, approximate="tanh").numpy()
    if kernel == "gelu_erf":
        return F.gelu(t).numpy()
    if kernel == "bias_add":
        return (t + torch.from_numpy(beta)).numpy()
    raise ValueError(kernel)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "kernels.json")
        subprocess.run([sys.argv[1], out], check=True)
        with open(out) as f:
            cases = json.load(f)
    failures = 0
    for name, e in cases.items():
        dtype = np.float32 if e["dtype"] == "float32" else np.float64
        x = array(e, "x", dtype)
        gamma = array(e, "gamma", dtype) if "gamma" in e else None
        beta = array(e, "beta", dtype) if "beta" in e else None
        ours = array(e, "y", dtype).astype(np.float64)
        eps = float.fromhex(e["eps"])
        up = lambda a: None if a is None else a.astype(np.float64)
        reference = torch_result(e["kernel"], up(x), up(gamma), up(beta), eps)  # float64 on the same inputs
        floor = 1e-3 * np.abs(x.astype(np.float64)) if e["kernel"].startswith("gelu") else 1e-3
        scale = np.maximum(np.abs(reference), floor)
        scale[scale == 0] = 1.0
        if dtype == np.float32:
            reference = reference.astype(np.float32).astype(np.float64)  # the float64 result rounded
            unit = np.finfo(np.float32).eps  # one ulp at 1
            err = np.max(np.abs(ours - reference) / scale) / unit
            theirs = torch_result(e["kernel"], x, gamma, beta, eps).astype(np.float64)  # torch in float32
            torch_err = np.max(np.abs(theirs - reference) / scale) / unit
            ok = err <= FLOAT32_ULPS
            print(f"{name:32s} max {err:6.3f} ulp (torch float32 itself: {torch_err:6.3f} ulp)  {'ok' if ok else 'FAIL'}")
        else:
            err = np.max(np.abs(ours - reference) / scale)
            ok = err <= FLOAT64_RELATIVE
            print(f"{name:32s} max relative {err:9.3e}  {'ok' if ok else 'FAIL'}")
        failures += not ok
    print(f"{len(cases) - failures}/{len(cases)} within the limits (float32 <= {FLOAT32_ULPS} ulp, "
          f"float64 <= {FLOAT64_RELATIVE})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
