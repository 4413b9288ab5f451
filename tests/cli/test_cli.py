#!/usr/bin/python3
"""End-to-end tests of the `attnlab` command line: runs the built binary (or the WebAssembly build under node) and
checks its output and the bad-input contract (one "attnlab: ..." line on stderr, exit code 2, never a crash).

Usage: /usr/bin/python3 test_cli.py [--version X.Y.Z] [--require FILE] ATTNLAB [RUNNER_ARGS...]
   e.g. test_cli.py build/native/attnlab
        test_cli.py --require build/wasm-cli/attnlab.js node --no-experimental-fetch build/wasm-cli/attnlab.js
--require: exit 77 (ctest's SKIP_RETURN_CODE) with the reason if FILE does not exist.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

COMMAND = []          # the attnlab command line prefix, set in main()
EXPECTED_VERSION = None

CRASH_MARKERS = ("terminate", "Aborted", "Segmentation", "core dumped", "Assertion", "RuntimeError",
                 "abort(", "uncaught", "Uncaught")


def run(*args, input_text=None, timeout=120):
    proc = subprocess.run(COMMAND + [str(a) for a in args], input=input_text, capture_output=True, text=True,
                          timeout=timeout, errors="replace")
    return proc.returncode, proc.stdout, proc.stderr


def run_json(*args):
    code, out, err = run(*args)
    if code != 0:
        raise AssertionError(f"attnlab {' '.join(map(str, args))} exited {code}: {err}")
    return json.loads(out)


class HelpAndVersion(unittest.TestCase):
    def test_help_lists_every_subcommand(self):
        code, out, err = run("--help")
        self.assertEqual(code, 0, err)
        for sub in ("tokenize", "presets", "trace", "matrices", "softmax", "saturation", "bench"):
            self.assertIn(sub, out)

    def test_subcommand_help_exits_zero(self):
        for sub in ("tokenize", "presets", "trace", "matrices", "softmax", "saturation", "bench"):
            code, out, err = run(sub, "--help")
            self.assertEqual(code, 0, f"{sub} --help: {err}")
            self.assertIn("--", out)

    def test_version(self):
        code, out, err = run("--version")
        self.assertEqual(code, 0, err)
        self.assertTrue(out.startswith("attnlab "), out)
        if EXPECTED_VERSION:
            self.assertIn(EXPECTED_VERSION, out)


class Tokenize(unittest.TestCase):
    def test_word_tokens_and_ids(self):
        t = run_json("tokenize", "--text", "The quick brown fox jumps.")
        self.assertEqual(t["tokens"], ["The", "quick", "brown", "fox", "jumps", "."])
        self.assertEqual(len(t["ids"]), 6)
        self.assertEqual(len(set(t["ids"])), 6)
        self.assertNotIn(0, t["ids"])  # 0 is <pad>, 1 is <bos>

    def test_repeated_word_repeats_id(self):
        t = run_json("tokenize", "--text", "the cat saw the dog")
        self.assertEqual(t["ids"][0], t["ids"][3])

    def test_drop_punctuation_bos_and_padding(self):
        t = run_json("tokenize", "--text", "The quick brown fox jumps.", "--drop-punctuation", "--bos",
                     "--pad-to", "8")
        self.assertEqual(t["tokens"][:6], ["<bos>", "The", "quick", "brown", "fox", "jumps"])
        self.assertEqual(t["tokens"][6:], ["<pad>", "<pad>"])
        self.assertEqual(t["ids"][0], 1)
        self.assertEqual(t["ids"][6:], [0, 0])
        self.assertEqual(t["padding"], [False] * 6 + [True] * 2)

    def test_char_tokenizer_on_chinese(self):
        t = run_json("tokenize", "--text", "我想吃酸菜鱼", "--tokenizer", "char")
        self.assertEqual(t["tokens"], list("我想吃酸菜鱼"))


class Presets(unittest.TestCase):
    def test_text_list_matches_json_list_and_every_preset_traces(self):
        code, out, err = run("presets")
        self.assertEqual(code, 0, err)
        listed = [line.split()[0] for line in out.splitlines() if line.strip()]
        presets = run_json("presets", "--format", "json")
        self.assertEqual(listed, [p["name"] for p in presets])
        self.assertGreaterEqual(len(listed), 8)
        self.assertIn("quick-fox", listed)
        for line in out.splitlines():  # a one-line description after each name
            self.assertGreater(len(line.split(None, 1)[1]), 10, line)
        configs = []
        for name in listed:
            trace = run_json("trace", "--preset", name)
            self.assertTrue(trace["tokens"], name)
            self.assertEqual(trace["config"].get("preset"), name)
            configs.append(trace["config"])
        # Every preset src/DESIGN.md lists is among them (found by its sentence or its dimensions).
        texts = " | ".join(" ".join(str(c.get(k, "")) for k in ("text", "query_text", "compare_text"))
                           for c in configs)
        for phrase in ("The quick brown fox jumps", "I want to eat sauerkraut fish", "我想吃酸菜鱼", "i love sushi",
                       "Give me a second, please.", "I came second in the exam.", "My dog chases after the thief.",
                       "The Law will never be perfect"):
            self.assertIn(phrase, texts)
        self.assertTrue(any(c.get("cross") and c.get("query_bos") for c in configs), "translation preset")
        self.assertTrue(any((c["d_model"], c["heads"], c["d_k"], c["d_v"]) == (512, 8, 64, 64) for c in configs))
        self.assertTrue(any((c["d_model"], c["d_k"]) == (768, 768) for c in configs))


def matrix_ok(test, m, rows=None, cols=None, name=""):
    test.assertIn("shape", m, name)
    test.assertIn("data", m, name)
    r, c = m["shape"]
    test.assertEqual(len(m["data"]), r, name)
    for row in m["data"]:
        test.assertEqual(len(row), c, name)
    if rows is not None:
        test.assertEqual(r, rows, name)
    if cols is not None:
        test.assertEqual(c, cols, name)
    return m["data"]


class Trace(unittest.TestCase):
    def test_json_keys_and_shapes(self):
        t = run_json("trace", "--text", "My dog chases after the thief.", "--d-model", "12", "--heads", "3",
                     "--d-k", "5", "--d-v", "2", "--seed", "7", "--mask", "causal")
        for key in ("tokens", "config", "heads", "concat", "output"):
            self.assertIn(key, t)
        L = len(t["tokens"])
        self.assertEqual(L, 7)
        self.assertEqual(len(t["heads"]), 3)
        for i, head in enumerate(t["heads"]):
            matrix_ok(self, head["Q"], L, 5, f"head {i} Q")
            matrix_ok(self, head["K"], L, 5, f"head {i} K")
            matrix_ok(self, head["V"], L, 2, f"head {i} V")
            for name in ("S", "S_scaled", "A"):
                matrix_ok(self, head[name], L, L, f"head {i} {name}")
            matrix_ok(self, head["O"], L, 2, f"head {i} O")
            for r, row in enumerate(head["A"]["data"]):
                self.assertAlmostEqual(sum(row), 1.0, places=12)
                for c in range(r + 1, L):  # causal: no weight on later keys
                    self.assertEqual(row[c], 0.0)
        matrix_ok(self, t["concat"], L, 6, "concat")
        matrix_ok(self, t["output"], L, 12, "output")

    def test_quick_fox_exact_numbers(self):
        t = run_json("trace", "--preset", "quick-fox")
        self.assertEqual([tok["text"] if isinstance(tok, dict) else tok for tok in t["tokens"]],
                         ["The", "quick", "brown", "fox", "jumps"])
        head = t["heads"][0]
        self.assertEqual(head["Q"]["data"][1], [0.5, 0.6])
        self.assertEqual(head["K"]["data"][1], [0.6, 0.5])
        self.assertEqual(head["V"]["data"][1], [0.7, 0.8])

    def test_seed_is_deterministic_and_matters(self):
        a = run_json("trace", "--text", "i love sushi", "--seed", "3")
        b = run_json("trace", "--text", "i love sushi", "--seed", "3")
        c = run_json("trace", "--text", "i love sushi", "--seed", "4")
        self.assertEqual(a["output"], b["output"])
        self.assertNotEqual(a["output"], c["output"])

    def test_options_override_a_preset(self):
        t = run_json("trace", "--preset", "quick-fox", "--mask", "causal")
        self.assertEqual(t["heads"][0]["A"]["data"][0][1:], [0.0] * 4)

    def test_cross_attention_shapes(self):
        t = run_json("trace", "--text", "the cat sat", "--query-text", "le chat", "--bos", "--heads", "1")
        self.assertEqual(len(t["tokens"]), 3)
        head = t["heads"][0]
        matrix_ok(self, head["S"], 3, 3)  # <bos> le chat x the cat sat
        matrix_ok(self, head["A"], 3, 3)

    def test_scale_options(self):
        none = run_json("trace", "--text", "a b c", "--scale", "none")
        for head in none["heads"]:
            self.assertEqual(head["S"]["data"], head["S_scaled"]["data"])
        custom = run_json("trace", "--text", "a b c", "--scale", "0.25")
        for head in custom["heads"]:
            for srow, trow in zip(head["S"]["data"], head["S_scaled"]["data"]):
                for s, v in zip(srow, trow):
                    self.assertAlmostEqual(v, s * 0.25, places=12)

    def test_text_format_is_readable(self):
        code, out, err = run("trace", "--preset", "quick-fox", "--format", "text")
        self.assertEqual(code, 0, err)
        for title in ("1. Tokenize", "2. Embed", "4. Project", "5. Score", "6. Scale", "8. Softmax",
                      "9. Weighted sum", "10. Combine heads"):
            self.assertIn(title, out)
        self.assertIn("Q·Kᵀ", out)          # formula from the core
        self.assertIn("(5×2)", out)          # with shapes
        q_block = out[out.index("\nQ "):]
        quick_row = next(line for line in q_block.splitlines() if line.strip().startswith("quick"))
        self.assertEqual(quick_row.split(), ["quick", "0.5000", "0.6000"])
        # every table row of a matrix has its numbers aligned: same line length within a block
        block = q_block.split("\n\n")[0].splitlines()[3:]
        self.assertEqual(len({len(line) for line in block}), 1, block)

    def test_trace_config_reproduces_the_trace(self):
        # The "config" a trace prints is a Config JSON: feeding it back must give the same trace.
        for name in ("quick-fox", "translation"):
            first = run_json("trace", "--preset", name)
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                json.dump(first["config"], f)
            try:
                self.assertEqual(run_json("trace", "--config", f.name), first, name)
            finally:
                os.unlink(f.name)

    def test_config_from_stdin(self):
        config = json.dumps({"X": [[1, 2], [3, 4]], "heads": 1, "d_model": 2, "d_k": 2, "d_v": 2})
        code, out, err = run("trace", "--config", "-", input_text=config)
        self.assertEqual(code, 0, err)
        self.assertEqual(json.loads(out)["output"]["shape"], [2, 2])
        code, out, err = run("trace", "--config", "-", input_text="{oops")
        self.assertEqual(code, 2)
        self.assertTrue(err.startswith("attnlab: "), err)

    def test_config_file_round_trip(self):
        config = {"X": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]], "heads": 1, "d_model": 4, "d_k": 4, "d_v": 4,
                  "W_q": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(config, f)
        try:
            t = run_json("trace", "--config", f.name)
            self.assertEqual(t["heads"][0]["Q"]["data"], [[1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0]])
        finally:
            os.unlink(f.name)


class Softmax(unittest.TestCase):
    def test_paper_example(self):
        code, out, err = run("softmax", "1", "2", "3", "4")
        self.assertEqual(code, 0, err)
        self.assertIn("0.032058603280084", out)
        self.assertIn("0.643914259887972", out)
        self.assertIn("entropy", out)
        self.assertIn("max weight", out)

    def test_scaled_by_ten(self):
        code, out, err = run("softmax", "1", "2", "3", "4", "--scale", "10")
        self.assertEqual(code, 0, err)
        self.assertIn("9.357198133414", out)
        self.assertIn("e-14", out)
        self.assertIn("2.06106004620", out)
        self.assertIn("4.53978686", out)
        self.assertIn("0.99995460007", out)

    def test_json(self):
        s = run_json("softmax", "1,2,3,4", "--format", "json")
        expected = [0.0320586, 0.08714432, 0.23688282, 0.64391426]
        for w, e in zip(s["weights"], expected):
            self.assertAlmostEqual(w, e, places=7)
        self.assertAlmostEqual(s["entropy"], -sum(p * math.log(p) for p in s["weights"]), places=12)
        self.assertEqual(s["max_weight"], max(s["weights"]))

    def test_masked_score(self):
        s = run_json("softmax", "--format", "json", "--", "-inf", "0", "0")
        self.assertEqual(s["weights"], [0.0, 0.5, 0.5])


SATURATION_COLUMNS = ["d_k", "variance_unscaled", "variance_scaled", "entropy_unscaled", "entropy_scaled",
                      "max_weight_unscaled", "max_weight_scaled", "jacobian_norm_unscaled", "jacobian_norm_scaled"]


class Saturation(unittest.TestCase):
    def test_text_rows_and_column_order(self):
        code, out, err = run("saturation", "--dk", "1,16,256", "--samples", "4000")
        self.assertEqual(code, 0, err)
        lines = [line for line in out.splitlines() if line and not line.startswith("#")]
        self.assertEqual(lines[0].split(), SATURATION_COLUMNS)
        rows = [[float(v) for v in line.split()] for line in lines[1:]]
        self.assertEqual([r[0] for r in rows], [1, 16, 256])
        for r in rows:
            dk = r[0]
            self.assertAlmostEqual(r[1] / dk, 1.0, delta=0.25)  # Var(q·k) ~ d_k
            self.assertAlmostEqual(r[2], 1.0, delta=0.25)       # scaled ~ 1
        self.assertLess(rows[2][3], rows[2][4])  # unscaled softmax saturates: lower entropy
        self.assertGreater(rows[2][5], rows[2][6])

    def test_json_array_in_column_order(self):
        code, out, err = run("saturation", "--dk", "2,8", "--format", "json", "--keys", "4", "--seed", "9")
        self.assertEqual(code, 0, err)
        rows = json.loads(out)
        self.assertEqual(len(rows), 2)
        self.assertEqual(list(rows[0].keys()), SATURATION_COLUMNS)
        ordered = json.JSONDecoder(object_pairs_hook=list).decode(out)
        self.assertEqual([k for k, _ in ordered[1]], SATURATION_COLUMNS)


class Bench(unittest.TestCase):
    def test_small_json(self):
        rows = run_json("bench", "--sizes", "8:64:4,16:32:2", "--repeats", "2", "--format", "json")
        self.assertEqual([(r["L"], r["d_model"], r["heads"]) for r in rows], [(8, 64, 4), (16, 32, 2)])
        r = rows[0]
        L, d, h = 8, 64, 4
        self.assertEqual(r["flops"], 2 * L * d * 3 * d + 2 * 2 * L * L * d + 2 * L * d * d)
        self.assertGreater(r["ms_median"], 0)
        self.assertGreater(r["gflops"], 0)

    def test_text(self):
        code, out, err = run("bench", "--sizes", "8:64:4", "--repeats", "1", "--type", "double")
        self.assertEqual(code, 0, err)
        self.assertIn("GFLOP/s", out)


def bad_inputs(tmp):
    """(description, argv) pairs, each of which must exit 2 with one 'attnlab: ' line on stderr."""
    missing = os.path.join(tmp, "does-not-exist.json")
    files = {
        "malformed": "{\"X\": [[1, 2], [3, 4]",
        "not-json": "hello",
        "empty": "",
        "nan": "{\"X\": [[NaN, 1]], \"heads\": 1}",
        "wrong-shape": "{\"X\": [[1, 2], [3, 4]], \"W_q\": [[1, 2, 3]], \"heads\": 1, \"d_model\": 2, \"d_k\": 2, "
                       "\"d_v\": 2}",
        "ragged": "{\"X\": [[1, 2], [3]], \"heads\": 1}",
        "huge-value": "{\"X\": [[1e300, 2]], \"heads\": 1, \"d_model\": 2, \"d_k\": 2, \"d_v\": 2}",
        "unknown-key": "{\"X\": [[1, 2]], \"bogus\": 3}",
        "array": "[1, 2, 3]",
        "zero-heads": "{\"text\": \"a b\", \"heads\": 0}",
        "xq-without-cross": "{\"X_q\": [[1, 2]], \"cross\": false}",
    }
    paths = {}
    for name, content in files.items():
        paths[name] = os.path.join(tmp, name + ".json")
        with open(paths[name], "w") as f:
            f.write(content)
    long_text = "word " * 600  # > 512 tokens
    return [
        ("unknown subcommand", ["frobnicate"]),
        ("no subcommand", []),
        ("unknown option", ["trace", "--bogus"]),
        ("unknown option to softmax", ["softmax", "1", "--bogus"]),
        ("d_k not a number", ["trace", "--d-k", "abc"]),
        ("d_k zero", ["trace", "--d-k", "0"]),
        ("d_k negative", ["trace", "--d-k", "-3"]),
        ("d_k huge", ["trace", "--d-k", "100000"]),
        ("d_model overflow", ["trace", "--d-model", "99999999999999999999"]),
        ("every dimension at its limit", ["trace", "--d-model", "1024", "--heads", "16", "--d-k", "1024",
                                          "--d-v", "1024"]),
        ("heads zero", ["trace", "--heads", "0"]),
        ("heads huge", ["trace", "--heads", "1000"]),
        ("d_v float", ["trace", "--d-v", "2.5"]),
        ("seed not a number", ["trace", "--seed", "abc"]),
        ("seed negative", ["trace", "--seed", "-1"]),
        ("seed overflow", ["trace", "--seed", "99999999999999999999999"]),
        ("scale abc", ["trace", "--scale", "abc"]),
        ("scale nan", ["trace", "--scale", "nan"]),
        ("scale inf", ["trace", "--scale", "inf"]),
        ("scale huge", ["trace", "--scale", "1e300"]),
        ("mask unknown", ["trace", "--mask", "sideways"]),
        ("tokenizer unknown", ["trace", "--tokenizer", "bpe9"]),
        ("format unknown", ["trace", "--format", "xml"]),
        ("pad-to huge", ["trace", "--pad-to", "100000"]),
        ("empty text", ["trace", "--text", ""]),
        ("blank text", ["trace", "--text", "   "]),
        ("text too many tokens", ["trace", "--text", long_text]),
        ("text too long", ["trace", "--text", "x" * 20000]),
        ("empty query text", ["trace", "--query-text", ""]),
        ("unknown preset", ["trace", "--preset", "no-such-preset"]),
        ("preset and config", ["trace", "--preset", "quick-fox", "--config", paths["malformed"]]),
        ("config missing", ["trace", "--config", missing]),
        ("config is a directory", ["trace", "--config", tmp]),
        ("config option without value", ["trace", "--config"]),
    ] + [(f"config {name}", ["trace", "--config", path]) for name, path in paths.items()] + [
        ("tokenize empty", ["tokenize", "--text", ""]),
        ("tokenize no text", ["tokenize"]),
        ("tokenize pad-to negative", ["tokenize", "--text", "a", "--pad-to", "-1"]),
        ("tokenize too many tokens", ["tokenize", "--text", long_text]),
        ("softmax no numbers", ["softmax"]),
        ("softmax abc", ["softmax", "1", "abc"]),
        ("softmax nan", ["softmax", "1", "nan"]),
        ("softmax NaN", ["softmax", "NaN", "2"]),
        ("softmax inf", ["softmax", "1", "inf"]),
        ("softmax huge", ["softmax", "1", "1e308"]),
        ("softmax overflow", ["softmax", "1", "1e400"]),
        ("softmax scale nan", ["softmax", "1", "2", "--scale", "nan"]),
        ("softmax scale huge", ["softmax", "1", "2", "--scale", "1e12"]),
        ("softmax empty item", ["softmax", "1,,2"]),
        ("saturation dk zero", ["saturation", "--dk", "0"]),
        ("saturation dk abc", ["saturation", "--dk", "4,abc"]),
        ("saturation dk huge", ["saturation", "--dk", "100000"]),
        ("saturation samples zero", ["saturation", "--samples", "0"]),
        ("saturation samples huge", ["saturation", "--samples", "1000000000000"]),
        ("saturation keys zero", ["saturation", "--keys", "0"]),
        ("saturation seed bad", ["saturation", "--seed", "x"]),
        ("bench sizes malformed", ["bench", "--sizes", "8:64"]),
        ("bench sizes abc", ["bench", "--sizes", "a:b:c"]),
        ("bench sizes indivisible", ["bench", "--sizes", "8:63:4"]),
        ("bench sizes huge", ["bench", "--sizes", "100000:64:4"]),
        ("bench sizes zero", ["bench", "--sizes", "0:64:4"]),
        ("bench sizes empty", ["bench", "--sizes", ""]),
        ("bench repeats zero", ["bench", "--repeats", "0"]),
        ("bench type", ["bench", "--type", "int8"]),
        ("matrices format", ["matrices", "--format", "yaml"]),
        ("seed beyond 2^53-1", ["trace", "--text", "a b", "--seed", "9007199254740992"]),
        ("scale word", ["trace", "--text", "a b", "--scale", "loud"]),
        ("X_q without cross", ["trace", "--config", paths["xq-without-cross"]]),
    ]


class Matrices(unittest.TestCase):
    """`attnlab matrices` prints the registry: every matrix the trace JSON can hold, and nothing else."""

    def trace_matrix_names(self, trace):
        names = {k for k, v in trace.items() if isinstance(v, dict) and "shape" in v and "data" in v}
        for head in trace["heads"]:
            names |= {k for k, v in head.items() if isinstance(v, dict) and "shape" in v and "data" in v}
        return names

    def test_json_lists_exactly_the_trace_matrices(self):
        registry = run_json("matrices", "--format", "json")
        names = {m["name"] for m in registry if m["kind"] == "value"}
        self.assertEqual({m["kind"] for m in registry}, {"value", "gradient", "pretrained"})
        trace = run_json("trace", "--preset", "translation")
        self.assertEqual(names, self.trace_matrix_names(trace))  # a forward trace: every value, no gradient
        by_name = {m["name"]: m for m in registry}
        self.assertEqual(by_name["S"]["shape"], "(L_q, L_kv)")
        self.assertTrue(by_name["A"]["per_head"])
        self.assertEqual(by_name["A"]["inputs"], ["S_masked"])
        self.assertTrue(by_name["W_q"]["editable"])
        self.assertFalse(by_name["Q"]["editable"])
        self.assertEqual(by_name["W_q"]["json_shape"], "(d_model, h·d_k)")
        self.assertIn("Wq", by_name["W_q"]["aliases"])
        for m in registry:
            if m["kind"] == "pretrained":  # a GPT-2 block's (tests/models): not in a preset's trace
                self.assertNotIn(m["name"], trace, m["name"])
                continue
            if m["kind"] != "value":
                self.assertTrue(m["gradient_of"], m["name"])
                continue
            where = trace if m["json_place"] == "top level" else trace["heads"][0]
            self.assertIn(m["name"], where, m["name"])
            self.assertTrue(m["formula"], m["name"])

    def test_text_is_a_table(self):
        code, out, err = run("matrices")
        self.assertEqual(code, 0, err)
        lines = out.splitlines()
        self.assertTrue(lines[0].startswith("name"), lines[0])
        for name in ("S_scaled", "W_o", "concat", "compare_E"):
            self.assertTrue(any(line.startswith(name + " ") for line in lines), name)
        self.assertIn("(L_q, L_kv)", out)


class ConfigDialect(unittest.TestCase):
    def test_scale_default_none_number(self):
        for value, factor in (("default", 0.5), ("inv-sqrt-dk", 0.5), ("none", 1.0), ("0.25", 0.25)):
            t = run_json("trace", "--text", "a b", "--d-k", "4", "--scale", value)
            self.assertAlmostEqual(t["scale"], factor, msg=value)
            expected = {"default": "default", "inv-sqrt-dk": "default", "none": "none"}.get(value, 0.25)
            self.assertEqual(t["config"]["scale"], expected, value)

    def test_seed_range(self):
        t = run_json("trace", "--text", "a b", "--seed", "9007199254740991")
        self.assertEqual(t["config"]["seed"], 9007199254740991)


class BadInput(unittest.TestCase):
    def test_every_bad_input_exits_2_with_one_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            failures = []
            for description, argv in bad_inputs(tmp):
                code, out, err = run(*argv)
                lines = err.strip().splitlines()
                problems = []
                if code != 2:
                    problems.append(f"exit code {code}")
                if len(lines) != 1 or not lines[0].startswith("attnlab: ") or len(lines[0]) < 15:
                    problems.append(f"stderr not one 'attnlab: ' line: {err!r}")
                if any(marker in err for marker in CRASH_MARKERS):
                    problems.append(f"crash marker in stderr: {err!r}")
                if problems:
                    failures.append(f"{description} ({' '.join(argv)[:60]}): {'; '.join(problems)}")
            self.assertFalse(failures, "\n" + "\n".join(failures))

    def test_invalid_utf8_is_not_an_error(self):
        code, out, err = run("tokenize", "--text", "caf\udce9 ok")  # lone 0xE9 byte via surrogateescape
        self.assertEqual(code, 0, err)
        # Natively the core replaces the byte and says so; under node, node has already decoded argv and
        # replaced it before the program sees it. Either way the token holds U+FFFD.
        self.assertIn("\ufffd", "".join(json.loads(out)["tokens"]))


# ---------------------------------------------------------------- GloVe vectors and GPT-2 tokens
# The data files are build outputs (tools/data); if they were not built these tests skip with the CLI's message,
# and the ctest data_files_built fails instead.
def token_texts(tokens):
    """Token texts of a trace's "tokens" (plain strings, or objects with a "text")."""
    return [t["text"] if isinstance(t, dict) else t for t in tokens]


def require_data(test):
    code, out, err = run("similar", "the", "--top", "1")
    if code != 0 and "not found" in err:
        test.skipTest("data files not built: " + err.strip())


class GloveCommands(unittest.TestCase):
    def setUp(self):
        require_data(self)

    def test_similar_json(self):
        r = run_json("similar", "King", "--top", "5", "--format", "json")
        self.assertEqual(r["word"], "king")
        self.assertEqual(r["dims"], 100)
        words = [n["word"] for n in r["neighbours"]]
        self.assertEqual(len(words), 5)
        self.assertIn("queen", words)
        self.assertNotIn("king", words)
        cosines = [n["cosine"] for n in r["neighbours"]]
        self.assertEqual(cosines, sorted(cosines, reverse=True))
        self.assertTrue(all(-1 <= c <= 1 for c in cosines))

    def test_similar_text_and_fewer_dims(self):
        code, out, err = run("similar", "cat", "--top", "3")
        self.assertEqual(code, 0, err)
        lines = out.splitlines()
        self.assertIn('"cat"', lines[0])
        self.assertEqual(len(lines), 4)
        self.assertTrue(lines[1].split()[0] == "1", lines[1])
        full = [n["word"] for n in run_json("similar", "cat", "--format", "json")["neighbours"]]
        flat = [n["word"] for n in run_json("similar", "cat", "--dims", "2", "--format", "json")["neighbours"]]
        self.assertIn("dog", full)
        self.assertNotEqual(full, flat)  # a 2-d PCA view loses most of the similarity

    def test_analogy_king_man_woman(self):
        r = run_json("analogy", "king", "man", "woman", "--top", "3", "--format", "json")
        answers = [a["word"] for a in r["answers"]]
        self.assertIn("queen", answers)
        for w in ("king", "man", "woman"):
            self.assertNotIn(w, answers)
        code, out, err = run("analogy", "king", "man", "woman")
        self.assertEqual(code, 0, err)
        self.assertIn("queen", out)
        self.assertEqual(len(out.splitlines()), 6)  # a title and the default top 5

    def test_trace_with_glove_rows(self):
        t = run_json("trace", "--text", "king queen", "--embeddings", "glove", "--d-model", "100", "--heads", "1",
                     "--d-k", "4", "--d-v", "4", "--no-pe")
        self.assertEqual(t["config"]["embedding_source"], "glove")
        e = t["E"]["data"]
        dot = sum(a * b for a, b in zip(e[0], e[1]))
        cos = dot / math.sqrt(sum(a * a for a in e[0]) * sum(b * b for b in e[1]))
        queen = [n for n in run_json("similar", "king", "--top", "5", "--format", "json")["neighbours"]
                 if n["word"] == "queen"][0]
        self.assertAlmostEqual(cos, queen["cosine"], places=9)

    def test_presets_with_glove(self):
        poly = run_json("trace", "--preset", "polysemy", "--embeddings", "glove")
        self.assertEqual(poly["E"]["data"][3], poly["compare_E"]["data"][2])  # "second": one row, two sentences
        self.assertTrue(any("GloVe has no vector" in n and '"I"' in n for n in poly["notes"]), poly["notes"])
        fox = run_json("trace", "--preset", "quick-fox", "--embeddings", "glove")
        self.assertEqual(token_texts(fox["tokens"]), ["The", "quick", "brown", "fox", "jumps"])
        self.assertNotEqual(fox["E"]["data"][0], [0.1, 0.2, 0.3, 0.4])  # GloVe rows replace the hand-made ones

    def test_config_json_embedding_source(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "c.json")
            with open(path, "w") as f:
                json.dump({"text": "the cat sat on the mat", "embedding_source": "glove", "d_model": 6, "heads": 1,
                           "d_k": 3, "d_v": 3}, f)
            t = run_json("trace", "--config", path)
            self.assertEqual(t["config"]["embedding_source"], "glove")
            self.assertEqual(t["E"]["data"][0], t["E"]["data"][4])  # "the" twice

    def test_random_rows_stay_the_default(self):
        t = run_json("trace", "--text", "the cat")
        self.assertEqual(t["config"]["embedding_source"], "random")


class Gpt2Commands(unittest.TestCase):
    def setUp(self):
        require_data(self)

    def test_tokenize_gpt2(self):
        t = run_json("tokenize", "--text", "Hello world's 🤗", "--tokenizer", "gpt2", "--bos")
        self.assertEqual(t["tokenizer"], "gpt2")
        self.assertEqual(t["ids"], [50256, 15496, 995, 338, 12520, 97, 245])  # npm gpt-3-encoder's encode()
        self.assertEqual(t["tokens"][:3], ["<bos>", "Hello", "\u0120world"])
        self.assertEqual(t["gpt2"]["merges"][0][-1], ["H", "ello"])
        self.assertEqual(t["gpt2"]["text"][1], " world")
        self.assertEqual(t["gpt2"]["bytes"][3], "20 f0 9f")  # the space and half of the emoji

    def test_trace_gpt2(self):
        t = run_json("trace", "--text", "Hello world", "--tokenizer", "gpt2")
        self.assertEqual(token_texts(t["tokens"]), ["Hello", "\u0120world"])
        self.assertEqual(t["config"]["tokenizer"], "gpt2")


class DataBadInput(unittest.TestCase):
    def test_every_bad_input_exits_2_with_one_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad_config = os.path.join(tmp, "bad.json")
            with open(bad_config, "w") as f:
                json.dump({"text": "a b", "embedding_source": "word2vec"}, f)
            cases = [
                ("unknown word", ["similar", "xyzzyqq"]),
                ("analogy with an unknown word", ["analogy", "king", "man", "xyzzyqq"]),
                ("analogy with two words", ["analogy", "king", "man"]),
                ("no data folder", ["similar", "king", "--data-dir", os.path.join(tmp, "nowhere")]),
                ("gpt2 without data", ["tokenize", "--text", "hi", "--tokenizer", "gpt2", "--data-dir", tmp]),
                ("glove without data", ["trace", "--text", "hi", "--embeddings", "glove", "--data-dir", tmp]),
                ("glove with char tokens", ["trace", "--text", "hi", "--embeddings", "glove", "--tokenizer", "char"]),
                ("glove with gpt2 tokens", ["trace", "--text", "hi", "--embeddings", "glove", "--tokenizer", "gpt2"]),
                ("glove with d_model 101", ["trace", "--text", "hi", "--embeddings", "glove", "--d-model", "101"]),
                ("glove preset too wide", ["trace", "--preset", "paper-base", "--embeddings", "glove"]),
                ("unknown embeddings", ["trace", "--text", "hi", "--embeddings", "word2vec"]),
                ("unknown source in JSON", ["trace", "--config", bad_config]),
                ("--top 0", ["similar", "king", "--top", "0"]),
                ("--dims 101", ["similar", "king", "--dims", "101"]),
                ("--dims abc", ["analogy", "a", "b", "c", "--dims", "abc"]),
            ]
            failures = []
            for description, argv in cases:
                code, out, err = run(*argv)
                lines = err.strip().splitlines()
                if code != 2 or len(lines) != 1 or not lines[0].startswith("attnlab: ") or \
                        any(marker in err for marker in CRASH_MARKERS):
                    failures.append(f"{description}: exit {code}, stderr {err!r}")
            self.assertFalse(failures, "\n" + "\n".join(failures))
        # The messages say why.
        self.assertIn("word tokenizer", run("trace", "--text", "hi", "--embeddings", "glove", "--tokenizer", "char")[2])
        self.assertIn("at most 100", run("trace", "--text", "hi", "--embeddings", "glove", "--d-model", "101")[2])
        self.assertIn("ATTNLAB_DATA_DIR", run("similar", "king", "--data-dir", "/nonexistent-attnlab")[2])

    def test_help_lists_the_new_commands(self):
        code, out, err = run("--help")
        self.assertEqual(code, 0, err)
        for sub in ("similar", "analogy"):
            self.assertIn(sub, out)
            self.assertEqual(run(sub, "--help")[0], 0)


# ---------------------------------------------------------------- learned attention: train, trace --model, backward
# Training runs are tiny (a few steps, a small held-out set): these tests run under node too.

def bad_input_ok(test, argv, fragment=None):
    code, out, err = run(*argv)
    lines = err.strip().splitlines()
    test.assertEqual(code, 2, f"{argv}: exit {code}, stderr {err!r}")
    test.assertEqual(len(lines), 1, f"{argv}: {err!r}")
    test.assertTrue(lines[0].startswith("attnlab: "), f"{argv}: {err!r}")
    test.assertFalse(any(marker in err for marker in CRASH_MARKERS), f"{argv}: {err!r}")
    if fragment:
        test.assertIn(fragment, lines[0], argv)
    return lines[0]


TRAIN_SMALL = ["--steps", "20", "--held-out", "40"]


class Train(unittest.TestCase):
    def test_help(self):
        for sub in ("train", "backward"):
            code, out, err = run(sub, "--help")
            self.assertEqual(code, 0, f"{sub} --help: {err}")
            self.assertIn("--", out)
        code, out, err = run("--help")
        self.assertIn("train", out)
        self.assertIn("backward", out)

    def test_text_report(self):
        code, out, err = run("train", "--task", "reverse", *TRAIN_SMALL, "--eval-every", "5")
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")  # no progress line when stderr is not a terminal
        self.assertIn("attnlab train: reverse", out)
        self.assertIn("held-out loss", out)
        self.assertIn("grad norm per layer (E layer0 out)", out)
        rows = [line.split() for line in out.splitlines() if line.strip() and line.split()[0].isdigit()]
        self.assertEqual([int(r[0]) for r in rows], [5, 10, 15, 20])
        self.assertIn("final (step 20): held-out accuracy", out)
        self.assertIn("steps/s (training only", out)

    def test_json_report(self):
        r = run_json("train", "--task", "previous-token", *TRAIN_SMALL, "--eval-every", "10", "--format", "json",
                     "--heads", "2", "--d-k", "8", "--d-v", "4", "--scale", "none", "--lr", "0.01", "--seed", "5")
        self.assertEqual(r["task"], "previous-token")
        c = r["config"]
        self.assertEqual((c["model"]["heads"], c["model"]["d_k"], c["model"]["d_v"]), (2, 8, 4))
        self.assertEqual(c["model"]["scale"], "none")
        self.assertEqual((c["steps"], c["lr"], c["seed"], c["held_out"]), (20, 0.01, 5, 40))
        self.assertEqual([s["step"] for s in r["steps"]], [10, 20])
        for s in r["steps"]:
            self.assertTrue(0 <= s["accuracy"] <= 1)
            self.assertGreater(s["loss"], 0)
            self.assertGreater(s["held_out_loss"], 0)
            self.assertEqual([g["group"] for g in s["grad_norms"]], ["E", "layer0", "out"])
            self.assertTrue(all(g["norm"] >= 0 for g in s["grad_norms"]))
            self.assertEqual([b["block"] for b in s["softmax_grad_norms"]], ["layer 0 self-attention"])
            total = math.sqrt(sum(b["norm"] ** 2 for b in s["softmax_grad_norms"]))
            self.assertAlmostEqual(s["softmax_grad_norm"], total, places=12)
            self.assertEqual([(m["block"], m["head"]) for m in s["expected_mass"]],
                             [("layer 0 self-attention", 0), ("layer 0 self-attention", 1)])
            self.assertTrue(all(0 <= m["mass"] <= 1 for m in s["expected_mass"]))
            self.assertEqual(s["best_expected_mass"]["mass"], max(m["mass"] for m in s["expected_mass"]))
        self.assertEqual(r["final"], r["steps"][-1])
        self.assertGreater(r["steps_per_second"], 0)
        self.assertIn("first_step_at_99", r)
        elapsed = [s["elapsed_seconds"] for s in r["steps"]]
        self.assertTrue(0 < elapsed[0] <= elapsed[1], elapsed)
        self.assertEqual(r["seconds_to_99"] is None, r["first_step_at_99"] is None)

    def test_shared_defaults(self):
        # The page's defaults (defaultSessionOptions): 500 held-out examples, an evaluation every steps/10, the task's
        # batch and learning rate; no evaluation at step 0 in the CLI's report.
        r = run_json("train", "--task", "reverse", "--steps", "20", "--format", "json")
        c = r["config"]
        self.assertEqual((c["held_out"], c["eval_every"], c["batch"], c["lr"], c["qk_init"]), (500, 2, 16, 0.005, 1.0))
        self.assertEqual([s["step"] for s in r["steps"]], list(range(2, 21, 2)))
        self.assertGreater(r["eval_seconds"], 0)

    def test_save_init_and_dump_batches(self):
        # What the training benchmark feeds TensorFlow.js and PyTorch: the initial weights and every batch.
        with tempfile.TemporaryDirectory() as tmp:
            init, batches = os.path.join(tmp, "init.json"), os.path.join(tmp, "batches.json")
            r = run_json("train", "--task", "translation", "--steps", "3", "--held-out", "10", "--format", "json",
                         "--save-init", init, "--dump-batches", batches)
            self.assertEqual((r["saved_init"], r["dumped_batches"]), (init, batches))
            with open(init) as f:
                m = json.load(f)
            self.assertEqual((m["format"], m["task"]), ("attnlab-model", "translation"))
            self.assertNotIn("training", m)
            with open(batches) as f:
                d = json.load(f)
            self.assertEqual((d["format"], d["version"], d["task"], d["batch"]), ("attnlab-batches", 1, "translation", 16))
            self.assertEqual(d["adam"]["clip_norm"], 1.0)
            self.assertEqual([s["step"] for s in d["steps"]], [1, 2, 3])
            self.assertEqual([s["loss"] for s in d["steps"]], [s["loss"] for s in r["steps"]])  # evaluated every step
            for s in d["steps"]:
                self.assertEqual(len(s["examples"]), 16)
                for ex in s["examples"]:
                    self.assertEqual(len(ex["input"]), len(ex["target"]))
                    self.assertTrue(ex["source"])
                    self.assertEqual(ex["input"][0], 0)  # <bos>
            self.assertLess(d["steps"][0]["lr"], d["steps"][2]["lr"])  # warm-up

    def test_same_seed_same_numbers(self):
        args = ["train", "--task", "kv-lookup", "--steps", "6", "--held-out", "20", "--format", "json"]
        a, b = run_json(*args, "--seed", "3"), run_json(*args, "--seed", "3")
        c = run_json(*args, "--seed", "4")
        for r in (a, b, c):  # wall times differ run to run
            for s in r["steps"]:
                del s["elapsed_seconds"]
        self.assertEqual(a["steps"], b["steps"])
        self.assertNotEqual(a["steps"], c["steps"])

    def test_translation_blocks(self):
        r = run_json("train", "--task", "translation", "--steps", "4", "--held-out", "10", "--format", "json")
        names = [b["block"] for b in r["final"]["softmax_grad_norms"]]
        self.assertEqual(names, ["encoder layer 0 self-attention", "decoder layer 0 self-attention",
                                 "decoder layer 0 cross-attention", "decoder layer 1 self-attention",
                                 "decoder layer 1 cross-attention"])
        self.assertTrue(all(m["block"].endswith("cross-attention") or m["block"].startswith("decoder")
                            for m in r["final"]["expected_mass"]))

    def test_bad_inputs(self):
        with tempfile.TemporaryDirectory() as tmp:
            cases = [
                (["train"], "--task"),
                (["train", "--task", "juggling"], "unknown task 'juggling'"),
                (["train", "--task", "reverse", "--layers", "0"], None),
                (["train", "--task", "reverse", "--layers", "4"], None),
                (["train", "--task", "reverse", "--heads", "0"], None),
                (["train", "--task", "reverse", "--d-model", "0"], None),
                (["train", "--task", "reverse", "--d-k", "abc"], None),
                (["train", "--task", "reverse", "--lr", "0"], "--lr"),
                (["train", "--task", "reverse", "--lr", "-1"], "--lr"),
                (["train", "--task", "reverse", "--lr", "nan"], None),
                (["train", "--task", "reverse", "--lr", "abc"], None),
                (["train", "--task", "reverse", "--steps", "0"], None),
                (["train", "--task", "reverse", "--batch", "0"], None),
                (["train", "--task", "reverse", "--eval-every", "0"], None),
                (["train", "--task", "reverse", "--scale", "loud"], "--scale"),
                (["train", "--task", "reverse", "--scale", "inf"], "--scale"),
                (["train", "--task", "reverse", "--seed", "-1"], None),
                (["train", "--task", "reverse", "--qk-init", "0"], "--qk-init"),
                (["train", "--task", "reverse", "--format", "xml"], None),
                (["train", "--task", "reverse", "--mlp", "--no-mlp"], None),
                (["train", "--task", "reverse", "--d-model", "1024", "--d-k", "1024", "--heads", "16"],
                 "parameters"),
                (["train", "--task", "reverse", "--steps", "2", "--save",
                  os.path.join(tmp, "no-such-dir", "m.json")], "cannot write --save file"),
                (["train", "--task", "reverse", "--steps", "2", "--save-init",
                  os.path.join(tmp, "no-such-dir", "m.json")], "cannot write --save-init file"),
                (["train", "--task", "reverse", "--steps", "2", "--dump-batches",
                  os.path.join(tmp, "no-such-dir", "b.json")], "cannot write --dump-batches file"),
            ]
            for argv, fragment in cases:
                bad_input_ok(self, argv, fragment)


def write_json(folder, name, value):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(value if isinstance(value, str) else json.dumps(value))
    return path


class TraceModel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.reverse = os.path.join(cls.tmp.name, "reverse.json")
        code, out, err = run("train", "--task", "reverse", *TRAIN_SMALL, "--save", cls.reverse)
        assert code == 0, err
        cls.translation = os.path.join(cls.tmp.name, "translation.json")
        code, out, err = run("train", "--task", "translation", "--steps", "3", "--held-out", "10",
                             "--save", cls.translation)
        assert code == 0, err

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_model_file_format(self):
        with open(self.reverse) as f:
            m = json.load(f)
        self.assertEqual((m["format"], m["version"], m["task"]), ("attnlab-model", 1, "reverse"))
        self.assertEqual(m["vocab"], [str(d) for d in range(10)])
        self.assertEqual(m["config"]["d_model"], 16)
        self.assertEqual(set(m["parameters"]), {"E", "layer0.self.W_q", "layer0.self.W_k", "layer0.self.W_v",
                                                "layer0.self.W_o", "out.W", "out.b"})
        self.assertEqual(m["parameters"]["layer0.self.W_q"]["shape"], [16, 16])
        self.assertEqual(m["training"]["steps"], 20)

    def test_trace_json(self):
        t = run_json("trace", "--model", self.reverse, "--text", "3 1 4 1 5 9 2 6")
        self.assertEqual(t["task"], "reverse")
        self.assertEqual(t["tokens"], list("31415926"))
        self.assertEqual(len(t["predictions"]), 8)
        for i, p in enumerate(t["predictions"]):
            self.assertEqual((p["position"], p["input"]), (i, t["tokens"][i]))
            self.assertIn(p["token"], [str(d) for d in range(10)])
            self.assertTrue(0 < p["probability"] <= 1)
        self.assertEqual([layer["name"] for layer in t["layers"]], ["layer 0 self-attention"])
        trace = t["layers"][0]["trace"]
        self.assertEqual(token_texts(trace["tokens"]), t["tokens"])
        matrix_ok(self, trace["heads"][0]["A"], 8, 8)
        for row in trace["heads"][0]["A"]["data"]:
            self.assertAlmostEqual(sum(row), 1.0, places=12)
        # The first block shows the model's own positions (issue 27): positional on, its PE rows in the Config.
        self.assertEqual(trace["config"]["positional"], True)
        self.assertIn("positions", trace["config"])
        # The layer's Config reproduces the layer's trace exactly.
        path = write_json(self.tmp.name, "layer.json", trace["config"])
        self.assertEqual(run_json("trace", "--config", path), trace)

    def test_trace_text(self):
        code, out, err = run("trace", "--model", self.reverse, "--text", "1 2 3", "--format", "text")
        self.assertEqual(code, 0, err)
        self.assertIn("predicted:", out)
        self.assertIn("layer 0 self-attention, head 0: attention weights A", out)

    def test_translation(self):
        t = run_json("trace", "--model", self.translation, "--source-text", "the black cat sleeps")
        self.assertEqual(t["source_tokens"], ["the", "black", "cat", "sleeps"])
        self.assertEqual(t["tokens"][0], "<bos>")  # greedy decoding from <bos>
        names = [layer["name"] for layer in t["layers"]]
        self.assertEqual(names[0], "encoder layer 0 self-attention")
        self.assertIn("decoder layer 1 cross-attention", names)
        t = run_json("trace", "--model", self.translation, "--source-text", "the black cat sleeps",
                     "--text", "le chat noir")
        self.assertEqual(t["tokens"], ["<bos>", "le", "chat", "noir"])
        cross = next(layer for layer in t["layers"] if layer["cross"])["trace"]
        self.assertEqual(token_texts(cross["tokens"]), ["the", "black", "cat", "sleeps"])
        self.assertEqual(token_texts(cross["query_tokens"]), ["<bos>", "le", "chat", "noir"])
        matrix_ok(self, cross["heads"][0]["A"], 4, 4)

    def test_bad_inputs(self):
        damaged = write_json(self.tmp.name, "damaged.json", {"format": "attnlab-model", "version": 99})
        not_model = write_json(self.tmp.name, "config.json", {"text": "a b"})
        line = bad_input_ok(self, ["trace", "--model", self.reverse, "--text", "3 1 zebra"], "\"zebra\"")
        self.assertIn("known tokens: 0, 1, 2", line)
        for argv, fragment in [
            (["trace", "--model", self.reverse], "--text"),
            (["trace", "--model", self.reverse, "--text", ""], "no tokens"),
            (["trace", "--model", self.reverse, "--text", " ".join(["1"] * 17)], "at most 16"),
            (["trace", "--model", self.reverse, "--text", "1 2", "--d-model", "4"], "--d-model cannot be combined"),
            (["trace", "--model", self.reverse, "--text", "1 2", "--preset", "quick-fox"], "--preset"),
            (["trace", "--model", self.reverse, "--text", "1 2", "--source-text", "a"], "--source-text"),
            (["trace", "--source-text", "the cat"], "--source-text needs --model"),
            (["trace", "--model", self.translation, "--text", "le chat"], "--source-text"),
            (["trace", "--model", self.translation, "--source-text", "the zebra"], "\"zebra\""),
            (["trace", "--model", os.path.join(self.tmp.name, "missing.json"), "--text", "1"], "cannot read"),
            (["trace", "--model", damaged, "--text", "1"], "version 99"),
            (["trace", "--model", not_model, "--text", "1"], "\"format\""),
        ]:
            bad_input_ok(self, argv, fragment)


# A pure-Python forward of one attention block (tests/reference has the numpy one; this file needs no numpy).
def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def block_output(cfg):
    X = cfg["X"]
    Xq = cfg.get("X_q", X)
    h = cfg["heads"]
    dk = len(cfg["W_q"][0]) // h
    dv = len(cfg["W_v"][0]) // h
    scale = cfg.get("scale", 1 / math.sqrt(dk))
    Q, K, V = matmul(Xq, cfg["W_q"]), matmul(X, cfg["W_k"]), matmul(X, cfg["W_v"])
    concat = [[] for _ in Q]
    for head in range(h):
        for i, q in enumerate(Q):
            scores = []
            for j, k in enumerate(K):
                if cfg.get("mask") == "causal" and j > i:
                    scores.append(None)
                else:
                    scores.append(scale * sum(q[head * dk + d] * k[head * dk + d] for d in range(dk)))
            top = max(s for s in scores if s is not None)
            e = [0.0 if s is None else math.exp(s - top) for s in scores]
            total = sum(e)
            a = [x / total for x in e]
            concat[i] += [sum(a[j] * V[j][head * dv + d] for j in range(len(V))) for d in range(dv)]
    return matmul(concat, cfg["W_o"])


def numeric_gradient(cfg, G, key, eps=1e-6):
    def loss(c):
        out = block_output(c)
        return sum(G[i][j] * out[i][j] for i in range(len(out)) for j in range(len(out[0])))
    grad = []
    for r in range(len(cfg[key])):
        row = []
        for c in range(len(cfg[key][0])):
            saved = cfg[key][r][c]
            cfg[key][r][c] = saved + eps
            up = loss(cfg)
            cfg[key][r][c] = saved - eps
            down = loss(cfg)
            cfg[key][r][c] = saved
            row.append((up - down) / (2 * eps))
        grad.append(row)
    return grad


def seeded_matrix(rows, cols, seed):
    # A small linear congruential generator: the same numbers on every platform, no numpy.
    state, out = seed, []
    for _ in range(rows):
        row = []
        for _ in range(cols):
            state = (state * 6364136223846793005 + 1442695040888963407) % 2 ** 64
            row.append(round(((state >> 11) / 2 ** 53) * 2 - 1, 6))
        out.append(row)
    return out


class Backward(unittest.TestCase):
    def check_against_finite_differences(self, cfg, G, keys):
        with tempfile.TemporaryDirectory() as tmp:
            c = write_json(tmp, "c.json", cfg)
            g = write_json(tmp, "g.json", {"shape": [len(G), len(G[0])], "data": G})
            r = run_json("backward", "--config", c, "--dout", g)
        out = block_output(cfg)
        for i, row in enumerate(out):
            for j, v in enumerate(row):
                self.assertAlmostEqual(r["output"]["data"][i][j], v, places=10)
        names = {"X": "dX", "X_q": "dX_q", "W_q": "dW_q", "W_k": "dW_k", "W_v": "dW_v", "W_o": "dW_o"}
        worst = 0.0
        for key in keys:
            numeric = numeric_gradient(cfg, G, key)
            got = matrix_ok(self, r[names[key]], len(cfg[key]), len(cfg[key][0]), names[key])
            for nrow, grow in zip(numeric, got):
                for n, a in zip(nrow, grow):
                    worst = max(worst, abs(n - a) / max(1.0, abs(n), abs(a)))
        self.assertLess(worst, 1e-7, f"largest relative difference to finite differences {worst}")
        h = cfg["heads"]
        self.assertEqual(len(r["heads"]), h)
        scale = r["config"]["scale"]
        for head in r["heads"]:
            for srow, trow in zip(head["dS"]["data"], head["dS_scaled"]["data"]):
                self.assertAlmostEqual(sum(trow), 0.0, places=12)  # softmax Jacobian: each row of dS sums to 0
                for s, t in zip(srow, trow):
                    self.assertAlmostEqual(s, scale * t, places=14)
        return r

    def test_self_attention_causal_two_heads(self):
        cfg = {"X": seeded_matrix(4, 5, 1), "W_q": seeded_matrix(5, 6, 2), "W_k": seeded_matrix(5, 6, 3),
               "W_v": seeded_matrix(5, 4, 4), "W_o": seeded_matrix(4, 5, 5), "heads": 2, "mask": "causal",
               "scale": 0.8}
        r = self.check_against_finite_differences(cfg, seeded_matrix(4, 5, 6), ["X", "W_q", "W_k", "W_v", "W_o"])
        self.assertNotIn("dX_q", r)
        for row in range(4):  # causal: no gradient on the weights of later keys
            self.assertEqual(r["heads"][0]["dS"]["data"][row][row + 1:], [0.0] * (3 - row))

    def test_cross_attention(self):
        cfg = {"X": seeded_matrix(3, 4, 7), "X_q": seeded_matrix(2, 4, 8), "W_q": seeded_matrix(4, 3, 9),
               "W_k": seeded_matrix(4, 3, 10), "W_v": seeded_matrix(4, 2, 11), "W_o": seeded_matrix(2, 4, 12),
               "heads": 1}
        r = self.check_against_finite_differences(cfg, seeded_matrix(2, 4, 13), ["X", "X_q", "W_q", "W_k"])
        self.assertEqual(r["dX_q"]["shape"], [2, 4])
        self.assertEqual(r["heads"][0]["dA"]["shape"], [2, 3])

    def test_text_format_and_plain_rows(self):
        with tempfile.TemporaryDirectory() as tmp:
            c = write_json(tmp, "c.json", {"text": "i love sushi", "d_model": 4, "heads": 1, "d_k": 2, "d_v": 2})
            g = write_json(tmp, "g.json", [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]])
            code, out, err = run("backward", "--config", c, "--dout", g, "--format", "text")
            self.assertEqual(code, 0, err)
            for title in ("dX (through Q, K and V)", "dW_q", "dW_o", "head 0: dA", "head 0: dS = scale"):
                self.assertIn(title, out)
            self.assertIn("love", out)

    def test_bad_inputs(self):
        with tempfile.TemporaryDirectory() as tmp:
            c = write_json(tmp, "c.json", {"X": [[1, 2], [3, 4]], "heads": 1, "d_k": 2, "d_v": 2})
            good = write_json(tmp, "g.json", [[1, 0], [0, 1]])
            cases = [
                (["backward", "--config", c], "--dout"),
                (["backward", "--dout", good], "--config"),
                (["backward", "--config", c, "--dout", os.path.join(tmp, "missing.json")], "cannot read"),
                (["backward", "--config", c, "--dout", write_json(tmp, "a.json", "[[1, 0], [0")], "malformed"),
                (["backward", "--config", c, "--dout", write_json(tmp, "b.json", "[[1, 0], [0]]")], "row 1"),
                (["backward", "--config", c, "--dout", write_json(tmp, "d.json", "[[1, 0, 0], [0, 1, 0]]")],
                 "expected 2x2"),
                (["backward", "--config", c, "--dout", write_json(tmp, "e.json", "[[1, 0]]")], "expected 2x2"),
                (["backward", "--config", c, "--dout", write_json(tmp, "f.json", "[[1e300, 0], [0, 1]]")], "1e6"),
                (["backward", "--config", c, "--dout", write_json(tmp, "h.json", "[[\"x\", 0], [0, 1]]")], "number"),
                (["backward", "--config", c, "--dout", write_json(tmp, "i.json", "{\"rows\": []}")], "\"data\""),
                (["backward", "--config", c, "--dout",
                  write_json(tmp, "j.json", "{\"shape\": [3, 2], \"data\": [[1, 0], [0, 1]]}")], "shape"),
                (["backward", "--config", write_json(tmp, "k.json", "{\"X\": [[1, 2]], \"bogus\": 1}"),
                  "--dout", good], "bogus"),
                (["backward", "--config", "-", "--dout", "-"], "standard input"),
                (["backward", "--config", c, "--dout", good, "--format", "xml"], None),
            ]
            for argv, fragment in cases:
                bad_input_ok(self, argv, fragment)


def main():
    global COMMAND, EXPECTED_VERSION
    args = sys.argv[1:]
    while len(args) >= 2 and args[0] in ("--version", "--require"):
        if args[0] == "--version":
            EXPECTED_VERSION = args[1]
        elif not os.path.exists(args[1]):
            print(f"SKIP: {args[1]} does not exist (build it first)")
            sys.exit(77)
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    COMMAND = args
    unittest.main(argv=[sys.argv[0], "-v"])


if __name__ == "__main__":
    main()
