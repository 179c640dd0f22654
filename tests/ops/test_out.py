"""``out=`` of NumPy functions that are not ufuncs (numpy_out.py), of ufuncs with
``where=``, and of ufunc methods (``.accumulate``/``.reduce``): the result written into the
output as NumPy writes it (aliases and views of it see the write, the call returns it),
with NumPy's casting errors; three ways, the arguments after the call compared. Before:
TypeError ("unexpected keyword argument 'out'") or "not staged"."""
import numpy as np

from differential import agree


def outs(x, m, y, z):
    r = np.clip(x, -1.0, 1.0, out=x)
    np.sum(m, axis=0, out=y)
    np.cumsum(x, out=x)
    np.round(x, 1, out=x)
    np.max(m, axis=1, out=z[:3])            # into a view of an argument
    np.prod(m[:, :2], axis=1, out=z[1:])
    v = x[1:]
    np.clip(v, 0.0, 0.5, out=v)             # through a view, read back through x
    w = np.zeros(())
    np.sum(x.astype(np.float32) * 1e8, out=w)   # a wider float out: NumPy's loop in it
    return x, y, z, r is x, w


def test_functions_that_are_not_ufuncs_write_their_out():
    agree(outs, np.array([0.3, -1.2, 2.5, 0.0]), np.arange(12.0).reshape(3, 4), np.zeros(4),
          np.zeros(4), exact=True)


def ufunc_outs(x, y, m, z):
    np.maximum.accumulate(x, out=y)
    np.negative(x, out=x, where=x > 1.0)     # out keeps its elements where False
    np.add.reduce(m, axis=0, out=z)
    np.multiply(x, 2.0, out=y, where=np.array([True, False, True, False]))
    return x, y, z


def test_ufunc_where_and_methods_with_out():
    agree(ufunc_outs, np.array([0.3, -1.2, 2.5, 0.0]), np.zeros(4),
          np.arange(12.0).reshape(3, 4), np.zeros(4), exact=True)


def clip_into_ints(x):
    np.clip(x, 0, 2, out=np.zeros(4, np.int64))


def test_numpys_casting_error():
    raised = []
    agree(clip_into_ints, calls=[(np.array([0.3, -1.2, 2.5, 0.01]),)] * 2, errors=raised)
    assert raised and all("Cannot cast ufunc 'clip' output" in m for *_, m in raised), raised
