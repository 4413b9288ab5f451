"""A learner's attention in numpy, right and with each listed bug (src/core/check/bugs.h), written the way a learner
writes it: one function per bug. Each takes the inputs `attnlab inputs` wrote (an .npz loaded with numpy.load) and
returns (matrix name, head or None, the array to check). check_bugs.py writes each result as .npy, JSON and CSV and
expects `attnlab check` to name the bug first (and the right one to match)."""
import numpy as np


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def head_inputs(d, h):
    """Q, K, V of head h: head h uses columns h*d_k ... (h+1)*d_k - 1 of W_q and W_k, h*d_v ... of W_v."""
    X = d["X"]
    Xq = d["X_q"] if "X_q" in d else X
    dk, dv = int(d["d_k"]), int(d["d_v"])
    Q = Xq @ d["W_q"][:, h * dk:(h + 1) * dk]
    K = X @ d["W_k"][:, h * dk:(h + 1) * dk]
    V = X @ d["W_v"][:, h * dv:(h + 1) * dv]
    return Q, K, V


def right_head(d, h):
    Q, K, V = head_inputs(d, h)
    S = Q @ K.T
    A = softmax(S * d["scale"] + d["mask"])
    return S, A, A @ V


def right_concat(d):
    return np.concatenate([right_head(d, h)[2] for h in range(int(d["heads"]))], axis=1)


# ---- the right results
def correct_A(d):
    return "A", 0, right_head(d, 0)[1]


def correct_O_every_head(d):
    return "O", None, np.stack([right_head(d, h)[2] for h in range(int(d["heads"]))])


def correct_output(d):
    return "output", None, right_concat(d) @ d["W_o"]


# ---- one function per bug
def missing_scale(d):
    Q, K, V = head_inputs(d, 0)
    return "A", 0, softmax(Q @ K.T + d["mask"])


def scaled_by_dk(d):
    Q, K, V = head_inputs(d, 1)
    return "A", 1, softmax(Q @ K.T / int(d["d_k"]) + d["mask"])


def softmax_wrong_axis(d):
    Q, K, V = head_inputs(d, 0)
    s = Q @ K.T * d["scale"] + d["mask"]
    e = np.exp(s - s.max(axis=0, keepdims=True))
    return "A", 0, e / e.sum(axis=0, keepdims=True)


def q_k_swapped(d):
    Q, K, V = head_inputs(d, 0)
    return "A", 0, softmax(K @ Q.T * d["scale"] + d["mask"])


def k_not_transposed(d):
    Q, K, V = head_inputs(d, 0)
    return "S", 0, Q.T @ K


def mask_inverted(d):
    Q, K, V = head_inputs(d, 0)
    L = Q.shape[0]
    mask = np.where(np.tril(np.ones((L, L)), k=-1) == 1, -np.inf, 0.0)  # hides j < i: the past
    return "A", 0, softmax(Q @ K.T * d["scale"] + mask)


def mask_off_by_one(d):
    Q, K, V = head_inputs(d, 0)
    L = Q.shape[0]
    mask = np.where(np.triu(np.ones((L, L)), k=0) == 1, -np.inf, 0.0)  # k=0: the diagonal hidden too
    with np.errstate(invalid="ignore"):
        return "A", 0, softmax(Q @ K.T * d["scale"] + mask)  # row 0 hides every key: NaN


def no_max_subtraction(d):
    Q, K, V = head_inputs(d, 0)
    s = Q @ K.T * d["scale"] + d["mask"]
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(s)
        return "A", 0, e / e.sum(axis=-1, keepdims=True)


def heads_misordered(d):
    return "concat", None, np.concatenate([right_head(d, h)[2] for h in reversed(range(int(d["heads"])))], axis=1)


def missing_w_o(d):
    return "output", None, right_concat(d)


def v_for_k(d):
    Q, K, V = head_inputs(d, 0)
    return "A", 0, softmax(Q @ V.T * d["scale"] + d["mask"])


BUGS = {
    "missing-scale": missing_scale,
    "scaled-by-dk": scaled_by_dk,
    "softmax-wrong-axis": softmax_wrong_axis,
    "q-k-swapped": q_k_swapped,
    "k-not-transposed": k_not_transposed,
    "mask-inverted": mask_inverted,
    "mask-off-by-one": mask_off_by_one,
    "no-max-subtraction": no_max_subtraction,
    "heads-misordered": heads_misordered,
    "missing-w-o": missing_w_o,
    "v-for-k": v_for_k,
}
CORRECT = [correct_A, correct_O_every_head, correct_output]
