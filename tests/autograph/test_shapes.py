"""`x.shape` in user code is NumPy's shape also where the trace knows a size only at run
time (autograph/converters/shapes.py): a staged int there, never `None`.

Before, `if x.shape[0] == 3` compared `None == 3` in every trace whose sizes had relaxed
(False on every run, whatever the length) and a returned `x.shape` held `None`."""
import numpy as np

import autograph_lite as ag
from differential import agree


def branch_on_length(x):
    if x.shape[0] == 3:
        return x.sum()
    return x.max()


def test_a_branch_on_a_relaxed_length_is_staged():
    # lengths enough to relax the sizes; 3 comes back after the relaxed trace exists
    calls = [(np.arange(float(n)),) for n in (4, 5, 3, 6, 7, 8, 9, 3, 2)]
    agree(branch_on_length, calls=calls, exact=True)
    f = ag.defun(branch_on_length)
    for args in calls:
        f(*args)
    relaxed = f.get_concrete_function(np.arange(17.0))
    assert relaxed.inputs[0].shape == (None,)
    assert float(relaxed(np.arange(3.0))) == 3.0  # the relaxed kernel itself takes the sum


def mask_shapes(x, t):
    m = x[x > t]
    grid = np.empty((2, np.sum(x > t), 2))
    rows, = m.shape
    return (m.shape[0] == 2, m.shape, np.shape(m), rows, len(m), grid.shape,
            np.zeros(m.shape).sum(), x.shape)


def test_sizes_known_only_at_run_time_are_numpys():
    agree(mask_shapes, calls=[(np.arange(4.0), 1.0), (np.arange(6.0), 4.5),
                              (np.arange(3.0), -1.0)], exact=True)


def loop_over_shape(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * (i + 1)
    return s, x.shape[0] > 4


def test_a_loop_bound_from_a_relaxed_shape_is_staged():
    calls = [(np.arange(float(n)),) for n in (2, 9, 3, 5, 6, 7, 8, 1)]
    agree(loop_over_shape, calls=calls, exact=True)


def test_shape_of_other_objects_is_their_attribute():
    class Box:
        shape = "a box"

    def f(x, b):
        return x.shape, b.shape

    agree(f, calls=[(np.ones((2, 3)), Box())])
