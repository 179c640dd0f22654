"""The three-way check for Python semantics: plain Python (the oracle), then one `ag.defun`
Function per backend called on every input in turn (state must not leak between calls).

Each run gets fresh copies of the inputs; the outcome is the result (or the exception's
type and message) and the arguments afterwards, which must match the oracle's exactly:
values, shapes and dtypes (a Python int of the oracle means int64, a float float64).
"""

import copy

import numpy as np

import autograph_lite as ag

BACKENDS = ("interpreter", "cpu")


def outcome(call, args):
    args = copy.deepcopy(args)
    try:
        return "ok", call(*args), args
    except Exception as e:  # noqa: BLE001 - the exception is part of the outcome
        return type(e), str(e), args


def _same(got, want, what):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), (what, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{what}[{i}]")
        return
    if want is None:
        assert got is None, (what, got)
        return
    g = got.numpy() if isinstance(got, ag.Tensor) else np.asarray(got)
    w = np.asarray(want)
    assert g.dtype == w.dtype, f"{what}: dtype {g.dtype}, plain Python gives {w.dtype}"
    assert g.shape == w.shape, f"{what}: shape {g.shape}, plain Python gives {w.shape}"
    np.testing.assert_equal(g, w, err_msg=what)


def agree(fn, inputs, backends=BACKENDS):
    """Every backend agrees with plain Python on every input (at least two, same Function).
    Returns the exceptions the compiled runs raised, as (backend, args, message)."""
    assert len(inputs) >= 2, "call the same Function at least twice"
    raised = []
    for backend in backends:
        f = ag.defun(fn, backend=backend)
        for args in inputs:
            want, got = outcome(fn, args), outcome(f, args)
            what = f"{fn.__name__}{args!r} on {backend}"
            assert got[0] == want[0], f"{what}: got {got[:2]}, plain Python {want[:2]}"
            if want[0] == "ok":
                _same(got[1], want[1], what)
            else:
                raised.append((backend, args, got[1]))
            _same(list(got[2]), list(want[2]), f"{what}, arguments afterwards")
    return raised
