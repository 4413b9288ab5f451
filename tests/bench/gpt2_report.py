#!/usr/bin/python3
"""The GPT-2 table of `make bench` section 5 from tests/bench/gpt2_bench.mjs's JSON (and the peak memory lines
run.sh measured): per length, AttnLab's wasm and onnxruntime-web's medians with quartiles, the ratio ort/ours
(> 1: AttnLab faster) with its quartiles, the pairs AttnLab won, and the logits' max |difference| (ours vs ort; each
vs the float64 PyTorch reference; the largest |logit| for scale).  usage: gpt2_report.py OUT/gpt2.json"""
import json
import sys


def fmt(value, digits=1):
    return value if isinstance(value, str) else f"{value:.{digits}f}"


def main():
    rows = json.load(open(sys.argv[1]))
    first = rows[0]
    print(f"GPT-2 small's shapes ({first['parameters']:,.0f} parameters, random weights), forward of L tokens to the "
          f"logits of every position (L,{first['V']}); AttnLab wasm vs onnxruntime-web {first['ort_version']} wasm "
          f"(1 thread, SIMD), one node process, ABAB; load time ours {first['ours_load_ms'] / 1000:.1f} s, "
          f"ort {first['ort_load_ms'] / 1000:.1f} s; the node process's peak RSS with both models "
          f"{rows[-1]['node_peak_rss_mb']:.0f} MB")
    print()
    print("| L | pairs | AttnLab wasm ms, median (q1–q3) | onnxruntime-web ms, median (q1–q3) | ort/ours median (q1–q3) "
          "| AttnLab won | max abs diff ours vs ort | ours vs float64 | ort vs float64 | max abs logit | load |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        o, t, q = r["ours_ms"], r["ort_ms"], r["ratio_ort_over_ours"]
        print(f"| {r['L']} | {r['pairs']} | {o['median']:.1f} ({o['q1']:.1f}–{o['q3']:.1f}) | "
              f"{t['median']:.1f} ({t['q1']:.1f}–{t['q3']:.1f}) | {q['median']:.3f} ({q['q1']:.3f}–{q['q3']:.3f}) | "
              f"{r['pairs_ours_faster']}/{r['pairs']} | {fmt(r['max_abs_diff_ours_vs_ort'], 2) if isinstance(r['max_abs_diff_ours_vs_ort'], str) else format(r['max_abs_diff_ours_vs_ort'], '.2e')} | "
              f"{format(r['max_abs_diff_ours_vs_torch_f64'], '.2e')} | {format(r['max_abs_diff_ort_vs_torch_f64'], '.2e')} | "
              f"{r['max_abs_logit']:.1f} | {r['load_before']:.1f}→{r['load_after']:.1f} |")


if __name__ == "__main__":
    main()
