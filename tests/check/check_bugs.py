#!/usr/bin/env python3
"""`attnlab inputs` and `attnlab check` end to end, against a learner's numpy (learner_bugs.py): for each listed bug
a result made with exactly that bug, in each of the three formats (.npy, JSON, CSV), must be diagnosed with the bug's
id first; the right results must match; bad files must be refused (exit 2, one line); a configuration that hides a
bug must say so and suggest one that does not (checked by running the bug there); the numpy starter printed in
README.md must run against the exported .npz and match.

  check_bugs.py --readme README.md [--quick] [--require FILE] CLI...
CLI: the command, e.g. build/native/attnlab, or node --no-experimental-fetch build/wasm-cli/attnlab.js.
--quick: the same contract in a few runs (the WebAssembly CLI, where each run costs a node start and compiling
2 MB of wasm): the inputs in the three formats, three bugs (one per format: NaN tokens, a shape a bug explains),
every head's right O, two bad files. --require FILE: exit 77
(skipped) when FILE does not exist. Needs Debian's /usr/bin/python3 with numpy."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import learner_bugs  # noqa: E402

FAILURES = []


def fail(message):
    FAILURES.append(message)
    print("FAIL: " + message)


def run(cli, args, expect_code=0):
    proc = subprocess.run(cli + args, capture_output=True, text=True, timeout=120)
    if proc.returncode != expect_code:
        fail(f"{' '.join(args)}: exit {proc.returncode}, expected {expect_code}; stderr: {proc.stderr.strip()}")
    return proc


def write_result(path_base, array, fmt):
    """The learner's result in one format; returns the file's path."""
    if fmt == "npy":
        np.save(path_base + ".npy", np.ascontiguousarray(array))
        return path_base + ".npy"
    if fmt == "npy32":
        np.save(path_base + ".f32.npy", np.ascontiguousarray(array, dtype=np.float32))
        return path_base + ".f32.npy"
    if fmt == "json":
        with open(path_base + ".json", "w") as f:
            json.dump(array.tolist(), f)  # NaN and Infinity as Python's json writes them
        return path_base + ".json"
    np.savetxt(path_base + ".csv", array, delimiter=",")
    return path_base + ".csv"


def check(cli, config, name, head, path):
    args = ["check", "--config", config, "--matrix", name, "--result", path, "--format", "json"]
    if head is not None:
        args += ["--head", str(head)]
    proc = run(cli, args)
    if proc.returncode != 0:
        return None
    return json.loads(proc.stdout)


def load(npz):
    with np.load(npz) as z:
        return {k: z[k] for k in z.files}


def bad_files(tmp, cli, self_cfg, A, quick):
    """Bad files: exit 2 with one line naming the problem."""
    good = os.path.join(tmp, "good.npy")
    np.save(good, A)
    raw = open(good, "rb").read()
    bad = {
        "truncated.npy": (raw[:-5], "truncated"),
        "fortran.npy": (None, "Fortran"),
        "int.npy": (None, "not float32 or float64"),
        "ragged.json": (b"[[1, 2], [3]]", "same length"),
        "words.csv": (b"1,2\n3,abc\n", "not a number"),
        "empty.json": (b"", "empty"),
        "wrong-shape.json": (json.dumps(np.zeros((7, 4)).tolist()).encode(), "7x4"),
        "unexplained-nan.json": (None, "NaN"),
    }
    for fname, (content, words) in bad.items():
        if quick and fname not in ("truncated.npy", "words.csv"):
            continue
        path = os.path.join(tmp, fname)
        if fname == "fortran.npy":
            np.save(path, np.asfortranarray(A + 0))
            with open(path, "rb") as f:
                if b"'fortran_order': True" not in f.read():
                    fail("numpy did not write a Fortran-order file")
        elif fname == "int.npy":
            np.save(path, np.arange(49, dtype=np.int64).reshape(7, 7))
        elif fname == "unexplained-nan.json":
            nan = A.copy()
            nan[2, 2] = np.nan
            with open(path, "w") as f:
                json.dump(nan.tolist(), f)
        else:
            with open(path, "wb") as f:
                f.write(content)
        proc = run(cli, ["check", "--config", self_cfg, "--matrix", "A", "--head", "0", "--result", path], 2)
        lines = proc.stderr.strip().splitlines()
        if len(lines) != 1 or not lines[0].startswith("attnlab: ") or words not in lines[0]:
            fail(f"{fname}: expected one 'attnlab: ' line mentioning {words!r}, got {proc.stderr!r}")
    if quick:
        return
    run(cli, ["check", "--config", self_cfg, "--matrix", "A", "--result", good], 2)  # 2 heads: which one?
    run(cli, ["check", "--config", self_cfg, "--matrix", "Q", "--head", "0", "--result", good], 2)


def finish(tmp, cases, cli=None, self_cfg=None, A=None):
    if cli is not None:
        bad_files(tmp, cli, self_cfg, A, quick=True)
    print(f"{cases} bug results checked; {len(FAILURES)} failures")
    if FAILURES:
        print(f"files kept in {tmp}")
        return 1
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readme", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--require")
    ap.add_argument("cli", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if a.require and not os.path.exists(a.require):
        print(f"skipped: {a.require} does not exist (build it first)")
        return 77
    cli = a.cli
    tmp = tempfile.mkdtemp(prefix="attnlab-check-")

    def config_file(name, cfg):
        path = os.path.join(tmp, name + ".json")
        with open(path, "w") as f:
            json.dump(cfg, f)
        return path

    # A self-attention layer with a causal mask, 2 heads, d_k = d_v = 3 (v-for-k can happen), h·d_v = 6 != d_model.
    base = {"text": "the cat sat on the warm mat", "d_model": 8, "heads": 2, "d_k": 3, "d_v": 3, "mask": "causal",
            "seed": 7}
    self_cfg = config_file("self", base)
    npz = os.path.join(tmp, "self.npz")
    run(cli, ["inputs", "--config", self_cfg, "--out", npz])
    d = load(npz)
    expected_keys = {"X", "W_q", "W_k", "W_v", "W_o", "W_q_heads", "W_k_heads", "W_v_heads", "mask", "scale", "heads",
                     "d_k", "d_v"}
    if set(d) != expected_keys:
        fail(f"inputs.npz holds {sorted(d)}, expected {sorted(expected_keys)}")
    if not np.array_equal(d["W_q_heads"][1], d["W_q"][:, 3:6]):
        fail("W_q_heads[1] is not columns 3..5 of W_q")
    # The same inputs as JSON and CSV.
    run(cli, ["inputs", "--config", self_cfg, "--out", os.path.join(tmp, "self-inputs.json")])
    with open(os.path.join(tmp, "self-inputs.json")) as f:
        dj = json.load(f)
    if not np.array_equal(np.array(dj["W_o"]), d["W_o"]) or not np.array_equal(np.array(dj["mask"]), d["mask"]):
        fail("inputs JSON differs from the .npz")
    csv_dir = os.path.join(tmp, "self-csv")
    run(cli, ["inputs", "--config", self_cfg, "--out", csv_dir])
    if not np.array_equal(np.loadtxt(os.path.join(csv_dir, "X.csv"), delimiter=",", ndmin=2), d["X"]) or \
            not np.array_equal(np.loadtxt(os.path.join(csv_dir, "mask.csv"), delimiter=","), d["mask"]):
        fail("inputs CSV differs from the .npz")

    formats = ["npy", "json", "csv"]
    quick_bugs = {"missing-scale": "npy", "mask-off-by-one": "json", "missing-w-o": "csv"}
    if not a.quick:  # the same layer with X scaled until the scores overflow e^s in float64: no-max-subtraction
        big = dict(base, X=(d["X"] * 60).tolist())
        big_cfg = config_file("big", big)
        big_npz = os.path.join(tmp, "big.npz")
        run(cli, ["inputs", "--config", big_cfg, "--out", big_npz])
        dbig = load(big_npz)

    cases = 0
    for bug, fn in learner_bugs.BUGS.items():
        if a.quick and bug not in quick_bugs:
            continue
        cfg, inputs = (big_cfg, dbig) if bug == "no-max-subtraction" else (self_cfg, d)
        name, head, array = fn(inputs)
        if bug in ("no-max-subtraction", "mask-off-by-one") and not np.isnan(array).any():
            fail(f"{bug}: the learner's result has no NaN; the test configuration does not show the bug")
        fmts = formats + (["npy32"] if bug == "no-max-subtraction" else [])
        if a.quick:
            fmts = [quick_bugs[bug]]
        for fmt in fmts:
            cases += 1
            if fmt == "csv" and array.ndim != 2:
                continue
            path = write_result(os.path.join(tmp, bug), array, fmt)
            out = check(cli, cfg, name, head, path)
            if out is None:
                continue
            if out["match"] or not out["diagnoses"] or out["diagnoses"][0] != bug:
                fail(f"{bug} ({fmt}): diagnoses {out['diagnoses']}, match {out['match']}; expected {bug} first")
            elif bug not in out["fixes"]:
                fail(f"{bug} ({fmt}): no fix text")
    for fn in learner_bugs.CORRECT:
        if a.quick and fn is not learner_bugs.correct_O_every_head:
            continue
        name, head, array = fn(d)
        for fmt in (["npy"] if a.quick else formats):
            if fmt == "csv" and array.ndim != 2:
                continue
            path = write_result(os.path.join(tmp, fn.__name__), array, fmt)
            out = check(cli, self_cfg, name, head, path)
            if out and (not out["match"] or out["first_wrong"] is not None or out["diagnoses"]):
                fail(f"{fn.__name__} ({fmt}): expected a match, got {out}")

    name, head, A = learner_bugs.correct_A(d)
    if a.quick:
        return finish(tmp, cases, cli, self_cfg, A)
    # A wrong cell: where and both numbers.
    wrong = A.copy()
    wrong[3, 1] += 0.01
    out = check(cli, self_cfg, "A", 0, write_result(os.path.join(tmp, "one-wrong"), wrong, "json"))
    if out:
        fw = out["first_wrong"]
        if out["match"] or fw is None or (fw["head"], fw["row"], fw["col"]) != (0, 3, 1) or \
                abs(fw["expected"] - A[3, 1]) > 1e-12 or abs(fw["yours"] - wrong[3, 1]) > 1e-12:
            fail(f"one wrong cell: got {out}")
        elif abs(out["max_abs_diff"] - 0.01) > 1e-9 or out["diagnoses"]:
            fail(f"one wrong cell: max_abs_diff {out['max_abs_diff']}, diagnoses {out['diagnoses']}")

    bad_files(tmp, cli, self_cfg, A, quick=False)

    # A saturated layer hides a missing scale: "cannot tell", and the configuration it suggests tells.
    sat_cfg = config_file("saturated", dict(base, X=(d["X"] * 300).tolist()))
    sat_npz = os.path.join(tmp, "saturated.npz")
    run(cli, ["inputs", "--config", sat_cfg, "--out", sat_npz])
    ds = load(sat_npz)
    name, head, hidden = learner_bugs.missing_scale(ds)
    out = check(cli, sat_cfg, name, head, write_result(os.path.join(tmp, "saturated-missing-scale"), hidden, "npy"))
    suggested = None
    if out:
        tells = {c["bug"]: c["config"] for c in out["cannot_tell"]}
        if not out["match"] or "missing-scale" not in tells or tells["missing-scale"] is None:
            fail(f"saturated: expected a match that cannot tell missing-scale, with a configuration; got {out}")
        else:
            suggested = config_file("suggested", tells["missing-scale"])
    if suggested:
        sug_npz = os.path.join(tmp, "suggested.npz")
        run(cli, ["inputs", "--config", suggested, "--out", sug_npz])
        dsug = load(sug_npz)
        for key in ("X", "W_q", "W_o", "mask"):
            if dsug[key].shape != ds[key].shape:
                fail(f"the suggested configuration changes the shape of {key}")
        name, head, revealed = learner_bugs.missing_scale(dsug)
        out = check(cli, suggested, name, head, write_result(os.path.join(tmp, "suggested-missing"), revealed, "npy"))
        if out and (out["match"] or out["diagnoses"][:1] != ["missing-scale"]):
            fail(f"the suggested configuration does not tell missing-scale: {out}")

    # README's numpy starter, as printed, against the exported .npz: the layer above (no biases) and the same layer
    # with a GPT-2 block's biases b_q, b_k, b_v, b_o (the inputs carry them; Q = X·W_q + b_q … output + b_o).
    rng = np.random.default_rng(3)
    biased = dict(base, **{n: rng.uniform(-1, 1, (1, w)).tolist()
                           for n, w in (("b_q", 6), ("b_k", 6), ("b_v", 6), ("b_o", 8))})
    biased_cfg = config_file("biased", biased)
    biased_npz = os.path.join(tmp, "biased.npz")
    run(cli, ["inputs", "--config", biased_cfg, "--out", biased_npz])
    if not {"b_q", "b_k", "b_v", "b_o"} <= set(load(biased_npz)):
        fail(f"the biased layer's inputs.npz holds {sorted(load(biased_npz))}, without b_q … b_o")
    with open(a.readme, encoding="utf-8") as f:
        readme = f.read()
    m = re.search(r"<!-- check-starter -->\s*```python\n(.*?)```", readme, re.S)
    if not m:
        fail("README.md has no numpy starter after <!-- check-starter -->")
    for label, cfg_path, npz_path in (("starter", self_cfg, npz), ("starter-biased", biased_cfg, biased_npz)):
        if not m:
            break
        work = os.path.join(tmp, label)
        os.makedirs(work)
        os.symlink(npz_path, os.path.join(work, "inputs.npz"))
        proc = subprocess.run([sys.executable, "-c", m.group(1)], cwd=work, capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            fail(f"README's starter fails ({label}): {proc.stderr.strip()}")
            continue
        for name in ("A", "O", "output"):
            path = os.path.join(work, name + ".npy")
            if not os.path.exists(path):
                fail(f"README's starter did not write {name}.npy ({label})")
                continue
            out = check(cli, cfg_path, name, None, path)
            if out and not out["match"]:
                fail(f"README's starter ({label}): {name} does not match: {out}")

    return finish(tmp, cases)


if __name__ == "__main__":
    sys.exit(main())
