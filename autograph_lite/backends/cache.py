"""Kernel modules on disk, so Numba's own ``cache=True`` applies across processes.

A kernel's source is written to ``<cache dir>/ag_<sha256>.py`` and imported from there
(Numba cannot cache functions built by ``exec``). An existing file is imported only if its
text is exactly the expected source; a truncated or garbage file is rewritten. A cache
folder that cannot be written degrades to in-memory compilation with one warning.
Loads from Numba's cache skip Numba's registry start-up where that is safe (numba_cache).
"""
import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
import types
import warnings
from pathlib import Path

_LOCK = threading.Lock()
_MEMORY = {}       # sha -> module namespace
_WARNED = [False]


def cache_dir():
    """The folder for kernel modules, or None when disk caching is off."""
    env = os.environ.get("AUTOGRAPH_LITE_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("off", "0", "none", "") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "autograph_lite"


def source_key(source):
    return hashlib.sha256(source.encode()).hexdigest()


def load_module(source, lean=True):
    """The namespace of the kernel module for ``source`` (compiled lazily by Numba); ``lean``:
    a cpu module, whose ``kernel`` loads from Numba's cache without its registry start-up
    (numba_cache)."""
    key = source_key(source)
    with _LOCK:
        ns = _MEMORY.get(key)
        if ns is None:
            ns = _load(source, key, lean)
            _MEMORY[key] = ns
        return ns


def forget(source):
    """Drops a kernel from memory and disk (its Numba cache too), e.g. after a bad load."""
    key = source_key(source)
    with _LOCK:
        _MEMORY.pop(key, None)
        d = cache_dir()
        if d is None:
            return
        for p in [d / f"ag_{key}.py", *(d / "__pycache__").glob(f"ag_{key}.*")]:
            try:
                p.unlink()
            except OSError:
                pass


def _load(source, key, lean):
    d = cache_dir()
    if d is not None:
        try:
            ns = _import_file(_write(d, key, source), key)
        except OSError as e:
            if not _WARNED[0]:
                _WARNED[0] = True
                warnings.warn(f"autograph_lite: kernel cache folder {d} is not usable ({e}); "
                              f"compiled kernels are kept in memory only", RuntimeWarning,
                              stacklevel=4)
        else:
            if lean:
                from . import numba_cache
                numba_cache.make_lean(ns["kernel"], source)
            return ns
    # A real module in sys.modules: Numba resolves an objmode block's globals (np, rt)
    # through the function's module name, so a bare dict namespace would lose them.
    module = types.ModuleType(f"ag_{key}")
    sys.modules[module.__name__] = module
    exec(compile(source.replace("cache=True", "cache=False"), f"<kernel {key[:12]}>", "exec"),
         module.__dict__)
    return module.__dict__


def _write(d, key, source):
    path = d / f"ag_{key}.py"
    try:
        if path.read_text() == source:
            return path
    except (OSError, UnicodeDecodeError):
        pass
    d.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        f.write(source)
    os.replace(tmp, path)
    for stale in (d / "__pycache__").glob(f"ag_{key}.*"):
        stale.unlink()  # the Numba cache of a replaced file cannot be trusted
    return path


def _import_file(path, key):
    name = f"ag_{key}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return vars(module)
