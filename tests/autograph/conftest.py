"""Helpers for the converter tests: one rewrite in isolation, and the converted function
checked against plain Python with the suite's differential check (differential.py)."""

import inspect
import os

from differential import agree


def convert_only(fn, *converters):
    """Source of `fn` after running only `converters` (in order): one rewrite in isolation."""
    from autograph_lite.autograph.converters import base
    from autograph_lite.autograph.pyct import naming, parser
    node, filename = parser.parse_function(fn)
    ctx = base.Context(naming.Namer.for_tree(node), filename)
    for converter in converters:
        node = converter.transform(node, ctx)
    return parser.unparse(node)


def assert_equivalent(fn, inputs):
    """The converted function behaves as `fn` on every input, run on Python values: the
    same result (and Python types), stdout, exception type and arguments afterwards."""
    import autograph_lite.autograph as autograph
    agree(fn, calls=inputs, functions={"converted": autograph.convert(fn)}, python=True,
          exact=True)


def line_of(fn, marker):
    """'file.py:N' for the line of `fn`'s source holding `marker` (a comment)."""
    lines, first = inspect.getsourcelines(fn)
    for i, text in enumerate(lines):
        if marker in text:
            return f"{os.path.basename(inspect.getsourcefile(fn))}:{first + i}"
    raise AssertionError(marker)
