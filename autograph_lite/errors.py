"""Pointing at the user's code: file:line of the nearest user frame, and origin maps.

Generated code (AutoGraph output, kernels) registers a map from its own lines back to the
user's file:line, so every error and every Node names a line the user wrote.
"""
import functools
import os
import sys

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
_ORIGINS = {}  # generated filename -> {generated line: (user file, user line)}
_SKIP_DIRS = [_PKG_DIR]
GENERATED = "<autograph_lite "  # filename prefix of code this package generates and runs


def register_origin_map(filename, mapping):
    """Lines of ``filename`` (generated) -> (user_file, user_line): the one origin map, for
    AutoGraph's output (autograph/pyct/origin.py makes its maps) and the kernels."""
    _ORIGINS[filename] = dict(mapping)


def is_generated(filename):
    return filename in _ORIGINS


def lookup(filename, lineno):
    """The user's (file, line) for a line of generated ``filename`` (that of the nearest
    mapped line at or above it: a statement's continuation lines), or None when the file
    is not generated."""
    m = _ORIGINS.get(filename)
    if m is None:
        return None
    while lineno > 0 and lineno not in m:
        lineno -= 1
    return m.get(lineno)


def origin_of(filename, lineno):
    """The user's (file, line) for a generated line, or the location itself."""
    return lookup(filename, lineno) or (filename, lineno)


def _is_library(filename):
    if filename in _ORIGINS:
        return False
    if filename.startswith(("<frozen", GENERATED)):
        return True
    path = _normalized(filename)  # (imported as `benchmarks/../autograph_lite/x.py` too)
    return any(path.startswith(d) for d in _SKIP_DIRS)


@functools.lru_cache(maxsize=4096)
def _normalized(filename):
    return filename if filename.startswith("<") else os.path.abspath(filename)


def user_frame(depth=1, frame=None):
    """The innermost frame that belongs to the user (not autograph_lite, not NumPy glue),
    from ``frame`` (default: ``depth`` frames up) outwards."""
    f = frame or sys._getframe(depth)
    while f is not None:
        fn = f.f_code.co_filename
        if not _is_library(fn) and "numpy" + os.sep not in fn:
            return f
        f = f.f_back
    return None


def user_stacklevel():
    """The ``stacklevel`` for warnings.warn that points at the innermost user frame (the
    user's call), counted from the caller of this function."""
    f, level = sys._getframe(1), 1
    while f is not None and _is_library(f.f_code.co_filename):
        f, level = f.f_back, level + 1
    return level


def user_location(depth=2, frame=None):
    """'file:line' of the innermost user frame (mapped through origin maps), or None."""
    f = user_frame(depth, frame)
    if f is None:
        return None
    fn, line = origin_of(f.f_code.co_filename, f.f_lineno)
    return f"{fn}:{line}"


def with_location(exc, loc):
    """Re-creates ``exc`` (same type) with ' (at file:line)' context appended once; NumPy's
    or Python's own error (marked by ``numpy_error``) keeps its text, which a user's
    `except ... as e` may read (`str(e)`), and gets the line in a note, as does a KeyError
    (its text is its key's repr: made again it would be a key of that text)."""
    if loc is None or loc in str(exc):
        return exc
    if getattr(exc, "ag_user_raise", False) or isinstance(exc, KeyError):  # (its key)
        if f"(at {loc})" not in getattr(exc, "__notes__", ()):
            exc.add_note(f"(at {loc})")
        return exc
    try:
        new = type(exc)(f"{exc} (at {loc})")
    except Exception:  # exotic exception signatures keep their own message
        return exc
    new.__cause__ = exc.__cause__
    new.__dict__.update((k, v) for k, v in exc.__dict__.items() if k.startswith("ag_"))
    return new


# autograph/runtime/staging.py's ``user_raise``: marks an exception as raised on the runs
# that reach it (installed there; None while nothing converts code)
MARK_RAISED = None


def numpy_error_at_user(exc):
    """``exc``, NumPy's (or Python's) own error met while tracing (``numpy_error``), at the
    user's line: what a front raises for an error it knows before staging anything."""
    return with_location(numpy_error(exc), user_location())


def numpy_error(exc):
    """``exc`` as NumPy itself raises it where it is met, known while tracing (an index
    out of bounds of a known size): like the user's own `raise`, it is raised by the runs
    that reach it (a staged branch's, a staged loop's trips), not by the trace for every
    input (autograph/runtime/user_raises.py)."""
    return MARK_RAISED(exc) if MARK_RAISED is not None else exc


class UnstagedAttributeError(TypeError, AttributeError):
    """An ndarray method or attribute with no staged form, used on a symbolic tensor: a
    TypeError for the user (SPEC §1: never a raw AttributeError), and an AttributeError
    too, so ``hasattr``/``getattr(x, name, default)`` probes still answer "no"."""
