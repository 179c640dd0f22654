"""Loads generated source as a real module file, so tracebacks and pdb show its text."""

import hashlib
import importlib.util
import os
import tempfile

_DIR = []


def _temp_dir():
    if not _DIR:
        _DIR.append(tempfile.mkdtemp(prefix="autograph_lite_"))
    return _DIR[0]


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
