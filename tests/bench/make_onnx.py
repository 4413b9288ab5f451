#!/usr/bin/python3
"""Builds one ONNX model per benchmark size: the same multi-head attention as `attnlab bench`, float32, from standard
ops, with the very weights `attnlab bench --dump DIR` wrote (DIR/L_dmodel_heads_{Wq,Wk,Wv,Wo}.f32).

  X (L,d_model) -MatMul Wq/Wk/Wv-> (L,h*d_k) -Reshape-> (L,h,d_k) -Transpose(1,0,2)-> (h,L,d_k)
  S = MatMul(Q, Transpose(K,(0,2,1))) (h,L,L); Mul 1/sqrt(d_k); Softmax(axis=-1); MatMul V -> (h,L,d_v)
  Transpose(1,0,2) -> (L,h,d_v) -Reshape-> (L,h*d_v) -MatMul Wo-> (L,d_model)

Run with Debian's python (/usr/bin/python3, package python3-onnx): usage make_onnx.py DIR L:d_model:heads[,...]
Writes DIR/L_dmodel_heads.onnx. Never committed: tests/bench/run.sh generates them into build/bench/."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def build(folder, L, d_model, heads):
    d_k = d_model // heads
    stem = f"{folder}/{L}_{d_model}_{heads}_"
    weights = {}
    for name, shape in (("Wq", (d_model, heads * d_k)), ("Wk", (d_model, heads * d_k)),
                        ("Wv", (d_model, heads * d_k)), ("Wo", (heads * d_k, d_model))):
        weights[name] = np.fromfile(stem + name + ".f32", dtype="<f4").reshape(shape)
    inits = [numpy_helper.from_array(w, name) for name, w in weights.items()]
    inits.append(numpy_helper.from_array(np.array([L, heads, d_k], dtype=np.int64), "heads_shape"))
    inits.append(numpy_helper.from_array(np.array([L, heads * d_k], dtype=np.int64), "concat_shape"))
    inits.append(numpy_helper.from_array(np.array(1.0 / np.sqrt(d_k), dtype=np.float32), "scale"))
    n = helper.make_node
    nodes = []
    for p in ("q", "k", "v"):
        nodes += [n("MatMul", ["X", "W" + p], [p + "_proj"]),                         # (L,h*d_k)
                  n("Reshape", [p + "_proj", "heads_shape"], [p + "_split"]),          # (L,h,d_k)
                  n("Transpose", [p + "_split"], [p + "_heads"], perm=[1, 0, 2])]      # (h,L,d_k)
    nodes += [n("Transpose", ["k_heads"], ["k_t"], perm=[0, 2, 1]),                    # (h,d_k,L)
              n("MatMul", ["q_heads", "k_t"], ["scores"]),                             # (h,L,L)
              n("Mul", ["scores", "scale"], ["scaled"]),
              n("Softmax", ["scaled"], ["weights"], axis=-1),
              n("MatMul", ["weights", "v_heads"], ["o_heads"]),                        # (h,L,d_v)
              n("Transpose", ["o_heads"], ["o_tokens"], perm=[1, 0, 2]),               # (L,h,d_v)
              n("Reshape", ["o_tokens", "concat_shape"], ["concat"]),                  # (L,h*d_v)
              n("MatMul", ["concat", "Wo"], ["Y"])]                                    # (L,d_model)
    # initializer names must match the node inputs: Wq, Wk, Wv
    graph = helper.make_graph(
        nodes, f"mha_{L}_{d_model}_{heads}",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [L, d_model])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [L, d_model])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="attnlab-bench")
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, f"{folder}/{L}_{d_model}_{heads}.onnx")

    # numpy reference of the same graph (float64) so a broken model is caught here, not as a "fast" wrong answer
    X = np.fromfile(stem + "X.f32", dtype="<f4").reshape(L, d_model).astype(np.float64)
    W = {k: v.astype(np.float64) for k, v in weights.items()}
    split = lambda M: M.reshape(L, heads, d_k).transpose(1, 0, 2)
    Q, K, V = split(X @ W["Wq"]), split(X @ W["Wk"]), split(X @ W["Wv"])
    S = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
    A = np.exp(S - S.max(axis=-1, keepdims=True))
    A /= A.sum(axis=-1, keepdims=True)
    Y = (A @ V).transpose(1, 0, 2).reshape(L, heads * d_k) @ W["Wo"]
    out = np.fromfile(stem + "out.f32", dtype="<f4").reshape(L, d_model)
    return float(np.abs(Y - out).max())


def main():
    folder, sizes = sys.argv[1], sys.argv[2]
    for item in sizes.split(","):
        L, d_model, heads = (int(x) for x in item.split(":"))
        diff = build(folder, L, d_model, heads)
        print(f"{L}:{d_model}:{heads} model written; float64 numpy vs attnlab float32 max|diff| = {diff:.2e}")


if __name__ == "__main__":
    main()
