"""Converted functions on disk, so a new process does not parse and convert them again.

A conversion is a pure function of the function's source lines, its file and first line
(the origin map points there), its qualified name and free variable names, the options,
and the converters' own code. The key hashes all of these, so an edit to any of them is
a miss, never a stale hit. An entry is one JSON file,
``<kernel cache dir>/autograph/<key>.json`` (``AUTOGRAPH_LITE_CACHE_DIR``; ``off``
disables both caches), holding the generated module text, its origin map and the
converted function's source, with a checksum: an unreadable, truncated or altered entry
is a miss and is rewritten. A folder that cannot be written leaves conversions in memory
(the kernel cache warns about that folder once). Lambdas are not stored: finding their
source means parsing their whole file anyway.
"""
import hashlib
import json
import os
import tempfile
from pathlib import Path

_FINGERPRINT = []
_PARTS = ("analysis", "converters", "pyct", "pipeline.py")  # what conversion runs


def _fingerprint():
    """A digest of the converters' source: a new release or a local edit is a new key."""
    if not _FINGERPRINT:
        root = Path(__file__).resolve().parent.parent
        h = hashlib.sha256()
        for part in _PARTS:
            p = root / part
            for f in sorted(p.rglob("*.py")) if p.is_dir() else [p]:
                h.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes())
        _FINGERPRINT.append(h.hexdigest())
    return _FINGERPRINT[0]


def _folder():
    from autograph_lite.backends.cache import cache_dir
    d = cache_dir()
    return None if d is None else d / "autograph"


def key(fn, lines, first, options):
    """The entry name for converting ``fn`` (whose source is ``lines`` from line
    ``first``) with ``options``."""
    code = fn.__code__
    ident = json.dumps([_fingerprint(), repr(options), code.co_filename, first,
                        fn.__qualname__, list(code.co_freevars)])
    return hashlib.sha256((ident + "\0" + "".join(lines)).encode()).hexdigest()


def _checksum(text, mapping, function_source):
    body = json.dumps([text, mapping, function_source], sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


def load(entry_key):
    """(module text, {line: (file, line)}, function source), or None on any miss."""
    d = _folder()
    if d is None:
        return None
    try:
        with open(d / f"{entry_key}.json", encoding="utf-8") as f:
            data = json.load(f)
        text, raw_map, function_source = data["text"], data["mapping"], data["function"]
        if data["sha256"] != _checksum(text, raw_map, function_source):
            return None
        mapping = {int(line): (str(o[0]), int(o[1])) for line, o in raw_map.items()}
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    if not isinstance(text, str) or not isinstance(function_source, str):
        return None
    return text, mapping, function_source


def store(entry_key, text, mapping, function_source):
    """Writes an entry atomically; quietly does nothing if the folder is not writable."""
    d = _folder()
    if d is None:
        return
    raw_map = {str(line): [o[0], o[1]] for line, o in mapping.items()}
    data = {"text": text, "mapping": raw_map, "function": function_source,
            "sha256": _checksum(text, raw_map, function_source)}
    try:
        d.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, d / f"{entry_key}.json")
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
