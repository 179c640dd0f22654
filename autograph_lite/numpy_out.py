"""``out=`` for NumPy functions that are not ufuncs (``np.clip(x, lo, hi, out=x)``,
``np.sum(m, axis=0, out=acc)``, ``np.cumsum(x, out=x)``): the result is computed as without
``out``, then written into ``out`` as NumPy writes it (mutation.store: every alias and
view of ``out`` sees it), and ``out`` is what the call returns.

- elementwise (``clip``, ``round``/``around``): NumPy's ufunc rule, the result cast to
  ``out``'s dtype under ``same_kind`` (its TypeError otherwise), broadcast to ``out``'s
  shape;
- reductions and running sums (``sum``, ``prod``, ``cumsum``, ``cumprod``): ``out`` must have
  the result's shape; NumPy computes in ``out``'s dtype, so an ``out`` of the result's own
  dtype is a copy, a wider float or complex ``out`` recomputes with ``dtype=`` its dtype
  (NumPy's loop for it), and any other dtype is refused by name;
- ``max``/``min``/``amax``/``amin``, ``any``/``all``: ``out`` of the result's shape, the
  values cast (NumPy casts them unsafely); ``argmax``/``argmin`` the same into an integer
  ``out`` that casts safely to intp; ``mean`` as the reductions;
- ``dot``: ``out`` of the result's dtype and shape, C-contiguous (NumPy's errors).

The Tensor methods (``m.sum(axis=0, out=acc)``) take the same rules (front_door.py).

Registered in numpy_api.OUT_RULES, which ``array_function`` reads.
"""
import numpy as np

from . import mutation
from .contiguity import box_is_c
from .numpy_api import OUT_RULES, shapes_fit, writable
from .ops.dispatch import convert_to_tensor


def _store(out, result, casting, name):
    box = writable(out, f"np.{name}(..., out=)")
    ufunc = getattr(np._core.umath, name, None)  # (np.clip is a function around its ufunc)
    mutation.store(box, convert_to_tensor(result),
                   mutation.ufunc_cast_error(ufunc, name, casting), casting)
    return box


def _same_shape(out, result, name):
    got, want = tuple(np.shape(out)), tuple(np.shape(result))
    if not shapes_fit(got, want):
        raise ValueError(f"np.{name}(..., out=): the output array has shape {got}, the "
                         f"result {want}")


def _elementwise(name):
    def rule(impl, args, kwargs, out):
        return _store(out, impl(*args, **kwargs), "same_kind", name)
    return rule


def _accumulating(name):
    def rule(impl, args, kwargs, out):
        result = impl(*args, **kwargs)
        _same_shape(out, result, name)
        have, want = np.dtype(result.dtype), np.dtype(out.dtype)
        if have != want:
            if kwargs.get("dtype") is None and have.kind in "fc" and want.kind in "fc" and \
                    np.can_cast(have, want, "safe"):
                result = impl(*args, **dict(kwargs, dtype=want))  # (NumPy's loop: out's)
            elif kwargs.get("dtype") is None and have.kind in "iub" and want.kind in "iu" \
                    and name != "mean":
                pass  # (NumPy adds or multiplies in out's ints, wrapping: the low bits of
                # ours, the same; `np.cumsum(a, out=a)` of int32, session 52's probe)
            else:
                raise NotImplementedError(
                    f"np.{name}(..., out=) into a {want} array from a {have} result is not "
                    f"staged (NumPy picks its loop from the output there); pass dtype= or "
                    f"an out of dtype {have}")
        return _store(out, result, "unsafe", name)
    return rule


def _extreme(name):
    def rule(impl, args, kwargs, out):
        result = impl(*args, **kwargs)
        _same_shape(out, result, name)
        return _store(out, result, "unsafe", name)
    return rule


def _arg(name):
    """argmax/argmin: an out of the result's shape whose dtype casts safely to intp."""
    def rule(impl, args, kwargs, out):
        result = impl(*args, **kwargs)
        _same_shape(out, result, name)
        if not np.can_cast(out.dtype, np.intp, "safe"):
            raise TypeError(f"Cannot cast array data from dtype('{np.dtype(out.dtype)}') to "
                            f"dtype('int64') according to the rule 'safe'")
        return _store(out, result, "unsafe", name)
    return rule


def _dot(impl, args, kwargs, out):
    """np.dot's out: of the result's dtype, rank and shape, and C-contiguous (NumPy's
    errors otherwise)."""
    result = impl(*args, **kwargs)
    c = out.flags.c_contiguous if isinstance(out, np.ndarray) else box_is_c(out)
    if np.ndim(out) != result.ndim or np.dtype(out.dtype) != result.dtype or not c:
        raise ValueError("output array is not acceptable (must have the right datatype, "
                         "number of dimensions, and be a C-Array)" + (
                             "" if c else " (or is not known to be C-contiguous on every "
                                          "run while tracing)"))
    if not shapes_fit(tuple(np.shape(out)), tuple(np.shape(result))):
        raise ValueError("output array has wrong dimensions")
    return _store(out, result, "unsafe", "dot")


OUT_RULES.update({np.clip: _elementwise("clip"), np.round: _elementwise("rint"),
                  np.around: _elementwise("rint")})
OUT_RULES.update({f: _accumulating(f.__name__) for f in (np.sum, np.prod, np.cumsum,
                                                          np.cumprod, np.mean)})
OUT_RULES.update({f: _extreme(f.__name__) for f in (np.max, np.min, np.amax, np.amin,
                                                     np.any, np.all)})
OUT_RULES.update({np.argmax: _arg("argmax"), np.argmin: _arg("argmin"), np.dot: _dot})
