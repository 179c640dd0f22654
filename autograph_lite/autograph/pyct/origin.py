"""Maps every line of generated code back to the user's file:line.

Converters keep `ag_origin = (file, line)` on nodes (see parser.set_origin and
converters.base); when a module is emitted, `source_map` pairs the lines of the emitted
text with those origins, and `register` puts them in the package's one origin map
(autograph_lite/errors.py), which error messages and `user_location` read to point at the
user's code instead of ours.
"""

import ast
import sys

import gast

from autograph_lite import errors


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
    """Maps the lines of generated ``filename`` back to the user's, in the one origin map
    (autograph_lite/errors.py), which every error and ``user_location`` read."""
    errors.register_origin_map(filename, mapping)


def user_location(frame=None):
    """'file:line' of the nearest frame in user code (generated lines mapped back)."""
    return errors.user_location(frame=frame or sys._getframe(1)) or "<unknown>"
