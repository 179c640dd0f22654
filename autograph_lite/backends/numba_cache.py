"""Loading a kernel from Numba's disk cache without paying Numba's registry start-up.

Numba's ``Cache.load_overload`` first calls ``target_context.refresh()``, which imports
and installs every typing and lowering registry Numba has (``numba.np.arraymath`` pulls in
SciPy's ``linalg`` package on the way): about 0.2 s, once per process. A kernel loaded from
the cache is object code that is already typed and lowered; running it needs the native
runtime (NRT) symbols and the helper symbols Numba registers at import, not the
registries. Every path that compiles (a cache miss, a new signature, another kernel)
still refreshes, inside Numba's ``CompilerBase``, so nothing is lost when a compile
follows a lean load.

Kernels with ``objmode`` blocks (``ag.print``, callbacks) keep Numba's own load: their
lifted Python blocks are rebuilt through the dispatcher machinery, which expects the
refreshed context (numba/numba#9806 proposed exactly this split).

This relies on ``numba.core.caching.Cache``'s private ``_load_overload`` and
``_guard_against_spurious_io_errors`` (numba is pinned to 0.68.x in pyproject.toml);
if a Numba release lacks them, :func:`make_lean` leaves the dispatcher untouched.
"""
import numba.cpython.hashing  # noqa: F401 - registers the _Py_HashSecret symbol kernels may link
from numba.core.caching import Cache, FunctionCache
from numba.core.runtime import rtsys

_SUPPORTED = all(hasattr(Cache, a) for a in ("_load_overload",
                                              "_guard_against_spurious_io_errors"))


class LeanLoadCache(FunctionCache):
    """A FunctionCache whose loads initialise only the native runtime."""

    def load_overload(self, sig, target_context):
        rtsys.initialize(target_context)  # idempotent; the NRT symbols the object code links
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        # None when the guard swallowed a spurious I/O error, as in Numba's own load


def make_lean(dispatcher, source):
    """Switches ``dispatcher``'s disk cache to lean loads when ``source`` allows it;
    returns whether it did."""
    cache = getattr(dispatcher, "_cache", None)
    if not _SUPPORTED or type(cache) is not FunctionCache or "numba.objmode" in source:
        return False
    cache.__class__ = LeanLoadCache  # same state, one method differs
    return True
