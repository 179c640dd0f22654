"""Maps every line of generated code back to the user's file:line.

Converters keep `ag_origin = (file, line)` on nodes (see parser.set_origin and
converters.base); when a module is emitted, `source_map` pairs the lines of the emitted
text with those origins, and `register` makes them visible to `lookup`, which error
messages and `user_location` use to point at the user's code instead of ours.
"""

import ast
import os
import sys

import gast

_MAPS = {}
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def source_map(module):
    """Unparses a gast module; returns (source text, {generated line: (file, line)})."""
    table = []
    for n in gast.walk(module):
        if "lineno" in getattr(n, "_attributes", ()):
            origin = getattr(n, "ag_origin", None)
            if origin is not None:
                table.append(origin)
            n.lineno = len(table) if origin is not None else 0
            n.end_lineno = n.lineno
            n.col_offset = n.end_col_offset = 0
    before = gast.gast_to_ast(module)
    text = ast.unparse(before)
    after = ast.parse(text)
    mapping = {}
    for a, b in zip(ast.walk(before), ast.walk(after)):
        if type(a) is not type(b):
            break
        line = getattr(b, "lineno", None)
        if line is not None and getattr(a, "lineno", 0) and line not in mapping:
            mapping[line] = table[a.lineno - 1]
    return text + "\n", mapping


def register(filename, mapping):
    """Maps the lines of generated ``filename`` back to the user's, here and for the
    core's errors module (op errors raised while tracing name the user's line too)."""
    from autograph_lite import errors
    _MAPS[filename] = mapping
    errors.register_origin_map(filename, mapping)


def lookup(filename, lineno):
    """The user's (file, line) for a line of generated code, or None if not generated."""
    mapping = _MAPS.get(filename)
    if mapping is None:
        return None
    while lineno > 0 and lineno not in mapping:
        lineno -= 1
    return mapping.get(lineno)


def is_generated(filename):
    return filename in _MAPS


def _is_internal(filename):
    return os.path.abspath(filename).startswith(_PACKAGE_DIR + os.sep)


def user_location(frame=None):
    """'file:line' of the nearest frame in user code (generated lines mapped back)."""
    frame = frame or sys._getframe(1)
    while frame is not None:
        filename, lineno = frame.f_code.co_filename, frame.f_lineno
        origin = lookup(filename, lineno)
        if origin is not None:
            return f"{origin[0]}:{origin[1]}"
        if not _is_internal(filename) and not filename.startswith("<"):
            return f"{filename}:{lineno}"
        frame = frame.f_back
    return "<unknown>"


def user_frames(tb):
    """The user-code entries ('file:line') of a traceback, generated lines mapped back."""
    out = []
    while tb is not None:
        filename, lineno = tb.tb_frame.f_code.co_filename, tb.tb_lineno
        origin = lookup(filename, lineno)
        if origin is not None:
            out.append(f"{origin[0]}:{origin[1]}")
        elif not _is_internal(filename):
            out.append(f"{filename}:{lineno}")
        tb = tb.tb_next
    return out
