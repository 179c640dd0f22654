"""Shared fixtures: a per-session kernel cache folder and the three-way check.

Every feature is checked three ways: the plain Python/NumPy run (the oracle), the
interpreter backend, and the compiled cpu backend must agree in values and dtypes.
"""
import os
import tempfile

import numpy as np
import pytest

os.environ.setdefault("AUTOGRAPH_LITE_CACHE_DIR", os.path.join(tempfile.gettempdir(),
                                                               "autograph_lite_test_cache"))
os.environ.setdefault("AUTOGRAPH_LITE_QUIET", "1")

import autograph_lite as ag  # noqa: E402

BACKENDS = ("interpreter", "cpu")


def _np(x):
    if isinstance(x, ag.Tensor):
        return x.numpy()
    if isinstance(x, (tuple, list)):
        return type(x)(_np(v) for v in x)
    if isinstance(x, dict):
        return {k: _np(v) for k, v in x.items()}
    return x


def assert_same(got, want, rtol=1e-6, atol=1e-9, what="result"):
    got, want = _np(got), _np(want)
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), (what, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, rtol, atol, f"{what}[{i}]")
        return
    if isinstance(want, dict):
        assert set(got) == set(want)
        for k in want:
            assert_same(got[k], want[k], rtol, atol, f"{what}[{k!r}]")
        return
    if want is None:
        assert got is None, (what, got)
        return
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype, f"{what}: dtype {g.dtype} != oracle {w.dtype}"
    assert g.shape == w.shape, f"{what}: shape {g.shape} != oracle {w.shape}"
    if w.dtype.kind == "f":
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(g, w, err_msg=what)


def assert_backends_agree(fn, *args, autograph=True, rtol=1e-6, atol=1e-9, **kwargs):
    """Runs ``fn`` as plain Python (oracle), on the interpreter and compiled; all must agree."""
    want = fn(*args, **kwargs)
    results = {}
    for backend in BACKENDS:
        f = ag.defun(fn, autograph=autograph, backend=backend)
        got = f(*args, **kwargs)
        assert_same(got, want, rtol, atol, what=f"{fn.__name__} on {backend}")
        results[backend] = got
    return results


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param
