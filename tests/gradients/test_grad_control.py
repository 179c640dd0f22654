"""Gradients through staged control flow (SPEC §5): a staged ``if`` is differentiated as
the branch taken; a staged loop refuses with a clear error until its reverse sweep lands."""
import numpy as np
import pytest

import autograph_lite as ag
from gradcheck import BACKENDS, check

RNG = np.random.default_rng(1)


def branchy(x, w):
    s = np.sum(x)
    if s > 0.0:                       # staged: s is a tensor
        y = np.exp(x) * w
        if np.max(x) > 1.0:
            y = y * x
    else:
        y = x * x - w
    z = np.where(x > 0.0, y, 2.0 * y)
    return np.sum(np.sin(z)) + s * np.sum(w)


def test_gradient_of_the_branch_taken():
    pos = (RNG.uniform(0.2, 1.5, 4), RNG.normal(size=4))
    neg = (-RNG.uniform(0.2, 1.5, 4), RNG.normal(size=4))
    small = (RNG.uniform(0.1, 0.2, 4), RNG.normal(size=4))
    check(branchy, calls=[pos, neg, small], wrt=(0, 1))


def reading_outer_values(x, k):
    a = np.cos(x)                     # computed before the branch, read inside it
    if k > 0:
        out = a * x
    else:
        out = a
    return np.sum(out * out)


def test_branch_reads_values_of_the_enclosing_code():
    x = RNG.normal(size=3)
    check(reading_outer_values, calls=[(x, np.int64(1)), (x, np.int64(-1))])


def test_staged_loop_refuses_naming_the_line():
    def f(x, n):
        i, y = 0, x
        while i < n:
            y = y * 2.0
            i += 1
        return ag.gradients(np.sum(y), [x])
    for backend in BACKENDS:
        with pytest.raises(NotImplementedError, match="'while_loop' is not built yet.*test_grad_control.py:"):
            ag.defun(f, backend=backend)(np.ones(2), np.int64(3))
