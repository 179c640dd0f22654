"""Loads generated source as a real module file, so tracebacks and pdb show its text."""

import atexit
import hashlib
import importlib.util
import os
import shutil
import tempfile

_DIR = []  # (the folder, the process that made it)


def _temp_dir():
    """This process's folder of generated sources, removed when it exits (a forked
    child, which inherits the list, makes its own)."""
    if not _DIR or _DIR[0][1] != os.getpid():
        _DIR[:] = [(tempfile.mkdtemp(prefix="autograph_lite_"), os.getpid())]
        atexit.register(_remove, *_DIR[0])
    return _DIR[0][0]


def _remove(folder, pid):
    if os.getpid() == pid:
        shutil.rmtree(folder, ignore_errors=True)


def load_source(source, name):
    """Writes `source` to `<tmp>/<name>_<hash>.py`, imports it; returns (module, path)."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    path = os.path.join(_temp_dir(), f"{name}_{digest}.py")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(source)
    spec = importlib.util.spec_from_file_location(f"ag__generated_{name}_{digest}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path
