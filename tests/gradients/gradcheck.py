"""The gradient check of SPEC §5: ``ag.gradients`` inside ``ag.defun``, on every backend,
against central finite differences of the plain NumPy function in float64.

``check(fn, *args, wrt=...)``: ``fn`` is plain NumPy code returning a scalar; each backend
runs ``ag.defun(lambda *a: ag.gradients(fn(*a), [a[k] for k in wrt]))`` on fresh copies,
twice (the second call on other values of the same shapes), and must give the finite
differences within a tolerance scaled to the gradient's magnitude; the arguments stay as
they were. Large inputs are checked along random directions instead of per element. A
complex input's gradient is TensorFlow's ``dL/dx + i dL/dy`` (``z = x + iy``): the
differences along the real and the imaginary part of each element."""
import numpy as np

import autograph_lite as ag

BACKENDS = ("interpreter", "cpu")


def finite_difference(fn, args, k, eps=1e-6, directions=None):
    """d fn / d args[k] by central differences (per element, or the directional
    derivatives along ``directions``); for a complex argument, d/dx + i d/dy."""
    args = [np.array(a, dtype=np.complex128 if a.dtype.kind == "c" else np.float64, copy=True)
            if isinstance(a, np.ndarray) and a.dtype.kind in "fc" else a for a in args]
    x = args[k]
    if x.dtype.kind == "c" and directions is None:
        def along(part):  # fn of the real (part 0) or imaginary (1) part of args[k]
            def of_part(*a):
                z = a[k] + 1j * x.imag if part == 0 else x.real + 1j * a[k]
                return fn(*a[:k], z, *a[k + 1:])
            return finite_difference(of_part, args[:k] + [(x.real, x.imag)[part]]
                                     + args[k + 1:], k, eps)
        return along(0) + 1j * along(1)
    if x.dtype.kind == "c":  # (large complex inputs: not needed yet)
        raise NotImplementedError("complex inputs are checked per element")

    def at(delta):
        trial = list(args)
        trial[k] = x + delta
        return float(fn(*trial))
    if directions is not None:
        return [(at(eps * d) - at(-eps * d)) / (2 * eps) for d in directions]
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (at(e) - at(-e)) / (2 * eps)
    return g


def gradient_function(fn, wrt, backend):
    def grads(*a):
        return ag.gradients(fn(*a), [a[k] for k in wrt])
    grads.__name__ = f"grad_{fn.__name__}"
    return ag.defun(grads, backend=backend)


def _second(args, seed):
    rng = np.random.default_rng(seed)
    return tuple(a + rng.uniform(-0.05, 0.05, a.shape).astype(a.dtype)
                 if isinstance(a, np.ndarray) and a.dtype.kind in "fc" else a for a in args)


def check(fn, *args, wrt=(0,), functions=None, calls=None, rtol=1e-5, backends=BACKENDS):
    """Asserts that every backend's ``ag.gradients`` matches finite differences (module
    docstring); returns the first call's gradients per backend."""
    calls = calls or [args, _second(args, 1)]
    first = {}
    for backend in backends:
        f = (functions or {}).get(backend) or gradient_function(fn, wrt, backend)
        for n, call in enumerate(calls):
            fresh = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in call]
            got = f(*fresh)
            for a, b in zip(call, fresh):  # the arguments stay as they were
                np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
            assert isinstance(got, list) and len(got) == len(wrt), got
            for k, g in zip(wrt, got):
                assert g is not None, f"{backend}: no gradient for argument {k}"
                g = np.asarray(g)
                x = call[k]
                assert g.shape == np.shape(x), (backend, k, g.shape, np.shape(x))
                assert g.dtype == np.asarray(x).dtype, (backend, k, g.dtype)
                ds = _directions(np.asarray(x))  # (large inputs: along random directions)
                expect = np.asarray(finite_difference(fn, call, k, directions=ds))
                got_along = g if ds is None else np.array([np.sum(g * d) for d in ds])
                scale = max(1.0, float(np.max(np.abs(expect), initial=0.0)))
                np.testing.assert_allclose(np.asarray(got_along, expect.dtype), expect,
                                           rtol=rtol, atol=rtol * scale,
                                           err_msg=f"{backend}, call {n}, d/d arg {k}")
            first.setdefault(backend, got)
    return first


def _directions(x):
    rng = np.random.default_rng(x.size)
    return [rng.normal(size=x.shape) for _ in range(3)] if x.size > 64 else None

