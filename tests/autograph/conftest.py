"""Shared helpers for the autograph tests: comparing results of two runs."""

import contextlib
import copy
import inspect
import io
import os

import numpy as np


def run_capturing(fn, args):
    """Runs fn(*deepcopy(args)); returns ('ok', result, stdout) or ('raise', type, stdout)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            result = fn(*copy.deepcopy(args))
        except Exception as e:  # noqa: BLE001 - the exception type is the result
            return "raise", type(e), out.getvalue()
    return "ok", result, out.getvalue()


def assert_same(a, b):
    """Structural equality that treats arrays/tensors by value and dtype (a Python int
    result matches int64, a float float64, as NumPy converts them)."""
    if isinstance(a, (tuple, list)):
        assert isinstance(b, (tuple, list)) and len(a) == len(b), (a, b)
        for x, y in zip(a, b):
            assert_same(x, y)
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), (a, b)
        for k in a:
            assert_same(a[k], b[k])
    elif isinstance(a, (np.ndarray, np.generic)) or hasattr(b, "numpy"):
        want, got = np.asarray(a), np.asarray(b)
        np.testing.assert_allclose(got, want, rtol=1e-6)
        assert got.dtype == want.dtype, f"dtype {got.dtype}, plain Python gives {want.dtype}"
    else:
        assert a == b and type(a) is type(b), (a, b)


def convert_only(fn, *converters):
    """Source of `fn` after running only `converters` (in order): one rewrite in isolation."""
    from autograph_lite.autograph.converters import base
    from autograph_lite.autograph.pyct import naming, parser
    node, filename = parser.parse_function(fn)
    ctx = base.Context(naming.Namer.for_tree(node), filename)
    for converter in converters:
        node = converter.transform(node, ctx)
    return parser.unparse(node)


def assert_equivalent(fn, inputs):
    """The converted function behaves as `fn` on every input (result, stdout, exception)."""
    import autograph_lite.autograph as autograph
    converted = autograph.convert(fn)
    for args in inputs:
        expected = run_capturing(fn, args)
        got = run_capturing(converted, args)
        assert got[0] == expected[0] and got[2] == expected[2], (args, expected, got)
        if expected[0] == "ok":
            assert_same(expected[1], got[1])
        else:
            assert got[1] is expected[1]


def assert_exact(got, want, what):
    """`got` (defun's tensors) equals the oracle's `want` exactly: structure, shape, dtype
    and values (floats bit for bit, NaN included: same operations in the same order). A
    Python int of the oracle means int64, a float float64, as NumPy converts them."""
    import autograph_lite as ag
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), (what, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            assert_exact(g, w, f"{what}[{i}]")
        return
    assert isinstance(got, ag.Tensor), (what, got)
    g, w = got.numpy(), np.asarray(want)
    assert g.dtype == w.dtype, f"{what}: dtype {g.dtype} != oracle {w.dtype}"
    assert g.shape == w.shape, f"{what}: shape {g.shape} != oracle {w.shape}"
    np.testing.assert_equal(g, w, err_msg=what)


def line_of(fn, marker):
    """'file.py:N' for the line of `fn`'s source holding `marker` (a comment)."""
    lines, first = inspect.getsourcelines(fn)
    for i, text in enumerate(lines):
        if marker in text:
            return f"{os.path.basename(inspect.getsourcefile(fn))}:{first + i}"
    raise AssertionError(marker)
